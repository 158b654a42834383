/* link_fault.h — link faults (contract §18): the link_up pins of the ports,
 * what an output does with the flits it sends on a down link (discard; a
 * packet whose head was discarded returns its own credits, a packet cut after
 * its head went out does not: downstream pads it), the padding of packets cut
 * on a down input, the LINK_* registers and counters.
 *
 * Internal to the C model; the hooks are in asw_switch.c (marked "§18"),
 * route_compute.c (down outputs leave the candidate sets) and the public API
 * is asw_switch_set_link_up (asw_switch.h). With every link up the block does
 * nothing: `on` is 0 and no hook runs.
 */
#ifndef ASW_LINK_FAULT_H
#define ASW_LINK_FAULT_H

#include <stdint.h>

#include "asw_regmap.h" /* ASW_REG_LINK_*, ASW_LCNT_* */

typedef struct {
  uint64_t port_mask; /* ports < P */
  uint64_t up, rx_up; /* link_up, link_rx_up pins (asw_switch_set_link_up) */
  uint64_t up_q, rx_up_q; /* LINK_DOWN, LINK_RX_DOWN: the pins of the last cycle */
  uint64_t cut;       /* outputs discarding the rest of a cut packet */
  uint64_t dead;      /* outputs discarding a packet whose head was discarded */
  uint64_t pad;       /* inputs with a cut packet to pad (some VC due > 0) */
  uint32_t cnt[ASW_LCNT_NUM];
  int on;             /* some link down, or cut/dead/pad state left */
} asw_link;

void asw_link_reset(asw_link *l, unsigned ports);

/* ST (§18.2) for a flit of output o: 1 if it is discarded (not put on the
 * wire); *self_credit is 1 if the output also takes its credit back. A tail
 * ends the output's cut/dead state. */
static inline int asw_link_st(asw_link *l, unsigned o, int head, int tail,
                              int *self_credit) {
  const uint64_t bit = 1ull << o;
  *self_credit = 0;
  if (head) {
    if (l->up & bit) return 0;
    l->dead |= bit;
    l->cnt[ASW_LCNT_PACKETS_DISCARDED]++;
  } else if (!((l->cut | l->dead) & bit)) {
    if (l->up & bit) return 0;
    l->cut |= bit;
    l->cnt[ASW_LCNT_PACKETS_CUT]++;
  }
  l->cnt[ASW_LCNT_FLITS_DISCARDED]++;
  *self_credit = (l->dead & bit) != 0;
  if (tail) {
    l->cut &= ~bit;
    l->dead &= ~bit;
  }
  return 1;
}

/* ST (§18.2), before any flit is handed: output o streams a packet whose head
 * was handed in an earlier cycle. If its link is down it is cut from this
 * cycle on, whether or not a flit is handed (the far end pads the rest now). */
static inline void asw_link_mid(asw_link *l, unsigned o) {
  const uint64_t bit = 1ull << o;
  if ((l->up | l->cut | l->dead) & bit) return;
  l->cut |= bit;
  l->cnt[ASW_LCNT_PACKETS_CUT]++;
}

/* 1 if addr is one of the §18 registers (0x00018..0x0001F). */
static inline int asw_link_owns(uint32_t addr) {
  return addr >= ASW_REG_LINK_DOWN(0) && addr < ASW_REG_LINK_COUNTER(ASW_LCNT_NUM);
}
uint32_t asw_link_reg_read(const asw_link *l, uint32_t addr);
void asw_link_clear_counters(asw_link *l);

/* End of a cycle: LINK_DOWN and LINK_RX_DOWN take the pins, `on` is
 * recomputed (pad: down inputs still holding a cut packet's due flits). */
void asw_link_end_cycle(asw_link *l, uint64_t pad);

#endif
