// fv_credits.sv — formal properties of rtl/credits.sv, driven through its ports by a legal
// environment with a modelled downstream: per (output o, VC v), owed_q counts the credits
// reserved by matches and not yet returned (flits in flight on the link plus flits held
// in the downstream buffer). The switch reserves len (1..LMAX) credits only when CRED
// covers len (the request rule of contract §8, assumed here, checked at the top by the
// switch's own assertion); downstream returns a credit only for a flit it holds.
// Proven: 0 <= CRED <= BUF, conservation CRED + owed = BUF, and the reservation rule as
// seen by the block (its own assertions under `ifndef SYNTHESIS` are checked too).
module fv_credits #(
  parameter int unsigned P = 2,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 5,
  parameter int unsigned LMAX = 3,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF)
) (
  input logic            clk_i,
  input logic            rst_ni,
  input logic [P-1:0]    match_valid_i,
  input logic [P*VW-1:0] match_ovc_i,
  input logic [P*8-1:0]  match_len_i,
  input logic [P-1:0]    cr_in_valid_i,
  input logic [P*3-1:0]  cr_in_vc_i,
  input logic [15:0]     ltth_i,
  input logic [15:0]     htth_i
);
  logic [P*V*CW-1:0] cred;
  logic [P*V-1:0]    cong_next;

  credits #(.P(P), .V(V), .BUF(BUF)) dut (
    .clk_i, .rst_ni, .match_valid_i, .match_ovc_i, .match_len_i, .cr_in_valid_i,
    .cr_in_vc_i, .ltth_i, .htth_i, .pfc_en_i ('0), .pfc_chg_i ('0),  // credit ports only
    .self_cr_valid_i ('0), .self_cr_vc_i ('0),  // no §18 link fault
    .cred_o (cred), .cong_next_o (cong_next)
  );

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  // The downstream model: credits owed back per (o, v).
  logic [CW-1:0] owed_q[P*V];
  function automatic logic rsv(input int unsigned o, input int unsigned v);
    return match_valid_i[o] && 32'(match_ovc_i[o*VW +: VW]) == v;
  endfunction
  function automatic logic ret(input int unsigned o, input int unsigned v);
    return cr_in_valid_i[o] && 32'(cr_in_vc_i[o*3 +: 3]) == v;
  endfunction
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned k = 0; k < P*V; k++) owed_q[k] <= '0;
    end else begin
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned v = 0; v < V; v++) begin
          owed_q[o*V+v] <= owed_q[o*V+v] + (rsv(o, v) ? CW'(match_len_i[o*8 +: 8]) : CW'(0))
                           - CW'(ret(o, v));
        end
      end
    end
  end

  always_comb begin
    assume (rst_ni == !init_q);
    for (int unsigned o = 0; o < P; o++) begin
      // environment: a legal VC, a legal length, only with the credits for it; a credit
      // returns only for a flit sent earlier
      if (match_valid_i[o]) begin
        assume (32'(match_ovc_i[o*VW +: VW]) < V);
        assume (match_len_i[o*8 +: 8] >= 8'd1 && 32'(match_len_i[o*8 +: 8]) <= LMAX);
        assume (32'(match_len_i[o*8 +: 8]) <= 32'(cred[(o*V + 32'(match_ovc_i[o*VW +: VW]))*CW +: CW]));
      end
      if (cr_in_valid_i[o]) begin
        assume (32'(cr_in_vc_i[o*3 +: 3]) < V);
        assume (owed_q[o*V + 32'(cr_in_vc_i[o*3 +: 3])] != '0);
      end
    end
    if (!init_q) begin
      for (int unsigned k = 0; k < P*V; k++) begin
        assert (32'(cred[k*CW +: CW]) <= BUF);                        // never above BUF
        assert (32'(cred[k*CW +: CW]) + 32'(owed_q[k]) == BUF);       // conservation
        assert (32'(owed_q[k]) <= BUF);                               // never below 0
      end
    end
  end
endmodule
