// cnt_bank.sv — N event counters of W bits kept in one block RAM (ram_1r1w) instead of
// N*W flip-flops and adders: each counter collects its increments in a small accumulator
// (NW bits, or WW bits for the counters flagged in WIDE), and a scanner visits one counter
// per cycle, adding its accumulator to the RAM word (read in cycle c, written in c + 1).
// An accumulator is therefore emptied every N cycles: it must hold N cycles of increments.
// A read request is answered when the scanner passes the counter (at most N + 2 cycles),
// with the RAM word plus the accumulator being flushed, so it includes every increment up
// to the cycle of the visit. clear_i (and reset) zeroes every counter: accumulators at
// once, RAM words at their next visit (no reset of memory contents). Increments in the
// cycle of clear_i are dropped. Counters wrap at 2^W.
module cnt_bank #(
  parameter int unsigned N = 8,             // counters, >= 2
  parameter int unsigned W = 32,            // counter width
  parameter int unsigned NW = 4,            // accumulator width of the narrow counters
  parameter int unsigned WW = 12,           // accumulator width of the wide counters
  parameter logic [N-1:0] WIDE = '0,        // bit i: counter i has a WW-bit accumulator
  localparam int unsigned IW = asw_pkg::idx_w(N)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          clear_i,
  input  logic [N*WW-1:0] inc_i,          // increment of counter i at [i*WW +: WW]
  input  logic          rd_req_i,         // read counter rd_idx_i (hold until rd_valid_o)
  input  logic [IW-1:0] rd_idx_i,
  output logic          rd_valid_o,       // one-cycle pulse
  output logic [W-1:0]  rd_data_o
);
  if (N < 2) begin : gen_bad_n
    $fatal(1, "cnt_bank: N=%0d must be >= 2", N);
  end
  if (NW > WW) begin : gen_bad_w
    $fatal(1, "cnt_bank: NW=%0d must be <= WW=%0d", NW, WW);
  end

  logic [N-1:0][WW-1:0] acc_q, acc_d;  // packed: assigned whole (no loop over N)
  logic [N-1:0]  clr_q, clr_d;      // the RAM word of counter i is stale: treat it as 0
  logic [IW-1:0] ptr_q, ptr_d;
  logic [N-1:0]  sel_q, sel_d;      // one-hot copy of ptr_q: no per-counter comparator
  logic [IW-1:0] fl_idx_q, fl_idx_d;
  logic [WW-1:0] fl_val_q, fl_val_d;
  logic          fl_clr_q, fl_clr_d, fl_v_q, fl_v_d;
  logic [W-1:0]  rdata, sum;
  logic          rd_valid_d;
  logic [W-1:0]  rd_data_d;

  ram_1r1w #(.W(W), .DEPTH(N)) u_mem (
    .clk_i,
    .we_i   (fl_v_q),
    .waddr_i(fl_idx_q),
    .wdata_i(sum),
    .raddr_i(ptr_q),
    .rdata_o(rdata)
  );

  assign sum = (fl_clr_q ? '0 : rdata) + W'(fl_val_q);

  always_comb begin
    acc_d = '0;  // every element assigned below (the loop may be too long to unroll)
    for (int unsigned i = 0; i < N; i++) begin
      logic [WW-1:0] inc;
      inc = WIDE[i] ? inc_i[i*WW +: WW] : WW'(inc_i[i*WW +: NW]);
      acc_d[i] = (sel_q[i] ? '0 : acc_q[i]) + inc;
      if (!WIDE[i]) begin
        acc_d[i] = WW'(acc_d[i][NW-1:0]);
      end
    end
    clr_d = clr_q & ~sel_q;
    fl_idx_d = ptr_q;
    fl_val_d = '0;  // acc_q[ptr_q], as an AND-OR over the one-hot sel_q
    for (int unsigned i = 0; i < N; i++) begin
      fl_val_d = fl_val_d | (sel_q[i] ? acc_q[i] : '0);
    end
    fl_clr_d = |(clr_q & sel_q);
    fl_v_d = 1'b1;
    ptr_d = (ptr_q == IW'(N - 1)) ? '0 : ptr_q + 1'b1;
    sel_d = {sel_q[N-2:0], sel_q[N-1]};
    if (clear_i) begin
      acc_d = '0;
      clr_d = '1;
      fl_val_d = '0;
      fl_clr_d = 1'b1;
    end
    rd_valid_d = rd_req_i && fl_v_q && (fl_idx_q == rd_idx_i) && !rd_valid_o;
    rd_data_d = sum;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q <= '0;
      clr_q <= '1;
      ptr_q <= '0;
      sel_q <= N'(1);
      fl_idx_q <= '0;
      fl_val_q <= '0;
      fl_clr_q <= 1'b1;
      fl_v_q <= 1'b0;
      rd_valid_o <= 1'b0;
      rd_data_o <= '0;
    end else begin
      acc_q <= acc_d;
      clr_q <= clr_d;
      ptr_q <= ptr_d;
      sel_q <= sel_d;
      fl_idx_q <= fl_idx_d;
      fl_val_q <= fl_val_d;
      fl_clr_q <= fl_clr_d;
      fl_v_q <= fl_v_d;
      rd_valid_o <= rd_valid_d;
      rd_data_o <= rd_data_d;
    end
  end
endmodule
