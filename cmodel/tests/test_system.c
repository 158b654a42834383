/* System properties: protocol violations rejected without effect,
 * determinism and reset, idle detection, conservation and ordering over
 * long random runs, the classical HoL and iSLIP limits, multipath routing
 * under a hotspot. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "switch_study.h"
#include "test.h"

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void) {
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 7;
  rnd_state ^= rnd_state << 17;
  return rnd_state;
}

/* A legal random traffic generator driving one switch: per input, packets
 * on random VCs within credits; per output, credits returned after a
 * random delay. Used to compare two switches fed identical inputs. */
typedef struct {
  unsigned P, V, BUF, LMAX;
  unsigned cred[64][8];        /* sender credits per input VC */
  unsigned left[64], vc[64];   /* packet in progress per input */
  unsigned pend[64][8];        /* credits owed per output VC */
  asw_flit flit[64];
  uint8_t crvc[64];
} traffic;

static void traffic_init(traffic *t, const asw_config *c) {
  memset(t, 0, sizeof *t);
  t->P = c->ports;
  t->V = c->vcs;
  t->BUF = c->buf_flits;
  t->LMAX = c->max_packet;
  for (unsigned p = 0; p < t->P; p++)
    for (unsigned v = 0; v < t->V; v++) t->cred[p][v] = t->BUF;
}
/* fills in for one cycle */
static void traffic_make(traffic *t, asw_inputs *in, unsigned dests) {
  memset(in, 0, sizeof *in);
  in->flit = t->flit;
  in->credit_vc = t->crvc;
  for (unsigned p = 0; p < t->P; p++) {
    if (!t->left[p]) {
      if (rnd() % 3 == 0) continue;
      unsigned v = (unsigned)(rnd() % t->V), len = 1 + (unsigned)(rnd() % t->LMAX);
      if (t->cred[p][v] < len) continue;
      t->cred[p][v] -= len;
      t->left[p] = len;
      t->vc[p] = v;
      uint64_t h = asw_hdr_make((unsigned)(rnd() % dests), p, (unsigned)(rnd() % 16), len,
                                (unsigned)(rnd() % 2), 0, (unsigned)rnd());
      asw_flit f = {1, 1, len == 1, (uint8_t)v, h, rnd()};
      t->flit[p] = f;
    } else {
      asw_flit f = {1, 0, t->left[p] == 1, (uint8_t)t->vc[p], rnd(), rnd()};
      t->flit[p] = f;
    }
    t->left[p]--;
    in->flit_mask |= 1ull << p;
  }
  for (unsigned o = 0; o < t->P; o++)
    for (unsigned v = 0; v < t->V; v++)
      if (t->pend[o][v] && rnd() % 2) {
        t->pend[o][v]--;
        t->crvc[o] = (uint8_t)v;
        in->credit_mask |= 1ull << o;
        break;
      }
}
static void traffic_account(traffic *t, const asw_outputs *out) {
  for (uint64_t m = out->flit_mask; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    t->pend[o][out->flit[o].vc]++;
  }
  for (uint64_t m = out->credit_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    t->cred[i][out->credit_vc[i]]++;
  }
}

static uint64_t hash_outputs(uint64_t h, const asw_outputs *o, unsigned P) {
  h = (h ^ o->flit_mask) * 0x100000001B3ull;
  h = (h ^ o->credit_mask) * 0x100000001B3ull;
  for (unsigned p = 0; p < P; p++) {
    if (o->flit_mask >> p & 1u) {
      const asw_flit *f = &o->flit[p];
      h = (h ^ f->hdr ^ f->payload ^ ((uint64_t)f->head << 8 | (uint64_t)f->tail << 9 | f->vc)) * 0x100000001B3ull;
    }
    if (o->credit_mask >> p & 1u) h = (h ^ o->credit_vc[p]) * 0x100000001B3ull;
  }
  h = (h ^ o->reg_rvalid ^ ((uint64_t)o->reg_rdata << 1)) * 0x100000001B3ull;
  return h;
}

static void program_multipath(asw_switch *sw, unsigned P, unsigned dests, unsigned mode) {
  asw_reg_write(sw, ASW_REG_CSET(0, 0), (uint32_t)(P >= 32 ? 0xFFFFFFFFu : (1u << P) - 1));
  asw_reg_write(sw, ASW_REG_CSET(1, 0), 0x5);
  for (unsigned d = 0; d < dests; d++)
    asw_reg_write(sw, ASW_REG_FWD(d), asw_fwd_entry(d % P, d % 64, d % 2, d % 3 != 0));
  asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(mode, mode == 2 ? 2 : 0, 0xFF, 1));
}

static int run_lock; /* run_random locks the switch's configuration */

/* Runs `cycles` of random traffic; returns the hash of all outputs. If
 * bad_every > 0, every bad_every cycles first offers a protocol-violating
 * version of the cycle's inputs, which must be rejected. */
static uint64_t run_random(const asw_config *c, unsigned mode, long cycles, int bad_every, int *rejected) {
  asw_switch *sw = asw_switch_new(c, NULL, 0);
  if (!sw) return 0;
  program_multipath(sw, c->ports, c->table_entries + 2, mode);
  if (run_lock) asw_switch_lock_config(sw); /* test_config_lock */
  traffic t;
  traffic_init(&t, c);
  asw_flit of[64];
  uint8_t ocr[64];
  uint32_t arn[64];
  asw_outputs out = {0, of, 0, ocr, 0, arn, 0, 0, 0, NULL};
  uint64_t h = 1469598103934665603ull;
  for (long cyc = 0; cyc < cycles; cyc++) {
    asw_inputs in;
    traffic_make(&t, &in, c->table_entries + 2);
    if (cyc % 7 == 0) { /* register reads on the bus */
      in.reg_en = 1;
      in.reg_addr = (uint32_t)(cyc % 3 == 0 ? ASW_REG_CRED(cyc % c->ports, 0) : ASW_REG_OCC(cyc % c->ports, 0, 0));
    }
    if (bad_every && cyc % bad_every == 0) {
      asw_inputs bad = in;
      asw_flit bf[64];
      uint8_t bcr[64];
      memcpy(bf, t.flit, sizeof bf);
      memcpy(bcr, t.crvc, sizeof bcr);
      bad.flit = bf;
      bad.credit_vc = bcr;
      unsigned kind = (unsigned)(cyc / bad_every) % 7, p = (unsigned)((cyc / bad_every / 7) % c->ports);
      asw_flit f = {1, 1, 1, 0, asw_hdr_make(0, 0, 0, 1, 0, 0, 0), 0};
      switch (kind) {
      case 0: f.vc = (uint8_t)c->vcs; break;                                    /* vc >= V */
      case 1: f.hdr = asw_hdr_make(0, 0, 0, 0, 0, 0, 0); break;                 /* len 0 */
      case 2: f.hdr = asw_hdr_make(0, 0, 0, c->max_packet + 1, 0, 0, 0); f.tail = 0; break;
      case 3: f.head = 0; f.tail = 1; break;       /* body/tail with nothing in progress (if idle) */
      case 4: bad.credit_mask |= 1ull << p; bcr[p] = (uint8_t)c->vcs; break;   /* credit vc >= V */
      case 5: bad.reg_en = 1; bad.reg_addr = 0x100000; break;                   /* 21-bit address */
      case 6: bad.flit_mask |= 1ull << 63; break;                               /* port >= P */
      }
      if (kind <= 3) {
        /* replace input p's flit (only where no packet is in progress, so
         * kind 3 is a violation too) */
        if (t.left[p] == 0 && !(in.flit_mask >> p & 1u)) {
          bf[p] = f;
          bad.flit_mask |= 1ull << p;
        } else {
          bad.credit_mask |= 1ull << p; /* fall back: credit above BUF */
          bcr[p] = 0;
          for (unsigned v = 0; v < c->vcs; v++) if (t.pend[p][v] == 0) { bcr[p] = (uint8_t)v; break; }
          uint32_t cr;
          asw_reg_read(sw, ASW_REG_CRED(p, bcr[p]), &cr);
          if (cr != c->buf_flits) bad = in, bad.reg_en = 1, bad.reg_addr = 0xFFFFFFFFu;
        }
      }
      if (c->ports == 64 && kind == 6) bad.reg_en = 1, bad.reg_addr = 0x200000;
      int rc = asw_switch_step(sw, &bad, &out);
      if (rc == ASW_EPROTO && strlen(asw_switch_error(sw)) > 0) (*rejected)++;
      else CHECKF(0, "cycle %ld: violation kind %u not rejected (rc %d)", cyc, kind, rc);
    }
    int rc = asw_switch_step(sw, &in, &out);
    CHECKF(rc == ASW_OK, "cycle %ld: %s", cyc, asw_switch_error(sw));
    if (rc != ASW_OK) break;
    traffic_account(&t, &out);
    h = hash_outputs(h, &out, c->ports);
  }
  asw_switch_free(sw);
  return h;
}

void test_protocol_violations_change_nothing(void) {
  /* Two runs with the same legal traffic; one is offered a protocol
   * violation every 5 cycles first. Identical outputs = nothing changed. */
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = 6;
  c.vcs = 3;
  c.buf_flits = 12;
  c.max_packet = 5;
  c.table_entries = 10;
  for (unsigned mode = 0; mode < 3; mode++) {
    int rej = 0, rej0 = 0;
    rnd_state = 99 + mode;
    uint64_t h1 = run_random(&c, mode, 3000, 0, &rej0);
    rnd_state = 99 + mode;
    uint64_t h2 = run_random(&c, mode, 3000, 5, &rej);
    CHECKF(h1 == h2, "mode %u: outputs differ after rejected steps", mode);
    CHECKF(rej == 600, "mode %u: %d of 600 violations rejected", mode, rej);
  }
}

/* asw_switch_lock_config: the same outputs as an unlocked switch in every
 * routing mode (deterministic, oblivious, adaptive with the 2TH trigger,
 * whose flags a locked switch must keep maintaining); writes refused until
 * reset. */
void test_config_lock(void) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = 6;
  c.vcs = 3;
  c.buf_flits = 12;
  c.max_packet = 5;
  c.table_entries = 10;
  int r = 0;
  for (unsigned mode = 0; mode < 3; mode++) {
    rnd_state = 41 + mode;
    uint64_t h1 = run_random(&c, mode, 6000, 0, &r);
    rnd_state = 41 + mode;
    run_lock = 1;
    uint64_t h2 = run_random(&c, mode, 6000, 0, &r);
    run_lock = 0;
    CHECKF(h1 == h2, "mode %u: a locked switch's outputs differ", mode);
  }
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  uint32_t v;
  CHECK(asw_reg_write(sw, ASW_REG_LFSR_SEED, 5) == ASW_OK);
  CHECK(asw_switch_lock_config(sw) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_LFSR_SEED, 7) == ASW_EINVAL);
  CHECK(strstr(asw_switch_error(sw), "locked") != NULL);
  asw_inputs in = {0, NULL, 0, NULL, 0, NULL, 1, 1, ASW_REG_LFSR_SEED, 9, 0, NULL};
  CHECK(asw_switch_step(sw, &in, NULL) == ASW_EPROTO);
  asw_reg_read(sw, ASW_REG_LFSR_SEED, &v);
  CHECK(v == 5);
  asw_reg_read(sw, ASW_REG_REG_ERRORS, &v);
  CHECK(v == 0);
  asw_switch_reset(sw); /* unlocks */
  CHECK(asw_reg_write(sw, ASW_REG_LFSR_SEED, 7) == ASW_OK);
  asw_reg_read(sw, ASW_REG_LFSR_SEED, &v);
  CHECK(v == 7);
  asw_switch_free(sw);
}

void test_determinism_and_reset(void) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = 9;
  c.vcs = 2;
  c.buf_flits = 20;
  c.max_packet = 6;
  c.table_entries = 12;
  c.iters = 2;
  int r = 0;
  rnd_state = 5;
  uint64_t a = run_random(&c, 1, 4000, 0, &r);
  rnd_state = 5;
  uint64_t b = run_random(&c, 1, 4000, 0, &r);
  CHECK(a == b);
  rnd_state = 6;
  uint64_t d = run_random(&c, 1, 4000, 0, &r);
  CHECK(a != d);
  /* reset returns to the power-on behaviour */
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  asw_flit f[64];
  uint8_t cr[64];
  asw_outputs out = {0, f, 0, cr, 0, NULL, 0, 0, 0, NULL};
  for (int round = 0; round < 2; round++) {
    CHECK(asw_switch_idle(sw));
    asw_reg_write(sw, ASW_REG_FWD(1), asw_fwd_entry(2, 0, 0, 0));
    asw_reg_write(sw, ASW_REG_LFSR_SEED, 77);
    asw_flit in_f[64];
    in_f[0] = (asw_flit){1, 1, 1, 0, asw_hdr_make(1, 0, 0, 1, 0, 0, 0), 5};
    asw_inputs in = {1, in_f, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL};
    CHECK(asw_switch_step(sw, &in, &out) == ASW_OK);
    CHECK(!asw_switch_idle(sw));
    int seen = 0;
    for (int k = 0; k < 6; k++) {
      CHECK(asw_switch_step(sw, NULL, &out) == ASW_OK);
      if (out.flit_mask == 4) seen = k;
    }
    CHECK(seen == (int)ASW_ZERO_LOAD_LATENCY - 1); /* step k is cycle k + 1 */
    uint32_t v;
    asw_reg_read(sw, ASW_REG_CRED(2, 0), &v);
    CHECK(v == c.buf_flits - 1);
    asw_switch_reset(sw);
    asw_reg_read(sw, ASW_REG_CRED(2, 0), &v);
    CHECK(v == c.buf_flits);
    asw_reg_read(sw, ASW_REG_FWD(1), &v);
    CHECK(v == 0);
    asw_reg_read(sw, ASW_REG_LFSR_SEED, &v);
    CHECK(v == 1);
  }
  asw_switch_free(sw);
}

/* Idle: a switch with a credit still owed by its own output registers or a
 * pending read is not idle; otherwise stepping it changes nothing. */
void test_idle(void) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  CHECK(asw_switch_idle(sw));
  asw_inputs in;
  memset(&in, 0, sizeof in);
  in.reg_en = 1;
  in.reg_addr = ASW_REG_ID;
  CHECK(asw_switch_step(sw, &in, NULL) == ASW_OK);
  CHECK(!asw_switch_idle(sw)); /* read data due next cycle */
  CHECK(asw_switch_step(sw, NULL, NULL) == ASW_OK);
  CHECK(asw_switch_idle(sw));
  /* a packet: not idle until its flit and credit have left the registers */
  asw_reg_write(sw, ASW_REG_FWD(0), asw_fwd_entry(1, 0, 0, 0));
  asw_flit f[64];
  f[3] = (asw_flit){1, 1, 1, 0, asw_hdr_make(0, 0, 0, 1, 0, 0, 0), 1};
  memset(&in, 0, sizeof in);
  in.flit_mask = 8;
  in.flit = f;
  CHECK(asw_switch_step(sw, &in, NULL) == ASW_OK);
  int idle_at = -1;
  for (int k = 0; k < 10 && idle_at < 0; k++) {
    CHECK(asw_switch_step(sw, NULL, NULL) == ASW_OK);
    if (asw_switch_idle(sw)) idle_at = k;
  }
  /* idle once the outputs of cycle ASW_ZERO_LOAD_LATENCY have been driven */
  CHECKF(idle_at == (int)ASW_ZERO_LOAD_LATENCY - 1, "idle after %d", idle_at);
  asw_switch_free(sw);
}

static void run_study_ok(const study_params *sp, study_result *r, const char *what) {
  char err[300] = "";
  int rc = study_run(sp, r, err, sizeof err);
  CHECKF(rc == 0, "%s: %s", what, err);
}

void test_conservation_random_configs(void) {
  /* Long random runs over random configurations, each drained: the study's
   * scoreboard checks every flit's header and payload, VC, output, tail
   * position and per-(input, VC, destination[, output]) order; the drain
   * checks nothing is lost or duplicated and the switch ends empty with
   * all credits back. */
  static const unsigned Ps[] = {2, 3, 5, 8, 16, 33, 64};
  int runs = test_quick ? 10 : 28;
  rnd_state = 2024;
  for (int k = 0; k < runs; k++) {
    study_params sp;
    study_defaults(&sp);
    sp.sw.ports = Ps[rnd() % 7];
    sp.sw.vcs = 1 + (unsigned)(rnd() % 4);
    sp.sw.voq = (unsigned)(rnd() % 2);
    sp.sw.iters = 1 + (unsigned)(rnd() % 4);
    sp.packet_flits = 1 + (unsigned)(rnd() % 8);
    sp.sw.max_packet = sp.packet_flits + (unsigned)(rnd() % 4);
    sp.sw.buf_flits = sp.sw.max_packet + (unsigned)(rnd() % 40);
    sp.routing = (unsigned)(rnd() % 3);
    sp.trigger = (unsigned)(rnd() % 3);
    sp.credit_delay = 1 + (unsigned)(rnd() % 6);
    sp.load = 0.2 + 0.8 * (double)(rnd() % 1000) / 1000.0;
    sp.dest = (unsigned)(rnd() % 3);
    sp.hot_port = (unsigned)(rnd() % sp.sw.ports);
    sp.hot_fraction = 0.3;
    sp.cycles = sp.sw.ports > 16 ? 3000 : 8000;
    sp.warmup = 100;
    sp.seed = rnd();
    sp.drain = 2000000;
    study_result r;
    char what[200];
    snprintf(what, sizeof what, "run %d: P=%u V=%u voq=%u iters=%u len=%u BUF=%u routing=%u delay=%u load=%.2f dest=%u",
             k, sp.sw.ports, sp.sw.vcs, sp.sw.voq, sp.sw.iters, sp.packet_flits, sp.sw.buf_flits,
             sp.routing, sp.credit_delay, sp.load, sp.dest);
    run_study_ok(&sp, &r, what);
    CHECKF(r.drained && r.packets_delivered == r.packets_generated && r.packets_generated > 0, "%s", what);
    CHECKF(r.flits_delivered == r.flits_generated, "%s", what);
    if (test_failed_checks) break;
  }
}

static study_result saturation(unsigned P, unsigned voq, double load, unsigned buf, uint64_t cycles) {
  study_params sp;
  study_defaults(&sp);
  sp.sw.ports = P;
  sp.sw.vcs = 1;
  sp.sw.voq = voq;
  sp.sw.iters = 1;
  sp.sw.buf_flits = buf;
  sp.packet_flits = 1;
  sp.load = load;
  sp.cycles = cycles;
  sp.warmup = cycles / 5;
  sp.seed = 12345 + P;
  study_result r;
  run_study_ok(&sp, &r, "saturation");
  return r;
}

void test_hol_limit(void) {
  /* FIFO inputs (VOQ off, 1 VC), 1-flit packets, uniform destinations,
   * every input always backlogged: throughput is Karol's HoL limit. Karol
   * et al. computed it for random contention resolution; iSLIP's rotating
   * grant pointer is another fair choice that does not look at the next
   * packets, and matches it (measured within 0.005). Tolerance 0.015: the
   * standard error of the mean over 80k cycles is below 0.002 at P = 16 and
   * the rest covers the finite-P value at 16 (~0.600; 0.586 for P -> inf). */
  static const unsigned Ps[] = {2, 4, 8, 16};
  static const double karol[] = {0.75, 0.6553, 0.6184, 0.6001};
  for (unsigned k = 0; k < 4; k++) {
    study_result r = saturation(Ps[k], 0, 1.0, 64, test_quick ? 30000 : 100000);
    CHECKF(fabs(r.accepted_throughput - karol[k]) < 0.015, "P=%u: %.4f vs %.4f", Ps[k], r.accepted_throughput, karol[k]);
  }
}

void test_islip_near_full_load(void) {
  /* VOQs, 1 iSLIP iteration, 99% uniform Bernoulli load: iSLIP keeps up
   * (throughput >= 98% of the ports' capacity, at least 98.5% of offered)
   * and latency stays bounded (p99 well under the run length). The buffer
   * is 1024 flits: with only a few flits per VOQ (e.g. BUF = 64 for 16
   * VOQs) the VOQs run empty and 1-iteration iSLIP loses its pointer
   * desynchronisation (~0.86 at P = 16). */
  study_result r = saturation(16, 1, 0.99, 1024, test_quick ? 60000 : 150000);
  CHECKF(r.accepted_throughput >= 0.98, "throughput %.4f", r.accepted_throughput);
  CHECKF(r.accepted_throughput >= 0.985 * r.offered_load, "throughput %.4f offered %.4f", r.accepted_throughput, r.offered_load);
  CHECKF(r.latency_p99 < 6000, "p99 latency %llu", (unsigned long long)r.latency_p99);
  /* below saturation everything offered is carried with short latency */
  r = saturation(16, 1, 0.8, 1024, 40000);
  CHECKF(fabs(r.accepted_throughput - r.offered_load) < 0.005, "0.8: %.4f vs %.4f", r.accepted_throughput, r.offered_load);
  CHECKF(r.latency_mean < 100, "0.8: latency %.1f", r.latency_mean);
}

void test_multipath_hotspot(void) {
  /* Half of all packets go to port 0. Deterministic routing is limited by
   * that one output; oblivious and adaptive routing spread the hot
   * destination over its 4-port group and carry more. */
  double thr[3];
  uint64_t adaptive = 0;
  for (unsigned mode = 0; mode < 3; mode++) {
    study_params sp;
    study_defaults(&sp);
    sp.sw.ports = 16;
    sp.sw.vcs = 2;
    sp.sw.buf_flits = 128;
    sp.packet_flits = 4;
    sp.routing = mode;
    sp.load = 0.4;
    sp.dest = STUDY_DEST_HOTSPOT;
    sp.hot_port = 0;
    sp.hot_fraction = 0.5;
    sp.cycles = 20000;
    sp.warmup = 4000;
    study_result r;
    run_study_ok(&sp, &r, "hotspot");
    thr[mode] = r.accepted_throughput;
    if (mode == 2) adaptive = r.adaptive_choices;
  }
  CHECKF(thr[0] < 0.33, "det %.3f", thr[0]);
  CHECKF(thr[1] > thr[0] + 0.05, "oblivious %.3f det %.3f", thr[1], thr[0]);
  CHECKF(thr[2] > thr[0] + 0.05, "adaptive %.3f det %.3f", thr[2], thr[0]);
  CHECK(adaptive > 0);
}

static long rss_kb(void) { /* resident set size, or -1 if unknown */
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) kb = strtol(line + 6, NULL, 10);
  fclose(f);
  return kb;
}

void test_large_switch_idle_cost(void) {
  /* The network-size switch (36 ports, 4 VCs, BUF 768, LMAX 64: 2.6 MB of
   * slot memory) creates quickly and, idle, stays small in physical memory
   * because untouched buffer pages are never written (1620 of them must fit
   * a network simulation). Runs first in the suite: glibc maps large blocks
   * lazily only until large blocks have been freed. */
  long rss0 = rss_kb();
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = 36;
  c.vcs = 4;
  c.buf_flits = 768;
  c.max_packet = 64;
  asw_switch *sws[64];
  int n = test_quick ? 8 : 64;
  for (int k = 0; k < n; k++) {
    sws[k] = asw_switch_new(&c, NULL, 0);
    CHECK(sws[k] != NULL);
  }
  for (int k = 0; k < n; k++)
    if (sws[k]) {
      for (int cyc = 0; cyc < 100; cyc++) CHECK(asw_switch_step(sws[k], NULL, NULL) == ASW_OK);
      CHECK(asw_switch_idle(sws[k]));
    }
#ifndef __SANITIZE_ADDRESS__ /* ASan's allocator touches what it hands out */
  long rss1 = rss_kb();
  if (rss0 > 0 && rss1 > 0)
    CHECKF((rss1 - rss0) / n < 512, "%ld KB resident per idle switch", (rss1 - rss0) / n);
#else
  (void)rss0;
#endif
  for (int k = 0; k < n; k++) asw_switch_free(sws[k]);
}

/* Random traffic with everything the study does not vary: random SL and
 * adapted bit per packet, destinations beyond the table (route errors),
 * multipath and single-path entries mixed, AFI and OBQA, and register
 * writes on the bus during the run (routing mode, thresholds, LFSR seed).
 * Every flit carries (packet id, flit index) in its payload; the
 * scoreboard checks each delivered flit against the packet sent (header,
 * payload, tail, contiguity per output VC), the output port against the
 * legal set for its destination, the adapted-flow VC, per-(input, VC,
 * destination, output) order, and that every packet arrives exactly once. */
typedef struct {
  uint64_t hdr;
  unsigned len, src, vc, delivered;
} sent_pkt;

static void scoreboard_run(unsigned P, unsigned V, unsigned voq, unsigned vc_ctrl, long cycles, uint64_t seed) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = P;
  c.vcs = V;
  c.buf_flits = 16;
  c.max_packet = 6;
  c.payload_bits = 64;
  c.voq = voq;
  c.iters = 1 + (unsigned)(seed % 3);
  c.dest_bits = 8;
  c.table_entries = 3 * P;
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  if (!sw) { CHECK(sw != NULL); return; }
  rnd_state = seed;
  const unsigned dests = c.table_entries + 4; /* some beyond the table */
  uint64_t cset[4];
  for (unsigned k = 0; k < 4; k++) {
    cset[k] = rnd() & (P == 64 ? ~0ull : (1ull << P) - 1);
    asw_reg_write(sw, ASW_REG_CSET(k, 0), (uint32_t)cset[k]);
    asw_reg_write(sw, ASW_REG_CSET(k, 1), (uint32_t)(cset[k] >> 32));
  }
  uint32_t fwd[256];
  for (unsigned d = 0; d < c.table_entries; d++) {
    fwd[d] = d % 5 == 4 ? 0 /* invalid */ : asw_fwd_entry((unsigned)(rnd() % P), (unsigned)(rnd() % 64), (unsigned)(rnd() % 4), (unsigned)(rnd() % 2));
    CHECK(asw_reg_write(sw, ASW_REG_FWD(d), fwd[d]) == ASW_OK);
  }
  const unsigned default_port = (unsigned)(rnd() % P);
  asw_reg_write(sw, ASW_REG_DEFAULT_PORT, default_port);
  CHECK(asw_reg_write(sw, ASW_REG_VC_CTRL, vc_ctrl) == ASW_OK);
  for (unsigned o = 0; o < P; o++)
    for (unsigned s = 0; s < 16; s++) asw_reg_write(sw, ASW_REG_SL2VC(o, s), (unsigned)(rnd() % V));

  enum { MAXPKT = 1 << 16 };
  sent_pkt *pk = calloc(MAXPKT, sizeof *pk);
  uint32_t *last = calloc((size_t)P * 8 * 256 * 64, sizeof *last); /* (src,vc,dest,out) -> last id+1 */
  unsigned npk = 0, ndel = 0;
  traffic t;
  traffic_init(&t, &c);
  unsigned cur[64]; /* packet id in progress per input */
  int rx[64][8];    /* packet id in progress per output VC, -1 none */
  unsigned rx_idx[64][8];
  for (unsigned o = 0; o < 64; o++) for (unsigned v = 0; v < 8; v++) rx[o][v] = -1;
  asw_flit of[64];
  uint8_t ocr[64];
  uint32_t arn[64];
  asw_outputs out = {0, of, 0, ocr, 0, arn, 0, 0, 0, NULL};
  long cyc;
  for (cyc = 0; cyc < cycles + 3000; cyc++) {
    asw_inputs in;
    int gen = cyc < cycles;
    traffic_make(&t, &in, dests);
    if (!gen) { /* drain: only continue packets in progress, keep credits */
      uint64_t keep = 0;
      for (uint64_t m = in.flit_mask; m; m &= m - 1) {
        unsigned p = (unsigned)__builtin_ctzll(m);
        if (!t.flit[p].head) keep |= 1ull << p;
        else { t.left[p] = 0; t.cred[p][t.flit[p].vc] += ASW_HDR_LEN(t.flit[p].hdr); }
      }
      in.flit_mask = keep;
    }
    for (uint64_t m = in.flit_mask; m; m &= m - 1) {
      unsigned p = (unsigned)__builtin_ctzll(m);
      asw_flit *f = &t.flit[p];
      if (f->head) {
        if (npk == MAXPKT) { CHECK(npk < MAXPKT); goto done; }
        cur[p] = npk;
        /* src field names the input VC too, for the order check */
        f->hdr = (f->hdr & ~0xFFFF0000ull) | ((uint64_t)(p * 8 + f->vc) << 16);
        pk[npk] = (sent_pkt){f->hdr, ASW_HDR_LEN(f->hdr), p, f->vc, 0};
        npk++;
      }
      unsigned idx = pk[cur[p]].len - (t.left[p] + 1);
      f->payload = (uint64_t)cur[p] << 8 | idx;
    }
    if (gen && cyc % 50 == 7) { /* change routing and thresholds on the bus */
      in.reg_en = 1;
      in.reg_we = 1;
      switch ((cyc / 50) % 4) {
      case 0: in.reg_addr = ASW_REG_ROUTE_CTRL; in.reg_wdata = asw_route_ctrl((unsigned)(rnd() % 3), (unsigned)(rnd() % 3), (unsigned)rnd() & 0xFF, 1 + (unsigned)(rnd() % 3)); break;
      case 1: in.reg_addr = ASW_REG_THRESH; in.reg_wdata = (uint32_t)(2 + rnd() % 4) | (uint32_t)(8 + rnd() % 8) << 16; break;
      case 2: in.reg_addr = ASW_REG_LFSR_SEED; in.reg_wdata = (uint32_t)rnd(); break;
      default: in.reg_en = 1; in.reg_we = 0; in.reg_addr = ASW_REG_OCC(0, 0, 0); break;
      }
    }
    int rc = asw_switch_step(sw, &in, &out);
    CHECKF(rc == ASW_OK, "cycle %ld: %s", cyc, asw_switch_error(sw));
    if (rc != ASW_OK) break;
    traffic_account(&t, &out);
    for (uint64_t m = out.flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      const asw_flit *f = &of[o];
      unsigned id = (unsigned)(f->payload >> 8), idx = (unsigned)(f->payload & 0xFF);
      if (f->vc >= V || id >= npk) { CHECKF(0, "cycle %ld out %u: bad flit", cyc, o); goto done; }
      sent_pkt *s = &pk[id];
      if (f->head) {
        CHECKF(rx[o][f->vc] < 0, "cycle %ld out %u vc %u: head inside a packet", cyc, o, f->vc);
        CHECKF(!s->delivered && idx == 0 && f->hdr == s->hdr, "cycle %ld out %u: packet %u duplicated or corrupted", cyc, o, id);
        s->delivered = 1;
        ndel++;
        unsigned dest = ASW_HDR_DEST(s->hdr);
        uint32_t e = dest < c.table_entries ? fwd[dest] : 0;
        int adapted = ASW_HDR_ADAPTED(s->hdr) && (vc_ctrl & 2);
        int ok;
        if (!(e >> 31)) ok = o == default_port;
        else if ((e >> 30 & 1) && !adapted) ok = o == (e & 63) || (cset[e >> 16 & 3] >> o & 1);
        else ok = o == (e & 63);
        CHECKF(ok, "packet %u for dest %u (entry 0x%08x) left on output %u", id, dest, e, o);
        if (adapted) CHECKF(f->vc == V - 1, "adapted packet on vc %u", f->vc);
        uint32_t *l = &last[((s->src * 8 + s->vc) * 256 + dest) * 64 + o];
        CHECKF(*l <= id, "packet %u overtook packet %u on (input %u, vc %u, dest %u, output %u)", id, *l - 1, s->src, s->vc, dest, o);
        *l = id + 1;
        rx[o][f->vc] = (int)id;
        rx_idx[o][f->vc] = 0;
      } else {
        CHECKF(rx[o][f->vc] == (int)id && idx == rx_idx[o][f->vc] + 1 && f->hdr == 0,
               "cycle %ld out %u vc %u: flit of packet %u idx %u out of place", cyc, o, f->vc, id, idx);
        rx_idx[o][f->vc] = idx;
      }
      CHECKF(!!f->tail == (idx + 1 == s->len), "packet %u flit %u tail %u", id, idx, f->tail);
      if (f->tail) rx[o][f->vc] = -1;
    }
    if (test_failed_checks) break;
    if (!gen && ndel == npk && asw_switch_idle(sw)) break;
  }
  if (getenv("ASW_TEST_VERBOSE")) fprintf(stderr, "    scoreboard P=%u: %u packets, %ld cycles\n", P, npk, cyc);
  CHECKF(ndel == npk, "%u of %u packets delivered", ndel, npk);
  CHECK(npk > (unsigned)cycles / 8); /* the run did carry traffic */
  CHECK(asw_switch_idle(sw));
done:
  free(pk);
  free(last);
  asw_switch_free(sw);
}

void test_random_traffic_scoreboard(void) {
  scoreboard_run(5, 3, 1, 0, test_quick ? 4000 : 15000, 11);
  scoreboard_run(5, 3, 0, 1, test_quick ? 4000 : 15000, 12);  /* FIFO inputs, OBQA */
  scoreboard_run(7, 4, 1, 3, test_quick ? 4000 : 15000, 13);  /* OBQA + AFI */
  scoreboard_run(6, 2, 1, 2, test_quick ? 4000 : 15000, 14);  /* SL table + AFI */
  scoreboard_run(33, 2, 1, 2, test_quick ? 2000 : 6000, 15);
  scoreboard_run(2, 1, 0, 0, test_quick ? 4000 : 15000, 16);
}

/* ---------------------------------------------------------------------- */
/* ARN (§15; from test_arn.c, whose unit tests do not use the application's
 * study): random single-switch studies with the mechanism on, thresholds and
 * timers small so roots, ARNs, consumption, expiry and eviction happen:
 * the scoreboard checks every flit (nothing lost, duplicated, corrupted,
 * reordered, on a wrong port or VC) and the switch drains idle. */
void test_arn_random_studies(void) {
  uint64_t roots = 0, consumed = 0, adapted = 0, expired = 0, sent = 0;
  unsigned runs = test_quick ? 6 : 24;
  uint32_t rng = 99;
  for (unsigned k = 0; k < runs; k++) {
    rng = rng * 1664525u + 1013904223u;
    study_params sp;
    study_defaults(&sp);
    sp.sw.ports = 4 + (rng >> 8) % 13;
    sp.sw.vcs = 2 + (rng >> 12) % 3;
    sp.sw.buf_flits = 16 + (rng >> 14) % 48;
    sp.sw.max_packet = 8;
    sp.sw.arn_entries = 1 + (rng >> 3) % 8;
    sp.packet_flits = 1 + (rng >> 17) % 4;
    sp.routing = k % 3; /* every routing with and without up ports */
    sp.trigger = ASW_TRIG_NOTH;
    sp.arn = 1 + (rng >> 22) % 2;
    sp.arn_up = k / 3 % 2;
    sp.hcdth = sp.sw.buf_flits / 2;
    sp.lcdth = sp.sw.buf_flits / 4;
    sp.fcth = sp.sw.buf_flits / 2;
    sp.crt = 5 + (rng >> 24) % 40;
    sp.arn_ttl = 20 + (rng >> 26) % 200;
    sp.dest = STUDY_DEST_HOTSPOT;
    sp.hot_port = (rng >> 5) % sp.sw.ports;
    sp.hot_fraction = 0.2 + 0.1 * ((rng >> 28) % 4);
    sp.load = 0.3 + 0.1 * ((rng >> 29) % 5);
    sp.credit_delay = 1 + (rng >> 30);
    sp.cycles = test_quick ? 2000 : 5000;
    sp.warmup = 100;
    sp.seed = k + 1;
    sp.drain = 400000;
    study_result r;
    char err[300];
    int rc = study_run(&sp, &r, err, sizeof err);
    CHECKF(rc == 0, "run %u (P=%u V=%u BUF=%u AE=%u routing %u arn %u up %u): %s", k,
           sp.sw.ports, sp.sw.vcs, sp.sw.buf_flits, sp.sw.arn_entries, sp.routing, sp.arn,
           sp.arn_up, err);
    if (rc) continue;
    CHECK(r.drained && r.packets_delivered == r.packets_generated);
    roots += r.roots_declared;
    consumed += r.arn_consumed;
    adapted += r.packets_adapted;
    expired += r.arn_expired;
    sent += r.arn_sent;
  }
  if (getenv("ARN_STATS"))
    fprintf(stderr, "roots %llu consumed %llu adapted %llu expired %llu sent %llu\n",
            (unsigned long long)roots, (unsigned long long)consumed, (unsigned long long)adapted,
            (unsigned long long)expired, (unsigned long long)sent);
  CHECK(roots > 0 && consumed > 0 && adapted > 0 && expired > 0 && sent > 0);
}
