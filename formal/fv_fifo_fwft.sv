// fv_fifo_fwft.sv — formal properties of rtl/fifo_fwft.sv against a reference queue
// (sh_q with its own pointers): count_o is pushes minus pops, valid_o is count_o != 0 and
// data_o is the oldest word not yet popped (FIFO order), under the FIFO's usage rules
// (push while full only with a pop, pop only while valid). The internal invariants
// (pointers, the RAM words of occupied slots) make the property inductive.
module fv_fifo_fwft #(
  parameter int unsigned W = 4,      // entry width
  parameter int unsigned DEPTH = 3,  // capacity (3: the pointers wrap at a non-power of 2)
  localparam int unsigned AW = asw_pkg::idx_w(DEPTH),
  localparam int unsigned NW = asw_pkg::cnt_w(DEPTH)
) (
  input logic         clk_i,
  input logic         rst_ni,
  input logic         push_i,
  input logic [W-1:0] push_data_i,
  input logic         pop_i
);
  logic          valid;
  logic [W-1:0]  data;
  logic [NW-1:0] count;

  fifo_fwft #(.W(W), .DEPTH(DEPTH)) dut (
    .clk_i, .rst_ni, .push_i, .push_data_i, .pop_i,
    .valid_o (valid), .data_o (data), .count_o (count)
  );

  // Reset in the first cycle; then running.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

  // The reference queue.
  logic [W-1:0]  sh_q[DEPTH];
  logic [AW-1:0] srd_q, swr_q;
  logic [NW-1:0] scnt_q;

  function automatic logic [AW-1:0] inc(input logic [AW-1:0] x);
    return (32'(x) == DEPTH - 1) ? '0 : x + AW'(1);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      srd_q <= '0;
      swr_q <= '0;
      scnt_q <= '0;
    end else begin
      if (push_i) swr_q <= inc(swr_q);
      if (pop_i) srd_q <= inc(srd_q);
      scnt_q <= scnt_q + NW'(push_i) - NW'(pop_i);
    end
  end
  always_ff @(posedge clk_i) begin
    if (push_i) sh_q[swr_q] <= push_data_i;
  end

  // slot k holds a word not yet popped
  function automatic logic occupied(input int unsigned k);
    int unsigned off;
    off = (k >= 32'(srd_q)) ? k - 32'(srd_q) : k + DEPTH - 32'(srd_q);
    return off < 32'(scnt_q);
  endfunction

  always_comb begin
    assume (rst_ni == !init_q);
    // usage rules of the FIFO (its header)
    if (pop_i) assume (valid);
    if (push_i && !pop_i) assume (32'(count) < DEPTH);
    if (!init_q) begin
      a_count: assert (count == scnt_q);
      a_valid: assert (valid == (scnt_q != '0));
      if (valid) begin
        a_order: assert (data == sh_q[srd_q]);
      end
      // invariants
      assert (32'(scnt_q) <= DEPTH);
      assert (32'(srd_q) < DEPTH && 32'(swr_q) < DEPTH);
      assert (dut.rd_ptr_q == srd_q && dut.wr_ptr_q == swr_q);
      assert (32'(swr_q) == ((32'(srd_q) + 32'(scnt_q) >= DEPTH) ? 32'(srd_q) + 32'(scnt_q) - DEPTH
                                                               : 32'(srd_q) + 32'(scnt_q)));
      for (int unsigned k = 0; k < DEPTH; k++) begin
        if (occupied(k)) assert (dut.u_ram.gen_reg_data.mem_q[k] == sh_q[k]);
      end
    end
  end
endmodule
