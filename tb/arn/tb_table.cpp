// tb_table.cpp — lockstep test of rtl/arn_table.sv against the C model's ARN
// table (cmodel/arn_table.c via arn_ref.c): identical random stimulus (root
// events, received messages, RC lookups, FWD/CSET/CRED, mode, STAGE, ARN_TTL,
// mode-0 writes) in phases that favour refresh, replacement, eviction, expiry
// and FIFO drops; every cycle compares the root FIFO pop, every lookup result,
// every counter increment, every entry field and every ARN output register.
// Usage: tb_table SEED CYCLES
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "Varn_table.h"
#include "arn_ref.h"
#include "bits.h"

static const unsigned P = CFG_P, V = CFG_V, BUF = CFG_BUF, AE = CFG_AE, TABLE = CFG_TABLE;

// Counter index k of §15.8 and the RTL strobe that carries it.
enum { K_SENT = 1, K_RECEIVED = 2, K_CONSUMED = 3, K_EXPIRED = 4, K_ADAPTED = 5, K_IN_DROPPED = 6,
       K_OUT_DROPPED = 7, K_EVICTED = 8 };

static uint16_t fwd16(uint32_t w) {  // regs.sv: {wd[31], wd[30], wd[17:16], wd[13:8], wd[5:0]}
  return (uint16_t)((w >> 31 & 1u) << 15 | (w >> 30 & 1u) << 14 | (w >> 16 & 3u) << 12 |
                    (w >> 8 & 0x3Fu) << 6 | (w & 0x3Fu));
}

// ---- directed prologue (every run with AE >= 2): §15.3–§15.6 timelines checked
// against explicit expected values. STAGE 2, ARN_TTL 10, FWD[1] multipath over all
// ports from det_port 0, CRED[o][*] = o (port P-1 has the most credits).
// Root events {dest 1, port 0, vc 0, stage 2}: id 7 pushed in 0 (new, consumed) and
// 6 (refresh), id 8 in 8 (replace), id 9 adapted in 11 (invalidate only). Message
// {id 3, stage 3, vc 0, dest 0} received on output 1 in 3 (not consumed). Lookups:
// input 0 (dest 1) in 2, input 1 (dest 0) in 6 and 7 (same message: de-duplicated).
static const uint64_t kDirected = 16;

static void fail_directed(uint64_t t, const char *what) {
  std::printf("DIRECTED cycle %llu: %s\n", (unsigned long long)t, what);
  std::exit(1);
}

template <typename T>
static uint64_t field(const T &sig, unsigned k, unsigned w) { return getb(sig, k * w, w); }

static void directed_check_comb(uint64_t t, Varn_table *d) {
  const unsigned PIW = idx_w(P);
  if ((t == 1 || t == 7 || t == 9 || t == 12) != (bool)d->root_pop_o)
    fail_directed(t, "root events not processed the cycle after their push");
  if ((t == 1 || t == 9) != (bool)getb(d->cnt_consumed_o, 0, 1)) fail_directed(t, "consumed strobe of port 0");
  if (t == 2 && (!getb(d->lk_consumed_o, 0, 1) || field(d->lk_alt_port_o, 0, PIW) != P - 1 ||
                 !getb(d->cnt_adapted_o, 0, 1)))
    fail_directed(t, "input 0 not sent to the alternative port P-1");
  if ((t == 6 || t == 7) && (!getb(d->lk_notify_o, 1, 1) || getb(d->lk_consumed_o, 1, 1)))
    fail_directed(t, "input 1 lookup of dest 0 is not a notification");
  if ((t == 7) != (bool)getb(d->cnt_sent_o, 1, 1)) fail_directed(t, "ARN sent on input 1 only in cycle 7");
  if (t == 14 && getb(d->cnt_expired_o, 1 * cnt_w(AE), cnt_w(AE)) != 1)
    fail_directed(t, "entry of port 1 not expired ARN_TTL cycles after its write");
}

static void directed_check_state(uint64_t t, Varn_table *d) {
  const unsigned PIW = idx_w(P);
  if (t == 1 && !(getb(d->ent_valid_o, 0, 1) && field(d->ent_dest_o, 0, 16) == 1 &&
                  field(d->ent_port_o, 0, PIW) == 0 && getb(d->ent_consumed_o, 0, 1) &&
                  field(d->ent_alt_port_o, 0, PIW) == P - 1 && field(d->ent_id_o, 0, 9) == 7 &&
                  field(d->ent_ttl_o, 0, 24) == 10))
    fail_directed(t, "entry 0 {dest 1, port 0, id 7, consumed, alt P-1, ttl 10}");
  if (t == 4 && !(getb(d->ent_valid_o, 1, 1) && field(d->ent_dest_o, 1, 16) == 0 &&
                  field(d->ent_port_o, 1, PIW) == 1 && !getb(d->ent_consumed_o, 1, 1) &&
                  field(d->ent_id_o, 1, 9) == 3 && field(d->ent_stage_o, 1, 4) == 3))
    fail_directed(t, "entry 1 {dest 0, port 1, id 3, stage 3, not consumed}");
  if (t == 7) {
    if (!getb(d->arn_out_valid_o, 1, 1) || field(d->arn_out_data_o, 1, 32) != (3u << 23 | 3u << 19))
      fail_directed(t, "ARN {id 3, stage 3, vc 0, dest 0} not on arn_out[1] two cycles after RC");
    if (field(d->ent_ttl_o, 0, 24) != 10 || field(d->ent_id_o, 0, 9) != 7)
      fail_directed(t, "entry 0 not refreshed");
  }
  if (t == 8 && getb(d->arn_out_valid_o, 1, 1)) fail_directed(t, "duplicate ARN was queued");
  if (t == 9 && !(getb(d->ent_valid_o, 0, 1) && field(d->ent_id_o, 0, 9) == 8 &&
                  getb(d->ent_valid_o, 1, 1)))
    fail_directed(t, "entry 0 not replaced by id 8 in place");
  if (t == 12 && getb(d->ent_valid_o, 0, 1)) fail_directed(t, "adapted root event did not invalidate entry 0");
  if (t == 13 && !getb(d->ent_valid_o, 1, 1)) fail_directed(t, "entry 1 expired early");
  if (t == 14 && getb(d->ent_valid_o, 1, 1)) fail_directed(t, "entry 1 still valid");
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
  uint64_t cycles = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 20000;
  const unsigned VW = idx_w(V), PIW = idx_w(P), CW = cnt_w(BUF), EXW = cnt_w(AE);
  Rng rng(seed);
  tb_ref *ref = tb_ref_new(P, V, BUF, AE, TABLE);
  if (!ref) {
    std::printf("tb_table: cannot allocate the C model\n");
    return 1;
  }
  Varn_table *dut = new Varn_table;
  std::vector<uint32_t> fwd(TABLE, 0);
  std::vector<unsigned> cred(P * V, BUF);
  uint64_t cset[4] = {0, 0, 0, 0};
  const uint64_t pmask = P >= 64 ? ~0ull : ((1ull << P) - 1);
  unsigned mode = 1, stage = 1, ttl = 20, alt_refresh = 0;
  int off_cycles = 0;
  // phase knobs
  unsigned p_root = 30, p_in = 10, p_lk = 40, ndest = 4;
  std::vector<uint32_t> cnt(P * 16, 0);
  // out-drop stays 0: the output FIFO never holds more than one message (§15.6).
  unsigned long cov_evict = 0, cov_expire = 0, cov_in_drop = 0, cov_out_drop = 0, cov_afi = 0,
                cov_modeoff = 0, cov_lk_cons = 0, cov_lk_notify = 0;
  const int kinds[] = {K_SENT, K_RECEIVED, K_CONSUMED, K_EXPIRED, K_ADAPTED, K_IN_DROPPED,
                       K_OUT_DROPPED, K_EVICTED};

  for (unsigned d = 0; d < TABLE; d++) {
    fwd[d] = 1u << 31 | 1u << 30 | (d & 3u) << 16 | rng.below(P);
    tb_ref_fwd(ref, d, fwd[d]);
  }
  for (unsigned c = 0; c < 4; c++) cset[c] = rng.next() & pmask;

  dut->clk_i = 0;
  dut->rst_ni = 0;
  dut->eval();
  dut->rst_ni = 1;
  dut->eval();

  for (uint64_t cyc = 0; cyc < cycles; cyc++) {
    // ---- stimulus ----
    if (cyc % 2000 == 0) {  // new phase
      switch (rng.below(4)) {
      case 0: p_root = 30; p_in = 10; p_lk = 40; ndest = 4; ttl = 5 + rng.below(40); break;
      case 1: p_root = 60; p_in = 70; p_lk = 20; ndest = 12; ttl = 200 + rng.below(400); break;  // full
      case 2: p_root = 10; p_in = 5; p_lk = 70; ndest = 3; ttl = 1 + rng.below(3); break;       // expiry
      default: p_root = 40; p_in = 40; p_lk = 90; ndest = 2; ttl = 30 + rng.below(100); break;  // drops
      }
    }
    if (rng.chance(2)) {
      mode = (V > 1 && rng.chance(50)) ? 2 : 1;
      stage = rng.below(4);
      alt_refresh = rng.chance(50);
    }
    if (rng.chance(1)) ttl = 1 + rng.below(rng.chance(50) ? 4 : 300);
    if (rng.chance(3)) {
      unsigned d = rng.below(TABLE);
      fwd[d] = (rng.chance(90) ? 1u << 31 : 0) | (rng.chance(85) ? 1u << 30 : 0) |
               rng.below(4) << 16 | rng.below(64) << 8 | rng.below(P);
    }
    if (rng.chance(2)) cset[rng.below(4)] = rng.next() & pmask;
    for (unsigned n = rng.below(4); n; n--) cred[rng.below(P * V)] = rng.below(BUF + 1);
    int clear = 0;
    int on = off_cycles == 0;
    if (off_cycles) {
      off_cycles--;
    } else if (rng.chance(1) && rng.chance(10)) {
      clear = 1;  // ARN_CTRL written with mode 0; mode back on a few cycles later
      off_cycles = rng.below(4);
      cov_modeoff++;
    }
    unsigned cur_mode = on ? mode : 0;
    // root event pushed at the end of the cycle (the detector's FIFO had room)
    int root_push = on && tb_ref_root_count(ref) < 4 && rng.chance(p_root);
    arn_ref_event rev{};
    rev.dest = rng.below(ndest + 2);
    rev.port = rng.below(P);
    rev.vc = rng.chance(95) ? rng.below(V) : rng.below(8);
    rev.stage = rng.chance(60) ? stage : rng.below(16);
    rev.id = rng.below(4);
    rev.adapted = rng.chance(10);
    std::vector<int> in_valid(P), lk_valid(P), lk_adapted(P), kind(P, 0);
    std::vector<uint32_t> in_msg(P);
    std::vector<unsigned> lk_dest(P), lk_vc(P), lk_orig_vc(P), alt(P, 0);
    for (unsigned p = 0; p < P; p++) {
      in_valid[p] = rng.chance(p_in);
      unsigned vc = rng.chance(95) ? rng.below(V) : rng.below(8);
      unsigned st = rng.chance(60) ? stage : rng.below(16);
      in_msg[p] = (rng.below(4) << 23) | (st << 19) | (vc << 16) | rng.below(ndest + 2);
      lk_valid[p] = on && rng.chance(p_lk);
      lk_dest[p] = rng.below(ndest + 2);
      lk_vc[p] = rng.below(V);
      lk_adapted[p] = rng.chance(20);  // an adapted head's lookup (ARN_CTRL.adapted_arn)
      lk_orig_vc[p] = rng.chance(95) ? rng.below(V) : rng.below(8);
    }

    // ---- directed prologue (AE >= 2): replaces this cycle's random stimulus ----
    const bool directed = AE >= 2 && cyc < kDirected;
    if (directed) {
      fwd[1] = 1u << 31 | 1u << 30 | 0u << 16 | 0u;  // multipath, CSET[0], det_port 0
      cset[0] = pmask;
      for (unsigned o = 0; o < P; o++)
        for (unsigned v = 0; v < V; v++) cred[o * V + v] = o < BUF ? o : BUF;  // P-1 richest
      mode = 1;
      stage = 2;
      ttl = 10;
      clear = 0;
      off_cycles = 0;
      on = 1;
      cur_mode = 1;
      root_push = cyc == 0 || cyc == 6 || cyc == 8 || cyc == 11;
      rev = arn_ref_event{1, 0, 0, 2, cyc == 8 ? 8u : cyc == 11 ? 9u : 7u, cyc == 11 ? 1u : 0u};
      for (unsigned p = 0; p < P; p++) {
        in_valid[p] = cyc == 3 && p == 1;
        in_msg[p] = 3u << 23 | 3u << 19 | 0u << 16 | 0u;  // id 3, stage 3, vc 0, dest 0
        lk_valid[p] = (cyc == 2 && p == 0) || ((cyc == 6 || cyc == 7) && p == 1);
        lk_dest[p] = p == 0 ? 1 : 0;
        lk_vc[p] = 0;
        lk_adapted[p] = 0;
      }
      alt_refresh = 0;
    }

    // ---- RTL inputs (state at the start of the cycle) ----
    unsigned root_count = tb_ref_root_count(ref);
    arn_ref_event rh = tb_ref_root_head(ref);
    dut->mode_i = cur_mode;
    dut->clear_i = clear;
    dut->alt_refresh_i = alt_refresh;
    dut->stage_i = stage;
    dut->arn_ttl_i = ttl;
    dut->root_valid_i = root_count != 0;
    dut->root_dest_i = rh.dest;
    dut->root_port_i = rh.port;
    dut->root_vc_i = rh.vc;
    dut->root_stage_i = rh.stage & 0xFu;
    dut->root_id_i = rh.id;
    dut->root_adapted_i = rh.adapted;
    for (unsigned p = 0; p < P; p++) {
      setb(dut->arn_in_valid_i, p, 1, on && in_valid[p]);
      setb(dut->arn_in_data_i, p * 32, 32, in_msg[p]);
      setb(dut->lk_valid_i, p, 1, lk_valid[p]);
      setb(dut->lk_dest_i, p * 16, 16, lk_dest[p]);
      setb(dut->lk_vc_i, p * VW, VW, lk_vc[p]);
      setb(dut->lk_adapted_i, p, 1, lk_adapted[p]);
      setb(dut->lk_orig_vc_i, p * 3, 3, lk_orig_vc[p]);
    }
    for (unsigned c = 0; c < 4; c++) setb(dut->cset_i, c * P, P, cset[c]);
    for (unsigned k = 0; k < P * V; k++) setb(dut->cred_i, k * CW, CW, cred[k]);
    dut->eval();
    {
      unsigned a = (unsigned)dut->fwd_addr_o;
      dut->fwd_entry_i = a < TABLE ? fwd16(fwd[a]) : 0;
      dut->eval();
    }

    // ---- C model: the whole cycle ----
    tb_ref_regs(ref, cur_mode, stage, ttl, alt_refresh);
    for (unsigned d = 0; d < TABLE; d++) tb_ref_fwd(ref, d, fwd[d]);
    for (unsigned c = 0; c < 4; c++) tb_ref_cset(ref, c, cset[c]);
    for (unsigned o = 0; o < P; o++)
      for (unsigned v = 0; v < V; v++) tb_ref_cred(ref, o, v, cred[o * V + v]);
    std::vector<int> in_on(P);
    for (unsigned p = 0; p < P; p++) in_on[p] = on && in_valid[p];
    int popped = tb_ref_cycle(ref, lk_valid.data(), lk_dest.data(), lk_vc.data(),
                              lk_adapted.data(), lk_orig_vc.data(), kind.data(),
                              alt.data(), root_push, &rev, in_on.data(), in_msg.data(), clear);

    // ---- compare this cycle's combinational results ----
    CHECK(cyc, "root FIFO pop", popped == 0, dut->root_pop_o);
    if (directed) directed_check_comb(cyc, dut);
    for (unsigned i = 0; i < P; i++) {
      if (!lk_valid[i]) continue;
      CHECK(cyc, "lookup consumed (step 1)", kind[i] == 1, getb(dut->lk_consumed_o, i, 1));
      CHECK(cyc, "lookup notify (step 2)", kind[i] == 2, getb(dut->lk_notify_o, i, 1));
      if (kind[i] == 1) {
        CHECK(cyc, "lookup alt_port", alt[i], getb(dut->lk_alt_port_o, i * PIW, PIW));
        cov_lk_cons++;
      }
      if (kind[i] == 2) cov_lk_notify++;
    }
    for (unsigned p = 0; p < P; p++) {
      for (int k : kinds) {
        uint32_t now = tb_ref_counter(ref, p, (unsigned)k);
        uint64_t inc = now - cnt[p * 16 + k], act = 0;
        cnt[p * 16 + k] = now;
        switch (k) {
        case K_SENT: act = getb(dut->cnt_sent_o, p, 1); break;
        case K_RECEIVED: act = getb(dut->cnt_received_o, p, 1); break;
        case K_CONSUMED:
          act = getb(dut->cnt_consumed_o, p, 1);
          if (inc && cur_mode == 2) cov_afi++;
          break;
        case K_EXPIRED: act = getb(dut->cnt_expired_o, p * EXW, EXW); cov_expire += inc; break;
        case K_ADAPTED: act = getb(dut->cnt_adapted_o, p, 1); break;
        case K_IN_DROPPED: act = getb(dut->cnt_in_dropped_o, p, 1); cov_in_drop += inc; break;
        case K_OUT_DROPPED: act = getb(dut->cnt_out_dropped_o, p, 1); cov_out_drop += inc; break;
        default: act = getb(dut->cnt_evicted_o, p, 1); cov_evict += inc; break;
        }
        if (inc != act) {
          std::printf("MISMATCH cycle %llu counter k=%d of port %u: expected (C) +%llu, actual (RTL) +%llu\n",
                      (unsigned long long)cyc, k, p, (unsigned long long)inc, (unsigned long long)act);
          return 1;
        }
      }
    }

    // ---- clock ----
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
    if (clear && off_cycles == 0) on = 1;

    // ---- compare state ----
    for (unsigned k = 0; k < AE; k++) {
      arn_ref_event e{};
      unsigned cons = 0, a = 0, t = 0;
      int valid = tb_ref_entry(ref, k, &e, &cons, &a, &t);
      char what[64];
      std::snprintf(what, sizeof what, "entry %u valid", k);
      CHECK(cyc, what, valid, getb(dut->ent_valid_o, k, 1));
      if (!valid) continue;
      std::snprintf(what, sizeof what, "entry %u dest", k);
      CHECK(cyc, what, e.dest, getb(dut->ent_dest_o, k * 16, 16));
      std::snprintf(what, sizeof what, "entry %u port", k);
      CHECK(cyc, what, e.port, getb(dut->ent_port_o, k * PIW, PIW));
      std::snprintf(what, sizeof what, "entry %u vc", k);
      CHECK(cyc, what, e.vc, getb(dut->ent_vc_o, k * 3, 3));
      std::snprintf(what, sizeof what, "entry %u stage (4 bits)", k);
      CHECK(cyc, what, e.stage & 0xFu, getb(dut->ent_stage_o, k * 4, 4));
      std::snprintf(what, sizeof what, "entry %u id", k);
      CHECK(cyc, what, e.id, getb(dut->ent_id_o, k * 9, 9));
      std::snprintf(what, sizeof what, "entry %u consumed", k);
      CHECK(cyc, what, cons, getb(dut->ent_consumed_o, k, 1));
      std::snprintf(what, sizeof what, "entry %u alt_port", k);
      CHECK(cyc, what, a, getb(dut->ent_alt_port_o, k * PIW, PIW));
      std::snprintf(what, sizeof what, "entry %u ttl", k);
      CHECK(cyc, what, t, getb(dut->ent_ttl_o, k * 24, 24));
    }
    for (unsigned i = 0; i < P; i++) {
      uint32_t msg = 0;
      int v = tb_ref_out(ref, i, &msg);
      CHECK(cyc, "arn_out valid", v, getb(dut->arn_out_valid_o, i, 1));
      CHECK(cyc, "arn_out data", v ? msg : 0, getb(dut->arn_out_data_o, i * 32, 32));
    }
    if (directed) directed_check_state(cyc, dut);
  }
  tb_ref_cov c = tb_ref_coverage(ref);
  dut->final();
  delete dut;
  tb_ref_free(ref);
  unsigned long all_src = (1ul << (P + 1)) - 1;
  std::printf("tb_table P=%u V=%u BUF=%u AE=%u TABLE=%u seed=%llu: %llu cycles equal; refresh %lu "
              "replace %lu adapted-event %lu consumed %lu (AFI %lu) no-alt %lu evicted %lu expired %lu "
              "in-drop %lu out-drop %lu dedup %lu lookups consumed %lu notify %lu, alt-port refresh %lu "
              "adapted-packet notify %lu, sources popped %s, mode-0 writes %lu\n",
              P, V, BUF, AE, TABLE, (unsigned long long)seed, (unsigned long long)cycles, c.refresh,
              c.replace, c.adapted_ev, c.consumed, cov_afi, c.no_alt, cov_evict, cov_expire,
              cov_in_drop, cov_out_drop, c.dedup, cov_lk_cons, cov_lk_notify, c.alt_refresh,
              c.adapted_notify, (c.sources_popped_mask & all_src) == all_src ? "all" : "NOT all", cov_modeoff);
  bool ok = c.refresh && c.alt_refresh && c.adapted_notify && c.replace && c.adapted_ev && c.consumed && c.no_alt && cov_evict &&
            cov_expire && cov_in_drop && c.dedup && cov_lk_cons && cov_lk_notify &&
            (c.sources_popped_mask & all_src) == all_src && cov_modeoff && (V == 1 || cov_afi);
  if (!ok) {
    std::printf("tb_table: coverage incomplete (a case above was never reached)\n");
    return 1;
  }
  return 0;
}
