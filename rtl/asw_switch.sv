// asw_switch.sv — arnswitch top: parameter checks, per-input buffers and route
// computation, iSLIP allocator, credit counters, crossbar (ST), output registers and
// register block (docs/microarchitecture.md). Ports are the link interface of §3
// flattened per port (port p at [p*W +: W]) plus the register bus of §10 and the §18 link
// state pins (rtl/link_fault.sv; tie both to '1 where links never fail; ignored without
// LinkFaultEn).
// Payload ports are max(PW,1) bits wide; with PW = 0 the single bit is ignored/0.
module asw_switch #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  parameter int unsigned LMAX = 16,
  parameter int unsigned PW = 32,
  parameter int unsigned DW = 16,
  parameter int unsigned TABLE = 256,
  parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1,
  // SAPIPE: switch allocation, 0 iSLIP (§8), 1 pipelined: selections a cycle ahead and one
  // grant phase (§8.1; needs ITERS = 1 and VcAdaptEn = 0); read in PARAM1[21]
  parameter int unsigned SAPIPE = 0,
  parameter int unsigned AE = 0,
  // SE: Switch AR table entries (§17.8), 0..32; 0 (or QcnEn = 0: Switch AR forwards the
  // congestion point's CNMs): no Switch AR hardware, its registers unmapped, cnm_in
  // ignored, cnm_out 0
  parameter int unsigned SE = 0,
  // Optional hardware (§1), each off by default and then not built at all (no cells): its
  // registers unmapped (§11 rules: read 0, writes illegal), as §15's with AE = 0. Read
  // back in PARAM2[31:23] (bit 23 BubbleEn .. bit 29 PortRateEn, bit 30 RouteOblivEn, bit 31
  // RouteAdaptEn) and PARAM3[7:6] (bit 6 CountersEn, bit 7 ReadbackEn).
  // BubbleEn: the §16.1 bubble rule and its §16.2 registers (tori: ring deadlock freedom)
  parameter bit BubbleEn = 1'b0,
  // PfcEn: the §17.1 PFC link mode and its §17.2 registers (every port a credit port if 0)
  parameter bit PfcEn = 1'b0,
  // QcnEn: the §17.4 QCN congestion point (cnm_valid_o/cnm_data_o 0 if 0); Switch AR
  // (SE >= 1) needs it
  parameter bit QcnEn = 1'b0,
  // RouteHashEn: the §17.6 ROUTE_HASH register (oblivious routes from the LFSR only if 0)
  parameter bit RouteHashEn = 1'b0,
  // LinkFaultEn: the §18 link-fault block (link_up_i/link_rx_up_i ignored, links always
  // up, if 0)
  parameter bit LinkFaultEn = 1'b0,
  // PortRateEn: the §17.7 output port rate, PORT_GAP registers
  parameter bit PortRateEn = 1'b0,
  // VcAdaptEn: the §16.3 VC-adaptive routing (ROUTE_CTRL mode 3 illegal if 0; its hardware
  // exists only with VOQ = 0 anyway)
  parameter bit VcAdaptEn = 1'b0,
  // RouteOblivEn: §7.3 oblivious routing, ROUTE_CTRL mode 1: the input LFSRs, the candidate
  // count and choice, LFSR_SEED (mode 1 illegal, LFSR_SEED unmapped if 0; the §17.6 product
  // exists only with it and RouteHashEn)
  parameter bit RouteOblivEn = 1'b0,
  // RouteAdaptEn: §7.3 adaptive routing, ROUTE_CTRL mode 2: the credit search and its
  // NoTH/TH/2TH triggers, THRESH, the 2TH flags (mode 2 illegal, THRESH unmapped if 0; the
  // search is built for §17.8 steering too when SE >= 1 and QcnEn)
  parameter bit RouteAdaptEn = 1'b0,
  // CountersEn: the §12 event counters and those of §15.8, §16.2, §17.2, §17.4, §17.8, §18.4,
  // CNT_CLEAR (if 0: every counter reads 0, CNT_CLEAR unmapped)
  parameter bit CountersEn = 1'b0,
  // ReadbackEn: the OCC and CRED read-back of §11 (if 0: unmapped, read 0)
  parameter bit ReadbackEn = 1'b0,
  localparam int unsigned PWE = (PW == 0) ? 1 : PW
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // link inputs (flits arriving on input p)
  input  logic [P-1:0]     in_valid_i,
  input  logic [P-1:0]     in_head_i,
  input  logic [P-1:0]     in_tail_i,
  input  logic [P*3-1:0]   in_vc_i,
  input  logic [P*64-1:0]  in_hdr_i,
  input  logic [P*PWE-1:0] in_payload_i,
  // link outputs (flits leaving on output p)
  output logic [P-1:0]     out_valid_o,
  output logic [P-1:0]     out_head_o,
  output logic [P-1:0]     out_tail_o,
  output logic [P*3-1:0]   out_vc_o,
  output logic [P*64-1:0]  out_hdr_o,
  output logic [P*PWE-1:0] out_payload_o,
  // credits returned upstream for input p / received from downstream for output p
  output logic [P-1:0]     cr_out_valid_o,
  output logic [P*3-1:0]   cr_out_vc_o,
  input  logic [P-1:0]     cr_in_valid_i,
  input  logic [P*3-1:0]   cr_in_vc_i,
  // ARN messages (§15.6; AE = 0: outputs 0, inputs ignored)
  output logic [P-1:0]     arn_out_valid_o,
  output logic [P*32-1:0]  arn_out_data_o,
  input  logic [P-1:0]     arn_in_valid_i,
  input  logic [P*32-1:0]  arn_in_data_i,
  // QCN congestion notification messages (§17.4; valid one cycle, word 0 while not valid)
  output logic [P-1:0]     cnm_valid_o,
  output logic [P*64-1:0]  cnm_data_o,
  // §17.8 CNM lane (Switch AR): the word the peer on port p sends (cnm_in) and the word this
  // switch sends it (cnm_out, valid one cycle, word 0 while not valid); SE = 0: in ignored,
  // out 0
  input  logic [P-1:0]     cnm_in_valid_i,
  input  logic [P*64-1:0]  cnm_in_data_i,
  output logic [P-1:0]     cnm_out_valid_o,
  output logic [P*64-1:0]  cnm_out_data_o,
  // register bus
  input  logic            reg_en_i,
  input  logic            reg_we_i,
  input  logic [19:0]     reg_addr_i,
  input  logic [31:0]     reg_wdata_i,
  output logic            reg_rvalid_o,
  output logic [31:0]     reg_rdata_o,
  // §18.1 link state, levels used in the cycle they have: bit o of link_up_i, output o's
  // link carries flits (0: ST discards, §18.2); bit i of link_rx_up_i, input i's link
  // carries flits (0: no flit may arrive, a cut packet is padded, §18.3)
  input  logic [P-1:0]     link_up_i,
  input  logic [P-1:0]     link_rx_up_i
);
  // ---- parameter checks (contract §1) ------------------------------------------
  if (P < 2 || P > 64) begin : gen_bad_p
    $fatal(1, "asw_switch: parameter P=%0d out of range 2..64", P);
  end
  if (V < 1 || V > 8) begin : gen_bad_v
    $fatal(1, "asw_switch: parameter V=%0d out of range 1..8", V);
  end
  if (LMAX < 1 || LMAX > 255) begin : gen_bad_lmax
    $fatal(1, "asw_switch: parameter LMAX=%0d out of range 1..255", LMAX);
  end
  if (BUF < LMAX || BUF > 16384) begin : gen_bad_buf
    $fatal(1, "asw_switch: parameter BUF=%0d out of range LMAX(%0d)..16384", BUF, LMAX);
  end
  if (V * BUF > 65536) begin : gen_bad_vbuf
    $fatal(1, "asw_switch: V*BUF=%0d exceeds 65536", V * BUF);
  end
  if (PW > 64) begin : gen_bad_pw
    $fatal(1, "asw_switch: parameter PW=%0d out of range 0..64", PW);
  end
  if (DW < 1 || DW > 16) begin : gen_bad_dw
    $fatal(1, "asw_switch: parameter DW=%0d out of range 1..16", DW);
  end
  if (TABLE < 1 || TABLE > (1 << DW)) begin : gen_bad_table
    $fatal(1, "asw_switch: parameter TABLE=%0d out of range 1..2^DW (%0d)", TABLE, 1 << DW);
  end
  if (VOQ > 1) begin : gen_bad_voq
    $fatal(1, "asw_switch: parameter VOQ=%0d must be 0 or 1", VOQ);
  end
  if (ITERS < 1 || ITERS > 4) begin : gen_bad_iters
    $fatal(1, "asw_switch: parameter ITERS=%0d out of range 1..4", ITERS);
  end
  if (SAPIPE > 1) begin : gen_bad_sapipe
    $fatal(1, "asw_switch: parameter SAPIPE=%0d must be 0 or 1", SAPIPE);
  end
  if (SAPIPE == 1 && ITERS != 1) begin : gen_bad_sapipe_iters
    $fatal(1, "asw_switch: SAPIPE=1 needs ITERS=1 (ITERS=%0d)", ITERS);
  end
  if (SAPIPE == 1 && VcAdaptEn) begin : gen_bad_sapipe_vca
    $fatal(1, "asw_switch: SAPIPE=1 excludes VcAdaptEn");
  end
  if (AE > 32) begin : gen_bad_ae
    $fatal(1, "asw_switch: parameter AE=%0d out of range 0..32", AE);
  end
  if (SE > 32) begin : gen_bad_se
    $fatal(1, "asw_switch: parameter SE=%0d out of range 0..32", SE);
  end

  localparam int unsigned NQ = (VOQ != 0) ? P : 1;
  localparam int unsigned VW = asw_pkg::idx_w(V);
  localparam int unsigned SW = asw_pkg::slot_w(V, BUF);
  localparam int unsigned PIW = asw_pkg::idx_w(P);
  localparam int unsigned TW = asw_pkg::idx_w(TABLE);
  localparam int unsigned CW = asw_pkg::cnt_w(BUF);
  localparam int unsigned AEE = (AE == 0) ? 1 : AE;
  localparam int unsigned EXW = asw_pkg::cnt_w(AEE);
  localparam int unsigned FWW = 16 + asw_pkg::amask_w(P);  // forwarding-table word
  // §16.3 hardware (mode-3 search in RC, fallback routes in SA): VOQ = 0 and VcAdaptEn
  localparam bit VCA = (VOQ == 0) && VcAdaptEn;
  // §17.8 hardware (Switch AR table, CNM lane, RC steering): SE >= 1 and QcnEn
  localparam bit SAR = (SE >= 1) && QcnEn;

  // ---- register block ----------------------------------------------------------
  logic [1:0]  mode;
  logic [1:0]  trigger;
  logic [7:0]  stage_mask;
  logic [3:0]  stage;
  logic        vc_obqa;
  logic        afi;
  logic        fb, fb_same;      // §16.3 VC_CTRL fallback fields
  logic [2:0]  esc_vc;
  logic [15:0] ltth, htth;
  logic [5:0]  default_port;
  logic [4*P-1:0] cset;
  logic [P*16*VW-1:0] sl2vc;
  logic        seed_we;
  logic [15:0] seed;
  logic        fwd_we;
  logic [TW-1:0] fwd_addr;
  logic [FWW-1:0] fwd_wdata;
  logic [TABLE-1:0] fwd_written;

  logic [P-1:0] ev_flits_out, ev_packets_out, ev_credit_stall, ev_sa_lost;
  logic [P-1:0] ev_route_errors, ev_adaptive;
  logic [P*V*NQ*CW-1:0] occ_all;
  logic [P*V*CW-1:0] cred;
  logic [P*V-1:0] cong_next;

  // §15 (ARN): registers, counter events and views; all 0 with AE = 0 or VOQ = 0
  logic [1:0]  arn_mode;
  logic        mark_adapted;
  logic        adapted_arn, alt_refresh;
  logic        arn_clear;
  logic [P-1:0] arn_up;
  logic [15:0] hcdth, lcdth, fcth;
  logic [23:0] crt_thr, arn_ttl;
  logic [P-1:0] ev_roots, ev_sent, ev_received, ev_consumed, ev_pk_adapted;
  logic [P-1:0] ev_in_dropped, ev_out_dropped, ev_evicted;
  logic [P*EXW-1:0] ev_expired;
  logic [AEE-1:0] ent_valid, ent_consumed;
  logic [AEE*16-1:0] ent_dest;
  logic [AEE*PIW-1:0] ent_port, ent_alt_port;
  logic [AEE*3-1:0] ent_vc;
  logic [AEE*4-1:0] ent_stage;
  logic [AEE*9-1:0] ent_id;
  logic [AEE*24-1:0] ent_ttl;
  logic [P-1:0] root_view;
  logic [P*9-1:0] root_id_view;
  logic [P*24-1:0] crt_view;
  logic [PIW-1:0] hot_cnt_port;
  logic [9:0]  hot_cnt;
  // input port controllers (§15.5) and the detector's header read port (§15.2)
  logic [P-1:0]     lk_valid, lk_consumed, lk_adapted;
  logic [P*16-1:0]  lk_dest;
  logic [P*VW-1:0]  lk_vc;
  logic [P*3-1:0]   lk_orig_vc;
  logic [P*PIW-1:0] lk_alt_port;
  logic [VW-1:0]    off_vc;
  logic [PIW-1:0]   off_port;
  logic [15:0]      hq_dest[P];
  logic [P-1:0]     hq_adapted;
  logic [2:0]       hq_orig_vc[P];
  logic [P*V*NQ-1:0]    q_valid_all, occ_touch_all;
  logic [P*V*NQ*VW-1:0] q_ovc_all;
  logic [P*V*NQ*CW-1:0] occ_next_all;
  logic [TW-1:0]    arn_fwd_addr;
  logic [15:0]      fwd_rdata2;
  // §16.1 bubble flow control (rtl/bubble.sv): register hooks, the rule, stall events
  logic             bub_wr_reg, bub_wr_ok, bub_rd_hit;
  logic [31:0]      bub_rd, bub_cnt_rdata;
  logic [P*V-1:0]   bub_vcs;
  logic [P*P-1:0]   bub_cont;
  logic [P-1:0]     bstall[P];
  logic [P-1:0]     bstall_any, ev_bubble_stall;

  // §17 PFC link mode (rtl/pfc.sv): register hook, per-port mode, frames
  logic         pfc_own, pfc_wr_ok;
  logic [31:0]  pfc_rd;
  logic [P-1:0] pfc_en, pfc_chg, pfc_frame_valid;
  logic [P*3-1:0] pfc_frame_vc;

  logic [31:0] regs_rdata, lf_rdata, sar_cnt_rdata;
  // §18.4 registers: read data of link_fault.sv; §17.8 counters: of sar_table.sv
  assign reg_rdata_o = regs_rdata | lf_rdata | sar_cnt_rdata;

  // §17.8 Switch AR (rtl/sar_table.sv): register hook, SAR_CTRL.steer, RC levels
  logic         sar_own, sar_wr_ok, sar_steer;
  logic [31:0]  sar_rd;
  logic [P*P*6-1:0] sar_lvl;   // input i, port o at (i*P + o)*6

  // §17.4 QCN congestion point (rtl/qcn_cp.sv): register hook, RQ packets of the cycle
  logic         qcn_own, qcn_wr_ok;
  logic         qcn_en;       // QCN_CTRL.en (§16.3: excludes ROUTE_CTRL mode 3)
  logic [31:0]  qcn_rd;
  logic [P-1:0] qcn_rq_valid;
  logic [P*PIW-1:0] qcn_rq_oport;
  logic [P*8-1:0]   qcn_rq_len;
  logic [P*16-1:0]  qcn_rq_src, qcn_rq_dest;
  // §17.6 ROUTE_HASH (rtl/route_hash.sv): register hook and value (0 without RouteHashEn)
  logic         rh_own, rh_wr_ok;
  logic [31:0]  rh_rd;
  logic [11:0]  route_hash;
  // §17.7 PORT_GAP (rtl/port_gap.sv): register hook, outputs that wait (0 without PortRateEn)
  logic         gp_own, gp_wr_ok;
  logic [31:0]  gp_rd;
  logic [P-1:0] gap_wait;

  regs #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .SAPIPE(SAPIPE), .AE(AE), .SE(SE), .BubbleEn(BubbleEn), .PfcEn(PfcEn),
    .QcnEn(QcnEn), .RouteHashEn(RouteHashEn), .LinkFaultEn(LinkFaultEn),
    .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn), .RouteOblivEn(RouteOblivEn),
    .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn), .ReadbackEn(ReadbackEn)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .reg_rvalid_o,
    .reg_rdata_o     (regs_rdata),
    .mode_o          (mode),
    .trigger_o       (trigger),
    .stage_mask_o    (stage_mask),
    .stage_o         (stage),
    .vc_obqa_o       (vc_obqa),
    .afi_o           (afi),
    .fb_o            (fb),
    .fb_same_o       (fb_same),
    .esc_vc_o        (esc_vc),
    .ltth_o          (ltth),
    .htth_o          (htth),
    .default_port_o  (default_port),
    .cset_o          (cset),
    .sl2vc_o         (sl2vc),
    .seed_we_o       (seed_we),
    .seed_o          (seed),
    .fwd_we_o        (fwd_we),
    .fwd_addr_o      (fwd_addr),
    .fwd_wdata_o     (fwd_wdata),
    .fwd_written_o   (fwd_written),
    .fwd_raddr2_i    (arn_fwd_addr),
    .fwd_rdata2_o    (fwd_rdata2),
    .ev_flits_in_i   (in_valid_i),
    .ev_flits_out_i  (ev_flits_out),
    .ev_packets_in_i (in_valid_i & in_head_i),
    .ev_packets_out_i(ev_packets_out),
    .ev_credit_stall_i(ev_credit_stall),
    .ev_sa_lost_i    (ev_sa_lost),
    .ev_route_errors_i(ev_route_errors),
    .ev_adaptive_i   (ev_adaptive),
    .occ_i           (occ_all),
    .cred_i          (cred),
    .arn_mode_o      (arn_mode),
    .mark_adapted_o  (mark_adapted),
    .adapted_arn_o   (adapted_arn),
    .alt_refresh_o   (alt_refresh),
    .arn_clear_o     (arn_clear),
    .arn_up_o        (arn_up),
    .hcdth_o         (hcdth),
    .lcdth_o         (lcdth),
    .fcth_o          (fcth),
    .crt_o           (crt_thr),
    .arn_ttl_o       (arn_ttl),
    .ev_roots_declared_i (ev_roots),
    .ev_arn_sent_i       (ev_sent),
    .ev_arn_received_i   (ev_received),
    .ev_arn_consumed_i   (ev_consumed),
    .ev_arn_expired_i    (ev_expired),
    .ev_packets_adapted_i(ev_pk_adapted),
    .ev_arn_in_dropped_i (ev_in_dropped),
    .ev_arn_out_dropped_i(ev_out_dropped),
    .ev_arn_evicted_i    (ev_evicted),
    .ent_valid_i     (ent_valid),
    .ent_consumed_i  (ent_consumed),
    .ent_dest_i      (ent_dest),
    .ent_port_i      (ent_port),
    .ent_vc_i        (ent_vc),
    .ent_stage_i     (ent_stage),
    .ent_id_i        (ent_id),
    .ent_alt_port_i  (ent_alt_port),
    .ent_ttl_i       (ent_ttl),
    .root_i          (root_view),
    .root_id_i       (root_id_view),
    .root_crt_i      (crt_view),
    .hot_cnt_port_o  (hot_cnt_port),
    .hot_cnt_i       (hot_cnt),
    .dn_wr_reg_i     (bub_wr_reg),
    .dn_wr_ok_i      (bub_wr_ok),
    .dn_rd_hit_i     (bub_rd_hit),
    .dn_rd_i         (bub_rd),
    .dn_cnt_rdata_i  (bub_cnt_rdata),
    .pfc_own_i       (pfc_own),
    .pfc_wr_ok_i     (pfc_wr_ok),
    .pfc_rd_i        (pfc_rd),
    .qcn_own_i       (qcn_own),
    .qcn_wr_ok_i     (qcn_wr_ok),
    .qcn_rd_i        (qcn_rd),
    .qcn_en_i        (qcn_en),
    .rh_own_i        (rh_own),
    .rh_wr_ok_i      (rh_wr_ok),
    .rh_rd_i         (rh_rd),
    .gp_own_i        (gp_own),
    .gp_wr_ok_i      (gp_wr_ok),
    .gp_rd_i         (gp_rd),
    .sar_own_i       (sar_own),
    .sar_wr_ok_i     (sar_wr_ok),
    .sar_rd_i        (sar_rd)
  );

  // ---- §18 link faults: padding (IW), crossbar flits sent or discarded (ST) ---------------
  logic [P-1:0]     self_cr, pad_valid, pad_tail;
  // §18.5 RC's view of link_up_i: all up without LinkFaultEn (no §18 hardware, pins ignored)
  logic [P-1:0]     rc_link_up;
  assign rc_link_up = LinkFaultEn ? link_up_i : '1;
  logic [P*VW-1:0]  pad_vc;
  logic [P-1:0]     xb_valid, xb_head, xb_tail;  // flit ST hands output o (sent or discarded)
  logic [P-1:0]     xb_send;                     // ... and goes into the output register
  logic [P*3-1:0]   xb_vc;

  // ---- per-input blocks ------------------------------------------------------------
  logic [P-1:0]   st_valid, st_head, st_tail;
  logic [P-1:0]   st_hold;      // §17.7: input i streams to an output that waits
  logic [PIW-1:0] st_out[P];
  logic [VW-1:0]  st_ovc[P];
  logic [VW-1:0]  st_vc[P];
  logic [63:0]    st_hdr[P];
  logic [PWE-1:0] st_payload[P];
  logic [P-1:0]   busy;
  logic [P-1:0]   st_release;   // input i sends its tail this cycle (frees it and its output)
  logic [PIW-1:0] busy_out[P];
  logic [P-1:0]   st_keep_oh[P];  // [i]: one-hot output input i streams to and keeps
  logic [P-1:0]   st_far_oh[P]; // [i]: one-hot output input i streams to with > 2 flits left (§8.1)
  logic [P-1:0]   keep_nm_oh[P]; // [i]: st_keep_oh[i] of the next cycle if i is not matched now
  logic [P-1:0]   m_long;       // input i's matched packet has more than one flit
  localparam int unsigned NQT = V * NQ;
  logic [P*NQT-1:0]     sel_eh, sel_es, sel_l1;   // §8.1 selection views of the inputs
  logic [P*NQT*PIW-1:0] sel_oh, sel_os;
  logic [P-1:0]         sel_open;
  logic [P-1:0]   out_free;
  logic [P*V*P-1:0] req;
  logic [P*V*P-1:0] req_nf;     // §8.1: the requests but for the free masks
  logic [P-1:0]   in_free;
  logic [P*NQT-1:0] sel_q_oh, pop_oh;  // §8.1: per input the selected queue, the popped one
  logic [P*V-1:0] resv_q;       // §8: [o*V+w] a match of the last cycle reserved on (o, w)
  logic [P-1:0]   stall[P];
  logic [P-1:0]   match_valid;
  logic [P*PIW-1:0] match_out;
  logic [P*VW-1:0] match_vc;
  logic [P*P-1:0] match_oh;     // [i*P+o] one-hot per input (islip)
  logic [P*V-1:0] match_vc_oh;
  logic [7:0]     match_len[P];
  logic [VW-1:0]  match_ovc[P];

  for (genvar i = 0; i < P; i++) begin : gen_input
    logic [SW-1:0]  iw_slot;
    logic           rq_valid;
    logic [VW-1:0]  rq_vc;
    logic [SW-1:0]  rq_slot;
    logic [7:0]     rq_len;
    logic [PIW-1:0] rq_oport;
    logic [VW-1:0]  rq_ovc;
    logic           rq_mark;
    logic           rq_fb;
    logic [PIW-1:0] rq_fport;
    logic [VW-1:0]  rq_fvc;
    logic [15:0]    rq_dest;
    logic [15:0]    rq_src;
    logic           rq_adapted;
    logic [2:0]     rq_orig_vc;
    logic [VW-1:0]  in_vc;
    // IW: the arriving flit, or the §18.3 padding flit (never both: a down input gets none)
    logic           iw_valid, iw_tail;
    logic [VW-1:0]  iw_vc;
    logic [PWE-1:0] iw_payload;
    assign in_vc = in_vc_i[i*3 +: VW];
    assign iw_valid = in_valid_i[i] || pad_valid[i];
    assign iw_tail = pad_valid[i] ? pad_tail[i] : in_tail_i[i];
    assign iw_vc = pad_valid[i] ? pad_vc[i*VW +: VW] : in_vc;
    assign iw_payload = pad_valid[i] ? {PWE{PW != 0}} : in_payload_i[i*PWE +: PWE];

    route_compute #(
      .P(P), .V(V), .BUF(BUF), .TABLE(TABLE), .INDEX(i), .OBL(RouteOblivEn), .ADP(RouteAdaptEn),
      .HASH(RouteHashEn && RouteOblivEn), .VCA(VCA), .SAR(SAR)
    ) u_rc (
      .clk_i,
      .rst_ni,
      .iw_head_i     (in_valid_i[i] && in_head_i[i]),
      .iw_vc_i       (in_vc),
      .iw_slot_i     (iw_slot),
      .iw_hdr_i      (in_hdr_i[i*64 +: 64]),
      .fwd_we_i      (fwd_we),
      .fwd_waddr_i   (fwd_addr),
      .fwd_wdata_i   (fwd_wdata),
      .fwd_written_i (fwd_written),
      .mode_i        (mode),
      .trigger_i     (trigger),
      .stage_mask_i  (stage_mask),
      .stage_i       (stage),
      .vc_obqa_i     (vc_obqa),
      .afi_i         (afi),
      .fb_i          (fb),
      .fb_same_i     (fb_same),
      .esc_vc_i      (esc_vc),
      .ltth_i        (ltth),
      .default_port_i(default_port),
      .cset_i        (cset),
      .sl2vc_i       (sl2vc),
      .seed_we_i     (seed_we),
      .seed_i        (seed),
      .route_hash_i  (route_hash),
      .arn_mode_i    (arn_mode),
      .mark_adapted_i(mark_adapted),
      .adapted_arn_i (adapted_arn),
      .lk_valid_o    (lk_valid[i]),
      .lk_dest_o     (lk_dest[i*16 +: 16]),
      .lk_vc_o       (lk_vc[i*VW +: VW]),
      .lk_adapted_o  (lk_adapted[i]),
      .lk_orig_vc_o  (lk_orig_vc[i*3 +: 3]),
      .lk_consumed_i (lk_consumed[i]),
      .lk_alt_port_i (lk_alt_port[i*PIW +: PIW]),
      .sar_steer_i   (sar_steer),
      .sar_lvl_i     (sar_lvl[i*P*6 +: P*6]),
      .link_up_i     (rc_link_up),
      .cred_i        (cred),
      .cong_next_i   (cong_next),
      .rq_valid_o    (rq_valid),
      .rq_vc_o       (rq_vc),
      .rq_slot_o     (rq_slot),
      .rq_len_o      (rq_len),
      .rq_oport_o    (rq_oport),
      .rq_ovc_o      (rq_ovc),
      .rq_mark_o     (rq_mark),
      .rq_fb_o       (rq_fb),
      .rq_fport_o    (rq_fport),
      .rq_fvc_o      (rq_fvc),
      .rq_dest_o     (rq_dest),
      .rq_src_o      (rq_src),
      .rq_adapted_o  (rq_adapted),
      .rq_orig_vc_o  (rq_orig_vc),
      .route_error_o (ev_route_errors[i]),
      .adaptive_o    (ev_adaptive[i])
    );

    assign qcn_rq_valid[i] = rq_valid;  // §17.4: the packet RQ appends
    assign qcn_rq_oport[i*PIW +: PIW] = rq_oport;
    assign qcn_rq_len[i*8 +: 8] = rq_len;
    assign qcn_rq_src[i*16 +: 16] = rq_src;
    assign qcn_rq_dest[i*16 +: 16] = rq_dest;

    input_buffer #(
      .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .VOQ(VOQ),
      .HQ((AE != 0 && VOQ != 0) ? 1 : 0),
      .VCA(VCA),
      .SAPIPE(SAPIPE != 0)
    ) u_ib (
      .clk_i,
      .rst_ni,
      .in_valid_i    (iw_valid),
      .in_head_i     (in_valid_i[i] && in_head_i[i]),
      .in_tail_i     (iw_tail),
      .in_vc_i       (iw_vc),
      .in_hdr_i      (in_hdr_i[i*64 +: 64]),
      .in_payload_i  (iw_payload),
      .iw_slot_o     (iw_slot),
      .rq_valid_i    (rq_valid),
      .rq_vc_i       (rq_vc),
      .rq_slot_i     (rq_slot),
      .rq_len_i      (rq_len),
      .rq_oport_i    (rq_oport),
      .rq_ovc_i      (rq_ovc),
      .rq_mark_i     (rq_mark),
      .rq_fb_i       (rq_fb),
      .rq_fport_i    (rq_fport),
      .rq_fvc_i      (rq_fvc),
      .rq_dest_i     (rq_dest),
      .rq_adapted_i  (rq_adapted),
      .rq_orig_vc_i  (rq_orig_vc),
      .st_hold_i     (st_hold[i]),
      .st_valid_o    (st_valid[i]),
      .st_out_o      (st_out[i]),
      .st_head_o     (st_head[i]),
      .st_tail_o     (st_tail[i]),
      .st_ovc_o      (st_ovc[i]),
      .st_vc_o       (st_vc[i]),
      .st_hdr_o      (st_hdr[i]),
      .st_payload_o  (st_payload[i]),
      .busy_o        (busy[i]),
      .st_release_o  (st_release[i]),
      .busy_out_o    (busy_out[i]),
      .st_keep_oh_o  (st_keep_oh[i]),
      .st_far_oh_o   (st_far_oh[i]),
      .keep_nm_oh_o  (keep_nm_oh[i]),
      .m_long_o      (m_long[i]),
      .out_free_i    (out_free),
      .cred_i        (cred),
      .resv_i        (resv_q),
      .req_o         (req[i*V*P +: V*P]),
      .req_nf_o      (req_nf[i*V*P +: V*P]),
      .in_free_o     (in_free[i]),
      .stall_o       (stall[i]),
      .match_valid_i (match_valid[i]),
      .match_out_i   (match_out[i*PIW +: PIW]),
      .match_vc_i    (match_vc[i*VW +: VW]),
      .match_oh_i    (match_oh[i*P +: P]),
      .match_vc_oh_i (match_vc_oh[i*V +: V]),
      .match_len_o   (match_len[i]),
      .match_ovc_o   (match_ovc[i]),
      .occ_o         (occ_all[i*V*NQ*CW +: V*NQ*CW]),
      .q_valid_o     (q_valid_all[i*V*NQ +: V*NQ]),
      .q_ovc_o       (q_ovc_all[i*V*NQ*VW +: V*NQ*VW]),
      .occ_touch_o   (occ_touch_all[i*V*NQ +: V*NQ]),
      .occ_next_o    (occ_next_all[i*V*NQ*CW +: V*NQ*CW]),
      .hq_vc_i       (off_vc),
      .hq_port_i     (off_port),
      .hq_dest_o     (hq_dest[i]),
      .hq_adapted_o  (hq_adapted[i]),
      .hq_orig_vc_o  (hq_orig_vc[i]),
      .bub_vcs_i     (bub_vcs),
      .bub_cont_i    (bub_cont[i*P +: P]),
      .bstall_o      (bstall[i]),
      .sel_eh_o      (sel_eh[i*NQT +: NQT]),
      .sel_es_o      (sel_es[i*NQT +: NQT]),
      .sel_oh_o      (sel_oh[i*NQT*PIW +: NQT*PIW]),
      .sel_os_o      (sel_os[i*NQT*PIW +: NQT*PIW]),
      .sel_l1_o      (sel_l1[i*NQT +: NQT]),
      .sel_q_oh_i    (sel_q_oh[i*NQT +: NQT]),
      .pop_oh_i      (pop_oh[i*NQT +: NQT])
    );
  end

  // Output o is free unless an input streams to it and does not release it this cycle.
  // st_sel[o][i]: input i streams to output o (a decode of a register, one-hot over i).
  logic [P-1:0] st_sel[P];
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned i = 0; i < P; i++) begin
        st_sel[o][i] = busy[i] && (32'(busy_out[i]) == o);
      end
    end
  end
  // Kept: streaming and not sending the tail now (registered per input), or held (§17.7).
  // With SAPIPE the OR over the inputs is itself a register (okeep_q), set from this
  // cycle's grants (match_oh is the grant) and the inputs' views of their next state.
  logic [P-1:0] okeep;
  logic [P-1:0] keep_or;         // OR over the inputs of their registered keep views
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      keep_or[o] = 1'b0;
      for (int unsigned i = 0; i < P; i++) begin
        keep_or[o] = keep_or[o] | st_keep_oh[i][o];
      end
    end
  end
  if (SAPIPE != 0) begin : gen_okeep
    logic [P-1:0] okeep_q, okeep_d;
    always_comb begin
      for (int unsigned o = 0; o < P; o++) begin
        okeep_d[o] = 1'b0;
        for (int unsigned i = 0; i < P; i++) begin
          okeep_d[o] = okeep_d[o] | (match_oh[i*P + o] & m_long[i]) | keep_nm_oh[i][o];
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        okeep_q <= '0;
      end else begin
        okeep_q <= okeep_d;
      end
    end
    assign okeep = okeep_q;    // equals keep_or (asserted below)
  end else begin : gen_okeep_or
    logic unused_okeep;
    always_comb begin
      unused_okeep = ^m_long;
      for (int unsigned i = 0; i < P; i++) begin
        unused_okeep = unused_okeep ^ (^keep_nm_oh[i]);
      end
    end
    assign okeep = keep_or;
  end
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      logic kept;
      kept = okeep[o];
      for (int unsigned i = 0; i < P; i++) begin
        kept = kept | (st_sel[o][i] & st_hold[i]);
      end
      out_free[o] = !kept;
    end
  end
  // §17.7: an input streaming to an output that waits holds its flit (registers only).
  always_comb begin
    st_hold = '0;
    for (int unsigned o = 0; o < P; o++) begin
      st_hold = st_hold | (gap_wait[o] ? st_sel[o] : '0);
    end
  end

  // ---- switch allocation -------------------------------------------------------------
  logic [P-1:0] out_matched;
  logic [P-1:0] in_requested;

  // §8.1: an output is open if no input streams to it or that input has <= 2 flits left
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      logic far;
      far = 1'b0;
      for (int unsigned i = 0; i < P; i++) begin
        far = far | st_far_oh[i][o];
      end
      sel_open[o] = !far;
    end
  end
  islip #(.P(P), .V(V), .ITERS(ITERS), .VOQ(VOQ), .SAPIPE(SAPIPE)) u_islip (
    .clk_i,
    .rst_ni,
    .sel_eh_i       (sel_eh),
    .sel_es_i       (sel_es),
    .sel_oh_i       (sel_oh),
    .sel_os_i       (sel_os),
    .sel_l1_i       (sel_l1),
    .open_i         (sel_open),
    .req_i          (req),
    .req_nf_i       (req_nf),
    .in_free_i      (in_free),
    .out_free_i     (out_free),
    .match_valid_o  (match_valid),
    .match_out_o    (match_out),
    .match_vc_o     (match_vc),
    .match_oh_o     (match_oh),
    .match_vc_oh_o  (match_vc_oh),
    .out_matched_o  (out_matched),
    .in_requested_o (in_requested),
    .sel_q_oh_o     (sel_q_oh),
    .pop_oh_o       (pop_oh)
  );

  // Per-output view of the matches for the credit counters.
  logic [P-1:0]    cm_valid;
  logic [P*VW-1:0] cm_ovc;
  logic [P*8-1:0]  cm_len;
  logic [P-1:0]    stall_any;
  // AND-OR selects over one-hot decodes (depth log P, no priority chain).
  always_comb begin
    stall_any = '0;
    for (int unsigned i = 0; i < P; i++) begin
      stall_any = stall_any | stall[i];
    end
    for (int unsigned o = 0; o < P; o++) begin
      logic [VW-1:0] ovc;
      logic [7:0]    len;
      ovc = '0;
      len = '0;
      for (int unsigned i = 0; i < P; i++) begin
        if (match_oh[i*P + o]) begin
          ovc = ovc | match_ovc[i];
          len = len | match_len[i];
        end
      end
      cm_valid[o] = out_matched[o];
      cm_ovc[o*VW +: VW] = ovc;
      cm_len[o*8 +: 8] = len;
    end
    ev_credit_stall = out_free & ~out_matched & stall_any;
    bstall_any = '0;
    for (int unsigned i = 0; i < P; i++) begin
      bstall_any = bstall_any | bstall[i];
    end
    ev_bubble_stall = out_free & ~out_matched & bstall_any;  // §16.1
    ev_sa_lost = in_requested & ~match_valid;
  end

  // §8: (o, w) a match of this cycle reserves on, for the next cycle's requests
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      resv_q <= '0;
    end else begin
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned w = 0; w < V; w++) begin
          // with one VC the match's VC is 0: no select of its record's ovc
          resv_q[o*V + w] <= cm_valid[o] && ((V == 1) || (32'(cm_ovc[o*VW +: VW]) == w));
        end
      end
    end
  end

  logic [P*VW-1:0] match_ovc_flat;
  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      match_ovc_flat[i*VW +: VW] = match_ovc[i];
    end
  end
  if (BubbleEn) begin : gen_bubble  // §16.1 hardware only with BubbleEn
  bubble #(.P(P), .V(V), .CNT(CountersEn)) u_bubble (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .wr_reg_o          (bub_wr_reg),
    .wr_ok_o           (bub_wr_ok),
    .rd_hit_o          (bub_rd_hit),
    .rd_o              (bub_rd),
    .cnt_rdata_o       (bub_cnt_rdata),
    .vcs_o             (bub_vcs),
    .cont_o            (bub_cont),
    .match_valid_i     (match_valid),
    .match_out_i       (match_out),
    .match_vc_i        (match_vc),
    .match_ovc_i       (match_ovc_flat),
    .ev_bubble_stall_i (ev_bubble_stall)
  );
  end else begin : gen_no_bubble  // BUBBLE registers unmapped, no output under the rule
    assign bub_wr_reg = 1'b0;
    assign bub_wr_ok = 1'b0;
    assign bub_rd_hit = 1'b0;
    assign bub_rd = '0;
    assign bub_cnt_rdata = '0;
    assign bub_vcs = '0;
    assign bub_cont = '0;
    logic unused_bubble_ev;  // the counter events the block would have counted
    assign unused_bubble_ev = ^{ev_bubble_stall, match_ovc_flat};
  end

  credits #(.P(P), .V(V), .BUF(BUF), .CONG(RouteAdaptEn)) u_credits (
    .clk_i,
    .rst_ni,
    .match_valid_i (cm_valid),
    .match_ovc_i   (cm_ovc),
    .match_len_i   (cm_len),
    .cr_in_valid_i,
    .cr_in_vc_i,
    .ltth_i        (ltth),
    .htth_i        (htth),
    .self_cr_valid_i(self_cr & ~pfc_en),  // §18.2 (a PFC output takes nothing back)
    .self_cr_vc_i  (xb_vc),
    .pfc_en_i      (pfc_en),
    .pfc_chg_i     (pfc_chg),
    .cred_o        (cred),
    .cong_next_o   (cong_next)
  );

  // ---- crossbar (ST) and output registers ---------------------------------------------
  logic [P*64-1:0]  xb_hdr;
  logic [P*PWE-1:0] xb_payload;
  logic [P-1:0]     cr_valid_d;
  logic [P*3-1:0]   cr_vc_d;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      logic [P-1:0] sel;        // inputs sending to o this cycle (at most one)
      sel = st_sel[o] & st_valid;
      xb_valid[o] = |sel;
      xb_head[o] = |(sel & st_head);
      xb_tail[o] = |(sel & st_tail);
      xb_vc[o*3 +: 3] = '0;
      for (int unsigned i = 0; i < P; i++) begin
        if (sel[i]) begin
          xb_vc[o*3 +: 3] = xb_vc[o*3 +: 3] | 3'(st_ovc[i]);
        end
      end
    end
  end
  // Header and payload of the flits that go out (§18.2: a discarded flit leaves 0s).
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      logic [P-1:0] dsel;
      dsel = xb_send[o] ? (st_sel[o] & st_valid) : '0;
      xb_hdr[o*64 +: 64] = '0;
      xb_payload[o*PWE +: PWE] = '0;
      for (int unsigned i = 0; i < P; i++) begin
        if (dsel[i]) begin
          xb_hdr[o*64 +: 64] = xb_hdr[o*64 +: 64] | st_hdr[i];
          xb_payload[o*PWE +: PWE] = xb_payload[o*PWE +: PWE] | ((PW == 0) ? '0 : st_payload[i]);
        end
      end
    end
  end
  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      cr_valid_d[i] = st_valid[i];
      cr_vc_d[i*3 +: 3] = st_valid[i] ? 3'(st_vc[i]) : 3'd0;
      if (pfc_en[i]) begin  // §17.1: a PFC input sends its frame instead of credits
        cr_valid_d[i] = pfc_frame_valid[i];
        cr_vc_d[i*3 +: 3] = pfc_frame_vc[i*3 +: 3];
      end
    end
  end
  // ---- §17.1 PFC link mode -----------------------------------------------------------
  logic [P*VW-1:0] st_vc_flat;
  logic [P*8-1:0]  in_len;
  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      st_vc_flat[i*VW +: VW] = st_vc[i];
      in_len[i*8 +: 8] = in_hdr_i[i*64 + 36 +: 8];
    end
  end
  if (PfcEn) begin : gen_pfc  // §17.1 hardware only with PfcEn
  pfc #(.P(P), .V(V), .BUF(BUF), .CNT(CountersEn)) u_pfc (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .own_o         (pfc_own),
    .wr_ok_o       (pfc_wr_ok),
    .rd_o          (pfc_rd),
    .iw_valid_i    (in_valid_i),
    .iw_head_i     (in_head_i),
    .iw_vc_i       (in_vc_i),
    .iw_len_i      (in_len),
    .st_valid_i    (st_valid),
    .st_vc_i       (st_vc_flat),
    .cr_in_valid_i,
    .cred_i        (cred),
    .pfc_en_o      (pfc_en),
    .pfc_chg_o     (pfc_chg),
    .frame_valid_o (pfc_frame_valid),
    .frame_vc_o    (pfc_frame_vc)
  );
  end else begin : gen_no_pfc  // §17.2 registers unmapped, every port a credit port
    assign pfc_own = 1'b0;
    assign pfc_wr_ok = 1'b0;
    assign pfc_rd = '0;
    assign pfc_en = '0;
    assign pfc_chg = '0;
    assign pfc_frame_valid = '0;
    assign pfc_frame_vc = '0;
    logic unused_pfc_ev;  // the hd events the block would have counted
    assign unused_pfc_ev = ^{st_vc_flat, in_len};
  end

  // ---- §18 link faults (rtl/link_fault.sv) ------------------------------------------
  if (LinkFaultEn) begin : gen_link  // §18 hardware only with LinkFaultEn
  link_fault #(.P(P), .V(V), .CNT(CountersEn)) u_link (
    .clk_i,
    .rst_ni,
    .link_up_i,
    .link_rx_up_i,
    .xb_valid_i  (xb_valid),
    .xb_head_i   (xb_head),
    .xb_tail_i   (xb_tail),
    .send_o      (xb_send),
    .self_cr_o   (self_cr),
    .in_valid_i,
    .in_head_i,
    .in_vc_i,
    .in_len_i    (in_len),
    .pad_valid_o (pad_valid),
    .pad_tail_o  (pad_tail),
    .pad_vc_o    (pad_vc),
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .rdata_o     (lf_rdata)
  );
  end else begin : gen_no_link  // links always up, §18.4 registers unmapped
    assign xb_send = xb_valid;
    assign self_cr = '0;
    assign pad_valid = '0;
    assign pad_tail = '0;
    assign pad_vc = '0;
    assign lf_rdata = '0;
    logic unused_link;  // the link pins and the IW view the block would have seen
    assign unused_link = ^{link_up_i, link_rx_up_i, xb_head, xb_tail, in_head_i, in_len};
  end

  // ---- §17.7 output port rate (rtl/port_gap.sv) -------------------------------------
  if (PortRateEn) begin : gen_port_gap  // §17.7 hardware only with PortRateEn
  port_gap #(.P(P)) u_port_gap (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .own_o   (gp_own),
    .wr_ok_o (gp_wr_ok),
    .rd_o    (gp_rd),
    .sent_i  (xb_valid),
    .wait_o  (gap_wait)
  );
  end else begin : gen_no_port_gap  // PORT_GAP registers unmapped, no output waits
    assign gp_own = 1'b0;
    assign gp_wr_ok = 1'b0;
    assign gp_rd = '0;
    assign gap_wait = '0;
  end

  // ---- §17.4 QCN congestion point ------------------------------------------------------
  if (QcnEn) begin : gen_qcn  // §17.4 hardware only with QcnEn
  qcn_cp #(.P(P), .V(V), .BUF(BUF), .CNT(CountersEn)) u_qcn (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .own_o       (qcn_own),
    .wr_ok_o     (qcn_wr_ok),
    .rd_o        (qcn_rd),
    .vca_mode_i  (mode == asw_pkg::RouteVcAdapt),
    .en_o        (qcn_en),
    .rq_valid_i  (qcn_rq_valid),
    .rq_oport_i  (qcn_rq_oport),
    .rq_len_i    (qcn_rq_len),
    .rq_src_i    (qcn_rq_src),
    .rq_dest_i   (qcn_rq_dest),
    .sent_i      (xb_valid),  // flits ST hands the output: sent, or discarded (§18.2)
    .cnm_valid_o,
    .cnm_data_o
  );
  end else begin : gen_no_qcn  // §17.4 registers unmapped, no CNM
    assign qcn_own = 1'b0;
    assign qcn_wr_ok = 1'b0;
    assign qcn_rd = '0;
    assign qcn_en = 1'b0;
    assign cnm_valid_o = '0;
    assign cnm_data_o = '0;
    logic unused_qcn_ev;  // the RQ and ST events the block would have seen
    assign unused_qcn_ev = ^{qcn_rq_valid, qcn_rq_oport, qcn_rq_len, qcn_rq_src, qcn_rq_dest};
  end

  // ---- §17.6 ROUTE_HASH (rtl/route_hash.sv) ------------------------------------------
  if (RouteHashEn) begin : gen_route_hash  // §17.6 hardware only with RouteHashEn
  route_hash u_route_hash (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .own_o       (rh_own),
    .wr_ok_o     (rh_wr_ok),
    .rd_o        (rh_rd),
    .route_hash_o(route_hash)
  );
  end else begin : gen_no_route_hash  // ROUTE_HASH unmapped, oblivious routes from the LFSR
    assign rh_own = 1'b0;
    assign rh_wr_ok = 1'b0;
    assign rh_rd = '0;
    assign route_hash = '0;
  end

  // ---- §17.8 Switch AR ---------------------------------------------------------------
  if (SAR) begin : gen_sar  // SE >= 1 and QcnEn
  sar_table #(.P(P), .TABLE(TABLE), .SE(SE), .CNT(CountersEn)) u_sar (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .own_o           (sar_own),
    .wr_ok_o         (sar_wr_ok),
    .rd_o            (sar_rd),
    .cnt_rdata_o     (sar_cnt_rdata),
    .steer_o         (sar_steer),
    .fwd_we_i        (fwd_we),
    .fwd_waddr_i     (fwd_addr),
    .fwd_wdata_i     (fwd_wdata[15:0]),
    .fwd_written_i   (fwd_written),
    .cset_i          (cset),
    .cnm_in_valid_i,
    .cnm_in_data_i,
    .loc_valid_i     (cnm_valid_o),  // the congestion point's CNM of each output this cycle
    .loc_data_i      (cnm_data_o),
    .cnm_out_valid_o,
    .cnm_out_data_o,
    .lk_dest_i       (lk_dest),
    .lk_lvl_o        (sar_lvl)
  );
  end else begin : gen_no_sar  // §17.8 registers unmapped, cnm_in ignored, cnm_out 0
    assign sar_own = 1'b0;
    assign sar_wr_ok = 1'b0;
    assign sar_rd = '0;
    assign sar_cnt_rdata = '0;
    assign sar_steer = 1'b0;
    assign sar_lvl = '0;
    assign cnm_out_valid_o = '0;
    assign cnm_out_data_o = '0;
    logic unused_sar;  // the lane inputs the block would have taken
    assign unused_sar = ^{cnm_in_valid_i, cnm_in_data_i};
  end

  assign ev_flits_out = xb_send;
  assign ev_packets_out = xb_send & xb_head;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_o <= '0;
      out_head_o <= '0;
      out_tail_o <= '0;
      out_vc_o <= '0;
      out_hdr_o <= '0;
      out_payload_o <= '0;
      cr_out_valid_o <= '0;
      cr_out_vc_o <= '0;
    end else begin
      out_valid_o <= xb_send;
      out_head_o <= xb_send & xb_head;
      out_tail_o <= xb_send & xb_tail;
      for (int unsigned o = 0; o < P; o++) begin
        out_vc_o[o*3 +: 3] <= xb_send[o] ? xb_vc[o*3 +: 3] : 3'd0;
      end
      out_hdr_o <= xb_hdr;
      out_payload_o <= xb_payload;
      cr_out_valid_o <= cr_valid_d;
      cr_out_vc_o <= cr_vc_d;
    end
  end

  // ---- §15: congestion detector and ARN table ------------------------------------------
  // Only with AE >= 1 and VOQ = 1 (modes 1/2 are illegal with VOQ = 0, so the blocks
  // would never act; the ARN registers and views still exist and read 0/reset values).
  if (AE >= 1 && VOQ != 0) begin : gen_arn
    logic           arn_on;
    logic           off_valid;
    logic [PIW-1:0] off_in;
    logic           rev_valid, rev_adapted, rev_pop;
    logic [15:0]    rev_dest;
    logic [PIW-1:0] rev_port;
    logic [2:0]     rev_vc;
    logic [3:0]     rev_stage;
    logic [8:0]     rev_id;
    logic [8:0]     next_id;
    logic [P*V*P-1:0] hot;
    logic           table_busy;
    logic [P-1:0]   lk_notify;
    assign arn_on = arn_mode != 2'd0;

    congestion_detector #(.P(P), .V(V), .BUF(BUF)) u_cd (
      .clk_i,
      .rst_ni,
      .on_i            (arn_on),
      .clear_i         (arn_clear),
      .hcdth_i         (hcdth),
      .lcdth_i         (lcdth),
      .fcth_i          (fcth),
      .crt_i           (crt_thr),
      .arn_up_i        (arn_up),
      .stage_i         (stage),
      .occ_touch_i     (occ_touch_all),
      .occ_next_i      (occ_next_all),
      .q_nonempty_i    (q_valid_all),
      .q_ovc_i         (q_ovc_all),
      .cred_i          (cred),
      .off_valid_o     (off_valid),
      .off_in_o        (off_in),
      .off_vc_o        (off_vc),
      .off_port_o      (off_port),
      .off_dest_i      (hq_dest[off_in]),
      .off_adapted_i   (hq_adapted[off_in]),
      .off_orig_vc_i   (hq_orig_vc[off_in]),
      .rev_valid_o     (rev_valid),
      .rev_dest_o      (rev_dest),
      .rev_port_o      (rev_port),
      .rev_vc_o        (rev_vc),
      .rev_stage_o     (rev_stage),
      .rev_id_o        (rev_id),
      .rev_adapted_o   (rev_adapted),
      .rev_pop_i       (rev_pop),
      .roots_declared_o(ev_roots),
      .root_o          (root_view),
      .root_id_o       (root_id_view),
      .crt_o           (crt_view),
      .hot_cnt_port_i  (hot_cnt_port),
      .hot_cnt_o       (hot_cnt),
      .next_id_o       (next_id),
      .hot_o           (hot)
    );

    arn_table #(.P(P), .V(V), .BUF(BUF), .TABLE(TABLE), .AE(AE)) u_arn (
      .clk_i,
      .rst_ni,
      .mode_i          (arn_mode),
      .clear_i         (arn_clear),
      .alt_refresh_i   (alt_refresh),
      .stage_i         (stage),
      .arn_ttl_i       (arn_ttl),
      .root_valid_i    (rev_valid),
      .root_dest_i     (rev_dest),
      .root_port_i     (rev_port),
      .root_vc_i       (rev_vc),
      .root_stage_i    (rev_stage),
      .root_id_i       (rev_id),
      .root_adapted_i  (rev_adapted),
      .root_pop_o      (rev_pop),
      .arn_in_valid_i,
      .arn_in_data_i,
      .fwd_addr_o      (arn_fwd_addr),
      .fwd_entry_i     (fwd_rdata2),
      .cset_i          (cset),
      .cred_i          (cred),
      .lk_valid_i      (lk_valid),
      .lk_dest_i       (lk_dest),
      .lk_vc_i         (lk_vc),
      .lk_adapted_i    (lk_adapted),
      .lk_orig_vc_i    (lk_orig_vc),
      .lk_consumed_o   (lk_consumed),
      .lk_alt_port_o   (lk_alt_port),
      .lk_notify_o     (lk_notify),
      .arn_out_valid_o,
      .arn_out_data_o,
      .cnt_sent_o      (ev_sent),
      .cnt_received_o  (ev_received),
      .cnt_consumed_o  (ev_consumed),
      .cnt_expired_o   (ev_expired),
      .cnt_adapted_o   (ev_pk_adapted),
      .cnt_in_dropped_o(ev_in_dropped),
      .cnt_out_dropped_o(ev_out_dropped),
      .cnt_evicted_o   (ev_evicted),
      .ent_valid_o     (ent_valid),
      .ent_consumed_o  (ent_consumed),
      .ent_dest_o      (ent_dest),
      .ent_port_o      (ent_port),
      .ent_vc_o        (ent_vc),
      .ent_stage_o     (ent_stage),
      .ent_id_o        (ent_id),
      .ent_alt_port_o  (ent_alt_port),
      .ent_ttl_o       (ent_ttl),
      .busy_o          (table_busy)
    );

    // Live §15 state (idle detection in a harness; verification only).
    logic arn_live;
    assign arn_live = table_busy || (root_view != '0) || (hot != '0);
    logic unused_arn;
    assign unused_arn = ^{off_valid, next_id, arn_live, lk_notify};

`ifndef SYNTHESIS
    // §15.5 branches, seen from the top (lookups of this cycle).
    cov_top_ipc_consumed: cover property (@(posedge clk_i) (lk_valid & lk_consumed) != '0);
    cov_top_ipc_two_inputs_consumed: cover property (@(posedge clk_i)
      $countones(lk_valid & lk_consumed) >= 2);
    cov_top_arn_in_and_out: cover property (@(posedge clk_i)
      (arn_in_valid_i != '0) && (arn_out_valid_o != '0));
    cov_top_clear_with_state: cover property (@(posedge clk_i) arn_clear && arn_live);
    always_ff @(posedge clk_i) begin
      if (rst_ni && !arn_on) begin
        // With mode 0 the §15 state is empty (cleared by the mode-0 write, or reset).
        assert (ent_valid == '0 && arn_out_valid_o == '0 && root_view == '0 && !table_busy)
          else $error("asw_switch: §15 state live with ARN_CTRL.mode = 0");
      end
    end
`endif
  end else begin : gen_no_arn
    assign arn_out_valid_o = '0;
    assign arn_out_data_o = '0;
    assign lk_consumed = '0;
    assign lk_alt_port = '0;
    assign off_vc = '0;
    assign off_port = '0;
    assign arn_fwd_addr = '0;
    assign {ev_roots, ev_sent, ev_received, ev_consumed, ev_pk_adapted} = '0;
    assign {ev_in_dropped, ev_out_dropped, ev_evicted, ev_expired} = '0;
    assign {ent_valid, ent_consumed, ent_dest, ent_port, ent_alt_port} = '0;
    assign {ent_vc, ent_stage, ent_id, ent_ttl} = '0;
    assign {root_view, root_id_view, crt_view, hot_cnt} = '0;
    logic unused_arn;
    assign unused_arn = ^{arn_in_valid_i, arn_in_data_i, lk_valid, lk_dest, lk_vc, hq_adapted,
                          q_valid_all, occ_touch_all, q_ovc_all, occ_next_all, arn_up, hcdth,
                          lcdth, fcth, crt_thr, arn_ttl, arn_clear, hot_cnt_port,
                          fwd_rdata2, lk_adapted, lk_orig_vc, alt_refresh};
    logic [15:0] unused_hq_dest;
    logic [2:0]  unused_hq_orig_vc;
    always_comb begin
      unused_hq_dest = '0;
      unused_hq_orig_vc = '0;
      for (int unsigned i = 0; i < P; i++) begin
        unused_hq_dest = unused_hq_dest ^ hq_dest[i];
        unused_hq_orig_vc = unused_hq_orig_vc ^ hq_orig_vc[i];
      end
    end
  end

  logic unused_inputs;
  assign unused_inputs = ^{in_vc_i, in_payload_i};

`ifndef SYNTHESIS
  // Assertions are checked from the first cycle after reset (chk_en_q keeps
  // rst_ni purely asynchronous).
  logic chk_en_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_en_q <= 1'b0;
    end else begin
      chk_en_q <= 1'b1;
    end
  end
  // §8: the output free mask from the registered keep views is the contract's (an output
  // is free unless an input streams to it and does not release it this cycle).
  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      for (int unsigned o = 0; o < P; o++) begin
        assert (out_free[o] == !(|(st_sel[o] & ~st_release)))
          else $error("asw_switch: out_free[%0d] disagrees with the streaming state", o);
        assert (okeep[o] == keep_or[o])
          else $error("asw_switch: the outputs' keep register %0d disagrees with the inputs'", o);
      end
    end
  end
  // Link protocol (contract §2): per input VC, exactly len flits from head to tail,
  // len in 1..LMAX, dest bits at and above DW zero, VC < V.
  logic [P*8-1:0][7:0] pkt_left_q;  // packed: reset in one assignment at any P
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pkt_left_q <= '0;
    end else begin
      for (int unsigned i = 0; i < P; i++) begin
        if (in_valid_i[i]) begin
          pkt_left_q[i*8 + 32'(in_vc_i[i*3 +: 3])] <=
            (in_head_i[i] ? in_hdr_i[i*64+36 +: 8] : pkt_left_q[i*8 + 32'(in_vc_i[i*3 +: 3])]) - 8'd1;
        end else if (pad_valid[i]) begin  // §18.3 padding completes a cut packet
          pkt_left_q[i*8 + 32'(pad_vc[i*VW +: VW])] <=
            pkt_left_q[i*8 + 32'(pad_vc[i*VW +: VW])] - 8'd1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      for (int unsigned i = 0; i < P; i++) begin
        if (in_valid_i[i]) begin
          logic [7:0] left;
          logic [7:0] len;
          left = pkt_left_q[i*8 + 32'(in_vc_i[i*3 +: 3])];
          len = in_hdr_i[i*64+36 +: 8];
          assert (32'(in_vc_i[i*3 +: 3]) < V)
            else $error("asw_switch: protocol error on input %0d: VC %0d >= V", i, in_vc_i[i*3 +: 3]);
          if (in_head_i[i]) begin
            assert (left == 8'd0)
              else $error("asw_switch: protocol error on input %0d: head inside a packet", i);
            // constant-true upper bound when LMAX = 255 (the 8-bit field's maximum)
            /* verilator lint_off CMPCONST */
            assert (len >= 8'd1 && 32'(len) <= LMAX)
              else $error("asw_switch: protocol error on input %0d: len %0d outside 1..LMAX", i, len);
            /* verilator lint_on CMPCONST */
            assert ((32'(in_hdr_i[i*64 +: 16]) >> DW) == 0)
              else $error("asw_switch: protocol error on input %0d: dest bits above DW set", i);
            assert (in_tail_i[i] == (len == 8'd1))
              else $error("asw_switch: protocol error on input %0d: tail flag vs len", i);
          end else begin
            assert (left != 8'd0)
              else $error("asw_switch: protocol error on input %0d: body flit outside a packet", i);
            assert (in_tail_i[i] == (left == 8'd1))
              else $error("asw_switch: protocol error on input %0d: tail flag vs len", i);
          end
        end
      end
      for (int unsigned o = 0; o < P; o++) begin
        int unsigned senders;
        senders = 0;
        for (int unsigned i = 0; i < P; i++) begin
          senders += (st_valid[i] && (32'(st_out[i]) == o)) ? 1 : 0;
        end
        assert (senders <= 1) else $error("asw_switch: %0d inputs send to output %0d", senders, o);
      end
    end
  end
`endif
endmodule
