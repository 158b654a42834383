// ram_1r1w.sv — simple dual-port RAM primitive: one write port and one read port with a
// registered read. Written as a plain array so that Yosys infers block RAM (ECP5 DP16KD,
// iCE40 SB_RAM40_4K) or, for small sizes, LUT RAM: no reset of the contents, no reset of
// the read register. The data is on rdata_o from the cycle after its address is presented
// and holds until the next edge. RegAddr = 0 registers the data: a read sees the contents
// as of the start of the cycle in which its address is presented (read-old on a same-cycle
// write to that address). RegAddr = 1 registers the address (no async reset, as block RAM
// has it) and reads the array behind it: the read path no longer ends in the cycle of the
// address, and a same-cycle write to that address is seen (read-new; on block RAM Yosys adds
// the bypass). A caller that never reads a word written in the cycle of its address sees
// no difference.
module ram_1r1w #(
  parameter int unsigned W = 8,       // data width in bits, >= 1
  parameter int unsigned DEPTH = 16,  // words, >= 1
  parameter bit RegAddr = 1'b0,       // 1: register the address instead of the data (above)
  localparam int unsigned AW = asw_pkg::idx_w(DEPTH)
) (
  input  logic          clk_i,
  input  logic          we_i,      // write wdata_i to waddr_i at the end of the cycle
  input  logic [AW-1:0] waddr_i,
  input  logic [W-1:0]  wdata_i,
  input  logic [AW-1:0] raddr_i,   // read address, sampled at the end of the cycle
  output logic [W-1:0]  rdata_o    // word at the previous cycle's raddr_i
);
  if (RegAddr) begin : gen_reg_addr
    // no_rw_check: a RegAddr = 1 caller never reads a word in the cycle of its address
    // (above), so Yosys builds no write-to-read bypass around block RAM for it.
    (* no_rw_check *) logic [W-1:0] mem_q[DEPTH];
    logic [AW-1:0] raddr_q;
    always_ff @(posedge clk_i) begin
      if (we_i) begin
        mem_q[waddr_i] <= wdata_i;
      end
      raddr_q <= raddr_i;
    end
    assign rdata_o = mem_q[raddr_q];
  end else begin : gen_reg_data
    logic [W-1:0] mem_q[DEPTH];
    always_ff @(posedge clk_i) begin
      if (we_i) begin
        mem_q[waddr_i] <= wdata_i;
      end
      rdata_o <= mem_q[raddr_i];
    end
  end
endmodule
