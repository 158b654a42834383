/* tb_directed.c — the directed §15 scenarios (SCEN=refresh ... clear, tb/README.md):
 * each drives fixed flows, ARN messages and register writes at fixed times and checks
 * the C model's counters and state (register reads) against the contract and against
 * its own small models, while the harness compares the RTL every cycle. */
#include <stdio.h>
#include <string.h>

#include "tb_stim.h"

/* ==== directed §15 scenarios ================================================
 * Time e = cycle - s0 (s0: first cycle after the programming script). Each
 * scenario drives flows (inputs -> destination, VC), ARN messages and register
 * writes at fixed e, and checks the C model's counters and state (register
 * reads) against the contract and against its own small models. */
enum { MAXCRT = 0xFFFFFF };

static unsigned dmode(const tb_traffic *t) { return t->opt.arn == TB_ARN_AFI ? 2u : 1u; }
static unsigned davc(const tb_traffic *t) { return dmode(t) == 2 ? t->V - 1 : 0; }
static void dir_write(tb_traffic *t, uint32_t a, uint32_t d) {
  if (t->wq_n + 2 <= sizeof t->wq / sizeof t->wq[0]) {
    t->wq[t->wq_n++] = a;
    t->wq[t->wq_n++] = d;
  }
}
static void dir_msg(tb_traffic *t, asw_inputs *in, unsigned port, uint32_t msg) {
  t->arn[port] = msg;
  in->arn_mask |= 1ULL << port;
}
static void flow(tb_traffic *t, unsigned p, unsigned dest, unsigned vc) {
  t->dsrc |= 1ULL << p;
  t->ddest[p] = (uint16_t)dest;
  t->dvc[p] = (uint8_t)vc;
}
static void fast_receivers(tb_traffic *t, unsigned maxd) {
  for (unsigned o = 0; o < t->P; o++) {
    t->rcv[o].withhold = 0;
    t->rcv[o].maxd = maxd;
  }
}
/* Index of the valid entry {dest, port, vc}, -1 if none. */
static int find_entry(const tb_traffic *t, unsigned dest, unsigned port, unsigned vc) {
  for (unsigned k = 0; k < t->AE; k++) {
    uint32_t w = rd(t, ASW_REG_ARN_ENTRY(k, 0));
    if ((w >> 31) && (w & 0xFFFFu) == dest && (w >> 16 & 0x3Fu) == port && (w >> 22 & 7u) == vc)
      return (int)k;
  }
  return -1;
}
static unsigned valid_entries(const tb_traffic *t) {
  unsigned n = 0;
  for (unsigned k = 0; k < t->AE; k++) n += rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 31;
  return n;
}
/* selectAlternativeOport of §15.3 step 4 from register reads (CSET[0] = all
 * ports): the candidate != port with the most CRED[o][avc], first in the scan
 * order from det_port among equals. *differ: the candidates' credits differ. */
static int expected_alt(const tb_traffic *t, unsigned det, unsigned port, unsigned avc, int *differ) {
  int best = -1;
  uint32_t max = 0, min = UINT32_MAX;
  for (unsigned k = 0; k < t->P; k++) {
    unsigned o = (det + k) % t->P;
    if (o == port) continue;
    uint32_t c = rd(t, ASW_REG_CRED(o, avc));
    if (c < min) min = c;
    if (best < 0 || c > max) {
      best = (int)o;
      max = c;
    }
  }
  if (differ) *differ = min != max;
  return best;
}
static int check_entry(tb_traffic *t, const char *what, unsigned dest, unsigned port, unsigned vc,
                       int consumed) {
  int k = find_entry(t, dest, port, vc);
  if (k < 0) {
    tb_failf(t, "%s: no valid ARN entry {dest %u, port %u, vc %u}", what, dest, port, vc);
    return -1;
  }
  unsigned c = rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 29 & 1u;
  if ((int)c != consumed) tb_failf(t, "%s: entry %d consumed %u, expected %d", what, k, c, consumed);
  return k;
}

static void dir_thresholds(tb_traffic *t, unsigned *up_all, unsigned *h, unsigned *l,
                           unsigned *fc, unsigned *crt, unsigned *ttl) {
  unsigned buf = t->cfg.buf_flits, half = buf / 2 ? buf / 2 : 1;
  *up_all = 0;
  *h = buf;
  *l = buf;
  *fc = 0;
  *crt = MAXCRT;
  *ttl = 200;
  switch (t->opt.scenario) {
  case TB_SCEN_CONSUME: *ttl = 3000; break;
  case TB_SCEN_EVICT: *ttl = 400; break;
  case TB_SCEN_DROP: *ttl = 100; break;
  case TB_SCEN_BRANCH: *ttl = MAXCRT; break;
  case TB_SCEN_ADAPTED: *up_all = 1; *h = half; *l = 1; *crt = 8; break;
  case TB_SCEN_HYST:
    *h = (3 * buf) / 4 > 2 ? (3 * buf) / 4 : 2;
    *l = buf / 4 > 1 ? buf / 4 : 1;
    if (*l >= *h) *l = *h - 1;
    *ttl = 100;
    break;
  case TB_SCEN_FCTH: *h = half; *l = 1; *fc = buf / 4; *crt = 8; *ttl = 100; break;
  case TB_SCEN_CRT: *h = half; *l = 1; *crt = 12; *ttl = 100; break;
  case TB_SCEN_ROOT: *h = half; *l = 1; *crt = 10; *ttl = 60; break;
  case TB_SCEN_CLEAR: *up_all = 1; *h = half; *l = 1; *crt = 10; *ttl = 200; break;
  default: break;
  }
}

static int dir_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  unsigned P = t->P, up_all, h, l, fc, crt, ttl;
  bad |= script_push(t, cap, ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, t->stage));
  bad |= script_push(t, cap, ASW_REG_VC_CTRL, dmode(t) == 2 ? 2u : 0u);
  uint64_t all = port_mask(t);
  uint64_t cs[4] = {all, 1ULL << 2, 3ULL << 1, all & ~1ULL};
  for (unsigned c = 0; c < 4; c++) {
    bad |= script_push(t, cap, ASW_REG_CSET(c, 0), (uint32_t)cs[c]);
    if (P > 32) bad |= script_push(t, cap, ASW_REG_CSET(c, 1), (uint32_t)(cs[c] >> 32));
  }
  static const struct { unsigned det, cset, mp; } fwd[D_N] = {
      [D_MP] = {3, 0, 1}, [D_NOMP] = {1, 0, 0}, [D_ONLY] = {2, 1, 1}, [D_HOT] = {1, 0, 1},
      [D_A] = {1, 0, 0},  [D_B] = {2, 0, 0},    [D_C] = {3, 0, 0},    [D_D] = {0, 0, 1}};
  for (unsigned d = 0; d < D_N; d++)
    bad |= script_push(t, cap, ASW_REG_FWD(d), asw_fwd_entry(fwd[d].det, 0, fwd[d].cset, fwd[d].mp));
  dir_thresholds(t, &up_all, &h, &l, &fc, &crt, &ttl);
  bad |= script_push(t, cap, ASW_REG_ARN_UP(0), up_all ? (uint32_t)all : 0);
  if (P > 32) bad |= script_push(t, cap, ASW_REG_ARN_UP(1), up_all ? (uint32_t)(all >> 32) : 0);
  bad |= script_push(t, cap, ASW_REG_CD_THRESH, h | l << 16);
  bad |= script_push(t, cap, ASW_REG_FCTH, fc);
  bad |= script_push(t, cap, ASW_REG_CRT, crt);
  bad |= script_push(t, cap, ASW_REG_ARN_TTL, ttl);
  bad |= script_push(t, cap, ASW_REG_ARN_CTRL, dmode(t) | t->arnx << 3);
  t->arn_ctrl_cfg = dmode(t) | t->arnx << 3;
  t->v[10] = h;
  t->v[11] = l;
  t->v[12] = crt;
  t->v[13] = ttl;
  fast_receivers(t, 1);
  t->dsl = 0;
  t->dlen_lo = 1;
  t->dlen_hi = 2;
  t->dload = 1.0;
  for (unsigned k = 0; k < 32; k++) t->mkey[k] = -1;
  return bad;
}

/* evict: the key of message j (distinct for j < 8 V P). */
static uint32_t evict_msg(const tb_traffic *t, unsigned j, unsigned *port) {
  *port = (j / (8 * t->V)) % t->P;
  return asw_arn_msg(j % 8, (j / 8) % t->V, (t->stage + 1) & 0xFu, j & 0x1FFu);
}

/* ---- what each scenario drives (scenario time e = cycle - s0) ----------------- */
static void refresh_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  const unsigned S = t->stage, S1 = (t->stage + 1) & 0xFu;
  if (e >= 10 && e <= 460 && (e - 10) % 50 == 0) {
    unsigned k = (unsigned)(e - 10) / 50;
    unsigned id = t->opt.scenario == TB_SCEN_REPLACE && (k & 1) ? 6 : 5;
    dir_msg(t, in, 1, asw_arn_msg(D_MP, 0, S, id));
  }
  /* Two entries of one port expiring in the same cycle: ARN_TTL lowered between them. */
  if (e == 700) dir_write(t, ASW_REG_ARN_TTL, 100);
  if (e == 702) dir_msg(t, in, 2, asw_arn_msg(D_D, 0, S1, 7));
  if (e == 752) dir_write(t, ASW_REG_ARN_TTL, 49);
  if (e == 753) dir_msg(t, in, 2, asw_arn_msg(D_D, 1, S1, 8));
}

static void consume_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  const unsigned S = t->stage, S1 = (t->stage + 1) & 0xFu, V = t->V;
  if (e == 10) {
    t->dsl = davc(t); /* identity SL2VC: the flows use the VC step 4 compares */
    flow(t, 0, D_A, 0);
    flow(t, 1, D_C, 0);
    flow(t, 2, D_D, 0);
    t->rcv[1].withhold = t->rcv[3].withhold = 1;
    t->rcv[0].maxd = 30;
  }
  if (e == 300) dir_msg(t, in, 3, asw_arn_msg(D_MP, 0, S, 11));
  if (e == 310) dir_msg(t, in, 0, asw_arn_msg(D_NOMP, 0, S, 12));
  if (e == 320) dir_msg(t, in, 2, asw_arn_msg(D_ONLY, 0, S, 13));
  if (e == 330) dir_msg(t, in, 1, asw_arn_msg(D_MP, 1, S1, 14));
  if (e == 340 && V < 8) dir_msg(t, in, 0, asw_arn_msg(D_MP, V, S, 15));
  if (e == 350 && t->cfg.table_entries < (1u << t->cfg.dest_bits))
    dir_msg(t, in, 0, asw_arn_msg(t->cfg.table_entries, 0, S, 16));
  if (e == 400) {
    t->dsrc = 0;
    fast_receivers(t, 1);
  }
}

static void evict_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  unsigned N = t->AE + 3, port;
  if (e >= 10 && e < 10 + 3 * (int64_t)N && (e - 10) % 3 == 0) {
    uint32_t m = evict_msg(t, (unsigned)(e - 10) / 3, &port);
    dir_msg(t, in, port, m);
  }
  if (e == 10 + 3 * (int64_t)N) { /* refresh the oldest entry: it is not the victim next */
    unsigned k = 0;
    for (unsigned j = 1; j < t->AE; j++)
      if (t->mwr[j] < t->mwr[k]) k = j;
    t->v[0] = k;
    uint32_t m = evict_msg(t, (unsigned)t->mkey[k], &port);
    dir_msg(t, in, port, m);
  }
  if (e == 13 + 3 * (int64_t)N) {
    uint32_t m = evict_msg(t, N, &port);
    dir_msg(t, in, port, m);
  }
}

static void drop_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  const unsigned S1 = (t->stage + 1) & 0xFu, P = t->P;
  if (e >= 10 && e < 22)
    for (unsigned p = 0; p < P; p++)
      dir_msg(t, in, p, asw_arn_msg((p + (unsigned)e) % 8, 0, S1, ((unsigned)e * P + p) & 0x1FFu));
}

static void branch_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  const unsigned S = t->stage, S1 = (t->stage + 1) & 0xFu;
  if (e == 10) dir_msg(t, in, 3, asw_arn_msg(D_MP, 0, S, 1));
  if (e == 12) dir_msg(t, in, 2, asw_arn_msg(D_NOMP, 0, S1, 2));
  if (e == 30) {
    flow(t, 1, D_MP, 0);   /* branch 1: consumed entry -> alt port */
    flow(t, 2, D_NOMP, 0); /* branch 2: non-consumed entry -> ARN upstream */
    flow(t, 0, D_MP, 1);   /* branch 3: no entry for VC 1 */
    flow(t, 3, D_A, 0);    /* branch 3: no entry for the destination */
    t->dload = 0.5;
    t->dlen_lo = 2; /* >= 2: RCs of one input never in consecutive cycles (no de-dup) */
    t->dlen_hi = t->cfg.max_packet;
  }
  if (e == 2030) t->dsrc = 0;
}

static void adapted_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  (void)in;
  const unsigned P = t->P;
  if (e == 10 || e == 1900) {
    for (unsigned p = 0; p < P; p++) flow(t, p, D_HOT, 0);
    t->dadapted = e == 10;
    fast_receivers(t, 0);
  }
  if (e == 1510 || e == 3400) t->dsrc = 0;
}

static void hyst_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  (void)in;
  const unsigned P = t->P;
  if (e >= 10 && e < 6010 && (e - 10) % 150 == 0) {
    static const double loads[] = {1.0, 0.5, 0.2, 0.1, 0.0};
    static const unsigned delays[] = {0, 2, 6};
    for (unsigned p = 0; p < P; p++) flow(t, p, D_HOT, 0);
    t->dload = loads[rnd_below(t, 5)];
    fast_receivers(t, delays[rnd_below(t, 3)]);
  }
  if (e == 6010) t->dsrc = 0;
}

static void fcth_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  (void)in;
  if (e == 10) {
    flow(t, 0, D_A, 0);
    flow(t, 1, D_A, 0);
    flow(t, 2, D_B, 0);
    flow(t, 3, D_B, 0);
    t->dlen_hi = 1;
    fast_receivers(t, 0);
    t->rcv[2].withhold = 1; /* output 2: no credits -> a branch, not a root */
  }
  if (e == 1510) { /* credits flow again: a pause lets them recover, then the same load */
    t->rcv[2].withhold = 0;
    t->dsrc = 0;
  }
  if (e == 1600)
    for (unsigned p = 0; p < 4; p++) flow(t, p, p < 2 ? D_A : D_B, 0);
  if (e == 3010) t->dsrc = 0;
}

static void crt_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  (void)in;
  if (e >= 10 && e < 4210 && (e - 10) % 600 == 0) {
    for (unsigned p = 0; p < 3; p++) flow(t, p, D_A, 0);
    t->dlen_hi = 1;
    fast_receivers(t, 0);
  }
  if (e >= 310 && (e - 310) % 600 == 0) t->dsrc = 0;
  if (e == 2310) { /* while idle: CRT 12 -> 3 */
    dir_write(t, ASW_REG_CRT, 3);
    t->v[12] = 3;
  }
}

static void root_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  (void)cycle;
  (void)in;
  if (e == 10 || e == 2600) {
    for (unsigned p = 0; p < 3; p++) flow(t, p, D_HOT, 0);
    fast_receivers(t, 0);
  }
  if (e == 2010 || e == 3600) t->dsrc = 0;
}

static void clear_inputs(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in) {
  const unsigned S = t->stage;
  if (e == 10) {
    for (unsigned p = 0; p < 3; p++) flow(t, p, D_HOT, 0);
    fast_receivers(t, 0);
  }
  if (e >= 20 && e < 2000 && e % 50 == 0)
    dir_msg(t, in, 3, asw_arn_msg(D_MP, 0, S, (unsigned)(e / 50) & 0x1FFu));
  if (e == 1000) {
    dir_write(t, ASW_REG_ARN_CTRL, 0);
    t->v[0] = cycle;
  }
  if (e == 1300) {
    dir_write(t, ASW_REG_ARN_CTRL, t->arn_ctrl_cfg);
    t->v[1] = cycle;
  }
  if (e == 2500) t->dsrc = 0;
}

/* ---- what each scenario checks (the C model at the start of cycle s0 + e) ------ */
static void refresh_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  const int replace = t->opt.scenario == TB_SCEN_REPLACE;
  const int64_t last = 460, ttl = (int64_t)t->v[13];
  if (e >= 12 && e <= 462 && (e - 12) % 50 == 0) { /* written / refreshed in e-1 */
    unsigned k = (unsigned)(e - 12) / 50, id = replace && (k & 1) ? 6 : 5;
    uint32_t w0 = rd(t, ASW_REG_ARN_ENTRY(0, 0)), w1 = rd(t, ASW_REG_ARN_ENTRY(0, 1)),
             w2 = rd(t, ASW_REG_ARN_ENTRY(0, 2));
    if (!(w0 >> 31) || (w0 & 0xFFFFu) != D_MP || (w0 >> 16 & 0x3Fu) != 1 || (w0 >> 29 & 1u) != 1 ||
        (w1 & 0x1FFu) != id || w2 != ttl)
      tb_failf(t, "message %u: entry 0 w0 0x%08x w1 0x%08x w2 %u, expected {dest %u, port 1, "
               "consumed, id %u, ttl %lld}", k, w0, w1, w2, D_MP, id, (long long)ttl);
    for (unsigned j = 1; j < t->AE; j++)
      if (rd(t, ASW_REG_ARN_ENTRY(j, 0))) tb_failf(t, "entry %u valid: one key, one entry", j);
  }
  if (e >= 12 && e <= last + 1 + ttl && !(rd(t, ASW_REG_ARN_ENTRY(0, 0)) >> 31))
    tb_failf(t, "entry 0 invalid in its lifetime (refresh must extend it)");
  if (e == last + 1 + ttl && csum(t, ASW_ACNT_EXPIRED))
    tb_failf(t, "entry expired before ARN_TTL cycles");
  if (e == last + 2 + ttl && ((rd(t, ASW_REG_ARN_ENTRY(0, 0)) >> 31) || csum(t, ASW_ACNT_EXPIRED) != 1))
    tb_failf(t, "entry not expired exactly ARN_TTL cycles after its last refresh");
  if (e == last + ttl + 10) {
    uint64_t rcv = cnt(t, 1, ASW_ACNT_RECEIVED), con = cnt(t, 1, ASW_ACNT_CONSUMED);
    if (rcv != 10 || con != (replace ? 10u : 1u) || csum(t, ASW_ACNT_EXPIRED) != 1 ||
        csum(t, ASW_ACNT_EVICTED) || csum(t, ASW_ACNT_IN_DROPPED))
      tb_failf(t, "counters: received %llu consumed %llu expired %llu evicted %llu, expected 10 %u 1 0",
               (unsigned long long)rcv, (unsigned long long)con,
               (unsigned long long)csum(t, ASW_ACNT_EXPIRED), (unsigned long long)csum(t, ASW_ACNT_EVICTED),
               replace ? 10u : 1u);
  }
  if (e == 704 && rd(t, ASW_REG_ARN_ENTRY(0, 2)) != 100) tb_failf(t, "entry 0: ttl %u, expected 100",
                                                             rd(t, ASW_REG_ARN_ENTRY(0, 2)));
  if (e == 755 && (rd(t, ASW_REG_ARN_ENTRY(0, 2)) != 49 || rd(t, ASW_REG_ARN_ENTRY(1, 2)) != 49))
    tb_failf(t, "entries 0 / 1: ttl %u / %u, expected 49 / 49 (ARN_TTL applies to new writes)",
             rd(t, ASW_REG_ARN_ENTRY(0, 2)), rd(t, ASW_REG_ARN_ENTRY(1, 2)));
  if (e == 803 && cnt(t, 2, ASW_ACNT_EXPIRED)) tb_failf(t, "entries of port 2 expired early");
  if (e == 804) {
    if (cnt(t, 2, ASW_ACNT_EXPIRED) != 2 || valid_entries(t))
      tb_failf(t, "two entries of port 2 expiring in one cycle: arn_expired[2] %llu, expected 2",
               (unsigned long long)cnt(t, 2, ASW_ACNT_EXPIRED));
    t->done = 1;
  }
}

static void consume_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  const unsigned V = t->V;
  const unsigned S1 = (t->stage + 1) & 0xFu;
  (void)S1;
  if (e == 301) { /* processing cycle of message a: what step 4 reads */
    int differ = 0;
    t->v[0] = (uint64_t)expected_alt(t, 3, 3, davc(t), &differ);
    if (!differ) tb_failf(t, "the candidates' credits are all equal: the choice is not exercised");
    if (find_entry(t, D_MP, 3, 0) >= 0) tb_failf(t, "entry visible in its processing cycle");
  }
  if (e == 302) {
    int k = check_entry(t, "with candidate", D_MP, 3, 0, 1);
    if (k >= 0 && (rd(t, ASW_REG_ARN_ENTRY(k, 1)) >> 16 & 0x3Fu) != t->v[0])
      tb_failf(t, "alt_port %u, expected %llu (most credits on VC %u)",
               rd(t, ASW_REG_ARN_ENTRY(k, 1)) >> 16 & 0x3Fu, (unsigned long long)t->v[0], davc(t));
    if (cnt(t, 3, ASW_ACNT_CONSUMED) != 1) tb_failf(t, "arn_consumed[3] != 1");
  }
  if (e == 312) check_entry(t, "FWD not multipath", D_NOMP, 0, 0, 0);
  if (e == 322) check_entry(t, "no candidate but the entry port", D_ONLY, 2, 0, 0);
  if (e == 332) check_entry(t, "stage mismatch", D_MP, 1, 1, 0);
  if (e == 342 && V < 8) check_entry(t, "vc >= V", D_MP, 0, V, dmode(t) == 2);
  if (e == 352 && t->cfg.table_entries < (1u << t->cfg.dest_bits))
    check_entry(t, "dest >= TABLE", t->cfg.table_entries, 0, 0, 0);
  if (e == 360) {
    uint64_t want = 1 + (dmode(t) == 2 && V < 8);
    if (csum(t, ASW_ACNT_CONSUMED) != want)
      tb_failf(t, "arn_consumed %llu, expected %llu", (unsigned long long)csum(t, ASW_ACNT_CONSUMED),
               (unsigned long long)want);
    t->done = 1;
  }
}

static void evict_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  const unsigned N = t->AE + 3, AE = t->AE;
  int64_t j = -1;
  if (e >= 12 && e < 12 + 3 * (int64_t)N && (e - 12) % 3 == 0) j = (e - 12) / 3;
  if (e == 15 + 3 * (int64_t)N) j = N;
  if (j >= 0) { /* own model of step 5: lowest free entry, else the oldest write */
    unsigned k = 0;
    int found = 0;
    for (unsigned x = 0; x < AE && !found; x++)
      if (t->mkey[x] < 0) k = x, found = 1;
    if (!found) {
      for (unsigned x = 1; x < AE; x++)
        if (t->mwr[x] < t->mwr[k]) k = x;
      t->mev++;
    }
    t->mkey[k] = (int)j;
    t->mwr[k] = cycle - 1;
    if ((rd(t, ASW_REG_ARN_ENTRY(k, 1)) & 0x1FFu) != (unsigned)j ||
        !(rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 31))
      tb_failf(t, "message %lld: expected in entry %u, which holds id %u", (long long)j, k,
               rd(t, ASW_REG_ARN_ENTRY(k, 1)) & 0x1FFu);
    if (csum(t, ASW_ACNT_EVICTED) != t->mev)
      tb_failf(t, "arn_evicted %llu, expected %llu", (unsigned long long)csum(t, ASW_ACNT_EVICTED),
               (unsigned long long)t->mev);
  }
  if (e == 12 + 3 * (int64_t)N) { /* the refresh */
    unsigned k = (unsigned)t->v[0];
    t->mwr[k] = cycle - 1;
    if (rd(t, ASW_REG_ARN_ENTRY(k, 2)) != t->v[13] || csum(t, ASW_ACNT_EVICTED) != t->mev)
      tb_failf(t, "refresh of entry %u: ttl %u, evicted %llu", k, rd(t, ASW_REG_ARN_ENTRY(k, 2)),
               (unsigned long long)csum(t, ASW_ACNT_EVICTED));
  }
  if (e == 20 + 3 * (int64_t)N + (int64_t)t->v[13]) {
    if (csum(t, ASW_ACNT_EXPIRED) != AE || csum(t, ASW_ACNT_EVICTED) != N + 1 - AE ||
        csum(t, ASW_ACNT_RECEIVED) != N + 2 || valid_entries(t))
      tb_failf(t, "expired %llu evicted %llu received %llu, expected %u %u %u",
               (unsigned long long)csum(t, ASW_ACNT_EXPIRED), (unsigned long long)csum(t, ASW_ACNT_EVICTED),
               (unsigned long long)csum(t, ASW_ACNT_RECEIVED), AE, N + 1 - AE, N + 2);
    t->done = 1;
  }
}

static void drop_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  const unsigned P = t->P;
  if (e >= 10 && e < 60) { /* own model of §15.4 (root FIFO 0 stays empty) */
    unsigned n = P + 1, chosen = n;
    for (unsigned k = 0; k < n; k++)
      if (t->mq[(t->mptr + k) % n]) {
        chosen = (t->mptr + k) % n;
        break;
      }
    uint64_t push = 0;
    if (e < 22)
      for (unsigned p = 0; p < P; p++) {
        if (t->mq[1 + p] == AQ) t->mdrop[p]++;
        else push |= 1ULL << p;
      }
    if (chosen < n) {
      t->mq[chosen]--;
      t->mptr = (chosen + 1) % n;
    }
    for (unsigned p = 0; p < P; p++) t->mq[1 + p] += push >> p & 1u;
  }
  if (e == 60) {
    uint64_t tot = 0;
    for (unsigned p = 0; p < P; p++) {
      tot += t->mdrop[p];
      if (cnt(t, p, ASW_ACNT_IN_DROPPED) != t->mdrop[p] || cnt(t, p, ASW_ACNT_RECEIVED) != 12)
        tb_failf(t, "output %u: arn_in_dropped %llu (expected %llu), arn_received %llu (12)", p,
                 (unsigned long long)cnt(t, p, ASW_ACNT_IN_DROPPED), (unsigned long long)t->mdrop[p],
                 (unsigned long long)cnt(t, p, ASW_ACNT_RECEIVED));
    }
    if (!tot) tb_failf(t, "no drop: the burst does not overflow the event FIFOs");
    t->done = 1;
  }
}

static void branch_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  if (e == 11) t->v[1] = (uint64_t)expected_alt(t, 3, 3, davc(t), NULL);
  if (e == 14) {
    int k = check_entry(t, "branch 1 entry", D_MP, 3, 0, 1);
    t->v[0] = k >= 0 ? rd(t, ASW_REG_ARN_ENTRY(k, 1)) >> 16 & 0x3Fu : 99;
    if (t->v[0] != t->v[1]) tb_failf(t, "alt_port %llu, expected %llu", (unsigned long long)t->v[0],
                                     (unsigned long long)t->v[1]);
    check_entry(t, "branch 2 entry", D_NOMP, 2, 0, 0);
  }
  if (e == 2400) {
    for (unsigned b = 1; b <= 3; b++)
      if (!t->br_pk[b] || t->br_ok[b] != t->br_pk[b])
        tb_failf(t, "branch %u: %llu packets, %llu routed as expected", b,
                 (unsigned long long)t->br_pk[b], (unsigned long long)t->br_ok[b]);
    if (cnt(t, 1, ASW_ACNT_ADAPTED) != t->br_pk[1] || csum(t, ASW_ACNT_ADAPTED) != t->br_pk[1])
      tb_failf(t, "packets_adapted %llu (input 1: %llu), expected %llu",
               (unsigned long long)csum(t, ASW_ACNT_ADAPTED), (unsigned long long)cnt(t, 1, ASW_ACNT_ADAPTED),
               (unsigned long long)t->br_pk[1]);
    if (cnt(t, 2, ASW_ACNT_SENT) != t->br_pk[2] || csum(t, ASW_ACNT_SENT) != t->br_pk[2] ||
        t->br_msgs != t->br_pk[2])
      tb_failf(t, "arn_sent %llu (input 2: %llu), messages seen %llu, expected %llu",
               (unsigned long long)csum(t, ASW_ACNT_SENT), (unsigned long long)cnt(t, 2, ASW_ACNT_SENT),
               (unsigned long long)t->br_msgs, (unsigned long long)t->br_pk[2]);
    t->done = 1;
  }
}

static void adapted_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  if (e >= 10 && e <= 1510 && valid_entries(t))
    tb_failf(t, "an ARN entry exists although every offender is adapted (step 3)");
  if (e == 1510) {
    if (!cnt(t, 1, ASW_ACNT_ROOTS) || csum(t, ASW_ACNT_CONSUMED) || csum(t, ASW_ACNT_SENT) ||
        csum(t, ASW_ACNT_ADAPTED))
      tb_failf(t, "adapted offenders: roots[1] %llu consumed %llu sent %llu adapted %llu, expected >0 0 0 0",
               (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS), (unsigned long long)csum(t, ASW_ACNT_CONSUMED),
               (unsigned long long)csum(t, ASW_ACNT_SENT), (unsigned long long)csum(t, ASW_ACNT_ADAPTED));
  }
  if (e == 3400) {
    if (!cnt(t, 1, ASW_ACNT_CONSUMED) || !csum(t, ASW_ACNT_ADAPTED))
      tb_failf(t, "non-adapted offenders: consumed[1] %llu adapted %llu, expected > 0",
               (unsigned long long)cnt(t, 1, ASW_ACNT_CONSUMED), (unsigned long long)csum(t, ASW_ACNT_ADAPTED));
    t->done = 1;
  }
}

static void hyst_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  const unsigned P = t->P, V = t->V;
  if (e >= 10 && e <= 6100) {
    const unsigned H = (unsigned)t->v[10], L = (unsigned)t->v[11];
    for (unsigned q = 0; q < P; q++) {
      unsigned hot = 0;
      for (unsigned i = 0; i < P; i++)
        for (unsigned v = 0; v < V; v++) {
          size_t x = ((size_t)i * V + v) * P + q;
          unsigned occ = rd(t, ASW_REG_OCC(i, v, q));
          if (occ != t->h_occ[x]) {
            unsigned nh = occ >= H || (t->h_hot[x] && occ >= L);
            if (nh && !t->h_hot[x]) t->v[3]++;
            if (!nh && t->h_hot[x]) t->v[4]++;
            t->h_hot[x] = (uint8_t)nh;
            t->h_occ[x] = (uint16_t)occ;
          }
          if (occ >= L && occ < H) t->v[t->h_hot[x] ? 1 : 2]++;
          hot += t->h_hot[x];
        }
      unsigned got = rd(t, ASW_REG_ROOT(q, 0)) >> 10 & 0x3FFu;
      if (got != hot) tb_failf(t, "output %u: %u hot VOQs (ROOT), hysteresis model says %u", q, got, hot);
    }
  }
  if (e == 6100) {
    if (!t->v[1] || !t->v[2] || !t->v[3] || !t->v[4])
      tb_failf(t, "hysteresis band not exercised: hot in band %llu, cold in band %llu, rises %llu, falls %llu",
               (unsigned long long)t->v[1], (unsigned long long)t->v[2], (unsigned long long)t->v[3],
               (unsigned long long)t->v[4]);
    t->done = 1;
  }
}

static void fcth_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  if (e >= 10 && e < 1510 && (rd(t, ASW_REG_ROOT(2, 0)) >> 10 & 0x3FFu)) t->v[0]++;
  if (e == 1510 && (!cnt(t, 1, ASW_ACNT_ROOTS) || cnt(t, 2, ASW_ACNT_ROOTS) || !t->v[0]))
    tb_failf(t, "credits > FCTH on 1, withheld on 2: roots %llu / %llu, cycles output 2 hot %llu",
             (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS), (unsigned long long)cnt(t, 2, ASW_ACNT_ROOTS),
             (unsigned long long)t->v[0]);
  if (e == 3010) {
    if (!cnt(t, 2, ASW_ACNT_ROOTS)) tb_failf(t, "output 2 not a root once its credits flow");
    t->done = 1;
  }
}

static void crt_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  if (e >= 10 && e <= 4300) {
    uint32_t crt = rd(t, ASW_REG_ROOT(1, 1)) & 0xFFFFFFu, lim = (uint32_t)t->v[12];
    uint64_t roots = cnt(t, 1, ASW_ACNT_ROOTS);
    uint32_t prev = t->mhist[(e - 1) % 64];
    if (e > 2310 && lim != 3) lim = 3;
    if (crt > lim) tb_failf(t, "crt %u > CRT %u", crt, lim);
    if (e > 10 && roots != t->v[6]) { /* a new root declared in cycle e-1 */
      for (uint32_t k = 0; k < lim; k++)
        if (t->mhist[(e - 1 - k) % 64] != lim - 1 - k)
          tb_failf(t, "root declared without CRT = %u consecutive cycles of cond (crt %u cycles before: %u)",
                   lim, k, t->mhist[(e - 1 - k) % 64]);
      if (crt != 0 || !(rd(t, ASW_REG_ROOT(1, 0)) & 1u))
        tb_failf(t, "after a declaration: crt %u, root bit %u", crt, rd(t, ASW_REG_ROOT(1, 0)) & 1u);
      t->v[lim == 3 ? 8 : 7]++;
    } else if (e > 10 && crt != 0 && crt != prev + 1 && !(crt == lim && prev == lim)) {
      tb_failf(t, "crt went from %u to %u", prev, crt);
    }
    t->v[6] = roots;
    t->mhist[e % 64] = crt;
  }
  if (e == 4300) {
    if (t->v[7] < 3 || t->v[8] < 2)
      tb_failf(t, "new roots checked: %llu with CRT 12, %llu with CRT 3 (expected >= 3, >= 2)",
               (unsigned long long)t->v[7], (unsigned long long)t->v[8]);
    t->done = 1;
  }
}

static void root_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  (void)cycle;
  uint32_t w = rd(t, ASW_REG_ROOT(1, 0));
  unsigned bit = w & 1u, id = w >> 1 & 0x1FFu;
  if (e > 10 && e <= 2010) {
    if (!t->v[0] && bit) {
      t->v[0] = 1;
      t->v[1] = id;
    } else if (t->v[0] && (!bit || id != t->v[1])) {
      tb_failf(t, "root cleared or id changed (%u -> %u) under sustained congestion", (unsigned)t->v[1], id);
    }
    if (t->v[0] && e > 100 && e % 8 == 0) { /* the local entry carries the root's id */
      int k = find_entry(t, D_HOT, 1, 0);
      if (k < 0 || (rd(t, ASW_REG_ARN_ENTRY(k, 1)) & 0x1FFu) != id ||
          (rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 29 & 1u))
        tb_failf(t, "no non-consumed entry {dest %u, port 1, vc 0} with the root id %u", D_HOT, id);
    }
  }
  if (e == 2010) {
    if (cnt(t, 1, ASW_ACNT_ROOTS) != 1 || csum(t, ASW_ACNT_EXPIRED) || !csum(t, ASW_ACNT_SENT))
      tb_failf(t, "sustained root: roots[1] %llu (1), expired %llu (0: refreshed), sent %llu (> 0)",
               (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS), (unsigned long long)csum(t, ASW_ACNT_EXPIRED),
               (unsigned long long)csum(t, ASW_ACNT_SENT));
    t->v[2] = csum(t, ASW_ACNT_ROOTS);
  }
  if (e == 2600 && (bit || !csum(t, ASW_ACNT_EXPIRED)))
    tb_failf(t, "after the congestion: root bit %u, expired %llu", bit,
             (unsigned long long)csum(t, ASW_ACNT_EXPIRED));
  if (e > 2600 && e <= 3600 && bit && !t->v[3]) {
    t->v[3] = 1;
    if (id != (t->v[2] & 0x1FFu)) tb_failf(t, "new root id %u, expected next_id %llu", id,
                                           (unsigned long long)(t->v[2] & 0x1FFu));
  }
  if (e == 3600) {
    if (cnt(t, 1, ASW_ACNT_ROOTS) != 2 || !t->v[3]) tb_failf(t, "second congestion: roots[1] %llu, expected 2",
                                                         (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS));
    t->done = 1;
  }
}

static void clear_observe(tb_traffic *t, uint64_t cycle, int64_t e) {
  const unsigned P = t->P;
  const uint64_t wc = t->v[0], rc = t->v[1];
  if (wc && cycle == wc) {
    unsigned live = valid_entries(t);
    for (unsigned o = 0; o < P; o++) live += rd(t, ASW_REG_ROOT(o, 0)) & 1u;
    if (!live) tb_failf(t, "nothing to clear: no root and no entry before the mode-0 write");
    for (unsigned k = 0; k < ASW_ACNT_NUM; k++) t->mcnt[k] = csum(t, k);
  }
  if (wc && cycle > wc && (!rc || cycle <= rc)) {
    for (unsigned o = 0; o < P; o++)
      if (rd(t, ASW_REG_ROOT(o, 0)) || rd(t, ASW_REG_ROOT(o, 1)))
        tb_failf(t, "ROOT[%u] = 0x%x / 0x%x after the mode-0 write", o, rd(t, ASW_REG_ROOT(o, 0)),
                 rd(t, ASW_REG_ROOT(o, 1)));
    if (valid_entries(t)) tb_failf(t, "ARN entries valid after the mode-0 write");
    for (unsigned k = 0; k < ASW_ACNT_NUM; k++) {
      uint64_t c = csum(t, k);
      if (cycle == wc + 1) {
        if (c < t->mcnt[k]) tb_failf(t, "counter %u cleared by the mode-0 write", k);
        t->mcnt[k] = c;
      } else if (c != t->mcnt[k]) {
        tb_failf(t, "counter %u changed in mode 0", k);
      }
    }
    t->v[2] = csum(t, ASW_ACNT_ROOTS);
  }
  if (rc && cycle > rc && !t->v[4]) {
    for (unsigned o = 0; o < P; o++) {
      uint32_t w = rd(t, ASW_REG_ROOT(o, 0));
      if (w & 1u) {
        t->v[4] = 1;
        if ((w >> 1 & 0x1FFu) != (t->v[2] & 0x1FFu))
          tb_failf(t, "first root after the clear has id %u, expected next_id %llu (kept)", w >> 1 & 0x1FFu,
                   (unsigned long long)(t->v[2] & 0x1FFu));
      }
    }
  }
  if (e == 2600) {
    if (!t->v[4]) tb_failf(t, "no root declared after ARN_CTRL was restored");
    t->done = 1;
  }
}

/* The scenarios: what each drives (inputs) and checks (observe) at scenario time e. */
typedef struct {
  void (*inputs)(tb_traffic *t, uint64_t cycle, int64_t e, asw_inputs *in);
  void (*observe)(tb_traffic *t, uint64_t cycle, int64_t e);
} dir_scenario;
#define ROW(S, f) [TB_SCEN_##S - TB_FIRST_ARN_SCEN] = {f##_inputs, f##_observe}
static const dir_scenario scenarios[TB_SCEN_N - TB_FIRST_ARN_SCEN] = {
    ROW(REFRESH, refresh), ROW(REPLACE, refresh), ROW(ADAPTED, adapted), ROW(CONSUME, consume),
    ROW(EVICT, evict),     ROW(DROP, drop),       ROW(BRANCH, branch),   ROW(HYST, hyst),
    ROW(FCTH, fcth),       ROW(CRT, crt),         ROW(ROOT, root),       ROW(CLEAR, clear)};
#undef ROW

static const dir_scenario *scenario_of(const tb_traffic *t) {
  return t->opt.scenario >= TB_FIRST_ARN_SCEN && t->opt.scenario < TB_SCEN_N
             ? &scenarios[t->opt.scenario - TB_FIRST_ARN_SCEN]
             : NULL;
}

void tb_dir_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in) {
  const dir_scenario *sc = scenario_of(t);
  if (sc) sc->inputs(t, cycle, (int64_t)(cycle - t->s0), in);
}

static void dir_observe(tb_traffic *t, uint64_t cycle) {
  const dir_scenario *sc = scenario_of(t);
  if (sc) sc->observe(t, cycle, (int64_t)(cycle - t->s0));
}

void tb_dir_output(tb_traffic *t, unsigned o, const asw_flit *f) {
  if (t->opt.scenario != TB_SCEN_BRANCH) return;
  unsigned src = ASW_HDR_SRC(f->hdr), ad = ASW_HDR_ADAPTED(f->hdr);
  if (src == 1) {
    t->br_pk[1]++;
    int afi = dmode(t) == 2;
    t->br_ok[1] += o == t->v[0] && ad == (unsigned)afi &&
                   (afi ? ASW_HDR_ORIG_VC(f->hdr) == 0 && f->vc == t->V - 1 : f->vc == 0);
  } else if (src == 2) {
    t->br_pk[2]++;
    t->br_ok[2] += o == 1 && !ad;
  } else if (src == 0 || src == 3) {
    t->br_pk[3]++;
    t->br_ok[3] += !ad && o == (src == 0 ? 3u : 1u);
  }
}

void tb_dir_arn_out(tb_traffic *t, unsigned i, uint32_t msg) {
  const int64_t e = (int64_t)(t->now - t->s0);
  switch (t->opt.scenario) {
  case TB_SCEN_BRANCH:
    if (i == 2 && msg == asw_arn_msg(D_NOMP, 0, (t->stage + 1) & 0xFu, 2)) t->br_msgs++;
    else tb_failf(t, "unexpected ARN message 0x%08x on input %u", msg, i);
    break;
  case TB_SCEN_ADAPTED:
    if (e <= 1600) tb_failf(t, "ARN message 0x%08x on input %u with adapted offenders only", msg, i);
    break;
  case TB_SCEN_CLEAR:
    if (t->v[0] && t->now > t->v[0] && (!t->v[1] || t->now <= t->v[1] + 1))
      tb_failf(t, "ARN message 0x%08x on input %u in mode 0", msg, i);
    break;
  case TB_SCEN_REFRESH: case TB_SCEN_REPLACE: case TB_SCEN_EVICT: case TB_SCEN_DROP: case TB_SCEN_CONSUME:
    tb_failf(t, "ARN message 0x%08x on input %u without any non-consumed entry hit", msg, i);
    break;
  default: break;
  }
}

static int directed_program(tb_traffic *t, unsigned cap) { return t->directed ? dir_program(t, cap) : 0; }
static void directed_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  (void)in;
  if (t->directed && t->s0 && cycle >= t->s0) dir_observe(t, cycle);
}
const tb_feature tb_feat_directed = {.name = "directed", .program = directed_program,
                                     .observe = directed_observe};
