// max_first.sv — "first maximum in round-robin order" primitive: among the valid values,
// the index of the first one equal to their maximum, scanning ptr_i, ptr_i+1, ... modulo N
// (contract §7.3's adaptive search and §15.3's selectAlternativeOport: strictly greater
// replaces, so ties keep the earlier index in scan order). A max_tree, then an rr_arbiter
// over the values equal to the maximum: depth log N.
module max_first #(
  parameter int unsigned N = 8,  // values, >= 1
  parameter int unsigned W = 8,  // value width in bits
  localparam int unsigned IW = asw_pkg::idx_w(N)
) (
  input  logic [N-1:0]        valid_i,
  input  logic [N-1:0][W-1:0] val_i,
  input  logic [IW-1:0]       ptr_i,   // first index of the scan
  output logic                found_o, // some value is valid
  output logic [IW-1:0]       idx_o    // the first maximum (0 if none)
);
  logic [W-1:0] max;
  logic [N-1:0] top;
  logic [N-1:0] unused_gnt;

  max_tree #(.N(N), .W(W)) u_max (
    .valid_i,
    .val_i,
    .max_o (max)
  );

  always_comb begin
    for (int unsigned k = 0; k < N; k++) begin
      top[k] = valid_i[k] && (val_i[k] == max);
    end
  end

  rr_arbiter #(.N(N)) u_first (
    .req_i (top),
    .ptr_i,
    .gnt_o (unused_gnt),
    .idx_o
  );

  assign found_o = |valid_i;
endmodule
