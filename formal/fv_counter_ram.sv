// fv_counter_ram.sv — formal properties of rtl/counter_ram.sv against N plain 32-bit
// counters (shadow_q, incremented by ev_i, zeroed by clear_i), events, clears and reads
// free every cycle. Proven: a read returns the shadow count at the start of the cycle it
// was presented in (32-bit wrap included); every pending count is flushed within N cycles
// (pend <= (2^EW - 1) * (cycles since its last flush), so it never exceeds N * (2^EW - 1),
// the width PB holds). The induction invariants relate the shadow to the RAM word, the
// cleared bit, the pending count, a flush in flight and the events waiting in ev_q, and keep
// the two RAM copies equal.
module fv_counter_ram #(
  parameter int unsigned N = 3,   // counters
  parameter int unsigned EW = 2,  // increment bits per counter and cycle
  localparam int unsigned IW = asw_pkg::idx_w(N),
  localparam int unsigned M = (1 << EW) - 1  // largest increment
) (
  input logic               clk_i,
  input logic               rst_ni,
  input logic [N-1:0][EW-1:0] ev_i,
  input logic               clear_i,
  input logic               rd_i,
  input logic [IW-1:0]      rd_idx_i
);
  logic [31:0] rdata;

  counter_ram #(.N(N), .EW(EW)) dut (
    .clk_i, .rst_ni, .ev_i, .clear_i, .rd_i, .rd_idx_i, .rdata_o (rdata)
  );

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  // The reference: N plain counters; the value a read presented last cycle must return.
  logic [31:0] sh_q[N];
  logic        rv_q;
  logic [31:0] exp_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned n = 0; n < N; n++) sh_q[n] <= '0;
      rv_q <= 1'b0;
    end else begin
      for (int unsigned n = 0; n < N; n++) sh_q[n] <= clear_i ? 32'h0 : sh_q[n] + 32'(ev_i[n]);
      rv_q <= rd_i;
    end
  end
  always_ff @(posedge clk_i) exp_q <= sh_q[rd_idx_i];

  // cycles since counter n's last flush started (1..N)
  function automatic int unsigned since(input int unsigned n);
    return (32'(dut.fl_q) > n) ? 32'(dut.fl_q) - n : 32'(dut.fl_q) + N - n;
  endfunction

  always_comb begin
    assume (rst_ni == !init_q);
    assume (32'(rd_idx_i) < N);
    if (!init_q) begin
      // the read: exactly the counter's value when it was presented
      if (rv_q) a_read: assert (rdata == exp_q);
      // pending counts flushed: bounded by the events since the last flush
      for (int unsigned n = 0; n < N; n++) begin
        assert (32'(dut.pend_q[n]) <= M * since(n));
      end
      // invariants
      assert (32'(dut.fl_q) < N);
      assert (32'(dut.fa_q) <= M * N);
      if (dut.fv_q) begin
        assert (32'(dut.fi_q) == ((dut.fl_q == '0) ? N - 1 : 32'(dut.fl_q) - 1));
        assert (dut.fl_word == dut.u_flush_mem.gen_reg_data.mem_q[dut.fi_q]);
      end else begin  // the first cycle after reset
        assert (dut.fl_q == '0 && dut.fi_q == '0 && dut.fc_q && dut.fa_q == '0);
        assert (dut.clr_q == '1);
      end
      for (int unsigned n = 0; n < N; n++) begin
        if (dut.fv_q && 32'(dut.fi_q) == n) begin
          // the RAM words count only once written since reset or CLEAR
          if (!dut.fc_q) assert (dut.u_flush_mem.gen_reg_data.mem_q[n] == dut.u_read_mem.gen_reg_data.mem_q[n]);
          assert (sh_q[n] == (dut.fc_q ? 32'h0 : dut.u_flush_mem.gen_reg_data.mem_q[n]) + 32'(dut.fa_q)
                             + 32'(dut.pend_q[n]) + 32'(dut.ev_q[n]));
        end else begin
          if (!dut.clr_q[n]) assert (dut.u_flush_mem.gen_reg_data.mem_q[n] == dut.u_read_mem.gen_reg_data.mem_q[n]);
          assert (sh_q[n] == (dut.clr_q[n] ? 32'h0 : dut.u_flush_mem.gen_reg_data.mem_q[n])
                             + 32'(dut.pend_q[n]) + 32'(dut.ev_q[n]));
        end
      end
    end
  end
endmodule
