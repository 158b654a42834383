// fv_arn_table.sv — formal invariants of rtl/arn_table.sv (contract §15.3–§15.6), every
// input free except: ARN_TTL is a configuration register (stable, >= 1) and root ports
// name a port (< P):
//  - ARN-table entries are unique per key {dest, port, vc} among valid entries;
//  - TTL bounds: a valid entry has 1 <= ttl <= ARN_TTL; a consumed entry is valid;
//  - the event FIFOs hold at most AQ = 4 messages, the ARN output FIFOs at most one
//    (one push and one pop per cycle, §15.6), at most one event is processed a cycle.
module fv_arn_table #(
  parameter int unsigned P = 2,
  parameter int unsigned V = 2,
  parameter int unsigned BUF = 4,
  parameter int unsigned TABLE = 4,
  parameter int unsigned AE = 3,
  localparam int unsigned VW = asw_pkg::idx_w(V),
  localparam int unsigned PIW = asw_pkg::idx_w(P),
  localparam int unsigned CW = asw_pkg::cnt_w(BUF),
  localparam int unsigned TW = asw_pkg::idx_w(TABLE),
  localparam int unsigned EXW = asw_pkg::cnt_w(AE)
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic [1:0]        mode_i,
  input logic              clear_i,
  input logic [3:0]        stage_i,
  input logic [23:0]       arn_ttl_i,
  input logic              root_valid_i,
  input logic [15:0]       root_dest_i,
  input logic [PIW-1:0]    root_port_i,
  input logic [2:0]        root_vc_i,
  input logic [3:0]        root_stage_i,
  input logic [8:0]        root_id_i,
  input logic              root_adapted_i,
  input logic [P-1:0]      arn_in_valid_i,
  input logic [P*32-1:0]   arn_in_data_i,
  input logic [15:0]       fwd_entry_i,
  input logic [4*P-1:0]    cset_i,
  input logic [P*V*CW-1:0] cred_i,
  input logic [P-1:0]      lk_valid_i,
  input logic [P*16-1:0]   lk_dest_i,
  input logic [P*VW-1:0]   lk_vc_i
);
  /* verilator lint_off UNUSEDSIGNAL */
  logic root_pop;
  logic [TW-1:0] fwd_addr;
  logic [P-1:0] lk_consumed, lk_notify, arn_out_valid;
  logic [P*PIW-1:0] lk_alt_port;
  logic [P*32-1:0] arn_out_data;
  logic [P-1:0] c_sent, c_recv, c_cons, c_adapt, c_indrop, c_outdrop, c_evict;
  logic [P*EXW-1:0] c_exp;
  logic [AE-1:0] ent_valid, ent_cons;
  logic [AE*16-1:0] ent_dest;
  logic [AE*PIW-1:0] ent_port, ent_alt;
  logic [AE*3-1:0] ent_vc;
  logic [AE*4-1:0] ent_stage;
  logic [AE*9-1:0] ent_id;
  logic [AE*24-1:0] ent_ttl;
  logic busy;
  /* verilator lint_on UNUSEDSIGNAL */

  arn_table #(.P(P), .V(V), .BUF(BUF), .TABLE(TABLE), .AE(AE)) dut (
    .clk_i, .rst_ni, .mode_i, .clear_i, .stage_i, .arn_ttl_i, .root_valid_i, .root_dest_i,
    .root_port_i, .root_vc_i, .root_stage_i, .root_id_i, .root_adapted_i,
    .root_pop_o (root_pop), .arn_in_valid_i, .arn_in_data_i, .fwd_addr_o (fwd_addr),
    .fwd_entry_i, .cset_i, .cred_i, .lk_valid_i, .lk_dest_i, .lk_vc_i,
    .lk_consumed_o (lk_consumed), .lk_alt_port_o (lk_alt_port), .lk_notify_o (lk_notify),
    .arn_out_valid_o (arn_out_valid), .arn_out_data_o (arn_out_data),
    .cnt_sent_o (c_sent), .cnt_received_o (c_recv), .cnt_consumed_o (c_cons),
    .cnt_expired_o (c_exp), .cnt_adapted_o (c_adapt), .cnt_in_dropped_o (c_indrop),
    .cnt_out_dropped_o (c_outdrop), .cnt_evicted_o (c_evict),
    .ent_valid_o (ent_valid), .ent_consumed_o (ent_cons), .ent_dest_o (ent_dest),
    .ent_port_o (ent_port), .ent_vc_o (ent_vc), .ent_stage_o (ent_stage), .ent_id_o (ent_id),
    .ent_alt_port_o (ent_alt), .ent_ttl_o (ent_ttl), .busy_o (busy)
  );

  logic init_q = 1'b1;
  logic [23:0] ttl_q;
  always_ff @(posedge clk_i) begin
    init_q <= 1'b0;
    ttl_q <= arn_ttl_i;
  end

  always_comb begin
    assume (rst_ni == !init_q);
    assume (arn_ttl_i != '0);
    if (!init_q) assume (arn_ttl_i == ttl_q);
    assume (32'(root_port_i) < P);
    if (!init_q) begin
      for (int unsigned k = 0; k < AE; k++) begin
        if (ent_valid[k]) begin
          assert (ent_ttl[k*24 +: 24] != '0 && ent_ttl[k*24 +: 24] <= arn_ttl_i);   // TTL bounds
          for (int unsigned j = k + 1; j < AE; j++) begin                             // unique keys
            assert (!(ent_valid[j] && ent_dest[j*16 +: 16] == ent_dest[k*16 +: 16] &&
                      ent_port[j*PIW +: PIW] == ent_port[k*PIW +: PIW] &&
                      ent_vc[j*3 +: 3] == ent_vc[k*3 +: 3]));
          end
        end
      end
      assert ((ent_cons & ~ent_valid) == '0);
      for (int unsigned p = 0; p < P; p++) begin
        assert (dut.evq_cnt_q[p] <= 3'd4);
        assert (dut.oq_cnt_q[p] <= 3'd1);
      end
      assert ($onehot0({root_pop, dut.evq_pop}));
      assert (32'(dut.ev_ptr_q) <= P);
    end
  end
endmodule
