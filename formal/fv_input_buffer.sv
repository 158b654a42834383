// fv_input_buffer.sv — formal properties of rtl/input_buffer.sv, driven through its ports by
// a legal environment:
// - the upstream link (contract §2, §9): one flit per cycle; packets of one VC are not
//   interleaved (head first, len flits, tail last; len 1..LMAX); a flit on VC v is sent only
//   with a credit, i.e. while the VC holds fewer than BUF flits (held_q, released by ST);
// - route compute: the packet whose head arrived in cycle c is appended (RQ) in cycle c+2
//   with its length, output port and next-hop VC (chosen freely at the head);
// - the allocator: a match only on a request (req_o); credits and free outputs are free.
// Every flit carries {vc, ovc, oport, seq, idx} in its payload: seq = the packet's number in
// its queue (mod 4; the queue is (VC, output) with VOQ = 1, the VC with VOQ = 0), idx = its
// number in the packet.
// Properties:
//   slots: no slot doubled (a slot handed out, fresh or from the free list, holds no flit
//     (own_q, the reference), is not reserved by another VC, and a write never lands on a
//     slot holding a flit) and no slot lost (used since reset = V reserved + slots holding
//     a flit + free-list entries, so never-used + free + reserved + held = all slots);
//   no write to a full buffer: a flit sent under the credit rule finds a slot to reserve,
//     and the slot it is written to holds no flit; ST releases only slots holding a flit;
//   per queue order: the flits leave packet by packet in the order the packets were
//     appended to their queue (per-VC FIFO order with VOQ = 0), each packet's flits in
//     order, head and tail marked, on the packet's output and next-hop VC.
// With VCA = 1 (§16.3, VOQ = 0) every packet also gets a fallback route {fb, fport, fvc}
// (free at the head) and the payload carries it; then a packet leaves on its primary or,
// if fb, on its fallback (port and VC), and every match follows the SA rule: the primary
// when it has the credits (len), else the fallback when fb is set and it has them.
module fv_input_buffer #(
  parameter int unsigned P = 2,     // ports
  parameter int unsigned V = 2,     // VCs
  parameter int unsigned BUF = 2,   // flits per VC
  parameter int unsigned VOQ = 1,   // queue organisation
  parameter int unsigned LMAX = 2,  // longest packet
  parameter bit VCA = 1'b0,         // §16.3 fallback routes (VOQ = 0)
  // payload {[fb, fvc, fport,] vc, ovc, oport, seq[1:0], idx[1:0]}
  localparam int unsigned PW = VCA ? 10 : 7,
  localparam int unsigned B = V * BUF,
  localparam int unsigned NS = B + V,
  localparam int unsigned NQ = (VOQ != 0) ? P : 1,
  localparam int unsigned NQT = V * NQ,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned SW = asw_pkg::slot_w(V, BUF),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned NSW = asw_pkg::cnt_w(NS)
) (
  input logic               clk_i,
  input logic               rst_ni,
  input logic               in_valid_i,
  input logic [VW-1:0]      in_vc_i,
  input logic [1:0]         in_len_i,    // length of a packet starting now
  input logic [PIW-1:0]     in_oport_i,  // its route
  input logic [VW-1:0]      in_ovc_i,
  input logic               in_fb_i,     // its fallback route (VCA)
  input logic [PIW-1:0]     in_fport_i,
  input logic [VW-1:0]      in_fvc_i,
  input logic [P-1:0]       out_free_i,
  input logic               st_hold_i,   // §17.7: the output waits (any cycle)
  input logic [P*V*CW-1:0]  cred_i,
  input logic [P*V-1:0]     resv_i,      // §8: (o, w) reserved by the last match (free)
  input logic               match_valid_i,
  input logic [PIW-1:0]     match_out_i,
  input logic [VW-1:0]      match_vc_i
);
  // ---- environment state ---------------------------------------------------
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  logic [1:0]     rx_rem_q[V];   // flits of VC v's current packet still to arrive (0: none)
  logic [1:0]     rx_idx_q[V];
  logic [1:0]     rx_seq_q[V];
  logic [PIW-1:0] rx_oport_q[V];
  logic [VW-1:0]  rx_ovc_q[V];
  logic [2:0]     rx_fb_q[V];    // {fb, fvc, fport} of VC v's current packet (VCA)
  logic [CW:0]    held_q[V];     // flits of VC v in the buffer (the upstream's credit view)
  logic [1:0]     arr_q[NQT];    // packets appended per queue (mod 4)
  logic [1:0]     dep_q[NQT];    // packets that started leaving per queue (mod 4)

  // the arriving flit
  logic           head;
  logic [1:0]     len, idx, seq;
  logic [PIW-1:0] oport;
  logic [VW-1:0]  ovc;
  logic           tail;
  logic [PW-1:0]  payload;
  logic [2:0]     fbr;           // {fb, fvc, fport} (VCA)
  int unsigned    qin;
  always_comb begin
    head = (rx_rem_q[in_vc_i] == 2'd0);
    len = in_len_i;
    oport = head ? in_oport_i : rx_oport_q[in_vc_i];
    ovc = head ? in_ovc_i : rx_ovc_q[in_vc_i];
    qin = 32'(in_vc_i) * NQ + ((VOQ != 0) ? 32'(oport) : 0);
    idx = head ? 2'd0 : rx_idx_q[in_vc_i];
    seq = head ? arr_q[qin] : rx_seq_q[in_vc_i];
    tail = head ? (len == 2'd1) : (rx_rem_q[in_vc_i] == 2'd1);
    fbr = head ? {in_fb_i, 1'(in_fvc_i), 1'(in_fport_i)} : rx_fb_q[in_vc_i];
    payload = PW'({fbr, 1'(in_vc_i), 1'(ovc), 1'(oport), seq, idx});
  end

  // RQ two cycles after the head (IW -> RC -> RQ)
  logic           r1_v_q, r2_v_q;
  logic [VW-1:0]  r1_vc_q, r2_vc_q;
  logic [SW-1:0]  r1_slot_q, r2_slot_q;
  logic [1:0]     r1_len_q, r2_len_q;
  logic [PIW-1:0] r1_oport_q, r2_oport_q;
  logic [VW-1:0]  r1_ovc_q, r2_ovc_q;
  logic [2:0]     r1_fb_q, r2_fb_q;

  // ---- the block -----------------------------------------------------------
  logic               iw_slot_ok;
  logic [SW-1:0]      iw_slot;
  logic               st_valid, st_head, st_tail, busy;
  logic [PIW-1:0]     st_out, busy_out;
  logic [VW-1:0]      st_ovc, st_vc;
  logic [63:0]        st_hdr;
  logic [PW-1:0]      st_payload;
  logic [V*P-1:0]     req;
  logic [P-1:0]       stall;
  logic [7:0]         match_len;
  logic [VW-1:0]      match_ovc;
  logic [NQT*CW-1:0]  occ, occ_next;
  logic [NQT-1:0]     q_valid, occ_touch;
  logic [NQT*VW-1:0]  q_ovc;
  logic [15:0]        hq_dest;
  logic               hq_adapted;
  logic [2:0]         hq_orig_vc;
  logic [P-1:0]       bstall;

  input_buffer #(.P(P), .V(V), .BUF(BUF), .LMAX(LMAX), .PW(PW), .VOQ(VOQ), .HQ(0), .VCA(VCA)) dut (
    .clk_i, .rst_ni,
    .in_valid_i, .in_head_i (head), .in_tail_i (tail), .in_vc_i,
    .in_hdr_i (64'h0), .in_payload_i (payload),
    .iw_slot_o (iw_slot),
    .rq_valid_i (r2_v_q), .rq_vc_i (r2_vc_q), .rq_slot_i (r2_slot_q),
    .rq_len_i (8'(r2_len_q)), .rq_oport_i (r2_oport_q), .rq_ovc_i (r2_ovc_q),
    .rq_mark_i (1'b0), .rq_fb_i (r2_fb_q[2]), .rq_fport_i (PIW'(r2_fb_q[0])),
    .rq_fvc_i (VW'(r2_fb_q[1])),
    .rq_dest_i (16'h0), .rq_adapted_i (1'b0), .rq_orig_vc_i (3'h0),
    .st_hold_i, .st_valid_o (st_valid), .st_out_o (st_out), .st_head_o (st_head), .st_tail_o (st_tail),
    .st_ovc_o (st_ovc), .st_vc_o (st_vc), .st_hdr_o (st_hdr), .st_payload_o (st_payload),
    .busy_o (busy), .busy_out_o (busy_out),
    .out_free_i, .cred_i, .resv_i, .req_o (req), .stall_o (stall),
    .match_valid_i, .match_out_i, .match_vc_i,
    .match_oh_i (match_valid_i ? P'(1) << match_out_i : '0),
    .match_vc_oh_i (match_valid_i ? V'(1) << match_vc_i : '0),
    .match_len_o (match_len), .match_ovc_o (match_ovc),
    .occ_o (occ), .q_valid_o (q_valid), .q_ovc_o (q_ovc), .occ_touch_o (occ_touch),
    .occ_next_o (occ_next),
    .hq_vc_i ('0), .hq_port_i ('0), .hq_dest_o (hq_dest), .hq_adapted_o (hq_adapted),
    .hq_orig_vc_o (hq_orig_vc),
    .bub_vcs_i ('0), .bub_cont_i ('0), .bstall_o (bstall),  // §16.1 bubble rule off
    .req_nf_o (), .in_free_o (), .sel_q_oh_i ('0), .pop_oh_i ('0)  // §8.1 off (SAPIPE = 0)
  );

  // ---- reference state: slots holding a flit, the packet leaving -------------
  logic [NS-1:0] own_q;
  logic [1:0]    tx_seq_q;       // seq and next idx of the packet leaving
  logic [1:0]    tx_idx_q;
  int unsigned   qout;
  assign qout = 32'(st_vc) * NQ + ((VOQ != 0) ? 32'(st_out) : 0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      own_q <= '0;
      for (int unsigned v = 0; v < V; v++) begin
        rx_rem_q[v] <= '0;
        held_q[v] <= '0;
      end
      for (int unsigned q = 0; q < NQT; q++) begin
        arr_q[q] <= '0;
        dep_q[q] <= '0;
      end
      r1_v_q <= 1'b0;
      r2_v_q <= 1'b0;
      tx_idx_q <= '0;
    end else begin
      own_q <= (own_q & ~((st_valid ? NS'(1) : NS'(0)) << dut.s_slot_q))
                      | ((in_valid_i ? NS'(1) : NS'(0)) << iw_slot);
      for (int unsigned v = 0; v < V; v++) begin
        held_q[v] <= held_q[v] + (CW+1)'(in_valid_i && 32'(in_vc_i) == v)
                               - (CW+1)'(st_valid && 32'(st_vc) == v);
      end
      if (in_valid_i) begin
        rx_rem_q[in_vc_i] <= head ? len - 2'd1 : rx_rem_q[in_vc_i] - 2'd1;
        rx_idx_q[in_vc_i] <= idx + 2'd1;
        rx_seq_q[in_vc_i] <= seq;
        rx_oport_q[in_vc_i] <= oport;
        rx_ovc_q[in_vc_i] <= ovc;
        rx_fb_q[in_vc_i] <= fbr;
        if (head) arr_q[qin] <= arr_q[qin] + 2'd1;
      end
      r1_v_q <= in_valid_i && head;
      r2_v_q <= r1_v_q;
      if (st_valid) begin
        if (st_head) begin
          dep_q[qout] <= dep_q[qout] + 2'd1;
          tx_seq_q <= dep_q[qout];
        end
        tx_idx_q <= st_tail ? 2'd0 : ((st_head ? 2'd0 : tx_idx_q) + 2'd1);
      end
    end
  end
  always_ff @(posedge clk_i) begin
    r1_vc_q <= in_vc_i;
    r1_slot_q <= iw_slot;
    r1_len_q <= len;
    r1_oport_q <= oport;
    r1_ovc_q <= ovc;
    r1_fb_q <= VCA ? fbr : 3'b000;
    r2_vc_q <= r1_vc_q;
    r2_slot_q <= r1_slot_q;
    r2_len_q <= r1_len_q;
    r2_oport_q <= r1_oport_q;
    r2_ovc_q <= r1_ovc_q;
    r2_fb_q <= r1_fb_q;
  end

  // ---- slot accounting -------------------------------------------------------
  // slots holding a flit (population count of own_q)
  function automatic int unsigned held_slots();
    int unsigned n;
    n = 0;
    for (int unsigned s = 0; s < NS; s++) n = n + 32'(own_q[s]);
    return n;
  endfunction
  // VCs other than v whose reserved slot is s
  function automatic logic reserved_by_other(input int unsigned v, input logic [SW-1:0] s);
    logic r;
    r = 1'b0;
    for (int unsigned u = 0; u < V; u++) r = r | (u != v && dut.vc_alloc_q[u] == s);
    return r;
  endfunction

  always_comb begin
    assume (rst_ni == !init_q);
    // the upstream link
    if (in_valid_i) begin
      assume (32'(in_vc_i) < V);
      assume (32'(held_q[in_vc_i]) < BUF);                        // credit rule
      if (head) begin
        assume (len >= 2'd1 && 32'(len) <= LMAX);
        assume (32'(in_oport_i) < P && 32'(in_ovc_i) < V);
        assume (32'(in_fport_i) < P && 32'(in_fvc_i) < V);
      end
    end
    // the allocator
    if (match_valid_i) begin
      assume (32'(match_out_i) < P && 32'(match_vc_i) < V);
      assume (req[32'(match_vc_i) * P + 32'(match_out_i)]);
    end

    if (!init_q) begin
      // no write to a full buffer; no flit overwritten; only held slots released
      if (in_valid_i) begin
        assert (dut.fresh_avail || dut.fl_valid);
        assert (!own_q[iw_slot]);
      end
      if (st_valid) assert (own_q[dut.s_slot_q]);
      // no slot doubled: the slot a write reserves for its VC (fresh or from the free
      // list) holds no flit, is no other VC's reserved slot, and is not the slot written
      if (in_valid_i) begin
        assert (!own_q[dut.new_slot] && dut.new_slot != iw_slot
                && !reserved_by_other(32'(in_vc_i), dut.new_slot));
      end
      // no slot lost: used since reset = reserved (one per VC) + holding a flit + free list
      assert (32'(dut.fresh_q) == V + held_slots() + 32'(dut.fl_count));
      for (int unsigned v = 0; v < V; v++) begin
        assert (32'(dut.vc_alloc_q[v]) < 32'(dut.fresh_q) && !own_q[dut.vc_alloc_q[v]]);
      end
      // order: the flit leaving is the next one of the oldest packet of its queue
      if (st_valid) begin
        assert (st_payload[6] == 1'(st_vc));
        if (VCA) begin  // §16.3: the primary, or the fallback if fb
          assert ((st_payload[5] == 1'(st_ovc) && st_payload[4] == 1'(st_out)) ||
                  (st_payload[PW-1] && st_payload[PW-2] == 1'(st_ovc) &&
                   st_payload[PW-3] == 1'(st_out)));
        end else begin
          assert (st_payload[5] == 1'(st_ovc) && st_payload[4] == 1'(st_out));
        end
        assert (st_payload[3:2] == (st_head ? dep_q[qout] : tx_seq_q));
        assert (st_payload[1:0] == (st_head ? 2'd0 : tx_idx_q));
        assert (st_head == (st_payload[1:0] == 2'd0));
      end
    end
  end

  // §16.3 SA rule at every match (VCA, bubble rule off: need = len): the head of the
  // matched VC took its primary iff the primary had the credits, else its fallback. The
  // credits are those of the previous cycle's start (§8, registered by SR), one more on an
  // (o, w) the last match reserved on.
  logic [P*V*CW-1:0] cred_prev_q;
  always_ff @(posedge clk_i) cred_prev_q <= cred_i;
  function automatic logic fits(input logic [PIW-1:0] o, input logic [VW-1:0] w,
                                input logic [7:0] len);
    return 32'(cred_prev_q[(32'(o)*V + 32'(w))*CW +: CW]) >=
           32'(len) + 32'(resv_i[32'(o)*V + 32'(w)]);
  endfunction
  if (VCA) begin : gen_vca_props
    always_comb begin
      if (!init_q && match_valid_i) begin
        automatic logic prim_ok = fits(dut.q_h_q[match_vc_i].oport, dut.q_h_q[match_vc_i].ovc,
                                       dut.q_h_q[match_vc_i].len);
        if (prim_ok) begin
          assert (match_out_i == dut.q_h_q[match_vc_i].oport &&
                  match_ovc == dut.q_h_q[match_vc_i].ovc);
        end else begin
          assert (dut.q_h_q[match_vc_i].fb && match_out_i == dut.q_h_q[match_vc_i].fport &&
                  match_ovc == dut.q_h_q[match_vc_i].fvc &&
                  fits(dut.q_h_q[match_vc_i].fport, dut.q_h_q[match_vc_i].fvc,
                       dut.q_h_q[match_vc_i].len));
        end
      end
    end
  end

  // The other outputs are left unread: Yosys removes the logic only they use (the header
  // memory, the §15 views), which keeps the BMC small.
endmodule
