/* QCN congestion point (contract §17.4): the arithmetic against
 * hand-computed cases, the registers, and the sampling / CNM timeline on one
 * switch whose output is paused (so the queue only grows and every value is
 * known in advance). */
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "lfsr.h"
#include "qcn_cp.h"
#include "test.h"
#include "test_drv.h"

void test_qcn_arithmetic(void) {
  /* Fb = -(Qoff + w Qdelta), Qoff = qlen - Qeq, Qdelta = qlen - qold */
  CHECK(asw_qcn_fb(400, 350, 320, 1) == -180); /* -(80 + 2*50) */
  CHECK(asw_qcn_fb(300, 350, 320, 1) == 120);  /* -(-20 - 100) */
  CHECK(asw_qcn_fb(320, 320, 320, 3) == 0);
  CHECK(asw_qcn_fb(330, 320, 320, 0) == -20);  /* w = 1 */
  CHECK(asw_qcn_fb(5000, 0, 320, 1) == -14680);
  /* quantization: |Fb| >> fbsh, saturating at 63; none for Fb >= 0 */
  CHECK(asw_qcn_quant(-180, 5) == 5);
  CHECK(asw_qcn_quant(-31, 5) == 0);
  CHECK(asw_qcn_quant(-32, 5) == 1);
  CHECK(asw_qcn_quant(-14680, 5) == 63);
  CHECK(asw_qcn_quant(-2016, 5) == 63 && asw_qcn_quant(-2015, 5) == 62);
  CHECK(asw_qcn_quant(120, 5) == 0 && asw_qcn_quant(0, 0) == 0);
  /* sampling interval: I = S - (S q 58 >> 12); I - I/8 + (I (r&31) >> 7) */
  CHECK(asw_qcn_interval(2344, 0, 0) == 2051);    /* 2344 - 293 */
  CHECK(asw_qcn_interval(2344, 0, 31) == 2618);   /* + 72664 >> 7 = 567 */
  CHECK(asw_qcn_interval(2344, 0, 0xFFE0) == 2051); /* only r[4:0] */
  CHECK(asw_qcn_interval(2344, 63, 16) == 253);   /* I = 2344 - 2091 */
  CHECK(asw_qcn_interval(64, 40, 13) == 27);      /* I = 64 - 36 = 28 */
  /* mean over the 32 jitter values within 1 % of the interval (Figure 3:
   * 1 in 100 frames at q = 0, about 1 in 10 at q = 63) */
  double m0 = 0, m63 = 0;
  for (unsigned r = 0; r < 32; r++) {
    m0 += asw_qcn_interval(2344, 0, (uint16_t)r) / 32.0;
    m63 += asw_qcn_interval(2344, 63, (uint16_t)r) / 32.0;
  }
  CHECKF(m0 > 0.99 * 2344 && m0 < 2344, "mean %.1f", m0);
  CHECKF(m63 > 2344 / 11.0 && m63 < 2344 / 9.0, "mean %.1f", m63);
  /* decreasing in q */
  for (unsigned q = 1; q < 64; q++)
    CHECK(asw_qcn_interval(2344, q, 7) <= asw_qcn_interval(2344, q - 1, 7));
}

void test_qcn_registers(void) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  char err[200];
  asw_switch *sw = asw_switch_new(&c, err, sizeof err);
  CHECKF(sw != NULL, "%s", err);
  if (!sw) return;
  CHECK(test_rd(sw, ASW_REG_QCN_CTRL) == asw_qcn_ctrl(0, 1, 5, 0));
  CHECK(test_rd(sw, ASW_REG_QCN_QEQ) == 320 && test_rd(sw, ASW_REG_QCN_SAMPLE) == 2400);
  CHECK(test_rd(sw, ASW_REG_QCN_SEED) == 1);
  uint32_t e0 = test_rd(sw, ASW_REG_REG_ERRORS);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, 1u << 3) == ASW_EINVAL);
  CHECK(strstr(asw_switch_error(sw), "QCN_CTRL") != NULL);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_SAMPLE, 63) == ASW_EINVAL);
  CHECK(strstr(asw_switch_error(sw), "QCN_SAMPLE") != NULL);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_SAMPLE, 0x10000) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_QEQ, 0x10000) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_SEED, 0x10000) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_COUNTER(2, 0), 1) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_QLEN(2), 1) == ASW_EINVAL);
  CHECK(strstr(asw_switch_error(sw), "read-only") != NULL);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == e0 + 7);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, asw_qcn_ctrl(1, 2, 3, 0xBEEF)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_QCN_CTRL) == asw_qcn_ctrl(1, 2, 3, 0xBEEF));
  CHECK(asw_reg_write(sw, ASW_REG_QCN_SAMPLE, 64) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_QCN_SAMPLE) == 64);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == e0 + 7);
  asw_switch_reset(sw);
  CHECK(test_rd(sw, ASW_REG_QCN_CTRL) == asw_qcn_ctrl(0, 1, 5, 0));
  asw_switch_free(sw);
}

/* P=4, V=1, BUF=256, 8-flit packets from input 0 to output 1, which
 * downstream keeps paused (PFC), so qlen = 8 * packets routed. QCN_SAMPLE =
 * 64, Qeq = 8, w = 2, fbsh = 2, cpid 0x1234. Hand-computed: the 8th packet
 * (k = 7, counter 64 - 7*8 = 8 <= 8) is sampled with qlen 56, qold 0:
 * Fb = -(48 + 2*56) = -160, q = 40, CNM src 7; the next interval is
 * interval(64, 40, r) with r = lfsr_next(0x9E36) = 0x3C6D: 27; packets 8..10
 * leave 27 - 24 = 3, so packet 11 is sampled: qlen 88, qold 56,
 * Fb = -(80 + 2*32) = -144, q = 36, CNM src 11. Each CNM is on the outputs
 * 3 steps after its head step (RC, RQ samples, registered). */
void test_qcn_timeline(void) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = 4;
  c.vcs = 1;
  c.buf_flits = 256;
  c.max_packet = 8;
  char err[200];
  asw_switch *sw = asw_switch_new(&c, err, sizeof err);
  CHECKF(sw != NULL, "%s", err);
  if (!sw) return;
  for (unsigned p = 0; p < 4; p++) asw_reg_write(sw, ASW_REG_FWD(p), asw_fwd_entry(p, 0, 0, 0));
  CHECK(asw_reg_write(sw, ASW_REG_PFC_EN(0), 0x2) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_SAMPLE, 64) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_QEQ, 8) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, asw_qcn_ctrl(1, 1, 2, 0x1234)) == ASW_OK);
  CHECK(asw_lfsr_next(asw_lfsr_init(1, 1)) == 0x3C6D);
  asw_flit in_flit[4], out_flit[4];
  uint8_t in_cr[4], out_cr[4];
  uint64_t cnm[4];
  asw_outputs out = {0};
  out.flit = out_flit;
  out.credit_vc = out_cr;
  unsigned ncnm = 0;
  long cnm_step[2] = {-1, -1};
  uint64_t cnm_msg[2] = {0, 0};
  for (long step = 0; step < 16 * 8 + 10; step++) {
    asw_inputs in = {0};
    in.flit = in_flit;
    in.credit_vc = in_cr;
    if (step == 0) { /* downstream pauses priority 0 of output 1 */
      in_cr[1] = 0;
      in.credit_mask = 1u << 1;
    } else if (step <= 16 * 8) { /* packet k = (step-1)/8, head at 1 + 8k */
      unsigned k = (unsigned)(step - 1) / 8, f = (unsigned)(step - 1) % 8;
      asw_flit fl = {1, f == 0, f == 7, 0, f == 0 ? asw_hdr_make(1, k, 0, 8, 0, 0, k) : 0, k};
      in_flit[0] = fl;
      in.flit_mask = 1;
    }
    const uint64_t cnm_mask = asw_switch_cnm(sw, cnm); /* this step's CNM outputs */
    CHECK(asw_switch_step(sw, &in, &out) == ASW_OK);
    CHECK(out.flit_mask == 0);
    if (cnm_mask) {
      CHECK(cnm_mask == 2u);
      if (ncnm < 2) {
        cnm_step[ncnm] = step;
        cnm_msg[ncnm] = cnm[1];
      }
      ncnm++;
    }
  }
  CHECKF(cnm_step[0] == 1 + 8 * 7 + 3, "first CNM at step %ld", cnm_step[0]);
  CHECKF(cnm_msg[0] == asw_cnm_make(7, 1, 40, 1, 0x1234), "CNM %016llx",
         (unsigned long long)cnm_msg[0]);
  CHECKF(cnm_step[1] == 1 + 8 * 11 + 3, "second CNM at step %ld", cnm_step[1]);
  CHECKF(cnm_msg[1] == asw_cnm_make(11, 1, 36, 1, 0x1234), "CNM %016llx",
         (unsigned long long)cnm_msg[1]);
  CHECK(test_rd(sw, ASW_REG_QCN_QLEN(1)) == 16 * 8);
  CHECK(test_rd(sw, ASW_REG_QCN_COUNTER(1, ASW_QCNT_CNM)) == ncnm);
  CHECK(test_rd(sw, ASW_REG_QCN_COUNTER(1, ASW_QCNT_SAMPLES)) == ncnm); /* Fb < 0 from 7 on */
  CHECK(test_rd(sw, ASW_REG_QCN_COUNTER(0, ASW_QCNT_SAMPLES)) == 0);
  CHECK(asw_reg_write(sw, ASW_REG_CNT_CLEAR, 0) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_QCN_COUNTER(1, ASW_QCNT_CNM)) == 0);
  /* resume: the queue drains to 0 */
  asw_inputs in = {0};
  in.credit_vc = in_cr;
  in_cr[1] = 0;
  in.credit_mask = 1u << 1;
  CHECK(asw_switch_step(sw, &in, &out) == ASW_OK);
  for (int k = 0; k < 300; k++) CHECK(asw_switch_step(sw, NULL, &out) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_QCN_QLEN(1)) == 0);
  CHECK(asw_switch_idle(sw));
  asw_switch_free(sw);
}

/* ROUTE_HASH (contract §17.6): values by hand, register checks, and the
 * oblivious choice of a switch following the source digit / flow hash. */
#include "route_hash.h"
void test_route_hash(void) {
  const uint64_t h12 = asw_hdr_make(2, 1, 0, 1, 0, 0, 0), h59 = asw_hdr_make(9, 5, 0, 1, 0, 0, 0);
  /* {1, 2} * 0x9E3779B1 = 0x...B61FF362; {5, 9}: 0xF068.... */
  CHECK(asw_route_hash(asw_route_hash_reg(ASW_RH_FLOW, 0, 0), h12) == 0xB61F);
  CHECK(asw_route_hash(asw_route_hash_reg(ASW_RH_FLOW, 0, 0), h59) == 0xF068);
  CHECK(asw_route_hash(asw_route_hash_reg(ASW_RH_FLOW, 4, 0), h12) == 0x61FF); /* >> 12 */
  const uint32_t d31 = asw_route_hash_reg(ASW_RH_SRC_DIGIT, 3, 1), d12 = asw_route_hash_reg(2, 1, 2);
  CHECK(asw_route_hash(d31, asw_hdr_make(0, 8, 0, 1, 0, 0, 0)) == 0x8000); /* bit 3 of 8 */
  CHECK(asw_route_hash(d31, asw_hdr_make(0, 7, 0, 1, 0, 0, 0)) == 0);
  CHECK(asw_route_hash(d12, asw_hdr_make(0, 6, 0, 1, 0, 0, 0)) == 0xC000); /* bits 2:1 of 6 = 3 */
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = 4;
  c.vcs = 1;
  char err[200];
  asw_switch *sw = asw_switch_new(&c, err, sizeof err);
  CHECKF(sw != NULL, "%s", err);
  if (!sw) return;
  CHECK(test_rd(sw, ASW_REG_ROUTE_HASH) == 0);
  uint32_t e0 = test_rd(sw, ASW_REG_REG_ERRORS);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_HASH, 3) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_HASH, asw_route_hash_reg(2, 0, 0)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_HASH, asw_route_hash_reg(2, 0, 9)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_HASH, asw_route_hash_reg(1, 9, 0)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_HASH, 1u << 12) == ASW_EINVAL);
  CHECK(strstr(asw_switch_error(sw), "ROUTE_HASH") != NULL);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == e0 + 5 && test_rd(sw, ASW_REG_ROUTE_HASH) == 0);
  /* every destination: det port 0, candidates ports 2 and 3, oblivious */
  for (unsigned d = 0; d < 16; d++) asw_reg_write(sw, ASW_REG_FWD(d), asw_fwd_entry(0, 0, 0, 1));
  asw_reg_write(sw, ASW_REG_CSET(0, 0), 0xC);
  asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_OBLIVIOUS, 0, 0xFF, 1));
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_HASH, asw_route_hash_reg(2, 1, 1)) == ASW_OK);
  asw_flit in_flit[4], out_flit[4];
  uint8_t in_cr[4], out_cr[4];
  asw_outputs out = {0};
  out.flit = out_flit;
  out.credit_vc = out_cr;
  unsigned bad = 0, seen = 0;
  for (unsigned step = 0; step < 40; step++) {
    asw_inputs in = {0};
    in.flit = in_flit;
    in.credit_vc = in_cr;
    if (step < 16) { /* 1-flit packets from sources 0..15 */
      asw_flit f = {1, 1, 1, 0, asw_hdr_make(step, step, 0, 1, 0, 0, step), step};
      in_flit[0] = f;
      in.flit_mask = 1;
    }
    CHECK(asw_switch_step(sw, &in, &out) == ASW_OK);
    for (unsigned o = 0; o < 4; o++)
      if (out.flit_mask >> o & 1u) {
        unsigned src = ASW_HDR_SRC(out_flit[o].hdr);
        seen++;
        if (o != 2u + (src >> 1 & 1u)) bad++; /* source bit 1 picks the candidate */
      }
  }
  CHECKF(seen == 16 && bad == 0, "%u packets, %u on the wrong port", seen, bad);
  asw_switch_reset(sw);
  CHECK(test_rd(sw, ASW_REG_ROUTE_HASH) == 0);
  asw_switch_free(sw);
}

/* Random traffic on a 4-port switch (output 3 drains slowly, so its queue
 * builds and falls) against a shadow of §17.4 written from the contract:
 * the shadow counts qlen from the packets RQ appends (two steps after their
 * heads) and the flits seen leaving, samples in input order with its own
 * LFSRs and predicts every CNM word and step. The switch's QLEN register is
 * compared with the shadow's count too. */
static uint64_t rng_state = 0x1234567ull;
static unsigned rnd_below(unsigned n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)((rng_state >> 33) % n);
}
void test_qcn_random_shadow(void) {
  enum { P = 4, BUF = 64, STEPS = 20000 };
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = P;
  c.vcs = 1;
  c.buf_flits = BUF;
  c.max_packet = 8;
  char err[200];
  asw_switch *sw = asw_switch_new(&c, err, sizeof err);
  CHECKF(sw != NULL, "%s", err);
  if (!sw) return;
  for (unsigned d = 0; d < 16; d++) asw_reg_write(sw, ASW_REG_FWD(d), asw_fwd_entry(d % P, 0, 0, 0));
  const unsigned S = 64, QEQ = 12, WL = 1, FBSH = 1, SEED = 0x5A5A;
  asw_reg_write(sw, ASW_REG_QCN_SAMPLE, S);
  asw_reg_write(sw, ASW_REG_QCN_QEQ, QEQ);
  asw_reg_write(sw, ASW_REG_QCN_SEED, SEED);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, asw_qcn_ctrl(1, WL, FBSH, 7)) == ASW_OK);
  /* shadow state (§17.4) */
  long qlen[P] = {0}, qold[P] = {0}, cnt[P];
  uint16_t lf[P];
  for (unsigned o = 0; o < P; o++) {
    cnt[o] = S;
    lf[o] = asw_lfsr_init(SEED, o);
  }
  /* heads by step: (input, oport, len, hdr); RQ two steps later */
  static struct { unsigned o, len; uint64_t hdr; } rq[STEPS + 3][P];
  static uint8_t rq_valid[STEPS + 3][P];
  memset(rq_valid, 0, sizeof rq_valid);
  unsigned in_left[P] = {0}, in_len[P] = {0}, cr_in[P], owed[P] = {0};
  for (unsigned i = 0; i < P; i++) cr_in[i] = BUF;
  asw_flit in_flit[P], out_flit[P];
  uint8_t in_cr[P], out_cr[P];
  uint64_t cnm_msgs[P];
  asw_outputs out = {0};
  out.flit = out_flit;
  out.credit_vc = out_cr;
  unsigned cnms = 0, mism = 0, qlen_mism = 0, samples = 0;
  for (unsigned step = 0; step < STEPS; step++) {
    asw_inputs in = {0};
    in.flit = in_flit;
    in.credit_vc = in_cr;
    for (unsigned i = 0; i < P; i++) {
      if (!in_left[i]) {
        unsigned len = 1 + rnd_below(8), dest = rnd_below(16);
        if (step >= STEPS - 200 || cr_in[i] < len || rnd_below(4)) continue;
        in_left[i] = in_len[i] = len;
        cr_in[i] -= len;
        uint64_t hdr = asw_hdr_make(dest, rnd_below(1000), 0, len, 0, 0, step);
        rq[step + 2][i].o = dest % P;
        rq[step + 2][i].len = len;
        rq[step + 2][i].hdr = hdr;
        rq_valid[step + 2][i] = 1;
        asw_flit f = {1, 1, len == 1, 0, hdr, 0};
        in_flit[i] = f;
      } else {
        asw_flit f = {1, 0, in_left[i] == 1, 0, 0, 0};
        in_flit[i] = f;
      }
      in_left[i]--;
      in.flit_mask |= 1ull << i;
    }
    for (unsigned o = 0; o < P; o++) /* downstream: output 3 drains at 30 % */
      if (owed[o] && (o != 3 || rnd_below(10) < 3)) {
        owed[o]--;
        in_cr[o] = 0;
        in.credit_mask |= 1ull << o;
      }
    uint32_t qreg[P];
    for (unsigned o = 0; o < P; o++) asw_reg_read(sw, ASW_REG_QCN_QLEN(o), &qreg[o]);
    CHECK(asw_switch_step(sw, &in, &out) == ASW_OK);
    /* flits leaving now were sent by ST last step: qlen at the start of this
     * step counts them gone; the register read before the step agrees */
    for (unsigned o = 0; o < P; o++)
      if (out.flit_mask >> o & 1u) {
        qlen[o]--;
        owed[o]++;
      }
    for (unsigned i = 0; i < P; i++)
      if (out.credit_mask >> i & 1u) cr_in[i]++;
    for (unsigned o = 0; o < P; o++) qlen_mism += (long)qreg[o] != qlen[o];
    /* this step's RQ, in input order */
    uint64_t want = 0, want_msg[P] = {0}, sampled = 0;
    long add[P] = {0};
    for (unsigned i = 0; i < P; i++) {
      if (!rq_valid[step][i]) continue;
      unsigned o = rq[step][i].o, len = rq[step][i].len;
      add[o] += len;
      if (sampled >> o & 1u) continue;
      if (cnt[o] > (long)len) {
        cnt[o] -= len;
        continue;
      }
      sampled |= 1ull << o;
      samples++;
      unsigned q = asw_qcn_quant(asw_qcn_fb((unsigned)qlen[o], (unsigned)qold[o], QEQ, WL), FBSH);
      qold[o] = qlen[o];
      lf[o] = asw_lfsr_next(lf[o]);
      cnt[o] = asw_qcn_interval(S, q, lf[o]);
      if (q) {
        want |= 1ull << o;
        want_msg[o] = asw_cnm_make(ASW_HDR_SRC(rq[step][i].hdr), ASW_HDR_DEST(rq[step][i].hdr),
                                   q, o, 7);
      }
    }
    for (unsigned o = 0; o < P; o++) qlen[o] += add[o];
    uint64_t got = asw_switch_cnm(sw, cnm_msgs); /* registered at the end of this step */
    if (got != want) mism++;
    for (uint64_t m = got & want; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      if (cnm_msgs[o] != want_msg[o]) mism++;
    }
    cnms += (unsigned)__builtin_popcountll(got);
  }
  uint32_t sent = 0, smp = 0;
  for (unsigned o = 0; o < P; o++) {
    sent += test_rd(sw, ASW_REG_QCN_COUNTER(o, ASW_QCNT_CNM));
    smp += test_rd(sw, ASW_REG_QCN_COUNTER(o, ASW_QCNT_SAMPLES));
  }
  CHECKF(mism == 0 && qlen_mism == 0, "%u CNM mismatches, %u qlen mismatches", mism, qlen_mism);
  CHECKF(cnms > 50 && samples > cnms && sent == cnms && smp == samples,
         "%u CNMs (counter %u), %u samples (counter %u)", cnms, sent, samples, smp);
  asw_switch_free(sw);
}
