/* test_bubble.c — bubble flow control (contract §16.1, §16.2): registers and
 * their legality, a directed test of the rule (entering needs 2*len credits,
 * continuing len, the exact cycle a blocked head is admitted, the VC and
 * input conditions of "continue"), and a random test that checks, for every
 * packet that leaves, the credits its output VC had at the start of its SA
 * cycle against the rule, plus conservation and the counters. */
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "test.h"
#include "test_drv.h"

static asw_config cfg(unsigned P, unsigned V, unsigned BUF, unsigned LMAX, unsigned voq) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = P;
  c.vcs = V;
  c.buf_flits = BUF;
  c.max_packet = LMAX;
  c.voq = voq;
  c.payload_bits = 16;
  c.arn_entries = 0;
  return c;
}

void test_bubble_registers(void) {
  asw_config c = cfg(6, 3, 16, 8, 1);
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  CHECK(sw != NULL);
  if (!sw) return;
  for (unsigned o = 0; o < 6; o++) {
    CHECK(test_rd(sw, ASW_REG_BUBBLE(o)) == 0);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(o, ASW_BCNT_RING_ENTER)) == 0);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(o, ASW_BCNT_BUBBLE_STALL)) == 0);
  }
  CHECK(asw_reg_write(sw, ASW_REG_BUBBLE(5), asw_bubble_entry(4, 1, 0x5)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_BUBBLE(5)) == (4u | 1u << 6 | 5u << 8));
  CHECK(asw_reg_write(sw, ASW_REG_BUBBLE(0), asw_bubble_entry(5, 0, 0x7)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_BUBBLE(0)) == (5u | 7u << 8));
  /* illegal: ring_in >= P, a VC bit >= V, reserved bits 7 and 16..31; each
   * counts in REG_ERRORS and leaves the register unchanged */
  const uint32_t bad[] = {asw_bubble_entry(6, 1, 1), asw_bubble_entry(0, 1, 0x8),
                          asw_bubble_entry(0, 1, 0x80), 1u << 7, 1u << 16, 1u << 31};
  for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    CHECK(asw_reg_write(sw, ASW_REG_BUBBLE(5), bad[k]) == ASW_EINVAL);
    CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == k + 1);
  }
  CHECK(test_rd(sw, ASW_REG_BUBBLE(5)) == (4u | 1u << 6 | 5u << 8));
  /* BUBBLE[o] for o >= P and counters: unmapped / read-only */
  CHECK(asw_reg_write(sw, ASW_REG_BUBBLE(6), 0) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_BUBBLE_COUNTER(0, 0), 0) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 8);
  uint32_t d = 1;
  CHECK(asw_reg_read(sw, ASW_REG_BUBBLE(6), &d) == ASW_OK && d == 0);
  asw_switch_reset(sw);
  CHECK(test_rd(sw, ASW_REG_BUBBLE(5)) == 0 && test_rd(sw, ASW_REG_BUBBLE(0)) == 0);
  asw_switch_free(sw);
}

/* ---- cycle driver ---- */
typedef struct {
  asw_switch *sw;
  asw_flit in_flit[64], out_flit[64];
  uint8_t in_cr[64], out_cr[64];
  asw_inputs in;
  asw_outputs out;
} drv;

static void drv_clear(drv *d) {
  memset(&d->in, 0, sizeof d->in);
  d->in.flit = d->in_flit;
  d->in.credit_vc = d->in_cr;
}
static void drv_init(drv *d, asw_switch *sw) {
  memset(d, 0, sizeof *d);
  d->sw = sw;
  drv_clear(d);
  d->out.flit = d->out_flit;
  d->out.credit_vc = d->out_cr;
}
static void drv_flit(drv *d, unsigned p, int head, int tail, unsigned vc, uint64_t hdr) {
  asw_flit f = {1, (uint8_t)head, (uint8_t)tail, (uint8_t)vc, hdr, 0};
  d->in_flit[p] = f;
  d->in.flit_mask |= 1ull << p;
}
static int drv_step(drv *d) {
  int rc = asw_switch_step(d->sw, &d->in, &d->out);
  drv_clear(d);
  return rc;
}

/* Output 2 under the rule on VC 0 with ring input 1. Credits of (2, 0) are
 * brought to 8 by a continuing 8-flit packet (credits withheld). Then a
 * 5-flit head from input 0 (entering: needs 10) waits while a 5-flit head
 * from input 1 VC 0 (continuing: needs 5) passes; a 3-flit head from input 1
 * on VC 1 (VC change: entering, needs 6) waits for the credits to reach 6;
 * returning credits one by one admits each head in the first cycle whose
 * start shows enough credits. VC 1 of output 2 is not under the rule. */
void test_bubble_rule_directed(void) {
  for (unsigned voq = 0; voq <= 1; voq++) {
    asw_config c = cfg(4, 2, 16, 8, voq);
    asw_switch *sw = asw_switch_new(&c, NULL, 0);
    CHECK(sw != NULL);
    if (!sw) return;
    drv d;
    drv_init(&d, sw);
    for (unsigned k = 0; k < 4; k++) asw_reg_write(sw, ASW_REG_FWD(k), asw_fwd_entry(k, 0, 0, 0));
    for (unsigned s = 0; s < 16; s++) asw_reg_write(sw, ASW_REG_SL2VC(2, s), 0); /* all to VC 0 */
    CHECK(asw_reg_write(sw, ASW_REG_BUBBLE(2), asw_bubble_entry(1, 1, 0x1)) == ASW_OK);
    /* 8-flit continuing packet, input 1 VC 0 */
    for (unsigned k = 0; k < 8; k++) {
      drv_flit(&d, 1, k == 0, k == 7, 0, k == 0 ? asw_hdr_make(2, 1, 0, 8, 0, 0, 1) : 0);
      CHECK(drv_step(&d) == ASW_OK);
    }
    for (unsigned k = 0; k < 10; k++) CHECK(drv_step(&d) == ASW_OK);
    CHECK(test_rd(sw, ASW_REG_CRED(2, 0)) == 8);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_RING_ENTER)) == 0);
    /* entering 5-flit head (input 0), then continuing (input 1 VC 0) and VC
     * change (input 1 VC 1, 3 flits) */
    unsigned seen_seq3 = 0, other = 0;
    for (unsigned k = 0; k < 8; k++) {
      if (k < 5) drv_flit(&d, 0, k == 0, k == 4, 0, k == 0 ? asw_hdr_make(2, 0, 0, 5, 0, 0, 2) : 0);
      if (k < 5) drv_flit(&d, 1, k == 0, k == 4, 0, k == 0 ? asw_hdr_make(2, 1, 0, 5, 0, 0, 3) : 0);
      else drv_flit(&d, 1, k == 5, k == 7, 1, k == 5 ? asw_hdr_make(2, 1, 0, 3, 0, 0, 4) : 0);
      CHECK(drv_step(&d) == ASW_OK);
      if ((d.out.flit_mask >> 2 & 1u) && d.out_flit[2].head)
        seen_seq3 |= ASW_HDR_SEQ(d.out_flit[2].hdr) == 3;
    }
    /* wait: heads queued (RQ at +2), only the continuing packet leaves */
    for (unsigned k = 0; k < 20; k++) {
      CHECK(drv_step(&d) == ASW_OK);
      if (d.out.flit_mask >> 2 & 1u) {
        if (d.out_flit[2].head) {
          if (ASW_HDR_SEQ(d.out_flit[2].hdr) == 3) seen_seq3 = 1;
          else other++;
        }
      }
    }
    CHECK(seen_seq3 && other == 0);
    CHECK(test_rd(sw, ASW_REG_CRED(2, 0)) == 3);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_RING_ENTER)) == 0);
    uint32_t bst = test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_BUBBLE_STALL));
    uint32_t cst = test_rd(sw, ASW_REG_COUNTER(2, ASW_CNT_CREDIT_STALL));
    /* credits 3: the VC-change head (len 3, needs 6) is held by the rule
     * alone, so both stall counters count every cycle */
    CHECK(cst >= bst && bst > 0);
    for (unsigned k = 0; k < 4; k++) CHECK(drv_step(&d) == ASW_OK);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_BUBBLE_STALL)) == bst + 4);
    CHECK(test_rd(sw, ASW_REG_COUNTER(2, ASW_CNT_CREDIT_STALL)) == cst + 4);
    /* return credits one per cycle; credits reach c at the start of the cycle
     * after the c-th return; the seq-4 head (need 6) is matched in the first
     * cycle starting with 6, leaves 2 cycles later (ST, link) */
    unsigned cr = 3;
    long matched4 = -1, matched2 = -1, cyc = 0;
    long out4 = -1, out2 = -1;
    unsigned bst_during = 0;
    for (; cyc < 60; cyc++) {
      if (cr < 16 && cyc < 30) {
        d.in_cr[2] = 0;
        d.in.credit_mask |= 1u << 2;
      }
      uint32_t b0 = test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_BUBBLE_STALL));
      CHECK(drv_step(&d) == ASW_OK);
      if (test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_BUBBLE_STALL)) != b0) bst_during++;
      if (cr < 16 && cyc < 30) cr++;
      if ((d.out.flit_mask >> 2 & 1u) && d.out_flit[2].head) {
        unsigned s = ASW_HDR_SEQ(d.out_flit[2].hdr);
        if (s == 4) out4 = cyc;
        if (s == 2) out2 = cyc;
      }
    }
    /* head 4: SA checks the credits of the previous cycle's start (§8): 6 at
     * the start of cycle 3 (returns in cycles 0,1,2), so matched in cycle 4,
     * on the link in cycle 6 */
    matched4 = out4 - 2;
    CHECKF(matched4 == 4, "voq %u: VC-change head matched in cycle %ld, want 4", voq, matched4);
    /* head 2: credits = 3 + returns - 3 (head 4's reservation); need 10:
     * 3 + c - 3 >= 10 at the start of cycle c = 10, seen by SA in cycle 11;
     * output 2 streams head 4 until its tail (cycles 5..7), free again from
     * cycle 7 (the tail's ST releases it in its own cycle) */
    matched2 = out2 - 2;
    CHECKF(matched2 == 11, "voq %u: entering head matched in cycle %ld, want 11", voq, matched2);
    /* cycles 0..3 (head 4: len 3 <= credits < 6) and 7..10 (head 2: 5 <= credits < 10) */
    CHECKF(bst_during == 8, "voq %u: bubble_stall rose in %u cycles, want 8", voq, bst_during);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_RING_ENTER)) == 2);
    /* CNT_CLEAR clears the bubble counters */
    CHECK(asw_reg_write(sw, ASW_REG_CNT_CLEAR, 1) == ASW_OK);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_RING_ENTER)) == 0);
    CHECK(test_rd(sw, ASW_REG_BUBBLE_COUNTER(2, ASW_BCNT_BUBBLE_STALL)) == 0);
    asw_switch_free(sw);
  }
}

/* Random traffic, random BUBBLE registers (rewritten now and then): for
 * every head that leaves, CRED of its (output, VC) at the start of its SA
 * cycle (= out cycle - 2), modelled from the outside, is >= 2*len when it
 * entered a ring under the rule at that cycle and >= len otherwise; the
 * ring_enter counter equals the entering heads seen; every packet arrives. */
typedef struct {
  unsigned in, vc, len;
} sent_pkt;

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

void test_bubble_rule_random(void) {
  for (unsigned run = 0; run < 4; run++) {
    const unsigned P = 5, V = 2 + run % 2, BUF = 12 + 4 * run, LMAX = BUF / 2;
    const unsigned voq = run & 1;
    asw_config c = cfg(P, V, BUF, LMAX, voq);
    asw_switch *sw = asw_switch_new(&c, NULL, 0);
    CHECK(sw != NULL);
    if (!sw) return;
    drv d;
    drv_init(&d, sw);
    uint64_t seed = 0x9E3779B97F4A7C15ull + run;
    for (unsigned k = 0; k < P; k++) asw_reg_write(sw, ASW_REG_FWD(k), asw_fwd_entry(k, 0, 0, 0));
    for (unsigned o = 0; o < P; o++)
      for (unsigned s = 0; s < 16; s++)
        asw_reg_write(sw, ASW_REG_SL2VC(o, s), (unsigned)(rnd(&seed) % V));
    uint32_t bhist[2][64] = {{0}}; /* BUBBLE at the start of cycles c-2, c-1 */
    enum { NPKT = 1 << 16, CYC = 30000, DRAIN = 3000 };
    sent_pkt *pk = calloc(NPKT, sizeof *pk);
    /* per (o, w): credits returned up to the end of cycle c, ring */
    long *ret_hist = calloc((size_t)P * V * (CYC + DRAIN), sizeof *ret_hist);
    long reserved[64][8] = {{0}};
    unsigned due[64][8] = {{0}}; /* credits to return on (o, w) */
    unsigned held[64][8] = {{0}};  /* upstream credits of input (i, v) */
    unsigned cur_rem[64] = {0}, cur_vc[64] = {0};
    unsigned seq = 0, sent = 0, recv = 0, entering = 0, viol = 0;
    for (unsigned i = 0; i < P; i++)
      for (unsigned v = 0; v < V; v++) held[i][v] = BUF;
    for (long cyc = 0; cyc < CYC + DRAIN; cyc++) {
      const int inject = cyc < CYC;
      if (inject && rnd(&seed) % 500 == 0) { /* rewrite one BUBBLE register */
        unsigned o = (unsigned)(rnd(&seed) % P);
        uint32_t v = asw_bubble_entry((unsigned)(rnd(&seed) % P), (unsigned)(rnd(&seed) & 1),
                                      (unsigned)(rnd(&seed) % (1u << V)));
        d.in.reg_en = d.in.reg_we = 1;
        d.in.reg_addr = ASW_REG_BUBBLE(o);
        d.in.reg_wdata = v;
      }
      for (unsigned i = 0; i < P; i++) {
        if (!cur_rem[i]) {
          if (!inject || rnd(&seed) % 3) continue;
          unsigned v = (unsigned)(rnd(&seed) % V), len = 1 + (unsigned)(rnd(&seed) % LMAX);
          if (held[i][v] < len) continue;
          held[i][v] -= len;
          unsigned dst = (unsigned)(rnd(&seed) % P);
          unsigned s = seq++ % NPKT;
          pk[s].in = i;
          pk[s].vc = v;
          pk[s].len = len;
          cur_rem[i] = len;
          cur_vc[i] = v;
          drv_flit(&d, i, 1, len == 1, v, asw_hdr_make(dst, i, (unsigned)(rnd(&seed) % 16), len, 0, 0, s));
          cur_rem[i]--;
          sent++;
        } else {
          cur_rem[i]--;
          drv_flit(&d, i, 0, cur_rem[i] == 0, cur_vc[i], 0);
        }
      }
      for (unsigned o = 0; o < P; o++) { /* return a due credit, sometimes */
        for (unsigned w = 0; w < V; w++) {
          if (due[o][w] && rnd(&seed) % 4 == 0 && !(d.in.credit_mask >> o & 1u)) {
            due[o][w]--;
            d.in_cr[o] = (uint8_t)w;
            d.in.credit_mask |= 1ull << o;
          }
        }
      }
      /* BUBBLE as the switch sees it at the start of this cycle */
      uint32_t bnow[64];
      for (unsigned o = 0; o < P; o++) bnow[o] = test_rd(sw, ASW_REG_BUBBLE(o));
      long *rh = ret_hist + (size_t)cyc * P * V;
      if (cyc) memcpy(rh, rh - P * V, (size_t)P * V * sizeof *rh);
      if (d.in.credit_mask)
        for (unsigned o = 0; o < P; o++)
          if (d.in.credit_mask >> o & 1u) rh[o * V + d.in_cr[o]]++;
      CHECK(drv_step(&d) == ASW_OK);
      for (unsigned o = 0; o < P; o++) {
        if (!(d.out.flit_mask >> o & 1u)) continue;
        const asw_flit *f = &d.out_flit[o];
        due[o][f->vc]++;
        if (f->tail) recv++;
        if (!f->head) continue;
        const sent_pkt *p = &pk[ASW_HDR_SEQ(f->hdr)];
        long m = cyc - 2; /* SA cycle */
        long ret_before = m >= 1 ? ret_hist[(size_t)(m - 1) * P * V + o * V + f->vc] : 0;
        long cred = (long)BUF - reserved[o][f->vc] + ret_before;
        uint32_t b = bhist[0][o]; /* BUBBLE at the start of cycle m */
        int rule = (b >> 8 >> f->vc) & 1u;
        int cont = (b >> 6 & 1u) && (b & 0x3Fu) == p->in && p->vc == f->vc;
        unsigned need = rule && !cont ? 2 * p->len : p->len;
        if (rule && !cont) entering++;
        if (cred < (long)need) viol++;
        reserved[o][f->vc] += p->len;
      }
      for (unsigned i = 0; i < P; i++)
        if (d.out.credit_mask >> i & 1u) held[i][d.out_cr[i]]++;
      memcpy(bhist[0], bhist[1], sizeof bhist[0]);
      memcpy(bhist[1], bnow, sizeof bhist[1]);
    }
    CHECKF(viol == 0, "run %u: %u heads matched with fewer credits than the rule needs", run, viol);
    CHECKF(recv == sent && asw_switch_idle(sw), "run %u: sent %u, received %u", run, sent, recv);
    uint32_t ent = 0, bst = 0, cst = 0;
    for (unsigned o = 0; o < P; o++) {
      ent += test_rd(sw, ASW_REG_BUBBLE_COUNTER(o, ASW_BCNT_RING_ENTER));
      bst += test_rd(sw, ASW_REG_BUBBLE_COUNTER(o, ASW_BCNT_BUBBLE_STALL));
      cst += test_rd(sw, ASW_REG_COUNTER(o, ASW_CNT_CREDIT_STALL));
    }
    CHECKF(ent == entering && entering > 100, "run %u: ring_enter %u, entering heads seen %u", run,
           ent, entering);
    CHECKF(bst > 0 && cst >= bst, "run %u: bubble_stall %u credit_stall %u", run, bst, cst);
    free(pk);
    free(ret_hist);
    asw_switch_free(sw);
  }
}

/* What the rule is for (§16.1): a ring (1-D torus) of K switches, P = 3
 * (port 0: +, 1: -, 2: local), one VC, minimal routing, every node sending
 * 4-flit packets as far as minimal routing goes (K/2 hops +; with K = 8 every
 * other one K/2-1 hops -)
 * as fast as its credits allow, BUF = 2 packets. Without BUBBLE the rings
 * fill with packets waiting for each other: no flit moves for 2000 cycles
 * while flits are held (deadlock). With BUBBLE[0] = {ring_in 1} and
 * BUBBLE[1] = {ring_in 0} on every node, injection keeps a bubble in each
 * ring: flits keep moving and every packet arrives after the drain. */
static int ring_run(int bubble, unsigned K, long cycles, unsigned *delivered, unsigned *injected) {
  enum { P = 3, L = 4, BUFF = 8 };
  asw_config c = cfg(P, 1, BUFF, L, 1);
  c.dest_bits = 8;
  c.table_entries = K;
  asw_switch *sw[16];
  drv d[16];
  for (unsigned i = 0; i < K; i++) {
    sw[i] = asw_switch_new(&c, NULL, 0);
    if (!sw[i]) return -1;
    drv_init(&d[i], sw[i]);
    for (unsigned t = 0; t < K; t++) {
      unsigned fwd = (t + K - i) % K, port = t == i ? 2 : 2 * fwd <= K ? 0 : 1;
      asw_reg_write(sw[i], ASW_REG_FWD(t), asw_fwd_entry(port, 0, 0, 0));
    }
    if (bubble) {
      asw_reg_write(sw[i], ASW_REG_BUBBLE(0), asw_bubble_entry(1, 1, 1));
      asw_reg_write(sw[i], ASW_REG_BUBBLE(1), asw_bubble_entry(0, 1, 1));
    }
  }
  unsigned inj_cr[16], inj_rem[16] = {0}, seq = 0, moved_idle = 0, deadlock = 0;
  for (unsigned i = 0; i < K; i++) inj_cr[i] = BUFF;
  asw_flit link[16][2];     /* flit that left node i on port p last cycle */
  int8_t credit[16][3];     /* credit returned upstream by input (i, q) last cycle: 1 or 0 */
  memset(link, 0, sizeof link);
  memset(credit, 0, sizeof credit);
  *delivered = *injected = 0;
  for (long cyc = 0; cyc < cycles + 20000 && !deadlock; cyc++) {
    int inject = cyc < cycles;
    /* deliver last cycle's link flits and credits */
    for (unsigned i = 0; i < K; i++) {
      for (unsigned p = 0; p < 2; p++) {
        unsigned j = p == 0 ? (i + 1) % K : (i + K - 1) % K, q = p ^ 1u;
        if (link[i][p].valid) {
          d[j].in_flit[q] = link[i][p];
          d[j].in.flit_mask |= 1ull << q;
        }
        /* a credit of input (i, p) goes to the node it came from, output p^1 */
        if (credit[i][p]) {
          d[j].in_cr[q] = 0;
          d[j].in.credit_mask |= 1ull << q;
        }
      }
      if (credit[i][2]) inj_cr[i]++;
      /* local injection: 4-flit packets to i+K/2 (+, the tie) and, for K > 4,
       * every other one to i-(K/2-1) (-) */
      if (!inj_rem[i] && inject && inj_cr[i] >= L) {
        unsigned dst = (seq & 1) || K == 4 ? (i + K / 2) % K : (i + K / 2 + 1) % K;
        inj_cr[i] -= L;
        inj_rem[i] = L;
        drv_flit(&d[i], 2, 1, 0, 0, asw_hdr_make(dst, i, 0, L, 0, 0, seq++));
        (*injected)++;
        inj_rem[i]--;
      } else if (inj_rem[i]) {
        inj_rem[i]--;
        drv_flit(&d[i], 2, 0, inj_rem[i] == 0, 0, 0);
      }
    }
    unsigned moved = 0, held = 0;
    for (unsigned i = 0; i < K; i++) {
      if (drv_step(&d[i]) != ASW_OK) return -1;
      for (unsigned p = 0; p < 2; p++) {
        link[i][p] = (d[i].out.flit_mask >> p & 1u) ? d[i].out_flit[p] : (asw_flit){0};
        moved |= link[i][p].valid;
      }
      if (d[i].out.flit_mask >> 2 & 1u) { /* ejection: a sink, credit at once */
        moved = 1;
        if (d[i].out_flit[2].tail) (*delivered)++;
        d[i].in_cr[2] = 0;
        d[i].in.credit_mask |= 1u << 2;
      }
      for (unsigned q = 0; q < 3; q++) credit[i][q] = (int8_t)(d[i].out.credit_mask >> q & 1u);
      held |= !asw_switch_idle(sw[i]);
    }
    moved_idle = moved || !held ? 0 : moved_idle + 1;
    if (moved_idle >= 2000) deadlock = 1;
  }
  for (unsigned i = 0; i < K; i++) asw_switch_free(sw[i]);
  return deadlock;
}

void test_bubble_ring_deadlock(void) {
  for (unsigned K = 4; K <= 8; K += 4) {
    unsigned del = 0, inj = 0;
    int dl = ring_run(0, K, 20000, &del, &inj);
    CHECKF(dl == 1, "ring of %u without bubble: %s (%u of %u packets delivered)", K,
           dl < 0 ? "error" : "no deadlock", del, inj);
    dl = ring_run(1, K, 20000, &del, &inj);
    CHECKF(dl == 0 && del == inj && inj > 1000, "ring of %u with bubble: %s, %u of %u delivered",
           K, dl ? "deadlock" : "live", del, inj);
  }
}
