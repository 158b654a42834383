// ulx3s_top.sv — Radiona ULX3S (ECP5 LFE5U-85F or -25F, CABGA381) top of the board
// system (docs/boards.md): the 25 MHz oscillator used directly (the system closes timing
// at 25 MHz, no PLL), UART through the FT231X at 115 200 baud, power-on reset, the
// ESP32's GPIO0 held high so that it does not reset the board. LEDs 0..3: heartbeat,
// running, pass, fail; LEDs 4..7 off.
module ulx3s_top #(
  parameter int unsigned P = 4, parameter int unsigned V = 2, parameter int unsigned BUF = 8,
  parameter int unsigned LMAX = 4, parameter int unsigned PW = 16, parameter int unsigned DW = 4,
  parameter int unsigned TABLE = 16, parameter int unsigned VOQ = 1,
  parameter int unsigned ITERS = 1, parameter int unsigned AE = 0,
  // optional hardware built (contract §1, asw_switch): every feature off by default
  parameter bit BubbleEn = 1'b0, parameter bit PfcEn = 1'b0, parameter bit QcnEn = 1'b0,
  parameter bit RouteHashEn = 1'b0, parameter bit LinkFaultEn = 1'b0,
  parameter bit PortRateEn = 1'b0, parameter bit VcAdaptEn = 1'b0,
  parameter bit RouteOblivEn = 1'b0, parameter bit RouteAdaptEn = 1'b0,
  parameter bit CountersEn = 1'b0, parameter bit ReadbackEn = 1'b0,
  parameter int unsigned DIV = 217,       // 25 MHz / 115 200 baud
  parameter int unsigned CNTW = 32,
  parameter int unsigned CLK_KHZ = 25000
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,    // FTDI -> FPGA
  output logic       ftdi_rxd,    // FPGA -> FTDI
  output logic [7:0] led,
  output logic       wifi_gpio0
);
  logic [7:0] por_q = '0;  // power-on reset: configuration loads flip-flops with 0
  always_ff @(posedge clk_25mhz) begin
    if (por_q != 8'hFF) por_q <= por_q + 8'd1;
  end
  logic [3:0] l;
  asw_system #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .AE(AE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn), .DIV(DIV), .CNTW(CNTW), .CLK_KHZ(CLK_KHZ), .BLINK(23)
  ) u_sys (
    .clk_i(clk_25mhz), .rst_ni(por_q == 8'hFF), .uart_rx_i(ftdi_txd), .uart_tx_o(ftdi_rxd),
    .led_o(l)
  );
  assign led = {4'b0000, l};
  assign wifi_gpio0 = 1'b1;
endmodule
