// asw_dpi_pkg.sv — DPI-C imports of the arnswitch golden model (dpi/asw_dpi.c,
// linked with libarnswitch). A testbench creates a model with the DUT's
// parameters, steps it once per clock cycle with the DUT's inputs and compares
// the returned outputs with the DUT's (asw_dpi_checker.sv does exactly that).
// Link vectors have the layout of rtl/asw_switch.sv's ports (port p at
// [p*W +: W], payload stride max(PW,1)), zero-extended to P = 64 / PW = 64.
package asw_dpi_pkg;
  localparam int unsigned MaxP = 64;  // widest switch (contract §1)
  localparam int unsigned MaxPW = 64;  // widest payload

  // Returns a handle; asw_dpi_ok(h) = 0 if the parameters are illegal (asw_dpi_error(h) says why).
  import "DPI-C" function chandle asw_dpi_new(input int p, input int v, input int buf_flits,
                                              input int lmax, input int pw, input int dw,
                                              input int table_entries, input int voq,
                                              input int iters, input int ae,
                                              input int sapipe,  // §8.1 SAPIPE
                                              input int features);  // §1 features built, ASW_FEAT_* bits
  import "DPI-C" function int asw_dpi_ok(input chandle h);
  import "DPI-C" function string asw_dpi_error(input chandle h);
  import "DPI-C" function void asw_dpi_free(input chandle h);
  import "DPI-C" function void asw_dpi_reset(input chandle h);
  // Register access outside the cycle loop: 0, or -1 (illegal value, RO/unmapped address).
  import "DPI-C" function int asw_dpi_reg_write(input chandle h, input int addr, input int data);
  import "DPI-C" function int asw_dpi_reg_read(input chandle h, input int addr, output int data);
  // One clock cycle: outputs of the cycle, then the state update. 0, or -3 on a
  // link-protocol violation (nothing changed; asw_dpi_error(h) names it).
  import "DPI-C" function int asw_dpi_step(
    input chandle h,
    input bit [MaxP-1:0] in_valid, input bit [MaxP-1:0] in_head, input bit [MaxP-1:0] in_tail,
    input bit [MaxP*3-1:0] in_vc, input bit [MaxP*64-1:0] in_hdr,
    input bit [MaxP*MaxPW-1:0] in_payload,
    input bit [MaxP-1:0] cr_in_valid, input bit [MaxP*3-1:0] cr_in_vc,
    input bit [MaxP-1:0] arn_in_valid, input bit [MaxP*32-1:0] arn_in_data,
    input bit reg_en, input bit reg_we, input bit [19:0] reg_addr, input bit [31:0] reg_wdata,
    output bit [MaxP-1:0] out_valid, output bit [MaxP-1:0] out_head,
    output bit [MaxP-1:0] out_tail, output bit [MaxP*3-1:0] out_vc,
    output bit [MaxP*64-1:0] out_hdr, output bit [MaxP*MaxPW-1:0] out_payload,
    output bit [MaxP-1:0] cr_out_valid, output bit [MaxP*3-1:0] cr_out_vc,
    output bit [MaxP-1:0] arn_out_valid, output bit [MaxP*32-1:0] arn_out_data,
    output bit reg_rvalid, output bit [31:0] reg_rdata);
endpackage
