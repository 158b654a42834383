// pfc.sv — PFC link mode (contract §17.1, §17.2): per-port mode register PFC_EN, the
// XOFF/XON thresholds, per-(input, priority) held-or-due counts hd, pause hysteresis
// (want), the state signalled upstream (sent) and the frame each PFC input sends on
// its credit register; the PFC counters and the PFC_STATE view. The sender side (a PFC
// output's CRED is its pause view) is in credits.sv (pfc_en_i, pfc_chg_i).
module pfc #(
  parameter int unsigned P = 8,     // ports, 2..64
  parameter int unsigned V = 2,     // VCs = priorities, 1..8
  parameter int unsigned BUF = 32,  // flits per input VC (XOFF <= BUF)
  parameter bit CNT = 1'b1,         // the PFC counters exist (CountersEn, §1; 0: they read 0)
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // register bus (the same signals regs.sv sees)
  input  logic              reg_en_i,
  input  logic              reg_we_i,
  input  logic [19:0]       reg_addr_i,
  input  logic [31:0]       reg_wdata_i,
  output logic              own_o,       // the address is a §17.2 register
  output logic              wr_ok_o,     // ... and a write of reg_wdata_i is legal
  output logic [31:0]       rd_o,        // its read value (start of the cycle)
  // hd events of this cycle: flits written (IW) and released (ST) per input
  input  logic [P-1:0]      iw_valid_i,
  input  logic [P-1:0]      iw_head_i,
  input  logic [P*3-1:0]    iw_vc_i,
  input  logic [P*8-1:0]    iw_len_i,    // hdr.len of a head flit
  input  logic [P-1:0]      st_valid_i,
  input  logic [P*VW-1:0]   st_vc_i,
  // frames received on the outputs (counted on PFC outputs)
  input  logic [P-1:0]      cr_in_valid_i,
  input  logic [P*V*CW-1:0] cred_i,      // CRED, index o*V+v (PFC_STATE's paused bits)
  output logic [P-1:0]      pfc_en_o,    // PFC_EN at the start of the cycle
  output logic [P-1:0]      pfc_chg_o,   // ports whose mode changes at the end of it
  output logic [P-1:0]      frame_valid_o,  // this cycle's frame of PFC input p
  output logic [P*3-1:0]    frame_vc_o
);
  // register addresses: asw_pkg, generated from rtl/regs.rdl (sw/rdl_regs.py)
  import asw_pkg::RegPfcEn0;
  import asw_pkg::RegPfcEn1;
  import asw_pkg::RegPfcThresh;
  import asw_pkg::RegPfcCntBase;
  import asw_pkg::RegPfcStateBase;
  localparam int unsigned Xoff0 = (BUF / 2 < 1) ? 1 : BUF / 2;

  logic [P-1:0]  en_q;
  logic [15:0]   xoff_q, xon_q;
  logic [CW-1:0] hd_q[P*V];
  logic [V-1:0]  want_q[P], sent_q[P];
  logic [VW-1:0] ptr_q[P];
  logic [31:0]   sent_cnt_q[P], recv_cnt_q[P];

  // ---- registers -------------------------------------------------------------------
  logic [19:0] a, a_cnt_off, a_state_off;
  logic [31:0] wd;
  logic        is_en0, is_en1, is_thr, is_cnt, is_state;
  logic [5:0]  cnt_p, state_p;
  assign a = reg_addr_i;
  assign wd = reg_wdata_i;
  assign a_cnt_off = a - RegPfcCntBase;
  assign a_state_off = a - RegPfcStateBase;
  assign is_en0 = (a == RegPfcEn0);
  assign is_en1 = (a == RegPfcEn1);
  assign is_thr = (a == RegPfcThresh);
  assign is_cnt = (a >= RegPfcCntBase) && (32'(a) < 32'(RegPfcCntBase) + 4*P);
  assign is_state = (a >= RegPfcStateBase) && (32'(a) < 32'(RegPfcStateBase) + P);
  assign cnt_p = a_cnt_off[7:2];
  assign state_p = a_state_off[5:0];
  assign own_o = is_en0 || is_en1 || is_thr || is_cnt || is_state;

  logic [31:0] en_legal;   // bits of the addressed PFC_EN word that are ports < P
  always_comb begin
    for (int unsigned b = 0; b < 32; b++) begin
      en_legal[b] = ((is_en1 ? 32 : 0) + b) < P;
    end
    wr_ok_o = 1'b0;
    if (is_en0 || is_en1) begin
      wr_ok_o = ((wd & ~en_legal) == 32'd0);
    end else if (is_thr) begin
      wr_ok_o = (wd[31:16] < wd[15:0]) && (32'(wd[15:0]) <= BUF);
    end
  end

  logic wr, cnt_clear;
  logic [P-1:0] en_d;
  assign wr = reg_en_i && reg_we_i && wr_ok_o;
  assign cnt_clear = reg_en_i && reg_we_i && (a == asw_pkg::RegCntClear);
  always_comb begin
    en_d = en_q;
    for (int unsigned b = 0; b < 32; b++) begin
      if (wr && is_en0 && (b < P)) begin
        en_d[b] = wd[b];
      end
      if (wr && is_en1 && (32 + b < P)) begin
        en_d[32 + b] = wd[b];
      end
    end
  end
  assign pfc_chg_o = en_d ^ en_q;
  assign pfc_en_o = en_q;

  always_comb begin
    rd_o = 32'h0;
    if (is_en0) begin
      for (int unsigned b = 0; b < 32; b++) begin
        if (b < P) begin
          rd_o[b] = en_q[b];
        end
      end
    end else if (is_en1) begin
      for (int unsigned b = 0; b < 32; b++) begin
        if (32 + b < P) begin
          rd_o[b] = en_q[32 + b];
        end
      end
    end else if (is_thr) begin
      rd_o = {xon_q, xoff_q};
    end else if (is_cnt) begin
      unique case (a[1:0])
        2'd0: rd_o = sent_cnt_q[cnt_p[asw_pkg::idx_w(P)-1:0]];
        2'd1: rd_o = recv_cnt_q[cnt_p[asw_pkg::idx_w(P)-1:0]];
        default: rd_o = 32'h0;
      endcase
    end else if (is_state) begin
      for (int unsigned v = 0; v < V; v++) begin
        rd_o[v] = en_q[state_p[asw_pkg::idx_w(P)-1:0]] &&
                  (cred_i[(32'(state_p)*V + v)*CW +: CW] == '0);
      end
      rd_o[15:8] = 8'(want_q[state_p[asw_pkg::idx_w(P)-1:0]]);
      rd_o[23:16] = 8'(sent_q[state_p[asw_pkg::idx_w(P)-1:0]]);
    end
  end

  // ---- frames (state at the start of the cycle) ------------------------------------
  logic [V-1:0]  diff[P], gnt[P];
  logic [VW-1:0] pick[P];
  for (genvar i = 0; i < P; i++) begin : gen_pick
    assign diff[i] = want_q[i] ^ sent_q[i];
    rr_arbiter #(.N(V)) u_pick (
      .req_i (diff[i]),
      .ptr_i (ptr_q[i]),
      .gnt_o (gnt[i]),
      .idx_o (pick[i])
    );
    assign frame_valid_o[i] = en_q[i] && (diff[i] != '0);
    assign frame_vc_o[i*3 +: 3] = frame_valid_o[i] ? 3'(pick[i]) : 3'd0;
  end

  // ---- hd, hysteresis, next state ----------------------------------------------------
  logic [CW-1:0] hd_d[P*V];
  logic [V-1:0]  want_d[P], sent_d[P];
  logic [VW-1:0] ptr_d[P];
  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      want_d[i] = want_q[i];
      sent_d[i] = sent_q[i];
      ptr_d[i] = ptr_q[i];
      for (int unsigned v = 0; v < V; v++) begin
        logic [15:0] h;
        h = 16'(hd_q[i*V+v]);
        if (iw_valid_i[i] && iw_head_i[i] && (32'(iw_vc_i[i*3 +: 3]) == v)) begin
          h = h + 16'(iw_len_i[i*8 +: 8]);
        end
        if (st_valid_i[i] && (32'(st_vc_i[i*VW +: VW]) == v)) begin
          h = h - 16'd1;
        end
        hd_d[i*V+v] = CW'(h);
        if (en_q[i]) begin
          want_d[i][v] = (h >= xoff_q) || (want_q[i][v] && (h > xon_q));
        end
      end
      if (frame_valid_o[i]) begin
        sent_d[i] = sent_q[i] ^ gnt[i];
        ptr_d[i] = (32'(pick[i]) == V - 1) ? '0 : pick[i] + VW'(1);
      end
      if (pfc_chg_o[i]) begin
        want_d[i] = '0;
        sent_d[i] = '0;
        ptr_d[i] = '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_q <= '0;
      xoff_q <= 16'(Xoff0);
      xon_q <= 16'(Xoff0 / 2);
      for (int unsigned i = 0; i < P; i++) begin
        for (int unsigned v = 0; v < V; v++) begin
          hd_q[i*V+v] <= '0;
        end
        want_q[i] <= '0;
        sent_q[i] <= '0;
        ptr_q[i] <= '0;
      end
    end else begin
      en_q <= en_d;
      if (wr && is_thr) begin
        xoff_q <= wd[15:0];
        xon_q <= wd[31:16];
      end
      for (int unsigned i = 0; i < P; i++) begin
        for (int unsigned v = 0; v < V; v++) begin
          hd_q[i*V+v] <= hd_d[i*V+v];
        end
        want_q[i] <= want_d[i];
        sent_q[i] <= sent_d[i];
        ptr_q[i] <= ptr_d[i];
      end
    end
  end

  // §17.2 counters: only with CNT
  if (CNT) begin : gen_counters
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned i = 0; i < P; i++) begin
          sent_cnt_q[i] <= '0;
          recv_cnt_q[i] <= '0;
        end
      end else begin
        for (int unsigned i = 0; i < P; i++) begin
          if (cnt_clear) begin
            sent_cnt_q[i] <= '0;
            recv_cnt_q[i] <= '0;
          end else begin
            sent_cnt_q[i] <= sent_cnt_q[i] + 32'(frame_valid_o[i]);
            recv_cnt_q[i] <= recv_cnt_q[i] + 32'(en_q[i] && cr_in_valid_i[i]);
          end
        end
      end
    end
  end else begin : gen_no_counters  // read 0
    always_comb begin
      for (int unsigned i = 0; i < P; i++) begin
        sent_cnt_q[i] = '0;
        recv_cnt_q[i] = '0;
      end
    end
    logic unused_cnt;
    assign unused_cnt = ^{cnt_clear, cr_in_valid_i};
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
  // hd never exceeds BUF (contract §17.1: a violation is the sender's protocol error).
  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      for (int unsigned k = 0; k < P*V; k++) begin
        assert (32'(hd_q[k]) <= BUF)
          else $error("pfc: hd[%0d][%0d]=%0d exceeds BUF (PFC headroom too small)",
                      k / V, k % V, hd_q[k]);
      end
    end
  end
  cov_pfc_frame: cover property (@(posedge clk_i) chk_en_q && (frame_valid_o != '0));
  cov_pfc_two_pending: cover property (@(posedge clk_i)
    chk_en_q && en_q[0] && (diff[0] != '0) && ((diff[0] & (diff[0] - V'(1))) != '0));
  cov_pfc_mode_change: cover property (@(posedge clk_i) chk_en_q && (pfc_chg_o != '0));
  cov_pfc_want_held: cover property (@(posedge clk_i)
    chk_en_q && en_q[0] && want_q[0][0] && (16'(hd_q[0]) < xoff_q) && (16'(hd_q[0]) > xon_q));
`endif

  logic unused_bits;
  assign unused_bits = ^{a_cnt_off[19:8], a_cnt_off[1:0], a_state_off[19:6], cnt_p, state_p};
endmodule
