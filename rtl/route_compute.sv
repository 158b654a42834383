// route_compute.sv — route register, forwarding-table copy, route computation (RC) and
// route-result register of one input port (contract §5, §6, §7): a head written (IW) in
// cycle t is routed in t+1 into the route-result register, which the input buffer appends
// to its queue (RQ) in t+2. Every input has its own copy of FWD so all
// inputs can look up in the same cycle; the register block writes all copies together.
// The oblivious choice (OBL) and the adaptive search (ADP) exist only where built (§1).
// With VCA (§16.3, ROUTE_CTRL mode 3) RC also chooses the output VC: the first (port, VC)
// pair with the most credits among FWD.amask x {vlo .. vlo+vn-1}, and the fallback route
// {fb, fport, fvc} that the input buffer's SA may take instead.
module route_compute #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  parameter int unsigned TABLE = 256,
  parameter int unsigned INDEX = 0,  // this input's port number (LFSR seed mix)
  parameter bit OBL = 1'b1,           // §7.3 oblivious hardware present (RouteOblivEn: mode 1,
                                      // the LFSR, the candidate count and choice)
  parameter bit ADP = 1'b1,           // §7.3 adaptive hardware present (RouteAdaptEn: mode 2,
                                      // the credit search and its triggers)
  parameter bit HASH = 1'b1,          // §17.6 hardware present (RouteHashEn and RouteOblivEn;
                                      // 0: no product)
  parameter bit VCA = 1'b0,           // §16.3 hardware present (VOQ = 0 and VcAdaptEn)
  parameter bit SAR = 1'b0,           // §17.8 hardware present (SE >= 1 and QcnEn)
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned SW = asw_pkg::slot_w(V, BUF),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned TW = asw_pkg::idx_w(TABLE),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned AMW = asw_pkg::amask_w(P),  // FWD.amask bits (ports < P)
  localparam int unsigned FWW = 16 + AMW,              // forwarding-table word from regs.sv
  localparam int unsigned EW = VCA ? FWW : 16,         // ... as kept here (amask with VCA only)
  localparam int unsigned MW = (SAR && CW < 7) ? 7 : CW  // search value: credits or 64 - level
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // IW: a head flit written this cycle loads the route register
  input  logic              iw_head_i,
  input  logic [VW-1:0]     iw_vc_i,
  input  logic [SW-1:0]     iw_slot_i,
  input  logic [63:0]       iw_hdr_i,
  // forwarding-table write (already checked for legality) and the entries written since
  // reset (the others read as 0)
  input  logic              fwd_we_i,
  input  logic [TW-1:0]     fwd_waddr_i,
  input  logic [FWW-1:0]    fwd_wdata_i,  // {amask, valid, multipath, cset, lookahead, det_port}
  input  logic [TABLE-1:0]  fwd_written_i,
  // configuration (register values at the start of the cycle)
  input  logic [1:0]        mode_i,
  input  logic [1:0]        trigger_i,
  input  logic [7:0]        stage_mask_i,
  input  logic [3:0]        stage_i,
  input  logic              vc_obqa_i,
  input  logic              afi_i,
  input  logic              fb_i,          // §16.3 VC_CTRL.fb, .fb_same, .esc_vc (mode 3)
  input  logic              fb_same_i,
  input  logic [2:0]        esc_vc_i,
  input  logic [15:0]       ltth_i,
  input  logic [5:0]        default_port_i,
  input  logic [4*P-1:0]    cset_i,       // CSET[c] = cset_i[c*P +: P]
  input  logic [P*16*VW-1:0] sl2vc_i,     // SL2VC[o][s] at (o*16+s)*VW
  input  logic              seed_we_i,
  input  logic [15:0]       seed_i,
  // §17.6 ROUTE_HASH ([1:0] kind, [7:4] SHIFT, [11:8] BITS; 0: the LFSR's value)
  input  logic [11:0]       route_hash_i,
  // §15: ARN_CTRL and the input port controller's ARN-table lookup (§15.5)
  input  logic [1:0]        arn_mode_i,
  input  logic              mark_adapted_i,
  input  logic              adapted_arn_i,  // ARN_CTRL.adapted_arn: adapted heads look up too
  output logic              lk_valid_o,     // head with a valid entry, mode != 0 (adapted:
                                            // only with adapted_arn_i)
  output logic [15:0]       lk_dest_o,
  output logic [VW-1:0]     lk_vc_o,
  output logic              lk_adapted_o,   // key vc = lk_orig_vc_o, non-consumed entries only
  output logic [2:0]        lk_orig_vc_o,
  input  logic              lk_consumed_i,  // a consumed entry matches: use lk_alt_port_i
  input  logic [PIW-1:0]    lk_alt_port_i,
  // §17.8 Switch AR steering: SAR_CTRL.steer and the level of the table entry {h.dest, o}
  // of every port o (0 if none), for the head routed this cycle (dest = lk_dest_o)
  input  logic              sar_steer_i,
  input  logic [P*6-1:0]    sar_lvl_i,
  // §18.5: outputs whose link is down are no candidates (bit o: output o's link is up)
  input  logic [P-1:0]      link_up_i,
  // credits at the start of the cycle and this cycle's 2TH flags
  input  logic [P*V*CW-1:0] cred_i,
  input  logic [P*V-1:0]    cong_next_i,
  // route-result register (RC of the previous cycle): RQ appends the packet to its queue
  output logic              rq_valid_o,
  output logic [VW-1:0]     rq_vc_o,
  output logic [SW-1:0]     rq_slot_o,
  output logic [7:0]        rq_len_o,
  output logic [PIW-1:0]    rq_oport_o,
  output logic [VW-1:0]     rq_ovc_o,
  output logic              rq_mark_o,       // stored header gets adapted = 1, orig_vc = rq_vc_o
  output logic              rq_fb_o,         // §16.3 fallback route (0 unless mode 3, VCA)
  output logic [PIW-1:0]    rq_fport_o,
  output logic [VW-1:0]     rq_fvc_o,
  output logic [15:0]       rq_dest_o,       // header fields §15 reads from queue heads
  output logic [15:0]       rq_src_o,        // header src (§17.4 CNM culprit)
  output logic              rq_adapted_o,
  output logic [2:0]        rq_orig_vc_o,
  // RC this cycle: counter pulses
  output logic              route_error_o,   // counter pulse (§7.5)
  output logic              adaptive_o       // counter pulse (§7.3)
);
  // ---- forwarding-table copy (block RAM) and route register (IW) ------------
  // The copy is read every cycle with the arriving header's dest (registered read): the
  // entry of a head written in cycle t is on the RAM's output in t+1, the RC cycle, as the
  // table was at the start of t (read-old on a same-cycle write). Whether the entry was
  // ever written, and dest < TABLE, is sampled with it.
  logic [15:0]   iw_dest;
  logic [EW-1:0] fwd_rdata;
  logic          rr_entry_ok_q;  // the entry read for the route register is valid data
  assign iw_dest = iw_hdr_i[15:0];

  ram_1r1w #(.W(EW), .DEPTH(TABLE)) u_fwd_mem (
    .clk_i,
    .we_i    (fwd_we_i),
    .waddr_i (fwd_waddr_i),
    .wdata_i (fwd_wdata_i[EW-1:0]),
    .raddr_i (iw_dest[TW-1:0]),
    .rdata_o (fwd_rdata)
  );

  logic          rr_valid_q;
  logic [VW-1:0] rr_vc_q;
  logic [SW-1:0] rr_slot_q;
  logic [63:0]   rr_hdr_q;
  logic [31:8]   rr_prod_q;      // §17.6 flow hash: bits 31:8 of {src, dest} * 9E3779B1

  // {src, dest} * 32'h9E3779B1 mod 2^32 as shifts and adds (its non-adjacent form,
  // 2^0 - 2^4 - 2^6 + 2^9 - 2^11 - 2^15 - 2^19 + 2^22 - 2^25 + 2^29 + 2^31: 11 terms, a
  // four-level adder tree) rather than a multiplier, which Yosys would map to DSP blocks.
  // The partial sums are kept (keep) so each stays a carry-chain adder: merged into one
  // multi-operand sum, Yosys builds it from LUTs (ECP5, P=2: 423 LUTs an input instead
  // of 251); being kept, they exist only where the §17.6 hardware is (HASH). Taken in
  // the IW cycle from the arriving header, so RC only selects bits.
  logic [31:0] iw_prod;
  if (HASH) begin : gen_hash
    logic [31:0] hx;
    assign hx = iw_hdr_i[31:0];
    (* keep *) logic [31:0] pa0, pa1, pa2, pa3, pa4, pb0, pb1, pc0;
    assign pa0 = hx - (hx << 4);
    assign pa1 = (hx << 9) - (hx << 6);
    assign pa2 = (hx << 22) - (hx << 19);
    assign pa3 = (hx << 15) + (hx << 11);
    assign pa4 = (hx << 29) - (hx << 25);
    assign pb0 = pa0 + pa1;
    assign pb1 = pa2 - pa3;
    assign pc0 = pa4 + (hx << 31);
    assign iw_prod = pb0 + (pb1 + pc0);
  end else begin : gen_no_hash  // route_hash_i is 0: the product is never selected
    assign iw_prod = '0;
  end
  logic [EW-1:0] rr_entry;       // FWD[dest] as at the start of the IW cycle (0 if invalid)

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rr_valid_q <= 1'b0;
    end else begin
      rr_valid_q <= iw_head_i;
    end
  end
  // Data qualified by rr_valid_q: no reset needed.
  always_ff @(posedge clk_i) begin
    if (iw_head_i) begin
      rr_vc_q <= iw_vc_i;
      rr_slot_q <= iw_slot_i;
      rr_hdr_q <= iw_hdr_i;
      if (HASH) rr_prod_q <= iw_prod[31:8];
      rr_entry_ok_q <= (32'(iw_dest) < TABLE) && fwd_written_i[iw_dest[TW-1:0]];
    end
  end
  assign rr_entry = rr_entry_ok_q ? fwd_rdata : '0;

  // ---- route computation (RC) -------------------------------------------
  logic [5:0]  e_det;
  logic [5:0]  e_look;
  logic [1:0]  e_cset;
  logic        e_multi;
  logic        e_valid;
  assign e_det = rr_entry[5:0];
  assign e_look = rr_entry[11:6];
  assign e_cset = rr_entry[13:12];
  assign e_multi = rr_entry[14];
  assign e_valid = rr_entry[15];

  logic [15:0] h_dest;
  logic [3:0]  h_sl;
  logic        h_adapted;
  assign h_dest = rr_hdr_q[15:0];
  assign h_sl = rr_hdr_q[35:32];
  assign h_adapted = rr_hdr_q[44];

  logic        lfsr_step;      // the input's LFSR advances (an oblivious choice, §7.7)
  logic        hashed;         // ROUTE_HASH.kind != 0: r from the header, no LFSR step
  logic        obl_any;        // oblivious: some candidate (n >= 1)
  logic [PIW-1:0] obl_port;    // ... the oblivious choice (det_port if none)

  logic [VW-1:0] ovc_of[P];    // next-hop VC on each port (§7.4)
  logic [CW-1:0] cr_of[P];     // CRED of that VC
  logic [P-1:0]  cand;         // candidate ports after the Δ filter (§7.2)
  logic          use_cands;
  logic [PIW-1:0] det_port;
  logic [PIW-1:0] oport;
  logic          err;
  logic          arn_alt;   // §15.5 step 1: consumed entry, alternative port
  logic          mark;
  logic [P-1:0]  ad_elig;      // adaptive: candidates above the floor
  logic [P-1:0][MW-1:0] ad_val; // adaptive: credits; §17.8 steering: 64 - level
  logic          stage_en;     // §7.2 stage enabled
  logic          adapted_afi;  // §7.6 adapted packet under AFI
  logic          sar_sel;      // §17.8: the level search routes this packet (mode 0)
  logic [PIW-1:0] ad_first;    // first of ad_top in scan order from det_port
  logic          va_sel;       // §16.3: mode 3 routes this packet (valid entry)
  logic [PIW-1:0] va_port;     // ... on its primary route (va_port, va_vc)
  logic [VW-1:0] va_vc;
  logic          rc_fb;        // ... with this fallback bit

  // lookahead mod R for R = V - afi in 1..8 (§7.4): a constant table per R (6-bit
  // dividend), not a run-time divider.
  function automatic logic [2:0] obqa_mod(input logic [5:0] look, input logic [3:0] r);
    logic [2:0] res;
    res = 3'd0;
    for (int unsigned rr = 1; rr <= 8; rr++) begin
      if (32'(r) == rr) begin
        res = 3'(32'(look) % rr);  // look and rr constant per table entry after unrolling
      end
    end
    return res;
  endfunction

  always_comb begin
    logic [3:0]    obqa_r;
    logic [VW-1:0] obqa_vc;
    logic          search;
    logic [6:0]    m_det;      // §17.8 max's initial value
    logic [15:0]   best_cr;
    logic          det_down;

    adapted_afi = afi_i && h_adapted;
    obqa_r = 4'(V) - {3'b0, afi_i};  // R >= 1: afi is only settable when V >= 2
    // An invalid entry routes with lookahead 0 (contract §7.5), whatever it holds.
    obqa_vc = VW'(obqa_mod(e_valid ? e_look : 6'd0, obqa_r));
    for (int unsigned o = 0; o < P; o++) begin
      if (adapted_afi) begin
        ovc_of[o] = VW'(V - 1);
      end else if (vc_obqa_i) begin
        ovc_of[o] = obqa_vc;
      end else begin
        ovc_of[o] = sl2vc_i[(o*16 + 32'(h_sl))*VW +: VW];
      end
      cr_of[o] = cred_i[(o*V + 32'(ovc_of[o]))*CW +: CW];
    end

    det_port = e_det[PIW-1:0];
    stage_en = (stage_i != 4'd0) && (stage_i <= 4'd8) && stage_mask_i[3'(stage_i - 4'd1)];
    // modes 1 and 2 only where built (a mode not built cannot be written, §11)
    use_cands = ((OBL && (mode_i == asw_pkg::RouteOblivious)) ||
                 (ADP && (mode_i == asw_pkg::RouteAdaptive))) &&
                e_valid && e_multi && !adapted_afi && stage_en;

    // Candidates: CSET[cset] as written (a K/Δ restriction is software's choice of sets, §7.2)
    // without the outputs whose link is down (§18.5).
    cand = cset_i[32'(e_cset)*P +: P] & link_up_i;
    // §18.5: a down det_port searches whatever the trigger and never wins: the first
    // candidate in scan order with the most credits, with no floor
    det_down = !link_up_i[det_port];

    // Adaptive: strictly-greater search in scan order from det_port (§7.3), computed as
    // the first port in scan order (ad_first, an rr_arbiter) among the eligible ports
    // whose credits equal the eligible maximum (ad_max, a comparison tree).
    // Only with the adaptive hardware (ADP); without it nothing is eligible but for §17.8.
    search = 1'b0;
    best_cr = 16'h0;
    if (ADP) begin
      unique case (trigger_i)
        asw_pkg::TrigTh:  search = 16'(cr_of[det_port]) < ltth_i;
        asw_pkg::Trig2Th: search = cong_next_i[32'(det_port)*V + 32'(ovc_of[det_port])];
        default:          search = 1'b1;  // NoTH (trigger 3 cannot be written)
      endcase
      best_cr = (trigger_i == asw_pkg::TrigNoTh) ? 16'h0 : ltth_i;
    end
    for (int unsigned o = 0; o < P; o++) begin
      ad_elig[o] = ADP && (det_down ? cand[o] : (search && cand[o] && (16'(cr_of[o]) > best_cr)));
      ad_val[o] = MW'(cr_of[o]);
    end
    // §17.8 steering (SAR_CTRL.steer, mode 0): the same search with m(o) = 64 - lvl(o) in
    // place of credits, from max = m(det_port) (0 if det_port is down), strictly greater
    m_det = '0;
    sar_sel = 1'b0;
    if (SAR) begin
      sar_sel = sar_steer_i && (mode_i == asw_pkg::RouteDet) && e_valid && e_multi &&
                !adapted_afi && stage_en;
      m_det = det_down ? 7'd0 : (7'd64 - 7'(sar_lvl_i[32'(det_port)*6 +: 6]));
      if (sar_sel) begin
        for (int unsigned o = 0; o < P; o++) begin
          ad_val[o] = MW'(7'd64 - 7'(sar_lvl_i[o*6 +: 6]));
          ad_elig[o] = cand[o] && ((7'd64 - 7'(sar_lvl_i[o*6 +: 6])) > m_det);
        end
      end
    end
  end


  // Selection (after the oblivious choice and the adaptive tree below).
  always_comb begin
    logic [PIW-1:0] best_port;

    best_port = (ad_elig != '0) ? ad_first : det_port;

    err = !e_valid;
    lfsr_step = 1'b0;
    adaptive_o = 1'b0;
    oport = det_port;
    rc_fb = 1'b0;
    arn_alt = lk_valid_o && lk_consumed_i;
    va_sel = VCA && (mode_i == asw_pkg::RouteVcAdapt) && !err;
    if (err) begin
      oport = default_port_i[PIW-1:0];  // §7.5, also in mode 3 (fb = 0)
    end else if (va_sel) begin
      // §16.3: no candidate list, LFSR, ARN lookup or mark
      oport = va_port;
      rc_fb = fb_i;
      adaptive_o = rr_valid_q && (va_port != det_port);
    end else if (arn_alt) begin
      oport = lk_alt_port_i;  // no LFSR step, no adaptive_choices
    end else if (use_cands) begin
      if (OBL && (mode_i == asw_pkg::RouteOblivious)) begin
        oport = obl_port;
        lfsr_step = rr_valid_q && obl_any && !hashed;
      end else if (ADP) begin
        oport = best_port;
        adaptive_o = rr_valid_q && (best_port != det_port);
      end
    end else if (sar_sel) begin  // §17.8: the level search (mode 0)
      oport = best_port;
      adaptive_o = rr_valid_q && (best_port != det_port);
    end
    route_error_o = rr_valid_q && err;
    // adapted/orig_vc rewrite: ARN+AFI on a consumed entry, or mark_adapted (§15.1) when
    // §7 chose a port other than det_port for a non-adapted packet.
    if (arn_alt) begin
      mark = (arn_mode_i == 2'd2);
    end else begin
      mark = mark_adapted_i && !err && !va_sel && (6'(oport) != e_det) && !h_adapted;
    end
  end

  // ---- §7.3 oblivious choice (mode 1): only with OBL (RouteOblivEn) ---------------
  if (OBL) begin : gen_obl
    logic [15:0] lfsr_next;
    logic [15:0] obl_r;        // r of §7.3: the LFSR's next value, or §17.6's from the header
    logic [15:0] prod_low;     // fraction bits of (r * n) are not needed
    logic [6:0]  pre_cnt[P];   // candidates among ports 0..o (inclusive prefix count)

    lfsr #(.INDEX(INDEX)) u_lfsr (
      .clk_i,
      .rst_ni,
      .seed_we_i,
      .seed_i,
      .step_i (lfsr_step),
      .next_o (lfsr_next)
    );

    // §17.6: kind 1 takes bits [31-SHIFT : 16-SHIFT] of the product (SHIFT 0..8), kind 2
    // ((src >> SHIFT) mod 2^BITS) << (16 - BITS) (BITS 1..8); the register holds only
    // legal values (route_hash.sv). Both are one right shift of a 32-bit operand, whose
    // low 16 bits are r, masked: kind 1 shifts {product[31:8], 8'h0} by 16 - SHIFT
    // (8..16), kind 2 shifts {src, 16'h0} by SHIFT + BITS (1..23, putting src bit
    // SHIFT + BITS - 1 at bit 15) and keeps the top BITS bits. Amount and mask depend on
    // the register only.
    if (HASH) begin : gen_hash_sel
      always_comb begin
        logic [3:0]  rh_shift, rh_bits;
        logic        rh_flow;
        logic [4:0]  rh_amt;
        logic [15:0] rh_mask;
        logic [31:0] rh_opd;
        rh_shift = route_hash_i[7:4];
        rh_bits = route_hash_i[11:8];
        rh_flow = (route_hash_i[1:0] == 2'd1);
        hashed = (route_hash_i[1:0] != 2'd0);
        rh_amt = rh_flow ? (5'd16 - 5'(rh_shift)) : (5'(rh_shift) + 5'(rh_bits));
        rh_mask = rh_flow ? 16'hFFFF : ~(16'hFFFF >> rh_bits);
        rh_opd = rh_flow ? {rr_prod_q, 8'h0} : {rr_hdr_q[31:16], 16'h0};
        obl_r = hashed ? (16'(rh_opd >> rh_amt) & rh_mask) : lfsr_next;
      end
    end else begin : gen_no_hash_sel  // no §17.6 hardware: the LFSR's value
      assign hashed = 1'b0;
      assign obl_r = lfsr_next;
    end

    // Oblivious index k = (r * n) >> 16 (§7.3) for every possible candidate count n = 0..P:
    // r is known early in the cycle (the LFSR's next value or §17.6's bits of registers),
    // n only after the table
    // read, the candidate set and the prefix count. So instead of a multiplier after the
    // count, each n gets its constant multiple of r (shifts and one adder chain per set bit
    // of n, in parallel with the count) and the count only selects one of them. Above
    // P = 16 the P + 1 multiples per input cost more than they save: one multiplier, as
    // written in §7.3, after the count.
    localparam bit ConstMul = (P <= 16);
    logic [6:0]  k_of_n[P+1];
    logic [P:0]  prod_low_of_n;  // fraction bits of r * n are not needed
    always_comb begin
      logic [22:0] acc;
      for (int unsigned nn = 0; nn <= P; nn++) begin
        acc = '0;
        if (ConstMul) begin
          for (int unsigned b = 0; b < 7; b++) begin
            if (((nn >> b) & 1) != 0) begin
              acc = acc + (23'(obl_r) << b);
            end
          end
        end
        k_of_n[nn] = acc[22:16];
        prod_low_of_n[nn] = ^acc[15:0];
      end
    end

    // Inclusive prefix count of the candidates (Kogge-Stone, log2 P adder levels).
    always_comb begin
      logic [6:0] lvl[P];
      for (int unsigned o = 0; o < P; o++) begin
        lvl[o] = 7'(cand[o]);
      end
      for (int unsigned d = 1; d < P; d = d * 2) begin
        for (int unsigned o = P; o > 0; o--) begin  // high to low: reads the previous level
          if (o - 1 >= d) begin
            lvl[o-1] = lvl[o-1] + lvl[o-1-d];
          end
        end
      end
      pre_cnt = lvl;
    end

    always_comb begin
      logic [6:0]    n;
      logic [6:0]    k;
      logic [22:0]   prod;
      logic [PIW-1:0] obl_sel;

      // Oblivious: the k-th candidate in increasing port order, k = (r * n) >> 16. The
      // candidates' ranks come from a log-depth prefix count (pre_cnt), n is the last one.
      n = pre_cnt[P-1];
      k = 7'h0;
      prod = '0;
      if (ConstMul) begin
        for (int unsigned nn = 0; nn <= P; nn++) begin
          if (32'(n) == nn) begin
            k = k_of_n[nn];
          end
        end
      end else begin
        prod = 23'(obl_r) * 23'(n);
        k = prod[22:16];
      end
      prod_low = prod[15:0] ^ {15'h0, ^prod_low_of_n};
      obl_sel = '0;
      for (int unsigned o = 0; o < P; o++) begin
        if (cand[o] && ((pre_cnt[o] - 7'd1) == k)) begin  // exactly one o when n >= 1
          obl_sel = obl_sel | PIW'(o);
        end
      end
      obl_any = (n != 7'd0);
      obl_port = obl_any ? obl_sel : det_port;
    end

    logic unused_prod_low;
    assign unused_prod_low = ^prod_low;
  end else begin : gen_no_obl  // mode 1 cannot be written (§11): no LFSR, no choice
    assign hashed = 1'b0;
    assign obl_any = 1'b0;
    assign obl_port = '0;
    logic unused_obl;
    assign unused_obl = ^{seed_we_i, seed_i, lfsr_step};
  end

  // Adaptive (and §17.8 steering): the first port in scan order from det_port among the
  // eligible ports with the most credits (levels); only with ADP or SAR.
  if (ADP || SAR) begin : gen_ad_first
    logic unused_ad_found;
    max_first #(.N(P), .W(MW)) u_ad_first (
      .valid_i (ad_elig),
      .val_i   (ad_val),
      .ptr_i   (det_port),
      .found_o (unused_ad_found),
      .idx_o   (ad_first)
    );
  end else begin : gen_no_ad_first  // ad_elig is 0: det_port
    assign ad_first = '0;
    logic unused_ad;
    assign unused_ad = ^{ad_elig, ad_val};
  end

  // ---- §16.3 VC-adaptive routing (ROUTE_CTRL mode 3) -----------------------
  // Candidate ports A = FWD.amask without the outputs whose link is down (§18.5), det_port
  // alone if none remains; candidate VCs W = vlo .. vlo+vn-1 below V, VC 0 alone if none.
  // The pairs (o, w) are the flat indices o*V + w, scanned from det_port*V modulo P*V:
  // ports in the §7.2 scan order from det_port, VCs increasing within a port, so the
  // primary route (first pair with the most credits) is one max_first over P*V values.
  if (VCA) begin : gen_vca
    localparam int unsigned NPV = P * V;
    localparam int unsigned PVW = asw_pkg::idx_w(NPV);
    logic [P-1:0]           va_ports;
    logic [V-1:0]           va_vcs;
    logic [NPV-1:0]         va_elig;
    logic [NPV-1:0][CW-1:0] va_cr;
    logic [PVW-1:0]         va_ptr;
    logic [PVW-1:0]         va_idx;
    logic                   unused_va_found;
    always_comb begin
      logic [P-1:0] am;
      logic [2:0]   vlo;
      logic [3:0]   vhi;   // vlo + vn - 1
      am = P'(rr_entry[FWW-1:16]) & link_up_i;
      va_ports = (am != '0) ? am : (P'(1) << det_port);
      vlo = rr_entry[8:6];
      vhi = 4'(vlo) + 4'(rr_entry[11:9]);
      for (int unsigned w = 0; w < V; w++) begin
        va_vcs[w] = (w >= 32'(vlo)) && (w <= 32'(vhi));
      end
      if (va_vcs == '0) begin
        va_vcs = V'(1);
      end
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned w = 0; w < V; w++) begin
          va_elig[o*V + w] = va_ports[o] && va_vcs[w];
          va_cr[o*V + w] = cred_i[(o*V + w)*CW +: CW];
        end
      end
      va_ptr = PVW'(32'(det_port) * V);
    end
    max_first #(.N(NPV), .W(CW)) u_va_first (
      .valid_i (va_elig),
      .val_i   (va_cr),
      .ptr_i   (va_ptr),
      .found_o (unused_va_found),
      .idx_o   (va_idx)
    );
    // (port, VC) of the flat index: a decode with constant compares, no division by V
    always_comb begin
      va_port = '0;
      va_vc = '0;
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned w = 0; w < V; w++) begin
          if (32'(va_idx) == o*V + w) begin
            va_port = va_port | PIW'(o);
            va_vc = va_vc | VW'(w);
          end
        end
      end
    end
  end else begin : gen_no_vca  // mode 3 cannot be written (§11)
    assign va_port = '0;
    assign va_vc = '0;
    logic unused_vca;
    assign unused_vca = ^{fb_same_i, esc_vc_i};
  end

  // Lookup key of the input port controller (§15.5).
  assign lk_valid_o = rr_valid_q && (arn_mode_i != 2'd0) && (!h_adapted || adapted_arn_i) &&
                      e_valid;
  assign lk_dest_o = h_dest;
  assign lk_vc_o = rr_vc_q;
  assign lk_adapted_o = h_adapted;
  assign lk_orig_vc_o = rr_hdr_q[47:45];

  // ---- route-result register (RC -> RQ) ------------------------------------
  // With the rewritten header, §7.4 gives V-1 when afi is set (mark implies !h_adapted,
  // so ovc_of already is §7.4 of the header without adapted otherwise).
  logic [VW-1:0] rc_ovc;
  assign rc_ovc = va_sel ? va_vc : (afi_i && mark) ? VW'(V - 1) : ovc_of[oport];

  logic           rq_valid_q;
  logic [VW-1:0]  rq_vc_q;
  logic [SW-1:0]  rq_slot_q;
  logic [7:0]     rq_len_q;
  logic [PIW-1:0] rq_oport_q;
  logic [VW-1:0]  rq_ovc_q;
  logic           rq_mark_q;
  logic           rq_fb_q;
  logic [PIW-1:0] rq_fport_q;
  logic [VW-1:0]  rq_fvc_q;
  logic [15:0]    rq_dest_q;
  logic [15:0]    rq_src_q;
  logic           rq_adapted_q;
  logic [2:0]     rq_orig_vc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_valid_q <= 1'b0;
    end else begin
      rq_valid_q <= rr_valid_q;
    end
  end
  // Data qualified by rq_valid_q: no reset needed.
  always_ff @(posedge clk_i) begin
    if (rr_valid_q) begin
      rq_vc_q <= rr_vc_q;
      rq_slot_q <= rr_slot_q;
      rq_len_q <= rr_hdr_q[43:36];
      rq_oport_q <= oport;
      rq_ovc_q <= rc_ovc;
      rq_mark_q <= mark;
      rq_fb_q <= rc_fb;
      rq_fport_q <= det_port;                                    // §16.3 fport, fvc
      rq_fvc_q <= fb_same_i ? rr_vc_q : esc_vc_i[VW-1:0];        // esc_vc < V (§11)
      rq_dest_q <= h_dest;
      rq_src_q <= rr_hdr_q[31:16];
      rq_adapted_q <= h_adapted;
      rq_orig_vc_q <= rr_hdr_q[47:45];
    end
  end
  assign rq_valid_o = rq_valid_q;
  assign rq_vc_o = rq_vc_q;
  assign rq_slot_o = rq_slot_q;
  assign rq_len_o = rq_len_q;
  assign rq_oport_o = rq_oport_q;
  assign rq_ovc_o = rq_ovc_q;
  assign rq_mark_o = rq_valid_q && rq_mark_q;
  assign rq_fb_o = VCA && rq_fb_q;         // the fallback exists only with the §16.3 hardware
  assign rq_fport_o = VCA ? rq_fport_q : '0;
  assign rq_fvc_o = VCA ? rq_fvc_q : '0;
  assign rq_dest_o = rq_dest_q;
  assign rq_src_o = rq_src_q;
  assign rq_adapted_o = rq_adapted_q;
  assign rq_orig_vc_o = rq_orig_vc_q;

`ifndef SYNTHESIS
  cov_route_error: cover property (@(posedge clk_i) rr_valid_q && err);
  cov_oblivious_step: cover property (@(posedge clk_i) lfsr_step);
  cov_adaptive_choice: cover property (@(posedge clk_i) adaptive_o);
  cov_adapted_afi: cover property (@(posedge clk_i) rr_valid_q && afi_i && h_adapted);
  cov_no_candidate: cover property (@(posedge clk_i) rr_valid_q && use_cands && (cand == '0));
  cov_lfsr_seed_and_step: cover property (@(posedge clk_i) seed_we_i && lfsr_step);
  // §15.5 branches and the §15.1 mark
  cov_ipc_alt_port: cover property (@(posedge clk_i) lk_valid_o && lk_consumed_i);
  cov_ipc_alt_port_afi: cover property (@(posedge clk_i) lk_valid_o && lk_consumed_i && mark);
  cov_ipc_no_consumed: cover property (@(posedge clk_i) lk_valid_o && !lk_consumed_i);
  cov_ipc_adapted_skip: cover property (@(posedge clk_i)
    rr_valid_q && (arn_mode_i != 2'd0) && e_valid && h_adapted && !adapted_arn_i);
  cov_ipc_adapted_lookup: cover property (@(posedge clk_i) lk_valid_o && h_adapted);
  cov_mark_adapted: cover property (@(posedge clk_i) rr_valid_q && !arn_alt && mark);
  // §16.3 primary routes: another port, another VC than the first candidate, a fallback
  cov_vca_other_port: cover property (@(posedge clk_i) rr_valid_q && va_sel && (va_port != det_port));
  cov_vca_fallback: cover property (@(posedge clk_i) rr_valid_q && va_sel && fb_i);
  // §17.6 oblivious choices from the header
  // §17.8 steering: a level search, one that leaves det_port
  cov_sar_steer: cover property (@(posedge clk_i) rr_valid_q && !err && !arn_alt && sar_sel);
  cov_sar_steer_other: cover property (@(posedge clk_i) rr_valid_q && !err && !arn_alt && sar_sel &&
                                       (oport != det_port));
  cov_hash_flow: cover property (@(posedge clk_i) rr_valid_q && use_cands &&
    (mode_i == asw_pkg::RouteOblivious) && (route_hash_i[1:0] == 2'd1));
  cov_hash_digit: cover property (@(posedge clk_i) rr_valid_q && use_cands &&
    (mode_i == asw_pkg::RouteOblivious) && (route_hash_i[1:0] == 2'd2));
  // The adder tree is the product it replaces.
  always_ff @(posedge clk_i) begin
    if (iw_head_i) begin
      assert (!HASH || (iw_prod == 32'(iw_hdr_i[31:0] * 32'h9E3779B1)))
        else $error("route_compute: flow-hash product differs from {src, dest} * 9E3779B1");
    end
  end
  // A consumed lookup uses the table's port and never steps the LFSR.
  always_ff @(posedge clk_i) begin
    if (rr_valid_q && arn_alt) begin
      assert (!lfsr_step && !adaptive_o && !err)
        else $error("route_compute: ARN alternative port with LFSR step / adaptive choice");
      assert (32'(lk_alt_port_i) < P) else $error("route_compute: ARN alternative port >= P");
    end
  end
`endif

  // Bits this block does not look at: header fields other than dest/sl/len/adapted,
  // the high bits of 6-bit port fields when P < 64.
  logic unused_bits;
  assign unused_bits = ^{rr_hdr_q[63:48], e_det, default_port_i, iw_prod[7:0],
                        route_hash_i[3:2], HASH ? 1'b0 : ^{route_hash_i, rr_prod_q}, esc_vc_i,
                        fwd_wdata_i,   // amask bits kept only with VCA
                        SAR ? 1'b0 : ^{sar_steer_i, sar_lvl_i},
                        ADP ? 1'b0 : ^{trigger_i, ltth_i, cong_next_i}};  // the §7.3 search's
endmodule
