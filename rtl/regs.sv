// regs.sv — register interface, configuration registers, per-port counters and the
// read multiplexer (contract §10, §11, §12). Single master, always ready; read data
// is registered and shows the value at the start of the read cycle.
module regs #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  parameter int unsigned LMAX = 16,
  parameter int unsigned PW = 32,
  parameter int unsigned DW = 16,
  parameter int unsigned TABLE = 256,
  parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1,
  localparam int unsigned NQ = (VOQ != 0) ? P : 1,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned TW = asw_pkg::idx_w(TABLE),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // bus
  input  logic                 reg_en_i,
  input  logic                 reg_we_i,
  input  logic [19:0]          reg_addr_i,
  input  logic [31:0]          reg_wdata_i,
  output logic                 reg_rvalid_o,
  output logic [31:0]          reg_rdata_o,
  // configuration
  output logic [1:0]           mode_o,
  output logic [1:0]           trigger_o,
  output logic [7:0]           stage_mask_o,
  output logic [3:0]           stage_o,
  output logic [6:0]           delta_o,
  output logic                 vc_obqa_o,
  output logic                 afi_o,
  output logic [15:0]          ltth_o,
  output logic [15:0]          htth_o,
  output logic [5:0]           default_port_o,
  output logic [4*P-1:0]       cset_o,
  output logic [P*16*VW-1:0]   sl2vc_o,
  output logic                 seed_we_o,
  output logic [15:0]          seed_o,
  // forwarding-table writes (to every input's copy) and read of copy 0
  output logic                 fwd_we_o,
  output logic [TW-1:0]        fwd_addr_o,
  output logic [15:0]          fwd_wdata_o,
  input  logic [15:0]          fwd_rdata_i,
  // counter events of this cycle, one bit per port
  input  logic [P-1:0]         ev_flits_in_i,
  input  logic [P-1:0]         ev_flits_out_i,
  input  logic [P-1:0]         ev_packets_in_i,
  input  logic [P-1:0]         ev_packets_out_i,
  input  logic [P-1:0]         ev_credit_stall_i,
  input  logic [P-1:0]         ev_sa_lost_i,
  input  logic [P-1:0]         ev_route_errors_i,
  input  logic [P-1:0]         ev_adaptive_i,
  // read-only state
  input  logic [P*V*NQ*CW-1:0] occ_i,   // index (i*V+v)*NQ+q
  input  logic [P*V*CW-1:0]    cred_i   // index o*V+v
);
  import asw_pkg::*;

  // ---- registers -----------------------------------------------------------
  logic [1:0]  mode_q;
  logic [1:0]  trigger_q;
  logic [7:0]  stage_mask_q;
  logic [3:0]  stage_q;
  logic [6:0]  delta_q;
  logic        vc_obqa_q;
  logic        afi_q;
  logic [15:0] ltth_q, htth_q;
  logic [15:0] seed_q;
  logic [5:0]  default_port_q;
  logic [31:0] reg_errors_q;
  logic [P-1:0] cset_q[4];
  logic [VW-1:0] sl2vc_q[P*16];
  logic [31:0] cnt_q[P*NumCnt];
  logic        rvalid_q;
  logic [31:0] rdata_q;

  logic [19:0] a;
  logic [31:0] wd;
  assign a = reg_addr_i;
  assign wd = reg_wdata_i;

  // ---- address decode ----------------------------------------------------
  logic is_cset, is_sl2vc, is_cnt, is_occ, is_cred, is_fwd;
  logic [1:0]  cset_c;
  logic        cset_w;
  logic [7:0]  sl2vc_o_idx;
  logic [3:0]  sl2vc_s;
  logic [16:0] cnt_p;
  logic [2:0]  cnt_k;
  logic [5:0]  occ_i_idx;
  logic [2:0]  occ_v;
  logic [5:0]  occ_q_idx;
  logic [5:0]  cred_o_idx;
  logic [2:0]  cred_v;
  logic [15:0] fwd_d;
  logic [19:0] a_sl2vc_off, a_cnt_off;

  assign cset_c = a[2:1];
  assign cset_w = a[0];
  assign is_cset = (a[19:3] == RegCsetBase[19:3]);
  assign a_sl2vc_off = a - RegSl2vcBase;
  assign sl2vc_o_idx = a_sl2vc_off[11:4];
  assign sl2vc_s = a[3:0];
  assign is_sl2vc = (a >= RegSl2vcBase) && (32'(a) < 32'(RegSl2vcBase) + 16*P);
  assign a_cnt_off = a - RegCounterBase;
  assign cnt_p = a_cnt_off[19:3];
  assign cnt_k = a[2:0];
  assign is_cnt = (a >= RegCounterBase) && (32'(a) < 32'(RegCounterBase) + 8*P);
  assign occ_i_idx = a[14:9];
  assign occ_v = a[8:6];
  assign occ_q_idx = a[5:0];
  assign is_occ = (a[19:15] == RegOccBase[19:15]) && (32'(occ_i_idx) < P) &&
                  (32'(occ_v) < V) && (32'(occ_q_idx) < NQ);
  assign cred_o_idx = a[8:3];
  assign cred_v = a[2:0];
  assign is_cred = (a[19:9] == RegCredBase[19:9]) && (32'(cred_o_idx) < P) && (32'(cred_v) < V);
  assign fwd_d = a[15:0];
  assign is_fwd = (a[19:16] == RegFwdBase[19:16]) && (32'(fwd_d) < TABLE);

  // ---- write legality (contract §11, exhaustive list) -------------------------
  logic [31:0] cset_legal_mask;
  always_comb begin
    cset_legal_mask = '0;
    for (int unsigned b = 0; b < 32; b++) begin
      cset_legal_mask[b] = ((cset_w ? 32 : 0) + b) < P;
    end
  end

  logic wr;
  logic wr_ok;        // legal write to a writable register
  always_comb begin
    wr = reg_en_i && reg_we_i;
    wr_ok = 1'b0;
    if (a == RegRouteCtrl) begin
      wr_ok = (wd[1:0] != 2'd3) && (wd[3:2] != 2'd3) && (wd[15:12] != 4'd0) && (wd[22:16] != 7'd0);
    end else if (a == RegVcCtrl) begin
      wr_ok = (wd[31:2] == 30'd0) && !(wd[1] && (V == 1));
    end else if (a == RegThresh) begin
      wr_ok = (wd[15:0] <= wd[31:16]) && (32'(wd[31:16]) <= BUF);
    end else if (a == RegLfsrSeed) begin
      wr_ok = 1'b1;
    end else if (a == RegDefaultPort) begin
      wr_ok = (wd < P);
    end else if (a == RegCntClear) begin
      wr_ok = 1'b1;
    end else if (is_cset) begin
      wr_ok = ((wd & ~cset_legal_mask) == 32'd0);
    end else if (is_sl2vc) begin
      wr_ok = (wd < V);
    end else if (is_fwd) begin
      wr_ok = (wd[7:6] == 2'd0) && (wd[15:14] == 2'd0) && (wd[29:18] == 12'd0) &&
              !(wd[31] && (32'(wd[5:0]) >= P));
    end
  end

  logic do_wr;
  assign do_wr = wr && wr_ok;

  assign fwd_we_o = do_wr && is_fwd;
  assign fwd_addr_o = fwd_d[TW-1:0];
  assign fwd_wdata_o = {wd[31], wd[30], wd[17:16], wd[13:8], wd[5:0]};
  assign seed_we_o = do_wr && (a == RegLfsrSeed);
  assign seed_o = wd[15:0];

  // ---- counters ----------------------------------------------------------------
  logic [P-1:0] ev[NumCnt];
  assign ev[CntFlitsIn] = ev_flits_in_i;
  assign ev[CntFlitsOut] = ev_flits_out_i;
  assign ev[CntPacketsIn] = ev_packets_in_i;
  assign ev[CntPacketsOut] = ev_packets_out_i;
  assign ev[CntCreditStall] = ev_credit_stall_i;
  assign ev[CntSaLost] = ev_sa_lost_i;
  assign ev[CntRouteErrors] = ev_route_errors_i;
  assign ev[CntAdaptive] = ev_adaptive_i;

  logic cnt_clear;
  assign cnt_clear = do_wr && (a == RegCntClear);

  // ---- read mux (values at the start of the cycle) ---------------------------
  logic [31:0] rd;
  always_comb begin
    rd = 32'h0;
    if (a == RegId) begin
      rd = IdValue;
    end else if (a == RegParam0) begin
      rd = {8'(PW), 8'(LMAX), 1'(VOQ), 3'(ITERS), 4'(V), 8'(P)};
    end else if (a == RegParam1) begin
      rd = {11'h0, 5'(DW), 16'(BUF)};
    end else if (a == RegParam2) begin
      rd = {15'h0, 17'(TABLE)};
    end else if (a == RegRouteCtrl) begin
      rd = {9'h0, delta_q, stage_q, stage_mask_q, trigger_q, mode_q};
    end else if (a == RegVcCtrl) begin
      rd = {30'h0, afi_q, vc_obqa_q};
    end else if (a == RegThresh) begin
      rd = {htth_q, ltth_q};
    end else if (a == RegLfsrSeed) begin
      rd = {16'h0, seed_q};
    end else if (a == RegDefaultPort) begin
      rd = {26'h0, default_port_q};
    end else if (a == RegRegErrors) begin
      rd = reg_errors_q;
    end else if (is_cset) begin
      for (int unsigned b = 0; b < 32; b++) begin
        if (cset_legal_mask[b]) begin
          rd[b] = cset_q[cset_c][(cset_w ? 32 : 0) + b];
        end
      end
    end else if (is_sl2vc) begin
      rd = 32'(sl2vc_q[32'(sl2vc_o_idx)*16 + 32'(sl2vc_s)]);
    end else if (is_cnt) begin
      rd = cnt_q[32'(cnt_p)*NumCnt + 32'(cnt_k)];
    end else if (is_occ) begin
      rd = 32'(occ_i[((32'(occ_i_idx)*V + 32'(occ_v))*NQ + 32'(occ_q_idx))*CW +: CW]);
    end else if (is_cred) begin
      rd = 32'(cred_i[(32'(cred_o_idx)*V + 32'(cred_v))*CW +: CW]);
    end else if (is_fwd) begin
      rd = {fwd_rdata_i[15:14], 12'h0, fwd_rdata_i[13:12], 2'h0, fwd_rdata_i[11:6], 2'h0,
            fwd_rdata_i[5:0]};
    end
  end

  // ---- state -------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q <= RouteDet;
      trigger_q <= TrigNoTh;
      stage_mask_q <= 8'hFF;
      stage_q <= 4'd1;
      delta_q <= 7'd1;
      vc_obqa_q <= 1'b0;
      afi_q <= 1'b0;
      ltth_q <= 16'(BUF / 4);
      htth_q <= 16'(BUF / 2);
      seed_q <= 16'h1;
      default_port_q <= '0;
      reg_errors_q <= '0;
      for (int unsigned c = 0; c < 4; c++) begin
        cset_q[c] <= '0;
      end
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned s = 0; s < 16; s++) begin
          sl2vc_q[o*16+s] <= VW'(s % V);
        end
      end
      for (int unsigned n = 0; n < P*NumCnt; n++) begin
        cnt_q[n] <= '0;
      end
      rvalid_q <= 1'b0;
      rdata_q <= '0;
    end else begin
      rvalid_q <= reg_en_i && !reg_we_i;
      rdata_q <= (reg_en_i && !reg_we_i) ? rd : 32'h0;
      if (wr && !wr_ok) begin
        reg_errors_q <= reg_errors_q + 32'd1;
      end
      if (do_wr) begin
        if (a == RegRouteCtrl) begin
          mode_q <= wd[1:0];
          trigger_q <= wd[3:2];
          stage_mask_q <= wd[11:4];
          stage_q <= wd[15:12];
          delta_q <= wd[22:16];
        end
        if (a == RegVcCtrl) begin
          vc_obqa_q <= wd[0];
          afi_q <= wd[1];
        end
        if (a == RegThresh) begin
          ltth_q <= wd[15:0];
          htth_q <= wd[31:16];
        end
        if (a == RegLfsrSeed) begin
          seed_q <= wd[15:0];
        end
        if (a == RegDefaultPort) begin
          default_port_q <= wd[5:0];
        end
        if (is_cset) begin
          for (int unsigned b = 0; b < 32; b++) begin
            if (cset_legal_mask[b]) begin
              cset_q[cset_c][(cset_w ? 32 : 0) + b] <= wd[b];
            end
          end
        end
        if (is_sl2vc) begin
          sl2vc_q[32'(sl2vc_o_idx)*16 + 32'(sl2vc_s)] <= wd[VW-1:0];
        end
      end
      for (int unsigned p = 0; p < P; p++) begin
        for (int unsigned k = 0; k < NumCnt; k++) begin
          cnt_q[p*NumCnt+k] <= cnt_clear ? 32'd0 : cnt_q[p*NumCnt+k] + 32'(ev[k][p]);
        end
      end
    end
  end

  // ---- outputs -----------------------------------------------------------------
  assign reg_rvalid_o = rvalid_q;
  assign reg_rdata_o = rdata_q;
  assign mode_o = mode_q;
  assign trigger_o = trigger_q;
  assign stage_mask_o = stage_mask_q;
  assign stage_o = stage_q;
  assign delta_o = delta_q;
  assign vc_obqa_o = vc_obqa_q;
  assign afi_o = afi_q;
  assign ltth_o = ltth_q;
  assign htth_o = htth_q;
  assign default_port_o = default_port_q;
  always_comb begin
    for (int unsigned c = 0; c < 4; c++) begin
      cset_o[c*P +: P] = cset_q[c];
    end
    for (int unsigned n = 0; n < P*16; n++) begin
      sl2vc_o[n*VW +: VW] = sl2vc_q[n];
    end
  end

`ifndef SYNTHESIS
  cov_illegal_write: cover property (@(posedge clk_i) wr && !wr_ok);
  cov_counter_clear: cover property (@(posedge clk_i) cnt_clear);
  cov_fwd_write: cover property (@(posedge clk_i) fwd_we_o);
  cov_read_counter: cover property (@(posedge clk_i) reg_en_i && !reg_we_i && is_cnt);
  cov_read_occ: cover property (@(posedge clk_i) reg_en_i && !reg_we_i && is_occ);
`endif

  logic unused_bits;
  assign unused_bits = ^{a_sl2vc_off[19:12], a_sl2vc_off[3:0], a_cnt_off[2:0]};
endmodule
