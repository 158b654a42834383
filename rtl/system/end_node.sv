// end_node.sv — one end node of the board system (docs/boards.md "Traffic"): a traffic
// generator feeding switch input INDEX and a checker/sink draining switch output INDEX,
// with credit flow control on both links (contract §2, §9). Its counters live in
// asw_system's cnt_bank: ev_o carries one bit per counted event (tx_pkts, tx_flits,
// tx_stall, rx_pkts, rx_flits, err_hdr, err_seq, err_pay; rx_pkts with lat_o for lat_sum).
// Random numbers come from the contract's 16-bit LFSR (rtl/lfsr.sv, §7.7), four streams
// per node: destination (LFSR index INDEX), length (64 + INDEX), injection (128 + INDEX)
// and sink credit return (192 + INDEX), all reseeded with SEED by start_i.
// Every decision of a cycle uses the state at the start of that cycle; flit and credit
// outputs are registers (they appear on the switch's pins in the next cycle).
module end_node #(
  parameter int unsigned P = 2,       // switch ports (end nodes)
  parameter int unsigned V = 1,       // VCs, a power of two
  parameter int unsigned BUF = 4,     // switch buffer per input VC = initial credits
  parameter int unsigned LMAX = 4,    // maximum packet length
  parameter int unsigned PW = 8,      // payload bits, a multiple of 8, 8..64
  parameter int unsigned INDEX = 0,   // this node's port
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned CRW = asw_pkg::cnt_w(BUF),
  localparam int unsigned LW = $clog2(LMAX + 1),  // generated lengths, 1..LMAX
  localparam int unsigned NEV = 8     // counted events (docs/boards.md "System registers")
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // test control (asw_system)
  input  logic            start_i,      // (re)initialise: counters 0, LFSRs seeded
  input  logic [15:0]     seed_i,
  input  logic            gen_on_i,     // generation attempts this cycle
  input  logic [1:0]      pattern_i,    // 0 uniform, 1 permutation, 2 hot spot
  input  logic [5:0]      pport_i,      // permutation shift or hot-spot port (< P)
  input  logic [7:0]      frac_i,       // hot-spot fraction, /256
  input  logic [7:0]      len_i,        // packet length 1..LMAX (random: maximum)
  input  logic            randlen_i,    // 1: length uniform in 1..len_i
  input  logic [8:0]      load_i,       // injection probability per free cycle, /256
  input  logic [8:0]      sink_i,       // credit-return probability per cycle, /256
  input  logic [7:0]      tcyc_i,       // test cycle, low 8 bits
  // link to switch input INDEX
  output logic            tx_valid_o,
  output logic            tx_head_o,
  output logic            tx_tail_o,
  output logic [2:0]      tx_vc_o,
  output logic [63:0]     tx_hdr_o,
  output logic [PW-1:0]   tx_payload_o,
  input  logic            tx_cr_valid_i,  // credit from the switch (its cr_out)
  input  logic [2:0]      tx_cr_vc_i,
  // link from switch output INDEX
  input  logic            rx_valid_i,
  input  logic            rx_head_i,
  input  logic            rx_tail_i,
  input  logic [2:0]      rx_vc_i,
  input  logic [63:0]     rx_hdr_i,
  input  logic [PW-1:0]   rx_payload_i,
  output logic            rx_cr_valid_o,  // credit to the switch (its cr_in)
  output logic [2:0]      rx_cr_vc_o,
  // status
  output logic            head_sent_o,    // a head was sent this cycle (decided last cycle)
  output logic            pkt_done_o,     // a tail was received this cycle
  output logic [7:0]      lat_o,          // its latency
  output logic            idle_o,         // nothing to send, no credit owed
  output logic            error_o,        // a checker error occurred since start_i
  output logic [NEV-1:0]  ev_o,           // events of the previous cycle, bit k: counter k
  output logic [7:0]      lat_max_o       // largest latency since start_i
);
  if (PW < 8 || PW > 64 || PW % 8 != 0) begin : gen_bad_pw
    $fatal(1, "end_node: PW=%0d must be a multiple of 8 in 8..64", PW);
  end
  if ((V & (V - 1)) != 0) begin : gen_bad_v
    $fatal(1, "end_node: V=%0d must be a power of two", V);
  end
  localparam int unsigned NB = PW / 8;
  if (LW < 8) begin : gen_len_unused  // LEN <= LMAX (checked on write): LW bits hold it
    logic unused_len;
    assign unused_len = ^len_i[7:LW];
  end
  localparam logic [7:0] SrcMix = 8'((INDEX % 16) * 16);

  // payload byte of flit k of packet (src, seq): ((seq ^ src << 4) + k) mod 256
  function automatic logic [7:0] pbyte(input logic [7:0] src_mix, input logic [7:0] seq,
                                       input logic [7:0] k);
    return (seq ^ src_mix) + k;
  endfunction

  // ---- random streams ------------------------------------------------------------
  logic        step_dest, step_len, step_inj, step_snk;
  logic [15:0] r_dest, r_len, r_inj, r_snk;
  lfsr #(.INDEX(INDEX)) u_lfsr_dest (
    .clk_i, .rst_ni, .seed_we_i(start_i), .seed_i, .step_i(step_dest), .next_o(r_dest)
  );
  lfsr #(.INDEX(64 + INDEX)) u_lfsr_len (
    .clk_i, .rst_ni, .seed_we_i(start_i), .seed_i, .step_i(step_len), .next_o(r_len)
  );
  lfsr #(.INDEX(128 + INDEX)) u_lfsr_inj (
    .clk_i, .rst_ni, .seed_we_i(start_i), .seed_i, .step_i(step_inj), .next_o(r_inj)
  );
  lfsr #(.INDEX(192 + INDEX)) u_lfsr_snk (
    .clk_i, .rst_ni, .seed_we_i(start_i), .seed_i, .step_i(step_snk), .next_o(r_snk)
  );

  // ---- state ---------------------------------------------------------------------
  logic [CRW-1:0] cred_q[V], cred_d[V];
  logic [15:0]    seqs_q[P], seqs_d[P];
  logic           have_q, have_d;          // a generated packet waits for credits
  logic [PIW-1:0] hdest_q, hdest_d;
  logic [LW-1:0]  hlen_q, hlen_d;
  logic [15:0]    hseq_q, hseq_d;
  logic           sending_q, sending_d;    // body flits of cur are being sent
  logic [LW-1:0]  k_q, k_d;
  logic [LW-1:0]  clen_q, clen_d;
  logic [15:0]    cseq_q, cseq_d;
  logic [VW-1:0]  cvc_q, cvc_d;
  logic           fv_d, fh_d, ft_d;
  logic [2:0]     fvc_d;
  logic [63:0]    fhdr_d;
  logic [PW-1:0]  fpay_d;
  // checker, per VC
  logic           act_q[V], act_d[V];
  logic [7:0]     rk_q[V], rk_d[V];
  logic [7:0]     rlen_q[V], rlen_d[V];
  logic [PIW-1:0] rsrc_q[V], rsrc_d[V];
  logic [15:0]    rseq_q[V], rseq_d[V];
  logic [7:0]     rts_q[V], rts_d[V];
  logic [15:0]    exp_q[P], exp_d[P];
  logic [CRW-1:0] pend_q[V], pend_d[V];
  logic           crv_d;
  logic [2:0]     crvc_d;
  logic [NEV-1:0] ev_d;
  logic           err_q, err_d;
  logic [7:0]     lmax_q, lmax_d;
  logic           done_d;
  logic [7:0]     lat_d;

  logic [VW-1:0]  hvc;
  logic [PIW:0]   perm;
  logic [PIW-1:0] ndest;
  logic [LW-1:0]  nlen;
  logic [21+PIW:0] uni_prod;
  logic [23:0]    len_prod;
  logic           send_head, slot_free;
  logic [VW-1:0]  rvc;
  logic [PIW-1:0] hsrc;
  logic           hdr_bad, tail_bad, any_wait;
  logic [PW-1:0]  want;
  assign rvc = VW'(rx_vc_i);

  assign hvc = VW'(hdest_q) & VW'(V - 1);  // dest mod V (V a power of two)

  always_comb begin
    // destination and length of a new packet (docs/boards.md "Traffic")
    uni_prod = (22 + PIW)'(r_dest) * (22 + PIW)'(P);
    perm = (PIW + 1)'(INDEX) + (PIW + 1)'(pport_i);
    if (perm >= (PIW + 1)'(P)) begin
      perm = perm - (PIW + 1)'(P);
    end
    unique case (pattern_i)
      2'd1: ndest = PIW'(perm);
      2'd2: ndest = (r_dest[7:0] < frac_i) ? PIW'(pport_i) : PIW'(uni_prod >> 16);
      default: ndest = PIW'(uni_prod >> 16);
    endcase
    // len_i <= LMAX (LEN is checked on write): its LW low bits are all of it
    len_prod = 24'(r_len) * 24'(len_i[LW-1:0]);
    nlen = randlen_i ? LW'(len_prod >> 16) + LW'(1) : LW'(len_i);
  end

  always_comb begin
    // ---- generator ----
    for (int unsigned v = 0; v < V; v++) begin
      cred_d[v] = cred_q[v];
    end
    for (int unsigned d = 0; d < P; d++) begin
      seqs_d[d] = seqs_q[d];
    end
    ev_d = '0;
    have_d = have_q;
    hdest_d = hdest_q;
    hlen_d = hlen_q;
    hseq_d = hseq_q;
    sending_d = sending_q;
    k_d = k_q;
    clen_d = clen_q;
    cseq_d = cseq_q;
    cvc_d = cvc_q;
    fv_d = 1'b0;
    fh_d = 1'b0;
    ft_d = 1'b0;
    fvc_d = '0;
    fhdr_d = '0;
    fpay_d = '0;
    send_head = 1'b0;
    step_dest = 1'b0;
    step_len = 1'b0;
    step_inj = 1'b0;
    if (sending_q) begin
      fv_d = 1'b1;
      ft_d = (k_q == clen_q - LW'(1));
      fvc_d = 3'(cvc_q);
      fpay_d = {NB{pbyte(SrcMix, cseq_q[7:0], 8'(k_q))}};
      k_d = k_q + LW'(1);
      sending_d = !ft_d;
    end else if (have_q) begin
      if (32'(cred_q[hvc]) >= 32'(hlen_q)) begin
        send_head = 1'b1;
        cred_d[hvc] = cred_q[hvc] - CRW'(hlen_q);
        have_d = 1'b0;
        fv_d = 1'b1;
        fh_d = 1'b1;
        ft_d = (hlen_q == LW'(1));
        fvc_d = 3'(hvc);
        fhdr_d = {hseq_q, 4'h0, 8'(hlen_q), 4'(hdest_q), 16'(INDEX), 16'(hdest_q)};
        fpay_d = {NB{pbyte(SrcMix, hseq_q[7:0], 8'd0)}};
        fpay_d[7:0] = tcyc_i + 8'd1;   // the cycle this head is on the link
        sending_d = (hlen_q != LW'(1));
        k_d = LW'(1);
        clen_d = hlen_q;
        cseq_d = hseq_q;
        cvc_d = hvc;
        ev_d[0] = 1'b1;
      end else begin
        ev_d[2] = 1'b1;
      end
    end
    if (fv_d) begin
      ev_d[1] = 1'b1;
    end
    slot_free = !have_q || send_head;
    if (gen_on_i && slot_free) begin
      step_inj = 1'b1;
      if ({1'b0, r_inj[7:0]} < load_i) begin
        step_dest = 1'b1;
        step_len = 1'b1;
        have_d = 1'b1;
        hdest_d = ndest;
        hlen_d = nlen;
        hseq_d = seqs_q[ndest];
        seqs_d[ndest] = seqs_q[ndest] + 16'd1;
      end
    end
    if (tx_cr_valid_i) begin
      cred_d[VW'(tx_cr_vc_i)] = cred_d[VW'(tx_cr_vc_i)] + 1'b1;
    end

    // ---- checker and sink ----
    for (int unsigned v = 0; v < V; v++) begin
      act_d[v] = act_q[v];
      rk_d[v] = rk_q[v];
      rlen_d[v] = rlen_q[v];
      rsrc_d[v] = rsrc_q[v];
      rseq_d[v] = rseq_q[v];
      rts_d[v] = rts_q[v];
      pend_d[v] = pend_q[v];
    end
    for (int unsigned s = 0; s < P; s++) begin
      exp_d[s] = exp_q[s];
    end
    lmax_d = lmax_q;
    done_d = 1'b0;
    lat_d = '0;
    hsrc = '0;
    hdr_bad = 1'b0;
    tail_bad = 1'b0;
    want = '0;
    crv_d = 1'b0;
    crvc_d = '0;
    step_snk = 1'b0;
    if (rx_valid_i) begin
      ev_d[4] = 1'b1;
      if (rx_head_i) begin
        hsrc = PIW'(rx_hdr_i[31:16]);
        hdr_bad = act_q[rvc] || rx_hdr_i[15:0] != 16'(INDEX) || rx_hdr_i[31:16] >= 16'(P)
                  || rx_hdr_i[43:36] == 8'd0 || rx_hdr_i[43:36] > 8'(LMAX)
                  || rx_hdr_i[47:44] != 4'd0 || rx_hdr_i[35:32] != 4'(INDEX) || rx_tail_i != (rx_hdr_i[43:36] == 8'd1);
        if (rx_hdr_i[31:16] < 16'(P)) begin
          if (rx_hdr_i[63:48] != exp_q[hsrc]) begin
            ev_d[6] = 1'b1;
          end
          exp_d[hsrc] = rx_hdr_i[63:48] + 16'd1;
        end
        want = {NB{pbyte(8'(rx_hdr_i[19:16]) << 4, rx_hdr_i[55:48], 8'd0)}};
        if (((rx_payload_i ^ want) & ~PW'(8'hFF)) != '0) begin  // bytes above byte 0
          ev_d[7] = 1'b1;
        end
        act_d[rvc] = !rx_tail_i;
        rk_d[rvc] = 8'd1;
        rlen_d[rvc] = rx_hdr_i[43:36];
        rsrc_d[rvc] = hsrc;
        rseq_d[rvc] = rx_hdr_i[63:48];
        rts_d[rvc] = rx_payload_i[7:0];
        if (rx_tail_i) begin
          done_d = 1'b1;
          lat_d = tcyc_i - rx_payload_i[7:0];
        end
      end else if (!act_q[rvc]) begin
        hdr_bad = 1'b1;
      end else begin
        want = {NB{pbyte(8'(rsrc_q[rvc]) << 4, rseq_q[rvc][7:0], rk_q[rvc])}};
        if (rx_payload_i != want) begin
          ev_d[7] = 1'b1;
        end
        tail_bad = rx_tail_i != (rk_q[rvc] == rlen_q[rvc] - 8'd1);
        hdr_bad = tail_bad;
        rk_d[rvc] = rk_q[rvc] + 8'd1;
        if (rx_tail_i) begin
          act_d[rvc] = 1'b0;
          done_d = 1'b1;
          lat_d = tcyc_i - rts_q[rvc];
        end
      end
      if (hdr_bad) begin
        ev_d[5] = 1'b1;
      end
    end
    if (done_d) begin
      ev_d[3] = 1'b1;
      if (lat_d > lmax_q) begin
        lmax_d = lat_d;
      end
    end
    err_d = err_q | ev_d[5] | ev_d[6] | ev_d[7];
    // sink: returns at most one credit per cycle, lowest VC first
    begin
      any_wait = 1'b0;
      for (int unsigned v = 0; v < V; v++) begin
        any_wait = any_wait | (pend_q[v] != '0);
      end
      if (any_wait) begin
        step_snk = 1'b1;
        if ({1'b0, r_snk[7:0]} < sink_i) begin
          crv_d = 1'b1;
          for (int v = V - 1; v >= 0; v--) begin
            if (pend_q[v] != '0) begin
              crvc_d = 3'(v);
            end
          end
        end
      end
    end
    for (int unsigned v = 0; v < V; v++) begin
      pend_d[v] = pend_q[v] + CRW'(rx_valid_i && rvc == VW'(v))
                  - CRW'(crv_d && crvc_d == 3'(v));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned v = 0; v < V; v++) begin
        cred_q[v] <= CRW'(BUF);
        act_q[v] <= 1'b0;
        rk_q[v] <= '0;
        rlen_q[v] <= '0;
        rsrc_q[v] <= '0;
        rseq_q[v] <= '0;
        rts_q[v] <= '0;
        pend_q[v] <= '0;
      end
      for (int unsigned d = 0; d < P; d++) begin
        seqs_q[d] <= '0;
        exp_q[d] <= '0;
      end
      ev_o <= '0;
      err_q <= 1'b0;
      have_q <= 1'b0;
      hdest_q <= '0;
      hlen_q <= '0;
      hseq_q <= '0;
      sending_q <= 1'b0;
      k_q <= '0;
      clen_q <= '0;
      cseq_q <= '0;
      cvc_q <= '0;
      lmax_q <= '0;
      tx_valid_o <= 1'b0;
      tx_head_o <= 1'b0;
      tx_tail_o <= 1'b0;
      tx_vc_o <= '0;
      tx_hdr_o <= '0;
      tx_payload_o <= '0;
      rx_cr_valid_o <= 1'b0;
      rx_cr_vc_o <= '0;
      pkt_done_o <= 1'b0;
      lat_o <= '0;
    end else if (start_i) begin
      for (int unsigned v = 0; v < V; v++) begin
        cred_q[v] <= CRW'(BUF);
        act_q[v] <= 1'b0;
        pend_q[v] <= '0;
      end
      for (int unsigned d = 0; d < P; d++) begin
        seqs_q[d] <= '0;
        exp_q[d] <= '0;
      end
      ev_o <= '0;
      err_q <= 1'b0;
      have_q <= 1'b0;
      sending_q <= 1'b0;
      lmax_q <= '0;
      tx_valid_o <= 1'b0;
      tx_head_o <= 1'b0;
      tx_tail_o <= 1'b0;
      rx_cr_valid_o <= 1'b0;
      pkt_done_o <= 1'b0;
    end else begin
      for (int unsigned v = 0; v < V; v++) begin
        cred_q[v] <= cred_d[v];
        act_q[v] <= act_d[v];
        rk_q[v] <= rk_d[v];
        rlen_q[v] <= rlen_d[v];
        rsrc_q[v] <= rsrc_d[v];
        rseq_q[v] <= rseq_d[v];
        rts_q[v] <= rts_d[v];
        pend_q[v] <= pend_d[v];
      end
      for (int unsigned d = 0; d < P; d++) begin
        seqs_q[d] <= seqs_d[d];
        exp_q[d] <= exp_d[d];
      end
      ev_o <= ev_d;
      err_q <= err_d;
      have_q <= have_d;
      hdest_q <= hdest_d;
      hlen_q <= hlen_d;
      hseq_q <= hseq_d;
      sending_q <= sending_d;
      k_q <= k_d;
      clen_q <= clen_d;
      cseq_q <= cseq_d;
      cvc_q <= cvc_d;
      lmax_q <= lmax_d;
      tx_valid_o <= fv_d;
      tx_head_o <= fh_d;
      tx_tail_o <= ft_d;
      tx_vc_o <= fvc_d;
      tx_hdr_o <= fhdr_d;
      tx_payload_o <= fpay_d;
      rx_cr_valid_o <= crv_d;
      rx_cr_vc_o <= crvc_d;
      pkt_done_o <= done_d;
      lat_o <= lat_d;
    end
  end

  assign head_sent_o = tx_valid_o & tx_head_o;
  logic any_pend;
  always_comb begin
    any_pend = 1'b0;
    for (int unsigned v = 0; v < V; v++) begin
      any_pend = any_pend | (pend_q[v] != '0);
    end
  end
  assign idle_o = !have_q && !sending_q && !tx_valid_o && !any_pend && !rx_cr_valid_o;
  assign error_o = err_q;
  assign lat_max_o = lmax_q;
  logic unused;
  assign unused = ^{pport_i, tx_cr_vc_i, rx_vc_i, r_inj[15:8], r_snk[15:8], rseq_q[0][15:8]};
endmodule
