/* credits.c — see credits.h. */
#include "credits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ports_mask(unsigned ports) {
  return ports == 64 ? ~0ull : (1ull << ports) - 1;
}

int asw_credits_init(asw_credits *c, unsigned ports, unsigned vcs,
                     unsigned buf, unsigned lmax) {
  memset(c, 0, sizeof *c);
  c->ports = ports;
  c->vcs = vcs;
  c->buf = buf;
  c->lmax = lmax;
  c->cred = calloc((size_t)ports * vcs, sizeof *c->cred);
  c->cong = calloc(ports, sizeof *c->cong);
  c->dirty_vc = calloc(ports, 1);
  c->poor = calloc(ports, 1);
  if (!c->cred || !c->cong || !c->dirty_vc || !c->poor) {
    asw_credits_destroy(c);
    return -1;
  }
  asw_credits_reset(c);
  return 0;
}

void asw_credits_destroy(asw_credits *c) {
  free(c->cred);
  free(c->cong);
  free(c->dirty_vc);
  free(c->poor);
  c->cred = NULL;
  c->cong = NULL;
  c->dirty_vc = c->poor = NULL;
}

void asw_credits_reset(asw_credits *c) {
  for (unsigned k = 0; k < c->ports * c->vcs; k++) c->cred[k] = (uint16_t)c->buf;
  /* cong = 0 at reset, and cong' = 0 too since CRED = BUF >= HTTH. */
  memset(c->cong, 0, c->ports);
  memset(c->dirty_vc, 0, c->ports);
  memset(c->poor, 0, c->ports);
  c->dirty = 0;
  c->rich = ports_mask(c->ports); /* BUF >= LMAX */
}

int asw_credits_check_return(const asw_credits *c, unsigned o, unsigned vc,
                             char *err, size_t errlen) {
  if (vc >= c->vcs) {
    snprintf(err, errlen, "credit on output %u for vc %u, but the switch has "
             "%u VCs", o, vc, c->vcs);
    return -1;
  }
  if (c->cred[o * c->vcs + vc] + 1u > c->buf) {
    snprintf(err, errlen, "credit on output %u vc %u would exceed BUF = %u",
             o, vc, c->buf);
    return -1;
  }
  return 0;
}

void asw_credits_update_cong(asw_credits *c, unsigned ltth, unsigned htth,
                             int all) {
  uint64_t m = all ? ports_mask(c->ports) : c->dirty;
  const unsigned all_vcs = (1u << c->vcs) - 1;
  c->dirty = 0;
  while (m) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    const uint16_t *cr = &c->cred[o * c->vcs];
    unsigned vm = all ? all_vcs : c->dirty_vc[o];
    unsigned cong = c->cong[o], poor = c->poor[o];
    c->dirty_vc[o] = 0;
    for (; vm; vm &= vm - 1) { /* only the VCs whose credits changed */
      unsigned v = (unsigned)__builtin_ctz(vm), bit = 1u << v;
      if (cr[v] < ltth || ((cong & bit) && cr[v] < htth)) cong |= bit;
      else cong &= ~bit;
      if (cr[v] < c->lmax) poor |= bit;
      else poor &= ~bit;
    }
    c->cong[o] = (uint8_t)cong;
    c->poor[o] = (uint8_t)poor;
    if (poor) c->rich &= ~(1ull << o);
    else c->rich |= 1ull << o;
  }
}
