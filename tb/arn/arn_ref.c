/* arn_ref.c — see arn_ref.h. Mirrors the order of asw_switch_step (§15.7):
 * detector on the start-of-cycle state, RC lookups, one processARN, root and
 * received-message pushes, end of cycle (output registers, expiry), then a
 * mode-0 write's reset. */
#include "arn_ref.h"

#include <stdlib.h>
#include <string.h>

#include "asw_switch.h" /* asw_config_default */
#include "arn_table.h"
#include "congestion_detector.h"
#include "credits.h"
#include "input_buffer.h"
#include "regs.h"

static int regs_new(asw_regs *r, unsigned P, unsigned V, unsigned BUF,
                    unsigned AE, unsigned TABLE) {
  asw_config cfg;
  asw_config_default(&cfg);
  cfg.ports = P;
  cfg.vcs = V;
  cfg.buf_flits = BUF;
  cfg.max_packet = BUF < 16 ? BUF : 16;
  cfg.table_entries = TABLE;
  cfg.arn_entries = AE;
  if (asw_regs_init(r, &cfg)) return -1;
  return asw_regs_init_arn(r);
}

/* ---- congestion detector ---- */
struct cd_ref {
  unsigned P, V;
  asw_ibuf *in; /* [P], queue (v, o) head slot v*P + o */
  asw_credits cr;
  asw_regs r;
  asw_cd cd;
  asw_arn_fifo rf;
};

cd_ref *cd_ref_new(unsigned P, unsigned V, unsigned BUF) {
  cd_ref *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->P = P;
  c->V = V;
  c->in = calloc(P, sizeof *c->in);
  if (!c->in || asw_credits_init(&c->cr, P, V, BUF, BUF < 16 ? BUF : 16) ||
      regs_new(&c->r, P, V, BUF, 1, 1) || asw_cd_init(&c->cd, P, V)) {
    cd_ref_free(c);
    return NULL;
  }
  for (unsigned i = 0; i < P; i++) {
    c->in[i].vcs = V;
    c->in[i].nq = P;
    c->in[i].slot = calloc((size_t)V * P, sizeof *c->in[i].slot);
    c->in[i].q = calloc((size_t)V * P, sizeof *c->in[i].q);
    if (!c->in[i].slot || !c->in[i].q) {
      cd_ref_free(c);
      return NULL;
    }
    for (unsigned k = 0; k < V * P; k++) c->in[i].q[k].head = (uint16_t)k;
  }
  return c;
}

void cd_ref_free(cd_ref *c) {
  if (!c) return;
  if (c->in)
    for (unsigned i = 0; i < c->P; i++) {
      free(c->in[i].slot);
      free(c->in[i].q);
    }
  free(c->in);
  asw_credits_destroy(&c->cr);
  asw_regs_destroy(&c->r);
  asw_cd_destroy(&c->cd);
  free(c);
}

void cd_ref_regs(cd_ref *c, unsigned hcdth, unsigned lcdth, unsigned fcth,
                 unsigned crt, uint64_t arn_up, unsigned stage) {
  c->r.hcdth = hcdth;
  c->r.lcdth = lcdth;
  c->r.fcth = fcth;
  c->r.crt = crt;
  c->r.arn_up = arn_up;
  c->r.stage = stage;
}

void cd_ref_queue(cd_ref *c, unsigned i, unsigned v, unsigned o, int nonempty,
                  unsigned ovc, unsigned dest, unsigned adapted,
                  unsigned orig_vc) {
  asw_ibuf *b = &c->in[i];
  asw_slot *s = &b->slot[v * c->P + o];
  s->hdr = asw_hdr_make(dest, 0, 0, 1, adapted, orig_vc, 0);
  s->ovc = (uint8_t)ovc;
  if (nonempty) b->nonempty[v] |= 1ull << o;
  else b->nonempty[v] &= ~(1ull << o);
}

void cd_ref_cred(cd_ref *c, unsigned o, unsigned v, unsigned cred) {
  c->cr.out[o].cred[v] = (uint16_t)cred;
}

int cd_ref_detect(cd_ref *c, int on, arn_ref_event *ev) {
  if (!on) return 0;
  asw_arn_event e;
  int d = asw_cd_cycle(&c->cd, c->in, &c->cr, &c->r, c->rf.count < ASW_AQ, &e);
  if (d) *ev = (arn_ref_event){e.dest, e.port, e.vc, e.stage, e.id, e.adapted};
  return d;
}

void cd_ref_occ(cd_ref *c, int on, unsigned i, unsigned v, unsigned o,
                unsigned occ) {
  if (on) asw_cd_occ(&c->cd, i, v, o, occ, c->r.hcdth, c->r.lcdth);
}

void cd_ref_end(cd_ref *c, int pop, int declared, const arn_ref_event *ev,
                int clear) {
  if (pop && c->rf.count) {
    c->rf.head = (uint8_t)((c->rf.head + 1) % ASW_AQ);
    c->rf.count--;
  }
  if (declared) {
    asw_arn_event e = {(uint16_t)ev->dest, (uint16_t)ev->id, (uint8_t)ev->port,
                       (uint8_t)ev->vc, (uint8_t)ev->stage, (uint8_t)ev->adapted};
    asw_arn_fifo_push(&c->rf, &e);
  }
  if (clear) {
    asw_cd_reset(&c->cd, 1);
    memset(&c->rf, 0, sizeof c->rf);
  }
}

int cd_ref_hot(const cd_ref *c, unsigned i, unsigned v, unsigned o) {
  unsigned bit = i * c->V + v;
  return (int)(c->cd.hot[o * c->cd.words + bit / 64] >> (bit % 64) & 1u);
}
unsigned cd_ref_hot_cnt(const cd_ref *c, unsigned o) { return c->cd.hot_cnt[o]; }
unsigned cd_ref_crt(const cd_ref *c, unsigned o) { return c->cd.crt[o]; }
int cd_ref_root(const cd_ref *c, unsigned o) { return (int)(c->cd.root >> o & 1u); }
unsigned cd_ref_root_id(const cd_ref *c, unsigned o) { return c->cd.root_id[o]; }
unsigned cd_ref_next_id(const cd_ref *c) { return c->cd.next_id; }
uint32_t cd_ref_roots_declared(const cd_ref *c, unsigned o) {
  return c->r.arn_counters[o * 16u + ASW_ACNT_ROOTS];
}
unsigned cd_ref_rf_count(const cd_ref *c) { return c->rf.count; }
arn_ref_event cd_ref_rf_head(const cd_ref *c) {
  const asw_arn_event *e = &c->rf.ev[c->rf.head];
  return (arn_ref_event){e->dest, e->port, e->vc, e->stage, e->id, e->adapted};
}

/* ---- ARN table ---- */
struct tb_ref {
  unsigned P, V;
  asw_credits cr;
  asw_regs r;
  asw_arn t;
  uint64_t now; /* ARN time: runs only in cycles with mode != 0 */
  tb_ref_cov cov;
};

/* Classifies the event processARN is about to take (test coverage only). */
static void classify(tb_ref *t) {
  unsigned n = t->P + 1;
  for (unsigned k = 0; k < n; k++) {
    unsigned s = (t->t.ev_ptr + k) % n;
    const asw_arn_fifo *f = &t->t.evq[s];
    if (!f->count) continue;
    const asw_arn_event *e = &f->ev[f->head];
    unsigned port = s ? s - 1 : e->port;
    t->cov.sources_popped_mask |= 1ul << s;
    for (unsigned j = 0; j < t->t.AE && t->r.alt_refresh; j++) {
      const asw_arn_entry *x = &t->t.e[j];
      if ((t->t.valid & t->t.consumed) >> j & 1u && x->dest == e->dest && x->vc == e->vc &&
          x->id == e->id && x->port != port && x->alt_port == port)
        t->cov.alt_refresh++;
    }
    for (unsigned j = 0; j < t->t.AE; j++) {
      const asw_arn_entry *x = &t->t.e[j];
      if ((t->t.valid >> j & 1u) && x->dest == e->dest && x->port == port &&
          x->vc == e->vc) {
        if (x->id == e->id) {
          t->cov.refresh++;
          return;
        }
        t->cov.replace++;
      }
    }
    if (e->adapted) t->cov.adapted_ev++;
    else if (e->stage == t->r.stage) t->cov.stage_match++;
    return;
  }
}

tb_ref *tb_ref_new(unsigned P, unsigned V, unsigned BUF, unsigned AE,
                   unsigned TABLE) {
  tb_ref *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->P = P;
  t->V = V;
  if (asw_credits_init(&t->cr, P, V, BUF, BUF < 16 ? BUF : 16) ||
      regs_new(&t->r, P, V, BUF, AE, TABLE) || asw_arn_init(&t->t, P, AE)) {
    tb_ref_free(t);
    return NULL;
  }
  return t;
}

void tb_ref_free(tb_ref *t) {
  if (!t) return;
  asw_credits_destroy(&t->cr);
  asw_regs_destroy(&t->r);
  asw_arn_destroy(&t->t);
  free(t);
}

void tb_ref_regs(tb_ref *t, unsigned mode, unsigned stage, unsigned ttl,
                 unsigned alt_refresh) {
  t->r.alt_refresh = alt_refresh;
  t->r.arn_mode = mode;
  t->r.stage = stage;
  t->r.arn_ttl = ttl;
}
void tb_ref_fwd(tb_ref *t, unsigned dest, uint32_t entry) { t->r.fwd[dest] = entry; }
void tb_ref_cset(tb_ref *t, unsigned c, uint64_t mask) { t->r.cset[c] = mask; }
void tb_ref_cred(tb_ref *t, unsigned o, unsigned v, unsigned cred) {
  t->cr.out[o].cred[v] = (uint16_t)cred;
}
unsigned tb_ref_root_count(const tb_ref *t) { return t->t.evq[0].count; }
arn_ref_event tb_ref_root_head(const tb_ref *t) {
  const asw_arn_event *e = &t->t.evq[0].ev[t->t.evq[0].head];
  return (arn_ref_event){e->dest, e->port, e->vc, e->stage, e->id, e->adapted};
}

int tb_ref_cycle(tb_ref *t, const int *lk_valid, const unsigned *lk_dest,
                 const unsigned *lk_vc, const int *lk_adapted,
                 const unsigned *lk_orig_vc, int *kind, unsigned *alt,
                 int root_push, const arn_ref_event *root_ev,
                 const int *in_valid, const uint32_t *in_msg, int clear) {
  int popped = -1;
  if (t->r.arn_mode != 0) {
    uint64_t out_start = t->t.outq_nonempty;
    for (unsigned i = 0; i < t->P; i++) { /* stage_rc */
      kind[i] = 0;
      if (!lk_valid[i]) continue;
      uint32_t msg = 0;
      kind[i] = asw_arn_lookup(&t->t, lk_dest[i], lk_adapted[i] ? lk_orig_vc[i] : lk_vc[i],
                               lk_adapted[i], &alt[i], &msg);
      if (kind[i] == 2 && lk_adapted[i]) t->cov.adapted_notify++;
      if (kind[i] == 1) asw_regs_arn_count(&t->r, i, ASW_ACNT_ADAPTED);
      if (kind[i] == 2) {
        int sent = asw_arn_send(&t->t, i, msg);
        if (sent < 0) asw_regs_arn_count(&t->r, i, ASW_ACNT_OUT_DROPPED);
        if (sent == 0) t->cov.dedup++;
      }
    }
    classify(t);
    popped = asw_arn_process(&t->t, &t->r, &t->cr, t->now); /* arn_cycle */
    if (root_push) {
      asw_arn_event e = {(uint16_t)root_ev->dest, (uint16_t)root_ev->id,
                         (uint8_t)root_ev->port, (uint8_t)root_ev->vc,
                         (uint8_t)root_ev->stage, (uint8_t)root_ev->adapted};
      asw_arn_fifo_push(&t->t.evq[0], &e);
    }
    for (unsigned p = 0; p < t->P; p++) {
      if (!in_valid[p]) continue;
      uint32_t msg = in_msg[p];
      asw_regs_arn_count(&t->r, p, ASW_ACNT_RECEIVED);
      asw_arn_fifo *f = &t->t.evq[1 + p];
      unsigned start_count = f->count + (popped == (int)(1 + p));
      asw_arn_event e = {(uint16_t)ASW_ARN_DEST(msg), (uint16_t)ASW_ARN_ID(msg),
                         (uint8_t)p, (uint8_t)ASW_ARN_VC(msg),
                         (uint8_t)ASW_ARN_STAGE(msg), 0};
      if (start_count >= ASW_AQ) {
        asw_regs_arn_count(&t->r, p, ASW_ACNT_IN_DROPPED);
      } else {
        asw_arn_fifo_push(f, &e);
        t->t.evq_nonempty |= 1ull << p;
      }
    }
    asw_arn_end_cycle(&t->t, &t->r, out_start, t->now);
    t->now++;
  }
  if (clear) asw_arn_reset(&t->t);
  return popped;
}

int tb_ref_entry(const tb_ref *t, unsigned k, arn_ref_event *e,
                 unsigned *consumed, unsigned *alt, unsigned *ttl) {
  if (!(t->t.valid >> k & 1u)) return 0;
  const asw_arn_entry *x = &t->t.e[k];
  *e = (arn_ref_event){x->dest, x->port, x->vc, x->stage, x->id, 0};
  *consumed = x->consumed;
  *alt = x->alt_port;
  *ttl = (unsigned)(x->last - t->now + 1);
  return 1;
}

int tb_ref_out(const tb_ref *t, unsigned i, uint32_t *msg) {
  *msg = t->t.out_msg[i];
  return (int)(t->t.out_mask >> i & 1u);
}

uint32_t tb_ref_counter(const tb_ref *t, unsigned port, unsigned k) {
  return t->r.arn_counters[port * 16u + k];
}

tb_ref_cov tb_ref_coverage(const tb_ref *t) {
  tb_ref_cov c = t->cov;
  for (unsigned p = 0; p < t->P; p++)
    c.consumed += tb_ref_counter(t, p, ASW_ACNT_CONSUMED);
  c.no_alt = c.stage_match > c.consumed ? c.stage_match - c.consumed : 0;
  return c;
}
