/* sar_table.c — see sar_table.h. */
#include "sar_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asw_regmap.h"
#include "lfsr.h"

enum { SAR_TTL_RESET = 4096 };

static uint16_t seed_state(unsigned seed) { return seed ? (uint16_t)seed : 0xACE1u; }

int asw_sar_init(asw_sar *t, unsigned P, unsigned SE) {
  memset(t, 0, sizeof *t);
  t->P = P;
  t->SE = SE;
  t->e = calloc(SE ? SE : 1, sizeof *t->e);
  t->rx = calloc(P, sizeof *t->rx);
  t->loc = calloc(P, sizeof *t->loc);
  t->out = calloc(P, sizeof *t->out);
  t->cnt = calloc((size_t)P * ASW_SCNT_NUM, sizeof *t->cnt);
  if (!t->e || !t->rx || !t->loc || !t->out || !t->cnt) {
    asw_sar_destroy(t);
    return -1;
  }
  asw_sar_reset(t);
  return 0;
}

void asw_sar_destroy(asw_sar *t) {
  free(t->e);
  free(t->rx);
  free(t->loc);
  free(t->out);
  free(t->cnt);
  memset(t, 0, sizeof *t);
}

/* The state a write of SAR_CTRL with en = 0 clears (§17.8 Ordering). */
static void clear_state(asw_sar *t) {
  t->valid = 0;
  t->rx_mask = t->loc_mask = t->out_mask = 0;
  t->ptr = 0;
  t->b_valid = 0;
}

void asw_sar_reset(asw_sar *t) {
  clear_state(t);
  memset(t->e, 0, (t->SE ? t->SE : 1) * sizeof *t->e);
  memset(t->cnt, 0, (size_t)t->P * ASW_SCNT_NUM * sizeof *t->cnt);
  t->en = t->steer = t->decay = 0;
  t->ttl = SAR_TTL_RESET;
  t->ts = 0;
  t->seed = 1;
  t->rs = seed_state(1);
  t->tc = 0;
}

uint64_t asw_sar_levels(const asw_sar *t, unsigned dest, uint8_t *lvl) {
  uint64_t has = 0;
  memset(lvl, 0, t->P);
  for (uint32_t m = t->valid; m; m &= m - 1) {
    const asw_sar_entry *x = &t->e[__builtin_ctz(m)];
    if (x->dest == dest) {
      lvl[x->port] = x->level;
      has |= 1ull << x->port;
    }
  }
  return has;
}

/* The TTL-th tick strictly after cycle c: ticks are the cycles whose low TS
 * bits are all ones. */
static uint64_t last_cycle(const asw_sar *t, uint64_t c) {
  uint64_t M = (1ull << t->ts) - 1, t1 = c | M;
  if (t1 == c) t1 += M + 1;
  return t1 + (uint64_t)(t->ttl - 1) * (M + 1);
}

/* ttl of an entry at the start of cycle now (now <= x->last): the ticks left
 * in [now, last]. */
static unsigned ttl_at(const asw_sar *t, const asw_sar_entry *x, uint64_t now) {
  return (unsigned)((x->last - (now | ((1ull << t->ts) - 1))) >> t->ts) + 1;
}

static void count(asw_sar *t, unsigned p, unsigned k) { t->cnt[p * ASW_SCNT_NUM + k]++; }

/* Stage B step 1: snoop. */
static void snoop(asw_sar *t, unsigned dest, unsigned port, unsigned q) {
  const uint64_t now = t->tc, last = last_cycle(t, now);
  for (uint32_t m = t->valid; m; m &= m - 1) {
    asw_sar_entry *x = &t->e[__builtin_ctz(m)];
    if (x->dest == dest && x->port == port) { /* refresh */
      x->level = (uint8_t)q;
      x->last = last;
      return;
    }
  }
  uint32_t all = t->SE >= 32 ? 0xFFFFFFFFu : (1u << t->SE) - 1;
  unsigned k;
  if (all & ~t->valid) {
    k = (unsigned)__builtin_ctz(all & ~t->valid);
  } else { /* full: the smallest ttl, lowest index among equals */
    k = 0;
    for (unsigned j = 1; j < t->SE; j++)
      if (t->e[j].last < t->e[k].last) k = j;
    count(t, t->e[k].port, ASW_SCNT_EVICTED);
  }
  t->e[k] = (asw_sar_entry){(uint16_t)dest, (uint8_t)port, (uint8_t)q, last};
  t->valid |= 1u << k;
}

void asw_sar_cycle(asw_sar *t, const asw_regs *r, uint64_t in_mask, const uint64_t *in_words,
                   uint64_t loc_in, const uint64_t *loc_words) {
  const unsigned P = t->P;
  const uint64_t now = t->tc;
  uint64_t out_next = 0;
  /* level decay (SAR_CTRL.decay): at the end of a decay tick every valid entry
   * steps its level down by 1 (floor 0); one the snoop below writes takes q */
  if (t->decay && (now & ((1ull << t->decay) - 1)) == (1ull << t->decay) - 1) {
    for (uint32_t m = t->valid; m; m &= m - 1) {
      asw_sar_entry *x = &t->e[__builtin_ctz(m)];
      if (x->level) x->level--;
    }
  }
  /* stage B: the event stage A took last cycle */
  if (t->b_valid) {
    const uint64_t w = t->b_word;
    snoop(t, ASW_CNM_DEST(w), t->b_port, ASW_CNM_FB(w));
    const uint32_t a = t->b_entry;
    if (!FWD_VALID(a)) {
      count(t, t->b_port, ASW_SCNT_UNROUTABLE);
    } else {
      unsigned o = FWD_DET(a);
      uint64_t cand = FWD_MULTIPATH(a) ? r->cset[FWD_CSET(a)] : 0;
      if (cand) { /* the random path (§7.3 arithmetic, increasing port order) */
        unsigned n = (unsigned)__builtin_popcountll(cand);
        t->rs = asw_lfsr_next(t->rs);
        unsigned k = (unsigned)(((uint32_t)t->rs * n) >> 16);
        while (k--) cand &= cand - 1;
        o = (unsigned)__builtin_ctzll(cand);
      }
      t->out[o] = w;
      out_next |= 1ull << o;
      count(t, o, ASW_SCNT_TX);
    }
  }
  /* stage A: round robin over rx[0..P-1], loc[0..P-1] from ptr */
  t->b_valid = 0;
  const uint64_t rx0 = t->rx_mask, loc0 = t->loc_mask;
  if (rx0 | loc0) {
    for (unsigned j = 0; j < 2 * P; j++) {
      unsigned s = t->ptr + j;
      if (s >= 2 * P) s -= 2 * P;
      uint64_t bit = 1ull << (s < P ? s : s - P);
      if (!((s < P ? rx0 : loc0) & bit)) continue;
      unsigned p = s < P ? s : s - P;
      uint64_t w;
      if (s < P) {
        w = t->rx[p];
        t->rx_mask &= ~bit;
      } else {
        w = t->loc[p];
        t->loc_mask &= ~bit;
      }
      unsigned src = ASW_CNM_SRC(w);
      t->b_valid = 1;
      t->b_port = (uint8_t)p;
      t->b_word = w;
      t->b_entry = src < r->cfg.table_entries ? r->fwd[src] : 0;
      t->ptr = s + 1 == 2 * P ? 0 : s + 1;
      break;
    }
  }
  /* filling: a register still full (valid at the start, not popped) drops */
  for (uint64_t m = in_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    count(t, p, ASW_SCNT_RX);
    if (t->rx_mask >> p & 1u) {
      count(t, p, ASW_SCNT_DROPPED);
    } else {
      t->rx[p] = in_words[p];
      t->rx_mask |= 1ull << p;
    }
  }
  for (uint64_t m = loc_in; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    if (t->loc_mask >> o & 1u) {
      count(t, o, ASW_SCNT_DROPPED);
    } else {
      t->loc[o] = loc_words[o];
      t->loc_mask |= 1ull << o;
    }
  }
  /* decay: entries whose last valid cycle is this one expire at its end */
  for (uint32_t m = t->valid; m; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctz(m);
    if (t->e[k].last == now) {
      t->valid &= ~(1u << k);
      count(t, t->e[k].port, ASW_SCNT_EXPIRED);
    }
  }
  t->out_mask = out_next;
}

int asw_sar_owns(uint32_t a, unsigned P, unsigned SE) {
  return a == ASW_REG_SAR_CTRL || a == ASW_REG_SAR_TTL || a == ASW_REG_SAR_SEED ||
         (a >= ASW_REG_SAR_COUNTER(0, 0) && a < ASW_REG_SAR_COUNTER(P, 0)) ||
         (a >= ASW_REG_SAR_ENTRY(0, 0) && a < ASW_REG_SAR_ENTRY(SE, 0));
}

#define REJECT(...)                                                  \
  do {                                                               \
    if (err) snprintf(err, errlen, __VA_ARGS__);                     \
    return ASW_EINVAL;                                               \
  } while (0)

/* A change of TS taking effect in cycle tc (the switch advances tc before its
 * end-of-cycle register write): each valid entry keeps the ticks it has left
 * at the start of that cycle, counted in the new period. */
static void retime(asw_sar *t, unsigned ts_new) {
  const uint64_t n = t->tc;
  for (uint32_t m = t->valid; m; m &= m - 1) {
    asw_sar_entry *x = &t->e[__builtin_ctz(m)];
    if (x->last < n) continue; /* expired at the end of this cycle already */
    unsigned left = ttl_at(t, x, n);
    uint64_t M = (1ull << ts_new) - 1;
    x->last = (n | M) + (uint64_t)(left - 1) * (M + 1);
  }
  t->ts = ts_new;
}

int asw_sar_reg_write(asw_sar *t, uint32_t a, uint32_t d, char *err, size_t errlen) {
  switch (a) {
  case ASW_REG_SAR_CTRL:
    if (d >> 7) REJECT("SAR_CTRL = 0x%08x: bits above 6 must be 0", d);
    if ((d >> 2 & 0x1Fu) > 24) REJECT("SAR_CTRL: decay = %u out of range 0..24", d >> 2 & 0x1Fu);
    t->en = d & 1u;
    t->steer = d >> 1 & 1u;
    t->decay = d >> 2 & 0x1Fu;
    if (!t->en) clear_state(t);
    return ASW_OK;
  case ASW_REG_SAR_TTL: {
    unsigned ttl = d & 0xFFFFFFu, ts = d >> 24 & 0x1Fu;
    if (d >> 29) REJECT("SAR_TTL = 0x%08x: bits above 28 must be 0", d);
    if (!ttl) REJECT("SAR_TTL: TTL = 0 (legal 1..2^24-1 ticks)");
    if (ts > 24) REJECT("SAR_TTL: TS = %u out of range 0..24", ts);
    t->ttl = ttl;
    if (ts != t->ts) retime(t, ts);
    return ASW_OK;
  }
  case ASW_REG_SAR_SEED:
    if (d >> 16) REJECT("SAR_SEED = 0x%08x: bits above 15 must be 0", d);
    t->seed = d;
    t->rs = seed_state(d);
    return ASW_OK;
  default: REJECT("register 0x%05x is read-only", a);
  }
}

uint32_t asw_sar_reg_read(const asw_sar *t, uint32_t a) {
  switch (a) {
  case ASW_REG_SAR_CTRL: return t->en | t->steer << 1 | t->decay << 2;
  case ASW_REG_SAR_TTL: return t->ttl | t->ts << 24;
  case ASW_REG_SAR_SEED: return t->seed;
  default: break;
  }
  if (a >= ASW_REG_SAR_COUNTER(0, 0) && a < ASW_REG_SAR_COUNTER(t->P, 0)) {
    unsigned p = (a - ASW_REG_SAR_COUNTER(0, 0)) / 8, k = (a - ASW_REG_SAR_COUNTER(0, 0)) % 8;
    return k < ASW_SCNT_NUM ? t->cnt[p * ASW_SCNT_NUM + k] : 0;
  }
  if (a >= ASW_REG_SAR_ENTRY(0, 0) && a < ASW_REG_SAR_ENTRY(t->SE, 0)) {
    unsigned e = (a - ASW_REG_SAR_ENTRY(0, 0)) / 2, w = (a - ASW_REG_SAR_ENTRY(0, 0)) % 2;
    if (!(t->valid >> e & 1u)) return 0;
    const asw_sar_entry *x = &t->e[e];
    if (w == 0) return x->dest | (uint32_t)x->port << 16 | (uint32_t)x->level << 22 | 1u << 31;
    return ttl_at(t, x, t->tc) & 0xFFFFFFu;
  }
  return 0;
}

void asw_sar_clear_counters(asw_sar *t) {
  memset(t->cnt, 0, (size_t)t->P * ASW_SCNT_NUM * sizeof *t->cnt);
}
