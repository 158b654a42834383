// asw_axis_tx.sv — one switch output link to an AXI4-Stream master (contract §2, §3).
// The link interleaves packets of different VCs, a stream cannot: each VC has its
// own FIFO of BUF flits, exactly the credits the switch starts with for this
// output (CRED = BUF, §9), so every flit the switch may send has a place and none
// is ever lost. Whole packets leave one after the other, the VCs taking turns
// (round robin at packet boundaries, cut-through: a packet may start before its
// tail arrived); every flit leaving returns one credit to the switch (cr_*_o).
// Stream fields: tdata payload; tlast = tail; tdest = header dest[DW-1:0];
// tuser[2:0] = the link VC the packet arrived on, tuser[50:3] = header [63:16]
// (src, sl, len, adapted, orig_vc, seq), constant through the packet.
module asw_axis_tx #(
  parameter int unsigned V = 2,      // virtual channels of the link (contract §1)
  parameter int unsigned BUF = 32,   // flits per VC FIFO = credits of an output VC
  parameter int unsigned PWE = 32,   // payload bits per beat (max(PW, 1))
  parameter int unsigned DW = 16,    // destination bits
  localparam int unsigned UW = 51,   // tuser width
  localparam int unsigned VW = asw_pkg::idx_w(V)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // switch output link and the credits returned to it
  input  logic           out_valid_i,
  input  logic           out_head_i,
  input  logic           out_tail_i,
  input  logic [2:0]     out_vc_i,
  input  logic [63:0]    out_hdr_i,
  input  logic [PWE-1:0] out_payload_i,
  output logic           cr_valid_o,
  output logic [2:0]     cr_vc_o,
  // AXI4-Stream master
  output logic           m_tvalid_o,
  input  logic           m_tready_i,
  output logic [PWE-1:0] m_tdata_o,
  output logic           m_tlast_o,
  output logic [DW-1:0]  m_tdest_o,
  output logic [UW-1:0]  m_tuser_o
);
  localparam int unsigned EW = 2 + 64 + PWE;  // {head, tail, hdr, payload}

  logic [V-1:0]  q_valid, q_pop, gnt;
  logic [EW-1:0] q_data[V];
  logic [VW-1:0] sel_q, sel_d, ptr_q, gnt_idx;
  logic          lock_q;                     // sel_q is inside a packet
  logic [63:0]   hdr_q;                      // header of the packet leaving
  logic          e_head, e_tail;
  logic [63:0]   e_hdr, hdr_cur;
  logic [PWE-1:0] e_payload;
  logic          fire;

  for (genvar v = 0; v < V; v++) begin : gen_vc
    logic [asw_pkg::cnt_w(BUF)-1:0] unused_count;
    fifo_fwft #(.W(EW), .DEPTH(BUF)) u_q (
      .clk_i,
      .rst_ni,
      .push_i     (out_valid_i && 32'(out_vc_i) == v),
      .push_data_i({out_head_i, out_tail_i, out_hdr_i, out_payload_i}),
      .pop_i      (q_pop[v]),
      .valid_o    (q_valid[v]),
      .data_o     (q_data[v]),
      .count_o    (unused_count)
    );
  end

  rr_arbiter #(.N(V)) u_arb (
    .req_i (q_valid),
    .ptr_i (ptr_q),
    .gnt_o (gnt),
    .idx_o (gnt_idx)
  );

  // Between packets the next VC is the arbiter's (its FIFO head is a head flit);
  // inside a packet it stays sel_q until the tail leaves.
  assign sel_d = lock_q ? sel_q : gnt_idx;
  assign {e_head, e_tail, e_hdr, e_payload} = q_data[sel_d];
  assign hdr_cur = e_head ? e_hdr : hdr_q;

  assign m_tvalid_o = lock_q ? q_valid[sel_q] : (gnt != '0);
  assign m_tdata_o = e_payload;
  assign m_tlast_o = e_tail;
  assign m_tdest_o = hdr_cur[DW-1:0];
  logic [15:0] unused_dest;  // dest bits >= DW are 0 (contract §2)
  assign unused_dest = hdr_cur[15:0];
  assign m_tuser_o = {hdr_cur[63:16], 3'(sel_d)};
  assign fire = m_tvalid_o && m_tready_i;

  always_comb begin
    q_pop = '0;
    q_pop[sel_d] = fire;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sel_q <= '0;
      ptr_q <= '0;
      lock_q <= 1'b0;
      hdr_q <= '0;
      cr_valid_o <= 1'b0;
      cr_vc_o <= '0;
    end else begin
      cr_valid_o <= fire;
      cr_vc_o <= fire ? 3'(sel_d) : 3'd0;
      if (fire) begin
        sel_q <= sel_d;
        lock_q <= !e_tail;
        if (e_head) begin
          hdr_q <= e_hdr;
        end
        if (e_tail) begin
          ptr_q <= (32'(sel_d) == V - 1) ? '0 : sel_d + VW'(1);
        end
      end
    end
  end
endmodule
