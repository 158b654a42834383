// max_tree.sv — combinational maximum primitive: the largest of the values whose valid bit
// is set (0 if none), by a balanced tree of comparisons (depth log2 N). Which input holds
// it is the caller's question (e.g. an rr_arbiter over the inputs equal to the maximum).
module max_tree #(
  parameter int unsigned N = 8,  // values, >= 1
  parameter int unsigned W = 8   // value width in bits
) (
  input  logic [N-1:0]        valid_i,
  input  logic [N-1:0][W-1:0] val_i,
  output logic [W-1:0]        max_o
);
  localparam int unsigned NT = 1 << asw_pkg::idx_w(N);  // N rounded up to a power of 2

  always_comb begin
    logic [W-1:0] t[NT];
    for (int unsigned k = 0; k < NT; k++) begin
      t[k] = (k < N && valid_i[k % N]) ? val_i[k % N] : '0;
    end
    for (int unsigned w = NT / 2; w >= 1; w = w / 2) begin
      for (int unsigned k = 0; k < w; k++) begin
        t[k] = (t[2*k] >= t[2*k+1]) ? t[2*k] : t[2*k+1];
      end
    end
    max_o = t[0];
  end
endmodule
