// ecp5_dp16kd_sim.v — behavioural simulation model of the Lattice ECP5 DP16KD block RAM in
// the modes Yosys's synth_ecp5 emits (brams_map_16kd.v: $__DP16KD_ and $__PDPW16KD_), for
// the gate-level co-simulation of a block-RAM netlist (tb/cosim.py gate-ecp5). Yosys's own
// cells_sim_ecp5.v declares DP16KD without a behaviour; tb/cosim.py removes that declaration
// from its copy of the library and compiles this model instead.
//
// Supported, as Yosys uses them: both ports of one width, DATA_WIDTH 1, 2, 4, 9, 18 (true dual
// port; at 18 ADx[1:0] are the two 9-bit byte enables) or DATA_WIDTH_A = DATA_WIDTH_B = 36
// (pseudo dual port: port A writes DIB:DIA with byte enables ADA[3:0], port B reads DOB:DOA),
// REGMODE NOREG, CSDECODE 0b000 with the chip-selects tied to 0, rising clocks, WRITEMODE
// NORMAL / WRITETHROUGH / READBEFOREWRITE, a synchronous read reset (RESETMODE ASYNC only
// with the reset pins low, as Yosys ties them when unused), INITVAL ignored (the
// switch's memories need no initial contents). Anything else stops the simulation with a
// message rather than simulating something else.
//
// Storage: 1024 rows of two 9-bit bytes (18 432 bits). A read sees the contents from before
// the writes of the same clock edge (both ports), as a ram_1r1w read does.
module DP16KD #(
  parameter integer DATA_WIDTH_A = 18,
  parameter integer DATA_WIDTH_B = 18,
  parameter REGMODE_A = "NOREG",
  parameter REGMODE_B = "NOREG",
  parameter RESETMODE = "SYNC",
  parameter ASYNC_RESET_RELEASE = "SYNC",
  parameter CSDECODE_A = "0b000",
  parameter CSDECODE_B = "0b000",
  parameter WRITEMODE_A = "NORMAL",
  parameter WRITEMODE_B = "NORMAL",
  parameter CLKAMUX = "CLKA",
  parameter CLKBMUX = "CLKB",
  parameter GSR = "AUTO",
  parameter [319:0] INITVAL_00 = 0, INITVAL_01 = 0, INITVAL_02 = 0, INITVAL_03 = 0,
  parameter [319:0] INITVAL_04 = 0, INITVAL_05 = 0, INITVAL_06 = 0, INITVAL_07 = 0,
  parameter [319:0] INITVAL_08 = 0, INITVAL_09 = 0, INITVAL_0A = 0, INITVAL_0B = 0,
  parameter [319:0] INITVAL_0C = 0, INITVAL_0D = 0, INITVAL_0E = 0, INITVAL_0F = 0,
  parameter [319:0] INITVAL_10 = 0, INITVAL_11 = 0, INITVAL_12 = 0, INITVAL_13 = 0,
  parameter [319:0] INITVAL_14 = 0, INITVAL_15 = 0, INITVAL_16 = 0, INITVAL_17 = 0,
  parameter [319:0] INITVAL_18 = 0, INITVAL_19 = 0, INITVAL_1A = 0, INITVAL_1B = 0,
  parameter [319:0] INITVAL_1C = 0, INITVAL_1D = 0, INITVAL_1E = 0, INITVAL_1F = 0,
  parameter [319:0] INITVAL_20 = 0, INITVAL_21 = 0, INITVAL_22 = 0, INITVAL_23 = 0,
  parameter [319:0] INITVAL_24 = 0, INITVAL_25 = 0, INITVAL_26 = 0, INITVAL_27 = 0,
  parameter [319:0] INITVAL_28 = 0, INITVAL_29 = 0, INITVAL_2A = 0, INITVAL_2B = 0,
  parameter [319:0] INITVAL_2C = 0, INITVAL_2D = 0, INITVAL_2E = 0, INITVAL_2F = 0,
  parameter [319:0] INITVAL_30 = 0, INITVAL_31 = 0, INITVAL_32 = 0, INITVAL_33 = 0,
  parameter [319:0] INITVAL_34 = 0, INITVAL_35 = 0, INITVAL_36 = 0, INITVAL_37 = 0,
  parameter [319:0] INITVAL_38 = 0, INITVAL_39 = 0, INITVAL_3A = 0, INITVAL_3B = 0,
  parameter [319:0] INITVAL_3C = 0, INITVAL_3D = 0, INITVAL_3E = 0, INITVAL_3F = 0
) (
  input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5,
  input DIA4, DIA3, DIA2, DIA1, DIA0,
  input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input CEA, OCEA, CLKA, WEA, RSTA,
  input CSA2, CSA1, CSA0,
  output reg DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6,
  output reg DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5,
  input DIB4, DIB3, DIB2, DIB1, DIB0,
  input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input CEB, OCEB, CLKB, WEB, RSTB,
  input CSB2, CSB1, CSB0,
  output reg DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6,
  output reg DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
  wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7,
                     DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
  wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7,
                     DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
  wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2,
                     ADA1, ADA0};
  wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2,
                     ADB1, ADB0};
  wire        csa = {CSA2, CSA1, CSA0} == 3'b000;
  wire        csb = {CSB2, CSB1, CSB0} == 3'b000;

  localparam integer W = DATA_WIDTH_A;
  localparam integer PDP = (W == 36);

  reg [17:0] mem [0:1023];

  initial begin
    if (DATA_WIDTH_A != DATA_WIDTH_B ||
        !(W == 1 || W == 2 || W == 4 || W == 9 || W == 18 || W == 36)) begin
      $display("DP16KD model: DATA_WIDTH_A = %0d, DATA_WIDTH_B = %0d not supported", DATA_WIDTH_A,
               DATA_WIDTH_B);
      $finish;
    end
    if (REGMODE_A != "NOREG" || REGMODE_B != "NOREG" || CSDECODE_A != "0b000" ||
        CSDECODE_B != "0b000" || CLKAMUX != "CLKA" || CLKBMUX != "CLKB" ||
        (RESETMODE != "SYNC" && RESETMODE != "ASYNC")) begin
      $display("DP16KD model: REGMODE/CSDECODE/CLKMUX/RESETMODE setting not supported");
      $finish;
    end
  end

  // Word read of W bits at address `ad` (widths 1..18: one row).
  function [17:0] rd_word(input [13:0] ad);
    reg [17:0] row;
    integer j, b;
    begin
      rd_word = 18'h0;
      if (W == 18) begin
        rd_word = mem[ad[13:4]];
      end else if (W == 9) begin
        row = mem[ad[13:4]];
        rd_word = {9'h0, ad[3] ? row[17:9] : row[8:0]};
      end else begin
        for (b = 0; b < W; b = b + 1) begin
          j = (ad / W) * W + b;  // data-space bit: ADx[13:log2 W] selects the word (parity skipped)
          row = mem[j / 16];
          rd_word[b] = row[(j % 16) / 8 * 9 + (j % 8)];
        end
      end
    end
  endfunction

  // One row after a write of `d` at `ad` (byte enables `be` for width 18).
  function [17:0] wr_row(input [13:0] ad, input [17:0] d, input [1:0] be);
    reg [17:0] row;
    integer j, b;
    begin
      if (W == 18) begin
        row = mem[ad[13:4]];
        if (be[0]) row[8:0] = d[8:0];
        if (be[1]) row[17:9] = d[17:9];
      end else if (W == 9) begin
        row = mem[ad[13:4]];
        if (ad[3]) row[17:9] = d[8:0];
        else row[8:0] = d[8:0];
      end else begin
        j = (ad / W) * W;
        row = mem[j / 16];
        for (b = 0; b < W; b = b + 1) begin
          row[((j + b) % 16) / 8 * 9 + ((j + b) % 8)] = d[b];
        end
      end
      wr_row = row;
    end
  endfunction

  function [9:0] row_of(input [13:0] ad);
    begin
      row_of = (W >= 9) ? ad[13:4] : ((ad / W) * W) / 16;
    end
  endfunction

  // Both ports in one block on CLKA (the switch has one clock; CLKB is the same net or 0):
  // port A writes (true DP, or the 36-bit write of the pseudo DP) and reads in true DP;
  // port B reads (both modes) and writes in true DP.
  // RESETMODE ASYNC (Yosys's choice when the read reset is unused): only while RSTA and RSTB
  // stay low; an asynchronous reset pulse is not modelled.
  always @(RSTA or RSTB) begin
    if (RESETMODE == "ASYNC" && (RSTA === 1'b1 || RSTB === 1'b1)) begin
      $display("DP16KD model: asynchronous read reset asserted (not modelled)");
      $finish;
    end
  end
  // A port whose clock Yosys ties to 0 is unused; a used port B must share CLKA.
  always @(posedge CLKB) begin
    if (CLKA !== 1'b1) begin
      $display("DP16KD model: CLKB rises without CLKA (one clock only)");
      $finish;
    end
  end
  // Output register of a true-DP port after an edge with CE: reset, read (also before a
  // write in READBEFOREWRITE), the written data (WRITETHROUGH), or unchanged (NORMAL write).
  function [17:0] do_next(input [17:0] cur, input rst, input we, input [13:0] ad,
                          input [17:0] di, input [8*16-1:0] mode);
    begin
      if (rst) do_next = 18'h0;
      else if (!we || mode == "READBEFOREWRITE") do_next = rd_word(ad);
      else if (mode == "WRITETHROUGH") do_next = di;
      else do_next = cur;
    end
  endfunction

  wire [17:0] doa = {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7,
                     DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0};
  wire [17:0] dob = {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7,
                     DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0};
  always @(posedge CLKA) begin
    if (PDP) begin  // port A writes 36 bits (byte enables ADA[3:0]), port B reads 36
      if (CEA && csa && WEA) begin
        if (ada[0]) mem[{ada[13:5], 1'b0}][8:0] <= dia[8:0];
        if (ada[1]) mem[{ada[13:5], 1'b0}][17:9] <= dia[17:9];
        if (ada[2]) mem[{ada[13:5], 1'b1}][8:0] <= dib[8:0];
        if (ada[3]) mem[{ada[13:5], 1'b1}][17:9] <= dib[17:9];
      end
      if (CLKB === 1'b1 && CEB && csb) begin
        {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5,
         DOB4, DOB3, DOB2, DOB1, DOB0, DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10,
         DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} <=
          RSTB ? 36'h0 : {mem[{adb[13:5], 1'b1}], mem[{adb[13:5], 1'b0}]};
      end
    end else begin  // true dual port: both read, either writes
      if (CEA && csa) begin
        {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5,
         DOA4, DOA3, DOA2, DOA1, DOA0} <= do_next(doa, RSTA, WEA, ada, dia, WRITEMODE_A);
        if (WEA) mem[row_of(ada)] <= wr_row(ada, dia, (W == 18) ? ada[1:0] : 2'b11);
      end
      if (CLKB === 1'b1 && CEB && csb) begin
        {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5,
         DOB4, DOB3, DOB2, DOB1, DOB0} <= do_next(dob, RSTB, WEB, adb, dib, WRITEMODE_B);
        if (WEB) mem[row_of(adb)] <= wr_row(adb, dib, (W == 18) ? adb[1:0] : 2'b11);
      end
    end
  end
endmodule
