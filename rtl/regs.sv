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
  parameter int unsigned SAPIPE = 0,  // §8.1 pipelined allocation, read in PARAM1[21]
  parameter int unsigned AE = 0,
  parameter int unsigned SE = 0,    // Switch AR table entries (§17.8), read in PARAM3[5:0]
                                    // (0 without QcnEn: no §17.8 hardware)
  // the optional hardware built (§1, asw_switch), read in PARAM2[31:23] and PARAM3[7:6]
  parameter bit BubbleEn = 1'b0,
  parameter bit PfcEn = 1'b0,
  parameter bit QcnEn = 1'b0,
  parameter bit RouteHashEn = 1'b0,
  parameter bit LinkFaultEn = 1'b0,
  parameter bit PortRateEn = 1'b0,
  parameter bit VcAdaptEn = 1'b0,
  parameter bit RouteOblivEn = 1'b0,  // ROUTE_CTRL mode 1 legal, LFSR_SEED mapped (§7.3, §7.7)
  parameter bit RouteAdaptEn = 1'b0,  // ROUTE_CTRL mode 2 legal, THRESH mapped (§7.3)
  parameter bit CountersEn = 1'b0,    // the §12 counters (and §15.8's) and CNT_CLEAR mapped
  parameter bit ReadbackEn = 1'b0,    // OCC and CRED mapped (§11)
  localparam int unsigned NQ = (VOQ != 0) ? P : 1,
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned AEE = (AE == 0) ? 1 : AE,     // port widths with AE = 0
  localparam int unsigned EXW = asw_pkg::cnt_w(AEE),
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned TW = asw_pkg::idx_w(TABLE),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned AMW = asw_pkg::amask_w(P),  // FWD.amask bits kept (ports < P)
  localparam int unsigned FWW = 16 + AMW              // forwarding-table word (fwd_wdata_o)
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
  output logic                 vc_obqa_o,
  output logic                 afi_o,
  output logic                 fb_o,        // §16.3 VC_CTRL.fb, .fb_same, .esc_vc
  output logic                 fb_same_o,
  output logic [2:0]           esc_vc_o,
  output logic [15:0]          ltth_o,
  output logic [15:0]          htth_o,
  output logic [5:0]           default_port_o,
  output logic [4*P-1:0]       cset_o,
  output logic [P*16*VW-1:0]   sl2vc_o,
  output logic                 seed_we_o,
  output logic [15:0]          seed_o,
  // forwarding-table writes (to every input's block-RAM copy), which entries were written
  // since reset (an entry never written reads as 0), and the register side's own copy,
  // read by the bus and by the ARN table (§15.3 step 4) through fwd_raddr2_i
  output logic                 fwd_we_o,
  output logic [TW-1:0]        fwd_addr_o,
  output logic [FWW-1:0]       fwd_wdata_o,  // {amask[AMW-1:0], valid, multipath, cset,
                                             //  lookahead, det_port}
  output logic [TABLE-1:0]     fwd_written_o,
  input  logic [TW-1:0]        fwd_raddr2_i,
  output logic [15:0]          fwd_rdata2_o,
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
  input  logic [P*V*CW-1:0]    cred_i,  // index o*V+v
  // §15.8 (AE >= 1; with AE = 0 the outputs are 0 and the inputs ignored)
  output logic [1:0]           arn_mode_o,
  output logic                 mark_adapted_o,
  output logic                 adapted_arn_o,  // ARN_CTRL[3] (§15.5)
  output logic                 alt_refresh_o,  // ARN_CTRL[4] (§15.3)
  output logic                 arn_clear_o,    // legal ARN_CTRL write with mode 0
  output logic [P-1:0]         arn_up_o,
  output logic [15:0]          hcdth_o,
  output logic [15:0]          lcdth_o,
  output logic [15:0]          fcth_o,
  output logic [23:0]          crt_o,
  output logic [23:0]          arn_ttl_o,
  input  logic [P-1:0]         ev_roots_declared_i,
  input  logic [P-1:0]         ev_arn_sent_i,
  input  logic [P-1:0]         ev_arn_received_i,
  input  logic [P-1:0]         ev_arn_consumed_i,
  input  logic [P*EXW-1:0]     ev_arn_expired_i,   // count per port
  input  logic [P-1:0]         ev_packets_adapted_i,
  input  logic [P-1:0]         ev_arn_in_dropped_i,
  input  logic [P-1:0]         ev_arn_out_dropped_i,
  input  logic [P-1:0]         ev_arn_evicted_i,
  input  logic [AEE-1:0]       ent_valid_i,
  input  logic [AEE-1:0]       ent_consumed_i,
  input  logic [AEE*16-1:0]    ent_dest_i,
  input  logic [AEE*PIW-1:0]   ent_port_i,
  input  logic [AEE*3-1:0]     ent_vc_i,
  input  logic [AEE*4-1:0]     ent_stage_i,
  input  logic [AEE*9-1:0]     ent_id_i,
  input  logic [AEE*PIW-1:0]   ent_alt_port_i,
  input  logic [AEE*24-1:0]    ent_ttl_i,
  input  logic [P-1:0]         root_i,
  input  logic [P*9-1:0]       root_id_i,
  input  logic [P*24-1:0]      root_crt_i,
  output logic [PIW-1:0]       hot_cnt_port_o,     // ROOT read: output whose hot VOQs to count
  input  logic [9:0]           hot_cnt_i,
  // §16.2 registers, decoded and held by rtl/bubble.sv: writable address, legal value,
  // readable address and its data, counter read data (a cycle after the read)
  input  logic                 dn_wr_reg_i,
  input  logic                 dn_wr_ok_i,
  input  logic                 dn_rd_hit_i,
  input  logic [31:0]          dn_rd_i,
  input  logic [31:0]          dn_cnt_rdata_i,
  // §17.2 registers, held by pfc.sv: address is one of them, write legal, read value
  input  logic                 pfc_own_i,
  input  logic                 pfc_wr_ok_i,
  input  logic [31:0]          pfc_rd_i,
  // §17.4 registers, held by qcn_cp.sv: address is one of them, write legal, read value
  input  logic                 qcn_own_i,
  input  logic                 qcn_wr_ok_i,
  input  logic [31:0]          qcn_rd_i,
  input  logic                 qcn_en_i,   // QCN_CTRL.en: ROUTE_CTRL mode 3 illegal (§16.3)
  // §17.6 ROUTE_HASH, held by route_hash.sv: address is it, write legal, read value
  input  logic                 rh_own_i,
  input  logic                 rh_wr_ok_i,
  input  logic [31:0]          rh_rd_i,
  // §17.7 PORT_GAP, held by port_gap.sv: address is one of them, write legal, read value
  input  logic                 gp_own_i,
  input  logic                 gp_wr_ok_i,
  input  logic [31:0]          gp_rd_i,
  // §17.8 registers, counters and SAR_ENTRY, held by sar_table.sv: address is one of them,
  // write legal, read value (counters: their read data is ORed in by the top)
  input  logic                 sar_own_i,
  input  logic                 sar_wr_ok_i,
  input  logic [31:0]          sar_rd_i
);
  import asw_pkg::*;

  // ---- registers -----------------------------------------------------------
  logic [1:0]  mode_q;
  logic [1:0]  trigger_q;
  logic [7:0]  stage_mask_q;
  logic [3:0]  stage_q;
  logic        vc_obqa_q;
  logic        afi_q;
  logic        fb_q, fb_same_q;   // §16.3 fallback (VC_CTRL[3:2])
  logic [2:0]  esc_vc_q;          // VC_CTRL[6:4]
  logic [15:0] ltth_q, htth_q;
  logic [15:0] seed_q;
  logic [5:0]  default_port_q;
  logic [31:0] reg_errors_q;
  logic [P-1:0] cset_q[4];
  logic [VW-1:0] sl2vc_q[P*16];
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
  assign is_cnt = CountersEn && (a >= RegCounterBase) && (32'(a) < 32'(RegCounterBase) + 8*P);
  assign occ_i_idx = a[14:9];
  assign occ_v = a[8:6];
  assign occ_q_idx = a[5:0];
  assign is_occ = ReadbackEn && (a[19:15] == RegOccBase[19:15]) && (32'(occ_i_idx) < P) &&
                  (32'(occ_v) < V) && (32'(occ_q_idx) < NQ);
  assign cred_o_idx = a[8:3];
  assign cred_v = a[2:0];
  assign is_cred = ReadbackEn && (a[19:9] == RegCredBase[19:9]) && (32'(cred_o_idx) < P) &&
                   (32'(cred_v) < V);
  assign fwd_d = a[15:0];
  assign is_fwd = (a[19:16] == RegFwdBase[19:16]) && (32'(fwd_d) < TABLE);

  // ---- write legality (contract §11, exhaustive list) -------------------------
  logic [31:0] cset_legal_mask;
  logic [11:0] amask_legal;   // FWD.amask bits of ports < P
  always_comb begin
    cset_legal_mask = '0;
    for (int unsigned b = 0; b < 32; b++) begin
      cset_legal_mask[b] = ((cset_w ? 32 : 0) + b) < P;
    end
    for (int unsigned b = 0; b < 12; b++) begin
      amask_legal[b] = (b < P);
    end
  end
  // §16.3: ROUTE_CTRL mode 3 exists only without VOQs and with VcAdaptEn
  localparam bit VcAdaptOk = (VOQ == 0) && VcAdaptEn;
  // §11 PARAM2[31:23], PARAM3[7:6]: the features built, in the order of
  // asw_config_features (C model)
  localparam logic [10:0] Features = {ReadbackEn, CountersEn, RouteAdaptEn, RouteOblivEn,
                                      PortRateEn, RouteHashEn, VcAdaptEn, LinkFaultEn, QcnEn,
                                      PfcEn, BubbleEn};
  // §7.3: the mapped registers of the routing modes and of the counters (a mode not built
  // cannot be written: ROUTE_CTRL mode 1 / 2 illegal)
  logic is_thresh, is_seed, is_clear;
  assign is_thresh = RouteAdaptEn && (a == RegThresh);
  assign is_seed = RouteOblivEn && (a == RegLfsrSeed);
  assign is_clear = CountersEn && (a == RegCntClear);

  // §15.8 registers (driven by gen_arn; constant 0 with AE = 0: unmapped)
  logic        arn_wr_reg;   // address of a writable ARN register
  logic        arn_wr_ok;    // ... and the value is legal
  logic        arn_rd_hit;   // address of a readable ARN register or view
  logic [31:0] arn_rd;

  logic wr;
  logic wr_ok;        // legal write to a writable register
  always_comb begin
    wr = reg_en_i && reg_we_i;
    wr_ok = 1'b0;
    if (a == RegRouteCtrl) begin
      wr_ok = ((wd[1:0] != RouteVcAdapt) || (VcAdaptOk && !qcn_en_i)) &&
              ((wd[1:0] != RouteOblivious) || RouteOblivEn) &&
              ((wd[1:0] != RouteAdaptive) || RouteAdaptEn) && (wd[3:2] != 2'd3) &&
              (wd[15:12] != 4'd0);
    end else if (a == RegVcCtrl) begin
      wr_ok = (wd[31:7] == 25'd0) && !(wd[1] && (V == 1)) && (32'(wd[6:4]) < V);
    end else if (is_thresh) begin
      wr_ok = (wd[15:0] <= wd[31:16]) && (32'(wd[31:16]) <= BUF);
    end else if (is_seed) begin
      wr_ok = 1'b1;
    end else if (a == RegDefaultPort) begin
      wr_ok = (wd < P);
    end else if (is_clear) begin
      wr_ok = 1'b1;
    end else if (is_cset) begin
      wr_ok = ((wd & ~cset_legal_mask) == 32'd0);
    end else if (is_sl2vc) begin
      wr_ok = (wd < V);
    end else if (is_fwd) begin
      wr_ok = (wd[7:6] == 2'd0) && (wd[15:14] == 2'd0) && ((wd[29:18] & ~amask_legal) == 12'd0) &&
              !(wd[31] && (32'(wd[5:0]) >= P));
    end else if (arn_wr_reg) begin
      wr_ok = arn_wr_ok;
    end else if (dn_wr_reg_i) begin
      wr_ok = dn_wr_ok_i;  // §16.2
    end else if (pfc_own_i) begin  // §17.2
      wr_ok = pfc_wr_ok_i;
    end else if (qcn_own_i) begin  // §17.4
      wr_ok = qcn_wr_ok_i;
    end else if (rh_own_i) begin  // §17.6
      wr_ok = rh_wr_ok_i;
    end else if (gp_own_i) begin  // §17.7
      wr_ok = gp_wr_ok_i;
    end else if (sar_own_i) begin  // §17.8
      wr_ok = sar_wr_ok_i;
    end
  end

  logic do_wr;
  assign do_wr = wr && wr_ok;

  assign fwd_we_o = do_wr && is_fwd;
  assign fwd_addr_o = fwd_d[TW-1:0];
  assign fwd_wdata_o = {wd[18 +: AMW], wd[31], wd[30], wd[17:16], wd[13:8], wd[5:0]};

  // The written bits (reset 0; the FWD copies need no reset of their contents), the
  // register bus's FWD copy (block RAM: a read's data joins the read data in the next
  // cycle, like the counters) and, with ARN hardware, the ARN table's copy (asynchronous
  // read: processARN reads FWD in the cycle it handles an event, §15.3).
  logic [TABLE-1:0] fwd_written_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fwd_written_q <= '0;
    end else if (fwd_we_o) begin
      fwd_written_q[fwd_addr_o] <= 1'b1;
    end
  end
  assign fwd_written_o = fwd_written_q;

  logic [FWW-1:0] fwd_bus_word;  // FWD[address of last cycle's read], as at that cycle's start
  logic        fwd_rd_q;       // last cycle read a written FWD entry
  logic [31:0] fwd_rdata;      // ... in the register layout (0 if none)
  logic [11:0] fwd_bus_amask;  // its amask, bits of ports >= P 0
  ram_1r1w #(.W(FWW), .DEPTH(TABLE)) u_fwd_bus_mem (
    .clk_i,
    .we_i    (fwd_we_o),
    .waddr_i (fwd_addr_o),
    .wdata_i (fwd_wdata_o),
    .raddr_i (fwd_addr_o),
    .rdata_o (fwd_bus_word)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fwd_rd_q <= 1'b0;
    end else begin
      fwd_rd_q <= reg_en_i && !reg_we_i && is_fwd && fwd_written_q[fwd_addr_o];
    end
  end
  assign fwd_bus_amask = 12'(fwd_bus_word[FWW-1:16]);
  assign fwd_rdata = fwd_rd_q ? {fwd_bus_word[15:14], fwd_bus_amask, fwd_bus_word[13:12], 2'h0,
                                 fwd_bus_word[11:6], 2'h0, fwd_bus_word[5:0]} : 32'h0;

  if (AE != 0) begin : gen_fwd_arn
    logic [15:0] fwd_arn_mem[TABLE];
    always_ff @(posedge clk_i) begin
      if (fwd_we_o) begin
        fwd_arn_mem[fwd_addr_o] <= fwd_wdata_o[15:0];
      end
    end
    assign fwd_rdata2_o = fwd_written_q[fwd_raddr2_i] ? fwd_arn_mem[fwd_raddr2_i] : 16'h0;
  end else begin : gen_no_fwd_arn
    logic unused_raddr2;
    assign unused_raddr2 = ^fwd_raddr2_i;
    assign fwd_rdata2_o = 16'h0;
  end
  assign seed_we_o = do_wr && is_seed;
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
  assign cnt_clear = do_wr && is_clear;

  // The P*NumCnt counters of §12 in a counter RAM (one 32-bit adder per cycle, not one per
  // counter); its read data joins the registered read data in the next cycle. Only with
  // CountersEn (§1); without it they read 0.
  logic [31:0] cnt_rdata;
  if (CountersEn) begin : gen_counters
    logic [P*NumCnt-1:0][0:0] cnt_ev;
    always_comb begin
      for (int unsigned p = 0; p < P; p++) begin
        for (int unsigned k = 0; k < NumCnt; k++) begin
          cnt_ev[p*NumCnt+k] = ev[k][p];
        end
      end
    end
    counter_ram #(.N(P * NumCnt), .EW(1)) u_counters (
      .clk_i,
      .rst_ni,
      .ev_i     (cnt_ev),
      .clear_i  (cnt_clear),
      .rd_i     (reg_en_i && !reg_we_i && is_cnt),
      .rd_idx_i (asw_pkg::idx_w(P * NumCnt)'(32'(cnt_p)*NumCnt + 32'(cnt_k))),
      .rdata_o  (cnt_rdata)
    );
  end else begin : gen_no_counters  // counter addresses read 0, CNT_CLEAR unmapped
    assign cnt_rdata = 32'h0;
    logic unused_ev;
    always_comb begin
      unused_ev = ^{cnt_p, cnt_k};
      for (int unsigned k = 0; k < NumCnt; k++) begin
        unused_ev = unused_ev ^ (^ev[k]);
      end
    end
  end

  // ---- read mux (values at the start of the cycle) ---------------------------
  logic [31:0] rd;
  always_comb begin
    rd = 32'h0;
    if (a == RegId) begin
      rd = IdValue;
    end else if (a == RegParam0) begin
      rd = {8'(PW), 8'(LMAX), 1'(VOQ), 3'(ITERS), 4'(V), 8'(P)};
    end else if (a == RegParam1) begin
      rd = {10'h0, 1'(SAPIPE), 5'(DW), 16'(BUF)};
    end else if (a == RegParam2) begin
      rd = {Features[8:0], 6'(AE), 17'(TABLE)};
    end else if (a == RegParam3) begin
      rd = {24'h0, Features[10:9], 6'(QcnEn ? SE : 0)};
    end else if (a == RegRouteCtrl) begin
      rd = {16'h0, stage_q, stage_mask_q, trigger_q, mode_q};
    end else if (a == RegVcCtrl) begin
      rd = {25'h0, esc_vc_q, fb_same_q, fb_q, afi_q, vc_obqa_q};
    end else if (is_thresh) begin
      rd = {htth_q, ltth_q};
    end else if (is_seed) begin
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
      rd = 32'h0;  // from the counter RAM (cnt_rdata), a cycle later
    end else if (is_occ) begin
      // input and VC by multiplexers with constant offsets (an index (i*V + v)*NQ with NQ
      // not a power of two makes Yosys build a multiplier), the queue by its index
      for (int unsigned i = 0; i < P; i++) begin
        for (int unsigned v = 0; v < V; v++) begin
          if ((32'(occ_i_idx) == i) && (32'(occ_v) == v)) begin
            rd = 32'(occ_i[(i*V + v)*NQ*CW + 32'(occ_q_idx)*CW +: CW]);
          end
        end
      end
    end else if (is_cred) begin
      rd = 32'(cred_i[(32'(cred_o_idx)*V + 32'(cred_v))*CW +: CW]);
    end else if (is_fwd) begin
      rd = 32'h0;  // from the bus FWD copy (fwd_rdata), a cycle later
    end else if (arn_rd_hit) begin
      rd = arn_rd;
    end else if (dn_rd_hit_i) begin
      rd = dn_rd_i;  // §16.2
    end else if (pfc_own_i) begin  // §17.2
      rd = pfc_rd_i;
    end else if (qcn_own_i) begin  // §17.4
      rd = qcn_rd_i;
    end else if (rh_own_i) begin  // §17.6
      rd = rh_rd_i;
    end else if (gp_own_i) begin  // §17.7
      rd = gp_rd_i;
    end else if (sar_own_i) begin  // §17.8
      rd = sar_rd_i;
    end
  end

  // ---- state -------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q <= RouteDet;
      trigger_q <= TrigNoTh;
      stage_mask_q <= 8'hFF;
      stage_q <= 4'd1;
      vc_obqa_q <= 1'b0;
      afi_q <= 1'b0;
      fb_q <= 1'b0;
      fb_same_q <= 1'b0;
      esc_vc_q <= '0;
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
        end
        if (a == RegVcCtrl) begin
          vc_obqa_q <= wd[0];
          afi_q <= wd[1];
          fb_q <= wd[2];
          fb_same_q <= wd[3];
          esc_vc_q <= wd[6:4];
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
    end
  end

  // §7.3 THRESH: only with the adaptive hardware (RouteAdaptEn)
  if (RouteAdaptEn) begin : gen_thresh
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ltth_q <= 16'(BUF / 4);
        htth_q <= 16'(BUF / 2);
      end else if (do_wr && is_thresh) begin
        ltth_q <= wd[15:0];
        htth_q <= wd[31:16];
      end
    end
  end else begin : gen_no_thresh  // unmapped; nothing reads the thresholds
    assign ltth_q = 16'(BUF / 4);
    assign htth_q = 16'(BUF / 2);
  end
  // §7.7 LFSR_SEED: only with the oblivious hardware (RouteOblivEn)
  if (RouteOblivEn) begin : gen_seed
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        seed_q <= 16'h1;
      end else if (do_wr && is_seed) begin
        seed_q <= wd[15:0];
      end
    end
  end else begin : gen_no_seed  // unmapped; no LFSR
    assign seed_q = 16'h1;
  end

  // ---- §15.8: ARN registers, counters, table and root views ------------------------
  // register addresses: asw_pkg (imported above), generated from rtl/regs.rdl
  localparam int unsigned NumArnCnt = 9;  // k 0..8 of 0x02800 + 16p + k; 9..15 read 0

  if (AE >= 1) begin : gen_arn
    logic [1:0]   arn_mode_q;
    logic         mark_q, adapted_arn_q, alt_refresh_q;
    logic [P-1:0] arn_up_q;
    logic [15:0]  hcdth_q, lcdth_q, fcth_q;
    logic [23:0]  crt_q, ttl_q;
    logic [NumArnCnt*32-1:0] acnt[P];   // counters of port p, k at [k*32 +: 32]

    // Address decode.
    logic [19:0] a_acnt_off, a_ent_off, a_root_off;
    logic        is_acnt, is_ent, is_root;
    logic [5:0]  acnt_p;
    logic [3:0]  acnt_k;
    logic [5:0]  ent_e;
    logic [asw_pkg::idx_w(AE)-1:0] ent_ei;
    logic [1:0]  ent_w;
    logic [5:0]  root_o;
    logic        root_w;
    assign a_acnt_off = a - RegArnCntBase;
    assign is_acnt = (a >= RegArnCntBase) && (32'(a) < 32'(RegArnCntBase) + 16*P);
    assign acnt_p = a_acnt_off[9:4];
    logic [PIW-1:0] acnt_pi;
    assign acnt_pi = acnt_p[PIW-1:0];
    assign acnt_k = a[3:0];
    assign a_ent_off = a - RegArnEntryBase;
    assign is_ent = (a >= RegArnEntryBase) && (32'(a) < 32'(RegArnEntryBase) + 4*AE);
    assign ent_e = a_ent_off[7:2];
    assign ent_ei = ent_e[asw_pkg::idx_w(AE)-1:0];
    assign ent_w = a[1:0];
    assign a_root_off = a - RegRootBase;
    assign is_root = (a >= RegRootBase) && (32'(a) < 32'(RegRootBase) + 2*P);
    assign root_o = a_root_off[6:1];
    assign root_w = a[0];
    assign hot_cnt_port_o = root_o[PIW-1:0];

    // Ports >= P of an ARN_UP word must be 0.
    logic [31:0] up_legal_mask;
    always_comb begin
      up_legal_mask = '0;
      for (int unsigned b = 0; b < 32; b++) begin
        up_legal_mask[b] = (((a == RegArnUp1) ? 32 : 0) + b) < P;
      end
    end

    always_comb begin
      arn_wr_reg = 1'b1;
      arn_wr_ok = 1'b0;
      unique case (a)
        RegArnCtrl: begin
          arn_wr_ok = (wd[31:5] == 27'd0) && (wd[1:0] != 2'd3) &&
                      !((wd[1:0] != 2'd0) && (VOQ == 0)) &&
                      !((wd[1:0] == 2'd2) && (V == 1)) && !(wd[2] && (V == 1));
        end
        RegArnUp0, RegArnUp1: arn_wr_ok = ((wd & ~up_legal_mask) == 32'd0);
        RegCdThresh: begin
          arn_wr_ok = (wd[31:16] != 16'd0) && (wd[31:16] <= wd[15:0]) &&
                      (32'(wd[15:0]) <= BUF);
        end
        RegFcth: arn_wr_ok = (wd <= 32'(BUF));
        RegCrt, RegArnTtl: arn_wr_ok = (wd != 32'd0) && (wd[31:24] == 8'd0);
        default: arn_wr_reg = 1'b0;
      endcase
    end

    // Read view (values at the start of the cycle).
    always_comb begin
      arn_rd_hit = 1'b1;
      arn_rd = 32'h0;
      if (a == RegArnCtrl) begin
        arn_rd = {27'h0, alt_refresh_q, adapted_arn_q, mark_q, arn_mode_q};
      end else if (a == RegArnUp0) begin
        for (int unsigned b = 0; b < 32; b++) begin
          if (b < P) begin
            arn_rd[b] = arn_up_q[b];
          end
        end
      end else if (a == RegArnUp1) begin
        for (int unsigned b = 0; b < 32; b++) begin
          if (32 + b < P) begin
            arn_rd[b] = arn_up_q[32 + b];
          end
        end
      end else if (a == RegCdThresh) begin
        arn_rd = {lcdth_q, hcdth_q};
      end else if (a == RegFcth) begin
        arn_rd = {16'h0, fcth_q};
      end else if (a == RegCrt) begin
        arn_rd = {8'h0, crt_q};
      end else if (a == RegArnTtl) begin
        arn_rd = {8'h0, ttl_q};
      end else if (is_acnt) begin
        if (32'(acnt_k) < NumArnCnt) begin
          arn_rd = acnt[acnt_pi][32'(acnt_k)*32 +: 32];
        end
      end else if (is_ent) begin
        unique case (ent_w)
          2'd0: arn_rd = {ent_valid_i[ent_ei], 1'b0, ent_consumed_i[ent_ei],
                          ent_stage_i[32'(ent_e)*4 +: 4], ent_vc_i[32'(ent_e)*3 +: 3],
                          6'(ent_port_i[32'(ent_e)*PIW +: PIW]), ent_dest_i[32'(ent_e)*16 +: 16]};
          2'd1: arn_rd = {10'h0, 6'(ent_alt_port_i[32'(ent_e)*PIW +: PIW]), 7'h0,
                          ent_id_i[32'(ent_e)*9 +: 9]};
          2'd2: arn_rd = {8'h0, ent_ttl_i[32'(ent_e)*24 +: 24]};
          default: arn_rd = 32'h0;
        endcase
      end else if (is_root) begin
        if (root_w) begin
          arn_rd = {8'h0, root_crt_i[32'(root_o)*24 +: 24]};
        end else begin
          arn_rd = {12'h0, hot_cnt_i, root_i[hot_cnt_port_o] ? root_id_i[32'(root_o)*9 +: 9] : 9'h0,
                    root_i[hot_cnt_port_o]};
        end
      end else begin
        arn_rd_hit = 1'b0;
      end
    end

    logic arn_wr;
    assign arn_wr = do_wr && arn_wr_reg;
    logic [P-1:0] aev[NumArnCnt];
    assign aev[0] = ev_roots_declared_i;
    assign aev[1] = ev_arn_sent_i;
    assign aev[2] = ev_arn_received_i;
    assign aev[3] = ev_arn_consumed_i;
    assign aev[4] = '0;  // arn_expired: a count, added below
    assign aev[5] = ev_packets_adapted_i;
    assign aev[6] = ev_arn_in_dropped_i;
    assign aev[7] = ev_arn_out_dropped_i;
    assign aev[8] = ev_arn_evicted_i;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        arn_mode_q <= 2'd0;
        mark_q <= 1'b0;
        adapted_arn_q <= 1'b0;
        alt_refresh_q <= 1'b0;
        arn_up_q <= '0;
        hcdth_q <= 16'((BUF * 81 / 100 < 1) ? 1 : BUF * 81 / 100);
        lcdth_q <= 16'((BUF * 63 / 100 < 1) ? 1 : BUF * 63 / 100);
        fcth_q <= 16'(BUF * 78 / 100);
        crt_q <= 24'd1024;
        ttl_q <= 24'd4096;
      end else begin
        if (arn_wr) begin
          unique case (a)
            RegArnCtrl: begin
              arn_mode_q <= wd[1:0];
              mark_q <= wd[2];
              adapted_arn_q <= wd[3];
              alt_refresh_q <= wd[4];
            end
            RegArnUp0: begin
              for (int unsigned b = 0; b < 32; b++) begin
                if (b < P) begin
                  arn_up_q[b] <= wd[b];
                end
              end
            end
            RegArnUp1: begin
              for (int unsigned b = 0; b < 32; b++) begin
                if (32 + b < P) begin
                  arn_up_q[32 + b] <= wd[b];
                end
              end
            end
            RegCdThresh: begin
              hcdth_q <= wd[15:0];
              lcdth_q <= wd[31:16];
            end
            RegFcth: fcth_q <= wd[15:0];
            RegCrt: crt_q <= wd[23:0];
            RegArnTtl: ttl_q <= wd[23:0];
            default: ;
          endcase
        end
      end
    end

    for (genvar p = 0; p < P; p++) begin : gen_acnt
      if (CountersEn) begin : gen_acnt_on  // §1: the ARN counters follow the counters setting
      logic [NumArnCnt-1:0][31:0] acnt_q, acnt_d;
      always_comb begin
        for (int unsigned k = 0; k < NumArnCnt; k++) begin
          acnt_d[k] = acnt_q[k] + ((k == 4) ? 32'(ev_arn_expired_i[p*EXW +: EXW]) : 32'(aev[k][p]));
          if (cnt_clear) begin
            acnt_d[k] = 32'd0;
          end
        end
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          acnt_q <= '0;
        end else begin
          acnt_q <= acnt_d;
        end
      end
      assign acnt[p] = acnt_q;
      end else begin : gen_acnt_off  // read 0
        assign acnt[p] = '0;
      end
    end
    if (!CountersEn) begin : gen_no_acnt
      logic unused_aev;
      always_comb begin
        unused_aev = ^ev_arn_expired_i;
        for (int unsigned k = 0; k < NumArnCnt; k++) begin
          unused_aev = unused_aev ^ (^aev[k]);
        end
      end
    end

    assign arn_mode_o = arn_mode_q;
    assign mark_adapted_o = mark_q;
    assign adapted_arn_o = adapted_arn_q;
    assign alt_refresh_o = alt_refresh_q;
    assign arn_clear_o = arn_wr && (a == RegArnCtrl) && (wd[1:0] == 2'd0);
    assign arn_up_o = arn_up_q;
    assign hcdth_o = hcdth_q;
    assign lcdth_o = lcdth_q;
    assign fcth_o = fcth_q;
    assign crt_o = crt_q;
    assign arn_ttl_o = ttl_q;

`ifndef SYNTHESIS
    cov_arn_illegal_write: cover property (@(posedge clk_i) wr && arn_wr_reg && !arn_wr_ok);
    cov_arn_clear: cover property (@(posedge clk_i) arn_clear_o);
    cov_read_arn_entry: cover property (@(posedge clk_i) reg_en_i && !reg_we_i && is_ent);
    cov_read_root: cover property (@(posedge clk_i) reg_en_i && !reg_we_i && is_root);
    cov_expired_several: cover property (@(posedge clk_i)
      ev_arn_expired_i != '0 && (ev_arn_expired_i & ~{P{EXW'(1)}}) != '0);
`endif
    logic unused_arn_bits;
    assign unused_arn_bits = ^{a_acnt_off[19:10], a_acnt_off[3:0], a_ent_off[19:8], a_ent_off[1:0],
                               a_root_off[19:7], a_root_off[0], root_o, acnt_p};
  end else begin : gen_no_arn
    assign arn_wr_reg = 1'b0;
    assign arn_wr_ok = 1'b0;
    assign arn_rd_hit = 1'b0;
    assign arn_rd = 32'h0;
    assign arn_mode_o = 2'd0;
    assign mark_adapted_o = 1'b0;
    assign adapted_arn_o = 1'b0;
    assign alt_refresh_o = 1'b0;
    assign arn_clear_o = 1'b0;
    assign arn_up_o = '0;
    assign hcdth_o = '0;
    assign lcdth_o = '0;
    assign fcth_o = '0;
    assign crt_o = '0;
    assign arn_ttl_o = '0;
    assign hot_cnt_port_o = '0;
    logic unused_arn_inputs;
    assign unused_arn_inputs = ^{ev_roots_declared_i, ev_arn_sent_i, ev_arn_received_i,
                                 ev_arn_consumed_i, ev_arn_expired_i, ev_packets_adapted_i,
                                 ev_arn_in_dropped_i, ev_arn_out_dropped_i, ev_arn_evicted_i,
                                 ent_valid_i, ent_consumed_i, ent_dest_i, ent_port_i, ent_vc_i,
                                 ent_stage_i, ent_id_i, ent_alt_port_i, ent_ttl_i, root_i,
                                 root_id_i, root_crt_i, hot_cnt_i};
  end

  // ---- outputs -----------------------------------------------------------------
  assign reg_rvalid_o = rvalid_q;
  assign reg_rdata_o = rdata_q | cnt_rdata | fwd_rdata | dn_cnt_rdata_i;
  assign mode_o = mode_q;
  assign trigger_o = trigger_q;
  assign stage_mask_o = stage_mask_q;
  assign stage_o = stage_q;
  assign vc_obqa_o = vc_obqa_q;
  assign afi_o = afi_q;
  assign fb_o = fb_q;
  assign fb_same_o = fb_same_q;
  assign esc_vc_o = esc_vc_q;
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
