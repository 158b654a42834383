// fv_islip.sv — formal properties of rtl/islip.sv (contract §8), through its ports plus
// its pointer registers and first-iteration signals:
//  - in_requested_o is "some VC requests some output";
//  - matches: at most one input per output, one output and one VC per input
//    (match_out_o/match_vc_o are indices: one-hot by construction), out_matched_o
//    consistent, a match only on a request of the chosen VC for the matched output;
//  - first iteration: each output grants (one-hot) the first requesting input at or after
//    its grant pointer; each input accepts the first granting output at or after its
//    accept pointer; later iterations only add matches;
//  - VC choice: the first VC at or after the input's VC pointer requesting the output;
//  - pointer updates: gp[o] <- (i+1) mod P and ap[i] <- (o+1) mod P for a first-iteration
//    match (i, o), unchanged otherwise; vp[i][o] <- (vc+1) mod V on a match (i, o);
//  - bounded starvation freedom: a request (input i, VC v, output o) stays up until it is
//    served (a queue head waits: assumed of the environment); then input i is matched to
//    output o within WAIT cycles whatever the other requests do (STARVE), and, when each VC
//    (VC, output) request of input i is served within WAITVC (PERVC; with VCONE each VC
//    head requests one output, VOQ = 0, else any set of outputs, VOQ = 1).
module fv_islip #(
  parameter int unsigned P = 3,
  parameter int unsigned V = 2,
  parameter int unsigned ITERS = 1,
  parameter int unsigned WAIT = 8,   // starvation bound, cycles (a request waits < WAIT), < 32
  parameter bit SAFETY = 1,          // check the match, grant, VC and pointer rules
  parameter bit STARVE = 1,          // check the starvation bound of each (input, output) pair
  parameter bit PERVC = 0,           // also of each (input, VC, output) request
  parameter int unsigned WAITVC = 8, // its bound, < 32
  parameter bit VCONE = 1,           // PERVC: assume one output per VC head (VOQ = 0)
  parameter int unsigned FIXREQ = 0, // nonzero: the requests are this constant (P*V*P <= 32)
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned NR = P*V*P
) (
  input logic          clk_i,
  input logic          rst_ni,
  input logic [NR-1:0] req_i
);
  logic [P-1:0]     mv, om, inr;
  logic [P*PIW-1:0] mo;
  logic [P*VW-1:0]  mvc;

  // iSLIP (SAPIPE = 0): the §8.1 selection inputs unused
  islip #(.P(P), .V(V), .ITERS(ITERS)) dut (
    .clk_i, .rst_ni, .req_i, .match_valid_o (mv), .match_out_o (mo), .match_vc_o (mvc),
    .out_matched_o (om), .in_requested_o (inr), .match_oh_o (), .match_vc_oh_o (),
    .sel_eh_i ('0), .sel_es_i ('0), .sel_oh_i ('0), .sel_os_i ('0), .sel_l1_i ('0),
    .open_i ('0), .req_nf_i ('0), .in_free_i ('0), .out_free_i ('0), .sel_q_oh_o (),
    .pop_oh_o ()
  );

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  `include "fv_mod.svh"
  function automatic logic rq(input int unsigned i, input int unsigned v, input int unsigned o);
    return req_i[(i*V+v)*P+o];
  endfunction
  function automatic logic rio(input int unsigned i, input int unsigned o);
    logic r;
    r = 1'b0;
    for (int unsigned v = 0; v < V; v++) r = r | rq(i, v, o);
    return r;
  endfunction
  function automatic logic served(input int unsigned i, input int unsigned v, input int unsigned o);
    return mv[i] && 32'(mo[i*PIW +: PIW]) == o && 32'(mvc[i*VW +: VW]) == v;
  endfunction

  // Expected pointers of the next cycle, and the starvation counters.
  logic [PIW-1:0] egp_q[P], eap_q[P];
  logic [VW-1:0]  evp_q[P*P];
  logic [NR-1:0]  req_q, served_q;
  logic [4:0]     wait_q[NR];
  logic [4:0]     wio_q[P*P];
  always_ff @(posedge clk_i) begin
    for (int unsigned n = 0; n < P; n++) begin
      egp_q[n] <= dut.gen_islip.gp_q[n];
      eap_q[n] <= dut.gen_islip.ap_q[n];
    end
    for (int unsigned n = 0; n < P*P; n++) begin
      evp_q[n] <= dut.gen_islip.vp_q[n];
    end
    for (int unsigned i = 0; i < P; i++) begin
      for (int unsigned o = 0; o < P; o++) begin
        if (dut.gen_islip.acc_first[i][o]) begin
          egp_q[o] <= PIW'(inc(i, P));
          eap_q[i] <= PIW'(inc(o, P));
        end
      end
      if (mv[i]) evp_q[i*P + 32'(mo[i*PIW +: PIW])] <= VW'(inc(32'(mvc[i*VW +: VW]), V));
    end
    for (int unsigned i = 0; i < P; i++) begin
      for (int unsigned o = 0; o < P; o++) begin
        wio_q[i*P+o] <= (rio(i, o) && !(mv[i] && 32'(mo[i*PIW +: PIW]) == o) && !init_q)
                        ? wio_q[i*P+o] + 5'd1 : 5'd0;
      end
      for (int unsigned v = 0; v < V; v++) begin
        for (int unsigned o = 0; o < P; o++) begin
          req_q[(i*V+v)*P+o] <= rq(i, v, o);
          served_q[(i*V+v)*P+o] <= served(i, v, o);
          wait_q[(i*V+v)*P+o] <= (rq(i, v, o) && !served(i, v, o) && !init_q)
                                 ? wait_q[(i*V+v)*P+o] + 5'd1 : 5'd0;
        end
      end
    end
  end

  always_comb begin
    assume (rst_ni == !init_q);
    if (FIXREQ != 0) assume (32'(req_i) == FIXREQ);
    // environment: a request stays up until served
    if (!init_q) begin
      for (int unsigned k = 0; k < NR; k++) begin
        if (req_q[k] && !served_q[k]) assume (req_i[k]);
      end
      if (PERVC && VCONE) begin
        for (int unsigned k = 0; k < P*V; k++) assume ($onehot0(req_i[k*P +: P]));
      end
    end
    if (!init_q) begin
      // invariants: pointers in range
      for (int unsigned n = 0; n < P; n++) begin
        assert (32'(dut.gen_islip.gp_q[n]) < P && 32'(dut.gen_islip.ap_q[n]) < P);
      end
      for (int unsigned n = 0; n < P*P; n++) begin
        assert (32'(dut.gen_islip.vp_q[n]) < V);
      end
      if (SAFETY) begin
        for (int unsigned i = 0; i < P; i++) begin
          assert (inr[i] == (req_i[i*V*P +: V*P] != '0));
          if (mv[i]) begin
            assert (32'(mo[i*PIW +: PIW]) < P);
            assert (rq(i, 32'(mvc[i*VW +: VW]), 32'(mo[i*PIW +: PIW])));   // match on a request
            // VC choice: no VC between vp[i][o] and the chosen one requests the output o
            for (int unsigned d = 0; d < V; d++) begin
              if (addv(dut.gen_islip.vp_q[i*P + 32'(mo[i*PIW +: PIW])], d) == 8'(mvc[i*VW +: VW])) break;
              assert (!rq(i, addv(dut.gen_islip.vp_q[i*P + 32'(mo[i*PIW +: PIW])], d), 32'(mo[i*PIW +: PIW])));
            end
          end
          // first-iteration accept: one-hot, a subset of the final match, the first
          // granting output from ap[i]
          assert ($onehot0(dut.gen_islip.acc_first[i]));
          if (dut.gen_islip.acc_first[i] != '0) begin
            assert (mv[i] && dut.gen_islip.acc_first[i][mo[i*PIW +: PIW]]);
          end
          for (int unsigned d = 0; d < P; d++) begin
            if (dut.gen_islip.acc_first[i][addp(dut.gen_islip.ap_q[i], d)]) break;
            assert (!dut.gen_islip.gen_iter[0].gnt[addp(dut.gen_islip.ap_q[i], d)][i]);
          end
        end
        for (int unsigned o = 0; o < P; o++) begin
          logic [P-1:0] users;
          for (int unsigned i = 0; i < P; i++) begin
            users[i] = mv[i] && 32'(mo[i*PIW +: PIW]) == o;
          end
          assert ($onehot0(users));
          assert (om[o] == (users != '0));
          // first-iteration grant: one-hot, to the first requesting input from gp[o]
          assert ($onehot0(dut.gen_islip.gen_iter[0].gnt[o]));
          for (int unsigned i = 0; i < P; i++) begin
            assert (!dut.gen_islip.gen_iter[0].gnt[o][i] || rio(i, o));
          end
          if (dut.gen_islip.gen_iter[0].gnt[o] == '0) begin
            for (int unsigned i = 0; i < P; i++) assert (!rio(i, o));
          end
          for (int unsigned d = 0; d < P; d++) begin
            if (dut.gen_islip.gen_iter[0].gnt[o][addp(dut.gen_islip.gp_q[o], d)]) break;
            assert (!rio(addp(dut.gen_islip.gp_q[o], d), o));
          end
        end
        // grants of every iteration one-hot
        for (int unsigned o = 0; o < P; o++) assert ($onehot0(dut.grant[o]));
      end
      // bounded starvation freedom
      if (STARVE) for (int unsigned k = 0; k < P*P; k++) assert (32'(wio_q[k]) < WAIT);
      if (PERVC) for (int unsigned k = 0; k < NR; k++) assert (32'(wait_q[k]) < WAITVC);
    end
  end

  // pointer rules (checked one cycle after the match)
  logic chk_q = 1'b0;
  always_ff @(posedge clk_i) chk_q <= !init_q;
  always_comb begin
    if (chk_q && SAFETY) begin
      for (int unsigned n = 0; n < P; n++) begin
        assert (dut.gen_islip.gp_q[n] == egp_q[n]);
        assert (dut.gen_islip.ap_q[n] == eap_q[n]);
      end
      for (int unsigned n = 0; n < P*P; n++) begin
        assert (dut.gen_islip.vp_q[n] == evp_q[n]);
      end
    end
  end
endmodule
