/* arn_table.c — see arn_table.h. */
#include "arn_table.h"

#include <stdlib.h>
#include <string.h>

int asw_arn_init(asw_arn *t, unsigned P, unsigned AE) {
  memset(t, 0, sizeof *t);
  t->P = P;
  t->AE = AE;
  t->e = calloc(AE ? AE : 1, sizeof *t->e);
  t->evq = calloc(P + 1, sizeof *t->evq);
  t->outq = calloc(P, sizeof *t->outq);
  t->out_msg = calloc(P, sizeof *t->out_msg);
  if (!t->e || !t->evq || !t->outq || !t->out_msg) {
    asw_arn_destroy(t);
    return -1;
  }
  return 0;
}

void asw_arn_destroy(asw_arn *t) {
  free(t->e);
  free(t->evq);
  free(t->outq);
  free(t->out_msg);
  memset(t, 0, sizeof *t);
}

void asw_arn_reset(asw_arn *t) {
  memset(t->e, 0, (t->AE ? t->AE : 1) * sizeof *t->e);
  memset(t->evq, 0, (t->P + 1) * sizeof *t->evq);
  memset(t->outq, 0, t->P * sizeof *t->outq);
  memset(t->out_msg, 0, t->P * sizeof *t->out_msg);
  t->valid = t->consumed = 0;
  t->out_mask = t->outq_nonempty = t->evq_nonempty = 0;
  t->ev_ptr = 0;
}

static uint32_t event_msg(const asw_arn_event *e) {
  return asw_arn_msg(e->dest, e->vc, e->stage, e->id);
}

int asw_arn_send(asw_arn *t, unsigned i, uint32_t msg) {
  asw_arn_fifo *f = &t->outq[i];
  for (unsigned k = 0; k < f->count; k++)
    if (event_msg(&f->ev[(f->head + k) % ASW_AQ]) == msg) return 0;
  asw_arn_event e = {(uint16_t)ASW_ARN_DEST(msg), (uint16_t)ASW_ARN_ID(msg),
                     0, (uint8_t)ASW_ARN_VC(msg), (uint8_t)ASW_ARN_STAGE(msg), 0};
  if (!asw_arn_fifo_push(f, &e)) return -1;
  t->outq_nonempty |= 1ull << i;
  return 1;
}

/* selectAlternativeOport (§15.3 step 4): candidate of FWD[dest] other than
 * `port` with the most credits on VC avc, first in scan order among equals.
 * Returns the port or -1. */
static int alternative_port(const asw_regs *r, const asw_credits *cr,
                            unsigned dest, unsigned port, unsigned avc) {
  if (dest >= r->cfg.table_entries) return -1;
  uint32_t a = r->fwd[dest];
  if (!(a >> 31) || !(a >> 30 & 1u)) return -1;
  unsigned det = a & 0x3Fu;
  uint64_t cand = r->cset[a >> 16 & 3u] & ~(1ull << port);
  if (avc >= r->cfg.vcs) return -1; /* a message's vc >= V has no credits */
  uint64_t hi = cand & (~0ull << det), lo = cand & ~(~0ull << det);
  int best = -1;
  unsigned max = 0;
  while (hi | lo) {
    uint64_t *m = hi ? &hi : &lo;
    unsigned o = (unsigned)__builtin_ctzll(*m);
    *m &= *m - 1;
    unsigned c = asw_credits_get(cr, o, avc);
    if (best < 0 || c > max) {
      best = (int)o;
      max = c;
    }
  }
  return best;
}

static void process(asw_arn *t, asw_regs *r, const asw_credits *cr,
                    const asw_arn_event *e, uint64_t now) {
  uint32_t same = 0; /* valid entries with the same {dest, port, vc} */
  int refreshed = 0;
  for (uint32_t m = t->valid; m; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctz(m);
    asw_arn_entry *x = &t->e[k];
    if (x->dest != e->dest || x->vc != e->vc) continue;
    /* step 1: refresh every entry with the event's {dest, port, vc, id}, and
     * with alt_refresh every consumed one whose alt_port is the event's port */
    if (x->id == e->id &&
        (x->port == e->port ||
         (r->alt_refresh && (t->consumed >> k & 1u) && x->alt_port == e->port))) {
      x->last = now + r->arn_ttl;
      refreshed = 1;
    } else if (x->port == e->port) {
      same |= 1u << k;
    }
  }
  if (refreshed) return;
  t->valid &= ~same; /* step 2 */
  t->consumed &= ~same;
  if (e->adapted) return; /* step 3 */
  unsigned consumed = e->stage == r->stage, alt = 0; /* step 4 */
  if (consumed) {
    unsigned avc = r->arn_mode == ASW_ARN_AFI ? r->cfg.vcs - 1 : e->vc;
    int a = alternative_port(r, cr, e->dest, e->port, avc);
    if (a < 0) consumed = 0;
    else alt = (unsigned)a;
  }
  if (consumed) asw_regs_arn_count(r, e->port, ASW_ACNT_CONSUMED);
  /* step 5: lowest free entry, else evict the one expiring first */
  uint32_t all = t->AE == 32 ? ~0u : (1u << t->AE) - 1;
  unsigned k;
  if (t->valid != all) {
    k = (unsigned)__builtin_ctz(~t->valid & all);
  } else {
    k = 0;
    for (unsigned j = 1; j < t->AE; j++)
      if (t->e[j].last < t->e[k].last) k = j;
    asw_regs_arn_count(r, t->e[k].port, ASW_ACNT_EVICTED);
  }
  asw_arn_entry *x = &t->e[k];
  x->dest = e->dest;
  x->id = e->id;
  x->port = e->port;
  x->vc = e->vc;
  x->stage = e->stage;
  x->consumed = (uint8_t)consumed;
  x->alt_port = (uint8_t)alt;
  x->last = now + r->arn_ttl;
  t->valid |= 1u << k;
  if (consumed) t->consumed |= 1u << k;
  else t->consumed &= ~(1u << k);
}

int asw_arn_process(asw_arn *t, asw_regs *r, const asw_credits *cr,
                    uint64_t now) {
  unsigned n = t->P + 1, src = n;
  uint64_t ne = t->evq_nonempty;
  if (!ne && !t->evq[0].count) return -1;
  for (unsigned k = 0; k < n; k++) {
    unsigned s = (t->ev_ptr + k) % n;
    if (s == 0 ? t->evq[0].count != 0 : (ne >> (s - 1) & 1u)) {
      src = s;
      break;
    }
  }
  asw_arn_fifo *f = &t->evq[src];
  asw_arn_event e = f->ev[f->head];
  f->head = (uint8_t)((f->head + 1) % ASW_AQ);
  if (--f->count == 0 && src) t->evq_nonempty &= ~(1ull << (src - 1));
  t->ev_ptr = (src + 1) % n;
  process(t, r, cr, &e, now);
  return (int)src;
}

void asw_arn_end_cycle(asw_arn *t, asw_regs *r, uint64_t out_start,
                       uint64_t now) {
  for (uint64_t m = t->out_mask & ~out_start; m; m &= m - 1)
    t->out_msg[__builtin_ctzll(m)] = 0;
  t->out_mask = out_start;
  for (uint64_t m = out_start; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    asw_arn_fifo *f = &t->outq[i];
    t->out_msg[i] = event_msg(&f->ev[f->head]);
    f->head = (uint8_t)((f->head + 1) % ASW_AQ);
    if (--f->count == 0) t->outq_nonempty &= ~(1ull << i);
    asw_regs_arn_count(r, i, ASW_ACNT_SENT);
  }
  for (uint32_t m = t->valid; m; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctz(m);
    if (t->e[k].last <= now) {
      t->valid &= ~(1u << k);
      t->consumed &= ~(1u << k);
      asw_regs_arn_count(r, t->e[k].port, ASW_ACNT_EXPIRED);
    }
  }
}

uint64_t asw_arn_last_expiry(const asw_arn *t) {
  uint64_t last = 0;
  for (uint32_t m = t->valid; m; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctz(m);
    if (t->e[k].last > last) last = t->e[k].last;
  }
  return last;
}

uint32_t asw_arn_entry_word(const asw_arn *t, unsigned e, unsigned w,
                            uint64_t now) {
  if (e >= t->AE || !(t->valid >> e & 1u)) return 0;
  const asw_arn_entry *x = &t->e[e];
  switch (w) {
  case 0:
    return x->dest | (uint32_t)x->port << 16 | (uint32_t)x->vc << 22 |
           (uint32_t)x->stage << 25 | (uint32_t)x->consumed << 29 | 1u << 31;
  case 1: return x->id | (uint32_t)x->alt_port << 16;
  case 2: return (uint32_t)(x->last - now + 1);
  default: return 0;
  }
}
