// sar_table.sv — Switch AR (contract §17.8), twin of cmodel/sar_table.c: the SE-entry table
// {valid, dest, port, level, ttl} with its decay (the AR timer: the free-running cycle counter
// tc, a tick every 2^TS cycles; with SAR_CTRL.decay a level step every 2^decay cycles), the received-CNM registers rx[p] and local-CNM registers
// loc[o], stage A (a round-robin pick over the 2P sources with the FWD read of the word's
// culprit source, from this block's own FWD copy, written with the others), stage B (snoop:
// refresh, lowest invalid entry or eviction of the smallest ttl; forward: the k-th candidate
// of the CSET by the 16-bit LFSR sar_rs, k = (r * n) >> 16, or det_port), the cnm_out
// registers, the registers SAR_CTRL / SAR_TTL / SAR_SEED, the SAR_ENTRY view, the six
// counters per port (a counter_ram) and the per-input level lookups RC steers with. Reads
// state at the start of the cycle and updates it at the end, as arn_table.sv does.
module sar_table #(
  parameter int unsigned P = 8,        // ports, 2..64
  parameter int unsigned TABLE = 256,  // forwarding-table entries (FWD copy, src >= TABLE invalid)
  parameter int unsigned SE = 8,       // table entries, 1..32 (SE = 0: do not instantiate)
  parameter bit CNT = 1'b1,            // the counters exist (CountersEn, §1; 0: they read 0)
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned TW = asw_pkg::idx_w(TABLE)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // register bus (the same signals regs.sv sees)
  input  logic              reg_en_i,
  input  logic              reg_we_i,
  input  logic [19:0]       reg_addr_i,
  input  logic [31:0]       reg_wdata_i,
  output logic              own_o,        // the address is a §17.8 register, counter or view
  output logic              wr_ok_o,      // ... and a write of reg_wdata_i is legal
  output logic [31:0]       rd_o,         // its read value (start of the cycle; counters 0)
  output logic [31:0]       cnt_rdata_o,  // counter read data, a cycle after the read
  output logic              steer_o,      // SAR_CTRL.steer (RC, ROUTE_CTRL mode 0)
  // forwarding-table writes (already legal) and the entries written since reset
  input  logic              fwd_we_i,
  input  logic [TW-1:0]     fwd_waddr_i,
  input  logic [15:0]       fwd_wdata_i,  // {valid, multipath, cset, lookahead, det_port}
  input  logic [TABLE-1:0]  fwd_written_i,
  input  logic [4*P-1:0]    cset_i,       // CSET[c] = cset_i[c*P +: P]
  // CNM lane: words from the peers, the congestion point's CNM of each output this cycle
  input  logic [P-1:0]      cnm_in_valid_i,
  input  logic [P*64-1:0]   cnm_in_data_i,
  input  logic [P-1:0]      loc_valid_i,
  input  logic [P*64-1:0]   loc_data_i,
  output logic [P-1:0]      cnm_out_valid_o,
  output logic [P*64-1:0]   cnm_out_data_o,  // word 0 while not valid
  // RC lookups: the destination of the head input i routes, the level of {dest, o}
  input  logic [P*16-1:0]   lk_dest_i,
  output logic [P*P*6-1:0]  lk_lvl_o         // input i, port o at (i*P + o)*6; 0 if none
);
  if (P < 2 || P > 64) begin : gen_bad_p
    $fatal(1, "sar_table: parameter P=%0d out of range 2..64", P);
  end
  if (SE < 1 || SE > 32) begin : gen_bad_se
    $fatal(1, "sar_table: parameter SE=%0d out of range 1..32 (SE = 0: do not instantiate)", SE);
  end
  if (TABLE < 1 || TABLE > 65536) begin : gen_bad_table
    $fatal(1, "sar_table: parameter TABLE=%0d out of range 1..65536", TABLE);
  end

  // register addresses: asw_pkg, generated from rtl/regs.rdl (sw/rdl_regs.py)
  import asw_pkg::RegSarCtrl;
  import asw_pkg::RegSarTtl;
  import asw_pkg::RegSarSeed;
  import asw_pkg::RegSarCounterBase;
  import asw_pkg::RegSarEntryBase;
  localparam int unsigned NS = 2 * P;                  // stage-A sources: rx[0..P-1], loc[0..P-1]
  localparam int unsigned SRCW = asw_pkg::idx_w(NS);
  localparam int unsigned SEW = asw_pkg::idx_w(SE);
  localparam int unsigned NC = 6;                      // counters per port
  // Counter increments per cycle: sar_dropped up to 2 (rx and loc), sar_expired up to SE.
  localparam int unsigned CEW = asw_pkg::cnt_w((SE > 2) ? SE : 2);
  localparam int unsigned KSx = 0, KTx = 1, KDrop = 2, KUnr = 3, KEvict = 4, KExp = 5;

  // ---- registers ---------------------------------------------------------------------
  logic        en_q, steer_q;
  logic [4:0]  decay_q;      // SAR_CTRL.decay: 0 off, else a level step every 2^decay cycles
  logic [23:0] ttl_q;
  logic [4:0]  ts_q;
  logic [15:0] seed_q;
  logic [15:0] rs_q;
  logic [23:0] tc_q;

  logic [19:0] a, a_cnt_off, a_ent_off;
  logic [31:0] wd;
  logic        is_ctrl, is_ttl, is_seed, is_cnt, is_ent;
  logic [5:0]  cnt_p;
  logic [2:0]  cnt_k;
  logic [4:0]  ent_e;
  assign a = reg_addr_i;
  assign wd = reg_wdata_i;
  assign a_cnt_off = a - RegSarCounterBase;
  assign a_ent_off = a - RegSarEntryBase;
  assign is_ctrl = (a == RegSarCtrl);
  assign is_ttl = (a == RegSarTtl);
  assign is_seed = (a == RegSarSeed);
  assign is_cnt = (a >= RegSarCounterBase) && (32'(a) < 32'(RegSarCounterBase) + 8*P);
  assign is_ent = (a >= RegSarEntryBase) && (32'(a) < 32'(RegSarEntryBase) + 2*SE);
  assign cnt_p = a_cnt_off[8:3];
  assign cnt_k = a[2:0];
  assign ent_e = a_ent_off[5:1];
  assign own_o = is_ctrl || is_ttl || is_seed || is_cnt || is_ent;

  always_comb begin
    wr_ok_o = 1'b0;  // counters and SAR_ENTRY are read-only
    if (is_ctrl) begin
      wr_ok_o = (wd[31:7] == 25'd0) && (wd[6:2] <= 5'd24);
    end else if (is_ttl) begin
      wr_ok_o = (wd[31:29] == 3'd0) && (wd[23:0] != 24'd0) && (wd[28:24] <= 5'd24);
    end else if (is_seed) begin
      wr_ok_o = (wd[31:16] == 16'd0);
    end
  end

  logic wr, wr_ctrl, clear, wr_seed, cnt_clear;
  assign wr = reg_en_i && reg_we_i && wr_ok_o;
  assign wr_ctrl = wr && is_ctrl;
  assign clear = wr_ctrl && !wd[0];   // en = 0: the state is cleared at the end of the cycle
  assign wr_seed = wr && is_seed;
  assign cnt_clear = reg_en_i && reg_we_i && (a == asw_pkg::RegCntClear);
  assign steer_o = steer_q;

  // ---- state -------------------------------------------------------------------------
  logic [SE-1:0]  e_valid_q;
  logic [15:0]    e_dest_q[SE];
  logic [PIW-1:0] e_port_q[SE];
  logic [5:0]     e_lvl_q[SE];
  logic [23:0]    e_ttl_q[SE];
  logic [P-1:0]   rx_v_q, loc_v_q;
  logic [63:0]    rx_q[P], loc_q[P];
  logic [SRCW-1:0] ptr_q;
  logic           b_v_q;
  logic [63:0]    b_word_q;
  logic [PIW-1:0] b_port_q;
  logic           b_fok_q;     // FWD[src] was written and src < TABLE (else invalid)
  logic [15:0]    b_fwd;       // FWD[src] as at the start of the stage-A cycle (RAM output)
  logic [P-1:0]   out_v_q;     // cnm_out: at most one port valid, one word
  logic [63:0]    out_word_q;

  // ---- stage A: round-robin over rx[0..P-1], loc[0..P-1] ------------------------------
  logic [NS-1:0]   src_v, pop;
  logic [SRCW-1:0] src;
  logic            take;
  logic [63:0]     a_word;
  logic [PIW-1:0]  a_port;
  assign src_v = {loc_v_q, rx_v_q};
  rr_arbiter #(.N(NS)) u_pick (
    .req_i (src_v),
    .ptr_i (ptr_q),
    .gnt_o (pop),
    .idx_o (src)
  );
  assign take = en_q && (src_v != '0);
  always_comb begin
    a_word = '0;
    a_port = '0;
    for (int unsigned s = 0; s < NS; s++) begin
      if (pop[s]) begin  // one-hot: AND-OR select
        a_word = a_word | ((s < P) ? rx_q[s % P] : loc_q[s % P]);
        a_port = a_port | PIW'(s % P);
      end
    end
  end

  // FWD copy, read with the culprit source of the word stage A picks: the entry is on the
  // RAM's output in the stage-B cycle, as the table was at the start of the stage-A cycle.
  logic [15:0] a_src;
  assign a_src = a_word[15:0];
  ram_1r1w #(.W(16), .DEPTH(TABLE)) u_fwd_mem (
    .clk_i,
    .we_i    (fwd_we_i),
    .waddr_i (fwd_waddr_i),
    .wdata_i (fwd_wdata_i),
    .raddr_i (a_src[TW-1:0]),
    .rdata_o (b_fwd)
  );

  // ---- filling of rx / loc -------------------------------------------------------------
  logic [P-1:0] rx_take, rx_drop, loc_take, loc_drop;
  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      rx_take[p] = en_q && cnm_in_valid_i[p] && (!rx_v_q[p] || pop[p]);
      rx_drop[p] = en_q && cnm_in_valid_i[p] && rx_v_q[p] && !pop[p];
      loc_take[p] = en_q && loc_valid_i[p] && (!loc_v_q[p] || pop[P + p]);
      loc_drop[p] = en_q && loc_valid_i[p] && loc_v_q[p] && !pop[P + p];
    end
  end

  // ---- stage B: snoop --------------------------------------------------------------------
  logic          bv;           // a valid B is processed this cycle
  logic [15:0]   b_dest;
  logic [5:0]    b_q;
  logic [SE-1:0] same;
  logic          hit;
  logic [SE-1:0] wsel, victim;
  logic [SEW-1:0] oldest;      // valid entry with the smallest ttl, lowest index among equals
  assign bv = en_q && b_v_q;
  assign b_dest = b_word_q[31:16];
  assign b_q = b_word_q[37:32];
  always_comb begin
    for (int unsigned k = 0; k < SE; k++) begin
      same[k] = e_valid_q[k] && (e_dest_q[k] == b_dest) && (e_port_q[k] == b_port_q);
    end
    hit = same != '0;
  end
  localparam int unsigned ST = 1 << asw_pkg::idx_w(SE);  // SE rounded up to a power of 2
  always_comb begin
    logic [23:0]    tt[ST];
    logic [SEW-1:0] ti[ST];
    for (int unsigned k = 0; k < ST; k++) begin
      tt[k] = (k < SE) ? e_ttl_q[k % SE] : 24'hFFFFFF;
      ti[k] = SEW'(k % SE);
    end
    for (int unsigned w = ST / 2; w >= 1; w = w / 2) begin
      for (int unsigned k = 0; k < w; k++) begin
        if (tt[2*k+1] < tt[2*k]) begin
          tt[k] = tt[2*k+1];
          ti[k] = ti[2*k+1];
        end else begin
          tt[k] = tt[2*k];
          ti[k] = ti[2*k];
        end
      end
    end
    oldest = ti[0];
  end
  always_comb begin
    wsel = '0;
    victim = '0;
    if (bv && !hit) begin
      if (e_valid_q != {SE{1'b1}}) begin
        wsel = ~e_valid_q & (e_valid_q + SE'(1));  // lowest clear bit
      end else begin
        wsel[oldest] = 1'b1;
        victim[oldest] = 1'b1;
      end
    end
  end

  // ---- stage B: forward ------------------------------------------------------------------
  logic [15:0]    f_ent;
  logic           f_valid, f_multi;
  logic [1:0]     f_cset;
  logic [PIW-1:0] f_det;
  logic [P-1:0]   f_cand;
  logic [6:0]     f_n;
  logic [15:0]    rs_next;
  logic           rs_step;
  logic [6:0]     f_k;
  logic [22:0]    f_prod;
  logic [PIW-1:0] f_rand;      // the k-th candidate in increasing port order
  logic [PIW-1:0] f_port;
  logic           f_send;
  logic           unroutable;
  assign f_ent = b_fok_q ? b_fwd : 16'h0;
  assign f_valid = f_ent[15];
  assign f_multi = f_ent[14];
  assign f_cset = f_ent[13:12];
  assign f_det = f_ent[PIW-1:0];
  assign rs_next = {rs_q[14:0], rs_q[15] ^ rs_q[13] ^ rs_q[12] ^ rs_q[10]};
  always_comb begin
    logic [6:0] cnt;
    f_cand = cset_i[32'(f_cset)*P +: P];
    // inclusive prefix count of the candidates (a ripple: one event per cycle, P <= 64)
    cnt = '0;
    f_rand = '0;
    f_n = 7'($countones(f_cand));
    f_prod = 23'(rs_next) * 23'(f_n);
    f_k = f_prod[22:16];
    for (int unsigned o = 0; o < P; o++) begin
      if (f_cand[o] && (cnt == f_k)) begin
        f_rand = PIW'(o);
      end
      cnt = cnt + 7'(f_cand[o]);
    end
    rs_step = bv && f_valid && f_multi && (f_n != 7'd0);
    f_port = rs_step ? f_rand : f_det;
    f_send = bv && f_valid;
    unroutable = bv && !f_valid;
  end

  // ---- decay -------------------------------------------------------------------------------
  logic        tick;
  logic [23:0] ts_mask;
  assign ts_mask = ~(24'hFFFFFF << ts_q);
  assign tick = en_q && ((tc_q & ts_mask) == ts_mask);

  // Level decay (SAR_CTRL.decay != 0): a decay tick every 2^decay cycles; at its end every valid
  // entry not written in it steps its level down by 1, floor 0.
  logic        dtick;
  logic [23:0] dk_mask;
  assign dk_mask = ~(24'hFFFFFF << decay_q);
  assign dtick = en_q && (decay_q != 5'd0) && ((tc_q & dk_mask) == dk_mask);

  logic [SE-1:0] e_valid_d, expire;
  logic [23:0]   e_ttl_d[SE];
  always_comb begin
    e_valid_d = e_valid_q;
    expire = '0;
    for (int unsigned k = 0; k < SE; k++) begin
      e_ttl_d[k] = e_ttl_q[k];
      if (wsel[k] || (bv && same[k])) begin
        e_valid_d[k] = 1'b1;
        e_ttl_d[k] = ttl_q;
      end else if (tick && e_valid_q[k]) begin
        if (e_ttl_q[k] == 24'd1) begin
          e_valid_d[k] = 1'b0;
          expire[k] = 1'b1;
        end else begin
          e_ttl_d[k] = e_ttl_q[k] - 24'd1;
        end
      end
    end
  end

  // ---- counters ---------------------------------------------------------------------------
  if (CNT) begin : gen_counters  // only with CountersEn (§1)
    logic [P*NC-1:0][CEW-1:0] cnt_ev;
    always_comb begin
      for (int unsigned p = 0; p < P; p++) begin
        logic [CEW-1:0] nexp;
        logic           ev_evict;
        nexp = '0;
        ev_evict = 1'b0;
        for (int unsigned k = 0; k < SE; k++) begin
          if (expire[k] && (32'(e_port_q[k]) == p)) begin
            nexp = nexp + CEW'(1);
          end
          if (victim[k] && (32'(e_port_q[k]) == p)) begin
            ev_evict = 1'b1;
          end
        end
        cnt_ev[p*NC + KSx] = CEW'(en_q && cnm_in_valid_i[p]);  // received: taken or dropped
        cnt_ev[p*NC + KTx] = CEW'(f_send && (32'(f_port) == p));
        cnt_ev[p*NC + KDrop] = CEW'(rx_drop[p]) + CEW'(loc_drop[p]);
        cnt_ev[p*NC + KUnr] = CEW'(unroutable && (32'(b_port_q) == p));
        cnt_ev[p*NC + KEvict] = CEW'(ev_evict);
        cnt_ev[p*NC + KExp] = nexp;
      end
    end
    logic [asw_pkg::idx_w(P*NC)-1:0] cnt_idx;
    assign cnt_idx = asw_pkg::idx_w(P*NC)'({cnt_p, 2'b0} + {1'b0, cnt_p, 1'b0} + 9'(cnt_k));  // 6p + k
    counter_ram #(.N(P * NC), .EW(CEW)) u_counters (
      .clk_i,
      .rst_ni,
      .ev_i     (cnt_ev),
      .clear_i  (cnt_clear),
      .rd_i     (reg_en_i && !reg_we_i && is_cnt && (cnt_k < 3'(NC))),
      .rd_idx_i (cnt_idx),
      .rdata_o  (cnt_rdata_o)
    );
  end else begin : gen_no_counters  // the counters read 0
    assign cnt_rdata_o = 32'h0;
    logic unused_cnt;
    assign unused_cnt = ^{cnt_clear, cnt_p, cnt_k, is_cnt, rx_drop, loc_drop, unroutable, f_send,
                          f_port, b_port_q};
  end

  // ---- read view -----------------------------------------------------------------------------
  always_comb begin
    rd_o = 32'h0;
    if (is_ctrl) begin
      rd_o = {25'h0, decay_q, steer_q, en_q};
    end else if (is_ttl) begin
      rd_o = {3'h0, ts_q, ttl_q};
    end else if (is_seed) begin
      rd_o = {16'h0, seed_q};
    end else if (is_ent) begin
      for (int unsigned k = 0; k < SE; k++) begin
        if ((32'(ent_e) == k) && e_valid_q[k]) begin
          rd_o = a[0] ? {8'h0, e_ttl_q[k]}
                      : {1'b1, 3'h0, e_lvl_q[k], 6'(e_port_q[k]), e_dest_q[k]};
        end
      end
    end
  end

  // ---- RC lookups: lvl of {dest of input i, port o} ---------------------------------------------
  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      logic [SE-1:0] m;
      for (int unsigned k = 0; k < SE; k++) begin
        m[k] = e_valid_q[k] && (e_dest_q[k] == lk_dest_i[i*16 +: 16]);
      end
      for (int unsigned o = 0; o < P; o++) begin
        logic [5:0] l;
        l = '0;
        for (int unsigned k = 0; k < SE; k++) begin
          if (m[k] && (32'(e_port_q[k]) == o)) begin  // {dest, port} unique: at most one
            l = l | e_lvl_q[k];
          end
        end
        lk_lvl_o[(i*P + o)*6 +: 6] = l;
      end
    end
  end

  // ---- registers -------------------------------------------------------------------------------
  // Entry payload and words (no reset: read only while valid).
  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < SE; k++) begin
      if (wsel[k]) begin
        e_dest_q[k] <= b_dest;
        e_port_q[k] <= b_port_q;
      end
      if (wsel[k] || (bv && same[k])) begin
        e_lvl_q[k] <= b_q;
      end else if (dtick && e_valid_q[k] && (e_lvl_q[k] != 6'd0)) begin
        e_lvl_q[k] <= e_lvl_q[k] - 6'd1;
      end
    end
    for (int unsigned p = 0; p < P; p++) begin
      if (rx_take[p]) begin
        rx_q[p] <= cnm_in_data_i[p*64 +: 64];
      end
      if (loc_take[p]) begin
        loc_q[p] <= loc_data_i[p*64 +: 64];
      end
    end
    if (take) begin
      b_word_q <= a_word;
      b_port_q <= a_port;
      b_fok_q <= (32'(a_src) < TABLE) && fwd_written_i[a_src[TW-1:0]];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_q <= 1'b0;
      steer_q <= 1'b0;
      decay_q <= 5'd0;
      ttl_q <= 24'd4096;
      ts_q <= 5'd0;
      seed_q <= 16'd1;
      rs_q <= 16'd1;
      tc_q <= '0;
      e_valid_q <= '0;
      for (int unsigned k = 0; k < SE; k++) begin
        e_ttl_q[k] <= '0;
      end
      rx_v_q <= '0;
      loc_v_q <= '0;
      ptr_q <= '0;
      b_v_q <= 1'b0;
      out_v_q <= '0;
      out_word_q <= '0;
    end else begin
      tc_q <= tc_q + 24'd1;
      if (wr_ctrl) begin
        en_q <= wd[0];
        steer_q <= wd[1];
        decay_q <= wd[6:2];
      end
      if (wr && is_ttl) begin
        ttl_q <= wd[23:0];
        ts_q <= wd[28:24];
      end
      if (wr_seed) begin
        seed_q <= wd[15:0];
        rs_q <= (wd[15:0] == 16'h0) ? 16'hACE1 : wd[15:0];
      end else if (rs_step) begin
        rs_q <= rs_next;
      end
      if (clear) begin
        e_valid_q <= '0;
        for (int unsigned k = 0; k < SE; k++) begin
          e_ttl_q[k] <= '0;
        end
        rx_v_q <= '0;
        loc_v_q <= '0;
        ptr_q <= '0;
        b_v_q <= 1'b0;
        out_v_q <= '0;
        out_word_q <= '0;
      end else if (en_q) begin
        e_valid_q <= e_valid_d;
        for (int unsigned k = 0; k < SE; k++) begin
          e_ttl_q[k] <= e_ttl_d[k];
        end
        rx_v_q <= (rx_v_q & ~pop[P-1:0]) | rx_take;
        loc_v_q <= (loc_v_q & ~pop[NS-1:P]) | loc_take;
        if (take) begin
          ptr_q <= (32'(src) == NS - 1) ? '0 : src + SRCW'(1);
        end
        b_v_q <= take;
        out_v_q <= f_send ? (P'(1) << f_port) : '0;
        out_word_q <= f_send ? b_word_q : '0;
      end
    end
  end

  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      cnm_out_data_o[p*64 +: 64] = out_v_q[p] ? out_word_q : 64'h0;
    end
  end
  assign cnm_out_valid_o = out_v_q;

`ifndef SYNTHESIS
  logic chk_en_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_en_q <= 1'b0;
    end else begin
      chk_en_q <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      assert ($countones(out_v_q) <= 1) else $error("sar_table: two cnm_out words in a cycle");
      assert ($countones(pop) <= 1) else $error("sar_table: two sources popped in a cycle");
      assert (!b_v_q || (32'(b_port_q) < P)) else $error("sar_table: B.port >= P");
      for (int unsigned k = 0; k < SE; k++) begin
        if (e_valid_q[k]) begin
          assert (e_ttl_q[k] != '0) else $error("sar_table: valid entry %0d with ttl 0", k);
          assert (32'(e_port_q[k]) < P) else $error("sar_table: entry %0d port >= P", k);
          for (int unsigned j = k + 1; j < SE; j++) begin
            assert (!(e_valid_q[j] && e_dest_q[j] == e_dest_q[k] && e_port_q[j] == e_port_q[k]))
              else $error("sar_table: entries %0d and %0d share {dest, port}", k, j);
          end
        end
      end
      if (!en_q) begin
        assert (e_valid_q == '0 && rx_v_q == '0 && loc_v_q == '0 && !b_v_q && out_v_q == '0)
          else $error("sar_table: state live with SAR_CTRL.en = 0");
      end
    end
  end

  // §17.8 branches (reported with the switch's cover points).
  cov_sar_refresh: cover property (@(posedge clk_i) chk_en_q && bv && hit);
  cov_sar_new_entry: cover property (@(posedge clk_i) chk_en_q && bv && !hit && (victim == '0));
  cov_sar_evict: cover property (@(posedge clk_i) chk_en_q && (victim != '0));
  cov_sar_expire: cover property (@(posedge clk_i) chk_en_q && (expire != '0));
  cov_sar_expire_several: cover property (@(posedge clk_i) chk_en_q && ($countones(expire) >= 2));
  cov_sar_rx_drop: cover property (@(posedge clk_i) chk_en_q && (rx_drop != '0));
  cov_sar_loc_drop: cover property (@(posedge clk_i) chk_en_q && (loc_drop != '0));
  cov_sar_loc_take: cover property (@(posedge clk_i) chk_en_q && (loc_take != '0));
  cov_sar_unroutable: cover property (@(posedge clk_i) chk_en_q && unroutable);
  cov_sar_random_path: cover property (@(posedge clk_i) chk_en_q && rs_step);
  cov_sar_det_path: cover property (@(posedge clk_i) chk_en_q && f_send && !rs_step);
  cov_sar_refill_popped: cover property (@(posedge clk_i) chk_en_q && ((rx_take & rx_v_q) != '0));
  cov_sar_clear_live: cover property (@(posedge clk_i)
    chk_en_q && clear && ((e_valid_q != '0) || b_v_q || (rx_v_q != '0)));
  cov_sar_seed_step: cover property (@(posedge clk_i) chk_en_q && wr_seed && rs_step);
  cov_sar_level_decay: cover property (@(posedge clk_i) chk_en_q && dtick && !bv &&
                                       (e_valid_q != '0));
  cov_sar_tick_slow: cover property (@(posedge clk_i) chk_en_q && tick && (ts_q != 5'd0) &&
                                     (e_valid_q != '0));
`endif

  logic unused_bits;
  assign unused_bits = ^{a_cnt_off[19:9], a_cnt_off[2:0], a_ent_off[19:6], a_ent_off[0], f_ent[11:0],
                         f_prod[15:0]};
endmodule
