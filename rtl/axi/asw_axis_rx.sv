// asw_axis_rx.sv — AXI4-Stream slave to one switch input link (contract §2, §3).
// Store-and-forward: a packet is received whole (its length is known only at tlast)
// into a FIFO of 2*LMAX beats, then sent on the link as one packet on VC tuser[2:0]
// once the adapter holds len credits for that VC (it starts with BUF per VC, the
// switch returns one per flit on cr_in). So no flit is ever lost and the link
// protocol holds by construction. Stream fields:
//   tdata  payload (PWE bits); tlast = tail; tdest = header dest[DW-1:0] (dest bits
//   >= DW are 0); tuser[2:0] = link VC, tuser[50:3] = header bits [63:16] (src, sl,
//   adapted, orig_vc, seq; the len field [43:36] is ignored and replaced by the
//   beat count). tdest and tuser are taken from the first beat.
// A packet that cannot be sent is dropped whole and reported by a one-cycle pulse
// on drop_o: more than LMAX beats, or a VC >= V.
module asw_axis_rx #(
  parameter int unsigned V = 2,      // virtual channels of the link (contract §1)
  parameter int unsigned BUF = 32,   // credits per VC = the switch's input buffer per VC
  parameter int unsigned LMAX = 16,  // longest packet, beats
  parameter int unsigned PWE = 32,   // payload bits per beat (max(PW, 1))
  parameter int unsigned DW = 16,    // destination bits
  localparam int unsigned UW = 51,   // tuser width
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned LW = asw_pkg::cnt_w(2 * LMAX)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // AXI4-Stream slave
  input  logic           s_tvalid_i,
  output logic           s_tready_o,
  input  logic [PWE-1:0] s_tdata_i,
  input  logic           s_tlast_i,
  input  logic [DW-1:0]  s_tdest_i,
  input  logic [UW-1:0]  s_tuser_i,
  // switch input link and its credit return
  output logic           in_valid_o,
  output logic           in_head_o,
  output logic           in_tail_o,
  output logic [2:0]     in_vc_o,
  output logic [63:0]    in_hdr_o,
  output logic [PWE-1:0] in_payload_o,
  input  logic           cr_valid_i,
  input  logic [2:0]     cr_vc_i,
  // a packet was dropped (too long or VC >= V)
  output logic           drop_o
);
  localparam int unsigned DescW = 1 + 3 + 64;  // {drop, vc, hdr}

  // ---- receive side ---------------------------------------------------------------
  logic          beat;            // a beat is accepted this cycle
  logic          first_q;         // next beat is a packet's first
  logic [8:0]    cnt_q, cnt_d;    // beats of the current packet so far (up to LMAX + 1)
  logic          bad_q, bad_d;    // current packet is being dropped
  logic [63:0]   hdr_q, hdr_d;
  logic [2:0]    vc_q, vc_d;
  logic          data_push, desc_push;
  logic [DescW-1:0] desc_wdata, desc_rdata;
  logic          desc_valid, desc_pop;
  logic [LW-1:0] data_count;
  logic [1:0]    desc_count;
  logic          data_valid;
  logic [PWE-1:0] data_rdata;
  logic          data_pop;

  // Room for a whole packet: the data FIFO holds 2*LMAX beats, a packet at most LMAX.
  assign s_tready_o = (32'(data_count) < 2 * LMAX) && (desc_count < 2'd2);
  assign beat = s_tvalid_i && s_tready_o;

  always_comb begin
    hdr_d = hdr_q;
    vc_d = vc_q;
    bad_d = bad_q;
    cnt_d = cnt_q;
    if (beat) begin
      if (first_q) begin
        hdr_d = {s_tuser_i[UW-1:3], 16'(s_tdest_i)};
        vc_d = s_tuser_i[2:0];
        bad_d = (32'(s_tuser_i[2:0]) >= V);
        cnt_d = 9'd1;
      end else if (32'(cnt_q) <= LMAX) begin
        cnt_d = cnt_q + 9'd1;  // saturates at LMAX + 1: a packet of any length is dropped
      end
      if (32'(cnt_d) > LMAX) begin
        bad_d = 1'b1;
      end
    end
  end

  // Beats past LMAX are not stored; the stored ones are popped unsent (desc drop bit).
  assign data_push = beat && (32'(cnt_d) <= LMAX);
  assign desc_push = beat && s_tlast_i;
  assign desc_wdata = {bad_d, vc_d, hdr_d[63:44], 8'(cnt_d > 9'(LMAX) ? 9'(LMAX) : cnt_d),
                       hdr_d[35:0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q <= 1'b1;
      cnt_q <= '0;
      bad_q <= 1'b0;
      hdr_q <= '0;
      vc_q <= '0;
    end else begin
      if (beat) begin
        first_q <= s_tlast_i;
      end
      cnt_q <= cnt_d;
      bad_q <= bad_d;
      hdr_q <= hdr_d;
      vc_q <= vc_d;
    end
  end

  fifo_fwft #(.W(PWE), .DEPTH(2 * LMAX)) u_data (
    .clk_i,
    .rst_ni,
    .push_i     (data_push),
    .push_data_i(s_tdata_i),
    .pop_i      (data_pop),
    .valid_o    (data_valid),
    .data_o     (data_rdata),
    .count_o    (data_count)
  );

  fifo_fwft #(.W(DescW), .DEPTH(2)) u_desc (
    .clk_i,
    .rst_ni,
    .push_i     (desc_push),
    .push_data_i(desc_wdata),
    .pop_i      (desc_pop),
    .valid_o    (desc_valid),
    .data_o     (desc_rdata),
    .count_o    (desc_count)
  );

  // ---- send side --------------------------------------------------------------------
  logic          d_drop;
  logic [2:0]    d_vc;
  logic [63:0]   d_hdr;
  logic [7:0]    d_len;
  logic          busy_q;          // a packet is being sent (or dropped)
  logic [7:0]    left_q;          // flits of it still to send
  logic [CW-1:0] cred_q[V];
  logic          start, credit_ok;

  assign {d_drop, d_vc, d_hdr} = desc_rdata;
  assign d_len = d_hdr[43:36];

  always_comb begin
    credit_ok = 1'b0;
    for (int unsigned v = 0; v < V; v++) begin
      if (32'(d_vc) == v && 32'(cred_q[v]) >= 32'(d_len)) begin
        credit_ok = 1'b1;
      end
    end
  end
  assign start = !busy_q && desc_valid && (d_drop || credit_ok);
  assign data_pop = (start || busy_q) && data_valid;
  assign desc_pop = data_pop && ((start && d_len == 8'd1) || (busy_q && left_q == 8'd1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      left_q <= '0;
      in_valid_o <= 1'b0;
      in_head_o <= 1'b0;
      in_tail_o <= 1'b0;
      in_vc_o <= '0;
      in_hdr_o <= '0;
      in_payload_o <= '0;
      drop_o <= 1'b0;
      for (int unsigned v = 0; v < V; v++) begin
        cred_q[v] <= CW'(BUF);
      end
    end else begin
      // the link: registered flits
      in_valid_o <= data_pop && !d_drop;
      in_head_o <= data_pop && !d_drop && start;
      in_tail_o <= desc_pop && !d_drop;
      in_vc_o <= (data_pop && !d_drop) ? d_vc : 3'd0;
      in_hdr_o <= (data_pop && !d_drop && start) ? d_hdr : 64'h0;
      in_payload_o <= (data_pop && !d_drop) ? data_rdata : '0;
      drop_o <= desc_pop && d_drop;
      if (start) begin
        busy_q <= d_len != 8'd1;
        left_q <= d_len - 8'd1;
      end else if (data_pop) begin
        busy_q <= left_q != 8'd1;
        left_q <= left_q - 8'd1;
      end
      for (int unsigned v = 0; v < V; v++) begin
        cred_q[v] <= cred_q[v]
                     - ((start && !d_drop && 32'(d_vc) == v) ? CW'(d_len) : CW'(0))
                     + ((cr_valid_i && 32'(cr_vc_i) == v) ? CW'(1) : CW'(0));
      end
    end
  end
endmodule
