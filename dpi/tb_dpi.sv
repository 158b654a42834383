// tb_dpi.sv — example SystemVerilog testbench using the DPI-C golden model: the RTL
// switch (rtl/asw_switch.sv) with random credit-respecting traffic on every input,
// sinks returning credits after random delays, the forwarding table programmed and
// counters read through the register bus; asw_dpi_checker steps the C model beside
// it and compares every output every cycle. Runs under Verilator --binary
// (make test-dpi); any DPI-capable simulator would do.
//   plusargs: +cycles=N (default 4000) +seed=N (default 1)
//             +plant  corrupt one DUT header bit seen by the checker (it must notice)
// Testbench code: blocking assignments in clocked processes are intended.
/* verilator lint_off BLKSEQ */
/* verilator lint_off SYNCASYNCNET */
module tb_dpi #(
  parameter int unsigned P = 4,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 8,
  parameter int unsigned LMAX = 4,
  parameter int unsigned PW = 16,
  parameter int unsigned DW = 8,
  parameter int unsigned TABLE = 32,
  parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1,
  parameter int unsigned AE = 0,
  parameter int unsigned SAPIPE = 0,
  // optional hardware built (contract §1, asw_switch): every feature off by default
  parameter bit BubbleEn = 1'b0, parameter bit PfcEn = 1'b0, parameter bit QcnEn = 1'b0,
  parameter bit RouteHashEn = 1'b0, parameter bit LinkFaultEn = 1'b0,
  parameter bit PortRateEn = 1'b0, parameter bit VcAdaptEn = 1'b0,
  parameter bit RouteOblivEn = 1'b0, parameter bit RouteAdaptEn = 1'b0,
  parameter bit CountersEn = 1'b0, parameter bit ReadbackEn = 1'b0,
  localparam int unsigned PWE = (PW == 0) ? 1 : PW,
  localparam int unsigned Drain = 200  // cycles without new packets at the end
);
  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  logic [P-1:0] in_valid, in_head, in_tail, out_valid, out_head, out_tail;
  logic [P*3-1:0] in_vc, out_vc, cr_out_vc, cr_in_vc;
  logic [P*64-1:0] in_hdr, out_hdr, hdr_seen;
  logic [P*PWE-1:0] in_payload, out_payload;
  logic [P-1:0] cr_out_valid, cr_in_valid, arn_out_valid, arn_in_valid;
  logic [P*32-1:0] arn_out_data, arn_in_data;
  logic reg_en, reg_we, reg_rvalid;
  logic [19:0] reg_addr;
  logic [31:0] reg_wdata, reg_rdata;
  int unsigned mismatches, checked;

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
    .ITERS(ITERS), .AE(AE), .SAPIPE(SAPIPE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn)
  ) u_dut (
    .clk_i(clk), .rst_ni(rst_n),
    .in_valid_i(in_valid), .in_head_i(in_head), .in_tail_i(in_tail), .in_vc_i(in_vc),
    .in_hdr_i(in_hdr), .in_payload_i(in_payload),
    .out_valid_o(out_valid), .out_head_o(out_head), .out_tail_o(out_tail), .out_vc_o(out_vc),
    .out_hdr_o(out_hdr), .out_payload_o(out_payload),
    .cr_out_valid_o(cr_out_valid), .cr_out_vc_o(cr_out_vc),
    .cr_in_valid_i(cr_in_valid), .cr_in_vc_i(cr_in_vc),
    .arn_out_valid_o(arn_out_valid), .arn_out_data_o(arn_out_data),
    .arn_in_valid_i(arn_in_valid), .arn_in_data_i(arn_in_data),
    .cnm_valid_o(cnm_valid), .cnm_data_o(cnm_data),
    .cnm_in_valid_i('0), .cnm_in_data_i('0),
    .cnm_out_valid_o(cnm_out_valid), .cnm_out_data_o(cnm_out_data),
    .reg_en_i(reg_en), .reg_we_i(reg_we), .reg_addr_i(reg_addr), .reg_wdata_i(reg_wdata),
    .reg_rvalid_o(reg_rvalid), .reg_rdata_o(reg_rdata),
    .link_up_i('1), .link_rx_up_i('1)  // §18: links never fail here
  );

  // +plant: one header bit flipped on the way to the checker, once
  bit plant, planted;
  assign hdr_seen = out_hdr ^ ((plant && !planted && out_valid[0] && out_head[0])
                               ? (P*64)'(1) : '0);

  asw_dpi_checker #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .AE(AE), .SAPIPE(SAPIPE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn)
  ) u_check (
    .clk_i(clk), .rst_ni(rst_n),
    .in_valid_i(in_valid), .in_head_i(in_head), .in_tail_i(in_tail), .in_vc_i(in_vc),
    .in_hdr_i(in_hdr), .in_payload_i(in_payload),
    .cr_in_valid_i(cr_in_valid), .cr_in_vc_i(cr_in_vc),
    .arn_in_valid_i(arn_in_valid), .arn_in_data_i(arn_in_data),
    .reg_en_i(reg_en), .reg_we_i(reg_we), .reg_addr_i(reg_addr), .reg_wdata_i(reg_wdata),
    .dut_out_valid_i(out_valid), .dut_out_head_i(out_head), .dut_out_tail_i(out_tail),
    .dut_out_vc_i(out_vc), .dut_out_hdr_i(hdr_seen), .dut_out_payload_i(out_payload),
    .dut_cr_out_valid_i(cr_out_valid), .dut_cr_out_vc_i(cr_out_vc),
    .dut_arn_out_valid_i(arn_out_valid), .dut_arn_out_data_i(arn_out_data),
    .dut_reg_rvalid_i(reg_rvalid), .dut_reg_rdata_i(reg_rdata),
    .mismatches_o(mismatches), .cycles_o(checked)
  );

  // ---- stimulus ------------------------------------------------------------------
  int unsigned cycles = 4000, seed = 1, cyc = 0;
  int unsigned credits[P][V];
  int unsigned left[P], len[P], vc[P], seq[P];
  logic [63:0] hdr[P];
  bit [2:0] sink_q[P][$];  // credits owed upstream per output, by VC
  longint unsigned sent = 0, received = 0, packets = 0, reads = 0;

  initial begin
    void'($value$plusargs("cycles=%d", cycles));
    void'($value$plusargs("seed=%d", seed));
    plant = $test$plusargs("plant");
    planted = 1'b0;
    void'($urandom(seed));
    for (int p = 0; p < P; p++) begin
      left[p] = 0;
      seq[p] = 0;
      for (int v = 0; v < V; v++) credits[p][v] = BUF;
    end
    {in_valid, in_head, in_tail, in_vc, in_hdr, in_payload} = '0;
    {cr_in_valid, cr_in_vc, arn_in_valid, arn_in_data} = '0;
    {reg_en, reg_we, reg_addr, reg_wdata} = '0;
    repeat (2) @(posedge clk);
    rst_n = 1'b1;
  end

  always @(posedge clk) begin : drive
    if (rst_n) begin
      if (plant && !planted && out_valid[0] && out_head[0]) planted <= 1'b1;
      // what the DUT did this cycle (outputs, checked equal to the model's)
      for (int p = 0; p < P; p++) begin
        if (cr_out_valid[p]) credits[p][32'(cr_out_vc[p*3 +: 3])]++;
        if (out_valid[p]) begin
          sink_q[p].push_back(out_vc[p*3 +: 3]);
          received++;
          if (out_head[p]) packets++;
        end
      end
      // next cycle's inputs
      for (int p = 0; p < P; p++) begin
        if (left[p] == 0 && cyc >= TABLE && cyc + Drain < cycles && $urandom % 3 == 0) begin
          automatic int unsigned v = $urandom % V, l = 1 + $urandom % LMAX;
          automatic logic [15:0] d = 16'($urandom % TABLE);
          if (credits[p][v] >= l) begin
            credits[p][v] -= l;
            left[p] = l;
            len[p] = l;
            vc[p] = v;
            hdr[p] = {16'(seq[p]), 3'd0, 1'b0, 8'(l), 4'(v), 16'(p), d};
            seq[p]++;
          end
        end
        in_valid[p] <= left[p] > 0;
        in_head[p] <= left[p] == len[p];
        in_tail[p] <= left[p] == 1;
        in_vc[p*3 +: 3] <= 3'(vc[p]);
        in_hdr[p*64 +: 64] <= (left[p] > 0 && left[p] == len[p]) ? hdr[p] : 64'h0;
        in_payload[p*PWE +: PWE] <= left[p] > 0 ? PWE'($urandom) : '0;
        if (left[p] > 0) begin
          left[p]--;
          sent++;
        end
        // sinks return each credit after a random delay, one per cycle and port
        if (sink_q[p].size() > 0 && $urandom % 4 != 0) begin
          cr_in_valid[p] <= 1'b1;
          cr_in_vc[p*3 +: 3] <= sink_q[p].pop_front();
        end else begin
          cr_in_valid[p] <= 1'b0;
          cr_in_vc[p*3 +: 3] <= 3'd0;
        end
      end
      // register bus: program FWD[d] = port d mod P, then read counters and views
      if (cyc < TABLE) begin
        reg_en <= 1'b1;
        reg_we <= 1'b1;
        reg_addr <= 20'h80000 + 20'(cyc);
        reg_wdata <= 32'h8000_0000 | 32'(cyc % P);
      end else if ($urandom % 8 == 0) begin
        automatic int unsigned k = $urandom % 3, p = $urandom % P;
        reg_en <= 1'b1;
        reg_we <= 1'b0;
        reg_addr <= k == 0 ? 20'h02000 + 20'(8 * p + $urandom % 8) :
                    k == 1 ? 20'h50000 + 20'(8 * p + $urandom % V) :
                             20'h40000 + 20'(512 * p + 64 * ($urandom % V) + $urandom % P);
        reg_wdata <= 32'h0;
        reads++;
      end else begin
        reg_en <= 1'b0;
        reg_we <= 1'b0;
      end
      cyc++;
      if (cyc == cycles) begin
        $display("tb_dpi: cycles %0d checked %0d flits sent %0d received %0d packets %0d reads %0d mismatches %0d",
                 cyc, checked, sent, received, packets, reads, mismatches);
        if (mismatches != 0) $fatal(1, "tb_dpi: FAIL: %0d mismatches with the golden model", mismatches);
        if (sent != received) $fatal(1, "tb_dpi: FAIL: %0d flits not delivered", sent - received);
        if (packets == 0) $fatal(1, "tb_dpi: FAIL: no traffic");
        $display("tb_dpi: PASS");
        $finish;
      end
    end
  end
endmodule
