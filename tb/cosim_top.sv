// cosim_top.sv — the lockstep co-simulation's Verilator top (tb/cosim_main.cpp): asw_switch
// behind one register on every input pin but the clock and the reset.
//
// Why: Verilator re-evaluates all logic that depends on a top-level input on every eval()
// call (its "ico" region), and the harness calls eval() twice per clock (clock low with
// the cycle's inputs, clock high). The switch's routing and request logic reads input
// pins (link_up_i, the flit pins), so it was evaluated three times per cycle: a quarter
// of the co-simulation's instructions (docs/results.md, Speed §5). Behind these registers
// no switch logic depends on a top-level input: it is evaluated once, after the edge.
//
// Timing seen by the harness: the inputs it drives for cycle c reach the switch with the
// edge that starts cycle c, so after that edge the switch's outputs are those of cycle c,
// and its assertions about cycle c fire at the next edge. The first edge is taken with
// rst_ni low: the switch stays in reset while these registers load cycle 0's inputs.
// Nothing of the switch changes; the registers hold no state of their own beyond one cycle.
module cosim_top #(
  parameter int unsigned P = 8,       // asw_switch's parameters (contract §1), passed through
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  parameter int unsigned LMAX = 16,
  parameter int unsigned PW = 32,
  parameter int unsigned DW = 16,
  parameter int unsigned TABLE = 256,
  parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1,
  parameter int unsigned SAPIPE = 0,  // §8.1 pipelined allocation
  parameter int unsigned AE = 0,
  // optional hardware built (contract §1, asw_switch): every feature off by default
  parameter bit BubbleEn = 1'b0, parameter bit PfcEn = 1'b0, parameter bit QcnEn = 1'b0,
  parameter bit RouteHashEn = 1'b0, parameter bit LinkFaultEn = 1'b0,
  parameter bit PortRateEn = 1'b0, parameter bit VcAdaptEn = 1'b0,
  parameter bit RouteOblivEn = 1'b0, parameter bit RouteAdaptEn = 1'b0,
  parameter bit CountersEn = 1'b0, parameter bit ReadbackEn = 1'b0,
  parameter int unsigned SE = 0,
  localparam int unsigned PWE = (PW == 0) ? 1 : PW
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [P-1:0]     in_valid_i,
  input  logic [P-1:0]     in_head_i,
  input  logic [P-1:0]     in_tail_i,
  input  logic [P*3-1:0]   in_vc_i,
  input  logic [P*64-1:0]  in_hdr_i,
  input  logic [P*PWE-1:0] in_payload_i,
  output logic [P-1:0]     out_valid_o,
  output logic [P-1:0]     out_head_o,
  output logic [P-1:0]     out_tail_o,
  output logic [P*3-1:0]   out_vc_o,
  output logic [P*64-1:0]  out_hdr_o,
  output logic [P*PWE-1:0] out_payload_o,
  output logic [P-1:0]     cr_out_valid_o,
  output logic [P*3-1:0]   cr_out_vc_o,
  input  logic [P-1:0]     cr_in_valid_i,
  input  logic [P*3-1:0]   cr_in_vc_i,
  output logic [P-1:0]     arn_out_valid_o,
  output logic [P*32-1:0]  arn_out_data_o,
  input  logic [P-1:0]     arn_in_valid_i,
  input  logic [P*32-1:0]  arn_in_data_i,
  output logic [P-1:0]     cnm_valid_o,
  output logic [P*64-1:0]  cnm_data_o,
  input  logic [P-1:0]     cnm_in_valid_i,
  input  logic [P*64-1:0]  cnm_in_data_i,
  output logic [P-1:0]     cnm_out_valid_o,
  output logic [P*64-1:0]  cnm_out_data_o,
  input  logic            reg_en_i,
  input  logic            reg_we_i,
  input  logic [19:0]     reg_addr_i,
  input  logic [31:0]     reg_wdata_i,
  output logic            reg_rvalid_o,
  output logic [31:0]     reg_rdata_o,
  input  logic [P-1:0]     link_up_i,
  input  logic [P-1:0]     link_rx_up_i
);
  logic [P-1:0]     in_valid_q, in_head_q, in_tail_q, cr_in_valid_q, arn_in_valid_q;
  logic [P-1:0]     cnm_in_valid_q, link_up_q, link_rx_up_q;
  logic [P*3-1:0]   in_vc_q, cr_in_vc_q;
  logic [P*64-1:0]  in_hdr_q, cnm_in_data_q;
  logic [P*PWE-1:0] in_payload_q;
  logic [P*32-1:0]  arn_in_data_q;
  logic             reg_en_q, reg_we_q;
  logic [19:0]      reg_addr_q;
  logic [31:0]      reg_wdata_q;

  always_ff @(posedge clk_i) begin  // no reset: loaded by the first edge (see above)
    in_valid_q <= in_valid_i;
    in_head_q <= in_head_i;
    in_tail_q <= in_tail_i;
    in_vc_q <= in_vc_i;
    in_hdr_q <= in_hdr_i;
    in_payload_q <= in_payload_i;
    cr_in_valid_q <= cr_in_valid_i;
    cr_in_vc_q <= cr_in_vc_i;
    arn_in_valid_q <= arn_in_valid_i;
    arn_in_data_q <= arn_in_data_i;
    cnm_in_valid_q <= cnm_in_valid_i;
    cnm_in_data_q <= cnm_in_data_i;
    reg_en_q <= reg_en_i;
    reg_we_q <= reg_we_i;
    reg_addr_q <= reg_addr_i;
    reg_wdata_q <= reg_wdata_i;
    link_up_q <= link_up_i;
    link_rx_up_q <= link_rx_up_i;
  end

`ifdef COSIM_NETLIST  // a Yosys netlist: its parameters are already applied
  asw_switch u_dut (
`else
  asw_switch #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .SAPIPE(SAPIPE), .AE(AE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn), .SE(SE)
  ) u_dut (
`endif
    .clk_i,
    .rst_ni,
    .in_valid_i      (in_valid_q),
    .in_head_i       (in_head_q),
    .in_tail_i       (in_tail_q),
    .in_vc_i         (in_vc_q),
    .in_hdr_i        (in_hdr_q),
    .in_payload_i    (in_payload_q),
    .out_valid_o,
    .out_head_o,
    .out_tail_o,
    .out_vc_o,
    .out_hdr_o,
    .out_payload_o,
    .cr_out_valid_o,
    .cr_out_vc_o,
    .cr_in_valid_i   (cr_in_valid_q),
    .cr_in_vc_i      (cr_in_vc_q),
    .arn_out_valid_o,
    .arn_out_data_o,
    .arn_in_valid_i  (arn_in_valid_q),
    .arn_in_data_i   (arn_in_data_q),
    .cnm_valid_o,
    .cnm_data_o,
    .cnm_in_valid_i  (cnm_in_valid_q),
    .cnm_in_data_i   (cnm_in_data_q),
    .cnm_out_valid_o,
    .cnm_out_data_o,
    .reg_en_i        (reg_en_q),
    .reg_we_i        (reg_we_q),
    .reg_addr_i      (reg_addr_q),
    .reg_wdata_i     (reg_wdata_q),
    .reg_rvalid_o,
    .reg_rdata_o,
    .link_up_i       (link_up_q),
    .link_rx_up_i    (link_rx_up_q)
  );
endmodule
