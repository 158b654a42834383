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
  c->out = aligned_alloc(64, (size_t)ports * sizeof *c->out);
  if (!c->out) return -1;
  memset(c->out, 0, (size_t)ports * sizeof *c->out);
  asw_credits_reset(c);
  return 0;
}

void asw_credits_destroy(asw_credits *c) {
  free(c->out);
  c->out = NULL;
}

void asw_credits_reset(asw_credits *c) {
  for (unsigned o = 0; o < c->ports; o++) {
    asw_out_credits *oc = &c->out[o];
    memset(oc->cred, 0, sizeof oc->cred);
    memset(oc->last, 0, sizeof oc->last);
    oc->cong = oc->poor = oc->dirty_vc = oc->resv = 0;
    for (unsigned v = 0; v < c->vcs; v++) oc->cred[v] = (uint16_t)c->buf;
    oc->lcyc = ~0ull; /* no change since reset */
  }
  c->cyc = 0;
  c->tm[0] = c->tm[1] = 0;
  c->tm_cyc[0] = c->tm_cyc[1] = ~0ull;
  /* cong = 0 at reset, and cong' = 0 too since CRED = BUF >= HTTH */
  c->dirty = 0;
  c->rich = ports_mask(c->ports); /* BUF >= LMAX */
  c->pfc = 0;
  c->cong_off = 0;
}

void asw_credits_set_pfc(asw_credits *c, uint64_t pfc, uint64_t changed) {
  c->pfc = pfc;
  for (uint64_t m = changed; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    asw_credits_touch(c, o);
    for (unsigned v = 0; v < c->vcs; v++) c->out[o].cred[v] = (uint16_t)c->buf;
    c->out[o].dirty_vc = (uint8_t)((1u << c->vcs) - 1);
    c->dirty |= 1ull << o;
  }
}

int asw_credits_check_return(const asw_credits *c, unsigned o, unsigned vc,
                             char *err, size_t errlen) {
  if (vc >= c->vcs) {
    snprintf(err, errlen, "credit on output %u for vc %u, but the switch has "
             "%u VCs", o, vc, c->vcs);
    return -1;
  }
  if (c->out[o].cred[vc] + 1u > c->buf) {
    snprintf(err, errlen, "credit on output %u vc %u would exceed BUF = %u",
             o, vc, c->buf);
    return -1;
  }
  return 0;
}

void asw_credits_update_cong(asw_credits *c, unsigned ltth, unsigned htth,
                             int all) {
  uint64_t m = all ? ports_mask(c->ports) : c->dirty;
  const unsigned all_vcs = (1u << c->vcs) - 1, lmax = c->lmax;
  uint64_t rich = c->rich;
  c->dirty = 0;
  for (; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    asw_out_credits *oc = &c->out[o];
    const unsigned vm = all ? all_vcs : oc->dirty_vc;
    unsigned cong = oc->cong, poor = oc->poor;
    oc->dirty_vc = 0;
    /* only the VCs whose credits changed; branch-free: the flags flip
     * unpredictably under load */
    for (unsigned k = c->cong_off ? 0 : vm; k; k &= k - 1) {
      unsigned v = (unsigned)__builtin_ctz(k), cr = oc->cred[v];
      unsigned stays = (cong >> v & 1u) & (cr < htth);
      cong = (cong & ~(1u << v)) | ((unsigned)(cr < ltth) | stays) << v;
    }
    oc->cong = (uint8_t)cong;
    if (lmax) { /* lmax 0 (no VOQ): every VC is rich, nothing to track */
      for (unsigned k = vm; k; k &= k - 1) {
        unsigned v = (unsigned)__builtin_ctz(k);
        poor = (poor & ~(1u << v)) | (unsigned)(oc->cred[v] < lmax) << v;
      }
      oc->poor = (uint8_t)poor;
      rich = (rich & ~(1ull << o)) | (uint64_t)(poor == 0) << o;
    }
  }
  c->rich = rich;
}
