/* link_fault.c — see link_fault.h. */
#include "link_fault.h"

#include <string.h>

void asw_link_reset(asw_link *l, unsigned ports) {
  memset(l, 0, sizeof *l);
  l->port_mask = ports == 64 ? ~0ull : (1ull << ports) - 1;
  l->up = l->up_q = l->rx_up = l->rx_up_q = l->port_mask;
}

uint32_t asw_link_reg_read(const asw_link *l, uint32_t addr) {
  switch (addr) {
  /* bit p: the pin was 0 (all 0 with every link up: reads as before §18) */
  case ASW_REG_LINK_DOWN(0): return (uint32_t)(l->port_mask & ~l->up_q);
  case ASW_REG_LINK_DOWN(1): return (uint32_t)((l->port_mask & ~l->up_q) >> 32);
  case ASW_REG_LINK_RX_DOWN(0): return (uint32_t)(l->port_mask & ~l->rx_up_q);
  case ASW_REG_LINK_RX_DOWN(1): return (uint32_t)((l->port_mask & ~l->rx_up_q) >> 32);
  default:
    if (addr >= ASW_REG_LINK_COUNTER(0) && addr < ASW_REG_LINK_COUNTER(ASW_LCNT_NUM))
      return l->cnt[addr - ASW_REG_LINK_COUNTER(0)];
    return 0;
  }
}

void asw_link_clear_counters(asw_link *l) { memset(l->cnt, 0, sizeof l->cnt); }

void asw_link_end_cycle(asw_link *l, uint64_t pad) {
  l->up_q = l->up;
  l->rx_up_q = l->rx_up;
  l->pad = pad;
  l->on = (l->up & l->rx_up) != l->port_mask || (l->cut | l->dead | l->pad) != 0;
}
