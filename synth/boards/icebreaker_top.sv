// icebreaker_top.sv — iCEBreaker (iCE40UP5K-SG48) top of the board system
// (docs/boards.md): 12 MHz oscillator used directly (the system closes timing at 12 MHz,
// no PLL), UART through the FTDI's second channel at 115 200 baud, power-on reset.
// LEDs: green (LEDG_N) = pass, red (LEDR_N) = fail; on the snap-off PMOD 2 board,
// LED1 heartbeat, LED2 running, LED3 pass, LED4 fail.
module icebreaker_top #(
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
  input  logic CLK,
  input  logic RX,
  output logic TX,
  output logic LEDR_N,
  output logic LEDG_N,
  output logic LED1,
  output logic LED2,
  output logic LED3,
  output logic LED4
);
  logic [7:0] por_q = '0;  // power-on reset: configuration loads flip-flops with 0
  always_ff @(posedge CLK) begin
    if (por_q != 8'hFF) por_q <= por_q + 8'd1;
  end
  logic [3:0] led;
  asw_system #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .AE(AE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn), .DIV(DIV), .CNTW(CNTW), .CLK_KHZ(CLK_KHZ), .BLINK(22)
  ) u_sys (
    .clk_i(CLK), .rst_ni(por_q == 8'hFF), .uart_rx_i(RX), .uart_tx_o(TX), .led_o(led)
  );
  assign {LED4, LED3, LED2, LED1} = led;
  assign LEDG_N = !led[2];
  assign LEDR_N = !led[3];
endmodule
