// link_fault.sv — link faults (contract §18), twin of cmodel/link_fault.c: the link_up /
// link_rx_up pins, what an output does with the flits ST hands it while its link is down
// (§18.2: discard; a packet whose head was discarded, "dead", returns its own credits, a
// packet cut after its head went out does not), the padding of packets cut on a down input
// (§18.3, one flit per cycle through IW), the LINK_DOWN / LINK_RX_DOWN registers and the
// four link counters (§18.4). Candidate-set masking (§18.5) is in route_compute.sv. With
// every pin at 1 the block does nothing: send_o = xb_valid_i, no self credit, no padding,
// every register reads 0.
module link_fault #(
  parameter int unsigned P = 8,   // ports, 2..64
  parameter int unsigned V = 2,   // virtual channels per port, 1..8
  parameter bit CNT = 1'b1,       // the §18.4 counters exist (CountersEn, §1; 0: they read 0)
  localparam int unsigned VW = asw_pkg::idx_w(V)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // §18.1 pins, levels used in the cycle they have
  input  logic [P-1:0]     link_up_i,     // bit o: output o's link carries flits
  input  logic [P-1:0]     link_rx_up_i,  // bit i: input i's link carries flits
  // §18.2 ST: the flit each output's streaming input hands the crossbar this cycle
  input  logic [P-1:0]     xb_valid_i,
  input  logic [P-1:0]     xb_head_i,
  input  logic [P-1:0]     xb_tail_i,
  output logic [P-1:0]     send_o,        // the flit goes into the output register
  output logic [P-1:0]     self_cr_o,     // discarded flit of a dead packet: CRED += 1
  // §18.3 IW: flits arriving on the inputs (link side) and the padding flit of the cycle
  input  logic [P-1:0]     in_valid_i,
  input  logic [P-1:0]     in_head_i,
  input  logic [P*3-1:0]   in_vc_i,
  input  logic [P*8-1:0]   in_len_i,      // hdr.len of a head flit
  output logic [P-1:0]     pad_valid_o,   // input i writes a padding flit (body, payload 1s)
  output logic [P-1:0]     pad_tail_o,
  output logic [P*VW-1:0]  pad_vc_o,
  // §18.4 registers on the register bus: read data a cycle after the read (0 unless the
  // read was of 0x00018..0x0001F), ORed into the bus read data by the top
  input  logic             reg_en_i,
  input  logic             reg_we_i,
  input  logic [19:0]      reg_addr_i,
  output logic [31:0]      rdata_o
);
  // register addresses: asw_pkg, generated from rtl/regs.rdl (sw/rdl_regs.py)
  import asw_pkg::RegLinkDown0;
  import asw_pkg::RegLinkDown1;
  import asw_pkg::RegLinkRxDown0;
  import asw_pkg::RegLinkRxDown1;
  import asw_pkg::RegLinkCounterBase;  // k: 0 flits_discarded,
  // 1 packets_discarded, 2 packets_cut, 3 flits_padded
  localparam int unsigned NCNT = 4;

  // ---- §18.2 output side ------------------------------------------------------------
  logic [P-1:0] cut_q;   // outputs discarding the rest of a cut packet (head went out)
  logic [P-1:0] dead_q;  // outputs discarding a packet whose head was discarded
  logic [P-1:0] mid_q;   // outputs whose packet's head was handed, its tail not yet
  logic [P-1:0] discard, new_cut;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      discard[o] = xb_valid_i[o] &&
                   (xb_head_i[o] ? !link_up_i[o] : (cut_q[o] || dead_q[o] || !link_up_i[o]));
      // the link down in the middle of a sent packet cuts it, a flit handed or not (a flit
      // not sendable yet, or held by the §17.7 gap): the far end pads the rest now
      new_cut[o] = mid_q[o] && !link_up_i[o] && !cut_q[o] && !dead_q[o];
      self_cr_o[o] = discard[o] && (xb_head_i[o] || dead_q[o]);
    end
    send_o = xb_valid_i & ~discard;
  end

  // ---- §18.3 input side -------------------------------------------------------------
  // due_q[i*V+v]: flits still due of the packet in progress on input i VC v (written
  // flits and padding count down, a head loads len - 1)
  logic [7:0] due_q[P*V];
  always_comb begin
    pad_valid_o = '0;
    pad_tail_o = '0;
    pad_vc_o = '0;
    for (int unsigned i = 0; i < P; i++) begin
      for (int unsigned v = V; v > 0; v--) begin  // the lowest VC with flits due wins
        if (!link_rx_up_i[i] && (due_q[i*V + v - 1] != 8'd0)) begin
          pad_valid_o[i] = 1'b1;
          pad_tail_o[i] = (due_q[i*V + v - 1] == 8'd1);
          pad_vc_o[i*VW +: VW] = VW'(v - 1);
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned k = 0; k < P*V; k++) begin
        due_q[k] <= '0;
      end
    end else begin
      for (int unsigned i = 0; i < P; i++) begin
        for (int unsigned v = 0; v < V; v++) begin
          if (in_valid_i[i] && (32'(in_vc_i[i*3 +: 3]) == v)) begin
            due_q[i*V+v] <= in_head_i[i] ? in_len_i[i*8 +: 8] - 8'd1 : due_q[i*V+v] - 8'd1;
          end else if (pad_valid_o[i] && (32'(pad_vc_o[i*VW +: VW]) == v)) begin
            due_q[i*V+v] <= due_q[i*V+v] - 8'd1;
          end
        end
      end
    end
  end

  // ---- §18.4 registers and counters ----------------------------------------------------
  logic [P-1:0]  up_q, rx_up_q;  // the pins of the previous cycle
  logic [31:0]   cnt_q[NCNT];
  logic [31:0]   cnt_inc[NCNT];
  logic          cnt_clear;
  assign cnt_clear = reg_en_i && reg_we_i && (reg_addr_i == asw_pkg::RegCntClear);
  always_comb begin
    for (int unsigned k = 0; k < NCNT; k++) begin
      cnt_inc[k] = '0;
    end
    for (int unsigned p = 0; p < P; p++) begin
      cnt_inc[0] = cnt_inc[0] + 32'(discard[p]);
      cnt_inc[1] = cnt_inc[1] + 32'(discard[p] && xb_head_i[p]);
      cnt_inc[2] = cnt_inc[2] + 32'(new_cut[p]);
      cnt_inc[3] = cnt_inc[3] + 32'(pad_valid_o[p]);
    end
  end

  logic [P-1:0] down, rx_down;  // LINK_DOWN, LINK_RX_DOWN: bit p, the pin was 0
  logic [63:0]  down64, rx_down64;
  assign down = ~up_q;
  assign rx_down = ~rx_up_q;
  assign down64 = 64'(down);
  assign rx_down64 = 64'(rx_down);
  logic [31:0] rd;
  logic        own;
  always_comb begin
    own = (reg_addr_i >= RegLinkDown0) && (reg_addr_i < RegLinkCounterBase + 20'(NCNT));
    unique case (reg_addr_i)
      RegLinkDown0:   rd = down64[31:0];
      RegLinkDown1:   rd = down64[63:32];
      RegLinkRxDown0: rd = rx_down64[31:0];
      RegLinkRxDown1: rd = rx_down64[63:32];
      default:        rd = cnt_q[reg_addr_i[1:0]];  // 0x1C..0x1F when own
    endcase
  end

  if (CNT) begin : gen_counters  // only with CountersEn (§1)
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned k = 0; k < NCNT; k++) begin
          cnt_q[k] <= '0;
        end
      end else begin
        for (int unsigned k = 0; k < NCNT; k++) begin
          cnt_q[k] <= cnt_clear ? 32'd0 : cnt_q[k] + cnt_inc[k];  // CNT_CLEAR overrides
        end
      end
    end
  end else begin : gen_no_counters  // read 0
    always_comb begin
      for (int unsigned k = 0; k < NCNT; k++) begin
        cnt_q[k] = '0;
      end
    end
    logic unused_cnt;
    always_comb begin
      unused_cnt = cnt_clear;
      for (int unsigned k = 0; k < NCNT; k++) begin
        unused_cnt = unused_cnt ^ (^cnt_inc[k]);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cut_q <= '0;
      dead_q <= '0;
      mid_q <= '0;
      up_q <= '1;
      rx_up_q <= '1;
      rdata_o <= '0;
    end else begin
      cut_q <= (cut_q | new_cut) & ~(discard & xb_tail_i);
      dead_q <= (dead_q | (discard & xb_head_i)) & ~(discard & xb_tail_i);
      mid_q <= (mid_q | (xb_valid_i & xb_head_i & ~xb_tail_i)) & ~(xb_valid_i & xb_tail_i);
      up_q <= link_up_i;
      rx_up_q <= link_rx_up_i;
      rdata_o <= (reg_en_i && !reg_we_i && own) ? rd : 32'd0;
    end
  end

`ifndef SYNTHESIS
  logic chk_en_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_en_q <= 1'b0;
    end else begin
      chk_en_q <= 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (chk_en_q) begin
      for (int unsigned i = 0; i < P; i++) begin
        // §18.3: a flit on a down input is the sender's protocol error
        assert (!(in_valid_i[i] && !link_rx_up_i[i]))
          else $error("link_fault: protocol error on input %0d: flit while link_rx_up is 0", i);
      end
      assert ((cut_q & dead_q) == '0) else $error("link_fault: an output both cut and dead");
      // a body flit discarded on an output neither cut nor dead belongs to a packet in
      // progress, which new_cut cuts
      assert ((discard & ~xb_head_i & ~cut_q & ~dead_q & ~mid_q) == '0)
        else $error("link_fault: a body flit discarded outside a packet in progress");
    end
  end
  cov_link_discard_dead: cover property (@(posedge clk_i) chk_en_q && (self_cr_o != '0));
  cov_link_discard_cut: cover property (@(posedge clk_i) chk_en_q && (new_cut != '0));
  cov_link_pad: cover property (@(posedge clk_i) chk_en_q && (pad_valid_o != '0));
  cov_link_pad_tail: cover property (@(posedge clk_i) chk_en_q && ((pad_valid_o & pad_tail_o) != '0));
`endif
endmodule
