// fv_max_first.sv — formal properties of rtl/max_first.sv (combinational): found_o says
// whether any value is valid; the index names a valid value, no valid value is larger,
// and no valid value equal to it comes earlier in the scan ptr_i, ptr_i+1, ... (mod N).
module fv_max_first #(
  parameter int unsigned N = 5,  // values
  parameter int unsigned W = 3,  // value width
  localparam int unsigned IW = asw_pkg::idx_w(N)
) (
  input logic [N-1:0]        valid_i,
  input logic [N-1:0][W-1:0] val_i,
  input logic [IW-1:0]       ptr_i
);
  logic          found;
  logic [IW-1:0] idx;

  max_first #(.N(N), .W(W)) dut (.valid_i, .val_i, .ptr_i, .found_o(found), .idx_o(idx));

  // ptr + d modulo N, for ptr < N and d < N (a subtraction, not a modulo: cheap for the solver)
  function automatic int unsigned wrap(input logic [IW-1:0] p, input int unsigned d);
    return (32'(p) + d >= N) ? 32'(p) + d - N : 32'(p) + d;
  endfunction

  always_comb begin
    assume (32'(ptr_i) < N);
    a_found: assert (found == (valid_i != '0));
    if (found) begin
      a_valid: assert (valid_i[idx]);
      for (int unsigned k = 0; k < N; k++) begin
        assert (!valid_i[k] || val_i[k] <= val_i[idx]);
      end
      for (int unsigned d = 0; d < N; d++) begin
        if (wrap(ptr_i, d) == 32'(idx)) break;
        assert (!(valid_i[wrap(ptr_i, d)] && val_i[wrap(ptr_i, d)] == val_i[idx]));
      end
    end else begin
      a_idx_zero: assert (idx == '0);
    end
  end
endmodule
