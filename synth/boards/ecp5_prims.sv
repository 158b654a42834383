// ecp5_prims.sv — declaration of the ECP5 primitive the ULX3S top instantiates (EHXPLLL,
// its ports and the parameters ulx3s_top sets), for read_slang, which elaborates the
// board top before synth_ecp5 maps it: a black box, kept as the cell nextpnr-ecp5 places.
/* verilator lint_off DECLFILENAME */  // the primitive's name is Lattice's
/* verilator lint_off UNUSEDPARAM */   // a black box: nextpnr reads them
(* blackbox *)
module EHXPLLL #(
  parameter string PLLRST_ENA = "DISABLED", parameter string INTFB_WAKE = "DISABLED",
  parameter string STDBY_ENABLE = "DISABLED", parameter string DPHASE_SOURCE = "DISABLED",
  parameter string OUTDIVIDER_MUXA = "DIVA", parameter string OUTDIVIDER_MUXB = "DIVB",
  parameter string OUTDIVIDER_MUXC = "DIVC", parameter string OUTDIVIDER_MUXD = "DIVD",
  parameter int CLKI_DIV = 1, parameter string CLKOP_ENABLE = "ENABLED",
  parameter int CLKOP_DIV = 8, parameter int CLKOP_CPHASE = 0, parameter int CLKOP_FPHASE = 0,
  parameter string FEEDBK_PATH = "CLKOP", parameter int CLKFB_DIV = 1
) (
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic CLKI, CLKFB, PHASESEL1, PHASESEL0, PHASEDIR, PHASESTEP, PHASELOADREG,
  input  logic STDBY, PLLWAKESYNC, RST, ENCLKOP, ENCLKOS, ENCLKOS2, ENCLKOS3,
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNDRIVEN */
  output logic CLKOP, CLKOS, CLKOS2, CLKOS3, LOCK, INTLOCK, REFCLK, CLKINTFB
  /* verilator lint_on UNDRIVEN */
);
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on DECLFILENAME */
