/* Switch AR (contract §17.8) on one switch: legality and mapping (SE, qcn off,
 * PARAM3, the register checks), the lane's timing (a received CNM leaves three
 * cycles later on the port FWD[src] gives, a random candidate by sar_rs), the
 * snoop (new entry, refresh, eviction of the smallest ttl), unroutable words,
 * the holding registers' drop rule, the AR timer in ticks of 2^TS cycles
 * (expiry cycle, the ttl view, a TS change keeping the ticks left), steering
 * in RC by level, the level decay option (SAR_CTRL.decay), the clear on en = 0, and the congestion point's own CNMs
 * forwarded through loc[]. */
#include <string.h>

#include "asw_switch.h"
#include "lfsr.h"
#include "test.h"
#include "test_drv.h"

/* off: the §1 features left out (ASW_FEAT_* bits), every other one built. */
static int sar_init(test_drv *d, unsigned P, unsigned SE, unsigned off) {
  asw_config c;
  asw_config_default(&c);
  c.ports = P;
  c.vcs = 2;
  c.buf_flits = 16;
  c.max_packet = 4;
  c.payload_bits = 16;
  asw_config_set_features(&c, ASW_FEAT_ALL & ~off);
  c.sar_entries = SE;
  return test_drv_init_cfg(d, &c);
}

static uint32_t scnt(const asw_switch *sw, unsigned p, unsigned k) {
  return test_rd(sw, ASW_REG_SAR_COUNTER(p, k));
}

/* Steps until cycle `until` (exclusive) with no inputs, failing if a CNM leaves. */
static void idle_steps(test_drv *d, unsigned n) {
  for (unsigned k = 0; k < n; k++) {
    CHECK(test_drv_step(d) == ASW_OK);
    CHECKF(d->out.cnm_mask == 0, "unexpected CNM on the lane (mask 0x%llx)",
           (unsigned long long)d->out.cnm_mask);
  }
}

void test_sar_legality(void) {
  test_drv d;
  asw_config c;
  asw_config_default(&c);
  c.sar_entries = 33;
  char err[200];
  CHECK(asw_config_check(&c, err, sizeof err) == ASW_EINVAL);
  CHECKF(strstr(err, "SE (sar_entries)") != NULL, "%s", err);
  if (sar_init(&d, 4, 0, 0)) return; /* SE = 0: unmapped */
  CHECK((test_rd(d.sw, ASW_REG_PARAM3) & 0x3Fu) == 0);
  CHECK(asw_reg_write(d.sw, ASW_REG_SAR_CTRL, 1) == ASW_EINVAL);
  CHECK(test_rd(d.sw, ASW_REG_SAR_TTL) == 0);
  asw_switch_free(d.sw);
  if (sar_init(&d, 4, 4, ASW_FEAT_QCN)) return; /* qcn off: none either */
  CHECK((test_rd(d.sw, ASW_REG_PARAM3) & 0x3Fu) == 0);
  CHECK(asw_reg_write(d.sw, ASW_REG_SAR_CTRL, 1) == ASW_EINVAL);
  asw_switch_free(d.sw);
  if (sar_init(&d, 4, 4, 0)) return;
  asw_switch *sw = d.sw;
  CHECK((test_rd(sw, ASW_REG_PARAM3) & 0x3Fu) == 4);
  CHECK(asw_reg_write(sw, ASW_REG_PARAM3, 1) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_SAR_TTL) == 4096); /* reset: TTL 4096, TS 0 */
  CHECK(test_rd(sw, ASW_REG_SAR_SEED) == 1);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, 0x80) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl_decay(1, 0, 25)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_TTL, asw_sar_ttl(0, 0)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_TTL, asw_sar_ttl(5, 25)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_TTL, asw_sar_ttl(5, 1) | 1u << 29) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_SEED, 1u << 16) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_COUNTER(0, 0), 0) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_ENTRY(0, 0), 0) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 9);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_TTL, asw_sar_ttl(7, 24)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_SAR_TTL) == asw_sar_ttl(7, 24));
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 1)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_SAR_CTRL) == 3);
  CHECK(!asw_switch_idle(sw)); /* the lane and the AR timer run every cycle */
  asw_switch_free(sw);
}

/* The forwarding port of a multipath CNM for the LFSR state *rs over cand. */
static unsigned rand_port(uint16_t *rs, uint64_t cand) {
  unsigned n = (unsigned)__builtin_popcountll(cand);
  *rs = asw_lfsr_next(*rs);
  unsigned k = (unsigned)(((uint32_t)*rs * n) >> 16);
  while (k--) cand &= cand - 1;
  return (unsigned)__builtin_ctzll(cand);
}

void test_sar_forward_and_snoop(void) {
  test_drv d;
  if (sar_init(&d, 4, 2, 0)) return;
  asw_switch *sw = d.sw;
  /* sources 9 (multipath over ports 1..3, det 1) and 10 (single path, port 2); 11 invalid */
  CHECK(asw_reg_write(sw, ASW_REG_CSET(0, 0), 0xE) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_FWD(9), asw_fwd_entry(1, 0, 0, 1)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_FWD(10), asw_fwd_entry(2, 0, 0, 0)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_SEED, 0x1234) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 0)) == ASW_OK);
  uint16_t rs = 0x1234;
  /* 20 CNMs from port 0, one every 4 cycles: each leaves 3 cycles later */
  for (unsigned k = 0; k < 20; k++) {
    uint64_t w = asw_cnm_make(9, 5, 1 + k, 3, 77);
    d.in.cnm_mask = 1;
    d.in_cnm[0] = w;
    CHECK(test_drv_step(&d) == ASW_OK);
    idle_steps(&d, 2);
    CHECK(test_drv_step(&d) == ASW_OK);
    unsigned o = rand_port(&rs, 0xE);
    CHECKF(d.out.cnm_mask == 1ull << o, "CNM %u: lane mask 0x%llx, expected port %u", k,
           (unsigned long long)d.out.cnm_mask, o);
    CHECK(d.out_cnm[o] == w);
  }
  CHECK(scnt(sw, 0, ASW_SCNT_RX) == 20);
  CHECK(scnt(sw, 1, ASW_SCNT_TX) + scnt(sw, 2, ASW_SCNT_TX) + scnt(sw, 3, ASW_SCNT_TX) == 20);
  /* one entry {5, 0} refreshed 20 times, level of the last CNM */
  uint32_t w0 = test_rd(sw, ASW_REG_SAR_ENTRY(0, 0));
  CHECKF(w0 == (5u | 0u << 16 | 20u << 22 | 1u << 31), "entry 0 w0 0x%08x", w0);
  CHECK(test_rd(sw, ASW_REG_SAR_ENTRY(1, 0)) == 0);
  /* single path: det_port; invalid entry: nowhere, counted at the port it came from */
  d.in.cnm_mask = 1u << 3 | 1u << 1;
  d.in_cnm[3] = asw_cnm_make(10, 6, 9, 0, 1);
  d.in_cnm[1] = asw_cnm_make(11, 7, 9, 0, 1);
  CHECK(test_drv_step(&d) == ASW_OK); /* rx[1], rx[3] filled */
  CHECK(test_drv_step(&d) == ASW_OK); /* stage A: rx[1] (ptr is 1 after source 0) */
  CHECK(test_drv_step(&d) == ASW_OK); /* stage B: unroutable; stage A: rx[3] */
  CHECK(d.out.cnm_mask == 0);
  CHECK(test_drv_step(&d) == ASW_OK); /* stage B: to port 2 */
  CHECK(d.out.cnm_mask == 0);
  CHECK(test_drv_step(&d) == ASW_OK);
  CHECK(d.out.cnm_mask == 1u << 2 && d.out_cnm[2] == asw_cnm_make(10, 6, 9, 0, 1));
  CHECK(scnt(sw, 1, ASW_SCNT_UNROUTABLE) == 1);
  /* the table (SE = 2) now holds {5,0} and, after {7,1} and {6,3}, the oldest was evicted */
  CHECK(scnt(sw, 0, ASW_SCNT_EVICTED) == 1);
  w0 = test_rd(sw, ASW_REG_SAR_ENTRY(0, 0));
  uint32_t w1 = test_rd(sw, ASW_REG_SAR_ENTRY(1, 0));
  CHECKF(w0 == (6u | 3u << 16 | 9u << 22 | 1u << 31) && w1 == (7u | 1u << 16 | 9u << 22 | 1u << 31),
         "entries 0x%08x 0x%08x", w0, w1);
  /* holding registers: a word on a port whose rx is still full is dropped */
  d.in.cnm_mask = 0xF;
  for (unsigned p = 0; p < 4; p++) d.in_cnm[p] = asw_cnm_make(10, 20 + p, 1, 0, 1);
  CHECK(test_drv_step(&d) == ASW_OK);
  d.in.cnm_mask = 0xF; /* stage A pops one of the four now: three are dropped */
  for (unsigned p = 0; p < 4; p++) d.in_cnm[p] = asw_cnm_make(10, 30 + p, 1, 0, 1);
  CHECK(test_drv_step(&d) == ASW_OK);
  unsigned dropped = 0;
  for (unsigned p = 0; p < 4; p++) dropped += scnt(sw, p, ASW_SCNT_DROPPED);
  CHECK(dropped == 3);
  unsigned sent = 0;
  for (unsigned k = 0; k < 12; k++) {
    CHECK(test_drv_step(&d) == ASW_OK);
    sent += (unsigned)__builtin_popcountll(d.out.cnm_mask);
  }
  CHECKF(sent == 5, "%u words left, expected 4 + 1", sent);
  /* en = 0 clears the table */
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, 0) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_SAR_ENTRY(0, 0)) == 0 && test_rd(sw, ASW_REG_SAR_ENTRY(1, 0)) == 0);
  asw_switch_free(sw);
}

/* Cycle at which an entry written in cycle c expires (its last valid cycle). */
static uint64_t expiry(uint64_t c, unsigned ttl, unsigned ts) {
  uint64_t M = (1ull << ts) - 1, t1 = (c | M) == c ? c + M + 1 : (c | M);
  return t1 + (uint64_t)(ttl - 1) * (M + 1);
}

void test_sar_timer(void) {
  for (unsigned ts = 0; ts <= 3; ts++)
    for (unsigned start = 0; start < 9; start++) {
      test_drv d;
      if (sar_init(&d, 4, 4, 0)) return;
      asw_switch *sw = d.sw;
      CHECK(asw_reg_write(sw, ASW_REG_FWD(9), asw_fwd_entry(1, 0, 0, 0)) == ASW_OK);
      CHECK(asw_reg_write(sw, ASW_REG_SAR_TTL, asw_sar_ttl(3, ts)) == ASW_OK);
      CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 0)) == ASW_OK);
      uint64_t cyc = 0;
      for (; cyc < start; cyc++) CHECK(test_drv_step(&d) == ASW_OK);
      d.in.cnm_mask = 1;
      d.in_cnm[0] = asw_cnm_make(9, 5, 4, 0, 0);
      CHECK(test_drv_step(&d) == ASW_OK); /* cycle start: rx; +1 stage A; +2 stage B */
      cyc++;
      const uint64_t wr = start + 2, last = expiry(wr, 3, ts);
      for (; cyc <= last + 1; cyc++) {
        /* registers read between steps show the start of cycle cyc */
        uint32_t w0 = test_rd(sw, ASW_REG_SAR_ENTRY(0, 0));
        uint32_t ttl = test_rd(sw, ASW_REG_SAR_ENTRY(0, 1));
        int valid = cyc > wr && cyc <= last;
        CHECKF((w0 >> 31) == (unsigned)valid, "TS %u start %u cycle %llu: valid %u, expected %d",
               ts, start, (unsigned long long)cyc, w0 >> 31, valid);
        if (valid) {
          /* ticks left in [cyc, last] */
          uint64_t M = (1ull << ts) - 1;
          unsigned want = (unsigned)((last - (cyc | M)) >> ts) + 1;
          CHECKF(ttl == want, "TS %u cycle %llu: ttl %u, expected %u", ts,
                 (unsigned long long)cyc, ttl, want);
        }
        CHECK(test_drv_step(&d) == ASW_OK);
      }
      CHECK(scnt(sw, 0, ASW_SCNT_EXPIRED) == 1);
      asw_switch_free(sw);
    }
  /* a TS change keeps the ticks left, counted in the new period */
  test_drv d;
  if (sar_init(&d, 4, 4, 0)) return;
  asw_switch *sw = d.sw;
  CHECK(asw_reg_write(sw, ASW_REG_FWD(9), asw_fwd_entry(1, 0, 0, 0)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_TTL, asw_sar_ttl(5, 3)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 0)) == ASW_OK);
  d.in.cnm_mask = 1;
  d.in_cnm[0] = asw_cnm_make(9, 5, 4, 0, 0);
  for (unsigned k = 0; k < 12; k++) CHECK(test_drv_step(&d) == ASW_OK);
  /* written in cycle 2 (last = 39 with 8-cycle ticks); at the start of cycle 12 the
   * ticks 15, 23, 31, 39 are left: 4 */
  CHECK(test_rd(sw, ASW_REG_SAR_ENTRY(0, 1)) == 4);
  d.in.reg_en = d.in.reg_we = 1; /* TS 1 from cycle 13: ticks 13, 15, 17, 19 */
  d.in.reg_addr = ASW_REG_SAR_TTL;
  d.in.reg_wdata = asw_sar_ttl(5, 1);
  CHECK(test_drv_step(&d) == ASW_OK); /* cycle 12 */
  for (unsigned cyc = 13; cyc <= 20; cyc++) {
    CHECKF((test_rd(sw, ASW_REG_SAR_ENTRY(0, 0)) >> 31) == (cyc <= 19), "cycle %u", cyc);
    CHECK(test_drv_step(&d) == ASW_OK);
  }
  asw_switch_free(sw);
}

/* Output port RC gives a 1-flit packet to dest from input 0 (read off the lane of the
 * switch: the packet leaves 5 cycles later). */
static int route_of(test_drv *d, unsigned dest) {
  test_drv_put(d, 0, 0, dest, 1, 0);
  int port = -1;
  for (unsigned k = 0; k < 8; k++) {
    CHECK(test_drv_step(d) == ASW_OK);
    if (d->out.flit_mask) port = __builtin_ctzll(d->out.flit_mask);
    for (uint64_t m = d->out.flit_mask; m; m &= m - 1) /* return the credit */
      d->in.credit_mask |= m, d->in_cr[__builtin_ctzll(m)] = d->out_flit[__builtin_ctzll(m)].vc;
  }
  return port;
}

static void snoop_cnm(test_drv *d, unsigned port, unsigned dest, unsigned q) {
  d->in.cnm_mask = 1ull << port;
  d->in_cnm[port] = asw_cnm_make(9, dest, q, 0, 0);
  for (unsigned k = 0; k < 4; k++) CHECK(test_drv_step(d) == ASW_OK);
}

void test_sar_steer(void) {
  test_drv d;
  if (sar_init(&d, 5, 8, 0)) return;
  asw_switch *sw = d.sw;
  CHECK(asw_reg_write(sw, ASW_REG_CSET(1, 0), 0x1C) == ASW_OK); /* ports 2, 3, 4 */
  CHECK(asw_reg_write(sw, ASW_REG_FWD(7), asw_fwd_entry(3, 0, 1, 1)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_FWD(9), asw_fwd_entry(0, 0, 0, 0)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 1)) == ASW_OK);
  CHECK(route_of(&d, 7) == 3); /* no entry: det_port */
  snoop_cnm(&d, 3, 7, 10);
  CHECK(route_of(&d, 7) == 4); /* 3 named: scan 3, 4, 2 -> 4 */
  snoop_cnm(&d, 4, 7, 5);
  CHECK(route_of(&d, 7) == 2); /* 3: 10, 4: 5, 2: 0 */
  snoop_cnm(&d, 2, 7, 20);
  CHECK(route_of(&d, 7) == 4); /* the lowest level */
  snoop_cnm(&d, 0, 7, 63);     /* a port that is no candidate changes nothing */
  CHECK(route_of(&d, 7) == 4);
  snoop_cnm(&d, 4, 6, 40);     /* another destination's entry neither */
  CHECK(route_of(&d, 7) == 4);
  CHECK(test_rd(sw, ASW_REG_COUNTER(0, ASW_CNT_ADAPTIVE)) == 5);
  /* steer only in mode 0: oblivious mode ignores the levels */
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(1, 0, 0xFF, 1)) == ASW_OK);
  unsigned seen = 0;
  for (unsigned k = 0; k < 64; k++) seen |= 1u << route_of(&d, 7);
  CHECKF(seen == 0x1C, "oblivious ports 0x%x", seen);
  /* steer = 0: det_port again */
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, 1)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 0)) == ASW_OK);
  CHECK(route_of(&d, 7) == 3);
  asw_switch_free(sw);
}

/* The switch's own congestion point: each CNM it puts on its §17.4 output in cycle t
 * (sampled in t - 1) leaves on the lane in t + 3, towards its culprit source. */
void test_sar_local_cnm(void) {
  test_drv d;
  if (sar_init(&d, 4, 4, 0)) return;
  asw_switch *sw = d.sw;
  for (unsigned s = 0; s < 4; s++) /* sources s reached through port s */
    CHECK(asw_reg_write(sw, ASW_REG_FWD(s), asw_fwd_entry(s, 0, 0, 0)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_QEQ, 0) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_SAMPLE, 64) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, asw_qcn_ctrl(1, 1, 0, 3)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 0)) == ASW_OK);
  uint64_t due_mask[8] = {0}, due[8][4];
  unsigned cnms = 0, matched = 0, cred[3] = {16, 16, 16}, flit[3] = {0, 0, 0};
  for (unsigned cyc = 0; cyc < 3000; cyc++) {
    uint64_t msgs[4];
    uint64_t m = asw_switch_cnm(sw, msgs); /* on the §17.4 outputs in this cycle */
    for (uint64_t x = m; x; x &= x - 1) {
      unsigned o = (unsigned)__builtin_ctzll(x), src = ASW_CNM_SRC(msgs[o]);
      due_mask[(cyc + 3) % 8] |= 1ull << src;
      due[(cyc + 3) % 8][src] = msgs[o];
      cnms++;
    }
    /* inputs 0..2 stream 4-flit packets to port 3 (congested), within their credits */
    for (unsigned j = 0; j < 3; j++)
      if (flit[j] || cred[j] >= 4) {
        test_drv_put(&d, j, 0, 3, 4, flit[j]);
        cred[j]--;
        flit[j] = (flit[j] + 1) % 4;
      }
    CHECK(test_drv_step(&d) == ASW_OK);
    for (uint64_t x = d.out.credit_mask; x; x &= x - 1) cred[__builtin_ctzll(x)]++;
    for (uint64_t x = d.out.flit_mask; x; x &= x - 1) { /* the sink returns every credit */
      unsigned o = (unsigned)__builtin_ctzll(x);
      d.in.credit_mask |= 1ull << o;
      d.in_cr[o] = d.out_flit[o].vc;
    }
    const uint64_t want = due_mask[cyc % 8];
    CHECKF(d.out.cnm_mask == want, "cycle %u: lane 0x%llx, expected 0x%llx", cyc,
           (unsigned long long)d.out.cnm_mask, (unsigned long long)want);
    for (uint64_t x = want & d.out.cnm_mask; x; x &= x - 1) {
      unsigned p = (unsigned)__builtin_ctzll(x);
      CHECK(d.out_cnm[p] == due[cyc % 8][p]);
      matched++;
    }
    due_mask[cyc % 8] = 0;
  }
  CHECKF(cnms >= 10 && matched == cnms, "%u CNMs, %u matched", cnms, matched);
  CHECK(scnt(sw, 3, ASW_SCNT_DROPPED) == 0);
  asw_switch_free(sw);
}

/* SAR_CTRL.decay: an unrefreshed level steps down by 1 every 2^decay cycles to 0, the
 * entry stays valid (its ttl runs as before); a refresh restores q; decay 0 holds it. */
void test_sar_level_decay(void) {
  test_drv d;
  if (sar_init(&d, 4, 2, 0)) return;
  asw_switch *sw = d.sw;
  CHECK(asw_reg_write(sw, ASW_REG_FWD(10), asw_fwd_entry(2, 0, 0, 0)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl_decay(1, 0, 2)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_SAR_CTRL) == asw_sar_ctrl_decay(1, 0, 2));
  d.in.cnm_mask = 1;
  d.in_cnm[0] = asw_cnm_make(10, 5, 9, 6, 1);
  CHECK(test_drv_step(&d) == ASW_OK); /* rx[0] */
  d.in.cnm_mask = 0;
  CHECK(test_drv_step(&d) == ASW_OK); /* stage A */
  CHECK(test_drv_step(&d) == ASW_OK); /* stage B: entry {5, 0} at level 9 */
  uint32_t w0 = test_rd(sw, ASW_REG_SAR_ENTRY(0, 0));
  unsigned l0 = w0 >> 22 & 0x3Fu;
  CHECKF(w0 >> 31 && (l0 == 9 || l0 == 8), "entry 0 w0 0x%08x", w0);
  for (unsigned k = 1; k <= 3; k++) { /* one decay tick in every 4 cycles */
    for (unsigned j = 0; j < 4; j++) CHECK(test_drv_step(&d) == ASW_OK);
    w0 = test_rd(sw, ASW_REG_SAR_ENTRY(0, 0));
    CHECKF((w0 >> 22 & 0x3Fu) == l0 - k, "after %u ticks: w0 0x%08x", k, w0);
  }
  for (unsigned j = 0; j < 40; j++) CHECK(test_drv_step(&d) == ASW_OK);
  w0 = test_rd(sw, ASW_REG_SAR_ENTRY(0, 0));
  CHECKF(w0 == (5u | 1u << 31), "level 0, still valid: w0 0x%08x", w0);
  CHECK(scnt(sw, 0, ASW_SCNT_EXPIRED) == 0);
  /* decay off: a refreshed level holds */
  CHECK(asw_reg_write(sw, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 0)) == ASW_OK);
  d.in.cnm_mask = 1;
  d.in_cnm[0] = asw_cnm_make(10, 5, 9, 6, 1);
  CHECK(test_drv_step(&d) == ASW_OK);
  d.in.cnm_mask = 0;
  for (unsigned j = 0; j < 40; j++) CHECK(test_drv_step(&d) == ASW_OK);
  w0 = test_rd(sw, ASW_REG_SAR_ENTRY(0, 0));
  CHECKF(w0 == (5u | 9u << 22 | 1u << 31), "decay off: w0 0x%08x", w0);
  asw_switch_free(sw);
}
