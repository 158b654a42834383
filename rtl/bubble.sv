// bubble.sv — bubble flow control for the rings of direct networks (contract §16.1,
// §16.2): the per-output ring registers BUBBLE[o] (written and read through the register
// bus, decoded here; rtl/regs.sv only merges legality and read data), the per-input view
// of them that the SA requests of rtl/input_buffer.sv use (which VCs of an output are
// under the rule, whether an input continues the output's ring), and the ring_enter /
// bubble_stall counters (a counter RAM, read data one cycle after the read like §12).
// With every BUBBLE[o] = 0 (reset) every output reads "not under the rule".
module bubble #(
  parameter int unsigned P = 8,  // ports, 2..64
  parameter int unsigned V = 2,  // virtual channels per port, 1..8
  parameter bit CNT = 1'b1,      // the counters exist (CountersEn, §1; 0: they read 0)
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned VW = asw_pkg::idx_w(V)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // register bus (§10), as seen by rtl/regs.sv
  input  logic               reg_en_i,
  input  logic               reg_we_i,
  input  logic [19:0]        reg_addr_i,
  input  logic [31:0]        reg_wdata_i,
  output logic               wr_reg_o,      // the address is a writable §16 register
  output logic               wr_ok_o,       // ... and the written value is legal
  output logic               rd_hit_o,      // the address is BUBBLE[o] (read data rd_o)
  output logic [31:0]        rd_o,          // BUBBLE[o] at the start of the cycle
  output logic [31:0]        cnt_rdata_o,   // counter read of the last cycle (0 if none)
  // the rule, per output o and VC w / per input i
  output logic [P*V-1:0]     vcs_o,         // [o*V+w]: VC w of output o is under the rule
  output logic [P*P-1:0]     cont_o,        // [i*P+o]: input i continues the ring of o
  // counter events of this cycle
  input  logic [P-1:0]       match_valid_i, // SA match of input i (§8)
  input  logic [P*PIW-1:0]   match_out_i,   // ... to this output
  input  logic [P*VW-1:0]    match_vc_i,    // ... from this input VC
  input  logic [P*VW-1:0]    match_ovc_i,   // ... leaving on this output VC
  input  logic [P-1:0]       ev_bubble_stall_i  // per output (§16.1, computed with credit_stall)
);
  import asw_pkg::*;

  localparam int unsigned NC = 2 * P;  // counters: [2o + k], k 0 ring_enter, 1 bubble_stall

  logic [PIW-1:0] ring_in_q[P];
  logic [P-1:0]   ring_valid_q;
  logic [V-1:0]   vcs_q[P];

  // ---- decode --------------------------------------------------------------------
  logic [19:0] a_off, c_off;
  logic        is_bub, is_cnt;
  logic [5:0]  b_o;
  assign a_off = reg_addr_i - RegBubbleBase;
  assign c_off = reg_addr_i - RegBubbleCounterBase;
  assign is_bub = (reg_addr_i >= RegBubbleBase) && (32'(a_off) < P);
  assign is_cnt = (reg_addr_i >= RegBubbleCounterBase) && (32'(c_off) < NC);
  assign b_o = a_off[5:0];

  logic [7:0] vcs_legal;  // VC bits < V
  always_comb begin
    for (int unsigned b = 0; b < 8; b++) begin
      vcs_legal[b] = (b < V);
    end
  end

  assign wr_reg_o = is_bub;
  assign wr_ok_o = (reg_wdata_i[31:16] == 16'h0) && !reg_wdata_i[7] &&
                   (32'(reg_wdata_i[5:0]) < P) && ((reg_wdata_i[15:8] & ~vcs_legal) == 8'h0);
  assign rd_hit_o = is_bub;
  always_comb begin
    rd_o = 32'h0;
    for (int unsigned o = 0; o < P; o++) begin
      if (is_bub && (32'(b_o) == o)) begin
        rd_o = {16'h0, 8'(vcs_q[o]), 1'b0, ring_valid_q[o], 6'(ring_in_q[o])};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned o = 0; o < P; o++) begin
        ring_in_q[o] <= '0;
        vcs_q[o] <= '0;
      end
      ring_valid_q <= '0;
    end else if (reg_en_i && reg_we_i && wr_reg_o && wr_ok_o) begin
      for (int unsigned o = 0; o < P; o++) begin
        if (32'(b_o) == o) begin
          ring_in_q[o] <= reg_wdata_i[PIW-1:0];
          ring_valid_q[o] <= reg_wdata_i[6];
          vcs_q[o] <= reg_wdata_i[8 +: V];
        end
      end
    end
  end

  // ---- the rule's view -------------------------------------------------------------
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      vcs_o[o*V +: V] = vcs_q[o];
      for (int unsigned i = 0; i < P; i++) begin
        cont_o[i*P + o] = ring_valid_q[o] && (32'(ring_in_q[o]) == i);
      end
    end
  end

  // ---- counters ------------------------------------------------------------------
  // ring_enter[o]: the match on o (at most one) needed 2*len (§16.1)
  logic [P-1:0] ev_enter;
  always_comb begin
    ev_enter = '0;
    for (int unsigned i = 0; i < P; i++) begin
      logic [PIW-1:0] o;
      logic [VW-1:0]  w;
      o = match_out_i[i*PIW +: PIW];
      w = match_ovc_i[i*VW +: VW];
      if (match_valid_i[i] && vcs_q[o][w] &&
          !(cont_o[i*P + 32'(o)] && (match_vc_i[i*VW +: VW] == w))) begin
        ev_enter[o] = 1'b1;
      end
    end
  end

  if (CNT) begin : gen_counters
    logic [NC-1:0][0:0] cnt_ev;
    always_comb begin
      for (int unsigned o = 0; o < P; o++) begin
        cnt_ev[2*o] = ev_enter[o];
        cnt_ev[2*o + 1] = ev_bubble_stall_i[o];
      end
    end
    counter_ram #(.N(NC), .EW(1)) u_counters (
      .clk_i,
      .rst_ni,
      .ev_i     (cnt_ev),
      .clear_i  (reg_en_i && reg_we_i && (reg_addr_i == RegCntClear)),
      .rd_i     (reg_en_i && !reg_we_i && is_cnt),
      .rd_idx_i (asw_pkg::idx_w(NC)'(c_off)),
      .rdata_o  (cnt_rdata_o)
    );
  end else begin : gen_no_counters  // the counters read 0
    assign cnt_rdata_o = 32'h0;
    logic unused_cnt;
    assign unused_cnt = ^{ev_enter, ev_bubble_stall_i, is_cnt};
  end

  logic unused;
  assign unused = ^{a_off[19:6], c_off[19:0]};

`ifndef SYNTHESIS
  // Coverage (make coverage): the rule admitting an entering head, holding a head that
  // had len but not 2*len credits, and one output admitting while another holds.
  logic chk_en_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_en_q <= 1'b0;
    end else begin
      chk_en_q <= 1'b1;
    end
  end
  cov_bubble_enter: cover property (@(posedge clk_i) chk_en_q && (ev_enter != '0));
  cov_bubble_stall: cover property (@(posedge clk_i) chk_en_q && (ev_bubble_stall_i != '0));
  cov_bubble_enter_and_stall: cover property (@(posedge clk_i)
    chk_en_q && ((ev_enter & ev_bubble_stall_i) == '0) && (ev_enter != '0) &&
    (ev_bubble_stall_i != '0));
`endif
endmodule
