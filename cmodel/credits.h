/* credits.h — output credit counters and 2TH congestion flags (§7.3, §9).
 *
 * CRED[o][v] counts free slots of downstream VC v of output o (reset BUF).
 * cong[o] holds, per VC bit, the 2TH flag cong' computed for the current
 * cycle: cong'[o][v] = CRED < LTTH || (cong && CRED < HTTH). Since cong' is
 * idempotent while CRED and the thresholds do not change, it is recomputed
 * only for outputs whose credits changed (marked dirty) or all of them when
 * the thresholds change, so an idle cycle costs nothing.
 * Internal to the C model (see input_buffer.h).
 */
#ifndef ASW_CREDITS_H
#define ASW_CREDITS_H

#include <stddef.h>
#include <stdint.h>

/* Credit state of one output, in one cache line. SA (§8) checks requests
 * against the credits at the start of the previous cycle: `last` keeps them
 * for an output whose credits changed in cycle `lcyc` (the values at its
 * start), with `resv` the VCs a match reserved on in that cycle. */
typedef struct {
  _Alignas(64) uint16_t cred[8]; /* CRED[o][v] */
  uint8_t cong;     /* bit v: cong' of (o, v) for the current cycle */
  uint8_t poor;     /* bit v: CRED[o][v] < LMAX */
  uint8_t dirty_vc; /* bit v: CRED[o][v] changed this cycle */
  uint8_t resv;     /* bit v: a match reserved on (o, v) in cycle lcyc */
  uint16_t last[8]; /* CRED[o][v] at the start of cycle lcyc */
  /* words the owner keeps in this cache line, which a credit return or an SA
   * check touches anyway (the switch: §12 counters of port o); neither read nor
   * written here, kept by asw_credits_reset */
  uint32_t host[5];
  uint64_t lcyc;    /* the cycle of the last change (~0: none since reset) */
} asw_out_credits;
_Static_assert(sizeof(asw_out_credits) == 64, "asw_out_credits: one cache line");

typedef struct {
  unsigned ports, vcs, buf, lmax;
  asw_out_credits *out; /* [P] */
  uint64_t dirty; /* outputs whose credits changed this cycle */
  uint64_t rich;  /* outputs whose every VC has >= lmax credits: any packet
                     fits, so SA needs no per-packet credit check (with
                     lmax = 0 all outputs, always: nothing to maintain) */
  uint64_t pfc;   /* §17.1: PFC outputs (CRED is the pause view BUF / 0) */
  uint64_t cyc;   /* the current cycle (asw_credits_begin_cycle) */
  uint64_t tm[2], tm_cyc[2]; /* outputs changed in cycle tm_cyc[k], k = cycle & 1 */
  int cong_off;   /* 1: the 2TH flags are not maintained (their only reader,
                     adaptive RC with the 2TH trigger, is off until reset:
                     asw_switch_lock_config); cleared by asw_credits_reset */
} asw_credits;

/* lmax: the switch's LMAX (for the `rich` mask), or 0 if the owner never
 * reads `rich` (then it is not maintained: all outputs are rich). */
int asw_credits_init(asw_credits *c, unsigned ports, unsigned vcs,
                     unsigned buf, unsigned lmax);
void asw_credits_destroy(asw_credits *c);
void asw_credits_reset(asw_credits *c);

static inline unsigned asw_credits_get(const asw_credits *c, unsigned o,
                                       unsigned v) {
  return c->out[o].cred[v];
}
static inline int asw_credits_cong(const asw_credits *c, unsigned o,
                                   unsigned v) {
  return c->out[o].cong >> v & 1u;
}

/* Protocol check of a returned credit (§9): vc < V and CRED + 1 <= BUF.
 * Returns 0 or -1 with a message. */
int asw_credits_check_return(const asw_credits *c, unsigned o, unsigned vc,
                             char *err, size_t errlen);
/* Fast form of asw_credits_check_return without the message: 1 if legal. */
static inline int asw_credits_return_ok(const asw_credits *c, unsigned o,
                                        unsigned vc) {
  return vc < c->vcs && ((c->pfc >> o & 1u) || c->out[o].cred[vc] < c->buf);
}
/* A new cycle starts (every step; asw_credits_skip for cycles not stepped). */
static inline void asw_credits_begin_cycle(asw_credits *c) { c->cyc++; }
static inline void asw_credits_skip(asw_credits *c, uint64_t n) { c->cyc += n; }

/* Before the first change of output o's credits in this cycle: keep the
 * values at its start (asw_credits_prev reads them in the next cycle). */
static inline asw_out_credits *asw_credits_touch(asw_credits *c, unsigned o) {
  asw_out_credits *oc = &c->out[o];
  const uint64_t cyc = c->cyc;
  if (oc->lcyc != cyc) {
    for (unsigned v = 0; v < 8; v++) oc->last[v] = oc->cred[v];
    oc->lcyc = cyc;
    oc->resv = 0;
    const unsigned k = (unsigned)(cyc & 1u);
    if (c->tm_cyc[k] != cyc) {
      c->tm[k] = 0;
      c->tm_cyc[k] = cyc;
    }
    c->tm[k] |= 1ull << o;
  }
  return oc;
}
/* Outputs whose credits changed, or were reserved on, in the previous cycle:
 * for every other output asw_credits_prev is CRED now and m is 0. */
static inline uint64_t asw_credits_changed_prev(const asw_credits *c) {
  const uint64_t p = c->cyc - 1;
  const unsigned k = (unsigned)(p & 1u);
  return c->tm_cyc[k] == p ? c->tm[k] : 0;
}
/* §8: CRED[o][v] at the start of the previous cycle, and in *m whether a
 * match of the previous cycle reserved on (o, v). Valid until this cycle's
 * first change of output o (SA runs before any). */
static inline unsigned asw_credits_prev(const asw_credits *c, unsigned o, unsigned v,
                                        unsigned *m) {
  const asw_out_credits *oc = &c->out[o];
  if (oc->lcyc == c->cyc - 1) {
    *m = oc->resv >> v & 1u;
    return oc->last[v];
  }
  *m = 0;
  return oc->cred[v];
}
/* A match reserves len credits (the caller checked the credits, §8). */
static inline void asw_credits_reserve(asw_credits *c, unsigned o, unsigned v,
                                       unsigned len) {
  asw_out_credits *oc = asw_credits_touch(c, o);
  oc->resv |= (uint8_t)(1u << v); /* §8: one credit more for (o, v) next cycle */
  if (c->pfc >> o & 1u) return; /* §17.1: a PFC output reserves nothing */
  oc->cred[v] = (uint16_t)(oc->cred[v] - len);
  oc->dirty_vc |= (uint8_t)(1u << v);
  c->dirty |= 1ull << o;
}
/* One credit returned by downstream (checked). */
static inline void asw_credits_return(asw_credits *c, unsigned o, unsigned v) {
  asw_out_credits *oc = asw_credits_touch(c, o);
  oc->cred[v]++;
  oc->dirty_vc |= (uint8_t)(1u << v);
  c->dirty |= 1ull << o;
}
/* §17.1: a PFC frame received on PFC output o for priority v flips its
 * pause view CRED[o][v] between BUF (resumed) and 0 (paused). */
static inline void asw_credits_pfc_frame(asw_credits *c, unsigned o, unsigned v) {
  asw_out_credits *oc = asw_credits_touch(c, o);
  oc->cred[v] = (uint16_t)(oc->cred[v] == c->buf ? 0 : c->buf);
  oc->dirty_vc |= (uint8_t)(1u << v);
  c->dirty |= 1ull << o;
}
/* §17.1 mode change: outputs `changed` get CRED = BUF on every VC; pfc is
 * the new PFC_EN. */
void asw_credits_set_pfc(asw_credits *c, uint64_t pfc, uint64_t changed);
/* The same return when nothing else changes output o's credits or the
 * thresholds before the cycle ends: cong' (and `rich`) of (o, v) are
 * computed now, from the final count, instead of in the end-of-cycle pass
 * (cong' is idempotent, so a pass that sees (o, v) again changes nothing). */
static inline void asw_credits_return_last(asw_credits *c, unsigned o,
                                           unsigned v, unsigned ltth,
                                           unsigned htth) {
  asw_out_credits *oc = asw_credits_touch(c, o);
  const unsigned cr = ++oc->cred[v], bit = 1u << v;
  if (!c->cong_off) {
    const unsigned cong = oc->cong, stays = (cong >> v & 1u) & (cr < htth);
    oc->cong = (uint8_t)((cong & ~bit) | ((unsigned)(cr < ltth) | stays) << v);
  }
  oc->dirty_vc &= (uint8_t)~bit; /* a reservation this cycle may have set it */
  if (c->lmax) {
    const unsigned poor = (oc->poor & ~bit) | (unsigned)(cr < c->lmax) << v;
    oc->poor = (uint8_t)poor;
    c->rich = (c->rich & ~(1ull << o)) | (uint64_t)(poor == 0) << o;
  }
}
/* End of cycle: cong' of the next cycle and the `rich` bit for the dirty
 * outputs (all outputs if all != 0, after a threshold change), from the
 * credits and flags now. */
void asw_credits_update_cong(asw_credits *c, unsigned ltth, unsigned htth,
                             int all);

#endif
