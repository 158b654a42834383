// input_buffer.sv — one input port's flit memory, free list, flit chains, packet
// queues (VOQs or per-VC FIFOs), occupancy counters and streaming state (contract
// §4, §6, §7.8, §8). Slot numbers and free-list order are not observable.
module input_buffer #(
  parameter int unsigned P = 8,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 32,
  parameter int unsigned PW = 32,
  parameter int unsigned VOQ = 1,
  localparam int unsigned PWE = (PW == 0) ? 1 : PW,  // storage width (PW = 0 keeps 1 dummy bit)
  localparam int unsigned B = V * BUF,
  localparam int unsigned NQ = (VOQ != 0) ? P : 1,
  localparam int unsigned NQT = V * NQ,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned SW = asw_pkg::idx_w(B),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned BW = asw_pkg::cnt_w(B),
  localparam int unsigned QIW = asw_pkg::idx_w(NQT)
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
  // RC: append a routed packet
  input  logic               rc_valid_i,
  input  logic [VW-1:0]      rc_vc_i,
  input  logic [SW-1:0]      rc_slot_i,
  input  logic [7:0]         rc_len_i,
  input  logic [PIW-1:0]     rc_oport_i,
  input  logic [VW-1:0]      rc_ovc_i,
  input  logic               rc_mark_i,      // header leaves with adapted = 1, orig_vc = rc_vc_i
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
  output logic [PIW-1:0]     busy_out_o,     // ... to this output
  // SA: requests from the queue heads
  input  logic [P-1:0]       out_free_i,
  input  logic [P*V*CW-1:0]  cred_i,
  output logic [V*P-1:0]     req_o,          // req_o[v*P+o]: head of a queue of VC v requests o
  output logic [P-1:0]       stall_o,        // a queue head for o lacks credits (input free)
  input  logic               match_valid_i,
  input  logic [PIW-1:0]     match_out_i,
  input  logic [VW-1:0]      match_vc_i,
  output logic [7:0]         match_len_o,    // length and next-hop VC of the matched packet
  output logic [VW-1:0]      match_ovc_o,
  // occupancy per queue (§4), index v*NQ+q
  output logic [NQT*CW-1:0]  occ_o,
  // §15 views, index v*NQ+q: queue heads at the start of the cycle, queues with an RC
  // append and/or ST release this cycle and their occupancy at the end of it
  output logic [NQT-1:0]     q_valid_o,
  output logic [NQT*VW-1:0]  q_ovc_o,
  output logic [NQT-1:0]     occ_touch_o,
  output logic [NQT*CW-1:0]  occ_next_o,
  // header read port: head packet of queue (hq_vc_i, hq_port_i), stored header fields
  input  logic [VW-1:0]      hq_vc_i,
  input  logic [PIW-1:0]     hq_port_i,
  output logic [15:0]        hq_dest_o,
  output logic               hq_adapted_o,
  output logic [2:0]         hq_orig_vc_o
);
  // ---- memories (plain RAMs: one write port, asynchronous reads) --------
  logic [PWE+1:0]         flit_mem[B];      // {head, tail, payload}
  logic [63:0]            hdr_mem[B];
  logic [SW-1:0]          flit_next_mem[B];
  logic [SW-1:0]          pkt_next_mem[B];
  logic [8+PIW+VW:0]      route_mem[B];     // {len, oport, ovc, mark} of head slots
  logic [SW-1:0]          free_mem[B];      // FIFO of released slots

  // ---- state -------------------------------------------------------------
  logic [BW-1:0]  fresh_q;       // slots fresh_q..B-1 were never used since reset
  logic [SW-1:0]  free_rd_q, free_wr_q;
  logic [BW-1:0]  free_cnt_q;
  logic [SW-1:0]  vc_last_q[V];
  logic [NQT-1:0] q_valid_q;
  logic [SW-1:0]  q_head_q[NQT];
  logic [SW-1:0]  q_tail_q[NQT];
  logic [7:0]     q_len_q[NQT];
  logic [PIW-1:0] q_oport_q[NQT];
  logic [VW-1:0]  q_ovc_q[NQT];
  logic [CW-1:0]  occ_q[NQT];
  logic           busy_q;
  logic [PIW-1:0] s_out_q;
  logic [VW-1:0]  s_vc_q;
  logic [VW-1:0]  s_ovc_q;
  logic [SW-1:0]  s_slot_q;

  // ---- IW: slot allocation -----------------------------------------------
  logic fresh_avail;
  assign fresh_avail = (32'(fresh_q) < B);
  assign iw_slot_o = fresh_avail ? SW'(fresh_q) : free_mem[free_rd_q];

  // ---- ST ------------------------------------------------------------------
  logic [PWE+1:0] st_flit;
  logic           st_release;
  assign st_flit = flit_mem[s_slot_q];
  assign st_head_o = st_flit[PWE+1];
  assign st_tail_o = st_flit[PWE];
  assign st_payload_o = st_flit[PWE-1:0];
  // Cut-through rule: the successor of a non-tail flit must have been written.
  assign st_valid_o = busy_q && (st_tail_o || (vc_last_q[s_vc_q] != s_slot_q));
  // RC's mark (§15.1, §15.5) rewrites adapted/orig_vc of the stored header; it lives in
  // route_mem (written once per packet, by RC) and is applied on every header read.
  function automatic logic [63:0] hdr_eff(input logic [63:0] h, input logic mark,
                                          input logic [VW-1:0] v);
    return mark ? {h[63:48], 3'(v), 1'b1, h[43:0]} : h;
  endfunction
  logic [8+PIW+VW:0] st_route;
  assign st_route = route_mem[s_slot_q];
  assign st_hdr_o = st_head_o ? hdr_eff(hdr_mem[s_slot_q], st_route[0], s_vc_q) : 64'h0;
  assign st_out_o = s_out_q;
  assign st_ovc_o = s_ovc_q;
  assign st_vc_o = s_vc_q;
  assign st_release = st_valid_o && st_tail_o;
  assign busy_o = busy_q;
  assign busy_out_o = s_out_q;

  // ---- SA requests ------------------------------------------------------
  logic in_free;
  assign in_free = !busy_q || st_release;

  always_comb begin
    req_o = '0;
    stall_o = '0;
    for (int unsigned v = 0; v < V; v++) begin
      for (int unsigned q = 0; q < NQ; q++) begin
        if (q_valid_q[v*NQ+q]) begin
          if (32'(q_len_q[v*NQ+q]) <=
              32'(cred_i[(32'(q_oport_q[v*NQ+q])*V + 32'(q_ovc_q[v*NQ+q]))*CW +: CW])) begin
            req_o[v*P + 32'(q_oport_q[v*NQ+q])] = in_free && out_free_i[q_oport_q[v*NQ+q]];
          end else begin
            stall_o[q_oport_q[v*NQ+q]] = in_free;
          end
        end
      end
    end
  end

  logic [QIW-1:0] match_q_idx;
  assign match_q_idx = (VOQ != 0) ? QIW'(32'(match_vc_i)*NQ + 32'(match_out_i))
                                  : QIW'(match_vc_i);
  assign match_len_o = q_len_q[match_q_idx];
  assign match_ovc_o = q_ovc_q[match_q_idx];

  // ---- next state ----------------------------------------------------------
  // Head of the matched queue after the pop (read before this cycle's append).
  logic [SW-1:0]       pop_next_slot;
  logic [8+PIW+VW:0]   pop_next_route;
  assign pop_next_slot = pkt_next_mem[q_head_q[match_q_idx]];
  assign pop_next_route = route_mem[pop_next_slot];

  logic [QIW-1:0] rc_q_idx;
  assign rc_q_idx = (VOQ != 0) ? QIW'(32'(rc_vc_i)*NQ + 32'(rc_oport_i))
                               : QIW'(rc_vc_i);
  logic [QIW-1:0] st_q_idx;
  assign st_q_idx = (VOQ != 0) ? QIW'(32'(s_vc_q)*NQ + 32'(s_out_q)) : QIW'(s_vc_q);

  logic [NQT-1:0] q_valid_d;
  logic [SW-1:0]  q_head_d[NQT];
  logic [SW-1:0]  q_tail_d[NQT];
  logic [7:0]     q_len_d[NQT];
  logic [PIW-1:0] q_oport_d[NQT];
  logic [VW-1:0]  q_ovc_d[NQT];
  logic [CW-1:0]  occ_d[NQT];
  logic           pkt_link_we;       // pkt_next[tail] = appended head slot
  logic [SW-1:0]  pkt_link_addr;

  always_comb begin
    pkt_link_we = 1'b0;
    pkt_link_addr = '0;
    for (int unsigned k = 0; k < NQT; k++) begin
      logic pop;
      logic app;
      logic nonempty_after_pop;
      q_valid_d[k] = q_valid_q[k];
      q_head_d[k] = q_head_q[k];
      q_tail_d[k] = q_tail_q[k];
      q_len_d[k] = q_len_q[k];
      q_oport_d[k] = q_oport_q[k];
      q_ovc_d[k] = q_ovc_q[k];
      occ_d[k] = occ_q[k];
      pop = match_valid_i && (32'(match_q_idx) == k);
      app = rc_valid_i && (32'(rc_q_idx) == k);
      // Pop first, then append (contract §5 rule 2).
      nonempty_after_pop = q_valid_q[k] && !(pop && (q_head_q[k] == q_tail_q[k]));
      if (pop) begin
        q_valid_d[k] = nonempty_after_pop;
        q_head_d[k] = pop_next_slot;
        {q_len_d[k], q_oport_d[k], q_ovc_d[k]} = pop_next_route[8+PIW+VW:1];
      end
      if (app) begin
        q_valid_d[k] = 1'b1;
        q_tail_d[k] = rc_slot_i;
        if (!nonempty_after_pop) begin
          q_head_d[k] = rc_slot_i;
          q_len_d[k] = rc_len_i;
          q_oport_d[k] = rc_oport_i;
          q_ovc_d[k] = rc_ovc_i;
        end else begin
          pkt_link_we = 1'b1;
          pkt_link_addr = q_tail_q[k];
        end
        occ_d[k] = occ_d[k] + CW'(rc_len_i);
      end
      if (st_valid_o && (32'(st_q_idx) == k)) begin
        occ_d[k] = occ_d[k] - CW'(1);
      end
    end
  end

  always_comb begin
    for (int unsigned k = 0; k < NQT; k++) begin
      occ_o[k*CW +: CW] = occ_q[k];
      q_valid_o[k] = q_valid_q[k];
      q_ovc_o[k*VW +: VW] = q_ovc_q[k];
      occ_touch_o[k] = (rc_valid_i && (32'(rc_q_idx) == k)) ||
                       (st_valid_o && (32'(st_q_idx) == k));
      occ_next_o[k*CW +: CW] = occ_d[k];
    end
  end

  // Header read port (§15.2 offender head).
  logic [QIW-1:0]      hq_idx;
  logic [SW-1:0]       hq_slot;
  logic [8+PIW+VW:0]   hq_route;
  logic [63:0]         hq_hdr;
  assign hq_idx = (VOQ != 0) ? QIW'(32'(hq_vc_i)*NQ + 32'(hq_port_i)) : QIW'(hq_vc_i);
  assign hq_slot = q_head_q[hq_idx];
  assign hq_route = route_mem[hq_slot];
  assign hq_hdr = hdr_eff(hdr_mem[hq_slot], hq_route[0], hq_vc_i);
  assign hq_dest_o = hq_hdr[15:0];
  assign hq_adapted_o = hq_hdr[44];
  assign hq_orig_vc_o = hq_hdr[47:45];

  // ---- memory writes ---------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (in_valid_i) begin
      flit_mem[iw_slot_o] <= {in_head_i, in_tail_i, in_payload_i};
      if (in_head_i) begin
        hdr_mem[iw_slot_o] <= in_hdr_i;
      end else begin
        flit_next_mem[vc_last_q[in_vc_i]] <= iw_slot_o;
      end
    end
    if (rc_valid_i) begin
      route_mem[rc_slot_i] <= {rc_len_i, rc_oport_i, rc_ovc_i, rc_mark_i};
    end
    if (pkt_link_we) begin
      pkt_next_mem[pkt_link_addr] <= rc_slot_i;
    end
    if (st_valid_o) begin
      free_mem[free_wr_q] <= s_slot_q;
    end
  end

  // ---- register updates ----------------------------------------------------
  logic take_fifo;
  assign take_fifo = in_valid_i && !fresh_avail;

  function automatic logic [SW-1:0] wrap_inc(input logic [SW-1:0] x);
    return (32'(x) == B - 1) ? '0 : x + SW'(1);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fresh_q <= '0;
      free_rd_q <= '0;
      free_wr_q <= '0;
      free_cnt_q <= '0;
      for (int unsigned v = 0; v < V; v++) begin
        vc_last_q[v] <= '0;
      end
      busy_q <= 1'b0;
      s_out_q <= '0;
      s_vc_q <= '0;
      s_ovc_q <= '0;
      s_slot_q <= '0;
    end else begin
      if (in_valid_i && fresh_avail) begin
        fresh_q <= fresh_q + BW'(1);
      end
      if (take_fifo) begin
        free_rd_q <= wrap_inc(free_rd_q);
      end
      if (st_valid_o) begin
        free_wr_q <= wrap_inc(free_wr_q);
      end
      free_cnt_q <= free_cnt_q + BW'(st_valid_o) - BW'(take_fifo);
      if (in_valid_i) begin
        vc_last_q[in_vc_i] <= iw_slot_o;
      end
      if (match_valid_i) begin
        busy_q <= 1'b1;
        s_out_q <= match_out_i;
        s_vc_q <= match_vc_i;
        s_ovc_q <= q_ovc_q[match_q_idx];
        s_slot_q <= q_head_q[match_q_idx];
      end else if (st_valid_o) begin
        if (st_tail_o) begin
          busy_q <= 1'b0;
        end else begin
          s_slot_q <= flit_next_mem[s_slot_q];
        end
      end
    end
  end

  // Queue registers, one generate instance per queue (scales to V*P queues).
  for (genvar k = 0; k < NQT; k++) begin : gen_queue
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        q_valid_q[k] <= 1'b0;
        q_head_q[k] <= '0;
        q_tail_q[k] <= '0;
        q_len_q[k] <= '0;
        q_oport_q[k] <= '0;
        q_ovc_q[k] <= '0;
        occ_q[k] <= '0;
      end else begin
        q_valid_q[k] <= q_valid_d[k];
        q_head_q[k] <= q_head_d[k];
        q_tail_q[k] <= q_tail_d[k];
        q_len_q[k] <= q_len_d[k];
        q_oport_q[k] <= q_oport_d[k];
        q_ovc_q[k] <= q_ovc_d[k];
        occ_q[k] <= occ_d[k];
      end
    end
  end

  logic unused_route_bits;  // route_mem read for the mark bit only; header fields unused
  assign unused_route_bits = ^{pop_next_route[0], st_route[8+PIW+VW:1], hq_route[8+PIW+VW:1], hq_hdr[63:48],
                               hq_hdr[43:16]};

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
      // No write to a full buffer: the VC has room and a free slot exists.
      if (in_valid_i) begin
        assert (32'(in_vc_i) < V) else $error("input_buffer: protocol error, VC %0d >= V", in_vc_i);
        assert (32'(vc_flits_q[in_vc_i]) < BUF)
          else $error("input_buffer: protocol error, write to full VC %0d", in_vc_i);
        assert (fresh_avail || (free_cnt_q != '0))
          else $error("input_buffer: write with an empty free list");
      end
      // Free-list count consistent: fresh + released slots = slots not holding a flit.
      assert ((B - 32'(fresh_q)) + 32'(free_cnt_q) == B - 32'(held))
        else $error("input_buffer: free list (%0d fresh, %0d released) disagrees with %0d held flits",
                    B - 32'(fresh_q), free_cnt_q, held);
      // No flit leaves without a match; a match only for a free input and a queued packet.
      if (st_valid_o) begin
        assert (busy_q) else $error("input_buffer: flit sent without a match");
      end
      if (match_valid_i) begin
        assert (in_free && q_valid_q[match_q_idx])
          else $error("input_buffer: match for a busy input or an empty queue");
      end
    end
  end

  // Coverage of the corner cases of §5 and §8 (reported by make coverage).
  cov_pop_append_same_queue: cover property (@(posedge clk_i)
    chk_en_q && match_valid_i && rc_valid_i && (match_q_idx == rc_q_idx));
  cov_pop_last_append_same_queue: cover property (@(posedge clk_i)
    chk_en_q && match_valid_i && rc_valid_i && (match_q_idx == rc_q_idx) &&
    (q_head_q[match_q_idx] == q_tail_q[match_q_idx]));
  cov_buffer_full: cover property (@(posedge clk_i) chk_en_q && !fresh_avail && (free_cnt_q == '0));
  cov_cut_through_bubble: cover property (@(posedge clk_i) chk_en_q && busy_q && !st_valid_o);
  cov_release_and_match: cover property (@(posedge clk_i) chk_en_q && st_release && match_valid_i);
  cov_stall_on_credits: cover property (@(posedge clk_i) chk_en_q && (stall_o != '0));
`endif
endmodule
