// asw_system.sv — the self-testing board system (docs/boards.md): one asw_switch, one
// end node (rtl/system/end_node.sv: traffic generator + checker) per port, a UART host
// bridge (host_bridge.sv) and the system registers that program and run traffic tests.
// Board tops (synth/boards/) add only clocking, reset and pins. LEDs: led_o[0] heartbeat,
// [1] a test is running, [2] the last test passed, [3] a test failed.
module asw_system #(
  parameter int unsigned P = 2,          // asw_switch parameters (contract §1); P <= 32,
  parameter int unsigned V = 1,          // V a power of two, PW a multiple of 8 in 8..64
  parameter int unsigned BUF = 4,
  parameter int unsigned LMAX = 4,
  parameter int unsigned PW = 8,
  parameter int unsigned DW = 4,
  parameter int unsigned TABLE = 16,
  parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1,
  parameter int unsigned AE = 0,
  // optional hardware built (contract §1, asw_switch): every feature off by default
  parameter bit BubbleEn = 1'b0, parameter bit PfcEn = 1'b0, parameter bit QcnEn = 1'b0,
  parameter bit RouteHashEn = 1'b0, parameter bit LinkFaultEn = 1'b0,
  parameter bit PortRateEn = 1'b0, parameter bit VcAdaptEn = 1'b0,
  parameter bit RouteOblivEn = 1'b0, parameter bit RouteAdaptEn = 1'b0,
  parameter bit CountersEn = 1'b0, parameter bit ReadbackEn = 1'b0,
  parameter int unsigned DIV = 104,      // UART clocks per bit (clock / baud rate)
  parameter int unsigned TIMEOUT = 1000, // truncated-frame timeout in bit times
  parameter int unsigned CNTW = 32,      // width of the end nodes' and histogram counters
  parameter int unsigned CLK_KHZ = 12000,// clock frequency, read by the host (SYS_CLK_KHZ)
  parameter int unsigned AUTOSTART = 1,  // 1: run the default test after reset
  parameter int unsigned AUTO_CYCLES = 1 << 20, // default DURATION
  parameter int unsigned BLINK = 22,     // heartbeat LED: bit BLINK of a free-running counter
  parameter int unsigned DRAIN = 24,     // a test not drained 2^DRAIN cycles after it stops fails
  localparam int unsigned NCNT = 10,  // port counters in the register map (k = 0..9)
  localparam int unsigned NEV = 8,    // of which counted events, plus lat_sum in the bank
  localparam int unsigned NBIN = 8
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       uart_rx_i,
  output logic       uart_tx_o,
  output logic [3:0] led_o
);
  if (P > 32) begin : gen_bad_p
    $fatal(1, "asw_system: P=%0d must be <= 32 (PORT_MASK is one register)", P);
  end
  if (DW > 8 && TABLE > 256) begin : gen_note_dw
    // any DW is legal; FWD entries 0..P-1 are programmed at reset
  end
  localparam int unsigned PIW = asw_pkg::idx_w(P);
  localparam int unsigned CTW = $clog2(P * LMAX + P + 2) + 8;  // in-flight packets
  localparam logic [31:0] SysIdValue = 32'h41534231;  // "ASB1"

  // ---- system registers (docs/boards.md "System registers") ----------------------
  logic        sys_en, sys_we;
  logic [11:0] sys_addr;
  logic [31:0] sys_wdata, sys_rdata_q, sys_rdata_d;
  logic        sys_err_q, sys_err_d;
  logic [15:0] seed_q, seed_d;
  logic [1:0]  pattern_q, pattern_d;
  logic [5:0]  pport_q, pport_d;
  logic [7:0]  frac_q, frac_d;
  logic [7:0]  len_q, len_d;
  logic        randlen_q, randlen_d;
  logic [8:0]  load_q, load_d, sink_q, sink_d;
  logic [31:0] dur_q, dur_d;
  logic [P-1:0] mask_q, mask_d;
  logic [2:0]  hshift_q, hshift_d;
  logic        running_q, running_d, stop_q, stop_d, done_q, done_d, pass_q, pass_d;
  logic        fail_q, fail_d, tmo_q, tmo_d, start;
  logic [31:0] tcyc_q, tcyc_d;
  logic [CTW-1:0] infl_q, infl_d;
  logic [DRAIN:0] drain_q, drain_d;
  logic        auto_q, init_done, activity;

  // end-node status
  logic [P-1:0] head_sent, pkt_done, idle, err;
  logic [7:0]   lat[P], lat_max[P];
  logic [NEV-1:0] ev[P];

  // latency histogram: bin of each completing packet, ports per bin this cycle
  logic [PIW:0] bin_cnt[NBIN];
  always_comb begin
    for (int unsigned b = 0; b < NBIN; b++) begin
      bin_cnt[b] = '0;
    end
    for (int unsigned p = 0; p < P; p++) begin
      logic [7:0] sh;
      sh = lat[p] >> hshift_q;
      for (int unsigned b = 0; b < NBIN; b++) begin
        if (pkt_done[p] && ((b == NBIN - 1) ? (sh >= 8'(NBIN - 1)) : (sh == 8'(b)))) begin
          bin_cnt[b] = bin_cnt[b] + 1'b1;
        end
      end
    end
  end

  // ---- counters of the end nodes and the histogram: one block-RAM bank -------------
  // counter p*NB9 + k: node p's event k (k < NEV) or its lat_sum (k = NEV); then the bins
  localparam int unsigned NB9 = NEV + 1;
  localparam int unsigned NBANK = P * NB9 + NBIN;
  localparam int unsigned BIW = asw_pkg::idx_w(NBANK);
  localparam int unsigned ANW = $clog2(P * NBANK + 1);   // holds a sweep of increments
  localparam int unsigned AWW = 8 + $clog2(NBANK + 1);   // lat_sum: up to 255 per cycle
  function automatic logic [NBANK-1:0] wide_mask();
    logic [NBANK-1:0] m;
    m = '0;
    for (int unsigned p = 0; p < P; p++) begin
      m[p * NB9 + NEV] = 1'b1;
    end
    return m;
  endfunction
  logic [NBANK*AWW-1:0] bank_inc;
  logic          bank_req_q, bank_req_d, bank_valid, sys_rvalid_q, sys_rvalid_d;
  logic [BIW-1:0] bank_idx_q, bank_idx_d;
  logic [CNTW-1:0] bank_data;
  always_comb begin
    bank_inc = '0;
    for (int unsigned p = 0; p < P; p++) begin
      for (int unsigned k = 0; k < NEV; k++) begin
        bank_inc[(p * NB9 + k) * AWW +: AWW] = AWW'(ev[p][k]);
      end
      bank_inc[(p * NB9 + NEV) * AWW +: AWW] = pkt_done[p] ? AWW'(lat[p]) : '0;
    end
    for (int unsigned b = 0; b < NBIN; b++) begin
      bank_inc[(P * NB9 + b) * AWW +: AWW] = AWW'(bin_cnt[b]);
    end
  end
  cnt_bank #(
    .N(NBANK), .W(CNTW), .NW(ANW), .WW(AWW), .WIDE(wide_mask())
  ) u_bank (
    .clk_i,
    .rst_ni,
    .clear_i   (start),
    .inc_i     (bank_inc),
    .rd_req_i  (bank_req_q),
    .rd_idx_i  (bank_idx_q),
    .rd_valid_o(bank_valid),
    .rd_data_o (bank_data)
  );

  logic gens_over, all_idle, any_err, quiet;
  assign gens_over = stop_q || (tcyc_q >= dur_q);
  assign all_idle = &idle;
  assign any_err = |err;
  assign quiet = running_q && gens_over && all_idle && (infl_q == '0);

  always_comb begin
    seed_d = seed_q;
    pattern_d = pattern_q;
    pport_d = pport_q;
    frac_d = frac_q;
    len_d = len_q;
    randlen_d = randlen_q;
    load_d = load_q;
    sink_d = sink_q;
    dur_d = dur_q;
    mask_d = mask_q;
    hshift_d = hshift_q;
    running_d = running_q;
    stop_d = stop_q;
    done_d = done_q;
    pass_d = pass_q;
    fail_d = fail_q;
    tmo_d = tmo_q;
    tcyc_d = tcyc_q;
    infl_d = infl_q;
    drain_d = drain_q;
    start = 1'b0;
    sys_err_d = 1'b0;
    sys_rdata_d = '0;
    sys_rvalid_d = sys_en;   // answered next cycle, except counters read from the bank
    bank_req_d = bank_req_q && !bank_valid;
    bank_idx_d = bank_idx_q;
    if (bank_valid) begin
      sys_rvalid_d = 1'b1;
      sys_rdata_d = 32'(bank_data);
    end

    // test progress: one adder per histogram bin, adding the ports that fall in it
    for (int unsigned p = 0; p < P; p++) begin
      infl_d = infl_d + CTW'(head_sent[p]) - CTW'(pkt_done[p]);
    end
    if (running_q) begin
      if (quiet || drain_q[DRAIN]) begin
        running_d = 1'b0;
        done_d = 1'b1;
        tmo_d = !quiet;
        pass_d = quiet && !any_err;
        fail_d = !pass_d;
      end else begin
        tcyc_d = tcyc_q + 32'd1;
        if (gens_over) begin
          drain_d = drain_q + 1'b1;
        end
      end
    end

    // register access
    if (sys_en) begin
      if (sys_we) begin
        // every write but CTRL.stop is refused while a test runs
        sys_err_d = running_q && !(sys_addr == 12'h003 && sys_wdata == 32'd2);
        unique case (sys_addr)
          12'h003: begin
            if (sys_wdata == 32'd1 && !running_q) begin
              start = 1'b1;
            end else if (sys_wdata == 32'd2) begin
              stop_d = running_q;
            end else begin
              sys_err_d = 1'b1;
            end
          end
          12'h005: begin
            if (sys_wdata[31:16] != '0) sys_err_d = 1'b1;
            else if (!running_q) seed_d = sys_wdata[15:0];
          end
          12'h006: begin
            if (sys_wdata[1:0] == 2'd3 || sys_wdata[7:2] != '0 || sys_wdata[15:14] != '0
                || sys_wdata[31:24] != '0 || 32'(sys_wdata[13:8]) >= P) begin
              sys_err_d = 1'b1;
            end else if (!running_q) begin
              pattern_d = sys_wdata[1:0];
              pport_d = sys_wdata[13:8];
              frac_d = sys_wdata[23:16];
            end
          end
          12'h007: begin
            if (sys_wdata[7:0] == '0 || 32'(sys_wdata[7:0]) > LMAX || sys_wdata[31:9] != '0) begin
              sys_err_d = 1'b1;
            end else if (!running_q) begin
              len_d = sys_wdata[7:0];
              randlen_d = sys_wdata[8];
            end
          end
          12'h008: begin
            if (sys_wdata[8:0] > 9'd256 || sys_wdata[24:16] > 9'd256 || sys_wdata[24:16] == '0
                || sys_wdata[15:9] != '0 || sys_wdata[31:25] != '0) begin
              sys_err_d = 1'b1;
            end else if (!running_q) begin
              load_d = sys_wdata[8:0];
              sink_d = sys_wdata[24:16];
            end
          end
          12'h009: begin
            if (!running_q) dur_d = sys_wdata;
          end
          12'h00A: begin
            if ((sys_wdata >> P) != '0) sys_err_d = 1'b1;
            else if (!running_q) mask_d = P'(sys_wdata);
          end
          12'h00B: begin
            if (sys_wdata[31:3] != '0) sys_err_d = 1'b1;
            else if (!running_q) hshift_d = sys_wdata[2:0];
          end
          default: sys_err_d = 1'b1;  // read-only or unmapped
        endcase
      end else begin
        unique casez (sys_addr)
          12'h000: sys_rdata_d = SysIdValue;
          12'h001: sys_rdata_d = {16'(DIV), 8'(NBIN), 8'(CNTW)};
          12'h002: sys_rdata_d = CLK_KHZ;
          12'h003, 12'h004: sys_rdata_d = {26'd0, init_done, tmo_q, fail_q, pass_q, done_q,
                                           running_q};
          12'h005: sys_rdata_d = {16'd0, seed_q};
          12'h006: sys_rdata_d = {8'd0, frac_q, 2'd0, pport_q, 6'd0, pattern_q};
          12'h007: sys_rdata_d = {23'd0, randlen_q, len_q};
          12'h008: sys_rdata_d = {7'd0, sink_q, 7'd0, load_q};
          12'h009: sys_rdata_d = dur_q;
          12'h00A: sys_rdata_d = 32'(mask_q);
          12'h00B: sys_rdata_d = {29'd0, hshift_q};
          12'h00C: sys_rdata_d = tcyc_q;
          12'h00D: sys_rdata_d = 32'(infl_q);
          12'h01?: begin
            if (32'(sys_addr[3:0]) < NBIN) begin
              sys_rvalid_d = 1'b0;
              bank_req_d = 1'b1;
              bank_idx_d = BIW'(P * NB9) + BIW'(sys_addr[3:0]);
            end
          end
          12'h1??: begin  // lat_max here; the other counters are read from the bank
            for (int unsigned p = 0; p < P; p++) begin
              if (sys_addr[7:4] == 4'(p) && sys_addr[3:0] == 4'(NCNT - 1)) begin
                sys_rdata_d = 32'(lat_max[p]);
              end
            end
            if (32'(sys_addr[7:4]) < P && sys_addr[3:0] < 4'(NB9)) begin
              sys_rvalid_d = 1'b0;
              bank_req_d = 1'b1;
              bank_idx_d = BIW'(sys_addr[7:4]) * BIW'(NB9) + BIW'(sys_addr[3:0]);
            end
          end
          default: sys_rdata_d = '0;
        endcase
      end
    end
    if (!sys_en && auto_q == 1'b0 && init_done && AUTOSTART != 0) begin
      start = 1'b1;
    end
    if (start) begin
      running_d = 1'b1;
      stop_d = 1'b0;
      done_d = 1'b0;
      pass_d = 1'b0;
      fail_d = 1'b0;
      tmo_d = 1'b0;
      tcyc_d = '0;
      infl_d = '0;
      drain_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seed_q <= 16'd1;
      pattern_q <= 2'd0;
      pport_q <= '0;
      frac_q <= 8'd128;
      len_q <= 8'(LMAX);
      randlen_q <= 1'b1;
      load_q <= 9'd256;
      sink_q <= 9'd256;
      dur_q <= AUTO_CYCLES;
      mask_q <= '1;
      hshift_q <= '0;
      running_q <= 1'b0;
      stop_q <= 1'b0;
      done_q <= 1'b0;
      pass_q <= 1'b0;
      fail_q <= 1'b0;
      tmo_q <= 1'b0;
      tcyc_q <= '0;
      infl_q <= '0;
      drain_q <= '0;
      sys_rdata_q <= '0;
      sys_err_q <= 1'b0;
      sys_rvalid_q <= 1'b0;
      bank_req_q <= 1'b0;
      bank_idx_q <= '0;
      auto_q <= 1'b0;
    end else begin
      seed_q <= seed_d;
      pattern_q <= pattern_d;
      pport_q <= pport_d;
      frac_q <= frac_d;
      len_q <= len_d;
      randlen_q <= randlen_d;
      load_q <= load_d;
      sink_q <= sink_d;
      dur_q <= dur_d;
      mask_q <= mask_d;
      hshift_q <= hshift_d;
      running_q <= running_d;
      stop_q <= stop_d;
      done_q <= done_d;
      pass_q <= pass_d;
      fail_q <= fail_d;
      tmo_q <= tmo_d;
      tcyc_q <= tcyc_d;
      infl_q <= infl_d;
      drain_q <= drain_d;
      sys_rdata_q <= sys_rdata_d;
      sys_err_q <= sys_err_d;
      sys_rvalid_q <= sys_rvalid_d;
      bank_req_q <= bank_req_d;
      bank_idx_q <= bank_idx_d;
      auto_q <= auto_q | init_done;
    end
  end

  // ---- host bridge -----------------------------------------------------------------
  logic        reg_en, reg_we, reg_rvalid;
  logic [19:0] reg_addr;
  logic [31:0] reg_wdata, reg_rdata;

  host_bridge #(.P(P), .TABLE(TABLE), .DIV(DIV), .TIMEOUT(TIMEOUT)) u_bridge (
    .clk_i,
    .rst_ni,
    .rx_i        (uart_rx_i),
    .tx_o        (uart_tx_o),
    .init_done_o (init_done),
    .activity_o  (activity),
    .reg_en_o    (reg_en),
    .reg_we_o    (reg_we),
    .reg_addr_o  (reg_addr),
    .reg_wdata_o (reg_wdata),
    .reg_rvalid_i(reg_rvalid),
    .reg_rdata_i (reg_rdata),
    .sys_en_o    (sys_en),
    .sys_we_o    (sys_we),
    .sys_addr_o  (sys_addr),
    .sys_wdata_o (sys_wdata),
    .sys_rdata_i (sys_rdata_q),
    .sys_rvalid_i(sys_rvalid_q),
    .sys_err_i   (sys_err_q)
  );

  // ---- switch and end nodes --------------------------------------------------------
  logic [P-1:0]    in_valid, in_head, in_tail, out_valid, out_head, out_tail;
  logic [P*3-1:0]  in_vc, out_vc, cr_out_vc, cr_in_vc;
  logic [P*64-1:0] in_hdr, out_hdr;
  logic [P*PW-1:0] in_payload, out_payload;
  logic [P-1:0]    cr_out_valid, cr_in_valid, arn_out_valid;
  logic [P*32-1:0] arn_out_data;

  // §17.4 CNMs of the switch: not carried by this wrapper (only QCN_CTRL.en = 1 makes
  // any; the C network simulator carries them, tb/net compares them)
  logic [P-1:0]    cnm_valid;
  logic [P*64-1:0] cnm_data;
  // §17.8 CNM lane: no Switch AR here (SE = 0): nothing in, cnm_out always 0
  logic [P-1:0]    cnm_out_valid;
  logic [P*64-1:0] cnm_out_data;
  logic            unused_cnm;
  assign unused_cnm = ^{cnm_valid, cnm_data, cnm_out_valid, cnm_out_data};

  asw_switch #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .AE(AE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn)
  ) u_switch (
    .clk_i,
    .rst_ni,
    .in_valid_i     (in_valid),
    .in_head_i      (in_head),
    .in_tail_i      (in_tail),
    .in_vc_i        (in_vc),
    .in_hdr_i       (in_hdr),
    .in_payload_i   (in_payload),
    .out_valid_o    (out_valid),
    .out_head_o     (out_head),
    .out_tail_o     (out_tail),
    .out_vc_o       (out_vc),
    .out_hdr_o      (out_hdr),
    .out_payload_o  (out_payload),
    .cr_out_valid_o (cr_out_valid),
    .cr_out_vc_o    (cr_out_vc),
    .cr_in_valid_i  (cr_in_valid),
    .cr_in_vc_i     (cr_in_vc),
    .arn_out_valid_o(arn_out_valid),
    .arn_out_data_o (arn_out_data),
    .arn_in_valid_i ('0),
    .arn_in_data_i  ('0),
    .cnm_valid_o    (cnm_valid),
    .cnm_data_o     (cnm_data),
    .cnm_in_valid_i ('0),
    .cnm_in_data_i  ('0),
    .cnm_out_valid_o(cnm_out_valid),
    .cnm_out_data_o (cnm_out_data),
    .reg_en_i       (reg_en),
    .reg_we_i       (reg_we),
    .reg_addr_i     (reg_addr),
    .reg_wdata_i    (reg_wdata),
    .reg_rvalid_o   (reg_rvalid),
    .reg_rdata_o    (reg_rdata),
    .link_up_i      ('1),  // §18: links never fail here
    .link_rx_up_i   ('1)
  );

  for (genvar p = 0; p < P; p++) begin : gen_node
    end_node #(
      .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .INDEX(p)
    ) u_node (
      .clk_i,
      .rst_ni,
      .start_i       (start),
      .seed_i        (seed_q),
      .gen_on_i      (running_q && !gens_over && mask_q[p]),
      .pattern_i     (pattern_q),
      .pport_i       (pport_q),
      .frac_i        (frac_q),
      .len_i         (len_q),
      .randlen_i     (randlen_q),
      .load_i        (load_q),
      .sink_i        (sink_q),
      .tcyc_i        (tcyc_q[7:0]),
      .tx_valid_o    (in_valid[p]),
      .tx_head_o     (in_head[p]),
      .tx_tail_o     (in_tail[p]),
      .tx_vc_o       (in_vc[p*3 +: 3]),
      .tx_hdr_o      (in_hdr[p*64 +: 64]),
      .tx_payload_o  (in_payload[p*PW +: PW]),
      .tx_cr_valid_i (cr_out_valid[p]),
      .tx_cr_vc_i    (cr_out_vc[p*3 +: 3]),
      .rx_valid_i    (out_valid[p]),
      .rx_head_i     (out_head[p]),
      .rx_tail_i     (out_tail[p]),
      .rx_vc_i       (out_vc[p*3 +: 3]),
      .rx_hdr_i      (out_hdr[p*64 +: 64]),
      .rx_payload_i  (out_payload[p*PW +: PW]),
      .rx_cr_valid_o (cr_in_valid[p]),
      .rx_cr_vc_o    (cr_in_vc[p*3 +: 3]),
      .head_sent_o   (head_sent[p]),
      .pkt_done_o    (pkt_done[p]),
      .lat_o         (lat[p]),
      .idle_o        (idle[p]),
      .error_o       (err[p]),
      .ev_o          (ev[p]),
      .lat_max_o     (lat_max[p])
    );
  end

  // ---- LEDs ------------------------------------------------------------------------
  logic [BLINK:0] blink_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      blink_q <= '0;
    end else begin
      blink_q <= blink_q + 1'b1;
    end
  end
  assign led_o = {fail_q || (running_q && any_err), pass_q, running_q,
                  blink_q[BLINK] ^ activity};

  logic unused;
  assign unused = ^{arn_out_valid, arn_out_data};
endmodule
