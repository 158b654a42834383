/* port_gap.c — PORT_GAP registers (contract §17.7), the twin of rtl/port_gap.sv. */
#include "port_gap.h"

#include <stdio.h>
#include <string.h>

void asw_port_gap_reset(asw_port_gap *g) { memset(g, 0, sizeof *g); }

uint32_t asw_port_gap_read(const asw_port_gap *g, uint32_t a) {
  unsigned k = a - ASW_REG_PORT_GAP(0);
  uint32_t d = 0;
  for (unsigned j = 0; j < 8; j++) d |= (uint32_t)g->gap[8 * k + j] << (4 * j);
  return d;
}

int asw_port_gap_write(asw_port_gap *g, uint32_t a, uint32_t d, unsigned P, char *err,
                       size_t errlen) {
  unsigned k = a - ASW_REG_PORT_GAP(0);
  for (unsigned j = 0; j < 8; j++)
    if (8 * k + j >= P && (d >> (4 * j) & 0xFu)) {
      if (err && errlen)
        snprintf(err, errlen, "PORT_GAP[%u] 0x%08x: port %u >= P = %u must have GAP 0", k,
                 (unsigned)d, 8 * k + j, P);
      return ASW_EINVAL;
    }
  for (unsigned j = 0; j < 8; j++) {
    unsigned o = 8 * k + j, v = d >> (4 * j) & 0xFu;
    g->gap[o] = (uint8_t)v;
    g->on = v ? g->on | 1ull << o : g->on & ~(1ull << o);
  }
  return ASW_OK;
}
