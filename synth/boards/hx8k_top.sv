// hx8k_top.sv — Lattice iCE40-HX8K breakout board (ICE40HX8K-B-EVN, CT256) top of the
// board system (docs/boards.md): 12 MHz oscillator used directly (no PLL), UART through
// the FT2232H's second channel at 115 200 baud, power-on reset. LEDs D2..D5:
// heartbeat, running, pass, fail.
module hx8k_top #(
  parameter int unsigned P = 2, parameter int unsigned V = 1, parameter int unsigned BUF = 4,
  parameter int unsigned LMAX = 4, parameter int unsigned PW = 8, parameter int unsigned DW = 4,
  parameter int unsigned TABLE = 16, parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1, parameter int unsigned AE = 0,
  // optional hardware built (contract §1, asw_switch): every feature off by default
  parameter bit BubbleEn = 1'b0, parameter bit PfcEn = 1'b0, parameter bit QcnEn = 1'b0,
  parameter bit RouteHashEn = 1'b0, parameter bit LinkFaultEn = 1'b0,
  parameter bit PortRateEn = 1'b0, parameter bit VcAdaptEn = 1'b0,
  parameter bit RouteOblivEn = 1'b0, parameter bit RouteAdaptEn = 1'b0,
  parameter bit CountersEn = 1'b0, parameter bit ReadbackEn = 1'b0,
  parameter int unsigned DIV = 104,       // 12 MHz / 115 200 baud
  parameter int unsigned CNTW = 32,
  parameter int unsigned CLK_KHZ = 12000
) (
  input  logic       clk12m,
  input  logic       rx,
  output logic       tx,
  output logic [3:0] led
);
  logic [7:0] por_q = '0;  // power-on reset: configuration loads flip-flops with 0
  always_ff @(posedge clk12m) begin
    if (por_q != 8'hFF) por_q <= por_q + 8'd1;
  end
  asw_system #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .AE(AE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn), .DIV(DIV), .CNTW(CNTW), .CLK_KHZ(CLK_KHZ), .BLINK(22)
  ) u_sys (
    .clk_i(clk12m), .rst_ni(por_q == 8'hFF), .uart_rx_i(rx), .uart_tx_o(tx), .led_o(led)
  );
endmodule
