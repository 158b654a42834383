// ulx3s_top.sv — Radiona ULX3S (ECP5 LFE5U-85F or -25F, CABGA381) top of the board
// system (docs/boards.md): the system clock from an EHXPLLL fed by the 25 MHz oscillator
// (25 MHz * PLL_FBDIV / PLL_IDIV, VCO = that * PLL_ODIV in 400..800 MHz; synth/board.py
// sets the dividers and CLK_KHZ, DIV to the result) or, with PLL_ODIV = 0, the oscillator
// itself; UART through the FT231X at 115 200 baud, power-on reset held until the PLL
// locks, the ESP32's GPIO0 held high so that it does not reset the board. LEDs 0..3:
// heartbeat, running, pass, fail; LEDs 4..7 off.
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
  parameter int unsigned CLK_KHZ = 25000,
  parameter int unsigned PLL_IDIV = 1,    // EHXPLLL CLKI_DIV
  parameter int unsigned PLL_FBDIV = 2,   // EHXPLLL CLKFB_DIV (feedback from CLKOP)
  parameter int unsigned PLL_ODIV = 0     // EHXPLLL CLKOP_DIV; 0: no PLL, 25 MHz
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,    // FTDI -> FPGA
  output logic       ftdi_rxd,    // FPGA -> FTDI
  output logic [7:0] led,
  output logic       wifi_gpio0
);
  logic clk, locked;
  if (PLL_ODIV != 0) begin : gen_pll
    /* verilator lint_off PINCONNECTEMPTY */  // the PLL's other outputs are unused
    (* FREQUENCY_PIN_CLKI = "25" *)
    EHXPLLL #(
      .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
      .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
      .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"), .CLKI_DIV(PLL_IDIV),
      .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(PLL_ODIV), .CLKOP_CPHASE((PLL_ODIV - 1) / 2),
      .CLKOP_FPHASE(0), .FEEDBK_PATH("CLKOP"), .CLKFB_DIV(PLL_FBDIV)
    ) u_pll (
      .RST(1'b0), .STDBY(1'b0), .CLKI(clk_25mhz), .CLKOP(clk), .CLKFB(clk), .CLKOS(),
      .CLKOS2(), .CLKOS3(), .CLKINTFB(), .PHASESEL0(1'b0), .PHASESEL1(1'b0),
      .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0),
      .ENCLKOP(1'b0), .ENCLKOS(1'b0), .ENCLKOS2(1'b0), .ENCLKOS3(1'b0), .LOCK(locked),
      .INTLOCK(), .REFCLK()
    );
    /* verilator lint_on PINCONNECTEMPTY */
  end else begin : gen_osc
    assign clk = clk_25mhz;
    assign locked = 1'b1;
  end
  logic [7:0] por_q = '0;  // power-on reset: configuration loads flip-flops with 0; it
  always_ff @(posedge clk) begin  // counts once the PLL has locked
    if (!locked) por_q <= '0;
    else if (por_q != 8'hFF) por_q <= por_q + 8'd1;
  end
  logic [3:0] l;
  asw_system #(
    .P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .DW(DW), .TABLE(TABLE), .VOQ(VOQ),
    .ITERS(ITERS), .AE(AE), .BubbleEn(BubbleEn), .PfcEn(PfcEn), .QcnEn(QcnEn), .RouteHashEn(RouteHashEn),
    .LinkFaultEn(LinkFaultEn), .PortRateEn(PortRateEn), .VcAdaptEn(VcAdaptEn),
    .RouteOblivEn(RouteOblivEn), .RouteAdaptEn(RouteAdaptEn), .CountersEn(CountersEn),
    .ReadbackEn(ReadbackEn), .DIV(DIV), .CNTW(CNTW), .CLK_KHZ(CLK_KHZ),
    .BLINK(CLK_KHZ > 37500 ? 24 : 23)  // heartbeat about 1.5 blinks a second
  ) u_sys (
    .clk_i(clk), .rst_ni(por_q == 8'hFF), .uart_rx_i(ftdi_txd), .uart_tx_o(ftdi_rxd),
    .led_o(l)
  );
  assign led = {4'b0000, l};
  assign wifi_gpio0 = 1'b1;
endmodule
