// congestion_detector.sv — congestion detector of contract §15.2: per-VOQ hot flags
// with HCDTH/LCDTH hysteresis, per-output offender (first hot non-empty VOQ, i-major
// then v), FCTH root/branch test on the offender head's ovc, CRT timers, root
// declaration/refresh/clearing, next_id, and the root FIFO (AQ events, source 0 of
// §15.4). Queue index k = (i*V + v)*P + o (input i, VC v, output o; VOQ only).
module congestion_detector #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned NQT = P * V * P
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // registers at the start of the cycle
  input  logic                 on_i,        // ARN_CTRL.mode != 0
  input  logic                 clear_i,     // ARN_CTRL written with mode 0 (end of cycle)
  input  logic [15:0]          hcdth_i,
  input  logic [15:0]          lcdth_i,
  input  logic [15:0]          fcth_i,
  input  logic [23:0]          crt_i,
  input  logic [P-1:0]         arn_up_i,
  input  logic [3:0]           stage_i,
  // occupancy events of this cycle (RC append and/or ST release) with final values
  input  logic [NQT-1:0]       occ_touch_i,
  input  logic [NQT*CW-1:0]    occ_next_i,
  // queue heads at the start of the cycle
  input  logic [NQT-1:0]       q_nonempty_i,
  input  logic [NQT*VW-1:0]    q_ovc_i,
  input  logic [P*V*CW-1:0]    cred_i,      // CRED[o][v] at (o*V+v)*CW
  // header read port: head of queue (off_vc_o, off_port_o) of input off_in_o
  output logic                 off_valid_o,
  output logic [PIW-1:0]       off_in_o,
  output logic [VW-1:0]        off_vc_o,
  output logic [PIW-1:0]       off_port_o,
  input  logic [15:0]          off_dest_i,
  input  logic                 off_adapted_i,
  input  logic [2:0]           off_orig_vc_i,
  // root FIFO head (source 0 of the event arbiter)
  output logic                 rev_valid_o,
  output logic [15:0]          rev_dest_o,
  output logic [PIW-1:0]       rev_port_o,
  output logic [2:0]           rev_vc_o,
  output logic [3:0]           rev_stage_o,
  output logic [8:0]           rev_id_o,
  output logic                 rev_adapted_o,
  input  logic                 rev_pop_i,
  // counter strobe and register views (ROOT[o], verification)
  output logic [P-1:0]         roots_declared_o,
  output logic [P-1:0]         root_o,
  output logic [P*9-1:0]       root_id_o,
  output logic [P*24-1:0]      crt_o,
  input  logic [PIW-1:0]       hot_cnt_port_i,  // ROOT register read: output whose hot VOQs to count
  output logic [9:0]           hot_cnt_o,
  output logic [8:0]           next_id_o,
  output logic [NQT-1:0]       hot_o
);
  if (P < 2 || P > 64) begin : gen_bad_p
    $fatal(1, "congestion_detector: parameter P=%0d out of range 2..64", P);
  end
  if (V < 1 || V > 8) begin : gen_bad_v
    $fatal(1, "congestion_detector: parameter V=%0d out of range 1..8", V);
  end
  if (BUF < 1 || BUF > 16384) begin : gen_bad_buf
    $fatal(1, "congestion_detector: parameter BUF=%0d out of range 1..16384", BUF);
  end

  localparam int unsigned AQ = 4;
  localparam int unsigned EW = 16 + PIW + 3 + 4 + 9 + 1;  // root event width

  // ---- state ----------------------------------------------------------------
  logic [NQT-1:0] hot_q, hot_d;
  logic [23:0]    crt_q[P];
  logic [23:0]    crt_d[P];
  logic [P-1:0]   root_q, root_d;
  logic [8:0]     root_id_q[P];
  logic [8:0]     root_id_d[P];
  logic [8:0]     next_id_q, next_id_d;
  logic [EW-1:0]  rf_mem_q[AQ];
  logic [1:0]     rf_head_q, rf_head_d;
  logic [2:0]     rf_cnt_q, rf_cnt_d;

  // ---- hot flags (hysteresis, evaluated on the final occupancy) -------------
  always_comb begin
    hot_d = hot_q;
    for (int unsigned k = 0; k < NQT; k++) begin
      if (on_i && occ_touch_i[k]) begin
        hot_d[k] = (16'(occ_next_i[k*CW +: CW]) >= hcdth_i) ||
                   (hot_q[k] && (16'(occ_next_i[k*CW +: CW]) >= lcdth_i));
      end
    end
    if (clear_i) begin
      hot_d = '0;
    end
  end

  // ---- offenders, root/branch test, declaring output --------------------------
  logic [P-1:0]   out_hot;    // some hot[.][.][o]
  logic [P-1:0]   off_found;
  logic [PIW-1:0] off_i[P];
  logic [VW-1:0]  off_v[P];
  logic [P-1:0]   cond;
  logic [P-1:0]   expire;

  // Offender of each output: the first hot, non-empty VOQ in (i, v) order, found as the
  // lowest set bit (x & -x) of a P*V-bit vector; selects are AND-OR over the one-hot pick.
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      logic [P*V-1:0] hb;    // hb[i*V+v]: hot[i][v][o]
      logic [P*V-1:0] cb;    // ... and non-empty: offender candidates
      logic [P*V-1:0] pick;  // the first candidate, one-hot
      logic [VW-1:0]  ovc;
      for (int unsigned k = 0; k < P * V; k++) begin
        hb[k] = hot_q[k*P+o];
        cb[k] = hot_q[k*P+o] && q_nonempty_i[k*P+o];
      end
      pick = cb & (~cb + (P*V)'(1));
      out_hot[o] = |hb;
      off_found[o] = |cb;
      off_i[o] = '0;
      off_v[o] = '0;
      ovc = '0;
      for (int unsigned k = 0; k < P * V; k++) begin
        if (pick[k]) begin
          off_i[o] = off_i[o] | PIW'(k / V);
          off_v[o] = off_v[o] | VW'(k % V);
          ovc = ovc | q_ovc_i[(k*P+o)*VW +: VW];
        end
      end
      cond[o] = off_found[o] && (16'(cred_i[(o*V + 32'(ovc))*CW +: CW]) > fcth_i);
      expire[o] = cond[o] && ({1'b0, crt_q[o]} + 25'd1 >= {1'b0, crt_i});
    end
  end

  // Declaring output: the lowest o with expire, while the root FIFO has room.
  logic           declare;
  logic [PIW-1:0] decl_o;
  logic [P-1:0]   decl_pick;
  always_comb begin
    decl_pick = (on_i && (rf_cnt_q < 3'(AQ))) ? (expire & (~expire + P'(1))) : '0;
    declare = (decl_pick != '0);
    decl_o = '0;
    for (int unsigned o = 0; o < P; o++) begin
      if (decl_pick[o]) begin
        decl_o = decl_o | PIW'(o);
      end
    end
  end

  assign off_valid_o = declare;
  assign off_in_o = off_i[decl_o];
  assign off_vc_o = off_v[decl_o];
  assign off_port_o = decl_o;

  // ---- timers, roots, ids, root event ---------------------------------------
  logic [EW-1:0] new_ev;
  logic [8:0]    ev_id;
  logic [3:0]    ev_stage;
  logic [2:0]    ev_vc;
  always_comb begin
    next_id_d = next_id_q;
    root_d = root_q;
    roots_declared_o = '0;
    for (int unsigned o = 0; o < P; o++) begin
      crt_d[o] = crt_q[o];
      root_id_d[o] = root_id_q[o];
    end
    ev_id = root_id_q[decl_o];
    ev_stage = arn_up_i[decl_o] ? stage_i : stage_i - 4'd1;
    ev_vc = off_adapted_i ? off_orig_vc_i : 3'(off_v[decl_o]);
    if (on_i) begin
      for (int unsigned o = 0; o < P; o++) begin
        if (declare && (decl_o == PIW'(o))) begin
          crt_d[o] = '0;
          if (!root_q[o]) begin
            ev_id = next_id_q;
            root_d[o] = 1'b1;
            root_id_d[o] = next_id_q;
            next_id_d = next_id_q + 9'd1;
            roots_declared_o[o] = 1'b1;
          end
        end else begin
          crt_d[o] = !cond[o] ? 24'd0 : (crt_q[o] < crt_i) ? crt_q[o] + 24'd1 : crt_i;
          if (root_q[o] && !out_hot[o]) begin
            root_d[o] = 1'b0;
          end
        end
      end
    end
    new_ev = {off_dest_i, decl_o, ev_vc, ev_stage, ev_id, off_adapted_i};
  end

  // ---- root FIFO -------------------------------------------------------------
  logic rf_push, rf_pop;
  assign rf_push = declare;
  assign rf_pop = rev_pop_i && (rf_cnt_q != '0);
  always_comb begin
    rf_head_d = rf_pop ? rf_head_q + 2'd1 : rf_head_q;
    rf_cnt_d = rf_cnt_q + (rf_push ? 3'd1 : 3'd0) - (rf_pop ? 3'd1 : 3'd0);
  end

  always_ff @(posedge clk_i) begin
    if (rf_push) begin
      rf_mem_q[rf_head_q + rf_cnt_q[1:0]] <= new_ev;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hot_q <= '0;
      root_q <= '0;
      next_id_q <= '0;
      rf_head_q <= '0;
      rf_cnt_q <= '0;
      for (int unsigned o = 0; o < P; o++) begin
        crt_q[o] <= '0;
        root_id_q[o] <= '0;
      end
    end else begin
      hot_q <= hot_d;
      next_id_q <= next_id_d;  // kept by a mode-0 write
      if (clear_i) begin
        root_q <= '0;
        rf_head_q <= '0;
        rf_cnt_q <= '0;
        for (int unsigned o = 0; o < P; o++) begin
          crt_q[o] <= '0;
          root_id_q[o] <= '0;
        end
      end else begin
        root_q <= root_d;
        rf_head_q <= rf_head_d;
        rf_cnt_q <= rf_cnt_d;
        for (int unsigned o = 0; o < P; o++) begin
          crt_q[o] <= crt_d[o];
          root_id_q[o] <= root_id_d[o];
        end
      end
    end
  end

  // ---- outputs ---------------------------------------------------------------
  logic [EW-1:0] rf_head_ev;
  assign rf_head_ev = rf_mem_q[rf_head_q];
  assign rev_valid_o = rf_cnt_q != '0;
  assign {rev_dest_o, rev_port_o, rev_vc_o, rev_stage_o, rev_id_o, rev_adapted_o} = rf_head_ev;
  assign next_id_o = next_id_q;
  assign hot_o = hot_q;
  assign root_o = root_q;

  // One population count, for the output a register read selects (ROOT[o] w0).
  always_comb begin
    hot_cnt_o = '0;
    if (32'(hot_cnt_port_i) < P) begin
      for (int unsigned k = 0; k < P * V; k++) begin
        hot_cnt_o = hot_cnt_o + 10'(hot_q[k*P + 32'(hot_cnt_port_i)]);
      end
    end
  end

  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      root_id_o[o*9 +: 9] = root_q[o] ? root_id_q[o] : 9'd0;
      crt_o[o*24 +: 24] = crt_q[o];
    end
  end

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
      assert (rf_cnt_q <= 3'(AQ)) else $error("congestion_detector: root FIFO holds %0d > AQ", rf_cnt_q);
      assert (!(rf_push && !rf_pop && rf_cnt_q == 3'(AQ)))
        else $error("congestion_detector: push on a full root FIFO");
      // At most one root event per cycle, only for an output whose timer expired.
      if (declare) begin
        assert (expire[decl_o]) else $error("congestion_detector: declaration without expiry");
      end
    end
  end

  // Coverage of the §15.2 branches (reported with the switch's cover points).
  cov_root_new: cover property (@(posedge clk_i) chk_en_q && declare && !root_q[decl_o]);
  cov_root_refresh: cover property (@(posedge clk_i) chk_en_q && declare && root_q[decl_o]);
  cov_root_cleared: cover property (@(posedge clk_i) chk_en_q && on_i && ((root_q & ~out_hot) != '0));
  cov_branch: cover property (@(posedge clk_i) chk_en_q && on_i && ((off_found & ~cond) != '0));
  cov_root_fifo_full: cover property (@(posedge clk_i) chk_en_q && on_i && (expire != '0) && !declare);
  cov_adapted_offender: cover property (@(posedge clk_i) chk_en_q && declare && off_adapted_i);
  // Hysteresis: a hot VOQ re-evaluated between LCDTH and HCDTH stays hot.
  logic hyst_hold;
  always_comb begin
    hyst_hold = 1'b0;
    for (int unsigned k = 0; k < NQT; k++) begin
      if (on_i && occ_touch_i[k] && hot_q[k] && (16'(occ_next_i[k*CW +: CW]) < hcdth_i) &&
          (16'(occ_next_i[k*CW +: CW]) >= lcdth_i)) begin
        hyst_hold = 1'b1;
      end
    end
  end
  cov_hot_hysteresis: cover property (@(posedge clk_i) chk_en_q && hyst_hold);
`endif
endmodule
