// clock_edge.h — reset and clock edge of one Verilated switch (tb/cosim_top.sv: the
// switch behind a register on every input pin but clock and reset), shared by the
// single-switch harness (tb/cosim_main.cpp) and the network harness
// (tb/net/cosim_net.cpp). Header-only C++; Top is the Verilated class (clk_i, rst_ni,
// eval()).
#ifndef TB_CLOCK_EDGE_H
#define TB_CLOCK_EDGE_H

#include <cstdint>

// Asynchronous reset: a real falling edge on rst_ni with the clock low. tb_clock_edge
// releases it after the first edge (that edge loads the first cycle's inputs into the
// input registers).
template <typename Top>
inline void tb_reset(Top *top) {
  top->clk_i = 0;
  top->rst_ni = 1;
  top->eval();
  top->rst_ni = 0;
  top->eval();
}

// Edge n: the input registers take the pins driven for the next cycle, the switch ends
// the cycle before (its assertions about that cycle fire here). dump(time) follows each
// evaluation, at trace times 2n (clock low) and 2n + 1 (high): an FST writer's dump, or
// nothing.
template <typename Top, typename Dump>
inline void tb_clock_edge(Top *top, uint64_t n, Dump dump) {
  top->clk_i = 0;
  top->eval();
  dump(2 * n);
  top->clk_i = 1;
  top->eval();
  dump(2 * n + 1);
  if (!top->rst_ni) {
    top->rst_ni = 1;
    top->eval();
  }
}

#endif
