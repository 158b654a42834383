// islip.sv — iSLIP switch allocator with ITERS iterations, first-iteration pointer
// updates and round-robin VC choice per input (contract §8).
module islip #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned ITERS = 1,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [P*V*P-1:0] req_i,          // req_i[(i*V+v)*P+o]: VC v of input i requests o
  output logic [P-1:0]     match_valid_o,  // per input
  output logic [P*PIW-1:0] match_out_o,
  output logic [P*VW-1:0]  match_vc_o,
  output logic [P-1:0]     out_matched_o,  // per output
  output logic [P-1:0]     in_requested_o  // per input: requested some output
);
  logic [PIW-1:0] gp_q[P], gp_d[P];  // grant pointers (per output)
  logic [PIW-1:0] ap_q[P], ap_d[P];  // accept pointers (per input)
  logic [VW-1:0]  vp_q[P], vp_d[P];  // VC pointers (per input)

  logic [P-1:0] req_io[P];           // req_io[i][o]
  logic [P-1:0] grant[P];            // grant[o][i] of the last iteration (assertions)

  function automatic int unsigned wrap_add(input int unsigned base, input int unsigned k,
                                           input int unsigned n);
    return (base + k >= n) ? base + k - n : base + k;
  endfunction

  always_comb begin
    logic [P-1:0] in_m;
    logic [P-1:0] out_m;
    logic [P-1:0] acc[P];   // acc[i][o]
    logic         found;
    for (int unsigned i = 0; i < P; i++) begin
      req_io[i] = '0;
      for (int unsigned v = 0; v < V; v++) begin
        req_io[i] = req_io[i] | req_i[(i*V+v)*P +: P];
      end
      in_requested_o[i] = |req_io[i];
      gp_d[i] = gp_q[i];
      ap_d[i] = ap_q[i];
      vp_d[i] = vp_q[i];
      match_out_o[i*PIW +: PIW] = '0;
      match_vc_o[i*VW +: VW] = '0;
      grant[i] = '0;
      acc[i] = '0;
    end
    in_m = '0;
    out_m = '0;
    for (int unsigned it = 0; it < ITERS; it++) begin
      // Grant: each unmatched output picks the first requesting unmatched input from gp.
      for (int unsigned o = 0; o < P; o++) begin
        grant[o] = '0;
        found = 1'b0;
        for (int unsigned k = 0; k < P; k++) begin
          logic [PIW-1:0] i;
          i = PIW'(wrap_add(32'(gp_q[o]), k, P));
          if (!found && !out_m[o] && !in_m[i] && req_io[i][o]) begin
            grant[o][i] = 1'b1;
            found = 1'b1;
          end
        end
      end
      // Accept: each unmatched input picks the first granting output from ap.
      for (int unsigned i = 0; i < P; i++) begin
        acc[i] = '0;
        found = 1'b0;
        for (int unsigned k = 0; k < P; k++) begin
          logic [PIW-1:0] o;
          o = PIW'(wrap_add(32'(ap_q[i]), k, P));
          if (!found && !in_m[i] && grant[o][i]) begin
            acc[i][o] = 1'b1;
            found = 1'b1;
          end
        end
      end
      for (int unsigned i = 0; i < P; i++) begin
        for (int unsigned o = 0; o < P; o++) begin
          if (acc[i][o]) begin
            in_m[i] = 1'b1;
            out_m[o] = 1'b1;
            match_out_o[i*PIW +: PIW] = PIW'(o);
            if (it == 0) begin
              gp_d[o] = PIW'(wrap_add(i, 1, P));
              ap_d[i] = PIW'(wrap_add(o, 1, P));
            end
          end
        end
      end
    end
    match_valid_o = in_m;
    out_matched_o = out_m;
    // VC choice: the first VC from vp whose queue head requests the matched output.
    for (int unsigned i = 0; i < P; i++) begin
      found = 1'b0;
      for (int unsigned k = 0; k < V; k++) begin
        int unsigned v;
        v = wrap_add(32'(vp_q[i]), k, V);
        if (in_m[i] && !found && req_i[(i*V+v)*P + 32'(match_out_o[i*PIW +: PIW])]) begin
          match_vc_o[i*VW +: VW] = VW'(v);
          vp_d[i] = VW'(wrap_add(v, 1, V));
          found = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned n = 0; n < P; n++) begin
        gp_q[n] <= '0;
        ap_q[n] <= '0;
        vp_q[n] <= '0;
      end
    end else begin
      for (int unsigned n = 0; n < P; n++) begin
        gp_q[n] <= gp_d[n];
        ap_q[n] <= ap_d[n];
        vp_q[n] <= vp_d[n];
      end
    end
  end

`ifndef SYNTHESIS
  // Assertions are checked from the first cycle after reset (chk_en_q keeps
  // rst_ni purely asynchronous).
  logic chk_en_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_en_q <= 1'b0;
    end else begin
      chk_en_q <= 1'b1;
    end
  end
  // Grants one-hot; every match was requested; no output matched twice.
  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      for (int unsigned o = 0; o < P; o++) begin
        int unsigned users;
        assert ($onehot0(grant[o])) else $error("islip: output %0d grants several inputs", o);
        users = 0;
        for (int unsigned i = 0; i < P; i++) begin
          if (match_valid_o[i] && (32'(match_out_o[i*PIW +: PIW]) == o)) begin
            users++;
            assert (req_io[i][o]) else $error("islip: match (%0d,%0d) without request", i, o);
          end
        end
        assert (users <= 1) else $error("islip: output %0d matched to %0d inputs", o, users);
        assert (out_matched_o[o] == (users == 1)) else $error("islip: out_matched inconsistent");
      end
    end
  end

  cov_all_outputs_matched: cover property (@(posedge clk_i) chk_en_q && (&out_matched_o));
  cov_lost_request: cover property (@(posedge clk_i) chk_en_q && ((in_requested_o & ~match_valid_o) != '0));
`endif
endmodule
