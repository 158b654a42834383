// fv_sar_table.sv — formal invariants of rtl/sar_table.sv (contract §17.8), every input
// free (register bus, FWD writes, CSET, the CNM lane, the congestion points' words, RC
// lookups) except that FWD writes and CSET name ports < P, as regs.sv guarantees:
//  - {dest, port} is unique among valid entries, a valid entry has ttl >= 1 and
//    port < P, and with SAR_TTL unchanged since reset ttl <= TTL;
//  - cnm_out carries at most one word per cycle, word 0 on the ports not valid;
//  - at most one stage-A source is popped per cycle; sar_ptr < 2P; B.port < P;
//  - with SAR_CTRL.en = 0 every §17.8 state register is empty.
module fv_sar_table #(
  parameter int unsigned P = 2,
  parameter int unsigned TABLE = 4,
  parameter int unsigned SE = 3,
  localparam int unsigned TW = asw_pkg::idx_w(TABLE),
  localparam int unsigned PIW = asw_pkg::idx_w(P)
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              reg_en_i,
  input logic              reg_we_i,
  input logic [19:0]       reg_addr_i,
  input logic [31:0]       reg_wdata_i,
  input logic              fwd_we_i,
  input logic [TW-1:0]     fwd_waddr_i,
  input logic [15:0]       fwd_wdata_i,
  input logic [TABLE-1:0]  fwd_written_i,
  input logic [4*P-1:0]    cset_i,
  input logic [P-1:0]      cnm_in_valid_i,
  input logic [P*64-1:0]   cnm_in_data_i,
  input logic [P-1:0]      loc_valid_i,
  input logic [P*64-1:0]   loc_data_i,
  input logic [P*16-1:0]   lk_dest_i
);
  /* verilator lint_off UNUSEDSIGNAL */
  logic own, wr_ok, steer;
  logic [31:0] rd, cnt_rdata;
  logic [P-1:0] out_valid;
  logic [P*64-1:0] out_data;
  logic [P*P*6-1:0] lvl;
  /* verilator lint_on UNUSEDSIGNAL */

  sar_table #(.P(P), .TABLE(TABLE), .SE(SE)) dut (
    .clk_i, .rst_ni, .reg_en_i, .reg_we_i, .reg_addr_i, .reg_wdata_i,
    .own_o (own), .wr_ok_o (wr_ok), .rd_o (rd), .cnt_rdata_o (cnt_rdata), .steer_o (steer),
    .fwd_we_i, .fwd_waddr_i, .fwd_wdata_i, .fwd_written_i, .cset_i,
    .cnm_in_valid_i, .cnm_in_data_i, .loc_valid_i, .loc_data_i,
    .cnm_out_valid_o (out_valid), .cnm_out_data_o (out_data),
    .lk_dest_i, .lk_lvl_o (lvl)
  );

  logic init_q = 1'b1;
  logic ttl_kept_q = 1'b1;   // no legal SAR_TTL write since reset
  always_ff @(posedge clk_i) begin
    init_q <= 1'b0;
    if (reg_en_i && reg_we_i && reg_addr_i == 20'h00051 && wr_ok) ttl_kept_q <= 1'b0;
  end

  always_comb begin
    assume (rst_ni == !init_q);
    assume (!fwd_wdata_i[15] || (32'(fwd_wdata_i[5:0]) < P));  // regs.sv: det_port < P
    if (!init_q) begin
      assert ($onehot0(out_valid));
      for (int unsigned p = 0; p < P; p++) begin
        assert (out_valid[p] || out_data[p*64 +: 64] == 64'h0);
      end
      assert ($onehot0(dut.pop));
      assert (32'(dut.ptr_q) < 2 * P);
      assert (!dut.b_v_q || (32'(dut.b_port_q) < P));
      for (int unsigned k = 0; k < SE; k++) begin
        if (dut.e_valid_q[k]) begin
          assert (dut.e_ttl_q[k] != '0);
          assert (32'(dut.e_port_q[k]) < P);
          if (ttl_kept_q) assert (dut.e_ttl_q[k] <= dut.ttl_q);
          for (int unsigned j = k + 1; j < SE; j++) begin
            assert (!(dut.e_valid_q[j] && dut.e_dest_q[j] == dut.e_dest_q[k] &&
                      dut.e_port_q[j] == dut.e_port_q[k]));
          end
        end
      end
      if (!dut.en_q) begin
        assert (dut.e_valid_q == '0 && dut.rx_v_q == '0 && dut.loc_v_q == '0 && !dut.b_v_q &&
                out_valid == '0);
      end
    end
  end
endmodule
