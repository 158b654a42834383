// asw_switch.sv — arnswitch top: parameter checks, per-input buffers and route
// computation, iSLIP allocator, credit counters, crossbar (ST), output registers and
// register block (docs/microarchitecture.md). Ports are the link interface of §3
// flattened per port (port p at [p*W +: W]) plus the register bus of §10.
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
  parameter int unsigned AE = 0,
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
  // ARN messages (reserved: outputs 0, inputs ignored)
  output logic [P-1:0]     arn_out_valid_o,
  output logic [P*32-1:0]  arn_out_data_o,
  input  logic [P-1:0]     arn_in_valid_i,
  input  logic [P*32-1:0]  arn_in_data_i,
  // register bus
  input  logic            reg_en_i,
  input  logic            reg_we_i,
  input  logic [19:0]     reg_addr_i,
  input  logic [31:0]     reg_wdata_i,
  output logic            reg_rvalid_o,
  output logic [31:0]     reg_rdata_o
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
  if (AE > 32) begin : gen_bad_ae
    $fatal(1, "asw_switch: parameter AE=%0d out of range 0..32", AE);
  end

  localparam int unsigned NQ = (VOQ != 0) ? P : 1;
  localparam int unsigned B = V * BUF;
  localparam int unsigned VW = asw_pkg::idx_w(V);
  localparam int unsigned SW = asw_pkg::idx_w(B);
  localparam int unsigned PIW = asw_pkg::idx_w(P);
  localparam int unsigned TW = asw_pkg::idx_w(TABLE);
  localparam int unsigned CW = asw_pkg::cnt_w(BUF);

  // ---- register block ----------------------------------------------------------
  logic [1:0]  mode;
  logic [1:0]  trigger;
  logic [7:0]  stage_mask;
  logic [3:0]  stage;
  logic [6:0]  delta;
  logic        vc_obqa;
  logic        afi;
  logic [15:0] ltth, htth;
  logic [5:0]  default_port;
  logic [4*P-1:0] cset;
  logic [P*16*VW-1:0] sl2vc;
  logic        seed_we;
  logic [15:0] seed;
  logic        fwd_we;
  logic [TW-1:0] fwd_addr;
  logic [15:0] fwd_wdata;
  logic [15:0] fwd_rdata[P];

  logic [P-1:0] ev_flits_out, ev_packets_out, ev_credit_stall, ev_sa_lost;
  logic [P-1:0] ev_route_errors, ev_adaptive;
  logic [P*V*NQ*CW-1:0] occ_all;
  logic [P*V*CW-1:0] cred;
  logic [P*V-1:0] cong_next;

  regs #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .reg_en_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .reg_rvalid_o,
    .reg_rdata_o,
    .mode_o          (mode),
    .trigger_o       (trigger),
    .stage_mask_o    (stage_mask),
    .stage_o         (stage),
    .delta_o         (delta),
    .vc_obqa_o       (vc_obqa),
    .afi_o           (afi),
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
    .fwd_rdata_i     (fwd_rdata[0]),
    .ev_flits_in_i   (in_valid_i),
    .ev_flits_out_i  (ev_flits_out),
    .ev_packets_in_i (in_valid_i & in_head_i),
    .ev_packets_out_i(ev_packets_out),
    .ev_credit_stall_i(ev_credit_stall),
    .ev_sa_lost_i    (ev_sa_lost),
    .ev_route_errors_i(ev_route_errors),
    .ev_adaptive_i   (ev_adaptive),
    .occ_i           (occ_all),
    .cred_i          (cred)
  );

  // ---- per-input blocks ------------------------------------------------------------
  logic [P-1:0]   st_valid, st_head, st_tail;
  logic [PIW-1:0] st_out[P];
  logic [VW-1:0]  st_ovc[P];
  logic [VW-1:0]  st_vc[P];
  logic [63:0]    st_hdr[P];
  logic [PWE-1:0] st_payload[P];
  logic [P-1:0]   busy;
  logic [PIW-1:0] busy_out[P];
  logic [P-1:0]   out_free;
  logic [P*V*P-1:0] req;
  logic [P-1:0]   stall[P];
  logic [P-1:0]   match_valid;
  logic [P*PIW-1:0] match_out;
  logic [P*VW-1:0] match_vc;
  logic [7:0]     match_len[P];
  logic [VW-1:0]  match_ovc[P];

  for (genvar i = 0; i < P; i++) begin : gen_input
    logic [SW-1:0]  iw_slot;
    logic           rc_valid;
    logic [VW-1:0]  rc_vc;
    logic [SW-1:0]  rc_slot;
    logic [7:0]     rc_len;
    logic [PIW-1:0] rc_oport;
    logic [VW-1:0]  rc_ovc;
    logic [VW-1:0]  in_vc;
    assign in_vc = in_vc_i[i*3 +: VW];

    route_compute #(
      .P(P), .V(V), .BUF(BUF), .TABLE(TABLE), .INDEX(i)
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
      .fwd_raddr_i   (fwd_addr),
      .fwd_rdata_o   (fwd_rdata[i]),
      .mode_i        (mode),
      .trigger_i     (trigger),
      .stage_mask_i  (stage_mask),
      .stage_i       (stage),
      .delta_i       (delta),
      .vc_obqa_i     (vc_obqa),
      .afi_i         (afi),
      .ltth_i        (ltth),
      .default_port_i(default_port),
      .cset_i        (cset),
      .sl2vc_i       (sl2vc),
      .seed_we_i     (seed_we),
      .seed_i        (seed),
      .cred_i        (cred),
      .cong_next_i   (cong_next),
      .rc_valid_o    (rc_valid),
      .rc_vc_o       (rc_vc),
      .rc_slot_o     (rc_slot),
      .rc_len_o      (rc_len),
      .rc_oport_o    (rc_oport),
      .rc_ovc_o      (rc_ovc),
      .route_error_o (ev_route_errors[i]),
      .adaptive_o    (ev_adaptive[i])
    );

    input_buffer #(
      .P(P), .V(V), .BUF(BUF), .PW(PW), .VOQ(VOQ)
    ) u_ib (
      .clk_i,
      .rst_ni,
      .in_valid_i    (in_valid_i[i]),
      .in_head_i     (in_head_i[i]),
      .in_tail_i     (in_tail_i[i]),
      .in_vc_i       (in_vc),
      .in_hdr_i      (in_hdr_i[i*64 +: 64]),
      .in_payload_i  (in_payload_i[i*PWE +: PWE]),
      .iw_slot_o     (iw_slot),
      .rc_valid_i    (rc_valid),
      .rc_vc_i       (rc_vc),
      .rc_slot_i     (rc_slot),
      .rc_len_i      (rc_len),
      .rc_oport_i    (rc_oport),
      .rc_ovc_i      (rc_ovc),
      .st_valid_o    (st_valid[i]),
      .st_out_o      (st_out[i]),
      .st_head_o     (st_head[i]),
      .st_tail_o     (st_tail[i]),
      .st_ovc_o      (st_ovc[i]),
      .st_vc_o       (st_vc[i]),
      .st_hdr_o      (st_hdr[i]),
      .st_payload_o  (st_payload[i]),
      .busy_o        (busy[i]),
      .busy_out_o    (busy_out[i]),
      .out_free_i    (out_free),
      .cred_i        (cred),
      .req_o         (req[i*V*P +: V*P]),
      .stall_o       (stall[i]),
      .match_valid_i (match_valid[i]),
      .match_out_i   (match_out[i*PIW +: PIW]),
      .match_vc_i    (match_vc[i*VW +: VW]),
      .match_len_o   (match_len[i]),
      .match_ovc_o   (match_ovc[i]),
      .occ_o         (occ_all[i*V*NQ*CW +: V*NQ*CW])
    );
  end

  // Output o is free unless an input streams to it and does not release it this cycle.
  always_comb begin
    out_free = '1;
    for (int unsigned i = 0; i < P; i++) begin
      if (busy[i] && !(st_valid[i] && st_tail[i])) begin
        out_free[busy_out[i]] = 1'b0;
      end
    end
  end

  // ---- switch allocation -------------------------------------------------------------
  logic [P-1:0] out_matched;
  logic [P-1:0] in_requested;

  islip #(.P(P), .V(V), .ITERS(ITERS)) u_islip (
    .clk_i,
    .rst_ni,
    .req_i          (req),
    .match_valid_o  (match_valid),
    .match_out_o    (match_out),
    .match_vc_o     (match_vc),
    .out_matched_o  (out_matched),
    .in_requested_o (in_requested)
  );

  // Per-output view of the matches for the credit counters.
  logic [P-1:0]    cm_valid;
  logic [P*VW-1:0] cm_ovc;
  logic [P*8-1:0]  cm_len;
  logic [P-1:0]    stall_any;
  always_comb begin
    cm_valid = '0;
    cm_ovc = '0;
    cm_len = '0;
    stall_any = '0;
    for (int unsigned i = 0; i < P; i++) begin
      if (match_valid[i]) begin
        cm_valid[match_out[i*PIW +: PIW]] = 1'b1;
        cm_ovc[32'(match_out[i*PIW +: PIW])*VW +: VW] = match_ovc[i];
        cm_len[32'(match_out[i*PIW +: PIW])*8 +: 8] = match_len[i];
      end
      stall_any = stall_any | stall[i];
    end
    ev_credit_stall = out_free & ~out_matched & stall_any;
    ev_sa_lost = in_requested & ~match_valid;
  end

  credits #(.P(P), .V(V), .BUF(BUF)) u_credits (
    .clk_i,
    .rst_ni,
    .match_valid_i (cm_valid),
    .match_ovc_i   (cm_ovc),
    .match_len_i   (cm_len),
    .cr_in_valid_i,
    .cr_in_vc_i,
    .ltth_i        (ltth),
    .htth_i        (htth),
    .cred_o        (cred),
    .cong_next_o   (cong_next)
  );

  // ---- crossbar (ST) and output registers ---------------------------------------------
  logic [P-1:0]     xb_valid, xb_head, xb_tail;
  logic [P*3-1:0]   xb_vc;
  logic [P*64-1:0]  xb_hdr;
  logic [P*PWE-1:0] xb_payload;
  logic [P-1:0]     cr_valid_d;
  logic [P*3-1:0]   cr_vc_d;
  always_comb begin
    xb_valid = '0;
    xb_head = '0;
    xb_tail = '0;
    xb_vc = '0;
    xb_hdr = '0;
    xb_payload = '0;
    cr_valid_d = '0;
    cr_vc_d = '0;
    for (int unsigned i = 0; i < P; i++) begin
      if (st_valid[i]) begin
        xb_valid[st_out[i]] = 1'b1;
        xb_head[st_out[i]] = st_head[i];
        xb_tail[st_out[i]] = st_tail[i];
        xb_vc[32'(st_out[i])*3 +: 3] = 3'(st_ovc[i]);
        xb_hdr[32'(st_out[i])*64 +: 64] = st_hdr[i];
        xb_payload[32'(st_out[i])*PWE +: PWE] = (PW == 0) ? '0 : st_payload[i];
        cr_valid_d[i] = 1'b1;
        cr_vc_d[i*3 +: 3] = 3'(st_vc[i]);
      end
    end
  end
  assign ev_flits_out = xb_valid;
  assign ev_packets_out = xb_valid & xb_head;

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
      out_valid_o <= xb_valid;
      out_head_o <= xb_head;
      out_tail_o <= xb_tail;
      out_vc_o <= xb_vc;
      out_hdr_o <= xb_hdr;
      out_payload_o <= xb_payload;
      cr_out_valid_o <= cr_valid_d;
      cr_out_vc_o <= cr_vc_d;
    end
  end

  // ARN is reserved until the ARN issue defines it (contract §3).
  assign arn_out_valid_o = '0;
  assign arn_out_data_o = '0;

  logic unused_inputs;
  assign unused_inputs = ^{arn_in_valid_i, arn_in_data_i, in_vc_i, in_payload_i};

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
  // Link protocol (contract §2): per input VC, exactly len flits from head to tail,
  // len in 1..LMAX, dest bits at and above DW zero, VC < V.
  logic [7:0] pkt_left_q[P*8];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned k = 0; k < P*8; k++) begin
        pkt_left_q[k] <= '0;
      end
    end else begin
      for (int unsigned i = 0; i < P; i++) begin
        if (in_valid_i[i]) begin
          pkt_left_q[i*8 + 32'(in_vc_i[i*3 +: 3])] <=
            (in_head_i[i] ? in_hdr_i[i*64+36 +: 8] : pkt_left_q[i*8 + 32'(in_vc_i[i*3 +: 3])]) - 8'd1;
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
            assert (len >= 8'd1 && 32'(len) <= LMAX)
              else $error("asw_switch: protocol error on input %0d: len %0d outside 1..LMAX", i, len);
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
