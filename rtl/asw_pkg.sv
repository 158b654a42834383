// asw_pkg.sv — constants shared by the arnswitch RTL (docs/microarchitecture.md).
package asw_pkg;

  // Register map (contract §11), word addresses.
  localparam logic [19:0] RegId = 20'h00000;
  localparam logic [19:0] RegParam0 = 20'h00001;
  localparam logic [19:0] RegParam1 = 20'h00002;
  localparam logic [19:0] RegParam2 = 20'h00003;
  localparam logic [19:0] RegParam3 = 20'h00004;          // §17.8 SE
  localparam logic [19:0] RegRouteCtrl = 20'h00010;
  localparam logic [19:0] RegVcCtrl = 20'h00011;
  localparam logic [19:0] RegThresh = 20'h00012;
  localparam logic [19:0] RegLfsrSeed = 20'h00013;
  localparam logic [19:0] RegDefaultPort = 20'h00014;
  localparam logic [19:0] RegCntClear = 20'h00015;
  localparam logic [19:0] RegRegErrors = 20'h00016;
  localparam logic [19:0] RegCsetBase = 20'h00100;
  localparam logic [19:0] RegSl2vcBase = 20'h01000;
  localparam logic [19:0] RegCounterBase = 20'h02000;
  localparam logic [19:0] RegBubbleBase = 20'h04000;         // §16.2
  localparam logic [19:0] RegBubbleCounterBase = 20'h04040;
  localparam logic [19:0] RegOccBase = 20'h40000;
  localparam logic [19:0] RegCredBase = 20'h50000;
  localparam logic [19:0] RegFwdBase = 20'h80000;
  localparam logic [31:0] IdValue = 32'h41535731;  // "ASW1"

  // Per-port counters (contract §11, §12): index k of 0x02000 + 8p + k.
  localparam int unsigned NumCnt = 8;
  localparam int unsigned CntFlitsIn = 0;
  localparam int unsigned CntFlitsOut = 1;
  localparam int unsigned CntPacketsIn = 2;
  localparam int unsigned CntPacketsOut = 3;
  localparam int unsigned CntCreditStall = 4;
  localparam int unsigned CntSaLost = 5;
  localparam int unsigned CntRouteErrors = 6;
  localparam int unsigned CntAdaptive = 7;

  // ROUTE_CTRL.mode and .trigger encodings (contract §7.3).
  localparam logic [1:0] RouteDet = 2'd0;
  localparam logic [1:0] RouteOblivious = 2'd1;
  localparam logic [1:0] RouteAdaptive = 2'd2;
  localparam logic [1:0] RouteVcAdapt = 2'd3;     // §16.3 (VOQ = 0 and VcAdaptEn only)
  localparam logic [1:0] TrigNoTh = 2'd0;
  localparam logic [1:0] TrigTh = 2'd1;
  localparam logic [1:0] Trig2Th = 2'd2;


  // §7.1 FWD.amask: candidate ports 0..11 (§16.3); a switch stores the bits of its ports only.
  function automatic int unsigned amask_w(input int unsigned p);
    return (p < 12) ? p : 12;
  endfunction

  // Width of an index into N things, at least 1 bit.
  function automatic int unsigned idx_w(input int unsigned n);
    return (n <= 1) ? 1 : $clog2(n);
  endfunction

  // Width of an input buffer's slot index: V*BUF flit slots plus one reserved slot per VC
  // (rtl/input_buffer.sv).
  function automatic int unsigned slot_w(input int unsigned v, input int unsigned buf_flits);
    return idx_w(v * buf_flits + v);
  endfunction

  // Width of a counter holding 0..n.
  function automatic int unsigned cnt_w(input int unsigned n);
    return $clog2(n + 1);
  endfunction

endpackage
