/* test_arn.c — congestion detector, ARN table, ARN messages and AFI
 * (contract §15): unit tests of the blocks, switch-level directed tests of
 * each pseudo-code branch and of the cycle timing, and a hand-wired network
 * of three switches in which a root sends ARNs upstream and the upstream
 * switch consumes them and adapts packets. */
#include <stdlib.h>
#include <string.h>

#include "arn_table.h"
#include "asw_switch.h"
#include "congestion_detector.h"
#include "credits.h"
#include "regs.h"
#include "test.h"
#include "test_drv.h"

static uint32_t acnt(const asw_switch *sw, unsigned p, unsigned k) {
  return test_rd(sw, ASW_REG_ARN_COUNTER(p, k));
}
static asw_config cfg(unsigned P, unsigned V, unsigned BUF, unsigned LMAX) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = P;
  c.vcs = V;
  c.buf_flits = BUF;
  c.max_packet = LMAX;
  c.payload_bits = 64;
  return c;
}

/* ---------------------------------------------------------------------- */
void test_arn_registers(void) {
  asw_config c = cfg(8, 2, 100, 8);
  c.arn_entries = 0;
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  if (!sw) { CHECK(0); return; }
  /* AE = 0: the ARN registers are unmapped */
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, 0) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_CD_THRESH) == 0 && test_rd(sw, ASW_REG_ARN_COUNTER(0, 0)) == 0);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_COUNTER(0, 0), 1) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 2);
  asw_switch_free(sw);

  c.arn_entries = 32;
  sw = asw_switch_new(&c, NULL, 0);
  if (!sw) { CHECK(0); return; }
  CHECK((test_rd(sw, ASW_REG_PARAM2) >> 17 & 63u) == 32);
  CHECK(test_rd(sw, ASW_REG_CD_THRESH) == (81u | 63u << 16) && test_rd(sw, ASW_REG_FCTH) == 78);
  struct { uint32_t a, d; int ok; } w[] = {
      {ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0), 1},
      {ASW_REG_ARN_CTRL, asw_arn_ctrl(2, 1), 1},
      {ASW_REG_ARN_CTRL, 3, 0},
      {ASW_REG_ARN_CTRL, 8 | 16 | 1, 1}, /* adapted_arn, alt_refresh (issue 27) */
      {ASW_REG_ARN_CTRL, 32, 0},
      {ASW_REG_ARN_CTRL, 1u << 31, 0},
      {ASW_REG_ARN_UP(0), 0xFF, 1},
      {ASW_REG_ARN_UP(0), 0x100, 0},
      {ASW_REG_ARN_UP(1), 1, 0},
      {ASW_REG_CD_THRESH, 100u | 1u << 16, 1},
      {ASW_REG_CD_THRESH, 101u | 1u << 16, 0},
      {ASW_REG_CD_THRESH, 50u | 0u << 16, 0},
      {ASW_REG_CD_THRESH, 50u | 51u << 16, 0},
      {ASW_REG_CD_THRESH, 7u | 7u << 16, 1},
      {ASW_REG_FCTH, 100, 1},
      {ASW_REG_FCTH, 101, 0},
      {ASW_REG_FCTH, 1u << 16, 0},
      {ASW_REG_CRT, 1, 1},
      {ASW_REG_CRT, 0, 0},
      {ASW_REG_CRT, 0xFFFFFF, 1},
      {ASW_REG_CRT, 0x1000000, 0},
      {ASW_REG_ARN_TTL, 0, 0},
      {ASW_REG_ARN_TTL, 5, 1},
      {ASW_REG_ARN_COUNTER(3, 2), 0, 0},
      {ASW_REG_ARN_ENTRY(31, 0), 0, 0},
      {ASW_REG_ROOT(7, 1), 0, 0},
  };
  unsigned errors = 0;
  for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
    uint32_t before = test_rd(sw, w[k].a);
    int rc = asw_reg_write(sw, w[k].a, w[k].d);
    CHECKF((rc == ASW_OK) == w[k].ok, "write 0x%x <- 0x%x", w[k].a, w[k].d);
    if (!w[k].ok) {
      errors++;
      CHECKF(test_rd(sw, w[k].a) == before, "illegal write changed 0x%x", w[k].a);
    } else {
      CHECKF(test_rd(sw, w[k].a) == w[k].d, "read back 0x%x", w[k].a);
    }
  }
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == errors);
  /* unmapped just above the views */
  CHECK(asw_reg_write(sw, ASW_REG_ROOT(8, 0), 0) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_ARN_COUNTER(0, 9)) == 0);
  asw_switch_free(sw);

  /* mode 1/2 need VOQ; mode 2 and mark_adapted need V >= 2 */
  c = cfg(4, 1, 16, 4);
  sw = asw_switch_new(&c, NULL, 0);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(2, 0)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(0, 1)) == ASW_EINVAL);
  asw_switch_free(sw);
  c = cfg(4, 2, 16, 4);
  c.voq = 0;
  sw = asw_switch_new(&c, NULL, 0);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(0, 1)) == ASW_OK);
  asw_switch_free(sw);
  c.arn_entries = 33;
  char err[200];
  CHECK(asw_config_check(&c, err, sizeof err) == ASW_EINVAL && strstr(err, "AE"));
}

/* ---------------------------------------------------------------------- */
void test_cd_hysteresis(void) {
  asw_cd cd;
  if (asw_cd_init(&cd, 5, 3)) { CHECK(0); return; }
  asw_cd_reset(&cd, 0);
  const unsigned H = 10, L = 5;
  unsigned occ[] = {9, 10, 6, 5, 4, 9, 12, 0};
  int want[] = {0, 1, 1, 1, 0, 0, 1, 0};
  for (unsigned k = 0; k < 8; k++) {
    asw_cd_occ(&cd, 4, 2, 3, occ[k], H, L);
    CHECKF((cd.hot_cnt[3] == 1) == want[k], "step %u occ %u", k, occ[k]);
    CHECK(((cd.hot_out >> 3) & 1u) == (unsigned)want[k]);
  }
  /* counts several VOQs of one output, independently */
  asw_cd_occ(&cd, 0, 0, 1, 10, H, L);
  asw_cd_occ(&cd, 4, 2, 1, 11, H, L);
  asw_cd_occ(&cd, 2, 1, 1, 3, H, L);
  CHECK(cd.hot_cnt[1] == 2);
  asw_cd_occ(&cd, 0, 0, 1, 4, H, L);
  CHECK(cd.hot_cnt[1] == 1 && (cd.hot_out >> 1 & 1u));
  asw_cd_occ(&cd, 4, 2, 1, 0, H, L);
  CHECK(cd.hot_cnt[1] == 0 && cd.hot_out == 0);
  asw_cd_destroy(&cd);
}

/* ---------------------------------------------------------------------- */
static void push_event(asw_arn *t, unsigned src, asw_arn_event e) {
  asw_arn_fifo_push(&t->evq[src], &e);
  if (src) t->evq_nonempty |= 1ull << (src - 1);
}

/* The unit tests' switch: P=8 V=4 BUF=64 LMAX=8 with ae ARN-table entries, its
 * registers, credits and table initialised and reset; STAGE, ARN mode, ARN_TTL 10,
 * FWD[5] = det port 4 with multipath set 1, whose CSET is cset1. */
static int arn_unit_setup(asw_regs *r, asw_credits *cr, asw_arn *t, unsigned ae,
                          unsigned stage, unsigned mode, uint32_t cset1) {
  asw_config c = cfg(8, 4, 64, 8);
  c.arn_entries = ae;
  if (asw_regs_init(r, &c) || asw_regs_init_arn(r) || asw_credits_init(cr, 8, 4, 64, 8) ||
      asw_arn_init(t, 8, ae))
    return -1;
  asw_credits_reset(cr);
  asw_arn_reset(t);
  r->stage = stage;
  r->arn_mode = mode;
  r->arn_ttl = 10;
  r->fwd[5] = asw_fwd_entry(4, 0, 1, 1);
  r->cset[1] = cset1;
  return 0;
}

/* processARN, TTL, eviction, selectAlternativeOport, FIFO arbitration. */
void test_arn_table_unit(void) {
  asw_regs r;
  asw_credits cr;
  asw_arn t;
  if (arn_unit_setup(&r, &cr, &t, 3, 2, ASW_ARN_ON, 0xF0)) { /* alternatives 4..7 */
    CHECK(0);
    return;
  }
  uint64_t now = 100;
#define EV(d, p, v, s, i, a) ((asw_arn_event){(uint16_t)(d), (uint16_t)(i), (uint8_t)(p), (uint8_t)(v), (uint8_t)(s), (uint8_t)(a)})
#define PUSH(src, e) push_event(&t, src, e)
  /* add (not consumed: stage 1 != STAGE 2) */
  PUSH(0, EV(5, 4, 1, 1, 7, 0));
  CHECK(asw_arn_process(&t, &r, &cr, now) == 0);
  CHECK(t.valid == 1 && t.consumed == 0 && t.e[0].last == now + 10);
  unsigned alt;
  uint32_t msg;
  CHECK(asw_arn_lookup(&t, 5, 1, 0, &alt, &msg) == 2 && msg == asw_arn_msg(5, 1, 1, 7));
  CHECK(asw_arn_lookup(&t, 5, 0, 0, &alt, &msg) == 0);
  CHECK(asw_arn_entry_word(&t, 0, 2, now + 1) == 10);
  /* refresh: same {dest, port, vc, id} */
  now += 4;
  PUSH(3, EV(5, 4, 1, 1, 7, 0));
  CHECK(asw_arn_process(&t, &r, &cr, now) == 3);
  CHECK(t.valid == 1 && t.e[0].last == now + 10);
  /* replace: same {dest, port, vc}, new id -> old one gone, written in the
   * lowest free entry (the one just invalidated) */
  PUSH(0, EV(5, 4, 1, 1, 8, 0));
  asw_arn_process(&t, &r, &cr, ++now);
  CHECK(t.valid == 1 && t.e[0].id == 8);
  /* consumed: stage == STAGE; alternative = most credits on VC vc among
   * set 1 minus the entry's port, scan order from det_port 4 on ties */
  asw_credits_reserve(&cr, 5, 2, 10); /* port 5 VC 2: 54, others 64 */
  PUSH(0, EV(5, 6, 2, 2, 9, 0));
  asw_arn_process(&t, &r, &cr, ++now);
  CHECK(t.valid == 3 && (t.consumed >> 1 & 1u));
  CHECK(t.e[1].alt_port == 4); /* 4, 5(54), 7: 4 first among 64s */
  CHECK(r.arn_counters[6 * 16 + ASW_ACNT_CONSUMED] == 1);
  CHECK(asw_arn_lookup(&t, 5, 2, 0, &alt, &msg) == 1 && alt == 4);
  /* the entry's own port is excluded even if best */
  asw_credits_reserve(&cr, 4, 2, 20);
  asw_credits_reserve(&cr, 7, 2, 30);
  PUSH(0, EV(5, 5, 2, 2, 10, 0));
  asw_arn_process(&t, &r, &cr, ++now);
  CHECK(t.valid == 7 && t.e[2].consumed && t.e[2].alt_port == 6);
  /* ARN+AFI: credits of the AFC (VC V-1 = 3) decide */
  r.arn_mode = ASW_ARN_AFI;
  asw_credits_reserve(&cr, 6, 3, 5);
  asw_credits_reserve(&cr, 4, 3, 5);
  /* table full: evict the entry expiring first (entry 0, last = 105+10) */
  CHECK(t.e[0].last < t.e[1].last);
  PUSH(0, EV(5, 6, 3, 2, 11, 0));
  asw_arn_process(&t, &r, &cr, ++now);
  CHECK(t.e[0].id == 11 && t.e[0].consumed && t.e[0].alt_port == 5);
  CHECK(r.arn_counters[4 * 16 + ASW_ACNT_EVICTED] == 1);
  /* adapted offender: removes the same {dest, port, vc}, adds nothing */
  PUSH(0, EV(5, 6, 3, 2, 12, 1));
  asw_arn_process(&t, &r, &cr, ++now);
  CHECK(t.valid == 6 && !(t.consumed & 1u));
  /* no candidate besides the entry's port: not consumed */
  r.cset[1] = 0x10;
  PUSH(0, EV(5, 4, 0, 2, 13, 0));
  asw_arn_process(&t, &r, &cr, ++now);
  CHECK(t.valid == 7 && !t.e[0].consumed && t.e[0].alt_port == 0);
  /* TTL: entry 0 written at cycle now is valid through now+10 */
  uint64_t w0 = now;
  for (uint64_t c2 = now + 1; c2 <= w0 + 10; c2++) {
    CHECKF(t.valid & 1u, "entry 0 gone at cycle %llu", (unsigned long long)c2);
    asw_arn_end_cycle(&t, &r, 0, c2);
  }
  CHECK(!(t.valid & 1u));
  CHECK(t.valid == 0); /* the others were older */
  CHECK(r.arn_counters[4 * 16 + ASW_ACNT_EXPIRED] == 1 &&
        r.arn_counters[5 * 16 + ASW_ACNT_EXPIRED] == 1 &&
        r.arn_counters[6 * 16 + ASW_ACNT_EXPIRED] == 1);
  /* round-robin over the P+1 FIFOs from ev_ptr */
  asw_arn_reset(&t);
  PUSH(0, EV(1, 0, 0, 1, 1, 0));
  PUSH(3, EV(2, 2, 0, 1, 1, 0));
  PUSH(3, EV(3, 2, 0, 1, 1, 0));
  PUSH(8, EV(4, 7, 0, 1, 1, 0));
  int order[5];
  for (int k = 0; k < 5; k++) order[k] = asw_arn_process(&t, &r, &cr, now);
  CHECK(order[0] == 0 && order[1] == 3 && order[2] == 8 && order[3] == 3 && order[4] == -1);
  /* output message FIFO: duplicates are not queued twice; AQ bound */
  CHECK(asw_arn_send(&t, 2, 0x1234) == 1 && asw_arn_send(&t, 2, 0x1234) == 0);
  for (unsigned k = 0; k < 3; k++) CHECK(asw_arn_send(&t, 2, 0x100 + k) == 1);
  CHECK(asw_arn_send(&t, 2, 0x200) == -1);
  asw_arn_end_cycle(&t, &r, t.outq_nonempty, now);
  CHECK(t.out_mask == 4 && t.out_msg[2] == 0x1234 && r.arn_counters[2 * 16 + ASW_ACNT_SENT] == 1);
  asw_arn_destroy(&t);
  asw_credits_destroy(&cr);
  asw_regs_destroy(&r);
#undef EV
#undef PUSH
}

/* ARN_CTRL options of issue 27: alt_refresh (§15.3 step 1) and the lookup of
 * adapted packets (adapted_arn, §15.5). */
void test_arn_options_unit(void) {
  asw_regs r;
  asw_credits cr;
  asw_arn t;
  if (arn_unit_setup(&r, &cr, &t, 4, 1, ASW_ARN_AFI, 0x30)) { /* alternatives 4, 5 */
    CHECK(0);
    return;
  }
  uint64_t now = 100;
#define EV(d, p, v, s, i, a) ((asw_arn_event){(uint16_t)(d), (uint16_t)(i), (uint8_t)(p), (uint8_t)(v), (uint8_t)(s), (uint8_t)(a)})
  unsigned alt;
  uint32_t msg;
  for (unsigned opt = 0; opt < 2; opt++) {
    asw_arn_reset(&t);
    r.alt_refresh = opt;
    /* consumed entry: ARN on port 4 (the D-mod-K port), alternative 5 */
    push_event(&t, 5, EV(5, 4, 0, 1, 7, 0));
    asw_arn_process(&t, &r, &cr, now);
    CHECK(t.valid == 1 && t.consumed == 1 && t.e[0].alt_port == 5);
    CHECK(asw_arn_lookup(&t, 5, 0, 0, &alt, &msg) == 1 && alt == 5);
    /* the same root's ARN comes back on the alternative port 5 */
    push_event(&t, 6, EV(5, 5, 0, 1, 7, 0));
    asw_arn_process(&t, &r, &cr, now + 4);
    if (opt) { /* refreshes the consumed entry, nothing added */
      CHECK(t.valid == 1 && t.e[0].last == now + 14);
    } else { /* pseudo-code reading: a second entry, consumed with alternative 4 */
      CHECK(t.valid == 3 && t.e[0].last == now + 10 && t.e[1].port == 5 && t.e[1].alt_port == 4);
    }
    /* another id on the alternative port never refreshes it */
    push_event(&t, 6, EV(5, 5, 0, 1, 8, 0));
    asw_arn_process(&t, &r, &cr, now + 5);
    CHECK(t.e[0].last == (opt ? now + 14 : now + 10));
  }
  /* adapted packets: key (dest, orig_vc), non-consumed entries only */
  asw_arn_reset(&t);
  push_event(&t, 3, EV(9, 2, 1, 2, 11, 0)); /* stage 2 != 1: not consumed */
  asw_arn_process(&t, &r, &cr, now);
  push_event(&t, 6, EV(5, 4, 1, 1, 7, 0)); /* consumed */
  asw_arn_process(&t, &r, &cr, now);
  CHECK(t.valid == 3 && t.consumed == 2);
  CHECK(asw_arn_lookup(&t, 9, 1, 1, &alt, &msg) == 2 && msg == asw_arn_msg(9, 1, 2, 11));
  CHECK(asw_arn_lookup(&t, 5, 1, 1, &alt, &msg) == 0); /* consumed: not for adapted */
  CHECK(asw_arn_lookup(&t, 5, 1, 0, &alt, &msg) == 1 && alt == 5);
  asw_arn_destroy(&t);
  asw_credits_destroy(&cr);
  asw_regs_destroy(&r);
#undef EV
}

/* ---------------------------------------------------------------------- */
/* A hand-wired network: switches, and end nodes each attached to one switch
 * port (source into its input, sink of its output). Links have one cycle of
 * latency for flits, credits and ARNs between switches; a node's flit enters
 * the switch in the cycle it is sent. */
enum { MAXS = 3, MAXP = 8, MAXN = 8, MAXSEQ = 4096 };
typedef struct { int kind, id, port; } endpoint; /* kind 1 switch, 2 node */
typedef struct {
  int sw, port;
  int active;         /* injecting */
  unsigned dest, vc, len;
  unsigned credits[8];
  unsigned pos;       /* flit of the current packet, 0 = between packets */
  unsigned seq;       /* packets started */
  int return_credits; /* sink side returns credits */
  unsigned held_credits[8]; /* credits not yet returned (return_credits 0) */
  unsigned rx_flits, rx_pkts, rx_adapted, rx_afc, arn_rx;
  uint32_t last_arn;
} node;
typedef struct {
  int nsw, nnode;
  unsigned V, BUF;
  asw_switch *sw[MAXS];
  unsigned P[MAXS];
  endpoint out_to[MAXS][MAXP], in_from[MAXS][MAXP];
  node n[MAXN];
  unsigned char seen[MAXN][MAXSEQ];
  /* inputs of the coming cycle */
  asw_flit fl[MAXS][MAXP];
  uint8_t cr[MAXS][MAXP];
  uint32_t arn[MAXS][MAXP];
  uint64_t fl_mask[MAXS], cr_mask[MAXS], arn_mask[MAXS];
  long cycle;
  int errors;
} net;

static net *net_new(unsigned V, unsigned BUF) {
  net *t = calloc(1, sizeof *t);
  t->V = V;
  t->BUF = BUF;
  return t;
}
static asw_switch *net_switch(net *t, const asw_config *c) {
  asw_switch *sw = asw_switch_new(c, NULL, 0);
  t->P[t->nsw] = c->ports;
  t->sw[t->nsw++] = sw;
  return sw;
}
static void net_link(net *t, int s, unsigned o, int s2, unsigned i2) {
  t->out_to[s][o] = (endpoint){1, s2, (int)i2};
  t->in_from[s2][i2] = (endpoint){1, s, (int)o};
}
static node *net_node(net *t, int s, unsigned port) {
  node *n = &t->n[t->nnode];
  n->sw = s;
  n->port = (int)port;
  n->len = 1;
  n->return_credits = 1;
  for (unsigned v = 0; v < 8; v++) n->credits[v] = t->BUF;
  t->out_to[s][port] = (endpoint){2, t->nnode, 0};
  t->in_from[s][port] = (endpoint){2, t->nnode, 0};
  t->nnode++;
  return n;
}
static void net_free(net *t) {
  for (int s = 0; s < t->nsw; s++) asw_switch_free(t->sw[s]);
  free(t);
}

static void net_step(net *t) {
  /* nodes send */
  for (int k = 0; k < t->nnode; k++) {
    node *n = &t->n[k];
    if (n->pos == 0 && !(n->active && n->credits[n->vc] >= n->len)) continue;
    if (n->pos == 0) n->credits[n->vc] -= n->len;
    asw_flit f = {1, n->pos == 0, n->pos + 1 == n->len, (uint8_t)n->vc, 0, n->seq};
    if (f.head) f.hdr = asw_hdr_make(n->dest, (unsigned)k, n->vc, n->len, 0, 0, n->seq);
    t->fl[n->sw][n->port] = f;
    t->fl_mask[n->sw] |= 1ull << n->port;
    if (++n->pos == n->len) {
      n->pos = 0;
      n->seq++;
    }
  }
  asw_flit ofl[MAXS][MAXP];
  uint8_t ocr[MAXS][MAXP];
  uint32_t oarn[MAXS][MAXP];
  asw_outputs out[MAXS];
  for (int s = 0; s < t->nsw; s++) {
    asw_inputs in = {t->fl_mask[s], t->fl[s], t->cr_mask[s], t->cr[s],
                     t->arn_mask[s], t->arn[s], 0, 0, 0, 0, 0, NULL};
    asw_flit fl_copy[MAXP];
    memcpy(fl_copy, t->fl[s], sizeof fl_copy);
    in.flit = fl_copy;
    uint8_t cr_copy[MAXP];
    memcpy(cr_copy, t->cr[s], sizeof cr_copy);
    in.credit_vc = cr_copy;
    uint32_t arn_copy[MAXP];
    memcpy(arn_copy, t->arn[s], sizeof arn_copy);
    in.arn = arn_copy;
    out[s] = (asw_outputs){0, ofl[s], 0, ocr[s], 0, oarn[s], 0, 0, 0, NULL};
    if (asw_switch_step(t->sw[s], &in, &out[s]) != ASW_OK) {
      if (t->errors++ < 3)
        fprintf(stderr, "    switch %d: %s\n", s, asw_switch_error(t->sw[s]));
    }
    t->fl_mask[s] = t->cr_mask[s] = t->arn_mask[s] = 0;
  }
  for (int s = 0; s < t->nsw; s++) {
    for (uint64_t m = out[s].flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      endpoint e = t->out_to[s][o];
      const asw_flit *f = &ofl[s][o];
      if (e.kind == 1) {
        t->fl[e.id][e.port] = *f;
        t->fl_mask[e.id] |= 1ull << e.port;
      } else if (e.kind == 2) {
        node *n = &t->n[e.id];
        n->rx_flits++;
        if (f->head) {
          unsigned src = ASW_HDR_SRC(f->hdr), seq = ASW_HDR_SEQ(f->hdr);
          n->rx_pkts++;
          if (src < MAXN && seq < MAXSEQ) t->seen[src][seq]++;
          if (ASW_HDR_ADAPTED(f->hdr)) n->rx_adapted++;
          if (f->vc == t->V - 1) n->rx_afc++;
        }
        if (n->return_credits) {
          t->cr[s][o] = f->vc;
          t->cr_mask[s] |= 1ull << o;
        } else {
          n->held_credits[f->vc]++;
        }
      } else {
        t->errors++;
      }
    }
    for (uint64_t m = out[s].credit_mask; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      endpoint e = t->in_from[s][i];
      if (e.kind == 1) {
        t->cr[e.id][e.port] = ocr[s][i];
        t->cr_mask[e.id] |= 1ull << e.port;
      } else if (e.kind == 2) {
        t->n[e.id].credits[ocr[s][i]]++;
      }
    }
    for (uint64_t m = out[s].arn_mask; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      endpoint e = t->in_from[s][i];
      if (e.kind == 1) {
        t->arn[e.id][e.port] = oarn[s][i];
        t->arn_mask[e.id] |= 1ull << e.port;
      } else if (e.kind == 2) { /* end node: counts and discards (§15.6) */
        t->n[e.id].arn_rx++;
        t->n[e.id].last_arn = oarn[s][i];
      }
    }
  }
  /* a sink that resumes returning credits gives back one per cycle */
  for (int k = 0; k < t->nnode; k++) {
    node *n = &t->n[k];
    if (!n->return_credits) continue;
    for (unsigned v = 0; v < 8; v++)
      if (n->held_credits[v] && !(t->cr_mask[n->sw] >> n->port & 1u)) {
        n->held_credits[v]--;
        t->cr[n->sw][n->port] = (uint8_t)v;
        t->cr_mask[n->sw] |= 1ull << n->port;
      }
  }
  t->cycle++;
}

static int net_idle(const net *t) {
  for (int s = 0; s < t->nsw; s++)
    if (!asw_switch_idle(t->sw[s])) return 0;
  for (int k = 0; k < t->nnode; k++)
    if (t->n[k].pos) return 0;
  for (int s = 0; s < t->nsw; s++)
    if (t->fl_mask[s] | t->cr_mask[s] | t->arn_mask[s]) return 0;
  return 1;
}

/* Stops the sources, runs until every switch is idle (ARN state included)
 * and checks that every packet sent arrived exactly once. */
static void net_drain_and_check(net *t, long max_cycles) {
  for (int k = 0; k < t->nnode; k++) t->n[k].active = 0;
  long c = 0;
  while (!net_idle(t) && c++ < max_cycles) net_step(t);
  CHECKF(net_idle(t), "network not idle after %ld cycles", max_cycles);
  CHECK(t->errors == 0);
  for (int k = 0; k < t->nnode; k++)
    for (unsigned q = 0; q < t->n[k].seq && q < MAXSEQ; q++)
      CHECKF(t->seen[k][q] == 1, "node %d packet %u seen %u times", k, q, t->seen[k][q]);
}

/* ---------------------------------------------------------------------- */
/* One switch, two sources into one sink: the sink's output becomes a root
 * (credits stay high) after CRT cycles of hot VOQ + FCTH; a branch (sink
 * not returning credits) never becomes a root; roots clear when the VOQs
 * drain; entries are refreshed while the root lasts and expire after. */
static net *root_net(int sink_returns, asw_switch **swp, node **nodes) {
  asw_config c = cfg(4, 2, 32, 4);
  net *t = net_new(2, 32);
  asw_switch *sw = *swp = net_switch(t, &c);
  if (!sw) return t;
  for (unsigned d = 0; d < 4; d++) asw_reg_write(sw, ASW_REG_FWD(d), asw_fwd_entry(d, 0, 0, 0));
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_CD_THRESH, 16u | 8u << 16) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_FCTH, 20) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_CRT, 20) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_TTL, 60) == ASW_OK);
  for (unsigned p = 0; p < 4; p++) nodes[p] = net_node(t, 0, p);
  nodes[0]->dest = nodes[1]->dest = 3;
  nodes[0]->len = nodes[1]->len = 4;
  nodes[0]->active = nodes[1]->active = 1;
  nodes[3]->return_credits = sink_returns;
  return t;
}

void test_arn_root_detection(void) {
  const unsigned CRT = 20;
  asw_switch *sw;
  node *nd[4];
  /* branch: the sink holds its credits, the output's credits fall to 0 */
  net *t = root_net(0, &sw, nd);
  if (!sw) { CHECK(0); net_free(t); return; }
  unsigned max_hot = 0;
  for (int k = 0; k < 300; k++) {
    net_step(t);
    unsigned w0 = test_rd(sw, ASW_REG_ROOT(3, 0));
    if (w0 >> 10 > max_hot) max_hot = w0 >> 10;
    CHECK((w0 & 1u) == 0);
  }
  CHECK(max_hot == 2); /* both VOQs (input 0 and 1, VC 0) hot */
  CHECK(acnt(sw, 3, ASW_ACNT_ROOTS) == 0);
  net_free(t);
  t = root_net(1, &sw, nd);
  if (!sw) { CHECK(0); net_free(t); return; }
  node *a = nd[0], *b = nd[1], *sink = nd[3];
  /* root: the sink drains at link rate; check the timer cycle by cycle */
  unsigned prev_crt = 0, prev_root = 0;
  long declared_at = -1;
  for (int k = 0; k < 400; k++) {
    net_step(t);
    unsigned w0 = test_rd(sw, ASW_REG_ROOT(3, 0)), crt = test_rd(sw, ASW_REG_ROOT(3, 1));
    CHECKF(crt < CRT, "crt %u reached CRT", crt);
    if ((w0 & 1u) && !prev_root) {
      CHECKF(prev_crt == CRT - 1, "root declared after crt %u", prev_crt);
      declared_at = t->cycle;
    }
    if (crt && prev_crt) CHECK(crt == prev_crt + 1 || crt == 0);
    prev_crt = crt;
    prev_root = w0 & 1u;
  }
  CHECK(declared_at > 0);
  CHECK(acnt(sw, 3, ASW_ACNT_ROOTS) == 1);
  /* local entry: dest 3, port 3, VC 0, stage STAGE-1 = 0 (down port), id 0,
   * not consumed; refreshed (never expired) while the root lasts */
  uint32_t e0 = test_rd(sw, ASW_REG_ARN_ENTRY(0, 0));
  CHECK(e0 == (3u | 3u << 16 | 0u << 22 | 0u << 25 | 0u << 29 | 1u << 31));
  CHECK(test_rd(sw, ASW_REG_ARN_ENTRY(0, 1)) == 0);
  CHECK(acnt(sw, 3, ASW_ACNT_EXPIRED) == 0);
  /* packets matching it send ARNs upstream to the sources (end nodes) */
  CHECK(a->arn_rx > 0 && b->arn_rx > 0);
  CHECK(a->last_arn == asw_arn_msg(3, 0, 0, 0));
  /* messages still on the link are sent but not yet received */
  CHECK(acnt(sw, 0, ASW_ACNT_SENT) >= a->arn_rx && acnt(sw, 1, ASW_ACNT_SENT) >= b->arn_rx);
  /* stop: VOQs drain, root clears, the entry expires, the switch is idle */
  net_drain_and_check(t, 10000);
  /* every message sent was received by its end node */
  CHECK(acnt(sw, 0, ASW_ACNT_SENT) == a->arn_rx && acnt(sw, 1, ASW_ACNT_SENT) == b->arn_rx);
  CHECK((test_rd(sw, ASW_REG_ROOT(3, 0)) & 1u) == 0);
  CHECK(acnt(sw, 3, ASW_ACNT_EXPIRED) == 1);
  CHECK(test_rd(sw, ASW_REG_ARN_ENTRY(0, 0)) == 0);
  CHECK(sink->rx_pkts == a->seq + b->seq);
  /* mode 0 resets §15 state but not next_id: the next root gets id 1 */
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, 0) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0)) == ASW_OK);
  a->active = b->active = 1;
  for (int k = 0; k < 200; k++) net_step(t);
  CHECK(acnt(sw, 3, ASW_ACNT_ROOTS) == 2);
  CHECK((test_rd(sw, ASW_REG_ROOT(3, 0)) & 0x3FFu) == (1u | 1u << 1));
  CHECK(test_rd(sw, ASW_REG_ARN_ENTRY(0, 1)) == 1);
  net_drain_and_check(t, 10000);
  CHECK(sink->rx_pkts == a->seq + b->seq);
  net_free(t);
}

/* ---------------------------------------------------------------------- */
/* Directed cycle-level tests of the input port controller (§15.5) and the
 * message paths (§15.4, §15.6) on one switch. */
typedef struct {
  asw_switch *sw;
  asw_flit fin[8], fout[8];
  uint8_t cin[8], cout[8];
  uint32_t ain[8], aout[8];
  asw_inputs in;
  asw_outputs out;
} drv;
static void drv_reset_in(drv *d) {
  memset(&d->in, 0, sizeof d->in);
  d->in.flit = d->fin;
  d->in.credit_vc = d->cin;
  d->in.arn = d->ain;
}
static int drv_step(drv *d) {
  d->out = (asw_outputs){0, d->fout, 0, d->cout, 0, d->aout, 0, 0, 0, NULL};
  int rc = asw_switch_step(d->sw, &d->in, &d->out);
  drv_reset_in(d);
  return rc;
}
static void drv_head(drv *d, unsigned p, unsigned vc, unsigned dest, unsigned seq) {
  d->fin[p] = (asw_flit){1, 1, 1, (uint8_t)vc, asw_hdr_make(dest, p, vc, 1, 0, 0, seq), 0};
  d->in.flit_mask |= 1ull << p;
}
static void drv_arn(drv *d, unsigned o, uint32_t msg) {
  d->ain[o] = msg;
  d->in.arn_mask |= 1ull << o;
}

/* A driven switch of configuration c with no inputs; 0, or -1 if it cannot be made. */
static int drv_open(drv *d, const asw_config *c) {
  memset(d, 0, sizeof *d);
  d->sw = asw_switch_new(c, NULL, 0);
  if (!d->sw) return -1;
  drv_reset_in(d);
  return 0;
}

void test_arn_input_controller(void) {
  asw_config c = cfg(4, 2, 16, 4);
  drv d;
  if (drv_open(&d, &c)) { CHECK(0); return; }
  asw_switch *sw = d.sw;
  asw_reg_write(sw, ASW_REG_CSET(0, 0), 0x6); /* ports 1, 2 */
  asw_reg_write(sw, ASW_REG_FWD(5), asw_fwd_entry(2, 0, 0, 1));
  asw_reg_write(sw, ASW_REG_FWD(6), asw_fwd_entry(3, 0, 0, 0));
  asw_reg_write(sw, ASW_REG_VC_CTRL, 2); /* afi */
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(2, 0)) == ASW_OK);
  /* cycle 0: a consumable ARN (stage 1 = STAGE) for dest 5, VC 0 arrives on
   * output 2; processed in cycle 1; RC sees it from cycle 2 */
  drv_arn(&d, 2, asw_arn_msg(5, 0, 1, 7));
  drv_step(&d);                /* cycle 0 */
  drv_head(&d, 0, 0, 5, 1);    /* cycle 1: IW, RC in cycle 2 -> adapted */
  drv_step(&d);
  CHECK(test_rd(sw, ASW_REG_ARN_ENTRY(0, 0)) == (5u | 2u << 16 | 0u << 22 | 1u << 25 | 1u << 29 | 1u << 31));
  CHECK(test_rd(sw, ASW_REG_ARN_ENTRY(0, 1)) == (7u | 1u << 16));
  CHECK(acnt(sw, 2, ASW_ACNT_RECEIVED) == 1 && acnt(sw, 2, ASW_ACNT_CONSUMED) == 1);
  /* a head written in cycle 0 would have been routed in cycle 1 without it:
   * check with a second switch below; here: the adapted packet */
  int seen = 0;
  for (int k = 2; k <= 1 + (int)ASW_ZERO_LOAD_LATENCY; k++) {
    drv_step(&d);
    if (d.out.flit_mask) {
      /* IW in cycle 1 -> out in 1 + ASW_ZERO_LOAD_LATENCY */
      CHECKF(k == 1 + (int)ASW_ZERO_LOAD_LATENCY, "adapted packet left in cycle %d", k);
      CHECK(d.out.flit_mask == 1u << 1);
      CHECK(ASW_HDR_ADAPTED(d.fout[1].hdr) && ASW_HDR_ORIG_VC(d.fout[1].hdr) == 0);
      CHECK(d.fout[1].vc == 1);
      seen++;
    }
  }
  CHECK(seen == 1);
  CHECK(acnt(sw, 0, ASW_ACNT_ADAPTED) == 1);
  /* VC is part of the key: dest 5 on VC 1 is routed deterministically */
  drv_head(&d, 0, 1, 5, 2);
  for (int k = 0; k < (int)ASW_ZERO_LOAD_LATENCY; k++) {
    drv_step(&d);
    if (d.out.flit_mask) {
      CHECK(d.out.flit_mask == 1u << 2 && !ASW_HDR_ADAPTED(d.fout[2].hdr));
    }
  }
  /* non-consumed entry (stage 0): packet routed by §7, message upstream on
   * its input two cycles after RC */
  drv_arn(&d, 3, asw_arn_msg(6, 1, 0, 9));
  drv_step(&d); /* c0: received */
  drv_step(&d); /* c1: processed */
  drv_head(&d, 1, 1, 6, 3);
  drv_step(&d); /* c2: IW */
  CHECK(d.out.arn_mask == 0);
  drv_step(&d); /* c3: RC -> pushed */
  CHECK(d.out.arn_mask == 0);
  drv_step(&d); /* c4: FIFO -> output register */
  CHECK(d.out.arn_mask == 0);
  drv_step(&d); /* c5: on arn_out of input 1 */
  CHECK(d.out.arn_mask == 1u << 1 && d.aout[1] == asw_arn_msg(6, 1, 0, 9));
  drv_step(&d);
  CHECK(d.out.arn_mask == 0);
  CHECK(acnt(sw, 1, ASW_ACNT_SENT) == 1 && acnt(sw, 1, ASW_ACNT_ADAPTED) == 0);
  /* three heads back to back (IW c, c+1, c+2; RC c+1..c+3): the second
   * finds the first's message still queued (identical: not queued again),
   * the third is queued after it left: messages on arn_out in c+3, c+5 */
  unsigned when[3], nmsg = 0;
  for (unsigned k = 0; k < 10; k++) {
    if (k < 3) drv_head(&d, 1, 1, 6, 10 + k);
    drv_step(&d);
    if (d.out.arn_mask) {
      CHECK(d.out.arn_mask == 1u << 1 && d.aout[1] == asw_arn_msg(6, 1, 0, 9));
      if (nmsg < 3) when[nmsg] = k;
      nmsg++;
    }
  }
  CHECK(nmsg == 2 && when[0] == 3 && when[1] == 5);
  CHECK(acnt(sw, 1, ASW_ACNT_SENT) == 3 && acnt(sw, 1, ASW_ACNT_OUT_DROPPED) == 0);
  /* message received in cycle c is processed in c+1 and seen by RC in c+2:
   * a head written in c (RC in c+1) is not adapted */
  drv_arn(&d, 1, asw_arn_msg(5, 1, 1, 20));
  drv_head(&d, 2, 1, 5, 4);
  drv_step(&d);
  for (int k = 0; k < 5; k++) {
    drv_step(&d);
    if (d.out.flit_mask) CHECK(d.out.flit_mask == 1u << 2 && !ASW_HDR_ADAPTED(d.fout[2].hdr));
  }
  /* event FIFOs full: messages on all outputs every cycle; one processed
   * per cycle, round-robin; drops counted; every message processed or
   * dropped (distinct keys, stage 3 != STAGE: each creates an entry) */
  asw_reg_write(sw, ASW_REG_ARN_CTRL, 0); /* clears §15 state */
  CHECK(test_rd(sw, ASW_REG_ARN_ENTRY(0, 0)) == 0);
  asw_reg_write(sw, ASW_REG_CNT_CLEAR, 0);
  asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0));
  unsigned sent = 0;
  for (unsigned k = 0; k < 12; k++) {
    for (unsigned o = 0; o < 4; o++) drv_arn(&d, o, asw_arn_msg(100 + k, o & 1, 3, o));
    sent += 4;
    drv_step(&d);
  }
  for (int k = 0; k < 40; k++) drv_step(&d);
  unsigned rx = 0, drop = 0, evicted = 0, valid = 0;
  for (unsigned p = 0; p < 4; p++) {
    rx += acnt(sw, p, ASW_ACNT_RECEIVED);
    drop += acnt(sw, p, ASW_ACNT_IN_DROPPED);
    evicted += acnt(sw, p, ASW_ACNT_EVICTED);
  }
  for (unsigned e = 0; e < c.arn_entries; e++) valid += test_rd(sw, ASW_REG_ARN_ENTRY(e, 0)) >> 31;
  CHECK(rx == sent);
  CHECK(drop > 0);
  CHECK(rx - drop == valid + evicted);
  CHECK(valid == c.arn_entries);
  asw_switch_free(sw);

  /* processing order of simultaneous arrivals: outputs 0..3 in order */
  sw = d.sw = asw_switch_new(&c, NULL, 0);
  drv_reset_in(&d);
  asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0));
  for (unsigned o = 0; o < 4; o++) drv_arn(&d, o, asw_arn_msg(40 + o, 0, 3, 1));
  drv_step(&d);
  for (unsigned k = 0; k < 4; k++) {
    drv_step(&d);
    CHECK(test_rd(sw, ASW_REG_ARN_ENTRY(k, 0)) == ((40u + k) | k << 16 | 3u << 25 | 1u << 31));
  }
  asw_switch_free(sw);
}

/* ---------------------------------------------------------------------- */
/* ARN_CTRL[4:3] at switch level: legal, read back, bits above 4 refused; an
 * adapted packet on the AFC sends its ARN with orig_vc only with adapted_arn. */
void test_arn_options_switch(void) {
  asw_config c = cfg(4, 2, 16, 4);
  for (unsigned opt = 0; opt < 2; opt++) {
    drv d;
    if (drv_open(&d, &c)) { CHECK(0); return; }
    asw_switch *sw = d.sw;
    CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, 1u << 5) == ASW_EINVAL);
    uint32_t ctrl = asw_arn_ctrl(2, 0) |
                    (opt ? ASW_ARN_CTRL_ADAPTED_ARN | ASW_ARN_CTRL_ALT_REFRESH : 0);
    asw_reg_write(sw, ASW_REG_FWD(6), asw_fwd_entry(3, 0, 0, 0));
    asw_reg_write(sw, ASW_REG_VC_CTRL, 2); /* afi */
    CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, ctrl) == ASW_OK);
    CHECK(test_rd(sw, ASW_REG_ARN_CTRL) == ctrl);
    /* a non-consumed entry (stage 0) for dest 6, VC 0 from output 3 */
    drv_arn(&d, 3, asw_arn_msg(6, 0, 0, 9));
    drv_step(&d); /* received */
    drv_step(&d); /* processed */
    /* an adapted head (orig_vc 0) for dest 6 on input 1's AFC (VC 1) */
    d.fin[1] = (asw_flit){1, 1, 1, 1, asw_hdr_make(6, 1, 0, 1, 1, 0, 5), 0};
    d.in.flit_mask |= 1ull << 1;
    unsigned seen = 0;
    for (unsigned k = 0; k < 10; k++) {
      drv_step(&d);
      if (d.out.arn_mask) {
        CHECK(d.out.arn_mask == 1u << 1 && d.aout[1] == asw_arn_msg(6, 0, 0, 9));
        seen++;
      }
    }
    CHECKF(seen == opt, "adapted_arn %u: %u messages", opt, seen);
    CHECK(acnt(sw, 1, ASW_ACNT_SENT) == opt && acnt(sw, 1, ASW_ACNT_ADAPTED) == 0);
    asw_switch_free(sw);
  }
}

/* Adaptive-Th + AFI: mark_adapted marks packets that adaptive/oblivious
 * routing sends off their deterministic port. */
void test_arn_mark_adapted(void) {
  asw_config c = cfg(4, 2, 16, 4);
  drv d;
  memset(&d, 0, sizeof d);
  d.sw = asw_switch_new(&c, NULL, 0);
  if (!d.sw) { CHECK(0); return; }
  drv_reset_in(&d);
  asw_switch *sw = d.sw;
  asw_reg_write(sw, ASW_REG_CSET(0, 0), 0x6);
  asw_reg_write(sw, ASW_REG_FWD(5), asw_fwd_entry(2, 0, 0, 1));
  asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(1, 0, 0xFF, 1)); /* oblivious */
  asw_reg_write(sw, ASW_REG_VC_CTRL, 2);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(0, 1)) == ASW_OK);
  unsigned off = 0, on = 0;
  for (unsigned k = 0; k < 200; k++) {
    if (k < 100) drv_head(&d, k % 4, 0, 5, k);
    drv_step(&d);
    for (unsigned o = 1; o <= 2; o++)
      if (d.out.flit_mask >> o & 1u) {
        int adapted = ASW_HDR_ADAPTED(d.fout[o].hdr) != 0;
        CHECK(adapted == (o == 1));
        CHECK(d.fout[o].vc == (adapted ? 1 : 0));
        if (adapted) CHECK(ASW_HDR_ORIG_VC(d.fout[o].hdr) == 0);
        if (o == 1) off++; else on++;
      }
    /* return credits so nothing stalls */
    for (unsigned o = 0; o < 4; o++)
      if (d.out.flit_mask >> o & 1u) {
        d.cin[o] = d.fout[o].vc;
        d.in.credit_mask |= 1ull << o;
      }
  }
  CHECK(off + on == 100 && off > 20 && on > 20);
  asw_switch_free(sw);
}

/* ---------------------------------------------------------------------- */
/* Mode 0 (or AE = 0, or a detector that can never fire) changes nothing:
 * three switches under the same random traffic give the same outputs. */
void test_arn_off_is_plain_switch(void) {
  asw_config c0 = cfg(6, 2, 24, 6), c1 = c0;
  c0.arn_entries = 0;
  asw_switch *sw[3] = {asw_switch_new(&c0, NULL, 0), asw_switch_new(&c1, NULL, 0),
                       asw_switch_new(&c1, NULL, 0)};
  if (!sw[0] || !sw[1] || !sw[2]) { CHECK(0); return; }
  for (int s = 0; s < 3; s++) {
    asw_reg_write(sw[s], ASW_REG_CSET(0, 0), 0x3C);
    for (unsigned dd = 0; dd < 12; dd++)
      asw_reg_write(sw[s], ASW_REG_FWD(dd), asw_fwd_entry(dd % 6, 0, 0, dd >= 6));
    asw_reg_write(sw[s], ASW_REG_ROUTE_CTRL, asw_route_ctrl(2, 1, 0xFF, 1));
  }
  asw_reg_write(sw[2], ASW_REG_ARN_CTRL, asw_arn_ctrl(2, 0));
  asw_reg_write(sw[2], ASW_REG_FCTH, 24); /* credits never > BUF: no root */
  asw_reg_write(sw[2], ASW_REG_CD_THRESH, 2u | 1u << 16);
  asw_reg_write(sw[2], ASW_REG_CRT, 1);
  unsigned cred[6][2], pos[6] = {0}, len[6] = {0}, vcs[6] = {0}, seq = 0;
  for (int p = 0; p < 6; p++) cred[p][0] = cred[p][1] = 24;
  uint32_t rng = 12345;
  asw_flit fin[6], fout[3][6];
  uint8_t cin[6], cout[3][6];
  uint32_t aout[3][6];
  uint8_t pend_cr[6];
  uint64_t pend_mask = 0;
  long diffs = 0;
  unsigned max_hot = 0;
  for (int cyc = 0; cyc < 4000; cyc++) {
    asw_inputs in = {0, fin, pend_mask, cin, 0, NULL, 0, 0, 0, 0, 0, NULL};
    memcpy(cin, pend_cr, sizeof cin);
    for (unsigned p = 0; p < 6; p++) {
      rng = rng * 1103515245u + 12345u;
      if (pos[p] == 0) {
        unsigned v = rng >> 30 & 1u, l = 1 + (rng >> 20) % 6;
        if ((rng >> 8) % 100 >= 70 || cred[p][v] < l) continue;
        cred[p][v] -= l;
        vcs[p] = v;
        len[p] = l;
      }
      fin[p] = (asw_flit){1, pos[p] == 0, pos[p] + 1 == len[p], (uint8_t)vcs[p], 0, rng};
      if (pos[p] == 0) fin[p].hdr = asw_hdr_make((rng >> 4) % 12, p, vcs[p], len[p], 0, 0, seq++);
      in.flit_mask |= 1ull << p;
      if (++pos[p] == len[p]) pos[p] = 0;
    }
    asw_outputs out[3];
    for (int s = 0; s < 3; s++) {
      out[s] = (asw_outputs){0, fout[s], 0, cout[s], 0, aout[s], 0, 0, 0, NULL};
      CHECK(asw_switch_step(sw[s], &in, &out[s]) == ASW_OK);
    }
    for (unsigned o = 0; o < 6; o++) {
      unsigned h = test_rd(sw[2], ASW_REG_ROOT(o, 0)) >> 10;
      if (h > max_hot) max_hot = h;
    }
    for (int s = 1; s < 3; s++) {
      if (out[s].flit_mask != out[0].flit_mask || out[s].credit_mask != out[0].credit_mask ||
          out[s].arn_mask != 0)
        diffs++;
      for (uint64_t m = out[0].flit_mask & out[s].flit_mask; m; m &= m - 1) {
        unsigned o = (unsigned)__builtin_ctzll(m);
        if (memcmp(&fout[0][o], &fout[s][o], sizeof(asw_flit))) diffs++;
      }
    }
    pend_mask = 0;
    for (uint64_t m = out[0].flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      pend_cr[o] = fout[0][o].vc;
      pend_mask |= 1ull << o;
    }
    for (uint64_t m = out[0].credit_mask; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      cred[i][cout[0][i]]++;
    }
  }
  CHECK(diffs == 0);
  /* the third switch's detector did run (VOQs became hot), no root */
  unsigned roots = 0;
  for (unsigned o = 0; o < 6; o++) roots += test_rd(sw[2], ASW_REG_ARN_COUNTER(o, ASW_ACNT_ROOTS));
  CHECK(roots == 0 && max_hot > 0);
  for (int s = 0; s < 3; s++) asw_switch_free(sw[s]);
}

/* ---------------------------------------------------------------------- */
/* asw_switch_idle accounts for ARN state; idle_in / skip_idle are exact. */
void test_arn_idle_accounting(void) {
  asw_config c = cfg(4, 2, 16, 4);
  asw_switch *a = asw_switch_new(&c, NULL, 0), *b = asw_switch_new(&c, NULL, 0);
  if (!a || !b) { CHECK(0); return; }
  asw_switch *s2[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    asw_reg_write(s2[k], ASW_REG_ARN_CTRL, asw_arn_ctrl(1, 0));
    asw_reg_write(s2[k], ASW_REG_ARN_TTL, 50);
  }
  CHECK(asw_switch_idle(a) && asw_switch_idle_in(a) == 0);
  uint32_t msg[4] = {0, 0, asw_arn_msg(9, 0, 4, 3), 0};
  for (int k = 0; k < 2; k++) {
    asw_inputs in = {0, NULL, 0, NULL, 1u << 2, msg, 0, 0, 0, 0, 0, NULL};
    CHECK(asw_switch_step(s2[k], &in, NULL) == ASW_OK);
  }
  CHECK(!asw_switch_idle(a) && asw_switch_idle_in(a) == UINT64_MAX); /* queued event */
  CHECK(asw_switch_skip_idle(a, 5) == ASW_EINVAL);
  for (int k = 0; k < 2; k++) asw_switch_step(s2[k], NULL, NULL); /* processed */
  uint64_t left = asw_switch_idle_in(a);
  CHECK(!asw_switch_idle(a) && left == 50);
  for (uint64_t k = 0; k + 1 < left; k++) asw_switch_step(a, NULL, NULL);
  CHECK(!asw_switch_idle(a) && asw_switch_idle_in(a) == 1 &&
        test_rd(a, ASW_REG_ARN_ENTRY(0, 2)) == 1);
  asw_switch_step(a, NULL, NULL);
  CHECK(asw_switch_idle(a) && acnt(a, 2, ASW_ACNT_EXPIRED) == 1);
  /* skip_idle(n) is n idle steps */
  CHECK(asw_switch_skip_idle(b, left - 1) == ASW_OK);
  CHECK(!asw_switch_idle(b) && test_rd(b, ASW_REG_ARN_ENTRY(0, 2)) == 1);
  CHECK(asw_switch_skip_idle(b, 1) == ASW_OK);
  CHECK(asw_switch_idle(b) && acnt(b, 2, ASW_ACNT_EXPIRED) == 1);
  /* more than needed is still exact: an idle switch stays idle */
  CHECK(asw_switch_skip_idle(b, 1000) == ASW_OK && asw_switch_idle(b) &&
        acnt(b, 2, ASW_ACNT_EXPIRED) == 1);
  asw_switch_free(a);
  asw_switch_free(b);
}

/* ---------------------------------------------------------------------- */
/* Three switches (ARN+AFI, then ARN): A (stage 1) has sources on ports 0, 1 and two up ports,
 * 2 -> B and 3 -> C. B and C (stage 2) both reach sink X (an end node with
 * two links, one per switch; enough for the test). E injects into B for X
 * as well, so B's port towards X is oversubscribed while X drains at full
 * rate: a downward root (stage 2 - 1 = 1). B's entry is not consumed; the
 * packets from A matching it make B send ARNs to A, which (stage 1)
 * consumes them and adapts its packets for X to port 3 (C) in the AFC. */
static void three_switches(unsigned mode) {
  const unsigned V = 2, BUF = 32;
  net *t = net_new(V, BUF);
  asw_config ca = cfg(4, V, BUF, 4), cb = cfg(3, V, BUF, 4);
  asw_switch *A = net_switch(t, &ca), *B = net_switch(t, &cb), *C = net_switch(t, &cb);
  if (!A || !B || !C) { CHECK(0); net_free(t); return; }
  const unsigned X = 7;
  net_link(t, 0, 2, 1, 0); /* A.2 -> B.0 */
  net_link(t, 0, 3, 2, 0); /* A.3 -> C.0 */
  node *s0 = net_node(t, 0, 0), *s1 = net_node(t, 0, 1);
  node *x = net_node(t, 1, 1);      /* X on B.1 */
  node *e = net_node(t, 1, 2);      /* E on B.2 */
  node *x2 = net_node(t, 2, 1);     /* X's second link, on C.1 */
  net_node(t, 2, 2);
  /* A: X via up ports {2, 3}, det 2; B, C: X down on port 1 */
  asw_reg_write(A, ASW_REG_CSET(0, 0), 0xC);
  asw_reg_write(A, ASW_REG_FWD(X), asw_fwd_entry(2, 0, 0, 1));
  asw_reg_write(A, ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, 1));
  asw_reg_write(A, ASW_REG_ARN_UP(0), 0xC);
  for (int s = 1; s < 3; s++) {
    asw_reg_write(t->sw[s], ASW_REG_FWD(X), asw_fwd_entry(1, 0, 0, 0));
    asw_reg_write(t->sw[s], ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, 2));
  }
  for (int s = 0; s < 3; s++) {
    asw_switch *sw = t->sw[s];
    CHECK(asw_reg_write(sw, ASW_REG_VC_CTRL, mode == 2 ? 2 : 0) == ASW_OK);
    CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(mode, 0)) == ASW_OK);
    asw_reg_write(sw, ASW_REG_CD_THRESH, 16u | 8u << 16);
    asw_reg_write(sw, ASW_REG_FCTH, 16);
    asw_reg_write(sw, ASW_REG_CRT, 30);
    asw_reg_write(sw, ASW_REG_ARN_TTL, 400);
  }
  s0->dest = s1->dest = e->dest = X;
  s0->len = s1->len = e->len = 4;
  s0->active = e->active = 1;
  s1->active = 0;
  for (int k = 0; k < 3000; k++) net_step(t);
  CHECK(acnt(B, 1, ASW_ACNT_ROOTS) >= 1);
  CHECK(acnt(B, 0, ASW_ACNT_SENT) > 0);
  CHECK(acnt(A, 2, ASW_ACNT_RECEIVED) == acnt(B, 0, ASW_ACNT_SENT) ||
        acnt(A, 2, ASW_ACNT_RECEIVED) + 1 == acnt(B, 0, ASW_ACNT_SENT));
  CHECK(acnt(A, 2, ASW_ACNT_CONSUMED) >= 1);
  CHECK(acnt(A, 0, ASW_ACNT_ADAPTED) > 0);
  /* diverted packets went A -> C -> X; with AFI marked adapted, in the AFC */
  if (mode == 2)
    CHECK(x2->rx_pkts > 0 && x2->rx_adapted == x2->rx_pkts && x2->rx_afc == x2->rx_pkts);
  else
    CHECK(x2->rx_pkts > 0 && x2->rx_adapted == 0 && x2->rx_afc == 0);
  CHECK(x->rx_adapted == 0);
  /* C kept them deterministic and did not adapt anything itself */
  CHECK(acnt(C, 0, ASW_ACNT_ADAPTED) == 0);
  /* the diversion relieves the root: A's source gets more through than it
   * would sharing B's port with E (half of the link) */
  unsigned from_s0 = 0;
  for (unsigned q = 0; q < s0->seq && q < MAXSEQ; q++) from_s0 += t->seen[0][q];
  CHECK(from_s0 * 4 > (unsigned)(t->cycle * 0.55));
  net_drain_and_check(t, 20000);
  CHECK(x->rx_pkts + x2->rx_pkts == s0->seq + e->seq);
  net_free(t);
}

void test_arn_three_switches(void) {
  three_switches(2); /* ARN+AFI */
  three_switches(1); /* ARN */
}

/* ---------------------------------------------------------------------- */
/* The detector's incremental hot flags equal a shadow model that
 * re-evaluates every VOQ every cycle from the OCC registers (the same
 * thing, since an unchanged occupancy re-evaluates to the same flag), and
 * roots only exist on outputs that were hot. Random traffic, ARN on. */
void test_arn_hot_flags_vs_shadow(void) {
  enum { P = 6, V = 2, BUF = 24 };
  asw_config c = cfg(P, V, BUF, 6);
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  if (!sw) { CHECK(0); return; }
  asw_reg_write(sw, ASW_REG_CSET(0, 0), 0x3C);
  for (unsigned dd = 0; dd < 12; dd++)
    asw_reg_write(sw, ASW_REG_FWD(dd), asw_fwd_entry(dd % P, 0, 0, dd >= 6));
  asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(1, 0, 0xFF, 1));
  asw_reg_write(sw, ASW_REG_ARN_UP(0), 0x3C);
  asw_reg_write(sw, ASW_REG_VC_CTRL, 2);
  const unsigned H = 8, L = 3;
  CHECK(asw_reg_write(sw, ASW_REG_CD_THRESH, H | L << 16) == ASW_OK);
  asw_reg_write(sw, ASW_REG_FCTH, 4);
  asw_reg_write(sw, ASW_REG_CRT, 6);
  asw_reg_write(sw, ASW_REG_ARN_TTL, 30);
  CHECK(asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(2, 0)) == ASW_OK);
  unsigned char shadow[P][V][P];
  memset(shadow, 0, sizeof shadow);
  unsigned cred[P][V], pos[P] = {0}, len[P] = {0}, vcs[P] = {0}, seq = 0;
  for (int p = 0; p < P; p++)
    for (int v = 0; v < V; v++) cred[p][v] = BUF;
  uint32_t rng = 777;
  asw_flit fin[P], fout[P];
  uint8_t cin[P], cout[P], pend_cr[P];
  uint32_t aout[P];
  uint64_t pend_mask = 0, hot_prev = 0;
  long mismatches = 0, root_not_hot = 0, roots_seen = 0;
  int cycles = test_quick ? 3000 : 20000;
  for (int cyc = 0; cyc < cycles; cyc++) {
    asw_inputs in = {0, fin, pend_mask, cin, 0, NULL, 0, 0, 0, 0, 0, NULL};
    memcpy(cin, pend_cr, sizeof cin);
    /* bursts towards a rotating hot destination */
    unsigned hot_dest = (unsigned)(cyc / 500 * 7) % 12;
    for (unsigned p = 0; p < P; p++) {
      rng = rng * 1103515245u + 12345u;
      if (pos[p] == 0) {
        unsigned v = rng >> 30 & 1u, l = 1 + (rng >> 20) % 6;
        if ((rng >> 8) % 100 >= 85 || cred[p][v] < l) continue;
        cred[p][v] -= l;
        vcs[p] = v;
        len[p] = l;
      }
      fin[p] = (asw_flit){1, pos[p] == 0, pos[p] + 1 == len[p], (uint8_t)vcs[p], 0, rng};
      if (pos[p] == 0) {
        unsigned dest = (rng >> 4) % 3 ? hot_dest : (rng >> 12) % 12;
        fin[p].hdr = asw_hdr_make(dest, p, vcs[p], len[p], 0, 0, seq++);
      }
      in.flit_mask |= 1ull << p;
      if (++pos[p] == len[p]) pos[p] = 0;
    }
    asw_outputs out = {0, fout, 0, cout, 0, aout, 0, 0, 0, NULL};
    CHECK(asw_switch_step(sw, &in, &out) == ASW_OK);
    /* shadow: every VOQ re-evaluated from its occupancy now */
    uint64_t hot_now = 0;
    for (unsigned o = 0; o < P; o++) {
      unsigned cnt = 0;
      for (unsigned i = 0; i < P; i++)
        for (unsigned v = 0; v < V; v++) {
          unsigned occ = test_rd(sw, ASW_REG_OCC(i, v, o));
          shadow[i][v][o] = occ >= H || (shadow[i][v][o] && occ >= L);
          cnt += shadow[i][v][o];
        }
      uint32_t w0 = test_rd(sw, ASW_REG_ROOT(o, 0));
      if ((w0 >> 10) != cnt) mismatches++;
      if (cnt) hot_now |= 1ull << o;
      if (w0 & 1u) {
        roots_seen++;
        if (!(hot_prev >> o & 1u)) root_not_hot++; /* cleared one cycle after */
      }
    }
    hot_prev = hot_now;
    /* downstream returns every credit the next cycle */
    pend_mask = 0;
    for (uint64_t m = out.flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      pend_cr[o] = fout[o].vc;
      pend_mask |= 1ull << o;
    }
    for (uint64_t m = out.credit_mask; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      cred[i][cout[i]]++;
    }
  }
  CHECK(mismatches == 0);
  CHECK(root_not_hot == 0);
  CHECK(roots_seen > 0);
  unsigned consumed = 0, adapted = 0;
  for (unsigned p = 0; p < P; p++) {
    consumed += acnt(sw, p, ASW_ACNT_CONSUMED);
    adapted += acnt(sw, p, ASW_ACNT_ADAPTED);
  }
  CHECK(consumed > 0 && adapted > 0);
  asw_switch_free(sw);
}
