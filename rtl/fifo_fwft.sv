// fifo_fwft.sv — first-word-fall-through FIFO on a ram_1r1w (block-RAM friendly): the head
// is on data_o while valid_o, one push and one pop per cycle. The RAM is read with the
// next cycle's head address; when the word pushed this cycle becomes the head of the next
// cycle (FIFO empty after this cycle's pop), it is forwarded from a register instead,
// since the RAM returns the old contents on a same-cycle write.
module fifo_fwft #(
  parameter int unsigned W = 8,       // entry width in bits
  parameter int unsigned DEPTH = 16,  // capacity in entries, >= 1
  localparam int unsigned AW = asw_pkg::idx_w(DEPTH),
  localparam int unsigned NW = asw_pkg::cnt_w(DEPTH)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          push_i,     // not while full (count_o = DEPTH) unless pop_i
  input  logic [W-1:0]  push_data_i,
  input  logic          pop_i,      // only while valid_o
  output logic          valid_o,
  output logic [W-1:0]  data_o,
  output logic [NW-1:0] count_o
);
  logic [AW-1:0] rd_ptr_q, rd_ptr_d, wr_ptr_q, wr_ptr_d;
  logic [NW-1:0] cnt_q;
  logic          byp_q;
  logic [W-1:0]  byp_data_q;
  logic [W-1:0]  ram_rdata;

  function automatic logic [AW-1:0] wrap_inc(input logic [AW-1:0] x);
    return (32'(x) == DEPTH - 1) ? '0 : x + AW'(1);
  endfunction

  assign rd_ptr_d = pop_i ? wrap_inc(rd_ptr_q) : rd_ptr_q;
  assign wr_ptr_d = push_i ? wrap_inc(wr_ptr_q) : wr_ptr_q;

  ram_1r1w #(.W(W), .DEPTH(DEPTH)) u_ram (
    .clk_i,
    .we_i    (push_i),
    .waddr_i (wr_ptr_q),
    .wdata_i (push_data_i),
    .raddr_i (rd_ptr_d),
    .rdata_o (ram_rdata)
  );

  assign valid_o = (cnt_q != '0);
  assign data_o = byp_q ? byp_data_q : ram_rdata;
  assign count_o = cnt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      cnt_q <= '0;
      byp_q <= 1'b0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      cnt_q <= cnt_q + NW'(push_i) - NW'(pop_i);
      byp_q <= push_i && (rd_ptr_d == wr_ptr_q);
    end
  end

  always_ff @(posedge clk_i) begin
    byp_data_q <= push_data_i;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (pop_i) begin
        assert (valid_o) else $error("fifo_fwft: pop from an empty FIFO");
      end
      if (push_i && !pop_i) begin
        assert (32'(cnt_q) < DEPTH) else $error("fifo_fwft: push into a full FIFO");
      end
    end
  end
`endif
endmodule
