// counter_ram.sv — primitive: N wrapping 32-bit event counters kept in RAM, as switch ASICs
// keep their statistics: each counter has a small pending count in registers (incremented by
// its events) that is flushed into the RAM round-robin, one counter per cycle, so only one
// 32-bit adder works per cycle instead of N. What a read returns is exactly the counter's
// value (RAM word + pending + a flush in flight); CLEAR and reset make every counter 0 through
// one "cleared" bit per counter (the RAM needs no reset). Not observable: the counters behave
// as N 32-bit registers incremented by ev_i every cycle.
//
// Timing: the events of cycle c count from cycle c+1; a read presented in cycle c returns, in
// cycle c+1 on rdata_o, the value at the start of cycle c; clear_i in cycle c makes every
// counter 0 at the end of cycle c, overriding that cycle's events.
//
// Flush of counter f (pointer fl_q, one step per cycle): in cycle c its pending count and
// cleared bit move into the flush register (fa_q, fc_q) and the RAM word is read; in c+1 the
// RAM word becomes (fc_q ? 0 : word) + fa_q. Between two flushes of one counter N cycles
// pass, so the pending count never exceeds N * (2^EW - 1).
module counter_ram #(
  parameter int unsigned N = 8,   // counters, >= 2 (a flush reads the RAM a cycle after the
                                  // previous counter's write)
  parameter int unsigned EW = 1,  // bits of one counter's increment per cycle, >= 1
  localparam int unsigned IW = asw_pkg::idx_w(N),
  localparam int unsigned PB = asw_pkg::cnt_w(N * ((1 << EW) - 1))  // pending-count width
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [N-1:0][EW-1:0] ev_i,  // increment of each counter this cycle
  input  logic              clear_i,  // every counter becomes 0 at the end of the cycle
  input  logic              rd_i,     // read counter rd_idx_i (value at the start of the cycle)
  input  logic [IW-1:0]     rd_idx_i,
  output logic [31:0]       rdata_o   // the value read in the previous cycle (0 if none)
);
  logic [PB-1:0] pend_q[N];   // events not yet in the RAM
  logic [N-1:0]  clr_q;       // the RAM word counts as 0 (cleared or never written)
  logic [IW-1:0] fl_q;        // counter whose flush starts this cycle
  logic          fv_q;        // a flush is in flight: RAM[fi_q] <= (fc_q ? 0 : word) + fa_q
  logic [IW-1:0] fi_q;
  logic [PB-1:0] fa_q;
  logic          fc_q;
  logic [31:0]   fl_word;     // RAM word of fi_q (read last cycle)
  logic [31:0]   fl_new;
  logic [31:0]   rd_word;     // RAM word of the read issued last cycle
  logic          rv_q;        // a read was issued last cycle
  logic          rz_q;        // ... and its RAM word counts as 0
  logic [PB:0]   radd_q;      // ... plus this (pending + flush in flight + events in ev_q)
  logic [N-1:0][EW-1:0] ev_q; // last cycle's events, added to the pending counts this cycle

  assign fl_new = (fc_q ? 32'h0 : fl_word) + 32'(fa_q);

  if (N < 2) begin : gen_bad_n
    $fatal(1, "counter_ram: N = %0d out of range (>= 2)", N);
  end

  // Two copies written together: one read by the flush, one by the bus.
  ram_1r1w #(.W(32), .DEPTH(N)) u_flush_mem (
    .clk_i,
    .we_i    (fv_q),
    .waddr_i (fi_q),
    .wdata_i (fl_new),
    .raddr_i (fl_q),
    .rdata_o (fl_word)
  );
  ram_1r1w #(.W(32), .DEPTH(N)) u_read_mem (
    .clk_i,
    .we_i    (fv_q),
    .waddr_i (fi_q),
    .wdata_i (fl_new),
    .raddr_i (rd_idx_i),
    .rdata_o (rd_word)
  );

  // A read at the start of cycle c: the RAM word (as the RAM holds it at the start of c),
  // unless cleared, plus the pending count, plus a flush that has not reached the RAM yet
  // (in flight for the same counter: its RAM word is the pre-flush one, replaced by fc/fa),
  // plus the events of cycle c-1 still in ev_q. (The events are registered before they
  // reach the pending adders so that the logic producing them — e.g. route computation —
  // ends at a register, not at a counter's adder.)
  logic          rd_inflight;
  logic          rz_d;
  logic [PB:0]   radd_d;
  always_comb begin
    rd_inflight = fv_q && (fi_q == rd_idx_i);
    rz_d = rd_inflight ? fc_q : clr_q[rd_idx_i];
    radd_d = (PB+1)'(pend_q[rd_idx_i]) + (rd_inflight ? (PB+1)'(fa_q) : '0)
             + (PB+1)'(ev_q[rd_idx_i]);
  end
  assign rdata_o = rv_q ? ((rz_q ? 32'h0 : rd_word) + 32'(radd_q)) : 32'h0;

  // Events of a cycle wait one cycle in ev_q; a clear drops them (it overrides the events
  // of its own cycle and zeroes the counts that include those of the cycle before).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ev_q <= '0;
    end else begin
      ev_q <= clear_i ? '0 : ev_i;
    end
  end

  // One generate instance per counter (Verilator unrolls at most 64 loop iterations).
  for (genvar n = 0; n < N; n++) begin : gen_pend
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pend_q[n] <= '0;
      end else if (clear_i) begin
        pend_q[n] <= '0;
      end else if (32'(fl_q) == n) begin
        pend_q[n] <= PB'(ev_q[n]);          // the old count leaves with the flush
      end else begin
        pend_q[n] <= pend_q[n] + PB'(ev_q[n]);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      clr_q <= '1;
      fl_q <= '0;
      fv_q <= 1'b0;
      fi_q <= '0;
      fa_q <= '0;
      fc_q <= 1'b1;
      rv_q <= 1'b0;
    end else begin
      clr_q <= clear_i ? '1 : (clr_q & ~(N'(1) << fl_q));
      fv_q <= 1'b1;
      fi_q <= fl_q;
      fa_q <= clear_i ? '0 : pend_q[fl_q];
      fc_q <= clear_i || clr_q[fl_q];
      fl_q <= (32'(fl_q) == N - 1) ? '0 : fl_q + IW'(1);
      rv_q <= rd_i;
    end
  end
  // Qualified by rv_q: no reset needed.
  always_ff @(posedge clk_i) begin
    rz_q <= rz_d;
    radd_q <= radd_d;
  end

`ifndef SYNTHESIS
  // Shadow model (assertions only): the N counters as plain registers.
  logic [31:0] shadow_q[N];
  logic [IW-1:0] srd_q;
  for (genvar n = 0; n < N; n++) begin : gen_shadow
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        shadow_q[n] <= '0;
      end else begin
        shadow_q[n] <= clear_i ? 32'h0 : shadow_q[n] + 32'(ev_i[n]);
      end
    end
  end
  logic [31:0] srd_val_q;
  always_ff @(posedge clk_i) begin
    srd_q <= rd_idx_i;
    srd_val_q <= shadow_q[rd_idx_i];
  end
  always_ff @(posedge clk_i) begin
    if (rv_q) begin
      assert (rdata_o == srd_val_q)
        else $error("counter_ram: counter %0d reads %0d, expected %0d", srd_q, rdata_o, srd_val_q);
    end
  end
`endif
endmodule
