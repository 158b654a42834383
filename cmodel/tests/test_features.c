/* test_features.c — the optional-feature settings (contract §1): without bubble, pfc,
 * qcn, route_hash, port_rate, link_faults, oblivious, adaptive, counters or readback the
 * §16.2 / §17.2 / §17.4 / §17.6 / §17.7 / §18.4 / LFSR_SEED / THRESH / counter and
 * CNT_CLEAR / OCC and CRED registers are unmapped exactly as the §15.8 ones with AE = 0
 * (read 0; every write, legal value or not, is refused with ASW_EINVAL and counted in
 * REG_ERRORS), without oblivious / adaptive / vc_adaptive ROUTE_CTRL mode 1 / 2 / 3 is
 * illegal, without link_faults a link taken down is refused (links always up),
 * PARAM2[31:23] and PARAM3[7:6] read the features built, a setting > 1 is rejected, and a
 * switch without the hardware is output-for-output the switch with it and its registers
 * at reset (random traffic and register reads). */
#include <stdint.h>
#include <string.h>

#include "asw_switch.h"
#include "test.h"
#include "test_drv.h"

/* feats: the features built (ASW_FEAT_* bits). */
static asw_config small(unsigned feats) {
  asw_config c;
  asw_config_default(&c);
  c.ports = 4;
  c.vcs = 2;
  c.buf_flits = 8;
  c.max_packet = 4;
  c.payload_bits = 16;
  c.dest_bits = 4;
  c.table_entries = 16;
  c.arn_entries = 2;
  asw_config_set_features(&c, feats);
  return c;
}

void test_features_registers(void) {
  char err[160] = "";
  asw_config c = small(0);
  c.port_rate = 2;
  CHECK(asw_config_check(&c, err, sizeof err) == ASW_EINVAL);
  CHECKF(strstr(err, "port_rate") && strstr(err, "0..1"), "%s", err);
  /* the names and bits agree */
  for (unsigned k = 0; k < ASW_FEAT_COUNT; k++) {
    c = small(0);
    CHECK(asw_config_set_feature(&c, asw_feature_name(k), 1) == ASW_OK);
    CHECK(asw_config_features(&c) == 1u << k);
  }
  CHECK(asw_config_set_feature(&c, "no_such_feature", 1) == ASW_EINVAL);
  CHECK(asw_feature_name(ASW_FEAT_COUNT) == NULL);
  asw_config_default(&c); /* every feature off by default */
  CHECK(asw_config_features(&c) == 0);
  /* one legal value per feature's address (RO addresses: any value); bit: the features
   * the address needs (all of them) */
  const struct { uint32_t a, d; unsigned bit, ro; } regs[] = {
      {ASW_REG_LFSR_SEED, 0xBEEF, ASW_FEAT_OBLIVIOUS, 0}, /* §7.7 */
      {ASW_REG_THRESH, 3u | 5u << 16, ASW_FEAT_ADAPTIVE, 0}, /* §7.3 */
      {ASW_REG_CNT_CLEAR, 0, ASW_FEAT_COUNTERS, 0}, /* §12 (reads 0 when mapped) */
      {ASW_REG_COUNTER(1, 2), 0, ASW_FEAT_COUNTERS, 1},
      {ASW_REG_ARN_COUNTER(3, 8), 0, ASW_FEAT_COUNTERS, 1}, /* §15.8 (AE = 2) */
      {ASW_REG_OCC(2, 1, 3), 0, ASW_FEAT_READBACK, 1}, /* §11 */
      {ASW_REG_CRED(3, 1), 8, ASW_FEAT_READBACK, 1},
      {ASW_REG_SAR_COUNTER(1, 0), 0, ASW_FEAT_QCN | ASW_FEAT_COUNTERS, 1}, /* SE = 0: none */
      {ASW_REG_BUBBLE(0), asw_bubble_entry(1, 1, 3), ASW_FEAT_BUBBLE, 0},
      {ASW_REG_BUBBLE(3), 0, ASW_FEAT_BUBBLE, 0},
      {ASW_REG_BUBBLE_COUNTER(2, 1), 0, ASW_FEAT_BUBBLE | ASW_FEAT_COUNTERS, 1},
      {ASW_REG_PFC_EN(0), 0x5, ASW_FEAT_PFC, 0},
      {ASW_REG_PFC_EN(1), 0, ASW_FEAT_PFC, 0},
      {ASW_REG_PFC_THRESH, asw_pfc_thresh(6, 2), ASW_FEAT_PFC, 0},
      {ASW_REG_PFC_COUNTER(1, 0), 0, ASW_FEAT_PFC | ASW_FEAT_COUNTERS, 1},
      {ASW_REG_PFC_STATE(3), 0, ASW_FEAT_PFC, 1},
      {ASW_REG_QCN_CTRL, asw_qcn_ctrl(0, 2, 3, 0x1234), ASW_FEAT_QCN, 0},
      {ASW_REG_QCN_QEQ, 17, ASW_FEAT_QCN, 0},
      {ASW_REG_QCN_SAMPLE, 100, ASW_FEAT_QCN, 0},
      {ASW_REG_QCN_SEED, 0xBEEF, ASW_FEAT_QCN, 0},
      {ASW_REG_QCN_COUNTER(3, 1), 0, ASW_FEAT_QCN | ASW_FEAT_COUNTERS, 1},
      {ASW_REG_QCN_QLEN(2), 0, ASW_FEAT_QCN, 1},
      {ASW_REG_ROUTE_HASH, asw_route_hash_reg(ASW_RH_SRC_DIGIT, 3, 2), ASW_FEAT_ROUTE_HASH, 0}, /* §17.6 */
      {ASW_REG_PORT_GAP(0), asw_port_gap_field(1, 3), ASW_FEAT_PORT_RATE, 0}, /* §17.7 */
      {ASW_REG_PORT_GAP(7), 0, ASW_FEAT_PORT_RATE, 0},
      {ASW_REG_LINK_DOWN(0), 0, ASW_FEAT_LINK_FAULTS, 1},
      {ASW_REG_LINK_RX_DOWN(1), 0, ASW_FEAT_LINK_FAULTS, 1},
      {ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_PADDED), 0, ASW_FEAT_LINK_FAULTS | ASW_FEAT_COUNTERS, 1},
  };
  const unsigned n = sizeof regs / sizeof regs[0];
  for (unsigned feats = 0; feats <= ASW_FEAT_ALL; feats++) {
    c = small(feats);
    asw_switch *sw = asw_switch_new(&c, err, sizeof err);
    CHECKF(sw != NULL, "feats 0x%x: %s", feats, err);
    if (!sw) continue;
    CHECK(asw_config_features(asw_switch_config(sw)) == feats);
    CHECK(test_rd(sw, ASW_REG_PARAM2) == (16u | 2u << 17 | (feats & 0x1FFu) << 23));
    CHECK(test_rd(sw, ASW_REG_PARAM3) == (feats >> 9) << 6);
    uint32_t errors = 0;
    /* §7.3: ROUTE_CTRL modes 1 and 2 only when built (mode 3 also needs VOQ = 0) */
    unsigned cur = 0; /* the mode ROUTE_CTRL holds */
    for (unsigned mode = 1; mode <= 3; mode++) {
      unsigned need = mode == 1 ? ASW_FEAT_OBLIVIOUS : mode == 2 ? ASW_FEAT_ADAPTIVE : ~0u;
      int ok = (feats & need) == need;
      int rc = asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(mode, 0, 0xFF, 1));
      CHECKF(rc == (ok ? ASW_OK : ASW_EINVAL), "feats 0x%x mode %u rc %d", feats, mode, rc);
      errors += (uint32_t)!ok;
      if (!ok && mode < 3)
        CHECKF(strstr(asw_switch_error(sw), mode == 1 ? "oblivious" : "adaptive"), "%s",
               asw_switch_error(sw));
      if (ok) cur = mode;
      CHECK(test_rd(sw, ASW_REG_ROUTE_CTRL) == asw_route_ctrl(cur, 0, 0xFF, 1));
    }
    CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, 1)) == ASW_OK);
    for (unsigned k = 0; k < n; k++) {
      int gone = (feats & regs[k].bit) != regs[k].bit;
      uint32_t before = test_rd(sw, regs[k].a);
      if (gone) CHECKF(before == 0, "feats 0x%x addr 0x%05x reads 0x%x", feats, regs[k].a, before);
      int rc = asw_reg_write(sw, regs[k].a, regs[k].d);
      int refused = gone || regs[k].ro;
      CHECKF(rc == (refused ? ASW_EINVAL : ASW_OK), "feats 0x%x addr 0x%05x rc %d", feats,
             regs[k].a, rc);
      errors += (uint32_t)refused;
      if (!refused && regs[k].a != ASW_REG_CNT_CLEAR) CHECK(test_rd(sw, regs[k].a) == regs[k].d);
      if (gone) CHECK(test_rd(sw, regs[k].a) == 0);
      /* the same write through the register bus (§10): refused the same way */
      asw_inputs in = {.reg_en = 1, .reg_we = 1, .reg_addr = regs[k].a, .reg_wdata = regs[k].d};
      CHECK(asw_switch_step(sw, &in, NULL) == ASW_OK);
      errors += (uint32_t)refused;
    }
    CHECKF(test_rd(sw, ASW_REG_REG_ERRORS) == errors, "feats 0x%x: REG_ERRORS %u, expected %u", feats,
           test_rd(sw, ASW_REG_REG_ERRORS), errors);
    /* §18.1: output 1's link down; without the §18 hardware refused, nothing changed */
    int link = (feats & ASW_FEAT_LINK_FAULTS) != 0;
    CHECK(asw_switch_set_link_up(sw, 0xF, 0xF) == ASW_OK); /* all up: always accepted */
    int rc = asw_switch_set_link_up(sw, 0xD, 0xF);
    CHECKF(rc == (link ? ASW_OK : ASW_EINVAL), "feats 0x%x: set_link_up rc %d", feats, rc);
    if (!link) CHECKF(strstr(asw_switch_error(sw), "link_faults"), "%s", asw_switch_error(sw));
    CHECK(asw_switch_step(sw, &(asw_inputs){0}, NULL) == ASW_OK);
    CHECKF(test_rd(sw, ASW_REG_LINK_DOWN(0)) == (link ? 2u : 0u), "feats 0x%x: LINK_DOWN 0x%x",
           feats, test_rd(sw, ASW_REG_LINK_DOWN(0)));
    asw_switch_free(sw);
  }
}

/* Random credit-respecting traffic (1..LMAX-flit packets, random destinations,
 * sinks returning credits a cycle later) and random register reads, every
 * address kind including the unbuilt ones, into a switch with every feature built and
 * one with none: every output of every cycle must be identical. */
void test_features_equivalence(void) {
  /* b: only what the traffic below uses (adaptive routing) and what the first two reads
   * read (a counter, a credit counter) */
  asw_config c0 = small(ASW_FEAT_ALL),
             c3 = small(ASW_FEAT_ADAPTIVE | ASW_FEAT_COUNTERS | ASW_FEAT_READBACK);
  asw_switch *a = asw_switch_new(&c0, NULL, 0), *b = asw_switch_new(&c3, NULL, 0);
  CHECK(a && b);
  if (!a || !b) {
    asw_switch_free(a);
    asw_switch_free(b);
    return;
  }
  for (unsigned d = 0; d < 16; d++) {
    CHECK(asw_reg_write(a, ASW_REG_FWD(d), asw_fwd_entry(d % 4, 0, 0, 0)) == ASW_OK);
    CHECK(asw_reg_write(b, ASW_REG_FWD(d), asw_fwd_entry(d % 4, 0, 0, 0)) == ASW_OK);
  }
  CHECK(asw_reg_write(a, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, ASW_TRIG_TH, 0xFF, 1)) == ASW_OK);
  CHECK(asw_reg_write(b, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, ASW_TRIG_TH, 0xFF, 1)) == ASW_OK);
  for (unsigned s = 0; s < 4; s++) {
    CHECK(asw_reg_write(a, ASW_REG_CSET(s, 0), 0xF) == ASW_OK);
    CHECK(asw_reg_write(b, ASW_REG_CSET(s, 0), 0xF) == ASW_OK);
  }
  /* the first two are mapped in both; the others are unmapped in b (read 0 there) */
  static const uint32_t raddr[] = {ASW_REG_COUNTER(1, 1), ASW_REG_CRED(2, 1), ASW_REG_BUBBLE(1),
                                   ASW_REG_BUBBLE_COUNTER(0, 0), ASW_REG_PFC_EN(0),
                                   ASW_REG_PFC_THRESH, ASW_REG_PFC_COUNTER(2, 1),
                                   ASW_REG_PFC_STATE(1), ASW_REG_QCN_CTRL,
                                   ASW_REG_QCN_SAMPLE, ASW_REG_QCN_COUNTER(1, 1),
                                   ASW_REG_QCN_QLEN(3), ASW_REG_LINK_DOWN(0),
                                   ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_DISCARDED),
                                   ASW_REG_LFSR_SEED};
  unsigned rd_prev = 0, rd_now; /* raddr index read in the previous / this cycle */
  uint64_t x = 0x9E3779B97F4A7C15ull;
  unsigned cred[4][2], left[4] = {0}, vc[4] = {0}, seq = 0;
  for (unsigned p = 0; p < 4; p++) cred[p][0] = cred[p][1] = 8;
  asw_flit fi[4], fa[4], fb[4];
  uint8_t ci[4], ca[4], cb[4];
  uint32_t ra[4], rb[4];
  uint64_t cr_pending = 0, delivered = 0;
  uint8_t cr_vc_pending[4] = {0};
  const unsigned cycles = test_quick ? 3000 : 20000;
  for (unsigned t = 0; t < cycles && !test_failed_checks; t++) {
    asw_inputs in = {.flit = fi, .credit_vc = ci};
    memset(fi, 0, sizeof fi);
    for (unsigned p = 0; p < 4; p++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      if (left[p] == 0 && (x & 7u) < 3) { /* a new packet if the VC has credits */
        unsigned v = (unsigned)(x >> 8 & 1u), len = 1 + (unsigned)(x >> 9 & 3u);
        if (cred[p][v] >= len) {
          cred[p][v] -= len;
          left[p] = len;
          vc[p] = v;
          fi[p] = (asw_flit){.valid = 1, .head = 1, .tail = len == 1, .vc = (uint8_t)v,
                             .hdr = asw_hdr_make((unsigned)(x >> 12 & 15u), p, v, len, 0, 0, seq++),
                             .payload = x >> 20 & 0xFFFFu};
          left[p]--;
          in.flit_mask |= 1ull << p;
        }
      } else if (left[p]) {
        fi[p] = (asw_flit){.valid = 1, .tail = left[p] == 1, .vc = (uint8_t)vc[p],
                           .payload = x >> 20 & 0xFFFFu};
        left[p]--;
        in.flit_mask |= 1ull << p;
      }
    }
    in.credit_mask = cr_pending; /* sinks: the credit of last cycle's flit */
    memcpy(ci, cr_vc_pending, sizeof ci);
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    rd_now = 0;
    if ((x & 3u) == 0) {
      in.reg_en = 1;
      rd_now = (unsigned)((x >> 2) % (sizeof raddr / sizeof raddr[0]));
      in.reg_addr = raddr[rd_now];
    }
    asw_outputs oa = {.flit = fa, .credit_vc = ca, .arn = ra};
    asw_outputs ob = {.flit = fb, .credit_vc = cb, .arn = rb};
    CHECK(asw_switch_step(a, &in, &oa) == ASW_OK);
    CHECK(asw_switch_step(b, &in, &ob) == ASW_OK);
    CHECKF(oa.flit_mask == ob.flit_mask && oa.credit_mask == ob.credit_mask &&
               oa.arn_mask == ob.arn_mask && oa.reg_rvalid == ob.reg_rvalid &&
               (rd_prev < 2 ? oa.reg_rdata == ob.reg_rdata : ob.reg_rdata == 0),
           "cycle %u: outputs differ: flits %llx/%llx credits %llx/%llx read %u %x/%u %x", t,
           (unsigned long long)oa.flit_mask, (unsigned long long)ob.flit_mask,
           (unsigned long long)oa.credit_mask, (unsigned long long)ob.credit_mask, oa.reg_rvalid,
           oa.reg_rdata, ob.reg_rvalid, ob.reg_rdata);
    rd_prev = rd_now; /* read data is on the outputs of the next step (§10) */
    cr_pending = oa.flit_mask;
    for (uint64_t m = oa.flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      CHECKF(memcmp(&fa[o], &fb[o], sizeof fa[o]) == 0, "cycle %u output %u", t, o);
      cr_vc_pending[o] = fa[o].vc;
      delivered++;
    }
    for (uint64_t m = oa.credit_mask; m; m &= m - 1) {
      unsigned p = (unsigned)__builtin_ctzll(m);
      CHECK(ca[p] == cb[p]);
      cred[p][ca[p]]++;
    }
  }
  CHECKF(delivered > cycles, "only %llu flits delivered", (unsigned long long)delivered);
  asw_switch_free(a);
  asw_switch_free(b);
}
