// rr_arbiter.sv — combinational programmable-priority (round-robin) arbiter primitive:
// grants the first request at or after index ptr_i, wrapping around (contract §8's "scan
// ptr, ptr+1, ... modulo N"). Built from two lowest-set-bit picks over the requests at or
// above ptr_i and over all requests: for N <= 8 as prefix ORs (a few LUTs deep), above that
// as x & -x (a carry chain on FPGAs, depth growing with log N, not N). On the ECP5 the LUT
// form took the like-for-like core from 62.7 to 66.4 MHz (synth/README.md). The pointer
// update is the caller's.
module rr_arbiter #(
  parameter int unsigned N = 8,  // requesters, >= 1
  localparam int unsigned IW = asw_pkg::idx_w(N)
) (
  input  logic [N-1:0]  req_i,
  input  logic [IW-1:0] ptr_i,   // highest-priority index, < N
  output logic [N-1:0]  gnt_o,   // one-hot, or 0 without requests
  output logic [IW-1:0] idx_o    // index of the grant (0 without requests)
);
  logic [N-1:0] upper;   // indices >= ptr_i
  logic [N-1:0] req_hi;

  always_comb begin
    for (int unsigned j = 0; j < N; j++) begin
      upper[j] = (j >= 32'(ptr_i));
    end
    req_hi = req_i & upper;
    if (N <= 8) begin
      // Few requesters: the lowest set bit as a prefix OR (LUTs only, no carry chain to
      // enter and leave).
      logic hi_below, lo_below;
      hi_below = 1'b0;
      lo_below = 1'b0;
      for (int unsigned j = 0; j < N; j++) begin
        gnt_o[j] = (req_hi != '0) ? (req_hi[j] && !hi_below) : (req_i[j] && !lo_below);
        hi_below = hi_below || req_hi[j];
        lo_below = lo_below || req_i[j];
      end
    end else if (req_hi != '0) begin
      gnt_o = req_hi & (~req_hi + N'(1));
    end else begin
      gnt_o = req_i & (~req_i + N'(1));
    end
    idx_o = '0;
    for (int unsigned j = 0; j < N; j++) begin
      if (gnt_o[j]) begin
        idx_o = idx_o | IW'(j);
      end
    end
  end
endmodule
