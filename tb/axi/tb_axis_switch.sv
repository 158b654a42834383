// tb_axis_switch.sv — cocotb toplevel (tb/axi/test_axis_switch.py): asw_axis_switch with
// P = 4 and one named AXI4-Stream interface per port (s<p>_axis_*, m<p>_axis_*), as
// cocotbext-axi expects, plus the AXI4-Lite port s_axil_*. Parameters are those of the
// test (the test reads them from the toplevel).
module tb_axis_switch #(
  parameter int unsigned P = 4,       // ports: this wrapper names 4
  parameter int unsigned V = 2,       // virtual channels
  parameter int unsigned BUF = 16,    // buffer per VC, flits
  parameter int unsigned LMAX = 8,    // longest packet, beats
  parameter int unsigned PW = 32,     // payload bits (tdata width)
  parameter int unsigned DW = 8,      // destination bits (tdest width)
  parameter int unsigned TABLE = 32,  // forwarding-table entries
  parameter int unsigned VOQ = 1,     // virtual output queues
  parameter int unsigned ITERS = 1,   // iSLIP iterations
  // contract §1: the counters and the OCC / CRED read-back the test compares with the model
  parameter bit CountersEn = 1'b1,
  parameter bit ReadbackEn = 1'b1,
  localparam int unsigned UW = 51
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          s0_axis_tvalid,
  output logic          s0_axis_tready,
  input  logic [PW-1:0] s0_axis_tdata,
  input  logic          s0_axis_tlast,
  input  logic [DW-1:0] s0_axis_tdest,
  input  logic [UW-1:0] s0_axis_tuser,
  output logic          m0_axis_tvalid,
  input  logic          m0_axis_tready,
  output logic [PW-1:0] m0_axis_tdata,
  output logic          m0_axis_tlast,
  output logic [DW-1:0] m0_axis_tdest,
  output logic [UW-1:0] m0_axis_tuser,
  input  logic          s1_axis_tvalid,
  output logic          s1_axis_tready,
  input  logic [PW-1:0] s1_axis_tdata,
  input  logic          s1_axis_tlast,
  input  logic [DW-1:0] s1_axis_tdest,
  input  logic [UW-1:0] s1_axis_tuser,
  output logic          m1_axis_tvalid,
  input  logic          m1_axis_tready,
  output logic [PW-1:0] m1_axis_tdata,
  output logic          m1_axis_tlast,
  output logic [DW-1:0] m1_axis_tdest,
  output logic [UW-1:0] m1_axis_tuser,
  input  logic          s2_axis_tvalid,
  output logic          s2_axis_tready,
  input  logic [PW-1:0] s2_axis_tdata,
  input  logic          s2_axis_tlast,
  input  logic [DW-1:0] s2_axis_tdest,
  input  logic [UW-1:0] s2_axis_tuser,
  output logic          m2_axis_tvalid,
  input  logic          m2_axis_tready,
  output logic [PW-1:0] m2_axis_tdata,
  output logic          m2_axis_tlast,
  output logic [DW-1:0] m2_axis_tdest,
  output logic [UW-1:0] m2_axis_tuser,
  input  logic          s3_axis_tvalid,
  output logic          s3_axis_tready,
  input  logic [PW-1:0] s3_axis_tdata,
  input  logic          s3_axis_tlast,
  input  logic [DW-1:0] s3_axis_tdest,
  input  logic [UW-1:0] s3_axis_tuser,
  output logic          m3_axis_tvalid,
  input  logic          m3_axis_tready,
  output logic [PW-1:0] m3_axis_tdata,
  output logic          m3_axis_tlast,
  output logic [DW-1:0] m3_axis_tdest,
  output logic [UW-1:0] m3_axis_tuser,
  output logic [P-1:0]  rx_drop,
  input  logic          s_axil_awvalid,
  output logic          s_axil_awready,
  input  logic [21:0]   s_axil_awaddr,
  input  logic          s_axil_wvalid,
  output logic          s_axil_wready,
  input  logic [31:0]   s_axil_wdata,
  input  logic [3:0]    s_axil_wstrb,
  output logic          s_axil_bvalid,
  input  logic          s_axil_bready,
  output logic [1:0]    s_axil_bresp,
  input  logic          s_axil_arvalid,
  output logic          s_axil_arready,
  input  logic [21:0]   s_axil_araddr,
  output logic          s_axil_rvalid,
  input  logic          s_axil_rready,
  output logic [31:0]   s_axil_rdata,
  output logic [1:0]    s_axil_rresp
);
  if (P != 4) begin : gen_bad_p
    $fatal(1, "tb_axis_switch names 4 ports, P=%0d", P);
  end
  logic [P-1:0] arn_out_valid;
  logic [P*32-1:0] arn_out_data;
  logic unused_arn;
  assign unused_arn = ^{arn_out_valid, arn_out_data};

  asw_axis_switch #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .AE(0), .CountersEn(CountersEn), .ReadbackEn(ReadbackEn)
  ) u_dut (
    .clk_i(clk),
    .rst_ni(rst_n),
    .s_axis_tvalid_i({s3_axis_tvalid, s2_axis_tvalid, s1_axis_tvalid, s0_axis_tvalid}),
    .s_axis_tdata_i({s3_axis_tdata, s2_axis_tdata, s1_axis_tdata, s0_axis_tdata}),
    .s_axis_tlast_i({s3_axis_tlast, s2_axis_tlast, s1_axis_tlast, s0_axis_tlast}),
    .s_axis_tdest_i({s3_axis_tdest, s2_axis_tdest, s1_axis_tdest, s0_axis_tdest}),
    .s_axis_tuser_i({s3_axis_tuser, s2_axis_tuser, s1_axis_tuser, s0_axis_tuser}),
    .s_axis_tready_o({s3_axis_tready, s2_axis_tready, s1_axis_tready, s0_axis_tready}),
    .m_axis_tvalid_o({m3_axis_tvalid, m2_axis_tvalid, m1_axis_tvalid, m0_axis_tvalid}),
    .m_axis_tdata_o({m3_axis_tdata, m2_axis_tdata, m1_axis_tdata, m0_axis_tdata}),
    .m_axis_tlast_o({m3_axis_tlast, m2_axis_tlast, m1_axis_tlast, m0_axis_tlast}),
    .m_axis_tdest_o({m3_axis_tdest, m2_axis_tdest, m1_axis_tdest, m0_axis_tdest}),
    .m_axis_tuser_o({m3_axis_tuser, m2_axis_tuser, m1_axis_tuser, m0_axis_tuser}),
    .m_axis_tready_i({m3_axis_tready, m2_axis_tready, m1_axis_tready, m0_axis_tready}),
    .rx_drop_o(rx_drop),
    .arn_out_valid_o(arn_out_valid),
    .arn_out_data_o(arn_out_data),
    .arn_in_valid_i('0),
    .arn_in_data_i('0),
    .s_axil_awvalid_i(s_axil_awvalid),
    .s_axil_awready_o(s_axil_awready),
    .s_axil_awaddr_i(s_axil_awaddr),
    .s_axil_wvalid_i(s_axil_wvalid),
    .s_axil_wready_o(s_axil_wready),
    .s_axil_wdata_i(s_axil_wdata),
    .s_axil_wstrb_i(s_axil_wstrb),
    .s_axil_bvalid_o(s_axil_bvalid),
    .s_axil_bready_i(s_axil_bready),
    .s_axil_bresp_o(s_axil_bresp),
    .s_axil_arvalid_i(s_axil_arvalid),
    .s_axil_arready_o(s_axil_arready),
    .s_axil_araddr_i(s_axil_araddr),
    .s_axil_rvalid_o(s_axil_rvalid),
    .s_axil_rready_i(s_axil_rready),
    .s_axil_rdata_o(s_axil_rdata),
    .s_axil_rresp_o(s_axil_rresp)
  );
endmodule
