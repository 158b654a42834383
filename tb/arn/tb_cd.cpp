// tb_cd.cpp — lockstep test of rtl/congestion_detector.sv against the C model's
// congestion detector (cmodel/congestion_detector.c via arn_ref.c) plus its root
// FIFO. Identical random stimulus (queue heads, occupancy events, credits,
// thresholds, CRT, ARN_UP, STAGE, FIFO pops, mode-0 writes); every cycle
// compares the declaration, the root FIFO head, every hot flag, hot count, timer,
// root, root id, next_id and the roots_declared strobes. Usage: tb_cd SEED CYCLES
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "Vcongestion_detector.h"
#include "arn_ref.h"
#include "bits.h"

static const unsigned P = CFG_P, V = CFG_V, BUF = CFG_BUF;

struct Head {
  int nonempty;
  unsigned ovc, dest, adapted, orig_vc, occ;
};

// ---- directed prologue (every run): contract §15.2 timelines checked against
// explicit expected values, not only against the C model ----
// Queue A = (i=1, v=0, o=0) toward UP port 0; queue B = (i=0, v=V-1, o=1), down
// port 1, adapted head. HCDTH = BUF-1, LCDTH = 2, FCTH = 1, CRT = 3, STAGE = 5, no
// root-FIFO pops until cycle 22.
static const uint64_t kDirected = 26;
static unsigned qa() { return (1 * V + 0) * P + 0; }
static unsigned qb() { return (0 * V + (V - 1)) * P + 1; }

static void directed_stimulus(uint64_t t, std::vector<Head> &q, std::vector<unsigned> &cred,
                              std::vector<int> &touch, int &pop, unsigned &h, unsigned &l,
                              unsigned &f, unsigned &c, uint64_t &up, unsigned &stage) {
  if (t == 0) {
    for (Head &x : q) x = Head{0, 0, 0, 0, 0, 0};
    for (unsigned &x : cred) x = BUF;
    for (unsigned k = 0; k < q.size(); k++) touch[k] = 1;  // all queues empty, not hot
    h = BUF - 1;
    l = 2;
    f = 1;
    c = 3;
    up = 1;
    stage = 5;
    q[qa()] = Head{1, 0, 9, 0, 0, BUF - 1};  // reaches HCDTH now
    touch[qa()] = 1;
  }
  if (t == 7) { q[qa()].occ = 2; touch[qa()] = 1; }   // between LCDTH and HCDTH: stays hot
  if (t == 10) cred[0 * V + 0] = 1;                     // no room downstream: a branch
  if (t == 12) { q[qa()].occ = 1; touch[qa()] = 1; }   // below LCDTH: cold
  if (t == 14) {
    q[qb()] = Head{1, 0, 3, 1, 5, BUF - 1};            // adapted head, orig_vc 5
    touch[qb()] = 1;
  }
  pop = t == 22;
}

static void fail_directed(uint64_t t, const char *what) {
  std::printf("DIRECTED cycle %llu: %s\n", (unsigned long long)t, what);
  std::exit(1);
}

// Declarations happen exactly in cycles 3, 6, 9 (output 0) and 17, 23 (output 1):
// CRT cycles of cond, 20-21 blocked by the full root FIFO, 22 by its start count.
static void directed_check_comb(uint64_t t, Vcongestion_detector *d) {
  bool want = t == 3 || t == 6 || t == 9 || t == 17 || t == 23;
  if ((bool)d->off_valid_o != want) fail_directed(t, "declaration not in the CRT timeline");
  if (want && d->off_port_o != (t < 12 ? 0u : 1u)) fail_directed(t, "wrong declaring output");
  bool strobe = t == 3 || t == 17;  // new roots only; 6, 9, 23 are refreshes
  if ((d->roots_declared_o != 0) != strobe) fail_directed(t, "roots_declared strobe");
}

static void directed_check_state(uint64_t t, Vcongestion_detector *d) {
  if (t == 3) {
    if (!(d->root_o & 1) || getb(d->root_id_o, 0, 9) != 0 || d->next_id_o != 1)
      fail_directed(t, "root 0 not declared with id 0");
    if (!d->rev_valid_o || d->rev_dest_o != 9 || d->rev_port_o != 0 || d->rev_vc_o != 0 ||
        d->rev_stage_o != 5 || d->rev_id_o != 0 || d->rev_adapted_o != 0)
      fail_directed(t, "root event {dest 9, port 0, vc 0, stage 5 (UP), id 0}");
  }
  if (t == 8 && !getb(d->hot_o, qa(), 1)) fail_directed(t, "hysteresis: queue A left hot above LCDTH");
  if ((t == 10 || t == 11) && getb(d->crt_o, 0, 24) != 0) fail_directed(t, "branch: timer not held at 0");
  if (t == 12 && (getb(d->hot_o, qa(), 1) || !(d->root_o & 1))) fail_directed(t, "cold queue / root kept one cycle");
  if (t == 13 && (d->root_o & 1)) fail_directed(t, "root 0 not cleared after its VOQs went cold");
  if (t == 17 && (!(d->root_o >> 1 & 1) || getb(d->root_id_o, 9, 9) != 1 || d->next_id_o != 2))
    fail_directed(t, "root 1 not declared with id 1");
  if ((t == 20 || t == 21) && getb(d->crt_o, 24, 24) != 3) fail_directed(t, "blocked timer not held at CRT");
  if (t == 23 && d->next_id_o != 2) fail_directed(t, "refresh consumed an id");
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
  uint64_t cycles = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 20000;
  const unsigned VW = idx_w(V), PIW = idx_w(P), CW = cnt_w(BUF), NQT = P * V * P;
  Rng rng(seed);
  cd_ref *ref = cd_ref_new(P, V, BUF);
  if (!ref) {
    std::printf("tb_cd: cannot allocate the C model\n");
    return 1;
  }
  Vcongestion_detector *dut = new Vcongestion_detector;
  std::vector<Head> q(NQT);
  std::vector<unsigned> cred(P * V, BUF);
  std::vector<uint32_t> roots(P, 0);
  unsigned hcdth = BUF > 1 ? BUF - 1 : 1, lcdth = 1, fcth = BUF / 2, crt = 2, stage = 1;
  uint64_t up = 0;
  int on = 1, off_cycles = 0;
  // coverage of the cases the test must reach
  unsigned long cov_new = 0, cov_refresh = 0, cov_clear = 0, cov_branch = 0, cov_hold = 0,
                cov_full = 0, cov_adapted = 0, cov_modeoff = 0;

  dut->clk_i = 0;
  dut->rst_ni = 0;
  dut->eval();
  dut->rst_ni = 1;
  dut->eval();

  for (uint64_t cyc = 0; cyc < cycles; cyc++) {
    // ---- stimulus ----
    std::vector<int> touch(NQT, 0);
    int clear = 0, pop = 0;
    if (cyc < kDirected) {
      directed_stimulus(cyc, q, cred, touch, pop, hcdth, lcdth, fcth, crt, up, stage);
      on = 1;
    } else {
    // Phases: long quiet stretches with the same registers let timers run out.
    if (rng.chance(2)) {
      hcdth = 1 + rng.below(BUF);
      lcdth = 1 + rng.below(hcdth);
      fcth = rng.below(BUF + 1);
      crt = 1 + rng.below(rng.chance(50) ? 3 : 12);
      up = rng.next() & ((P >= 64) ? ~0ull : ((1ull << P) - 1));
      stage = rng.below(16);
    }
    if (off_cycles) {
      if (--off_cycles == 0) on = 1;
    } else if (rng.chance(1) && rng.chance(20)) {
      clear = 1;  // ARN_CTRL written with mode 0 ...
      off_cycles = rng.below(4);
      cov_modeoff++;
    }
    for (unsigned n = rng.below(3); n; n--) {
      Head &h = q[rng.below(NQT)];
      h.nonempty = rng.chance(70);
      h.ovc = rng.below(V);
      h.dest = rng.below(4);
      h.adapted = rng.chance(10);
      h.orig_vc = rng.below(8);
    }
    for (unsigned n = rng.below(3); n; n--) cred[rng.below(P * V)] = rng.below(BUF + 1);
    for (unsigned k = 0; k < NQT; k++) {
      if (!rng.chance(15)) continue;
      touch[k] = 1;
      int d = (int)rng.below(5) - 2;
      int o = (int)q[k].occ + d;
      q[k].occ = o < 0 ? 0 : o > (int)BUF ? BUF : (unsigned)o;
    }
    pop = rng.chance(40);
    }

    // ---- C model, start of cycle ----
    cd_ref_regs(ref, hcdth, lcdth, fcth, crt, up, stage);
    for (unsigned i = 0; i < P; i++)
      for (unsigned v = 0; v < V; v++)
        for (unsigned o = 0; o < P; o++) {
          const Head &h = q[(i * V + v) * P + o];
          cd_ref_queue(ref, i, v, o, h.nonempty, h.ovc, h.dest, h.adapted, h.orig_vc);
        }
    for (unsigned o = 0; o < P; o++)
      for (unsigned v = 0; v < V; v++) cd_ref_cred(ref, o, v, cred[o * V + v]);
    std::vector<int> root_before(P);
    for (unsigned o = 0; o < P; o++) root_before[o] = cd_ref_root(ref, o);
    unsigned rf_before = cd_ref_rf_count(ref);
    arn_ref_event ev{};
    int declared = cd_ref_detect(ref, on, &ev);

    // ---- RTL inputs ----
    dut->on_i = on;
    dut->clear_i = clear;
    dut->hcdth_i = hcdth;
    dut->lcdth_i = lcdth;
    dut->fcth_i = fcth;
    dut->crt_i = crt;
    setb(dut->arn_up_i, 0, P, up);
    dut->stage_i = stage;
    for (unsigned k = 0; k < NQT; k++) {
      setb(dut->occ_touch_i, k, 1, touch[k]);
      setb(dut->occ_next_i, k * CW, CW, q[k].occ);
      setb(dut->q_nonempty_i, k, 1, q[k].nonempty);
      setb(dut->q_ovc_i, k * VW, VW, q[k].ovc);
    }
    for (unsigned k = 0; k < P * V; k++) setb(dut->cred_i, k * CW, CW, cred[k]);
    dut->rev_pop_i = pop;
    dut->eval();
    // header read port
    {
      unsigned i = dut->off_in_o, v = dut->off_vc_o, o = dut->off_port_o;
      const Head &h = q[(i * V + v) * P + o];
      dut->off_dest_i = h.dest;
      dut->off_adapted_i = h.adapted;
      dut->off_orig_vc_i = h.orig_vc;
      dut->eval();
    }
    CHECK(cyc, "declaration (off_valid_o)", declared, dut->off_valid_o);
    if (cyc < kDirected) directed_check_comb(cyc, dut);
    if (declared) {
      CHECK(cyc, "declaring output", ev.port, dut->off_port_o);
      if (root_before[ev.port]) cov_refresh++;
      else cov_new++;
      if (ev.adapted) cov_adapted++;
    }
    for (unsigned o = 0; o < P; o++) {
      uint32_t n = cd_ref_roots_declared(ref, o);
      CHECK(cyc, "roots_declared strobe", n - roots[o], getb(dut->roots_declared_o, o, 1));
      roots[o] = n;
    }
    // coverage: branch (an offender exists but downstream has no room), FIFO full
    for (unsigned o = 0; o < P && on; o++)
      for (unsigned k = 0; k < P * V; k++) {
        const Head &h = q[k * P + o];
        if (cd_ref_hot(ref, k / V, k % V, o) && h.nonempty) {
          if (cred[o * V + h.ovc] <= fcth) cov_branch++;
          else if (rf_before == 4 && cd_ref_crt(ref, o) + 1 >= crt) cov_full++;
          break;
        }
      }

    // ---- clock ----
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();

    // ---- C model, end of cycle ----
    for (unsigned k = 0; k < NQT; k++) {
      if (!touch[k]) continue;
      unsigned i = k / (V * P), v = k / P % V, o = k % P;
      int was = cd_ref_hot(ref, i, v, o);
      cd_ref_occ(ref, on, i, v, o, q[k].occ);
      if (on && was && q[k].occ < hcdth && q[k].occ >= lcdth && cd_ref_hot(ref, i, v, o)) cov_hold++;
    }
    for (unsigned o = 0; o < P; o++)
      if (on && root_before[o] && !cd_ref_root(ref, o)) cov_clear++;
    cd_ref_end(ref, pop, declared, &ev, clear);
    if (clear) on = off_cycles == 0 ? 1 : 0;

    // ---- compare state ----
    for (unsigned k = 0; k < NQT; k++) {
      unsigned i = k / (V * P), v = k / P % V, o = k % P;
      if ((uint64_t)cd_ref_hot(ref, i, v, o) != getb(dut->hot_o, k, 1)) {
        std::printf("MISMATCH cycle %llu hot[i=%u][v=%u][o=%u]: expected (C) %d, actual (RTL) %llu\n",
                    (unsigned long long)cyc, i, v, o, cd_ref_hot(ref, i, v, o),
                    (unsigned long long)getb(dut->hot_o, k, 1));
        return 1;
      }
    }
    for (unsigned o = 0; o < P; o++) {
      dut->hot_cnt_port_i = o;
      dut->eval();
      CHECK(cyc, "hot count", cd_ref_hot_cnt(ref, o), dut->hot_cnt_o);
      CHECK(cyc, "crt", cd_ref_crt(ref, o), getb(dut->crt_o, o * 24, 24));
      CHECK(cyc, "root", cd_ref_root(ref, o), getb(dut->root_o, o, 1));
      CHECK(cyc, "root_id", cd_ref_root(ref, o) ? cd_ref_root_id(ref, o) : 0,
            getb(dut->root_id_o, o * 9, 9));
    }
    CHECK(cyc, "next_id", cd_ref_next_id(ref), dut->next_id_o);
    CHECK(cyc, "root FIFO non-empty", cd_ref_rf_count(ref) != 0, dut->rev_valid_o);
    if (cd_ref_rf_count(ref)) {
      arn_ref_event h = cd_ref_rf_head(ref);
      CHECK(cyc, "root event dest", h.dest, dut->rev_dest_o);
      CHECK(cyc, "root event port", h.port, dut->rev_port_o);
      CHECK(cyc, "root event vc", h.vc, dut->rev_vc_o);
      CHECK(cyc, "root event stage (4 bits)", h.stage & 0xFu, dut->rev_stage_o);
      CHECK(cyc, "root event id", h.id, dut->rev_id_o);
      CHECK(cyc, "root event adapted", h.adapted, dut->rev_adapted_o);
    }
    if (cyc < kDirected) directed_check_state(cyc, dut);
  }
  (void)PIW;
  dut->final();
  delete dut;
  cd_ref_free(ref);
  std::printf("tb_cd P=%u V=%u BUF=%u seed=%llu: %llu cycles equal; roots new %lu refresh %lu "
              "cleared %lu, branch %lu, hysteresis hold %lu, FIFO-full block %lu, adapted offender %lu, "
              "mode-0 writes %lu\n",
              P, V, BUF, (unsigned long long)seed, (unsigned long long)cycles, cov_new, cov_refresh,
              cov_clear, cov_branch, cov_hold, cov_full, cov_adapted, cov_modeoff);
  if (!cov_new || !cov_refresh || !cov_clear || !cov_branch || !cov_hold || !cov_full ||
      !cov_adapted || !cov_modeoff) {
    std::printf("tb_cd: coverage incomplete (a case above was never reached)\n");
    return 1;
  }
  return 0;
}
