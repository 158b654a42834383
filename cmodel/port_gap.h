/* port_gap.h — output port rate (contract §17.7): output o sends at most one
 * flit every GAP[o] + 1 cycles, a link slower than the switch's flit per cycle
 * (a 10 Gb/s port of a 40 Gb/s switch, or a port whose link carries other
 * priorities' traffic). The PORT_GAP registers, a 4-bit wait counter per
 * output and the ST rule: a flit of the packet streaming to an output whose
 * counter is not 0 waits (a bubble; the match holds).
 *
 * Internal to the C model; the hooks are in asw_switch.c (marked "§17.7").
 * With every GAP 0 (reset) no counter is ever set and the block does nothing.
 * Built only with the port_rate feature (§1); otherwise unmapped.
 */
#ifndef ASW_PORT_GAP_H
#define ASW_PORT_GAP_H

#include <stddef.h>
#include <stdint.h>

#include "asw_regmap.h" /* ASW_REG_PORT_GAP */

typedef struct {
  uint8_t gap[64];  /* PORT_GAP fields: GAP of each output */
  uint8_t cnt[64];  /* cycles output o still waits before its next flit (0: may send) */
  uint64_t wait;    /* outputs with cnt != 0 */
  uint64_t on;      /* outputs with GAP != 0 (kept by asw_port_gap_write) */
} asw_port_gap;

void asw_port_gap_reset(asw_port_gap *g);

/* 1 if a is one of the PORT_GAP registers. */
static inline int asw_port_gap_owns(uint32_t a) {
  return a >= ASW_REG_PORT_GAP(0) && a < ASW_REG_PORT_GAP(8);
}
uint32_t asw_port_gap_read(const asw_port_gap *g, uint32_t a);
/* A write of PORT_GAP[k] (a owned) on a switch of P ports: ASW_OK, or
 * ASW_EINVAL with a message (a field for a port >= P not 0), nothing changed. */
int asw_port_gap_write(asw_port_gap *g, uint32_t a, uint32_t d, unsigned P, char *err,
                       size_t errlen);

/* End of the cycle (§17.7): sent = the outputs ST handed a flit (sent or
 * discarded, §18.2). Their counters load GAP (as at the start of the cycle),
 * the others count down to 0. */
static inline void asw_port_gap_cycle(asw_port_gap *g, uint64_t sent) {
  uint64_t w = 0;
  for (uint64_t m = g->wait; m; m &= m - 1) { /* count down (a sender reloads below) */
    unsigned o = (unsigned)__builtin_ctzll(m);
    if (--g->cnt[o]) w |= 1ull << o;
  }
  for (uint64_t m = sent; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    g->cnt[o] = g->gap[o];
    if (g->gap[o]) w |= 1ull << o;
    else w &= ~(1ull << o);
  }
  g->wait = w;
}

#endif
