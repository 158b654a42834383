// fv_congestion_detector.sv — formal invariants of rtl/congestion_detector.sv (contract
// §15.2), every input free except CRT, a configuration register (stable):
//  - root bookkeeping: at most one root declared a cycle, only for an output that is not
//    a root; it is a root with the id next_id in the next cycle (unless cleared);
//    next_id counts the roots declared since reset (modulo 512, kept by a clear);
//  - the root FIFO never holds more than AQ = 4 events and is never pushed when full;
//  - CRT timer bound: crt[o] <= CRT.
module fv_congestion_detector #(
  parameter int unsigned P = 2,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 4,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned NQT = P * V * P
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              on_i,
  input logic              clear_i,
  input logic [15:0]       hcdth_i,
  input logic [15:0]       lcdth_i,
  input logic [15:0]       fcth_i,
  input logic [23:0]       crt_i,
  input logic [P-1:0]      arn_up_i,
  input logic [3:0]        stage_i,
  input logic [NQT-1:0]    occ_touch_i,
  input logic [NQT*CW-1:0] occ_next_i,
  input logic [NQT-1:0]    q_nonempty_i,
  input logic [NQT*VW-1:0] q_ovc_i,
  input logic [P*V*CW-1:0] cred_i,
  input logic [15:0]       off_dest_i,
  input logic              off_adapted_i,
  input logic [2:0]        off_orig_vc_i,
  input logic              rev_pop_i,
  input logic [PIW-1:0]    hot_cnt_port_i
);
  /* verilator lint_off UNUSEDSIGNAL */
  logic off_valid, rev_valid, rev_adapted;
  logic [PIW-1:0] off_in, off_port, rev_port;
  logic [VW-1:0] off_vc;
  logic [15:0] rev_dest;
  logic [2:0] rev_vc;
  logic [3:0] rev_stage;
  logic [8:0] rev_id, next_id;
  logic [P-1:0] declared, root;
  logic [P*9-1:0] root_id;
  logic [P*24-1:0] crt;
  logic [9:0] hot_cnt;
  logic [NQT-1:0] hot;
  /* verilator lint_on UNUSEDSIGNAL */

  congestion_detector #(.P(P), .V(V), .BUF(BUF)) dut (
    .clk_i, .rst_ni, .on_i, .clear_i, .hcdth_i, .lcdth_i, .fcth_i, .crt_i, .arn_up_i, .stage_i,
    .occ_touch_i, .occ_next_i, .q_nonempty_i, .q_ovc_i, .cred_i,
    .off_valid_o (off_valid), .off_in_o (off_in), .off_vc_o (off_vc), .off_port_o (off_port),
    .off_dest_i, .off_adapted_i, .off_orig_vc_i,
    .rev_valid_o (rev_valid), .rev_dest_o (rev_dest), .rev_port_o (rev_port),
    .rev_vc_o (rev_vc), .rev_stage_o (rev_stage), .rev_id_o (rev_id),
    .rev_adapted_o (rev_adapted), .rev_pop_i,
    .roots_declared_o (declared), .root_o (root), .root_id_o (root_id), .crt_o (crt),
    .hot_cnt_port_i, .hot_cnt_o (hot_cnt), .next_id_o (next_id), .hot_o (hot)
  );

  logic init_q = 1'b1;
  logic [23:0] crt_cfg_q;
  logic [8:0] ids_q;             // roots declared since reset, modulo 512
  logic [P-1:0] decl_q;          // declared last cycle
  logic [8:0] decl_id_q;         // with this id
  logic clear_q;
  always_ff @(posedge clk_i) begin
    init_q <= 1'b0;
    crt_cfg_q <= crt_i;
    decl_q <= declared;
    decl_id_q <= next_id;
    clear_q <= clear_i;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ids_q <= '0;
    else if (declared != '0) ids_q <= ids_q + 9'd1;
  end

  always_comb begin
    assume (rst_ni == !init_q);
    if (!init_q) assume (crt_i == crt_cfg_q);
    if (!init_q) begin
      assert ($onehot0(declared));
      assert ((declared & root) == '0);
      assert (next_id == ids_q);
      if (declared != '0) assert (off_valid && declared[off_port]);
      assert (dut.rf_cnt_q <= 3'd4);
      if (off_valid) assert (dut.rf_cnt_q < 3'd4);
      for (int unsigned o = 0; o < P; o++) begin
        assert (crt[o*24 +: 24] <= crt_i);
      end
    end
    if (!init_q && !clear_q) begin
      for (int unsigned o = 0; o < P; o++) begin
        if (decl_q[o]) assert (root[o] && root_id[o*9 +: 9] == decl_id_q);
      end
    end
  end
endmodule
