// islip.sv — iSLIP switch allocator with ITERS iterations, first-iteration pointer
// updates and round-robin VC choice per (input, output) pair (contract §8).
module islip #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned ITERS = 1,        // iterations (SAPIPE = 1: 1)
  parameter int unsigned VOQ = 1,          // queues per input VC: P (1) or 1 (0)
  // SAPIPE = 1: contract §8.1, the inputs' selections registered a cycle ahead and one
  // grant phase (DRRM); 0: iSLIP (§8)
  parameter int unsigned SAPIPE = 0,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned NQ = (VOQ != 0) ? P : 1,
  localparam int unsigned NQT = V * NQ
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // §8.1 (SAPIPE only): per input i, queue k = v*NQ+q at [i*NQT+k]: head / packet behind it
  // eligible but for the open mask (input_buffer.sv), their output ports, head of one flit;
  // the outputs open this cycle
  input  logic [P*NQT-1:0]     sel_eh_i,
  input  logic [P*NQT-1:0]     sel_es_i,
  input  logic [P*NQT*PIW-1:0] sel_oh_i,
  input  logic [P*NQT*PIW-1:0] sel_os_i,
  input  logic [P*NQT-1:0]     sel_l1_i,
  input  logic [P-1:0]         open_i,
  input  logic [P*V*P-1:0] req_i,          // req_i[(i*V+v)*P+o]: VC v of input i requests o
  // §8.1 (SAPIPE only): the same requests but for the free masks, and the masks: the
  // selection's request is formed from these registered views in one step
  input  logic [P*V*P-1:0] req_nf_i,
  input  logic [P-1:0]     in_free_i,
  input  logic [P-1:0]     out_free_i,
  output logic [P-1:0]     match_valid_o,  // per input
  output logic [P*PIW-1:0] match_out_o,
  output logic [P*VW-1:0]  match_vc_o,
  output logic [P*P-1:0]   match_oh_o,     // [i*P+o]: input i matched to output o (one-hot per i)
  output logic [P*V-1:0]   match_vc_oh_o,  // [i*V+v]: ... from VC v (one-hot per matched i)
  output logic [P-1:0]     out_matched_o,  // per output
  output logic [P-1:0]     in_requested_o, // per input: requested some output
  // §8.1 (SAPIPE only, else 0): per input i at [i*NQT+k], the registered selection one-hot
  // over queues k = v*NQ+q, and the queue popped this cycle (the selection, if granted)
  output logic [P*NQT-1:0] sel_q_oh_o,
  output logic [P*NQT-1:0] pop_oh_o
);
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
`endif
  logic [P-1:0] req_io[P];           // req_io[i][o]: some VC of input i requests o
  logic [P-1:0] grant[P];            // grant[o][i] of the last iteration (assertions)

  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      req_io[i] = '0;
      for (int unsigned v = 0; v < V; v++) begin
        req_io[i] = req_io[i] | req_i[(i*V+v)*P +: P];
      end
    end
  end

  if (SAPIPE == 0) begin : gen_islip
    logic [P-1:0]   req_oi[P];         // req_oi[o][i]: req_io transposed
    logic unused_sel;
    assign unused_sel = ^{sel_eh_i, sel_es_i, sel_oh_i, sel_os_i, sel_l1_i, open_i, req_nf_i,
                          in_free_i, out_free_i};
    assign sel_q_oh_o = '0;
    assign pop_oh_o = '0;
    always_comb begin
      for (int unsigned i = 0; i < P; i++) begin
        in_requested_o[i] = |req_io[i];
      end
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned i = 0; i < P; i++) begin
          req_oi[o][i] = req_io[i][o];
        end
      end
    end
    logic [PIW-1:0] gp_q[P], gp_d[P];  // grant pointers (per output)
    logic [PIW-1:0] ap_q[P], ap_d[P];  // accept pointers (per input)
    logic [VW-1:0]  vp_q[P*P], vp_d[P*P];  // VC pointers (per input i and output o: i*P+o)

    // Iterations, unrolled; the arbiters are rr_arbiter primitives (depth log P). Each
    // iteration's signals live in its own scope: im/om matched before it, im_n/om_n after,
    // acc_n/mo_n the inputs' matches (one-hot over outputs / output index) so far.
    for (genvar it = 0; it < ITERS; it++) begin : gen_iter
      logic [P-1:0]   im, om, im_n, om_n;
      logic [P-1:0]   gnt[P];          // gnt[o][i]
      logic [P-1:0]   gcol[P];         // gcol[i][o] = gnt[o][i]
      logic [P-1:0]   acc[P];          // acc[i][o], one-hot over o
      logic [PIW-1:0] acc_idx[P];
      logic [P-1:0]   acc_p[P], acc_n[P];
      logic [PIW-1:0] mo_p[P], mo_n[P];
      if (it == 0) begin : gen_first
        assign im = '0;
        assign om = '0;
        for (genvar i = 0; i < P; i++) begin : gen_init
          assign acc_p[i] = '0;
          assign mo_p[i] = '0;
        end
      end else begin : gen_next
        assign im = gen_iter[it-1].im_n;
        assign om = gen_iter[it-1].om_n;
        assign acc_p = gen_iter[it-1].acc_n;
        assign mo_p = gen_iter[it-1].mo_n;
      end
      // Grant: each unmatched output picks the first requesting unmatched input from gp.
      for (genvar o = 0; o < P; o++) begin : gen_grant
        logic [PIW-1:0] unused_idx;
        rr_arbiter #(.N(P)) u_arb (
          .req_i (om[o] ? '0 : (req_oi[o] & ~im)),
          .ptr_i (gp_q[o]),
          .gnt_o (gnt[o]),
          .idx_o (unused_idx)
        );
      end
      always_comb begin
        for (int unsigned i = 0; i < P; i++) begin
          for (int unsigned o = 0; o < P; o++) begin
            gcol[i][o] = gnt[o][i];
          end
        end
      end
      // Accept: each unmatched input picks the first granting output from ap.
      for (genvar i = 0; i < P; i++) begin : gen_accept
        rr_arbiter #(.N(P)) u_arb (
          .req_i (im[i] ? '0 : gcol[i]),
          .ptr_i (ap_q[i]),
          .gnt_o (acc[i]),
          .idx_o (acc_idx[i])
        );
      end
      always_comb begin
        om_n = om;
        for (int unsigned i = 0; i < P; i++) begin
          // an unmatched input accepts iff it has a grant: its match bit needs no accept
          im_n[i] = im[i] | (|gcol[i]);
          om_n = om_n | acc[i];
          acc_n[i] = acc_p[i] | acc[i];
          mo_n[i] = mo_p[i] | acc_idx[i];
        end
      end
    end

    logic [P-1:0]   in_m, out_m;
    logic [P-1:0]   acc_all[P];        // acc_all[i][o]: the match of input i (one-hot)
    logic [P-1:0]   acc_first[P];      // matches of the first iteration (pointer updates)
    assign in_m = gen_iter[ITERS-1].im_n;
    assign out_m = gen_iter[ITERS-1].om_n;
    assign acc_all = gen_iter[ITERS-1].acc_n;
    assign acc_first = gen_iter[0].acc;
    assign grant = gen_iter[ITERS-1].gnt;

    // VC choice: for every (input, output) pair the first VC from vp[i][o] whose queue head
    // requests o, in parallel with the iterations; the match selects its output's (AND-OR
    // over the one-hot match, no arbiter after it).
    logic [VW-1:0] vidx[P];
    logic [V-1:0]  vgnt[P];
    for (genvar i = 0; i < P; i++) begin : gen_vc
      logic [VW-1:0] vio[P];
      logic [V-1:0]  vgo[P];
      for (genvar o = 0; o < P; o++) begin : gen_out
        logic [V-1:0] vreq;
        always_comb begin
          for (int unsigned v = 0; v < V; v++) begin
            vreq[v] = req_i[(i*V+v)*P + o];
          end
        end
        rr_arbiter #(.N(V)) u_arb (
          .req_i (vreq),
          .ptr_i (vp_q[i*P + o]),
          .gnt_o (vgo[o]),
          .idx_o (vio[o])
        );
      end
      always_comb begin
        vidx[i] = '0;
        vgnt[i] = '0;
        for (int unsigned o = 0; o < P; o++) begin
          vidx[i] = vidx[i] | (acc_all[i][o] ? vio[o] : '0);
          vgnt[i] = vgnt[i] | (acc_all[i][o] ? vgo[o] : '0);
        end
        if (V == 1) begin
          vgnt[i] = V'(in_m[i]);  // the only VC: a match is its request (no accept in the pop)
        end
      end
    end

    function automatic int unsigned wrap_inc(input int unsigned x, input int unsigned n);
      return (x + 1 >= n) ? 0 : x + 1;
    endfunction

    always_comb begin
      for (int unsigned i = 0; i < P; i++) begin
        match_out_o[i*PIW +: PIW] = gen_iter[ITERS-1].mo_n[i];
        match_vc_o[i*VW +: VW] = in_m[i] ? vidx[i] : '0;
        match_oh_o[i*P +: P] = acc_all[i];
        match_vc_oh_o[i*V +: V] = vgnt[i];
      end
      match_valid_o = in_m;
      out_matched_o = out_m;
      // Pointers move in the first iteration only: gp[o] past the input that accepted o,
      // ap[i] past the output i accepted; vp[i][o] past the VC chosen for a match (i, o).
      for (int unsigned n = 0; n < P; n++) begin
        gp_d[n] = gp_q[n];
        ap_d[n] = ap_q[n];
      end
      for (int unsigned n = 0; n < P*P; n++) begin
        vp_d[n] = vp_q[n];
      end
      for (int unsigned i = 0; i < P; i++) begin
        for (int unsigned o = 0; o < P; o++) begin
          if (acc_first[i][o]) begin
            gp_d[o] = PIW'(wrap_inc(i, P));
            ap_d[i] = PIW'(wrap_inc(o, P));
          end
        end
        for (int unsigned o = 0; o < P; o++) begin
          if (acc_all[i][o]) begin
            vp_d[i*P + o] = VW'(wrap_inc(32'(vidx[i]), V));
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned n = 0; n < P; n++) begin
          gp_q[n] <= '0;
          ap_q[n] <= '0;
        end
      end else begin
        for (int unsigned n = 0; n < P; n++) begin
          gp_q[n] <= gp_d[n];
          ap_q[n] <= ap_d[n];
        end
      end
    end
    for (genvar i = 0; i < P; i++) begin : gen_vp
      for (genvar o = 0; o < P; o++) begin : gen_vp_o
        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            vp_q[i*P + o] <= '0;
          end else begin
            vp_q[i*P + o] <= vp_d[i*P + o];
          end
        end
      end
    end

  end else begin : gen_pipe

    // §8.1: per input a registered selection {valid, output, VC}; SA grants per output over
    // the selections whose request (the queue's §8 request bit) holds; the selection of the
    // next cycle is computed for both outcomes of this cycle's grant and picked by it.
    logic [PIW-1:0] gp_q[P];
    logic [PIW-1:0] ap_q[P];
    logic [VW-1:0]  vp_q[P*P];
    logic [P-1:0]   sv_q, sv_d;
    logic [PIW-1:0] so_q[P], so_d[P];
    logic [VW-1:0]  sc_q[P], sc_d[P];
    // the same selection one-hot (all 0 without one): output, VC and queue v*NQ+q
    logic [P-1:0]   soh_q[P], soh_d[P];
    logic [V-1:0]   sch_q[P], sch_d[P];
    logic [NQT-1:0] sk_q[P], sk_d[P];
    logic [P-1:0]   rq;              // input i requests its selection
    logic [P-1:0]   rq_oi[P];        // [o][i]
    logic [P-1:0]   gnt[P];          // [o][i]
    logic [P-1:0]   in_m;

    function automatic int unsigned wrap_inc(input int unsigned x, input int unsigned n);
      return (x + 1 >= n) ? 0 : x + 1;
    endfunction

    // The selection's request, per output, from the one-hot selection, the queue's request
    // bit without the free masks and the masks (all registered or one step from registers).
    always_comb begin
      for (int unsigned o = 0; o < P; o++) begin
        for (int unsigned i = 0; i < P; i++) begin
          logic r;
          r = 1'b0;
          for (int unsigned v = 0; v < V; v++) begin
            r = r | (sch_q[i][v] && req_nf_i[(i*V + v)*P + o]);
          end
          rq_oi[o][i] = soh_q[i][o] && r && in_free_i[i] && out_free_i[o];
        end
      end
      for (int unsigned i = 0; i < P; i++) begin
        rq[i] = 1'b0;
        for (int unsigned o = 0; o < P; o++) begin
          rq[i] = rq[i] | rq_oi[o][i];
        end
      end
    end
    for (genvar o = 0; o < P; o++) begin : gen_grant
      logic [PIW-1:0] unused_idx;
      rr_arbiter #(.N(P)) u_arb (
        .req_i (rq_oi[o]),
        .ptr_i (gp_q[o]),
        .gnt_o (gnt[o]),
        .idx_o (unused_idx)
      );
    end
    assign grant = gnt;
    always_comb begin
      for (int unsigned i = 0; i < P; i++) begin
        in_m[i] = 1'b0;
        for (int unsigned o = 0; o < P; o++) begin
          in_m[i] = in_m[i] | gnt[o][i];
        end
        match_out_o[i*PIW +: PIW] = in_m[i] ? so_q[i] : '0;
        match_vc_o[i*VW +: VW] = in_m[i] ? sc_q[i] : '0;
        for (int unsigned o = 0; o < P; o++) begin
          match_oh_o[i*P + o] = gnt[o][i];
        end
        for (int unsigned v = 0; v < V; v++) begin
          match_vc_oh_o[i*V + v] = in_m[i] && sch_q[i][v];
        end
        // With VOQs a queue's output is a constant: its pop needs that output's grant only.
        sel_q_oh_o[i*NQT +: NQT] = sk_q[i];
        for (int unsigned v = 0; v < V; v++) begin
          for (int unsigned q = 0; q < NQ; q++) begin
            pop_oh_o[i*NQT + v*NQ + q] = sk_q[i][v*NQ + q] && ((VOQ != 0) ? gnt[q][i] : in_m[i]);
          end
        end
      end
      for (int unsigned o = 0; o < P; o++) begin
        out_matched_o[o] = |gnt[o];
      end
      match_valid_o = in_m;
      in_requested_o = rq;
    end

    // The selections (SR): N if the input is not granted now (state as it is), G if it is
    // (its selected queue popped, its pointers moved; only a 1-flit packet leaves it free).
    for (genvar i = 0; i < P; i++) begin : gen_sel
      logic [NQT-1:0] eh, es, l1;
      logic [PIW-1:0] oh[NQT], os[NQT];
      logic [V-1:0]   en[P], eg[P];      // [o][v]: VC v has an eligible queue to o (N, G)
      logic [P-1:0]   on, og;            // outputs with an eligible queue (N, G)
      logic [P-1:0]   gn_o, gg_o;
      logic [PIW-1:0] on_i, og_i;
      logic [VW-1:0]  vn[P], vg[P];
      always_comb begin
        eh = sel_eh_i[i*NQT +: NQT];
        es = sel_es_i[i*NQT +: NQT];
        l1 = sel_l1_i[i*NQT +: NQT];
        for (int unsigned k = 0; k < NQT; k++) begin
          oh[k] = sel_oh_i[(i*NQT + k)*PIW +: PIW];
          os[k] = sel_os_i[(i*NQT + k)*PIW +: PIW];
        end
        for (int unsigned o = 0; o < P; o++) begin
          en[o] = '0;
          eg[o] = '0;
          for (int unsigned v = 0; v < V; v++) begin
            for (int unsigned q = 0; q < NQ; q++) begin
              logic sel_k;   // queue (v, q) is the selected one
              sel_k = sk_q[i][v*NQ+q];
              if (eh[v*NQ+q] && (32'(oh[v*NQ+q]) == o) && open_i[o]) begin
                en[o][v] = 1'b1;
              end
              if (sel_k ? (es[v*NQ+q] && (32'(os[v*NQ+q]) == o))
                        : (eh[v*NQ+q] && (32'(oh[v*NQ+q]) == o))) begin
                eg[o][v] = eg[o][v] | open_i[o];
              end
            end
          end
          on[o] = |en[o];
          og[o] = |eg[o];
        end
      end
      rr_arbiter #(.N(P)) u_arb_n (.req_i(on), .ptr_i(ap_q[i]), .gnt_o(gn_o), .idx_o(on_i));
      rr_arbiter #(.N(P)) u_arb_g (
        .req_i(og), .ptr_i(PIW'(wrap_inc(32'(so_q[i]), P))), .gnt_o(gg_o), .idx_o(og_i)
      );
      logic [V-1:0] vnh[P], vgh[P];  // [o]: the VC chosen for output o, one-hot (N, G)
      for (genvar o = 0; o < P; o++) begin : gen_vc
        logic [VW-1:0] vp_g;
        assign vp_g = (32'(so_q[i]) == o) ? VW'(wrap_inc(32'(sc_q[i]), V)) : vp_q[i*P + o];
        logic [V-1:0] vnh_a, vgh_a;
        rr_arbiter #(.N(V)) u_vn (.req_i(en[o]), .ptr_i(vp_q[i*P + o]), .gnt_o(vnh_a),
                                  .idx_o(vn[o]));
        rr_arbiter #(.N(V)) u_vg (.req_i(eg[o]), .ptr_i(vp_g), .gnt_o(vgh_a), .idx_o(vg[o]));
        // with one VC an output's candidate is that VC (its grant implies the request)
        assign vnh[o] = (V == 1) ? V'(1) : vnh_a;
        assign vgh[o] = (V == 1) ? V'(1) : vgh_a;
      end
      always_comb begin
        logic [VW-1:0] v_n, v_g;
        logic [V-1:0]  vh_n, vh_g;
        logic          hl1;   // the selected queue's head (being granted) has one flit
        v_n = '0;
        v_g = '0;
        vh_n = '0;
        vh_g = '0;
        for (int unsigned o = 0; o < P; o++) begin
          v_n = v_n | (gn_o[o] ? vn[o] : '0);
          v_g = v_g | (gg_o[o] ? vg[o] : '0);
          vh_n = vh_n | (gn_o[o] ? vnh[o] : '0);
          vh_g = vh_g | (gg_o[o] ? vgh[o] : '0);
        end
        hl1 = |(sk_q[i] & l1);
        if (in_m[i]) begin
          sv_d[i] = hl1 && (og != '0);
          so_d[i] = og_i;
          sc_d[i] = v_g;
          soh_d[i] = hl1 ? gg_o : '0;
          sch_d[i] = hl1 ? vh_g : '0;
        end else begin
          sv_d[i] = (on != '0);
          so_d[i] = on_i;
          sc_d[i] = v_n;
          soh_d[i] = gn_o;
          sch_d[i] = vh_n;
        end
        // the queue one-hot: with VOQs from the output's own VC choice (no select over the
        // outputs), else the VC's
        for (int unsigned v = 0; v < V; v++) begin
          for (int unsigned q = 0; q < NQ; q++) begin
            if (VOQ != 0) begin
              sk_d[i][v*NQ+q] = in_m[i] ? (hl1 && gg_o[q] && vgh[q][v]) : (gn_o[q] && vnh[q][v]);
            end else begin
              sk_d[i][v*NQ+q] = sch_d[i][v];
            end
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        sv_q <= '0;
        for (int unsigned n = 0; n < P; n++) begin
          gp_q[n] <= '0;
          ap_q[n] <= '0;
          so_q[n] <= '0;
          sc_q[n] <= '0;
          soh_q[n] <= '0;
          sch_q[n] <= '0;
          sk_q[n] <= '0;
        end
      end else begin
        sv_q <= sv_d;
        for (int unsigned n = 0; n < P; n++) begin
          so_q[n] <= so_d[n];
          sc_q[n] <= sc_d[n];
          soh_q[n] <= soh_d[n];
          sch_q[n] <= sch_d[n];
          sk_q[n] <= sk_d[n];
        end
        for (int unsigned i = 0; i < P; i++) begin
          for (int unsigned o = 0; o < P; o++) begin
            if (gnt[o][i]) begin
              gp_q[o] <= PIW'(wrap_inc(i, P));
              ap_q[i] <= PIW'(wrap_inc(o, P));
            end
          end
        end
      end
    end
`ifndef SYNTHESIS
    // The one-hot selection is the encoded one, and the request formed from it is the
    // queue's request of §8 (req_i, with the free masks).
    always_ff @(posedge clk_i) begin
      if (chk_en_q) begin
        for (int unsigned i = 0; i < P; i++) begin
          assert (soh_q[i] == (sv_q[i] ? (P'(1) << so_q[i]) : '0))
            else $error("islip: one-hot selection output of input %0d", i);
          assert (sch_q[i] == (sv_q[i] ? (V'(1) << sc_q[i]) : '0))
            else $error("islip: one-hot selection VC of input %0d", i);
          assert (rq[i] == (sv_q[i] && req_i[(i*V + 32'(sc_q[i]))*P + 32'(so_q[i])]))
            else $error("islip: request of input %0d's selection", i);
        end
      end
    end
`endif
    for (genvar i = 0; i < P; i++) begin : gen_vp
      for (genvar o = 0; o < P; o++) begin : gen_vp_o
        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            vp_q[i*P + o] <= '0;
          end else if (in_m[i] && (32'(so_q[i]) == o)) begin
            vp_q[i*P + o] <= VW'(wrap_inc(32'(sc_q[i]), V));
          end
        end
      end
    end
  end

`ifndef SYNTHESIS
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
