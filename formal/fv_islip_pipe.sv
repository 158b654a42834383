// fv_islip_pipe.sv — formal properties of rtl/islip.sv with SAPIPE = 1 (contract §8.1,
// pipelined allocation: the inputs' selections registered a cycle ahead, one grant phase),
// through its ports plus its selection and pointer registers:
//  - grant: each output grants (one-hot) the first input from its grant pointer whose
//    registered selection names it and whose request bit (req_i of the selected VC and
//    output) holds; no grant without such a request;
//  - matches: a match is an input's selection (output and VC) with its request; at most one
//    input per output, out_matched_o and the one-hot views (the selected queue, the popped
//    queue) consistent; the request bits are the queues' requests without the free masks
//    AND the masks (free inputs);
//  - pointers: gp[o] <- i+1 and ap[i] <- o+1 (mod P), vp[i][o] <- v+1 (mod V) for a grant
//    (i, o) from VC v; unchanged otherwise;
//  - selections of the next cycle, restated from §8.1's text: an input that is not
//    granted selects the first output from ap[i] that is open and that an eligible queue
//    head routes to, and for it the first VC from vp[i][o] with such a head; a granted
//    input selects only if the granted packet has one flit, with the granted queue headed
//    by the packet behind it, from the moved pointers; no selection without a candidate.
// The eligibility, ports, open mask and request bits are free inputs (the input buffers'
// views), constrained only by what the input buffer guarantees: with VOQ = 1 the queue
// (v, q) routes to q, and ports are < P.
module fv_islip_pipe #(
  parameter int unsigned P = 3,
  parameter int unsigned V = 2,
  parameter int unsigned VOQ = 1,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned NQ = (VOQ != 0) ? P : 1,
  localparam int unsigned NQT = V * NQ,
  localparam int unsigned NR = P*V*P
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic [NR-1:0]          req_nf_i,
  input logic [P-1:0]           in_free_i,
  input logic [P-1:0]           out_free_i,
  input logic [P*NQT-1:0]       sel_eh_i,
  input logic [P*NQT-1:0]       sel_es_i,
  input logic [P*NQT*PIW-1:0]   sel_oh_i,
  input logic [P*NQT*PIW-1:0]   sel_os_i,
  input logic [P*NQT-1:0]       sel_l1_i,
  input logic [P-1:0]           open_i
);
  // the §8 request bits: a queue's request without the free masks, and the masks
  logic [NR-1:0]    req_i;
  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      for (int unsigned v = 0; v < V; v++) begin
        for (int unsigned o = 0; o < P; o++) begin
          req_i[(i*V+v)*P+o] = req_nf_i[(i*V+v)*P+o] && in_free_i[i] && out_free_i[o];
        end
      end
    end
  end
  logic [P*NQT-1:0] sqoh, popoh;
  logic [P-1:0]     mv, om, inr;
  logic [P*PIW-1:0] mo;
  logic [P*VW-1:0]  mvc;
  logic [P*P-1:0]   moh;
  logic [P*V-1:0]   mvoh;

  islip #(.P(P), .V(V), .ITERS(1), .VOQ(VOQ), .SAPIPE(1)) dut (
    .clk_i, .rst_ni, .req_i, .match_valid_o (mv), .match_out_o (mo), .match_vc_o (mvc),
    .out_matched_o (om), .in_requested_o (inr), .match_oh_o (moh), .match_vc_oh_o (mvoh),
    .sel_eh_i, .sel_es_i, .sel_oh_i, .sel_os_i, .sel_l1_i, .open_i, .req_nf_i, .in_free_i,
    .out_free_i, .sel_q_oh_o (sqoh), .pop_oh_o (popoh)
  );

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  `include "fv_mod.svh"
  // the selection registers of input i
  function automatic logic sv(input int unsigned i);
    return dut.gen_pipe.sv_q[i];
  endfunction
  function automatic int unsigned so(input int unsigned i);
    return 32'(dut.gen_pipe.so_q[i]);
  endfunction
  function automatic int unsigned sc(input int unsigned i);
    return 32'(dut.gen_pipe.sc_q[i]);
  endfunction
  // input i requests output o in SA: its selection names o and the selected VC's request holds
  function automatic logic rqo(input int unsigned i, input int unsigned o);
    return sv(i) && so(i) == o && req_i[(i*V + sc(i))*P + o];
  endfunction
  function automatic int unsigned port_h(input int unsigned i, input int unsigned k);
    return 32'(sel_oh_i[(i*NQT + k)*PIW +: PIW]);
  endfunction
  function automatic int unsigned port_s(input int unsigned i, input int unsigned k);
    return 32'(sel_os_i[(i*NQT + k)*PIW +: PIW]);
  endfunction
  // §8.1 candidates of input i for (o, v): N (g = 0, not granted: the heads as they are)
  // and G (g = 1, granted: the selected queue headed by the packet behind)
  function automatic logic cand(input int unsigned i, input int unsigned o,
                                input int unsigned v, input logic g);
    logic c;
    c = 1'b0;
    for (int unsigned q = 0; q < NQ; q++) begin
      int unsigned k;
      logic behind;   // G: the granted queue, headed by the packet behind its head
      k = v*NQ + q;
      behind = g && v == sc(i) && (VOQ == 0 || q == so(i));
      if (behind ? (sel_es_i[i*NQT + k] && port_s(i, k) == o)
                 : (sel_eh_i[i*NQT + k] && port_h(i, k) == o)) c = 1'b1;
    end
    return c && open_i[o];
  endfunction

  // Expected registers of the next cycle.
  logic [PIW-1:0] egp_q[P], eap_q[P];
  logic [VW-1:0]  evp_q[P*P];
  logic [P-1:0]   esv_q;
  logic [PIW-1:0] eso_q[P];
  logic [VW-1:0]  esc_q[P];
  always_ff @(posedge clk_i) begin
    egp_q <= dut.gen_pipe.gp_q;   // unchanged unless granted (below)
    eap_q <= dut.gen_pipe.ap_q;
    evp_q <= dut.gen_pipe.vp_q;
    for (int unsigned i = 0; i < P; i++) begin
      logic          found;
      logic [7:0]    o_sel;
      logic [7:0]    v_sel;
      logic [PIW-1:0] ap;
      if (mv[i]) begin
        egp_q[so(i)] <= PIW'(inc(i, P));
        eap_q[i] <= PIW'(inc(so(i), P));
        evp_q[i*P + so(i)] <= VW'(inc(sc(i), V));
      end
      // next selection: the first candidate output from the (moved) accept pointer, then
      // the first candidate VC from the (moved) VC pointer of that output
      ap = mv[i] ? PIW'(inc(so(i), P)) : dut.gen_pipe.ap_q[i];
      found = 1'b0;
      o_sel = '0;
      for (int unsigned d = 0; d < P; d++) begin
        logic any;
        any = 1'b0;
        for (int unsigned v = 0; v < V; v++) begin
          any = any | cand(i, addp(ap, d), v, mv[i]);
        end
        if (any && !found) begin
          found = 1'b1;
          o_sel = addp(ap, d);
        end
      end
      v_sel = '0;
      begin
        logic [VW-1:0] vp;
        logic          vfound;
        vp = (mv[i] && 32'(o_sel) == so(i)) ? VW'(inc(sc(i), V))
                                            : dut.gen_pipe.vp_q[i*P + 32'(o_sel)];
        vfound = 1'b0;
        for (int unsigned d = 0; d < V; d++) begin
          if (!vfound && cand(i, 32'(o_sel), addv(vp, d), mv[i])) begin
            vfound = 1'b1;
            v_sel = addv(vp, d);
          end
        end
      end
      // a granted input keeps a selection only if the granted packet had one flit
      esv_q[i] <= found && (!mv[i] || sel_l1_i[i*NQT + sc(i)*NQ + ((VOQ != 0) ? so(i) : 0)]);
      eso_q[i] <= PIW'(o_sel);
      esc_q[i] <= VW'(v_sel);
    end
  end

  always_comb begin
    assume (rst_ni == !init_q);
    // the input buffer's views: ports < P; with VOQs the queue (v, q) routes to q
    for (int unsigned i = 0; i < P; i++) begin
      for (int unsigned k = 0; k < NQT; k++) begin
        assume (port_h(i, k) < P && port_s(i, k) < P);
        if (VOQ != 0) assume (port_h(i, k) == k % NQ && port_s(i, k) == k % NQ);
      end
    end
    if (!init_q) begin
      // invariants: pointers and selections in range
      for (int unsigned n = 0; n < P; n++) begin
        assert (32'(dut.gen_pipe.gp_q[n]) < P && 32'(dut.gen_pipe.ap_q[n]) < P);
        assert (so(n) < P && sc(n) < V);
      end
      for (int unsigned n = 0; n < P*P; n++) assert (32'(dut.gen_pipe.vp_q[n]) < V);
      for (int unsigned i = 0; i < P; i++) begin
        // a match is the input's selection with its request; the views agree
        if (mv[i]) begin
          assert (rqo(i, so(i)));
          assert (32'(mo[i*PIW +: PIW]) == so(i) && 32'(mvc[i*VW +: VW]) == sc(i));
          assert (moh[i*P +: P] == P'(1) << so(i) && mvoh[i*V +: V] == V'(1) << sc(i));
          assert (dut.grant[so(i)][i]);
        end else begin
          assert (moh[i*P +: P] == '0 && mvoh[i*V +: V] == '0);
        end
        assert (inr[i] == (sv(i) && req_i[(i*V + sc(i))*P + so(i)]));
        // the selected queue (one-hot, none without a selection) and the pop: the selected
        // queue if the input is matched
        for (int unsigned k = 0; k < NQT; k++) begin
          logic selk;
          selk = sv(i) && (k / NQ == sc(i)) && ((VOQ == 0) || (k % NQ == so(i)));
          assert (sqoh[i*NQT + k] == selk);
          assert (popoh[i*NQT + k] == (selk && mv[i]));
        end
      end
      for (int unsigned o = 0; o < P; o++) begin
        logic [P-1:0] users;
        for (int unsigned i = 0; i < P; i++) begin
          users[i] = mv[i] && 32'(mo[i*PIW +: PIW]) == o;
          assert (dut.grant[o][i] == users[i]);
          assert (!dut.grant[o][i] || rqo(i, o));
        end
        assert ($onehot0(users));
        assert (om[o] == (users != '0));
        // round robin: the first requesting input from gp[o]; none skipped
        if (users == '0) begin
          for (int unsigned i = 0; i < P; i++) assert (!rqo(i, o));
        end
        for (int unsigned d = 0; d < P; d++) begin
          if (users[addp(dut.gen_pipe.gp_q[o], d)]) break;
          assert (!rqo(addp(dut.gen_pipe.gp_q[o], d), o));
        end
      end
    end
  end

  // pointer and selection rules (checked one cycle later)
  logic chk_q = 1'b0;
  always_ff @(posedge clk_i) chk_q <= !init_q;
  always_comb begin
    if (chk_q) begin
      assert (dut.gen_pipe.gp_q == egp_q && dut.gen_pipe.ap_q == eap_q &&
              dut.gen_pipe.vp_q == evp_q);
      for (int unsigned n = 0; n < P; n++) begin
        assert (sv(n) == esv_q[n]);
        if (esv_q[n]) assert (dut.gen_pipe.so_q[n] == eso_q[n] && dut.gen_pipe.sc_q[n] == esc_q[n]);
      end
    end
  end
endmodule
