// input_buffer.sv — one input port's flit memory, free list, flit chains, packet
// queues (VOQs or per-VC FIFOs), occupancy counters and streaming state (contract
// §4, §6, §7.8, §8). Slot numbers, free-list order and the memory organisation are not
// observable; this implementation is built for FPGA block RAM:
//
// - Three synchronous-read memories (ram_1r1w: one write, one registered read each):
//   flits {next, payload}, headers (written for head flits only, 64 bits per packet), and
//   packet links: pkt_mem[s] = the record {slot, len, oport, ovc, mark, head fields} of the
//   packet queued behind the packet whose head is in slot s. The free list is a fifo_fwft.
// - Every VC owns one reserved slot (vc_alloc_q): an arriving flit is written there together
//   with the slot reserved for the VC's next flit, so a flit read also yields its successor's
//   slot (no pointer-chasing read). Hence B + V slots for B = V*BUF flits.
// - The flit and header memories are read with the slot the streaming input sends in the next
//   cycle; they register that address (ram_1r1w RegAddr), so the allocation cycle ends at the
//   address register and the flit sent in cycle c is read behind it in cycle c. A slot is
//   never read in the cycle it is written: the matched head was written cycles before, and a
//   successor's slot is read only after the cut-through rule has seen it written.
// - Every queue keeps its first two packets' records in registers (head h_q, second s_q); a pop
//   moves the second up and refills it from pkt_mem, whose data arrives in the next cycle and
//   is used directly (s_eff) if that queue pops again, so one queue can pop every cycle.
// - A packet's remaining flit count (s_rem_q) gives the tail one cycle ahead of the RAM
//   data: whether an input and output are released this cycle depends on registers only.
// - With VCA (§16.3, ROUTE_CTRL mode 3; VOQ = 0 only) a record also holds the fallback
//   route {fb, fport, fvc}: a head whose primary (oport, ovc) lacks credits requests fport
//   instead if fb is set, fport is free and (fport, fvc) has the credits; a match takes the
//   route of the request it answers.
module input_buffer #(
  parameter int unsigned P = 8,     // ports
  parameter int unsigned V = 2,     // virtual channels per port
  parameter int unsigned BUF = 32,  // flits per input VC
  parameter int unsigned LMAX = 16, // longest packet in flits (contract §2: len in 1..LMAX);
                                    // a record keeps len in cnt_w(LMAX) bits
  parameter int unsigned PW = 32,   // payload bits per flit (0: none)
  parameter int unsigned VOQ = 1,   // 1: one queue per (VC, output port); 0: one per VC
  parameter int unsigned HQ = 0,    // 1: keep queue heads' dest/adapted/orig_vc for the hq port (§15)
  parameter bit VCA = 1'b0,         // §16.3 fallback routes (needs VOQ = 0)
  // §8.1 (SAPIPE = 1): the queue a match pops is the allocator's registered selection
  // (sel_q_oh_i), so the matched records are selected from registers, not from the grant
  parameter bit SAPIPE = 1'b0,
  localparam int unsigned PWE = (PW == 0) ? 1 : PW,  // storage width (PW = 0 keeps 1 dummy bit)
  localparam int unsigned B = V * BUF,
  localparam int unsigned NS = B + V,                // slots: flits + one reserved per VC
  localparam int unsigned NQ = (VOQ != 0) ? P : 1,
  localparam int unsigned NQT = V * NQ,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned SW = asw_pkg::slot_w(V, BUF),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned NSW = asw_pkg::cnt_w(NS),
  localparam int unsigned BW = asw_pkg::cnt_w(B),
  localparam int unsigned QIW = asw_pkg::idx_w(NQT),
  localparam int unsigned LW = asw_pkg::cnt_w(LMAX)  // packet length 1..LMAX
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // IW: arriving flit
  input  logic               in_valid_i,
  input  logic               in_head_i,
  input  logic               in_tail_i,
  input  logic [VW-1:0]      in_vc_i,
  input  logic [63:0]        in_hdr_i,
  input  logic [PWE-1:0]     in_payload_i,
  output logic [SW-1:0]      iw_slot_o,      // slot the flit is written to
  // RQ: append the packet of the route-result register (routed by RC last cycle)
  input  logic               rq_valid_i,
  input  logic [VW-1:0]      rq_vc_i,
  input  logic [SW-1:0]      rq_slot_i,
  input  logic [7:0]         rq_len_i,
  input  logic [PIW-1:0]     rq_oport_i,
  input  logic [VW-1:0]      rq_ovc_i,
  input  logic               rq_mark_i,      // header leaves with adapted = 1, orig_vc = rq_vc_i
  input  logic               rq_fb_i,        // §16.3 fallback route (VCA; 0 otherwise)
  input  logic [PIW-1:0]     rq_fport_i,
  input  logic [VW-1:0]      rq_fvc_i,
  input  logic [15:0]        rq_dest_i,      // header fields kept with the queue heads (HQ)
  input  logic               rq_adapted_i,
  input  logic [2:0]         rq_orig_vc_i,
  // ST: the streaming packet's output waits this cycle (§17.7 PORT_GAP): no flit
  input  logic               st_hold_i,
  // ST: flit sent this cycle (if st_valid_o) from the streaming packet
  output logic               st_valid_o,
  output logic [PIW-1:0]     st_out_o,
  output logic               st_head_o,
  output logic               st_tail_o,
  output logic [VW-1:0]      st_ovc_o,
  output logic [VW-1:0]      st_vc_o,
  output logic [63:0]        st_hdr_o,       // 0 unless head
  output logic [PWE-1:0]     st_payload_o,
  output logic               busy_o,         // streaming at the start of the cycle
  output logic               st_release_o,   // sends its tail this cycle (input and output freed)
  output logic [PIW-1:0]     busy_out_o,     // ... to this output
  output logic [P-1:0]       st_far_oh_o,    // one-hot: the output it streams to with more
                                             // than two flits left (§8.1 open; a register)
  output logic [P-1:0]       st_keep_oh_o,   // one-hot: the output it streams to and keeps
                                             // (busy, not at its tail; a register)
  output logic [P-1:0]       keep_nm_oh_o,   // st_keep_oh_o of the next cycle if not matched
                                             // now (from registers)
  output logic               m_long_o,       // the matched packet has more than one flit
                                             // (SAPIPE: from registers)
  // SA: requests from the queue heads
  input  logic [P-1:0]       out_free_i,
  input  logic [P*V*CW-1:0]  cred_i,
  input  logic [P*V-1:0]     resv_i,         // [o*V+w]: a match of the last cycle reserved on (o, w)
  output logic [V*P-1:0]     req_o,          // req_o[v*P+o]: head of a queue of VC v requests o
  output logic [V*P-1:0]     req_nf_o,       // ... the same but for the free masks (§8.1)
  output logic               in_free_o,      // the input is free for a match this cycle (§8)
  output logic [P-1:0]       stall_o,        // a queue head for o lacks credits (input free)
  input  logic               match_valid_i,
  input  logic [PIW-1:0]     match_out_i,
  input  logic [VW-1:0]      match_vc_i,
  input  logic [P-1:0]       match_oh_i,     // the same match one-hot: output (0 if none)
  input  logic [V-1:0]       match_vc_oh_i,  // ... and VC
  output logic [7:0]         match_len_o,    // length and next-hop VC of the matched packet
                                             // (§16.3: of the route the match answers)
  output logic [VW-1:0]      match_ovc_o,
  // occupancy per queue (§4), index v*NQ+q
  output logic [NQT*CW-1:0]  occ_o,
  // §15 views, index v*NQ+q: queue heads at the start of the cycle, queues with an RQ
  // append and/or ST release this cycle and their occupancy at the end of it
  output logic [NQT-1:0]     q_valid_o,
  output logic [NQT*VW-1:0]  q_ovc_o,
  output logic [NQT-1:0]     occ_touch_o,
  output logic [NQT*CW-1:0]  occ_next_o,
  // header read port (HQ = 1): head packet of queue (hq_vc_i, hq_port_i), header fields as
  // the packet will leave (with RC's mark applied); 0 with HQ = 0
  input  logic [VW-1:0]      hq_vc_i,
  input  logic [PIW-1:0]     hq_port_i,
  output logic [15:0]        hq_dest_o,
  output logic               hq_adapted_o,
  output logic [2:0]         hq_orig_vc_o,
  // §16.1 bubble rule (rtl/bubble.sv): VCs of each output under the rule ([o*V+w]), the
  // outputs whose ring this input continues; heads held by the rule alone, per output
  input  logic [P*V-1:0]     bub_vcs_i,
  input  logic [P-1:0]       bub_cont_i,
  output logic [P-1:0]       bstall_o,
  // §8.1 selection (SAPIPE), per queue v*NQ+q, from registers: the head (h) passed SR's
  // check of the last cycle, a packet (s) is queued behind it; their output ports, and
  // whether the head has one flit
  output logic [NQT-1:0]     sel_eh_o,
  output logic [NQT-1:0]     sel_es_o,
  output logic [NQT*PIW-1:0] sel_oh_o,
  output logic [NQT*PIW-1:0] sel_os_o,
  output logic [NQT-1:0]     sel_l1_o,
  // §8.1 (SAPIPE): the allocator's registered selection (one-hot over queues v*NQ+q, 0 if
  // none) and this cycle's pop (the selection if granted)
  input  logic [NQT-1:0]     sel_q_oh_i,
  input  logic [NQT-1:0]     pop_oh_i
);
  // A queued packet: where its head is, its route, and (HQ) the header fields §15 reads.
  typedef struct packed {
    logic [SW-1:0]  slot;
    logic [LW-1:0]  len;
    logic [PIW-1:0] oport;
    logic [VW-1:0]  ovc;
    logic           mark;
    logic           fb;         // §16.3 fallback route (VCA only, else 0)
    logic [PIW-1:0] fport;
    logic [VW-1:0]  fvc;
    logic [15:0]    dest;
    logic           adapted;
    logic [2:0]     orig_vc;
  } pkt_t;
  localparam int unsigned PKW = $bits(pkt_t);
  localparam int unsigned FW = SW + PWE;      // flit word {next slot, payload}

  // ---- state -------------------------------------------------------------
  logic [NSW-1:0] fresh_q;       // slots fresh_q..NS-1 were never used since reset
  logic [SW-1:0]  vc_alloc_q[V]; // reserved slot: where VC v's next flit is written
  logic [SW-1:0]  vc_last_q[V];  // slot of the last flit written on VC v
  logic [CW-1:0]  q_n_q[NQT];    // packets in the queue
  pkt_t           q_h_q[NQT];    // first packet (valid if q_n_q >= 1)
  pkt_t           q_s_q[NQT];    // second packet (valid if q_n_q >= 2, unless being refilled)
  logic [SW-1:0]  q_tail_q[NQT]; // head slot of the last packet
  logic [CW-1:0]  occ_q[NQT];
  logic           rf_valid_q;    // pkt_mem's read data is the second packet of queue rf_oh_q
  logic [NQT-1:0] rf_oh_q;       // ... (one-hot: the queue popped last cycle)
  logic           busy_q;
  logic [PIW-1:0] s_out_q;       // index of s_out_oh_q (the match's one-hot is registered)
  logic [VW-1:0]  s_vc_q;
  logic [VW-1:0]  s_ovc_q;
  logic           s_mark_q;
  logic           s_first_q;     // the next flit to send is the head
  logic [LW-1:0]  s_rem_q;       // flits of the packet still to send
  logic           s_last_q;      // s_rem_q == 1: the next flit to send is the tail
  // keep_q equals |keep_oh_q and keep_oh_q equals keep_q ? s_out_oh_q : 0; both are kept as
  // flip-flops on purpose, so that in_free and the output free masks start SA's cycle one
  // LUT from a register, not after an OR over P or an AND (the assertions below check them).
  logic           keep_q;        // busy_q && !s_last_q
  logic [P-1:0]   keep_oh_q;     // keep_q ? one-hot of s_out_q : 0
  logic [P-1:0]   far_oh_q;      // busy_q && s_rem_q > 2 ? one-hot of s_out_q : 0 (§8.1)
  logic [P-1:0]   s_out_oh_q;    // one-hot of s_out_q
  logic [SW-1:0]  s_slot_q;      // slot of the next flit to send

  // ---- IW: slot reservation and memory writes -------------------------------
  logic           fresh_avail;
  logic [SW-1:0]  new_slot;      // becomes the VC's reserved slot
  logic           fl_pop, fl_valid;
  logic [SW-1:0]  fl_data;
  logic [BW-1:0]  fl_count;
  assign fresh_avail = (32'(fresh_q) < NS);
  assign new_slot = fresh_avail ? SW'(fresh_q) : fl_data;
  assign fl_pop = in_valid_i && !fresh_avail;
  assign iw_slot_o = vc_alloc_q[in_vc_i];

  // ---- ST ------------------------------------------------------------------
  logic [FW-1:0]  flit_rdata;    // flit_mem[s_slot_q]
  logic [63:0]    hdr_rdata;     // hdr_mem[s_slot_q]
  logic           st_release;
  logic [SW-1:0]  s_slot_d;
  // Cut-through rule: the successor of a non-tail flit must have been written.
  // §17.7: nothing while the output waits.
  assign st_valid_o = busy_q && !st_hold_i && (s_last_q || (vc_last_q[s_vc_q] != s_slot_q));
  assign st_head_o = s_first_q;
  assign st_tail_o = s_last_q;
  assign st_payload_o = flit_rdata[PWE-1:0];
  // RC's mark (§15.1, §15.5) rewrites adapted/orig_vc of the stored header; it is kept with
  // the packet's record and applied when the header is read.
  function automatic logic [63:0] hdr_eff(input logic [63:0] h, input logic mark,
                                          input logic [VW-1:0] v);
    return mark ? {h[63:48], 3'(v), 1'b1, h[43:0]} : h;
  endfunction
  assign st_hdr_o = s_first_q ? hdr_eff(hdr_rdata, s_mark_q, s_vc_q) : 64'h0;
  always_comb begin
    s_out_q = '0;
    for (int unsigned o = 0; o < P; o++) begin
      s_out_q = s_out_q | (s_out_oh_q[o] ? PIW'(o) : '0);
    end
  end
  assign st_out_o = s_out_q;
  assign st_ovc_o = s_ovc_q;
  assign st_vc_o = s_vc_q;
  assign st_release = busy_q && !st_hold_i && s_last_q;  // a tail: sendable unless held
  assign st_release_o = st_release;
  assign busy_o = busy_q;
  assign busy_out_o = s_out_q;
  assign st_far_oh_o = far_oh_q;

  // ---- SA requests ------------------------------------------------------
  logic in_free;
  // free unless it streams and does not send its tail now (from registers: keep_q)
  assign in_free = !(keep_q || (busy_q && st_hold_i));
  assign in_free_o = in_free;
  assign st_keep_oh_o = keep_oh_q;

  // With VOQs the queue index gives the output port (a constant per queue).
  function automatic logic [PIW-1:0] q_oport(input int unsigned k, input logic [PIW-1:0] o);
    return (VOQ != 0) ? PIW'(k % NQ) : o;
  endfunction

  // Credits of (o, w) and whether (o, w) is under the bubble rule: AND-OR selects with
  // constant indices (no index multiplier in the request path), the port's row of V
  // {bubble, credits} pairs first, then the VC within it. With VOQs a queue's port is a
  // constant and its row a constant slice.
  localparam int unsigned RW = V * (CW + 1);  // one port's row: V {bubble, credits} pairs
  logic [P-1:0][RW-1:0] rows;                 // wiring only
  always_comb begin
    for (int unsigned oo = 0; oo < P; oo++) begin
      for (int unsigned ww = 0; ww < V; ww++) begin
        rows[oo][ww*(CW+1) +: CW+1] = {bub_vcs_i[oo*V + ww], cred_i[(oo*V + ww)*CW +: CW]};
      end
    end
  end
  // It reads rows itself: as an argument a simulator copies it per call.
  function automatic logic [RW-1:0] port_row(input logic [PIW-1:0] o);
    logic [RW-1:0] r;
    r = '0;
    for (int unsigned oo = 0; oo < P; oo++) begin
      if (32'(o) == oo) begin
        r = r | rows[oo];
      end
    end
    return r;
  endfunction
  function automatic logic [CW:0] vc_of(input logic [RW-1:0] r, input logic [VW-1:0] w);
    logic [CW:0] s;
    s = '0;
    for (int unsigned ww = 0; ww < V; ww++) begin
      if (32'(w) == ww) begin
        s = s | r[ww*(CW+1) +: CW+1];
      end
    end
    return s;
  endfunction

  // SR (§8): the credit checks of the packet that heads each queue in the next cycle (the
  // second packet if this cycle's match pops the queue), against the credits now, are
  // registered; SA uses them in the next cycle. Per packet: credits >= len, >= len + 1,
  // >= 2*len, >= 2*len + 1 (the +1 variants for an (o, w) the match of this cycle reserves on,
  // the 2*len ones for the §16.1 rule); the same for the §16.3 fallback route (VCA).
  typedef struct packed {
    logic [3:0] p;   // primary: {2len+1, 2len, len+1, len}
    logic [3:0] f;   // fallback (VCA only, else 0)
  } ck_t;
  // Wide enough for cr and 2*len + 1 (len <= LMAX, contract §2).
  localparam int unsigned KW = (CW > LW + 1 ? CW : LW + 1) + 1;
  function automatic logic [3:0] ck4(input logic [CW-1:0] cr, input logic [LW-1:0] len);
    logic [KW-1:0] c, l;
    c = KW'(cr);
    l = KW'(len);
    return {c >= 2*l + KW'(1), c >= 2*l, c >= l + KW'(1), c >= l};
  endfunction
  function automatic ck_t ck_pkt(input int unsigned k, input logic [PIW-1:0] oport,
                                 input logic [VW-1:0] ovc, input logic [LW-1:0] len,
                                 input logic [PIW-1:0] fport, input logic [VW-1:0] fvc);
    ck_t r;
    logic [PIW-1:0] o;
    logic [CW-1:0]  cr;
    logic           unused_bub, unused_fbub;
    logic [CW-1:0]  fcr;
    o = q_oport(k, oport);
    {unused_bub, cr} = vc_of((VOQ != 0) ? rows[k % NQ] : port_row(o), ovc);
    r.p = ck4(cr, len);
    r.f = '0;
    if (VCA) begin
      {unused_fbub, fcr} = vc_of(port_row(fport), fvc);
      r.f = ck4(fcr, len);
    end
    return r;
  endfunction

  logic [NQT-1:0] el_q, el_d;    // the queue's head was queued at the start of the last cycle
  ck_t            ck_q[NQT], ck_d[NQT];  // its credit checks against that cycle's credits
  logic [P-1:0]   oh_q[NQT], oh_d[NQT];  // its output port, one-hot (VOQ = 0; else constant)

  // SA (§8): a head requests with the checks of the last cycle: need = len, or 2*len under
  // the §16.1 rule (its state now), one credit more on an (o, w) the last match reserved on.
  function automatic logic sel_ck(input logic [3:0] c, input logic dbl, input logic m);
    return dbl ? (m ? c[3] : c[2]) : (m ? c[1] : c[0]);
  endfunction
  logic [V-1:0] fb_req;   // §16.3: the head of VC v requests its fallback route
  always_comb begin
    req_o = '0;
    req_nf_o = '0;
    stall_o = '0;
    bstall_o = '0;
    fb_req = '0;
    for (int unsigned v = 0; v < V; v++) begin
      for (int unsigned q = 0; q < NQ; q++) begin
        logic [VW-1:0]  w;
        logic           bub;   // the head's (o, w) is under the bubble rule
        logic           m;     // (o, w) reserved by the last cycle's match
        logic [PIW-1:0] fo;    // §16.3 fallback route (fport, fvc)
        logic [VW-1:0]  fw;
        logic           fbub, fm;
        logic           ok;    // the primary request's check holds
        w = q_h_q[v*NQ+q].ovc;
        fo = '0;
        fw = '0;
        fbub = 1'b0;
        fm = 1'b0;
        if (VCA) begin  // only with §16.3 hardware (a simulator evaluates it otherwise too)
          fo = q_h_q[v*NQ+q].fport;
          fw = q_h_q[v*NQ+q].fvc;
          fbub = bub_vcs_i[32'(fo)*V + 32'(fw)] && !(bub_cont_i[fo] && (32'(fw) == v));
          fm = resv_i[32'(fo)*V + 32'(fw)];
        end
        // Per output, selected by the registered one-hot port (no decode of the head's
        // port in this cycle; with VOQs the constant port of the queue).
        ok = 1'b0;
        for (int unsigned o = 0; o < P; o++) begin
          bub = bub_vcs_i[o*V + 32'(w)] && !(bub_cont_i[o] && (32'(w) == v));
          m = resv_i[o*V + 32'(w)];
          // the checks hold only with el (ck_d): the request needs no el term
          if (oh_q[v*NQ+q][o] && sel_ck(ck_q[v*NQ+q].p, bub, m)) begin
            req_o[v*P + o] = in_free && out_free_i[o];
            req_nf_o[v*P + o] = 1'b1;
            ok = 1'b1;
          end else if (el_q[v*NQ+q] && oh_q[v*NQ+q][o]) begin
            stall_o[o] = in_free;
            if (sel_ck(ck_q[v*NQ+q].p, 1'b0, m)) begin
              bstall_o[o] = in_free;
            end
          end
        end
        // §16.3: the primary lacks credits; the fallback is tried (fb = 0 without VCA)
        if (VCA && el_q[v*NQ+q] && !ok && q_h_q[v*NQ+q].fb && out_free_i[fo] &&
            sel_ck(ck_q[v*NQ+q].f, fbub, fm)) begin
          req_o[v*P + 32'(fo)] = in_free;
          fb_req[v] = 1'b1;
        end
      end
    end
  end

  pkt_t           s_eff[NQT];    // second packet, with a refill arriving this cycle
  logic [QIW-1:0] match_q_idx;
  assign match_q_idx = (VOQ != 0) ? QIW'(32'(match_vc_i)*NQ + 32'(match_out_i))
                                  : QIW'(match_vc_i);
  logic [PKW-1:0] pkt_rdata;     // pkt_mem word read for the refill issued last cycle
  always_comb begin
    for (int unsigned k = 0; k < NQT; k++) begin
      s_eff[k] = (rf_valid_q && rf_oh_q[k]) ? pkt_t'(pkt_rdata) : q_s_q[k];
    end
  end
  // The queue a match pops, one-hot from the allocator's one-hot output and VC (no index
  // encode/decode after iSLIP), and its head and second records by AND-OR selects. With
  // SAPIPE the popped queue is the registered selection: the records are selected by it
  // before the grant, which only enables them.
  logic [NQT-1:0] pop_oh;
  logic [NQT-1:0] rec_oh;        // selects the matched queue's records
  if (!SAPIPE) begin : gen_no_pipe
    logic unused_pipe;
    assign unused_pipe = ^{sel_q_oh_i, pop_oh_i};
  end
  pkt_t           m_h;           // head record of the matched queue
  logic [SW-1:0]  m_s_slot;      // head slot of the packet behind it (s_eff)
  always_comb begin
    m_h = '0;
    m_s_slot = '0;
    for (int unsigned v = 0; v < V; v++) begin
      for (int unsigned q = 0; q < NQ; q++) begin
        if (SAPIPE) begin
          pop_oh[v*NQ+q] = pop_oh_i[v*NQ+q];
          rec_oh[v*NQ+q] = sel_q_oh_i[v*NQ+q];
        end else begin
          pop_oh[v*NQ+q] = match_vc_oh_i[v] && ((VOQ != 0) ? match_oh_i[q] : 1'b1);
          rec_oh[v*NQ+q] = pop_oh[v*NQ+q];
        end
        m_h = m_h | (rec_oh[v*NQ+q] ? q_h_q[v*NQ+q] : '0);
        m_s_slot = m_s_slot | (rec_oh[v*NQ+q] ? s_eff[v*NQ+q].slot : '0);
      end
    end
  end
  assign match_len_o = 8'(m_h.len);
  // §16.3: a match on a fallback request leaves on fvc (its port is match_out_i)
  assign match_ovc_o = (VCA && |(match_vc_oh_i & fb_req)) ? m_h.fvc : m_h.ovc;

  // ---- queues: pop first, then append (contract §5 rule 2) --------------------
  logic [QIW-1:0] rq_q_idx;
  assign rq_q_idx = (VOQ != 0) ? QIW'(32'(rq_vc_i)*NQ + 32'(rq_oport_i)) : QIW'(rq_vc_i);
  logic [QIW-1:0] st_q_idx;
  assign st_q_idx = (VOQ != 0) ? QIW'(32'(s_vc_q)*NQ + 32'(s_out_q)) : QIW'(s_vc_q);

  pkt_t rq_pkt;
  always_comb begin
    rq_pkt = '0;
    rq_pkt.slot = rq_slot_i;
    rq_pkt.len = rq_len_i[LW-1:0];
    rq_pkt.oport = rq_oport_i;
    rq_pkt.ovc = rq_ovc_i;
    rq_pkt.mark = rq_mark_i;
    if (VCA) begin
      rq_pkt.fb = rq_fb_i;
      rq_pkt.fport = rq_fport_i;
      rq_pkt.fvc = rq_fvc_i;
    end
    if (HQ != 0) begin
      rq_pkt.dest = rq_dest_i;
      rq_pkt.adapted = rq_adapted_i;
      rq_pkt.orig_vc = rq_orig_vc_i;
    end
  end

  // SR's credit checks of each queue's head and of the packet behind it (the head of the
  // next cycle if SA pops the queue now).
  ck_t ck_h[NQT], ck_s[NQT];
  always_comb begin
    for (int unsigned k = 0; k < NQT; k++) begin
      ck_h[k] = ck_pkt(k, q_h_q[k].oport, q_h_q[k].ovc, q_h_q[k].len, q_h_q[k].fport,
                       q_h_q[k].fvc);
      ck_s[k] = ck_pkt(k, s_eff[k].oport, s_eff[k].ovc, s_eff[k].len, s_eff[k].fport,
                       s_eff[k].fvc);
      // §8.1 eligibility from registers: the head passed SR's check of the last cycle
      // (queued then, CRED >= len); the packet behind it is queued now (no credit check)
      sel_eh_o[k] = el_q[k] && ck_q[k].p[0];
      sel_es_o[k] = (32'(q_n_q[k]) >= 2);
      sel_oh_o[k*PIW +: PIW] = q_oport(k, q_h_q[k].oport);
      sel_os_o[k*PIW +: PIW] = q_oport(k, s_eff[k].oport);
      sel_l1_o[k] = (q_h_q[k].len == LW'(1));
    end
  end

  logic [CW-1:0]  q_n_d[NQT];
  pkt_t           q_h_d[NQT];
  pkt_t           q_s_d[NQT];
  logic [SW-1:0]  q_tail_d[NQT];
  logic [CW-1:0]  occ_d[NQT];
  logic           pkt_we;        // pkt_mem[tail] = appended packet (queue not empty at the start)
  logic [SW-1:0]  pkt_waddr;
  logic           rf_valid_d;
  logic [SW-1:0]  rf_addr;       // pkt_mem read: the packet behind the new second one

  always_comb begin
    pkt_we = 1'b0;
    pkt_waddr = '0;
    for (int unsigned k = 0; k < NQT; k++) begin
      logic pop;
      logic app;
      pop = pop_oh[k];
      app = rq_valid_i && (32'(rq_q_idx) == k);
      // With one queue per VC (VOQ = 0), the head and second records are computed for both
      // outcomes of this cycle's match and picked by the pop (one select after the
      // allocator: UP5K p4v1-up5k 24.2 -> 25.3 MHz); with VOQs, P*V copies of that cost
      // more than they buy (ECP5 p5v1-base +278 LUTs, no Fmax gain over three seeds).
      if (VOQ == 0) begin
        pkt_t h_pop, h_keep, s_pop, s_keep;
        logic [CW-1:0] n_app;
        h_pop = (app && (q_n_q[k] == CW'(1))) ? rq_pkt : s_eff[k];
        h_keep = (app && (q_n_q[k] == '0)) ? rq_pkt : q_h_q[k];
        s_pop = (app && (q_n_q[k] == CW'(2))) ? rq_pkt : s_eff[k];
        s_keep = (app && (q_n_q[k] == CW'(1))) ? rq_pkt : s_eff[k];
        n_app = q_n_q[k] + CW'(app);
        q_h_d[k] = pop ? h_pop : h_keep;
        q_s_d[k] = pop ? s_pop : s_keep;
        q_n_d[k] = pop ? n_app - CW'(1) : n_app;
      end else begin
        q_h_d[k] = (app && (q_n_q[k] - CW'(pop) == '0)) ? rq_pkt : pop ? s_eff[k] : q_h_q[k];
        q_s_d[k] = (app && (q_n_q[k] - CW'(pop) == CW'(1))) ? rq_pkt : s_eff[k];
        q_n_d[k] = q_n_q[k] - CW'(pop) + CW'(app);
      end
      q_tail_d[k] = q_tail_q[k];
      occ_d[k] = occ_q[k];
      // SR: checks of the packet heading the queue next cycle, if it is queued now
      el_d[k] = pop ? (32'(q_n_q[k]) >= 2) : (q_n_q[k] != '0);
      // held only with el (0 otherwise): a request needs one register less (reset, too)
      ck_d[k] = pop ? ((32'(q_n_q[k]) >= 2) ? ck_s[k] : '0) : ((q_n_q[k] != '0) ? ck_h[k] : '0);
      oh_d[k] = '0;
      oh_d[k][q_oport(k, pop ? s_eff[k].oport : q_h_q[k].oport)] = 1'b1;
      if (app) begin
        q_tail_d[k] = rq_slot_i;
        // The link behind the last packet is written whenever the queue holds one at the
        // start of the cycle (from registers, not from this cycle's pop): that packet is
        // queued or, if popped now, streaming, so its slot is not reused yet; the link is
        // read only if the appended packet becomes third or later.
        if (q_n_q[k] != '0) begin
          pkt_we = 1'b1;
          pkt_waddr = q_tail_q[k];
        end
        occ_d[k] = occ_d[k] + CW'(rq_len_i);
      end
      if (st_valid_o && (32'(st_q_idx) == k)) begin
        occ_d[k] = occ_d[k] - CW'(1);
      end
    end
    rf_valid_d = 1'b0;
    for (int unsigned k = 0; k < NQT; k++) begin
      rf_valid_d = rf_valid_d | (pop_oh[k] && (32'(q_n_q[k]) >= 3));
    end
    rf_addr = m_s_slot;
  end

  always_comb begin
    for (int unsigned k = 0; k < NQT; k++) begin
      occ_o[k*CW +: CW] = occ_q[k];
      q_valid_o[k] = (q_n_q[k] != '0);
      q_ovc_o[k*VW +: VW] = q_h_q[k].ovc;
      occ_touch_o[k] = (rq_valid_i && (32'(rq_q_idx) == k)) ||
                       (st_valid_o && (32'(st_q_idx) == k));
      occ_next_o[k*CW +: CW] = occ_d[k];
    end
  end

  // Header read port (§15.2 offender head), from the queue-head registers.
  logic [QIW-1:0] hq_idx;
  pkt_t           hq_pkt;
  assign hq_idx = (VOQ != 0) ? QIW'(32'(hq_vc_i)*NQ + 32'(hq_port_i)) : QIW'(hq_vc_i);
  assign hq_pkt = q_h_q[hq_idx];
  assign hq_dest_o = (HQ != 0) ? hq_pkt.dest : 16'h0;
  assign hq_adapted_o = (HQ != 0) && (hq_pkt.mark || hq_pkt.adapted);
  assign hq_orig_vc_o = (HQ == 0) ? 3'h0 : hq_pkt.mark ? 3'(hq_vc_i) : hq_pkt.orig_vc;

  // ---- next streaming slot -------------------------------------------------
  always_comb begin
    s_slot_d = s_slot_q;
    if (match_valid_i) begin
      s_slot_d = m_h.slot;
    end else if (st_valid_o && !st_tail_o) begin
      s_slot_d = flit_rdata[FW-1:PWE];
    end
  end

  // The next cycle's streaming state as SA sees it: busy and not at the tail.
  logic         keep_nm;         // keep_d if not matched now
  assign keep_nm = st_valid_o ? (!st_tail_o && (s_rem_q != LW'(2))) : keep_q;
  assign keep_nm_oh_o = keep_nm ? s_out_oh_q : '0;
  assign m_long_o = (m_h.len != LW'(1));
  logic         keep_d;
  logic         far_d;           // ... with more than two flits left (§8.1 open outputs)
  logic [P-1:0] s_out_oh_d;
  always_comb begin
    keep_d = keep_q;
    far_d = (far_oh_q != '0);
    s_out_oh_d = s_out_oh_q;
    if (match_valid_i) begin
      keep_d = m_long_o;
      far_d = (32'(m_h.len) > 2);
      s_out_oh_d = match_oh_i;
    end else if (st_valid_o) begin
      keep_d = keep_nm;
      far_d = (32'(s_rem_q) > 3);
    end
  end

  // ---- memories ------------------------------------------------------------
  ram_1r1w #(.W(FW), .DEPTH(NS), .RegAddr(1'b1)) u_flit_mem (
    .clk_i,
    .we_i    (in_valid_i),
    .waddr_i (iw_slot_o),
    .wdata_i ({new_slot, in_payload_i}),
    .raddr_i (s_slot_d),
    .rdata_o (flit_rdata)
  );

  ram_1r1w #(.W(64), .DEPTH(NS), .RegAddr(1'b1)) u_hdr_mem (
    .clk_i,
    .we_i    (in_valid_i && in_head_i),
    .waddr_i (iw_slot_o),
    .wdata_i (in_hdr_i),
    .raddr_i (s_slot_d),
    .rdata_o (hdr_rdata)
  );

  ram_1r1w #(.W(PKW), .DEPTH(NS)) u_pkt_mem (
    .clk_i,
    .we_i    (pkt_we),
    .waddr_i (pkt_waddr),
    .wdata_i (rq_pkt),
    .raddr_i (rf_addr),
    .rdata_o (pkt_rdata)
  );

  // Free list: slots released by ST; fresh slots are used first.
  fifo_fwft #(.W(SW), .DEPTH(B)) u_free (
    .clk_i,
    .rst_ni,
    .push_i      (st_valid_o),
    .push_data_i (s_slot_q),
    .pop_i       (fl_pop),
    .valid_o     (fl_valid),
    .data_o      (fl_data),
    .count_o     (fl_count)
  );

  // ---- register updates ----------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fresh_q <= NSW'(V);
      for (int unsigned v = 0; v < V; v++) begin
        vc_alloc_q[v] <= SW'(v);
        vc_last_q[v] <= '0;
      end
      rf_valid_q <= 1'b0;
      busy_q <= 1'b0;
      s_first_q <= 1'b0;
      s_rem_q <= '0;
      s_last_q <= 1'b0;
      keep_q <= 1'b0;
      keep_oh_q <= '0;
      far_oh_q <= '0;
      s_out_oh_q <= '0;
    end else begin
      if (in_valid_i && fresh_avail) begin
        fresh_q <= fresh_q + NSW'(1);
      end
      if (in_valid_i) begin
        vc_alloc_q[in_vc_i] <= new_slot;
        vc_last_q[in_vc_i] <= iw_slot_o;
      end
      rf_valid_q <= rf_valid_d;
      keep_q <= keep_d;
      keep_oh_q <= keep_d ? s_out_oh_d : '0;
      far_oh_q <= far_d ? s_out_oh_d : '0;
      s_out_oh_q <= s_out_oh_d;
      if (match_valid_i) begin
        busy_q <= 1'b1;
        s_first_q <= 1'b1;
        s_rem_q <= m_h.len;
        s_last_q <= (m_h.len == LW'(1));
      end else if (st_valid_o) begin
        s_first_q <= 1'b0;
        s_rem_q <= s_rem_q - LW'(1);
        s_last_q <= (s_rem_q == LW'(2));
        if (st_tail_o) begin
          busy_q <= 1'b0;
        end
      end
    end
  end

  // Data registers qualified by the state above: no reset needed.
  always_ff @(posedge clk_i) begin
    rf_oh_q <= pop_oh;
    s_slot_q <= s_slot_d;
    if (match_valid_i) begin
      s_vc_q <= match_vc_i;
      s_ovc_q <= match_ovc_o;
      s_mark_q <= m_h.mark;
    end
  end

  // Queue registers, one generate instance per queue (scales to V*P queues).
  for (genvar k = 0; k < NQT; k++) begin : gen_queue
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        q_n_q[k] <= '0;
        occ_q[k] <= '0;
        el_q[k] <= 1'b0;
        ck_q[k] <= '0;
      end else begin
        q_n_q[k] <= q_n_d[k];
        occ_q[k] <= occ_d[k];
        el_q[k] <= el_d[k];
        ck_q[k] <= ck_d[k];
      end
    end
    always_ff @(posedge clk_i) begin
      q_h_q[k] <= q_h_d[k];
      q_s_q[k] <= q_s_d[k];
      q_tail_q[k] <= q_tail_d[k];
    end
    if (VOQ == 0) begin : gen_oh
      always_ff @(posedge clk_i) begin
        oh_q[k] <= oh_d[k];
      end
    end else begin : gen_oh_voq
      assign oh_q[k] = P'(1) << (k % NQ);
      logic unused_oh;
      assign unused_oh = ^oh_d[k];
    end
  end

  logic unused;
  assign unused = ^{in_tail_i, rq_len_i, fl_valid, fl_count, hq_pkt.slot, hq_pkt.len, hq_pkt.oport,
                    hq_pkt.ovc, hq_pkt.fb, hq_pkt.fport, hq_pkt.fvc,
                    VCA ? 1'b0 : ^{rq_fb_i, rq_fport_i, rq_fvc_i}};

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
  // Flits held per VC (assertion bookkeeping only).
  logic [CW:0] vc_flits_q[V];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned v = 0; v < V; v++) begin
        vc_flits_q[v] <= '0;
      end
    end else begin
      for (int unsigned v = 0; v < V; v++) begin
        vc_flits_q[v] <= vc_flits_q[v] + (CW+1)'(in_valid_i && (32'(in_vc_i) == v))
                                        - (CW+1)'(st_valid_o && (32'(s_vc_q) == v));
      end
    end
  end

  logic [BW:0] held;
  always_comb begin
    held = '0;
    for (int unsigned v = 0; v < V; v++) begin
      held = held + (BW+1)'(vc_flits_q[v]);
    end
  end

  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      // No write to a full buffer: the VC has room and a slot can be reserved.
      if (in_valid_i) begin
        assert (32'(in_vc_i) < V) else $error("input_buffer: protocol error, VC %0d >= V", in_vc_i);
        assert (32'(vc_flits_q[in_vc_i]) < BUF)
          else $error("input_buffer: protocol error, write to full VC %0d", in_vc_i);
        assert (fresh_avail || fl_valid)
          else $error("input_buffer: write with an empty free list");
      end
      // Slots conserved: never used + released + reserved (one per VC) + holding a flit = NS.
      assert ((NS - 32'(fresh_q)) + 32'(fl_count) + V + 32'(held) == NS)
        else $error("input_buffer: free list (%0d fresh, %0d released) disagrees with %0d held flits",
                    NS - 32'(fresh_q), fl_count, held);
      // No flit leaves without a match; a match only for a free input and a queued packet.
      if (st_valid_o) begin
        assert (busy_q) else $error("input_buffer: flit sent without a match");
      end
      if (match_valid_i) begin
        assert (in_free && (q_n_q[match_q_idx] != '0))
          else $error("input_buffer: match for a busy input or an empty queue");
      end
      // the registered SA views of the streaming state agree with it
      assert (keep_q == (busy_q && !s_last_q) &&
              keep_oh_q == (keep_q ? P'(1) << s_out_q : '0) &&
              (!busy_q || s_out_oh_q == P'(1) << s_out_q) &&
              far_oh_q == ((busy_q && 32'(s_rem_q) > 2) ? P'(1) << s_out_q : '0))
        else $error("input_buffer: keep_q/keep_oh_q/far_oh_q/s_out_oh_q disagree with the streaming state");
      for (int unsigned k = 0; k < NQT; k++) begin
        assert (el_q[k] || ck_q[k] == '0) else $error("input_buffer: checks held without el");
      end
      // the one-hot match names the same queue as the indices
      assert (pop_oh == (match_valid_i ? NQT'(1) << match_q_idx : '0))
        else $error("input_buffer: one-hot match disagrees with its indices");
    end
  end

  // Coverage of the corner cases of §5 and §8 (reported by make coverage).
  cov_pop_append_same_queue: cover property (@(posedge clk_i)
    chk_en_q && match_valid_i && rq_valid_i && (match_q_idx == rq_q_idx));
  cov_pop_last_append_same_queue: cover property (@(posedge clk_i)
    chk_en_q && match_valid_i && rq_valid_i && (match_q_idx == rq_q_idx) &&
    (q_n_q[match_q_idx] == CW'(1)));
  cov_pop_refilling_queue: cover property (@(posedge clk_i)
    chk_en_q && match_valid_i && rf_valid_q && rf_oh_q[match_q_idx]);
  cov_buffer_full: cover property (@(posedge clk_i) chk_en_q && !fresh_avail && !fl_valid);
  cov_cut_through_bubble: cover property (@(posedge clk_i) chk_en_q && busy_q && !st_valid_o);
  cov_release_and_match: cover property (@(posedge clk_i) chk_en_q && st_release && match_valid_i);
  cov_stall_on_credits: cover property (@(posedge clk_i) chk_en_q && (stall_o != '0));
  // §16.3: a fallback requested and matched
  cov_fallback_request: cover property (@(posedge clk_i) chk_en_q && (fb_req != '0));
  cov_fallback_match: cover property (@(posedge clk_i)
    chk_en_q && match_valid_i && fb_req[match_vc_i]);
  if (VCA) begin : gen_vca_chk
    initial begin
      assert (VOQ == 0) else $fatal(1, "input_buffer: VCA (§16.3) needs VOQ = 0");
    end
  end
`endif
endmodule
