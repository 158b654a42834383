// fv_rr_arbiter.sv — formal properties of rtl/rr_arbiter.sv (combinational): for every
// request vector and every legal pointer the grant is one-hot, only on a request, present
// whenever some request is, idx_o names it, and it is the first request at or after ptr_i
// in round-robin order (no request strictly between ptr_i and the grant, modulo N).
module fv_rr_arbiter #(
  parameter int unsigned N = 5,  // requesters (5: a non-power of 2, the wrap is not free)
  localparam int unsigned IW = asw_pkg::idx_w(N)
) (
  input logic [N-1:0]  req_i,
  input logic [IW-1:0] ptr_i
);
  logic [N-1:0]  gnt;
  logic [IW-1:0] idx;

  rr_arbiter #(.N(N)) dut (.req_i, .ptr_i, .gnt_o(gnt), .idx_o(idx));

  // ptr + d modulo N, for ptr < N and d < N (a subtraction, not a modulo: cheap for the solver)
  function automatic int unsigned wrap(input logic [IW-1:0] p, input int unsigned d);
    return (32'(p) + d >= N) ? 32'(p) + d - N : 32'(p) + d;
  endfunction

  always_comb begin
    assume (32'(ptr_i) < N);
    a_onehot: assert ($onehot0(gnt));
    a_on_request: assert ((gnt & ~req_i) == '0);
    a_work_conserving: assert ((gnt != '0) == (req_i != '0));
    if (req_i != '0) begin
      a_idx: assert (gnt[idx]);
      // Scan ptr, ptr+1, ... (mod N) up to the grant: no request is skipped.
      for (int unsigned d = 0; d < N; d++) begin
        if (wrap(ptr_i, d) == 32'(idx)) break;
        assert (!req_i[wrap(ptr_i, d)]);
      end
    end else begin
      a_idx_zero: assert (idx == '0);
    end
  end
endmodule
