/* PFC link mode (contract §17.1, §17.2): registers, the frame timeline on
 * one switch, the sender's pause view, mode changes, and losslessness of
 * random traffic with an upstream that obeys the frames (and, as a planted
 * bug, the protocol error when it does not). */
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "pfc.h"
#include "test.h"
#include "test_drv.h"


void test_pfc_registers(void) {
  test_drv d;
  if (test_drv_init(&d, 40, 4, 32, 8, 64)) return;
  asw_switch *sw = d.sw;
  CHECK(test_rd(sw, ASW_REG_PFC_EN(0)) == 0 && test_rd(sw, ASW_REG_PFC_EN(1)) == 0);
  CHECK(test_rd(sw, ASW_REG_PFC_THRESH) == (16u | 8u << 16)); /* XOFF BUF/2, XON XOFF/2 */
  uint32_t e0 = test_rd(sw, ASW_REG_REG_ERRORS);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_EN(1), 0x100) == ASW_EINVAL); /* port 40 >= P */
  CHECK(strstr(asw_switch_error(sw), "PFC_EN") != NULL);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_EN(1), 0xFF) == ASW_OK);       /* ports 32..39 */
  CHECK(test_rd(sw, ASW_REG_PFC_EN(1)) == 0xFF);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_THRESH, 5u | 5u << 16) == ASW_EINVAL); /* XON = XOFF */
  CHECK(strstr(asw_switch_error(sw), "XON") != NULL);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_THRESH, 33u | 1u << 16) == ASW_EINVAL); /* XOFF > BUF */
  CHECK(asw_reg_write(sw, ASW_REG_PFC_THRESH, 32u | 31u << 16) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_THRESH, 1u) == ASW_OK); /* XOFF 1, XON 0 */
  CHECK(test_rd(sw, ASW_REG_PFC_THRESH) == 1u);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_COUNTER(0, 0), 1) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_STATE(3), 1) == ASW_EINVAL);
  CHECK(strstr(asw_switch_error(sw), "read-only") != NULL);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_COUNTER(40, 0), 1) == ASW_EINVAL); /* unmapped */
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == e0 + 6);
  CHECK(test_rd(sw, ASW_REG_PFC_COUNTER(40, 0)) == 0);
  /* a PFC output's CRED view is BUF after the mode change */
  CHECK(test_rd(sw, ASW_REG_CRED(33, 2)) == 32);
  asw_switch_reset(sw);
  CHECK(test_rd(sw, ASW_REG_PFC_EN(1)) == 0 && test_rd(sw, ASW_REG_PFC_THRESH) == (16u | 8u << 16));
  asw_switch_free(sw);
}

/* Input 1 and output 2 are PFC ports; output 2 is paused, so packets from
 * input 1 pile up: XOFF goes upstream two cycles after the head that crosses
 * the threshold, never a credit; XON once the buffer drains. */
void test_pfc_timeline(void) {
  test_drv d;
  if (test_drv_init(&d, 4, 2, 32, 4, 64)) return;
  asw_switch *sw = d.sw;
  CHECK(asw_reg_write(sw, ASW_REG_PFC_EN(0), 0x6) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_THRESH, 10u | 3u << 16) == ASW_OK);
  /* downstream pauses priority 1 of output 2 */
  d.in_cr[2] = 1;
  d.in.credit_mask = 1u << 2;
  CHECK(test_drv_step(&d) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_CRED(2, 1)) == 0 && test_rd(sw, ASW_REG_CRED(2, 0)) == 32);
  CHECK((test_rd(sw, ASW_REG_PFC_STATE(2)) & 0xFF) == 2);
  CHECK(test_rd(sw, ASW_REG_PFC_COUNTER(2, ASW_PCNT_RECEIVED)) == 1);
  /* three 4-flit packets on VC 1 to output 2 (SL 1 -> VC 1) */
  long cyc = 1, xoff_at = -1, xon_at = -1, credits = 0, frames = 0;
  for (unsigned k = 0; k < 12; k++, cyc++) {
    asw_flit f = {1, k % 4 == 0, k % 4 == 3, 1,
                  k % 4 == 0 ? asw_hdr_make(2, 0, 1, 4, 0, 0, k) : 0, k};
    d.in_flit[1] = f;
    d.in.flit_mask = 1u << 1;
    CHECK(test_drv_step(&d) == ASW_OK);
    CHECK(d.out.flit_mask == 0); /* paused: nothing leaves */
    if (d.out.credit_mask) { frames++; xoff_at = cyc; CHECK(d.out_cr[1] == 1); }
  }
  /* heads in cycles 1, 5, 9: hd 4, 8, 12 -> want rises at the end of cycle 9,
   * the frame is chosen in 10 and on cr_out in 11 */
  CHECK(frames == 1 && xoff_at == 11);
  CHECK(test_rd(sw, ASW_REG_PFC_STATE(1)) == (2u << 8 | 2u << 16));
  CHECK(test_rd(sw, ASW_REG_PFC_COUNTER(1, ASW_PCNT_SENT)) == 1);
  /* resume: the packets leave, hd falls to 3 -> XON */
  d.in_cr[2] = 1;
  d.in.credit_mask = 1u << 2;
  long out_flits = 0;
  for (; cyc < 60; cyc++) {
    CHECK(test_drv_step(&d) == ASW_OK);
    out_flits += (long)(d.out.flit_mask >> 2 & 1u);
    if (d.out.credit_mask & 2u) {
      if (xon_at < 0) xon_at = cyc; else credits++;
      CHECK(d.out_cr[1] == 1);
    }
    CHECK((d.out.credit_mask & ~2ull) == 0);
  }
  CHECK(out_flits == 12 && credits == 0 && xon_at > 0);
  CHECK(test_rd(sw, ASW_REG_PFC_STATE(1)) == 0 && test_rd(sw, ASW_REG_CRED(2, 1)) == 32);
  CHECK(test_rd(sw, ASW_REG_PFC_COUNTER(1, ASW_PCNT_SENT)) == 2);
  CHECK(asw_switch_idle(sw));
  /* CNT_CLEAR clears the PFC counters */
  CHECK(asw_reg_write(sw, ASW_REG_CNT_CLEAR, 0) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_PFC_COUNTER(1, ASW_PCNT_SENT)) == 0);
  /* a mode change resets the pause view: pause, then turn PFC off on 2 */
  d.in_cr[2] = 0;
  d.in.credit_mask = 1u << 2;
  CHECK(test_drv_step(&d) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_CRED(2, 0)) == 0);
  d.in.reg_en = d.in.reg_we = 1;
  d.in.reg_addr = ASW_REG_PFC_EN(0);
  d.in.reg_wdata = 0x2;
  CHECK(test_drv_step(&d) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_CRED(2, 0)) == 32 && test_rd(sw, ASW_REG_PFC_EN(0)) == 2);
  /* a frame for VC >= V is a protocol error */
  d.in_cr[1] = 2;
  d.in.credit_mask = 1u << 1;
  CHECK(test_drv_step(&d) == ASW_EPROTO);
  asw_switch_free(sw);
}

/* Random traffic on a switch whose every port is a PFC port: upstream
 * senders obey the frames (a new packet only on a resumed priority; frames
 * seen at the end of a cycle act from the next), downstream pauses and
 * resumes at random. With headroom BUF - XOFF >= LMAX + V + 2 no buffer
 * overflows and every flit arrives; with obey = 0 (a planted bug: the
 * sender ignores XOFF) the overflow is a protocol error. Returns 1 if the
 * run ended in ASW_EPROTO. */
static int pfc_random_run(unsigned seed, int obey, long *frames_out, long *paused_cycles) {
  enum { P = 4, V = 2, BUF = 24, LMAX = 6 };
  test_drv d;
  if (test_drv_init(&d, P, V, BUF, LMAX, 64)) return 0;
  asw_switch *sw = d.sw;
  CHECK(asw_reg_write(sw, ASW_REG_PFC_EN(0), 0xF) == ASW_OK);
  unsigned xoff = BUF - (LMAX + V + 2);
  CHECK(asw_reg_write(sw, ASW_REG_PFC_THRESH, xoff | (xoff / 2) << 16) == ASW_OK);
  uint64_t rng = seed * 2654435761u + 1;
  unsigned upaused[P] = {0}, dpaused[P] = {0}; /* upstream view, downstream state */
  unsigned left[P] = {0}, cvc[P] = {0};
  long sent = 0, recv = 0, frames = 0, pc = 0;
  int eproto = 0;
  for (long cyc = 0; cyc < 6000; cyc++) {
    int gen = cyc < 5000;
    for (unsigned p = 0; p < P; p++) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      unsigned r = (unsigned)(rng >> 33);
      /* downstream flips a priority now and then (always resumes at the end) */
      unsigned v = (r >> 20) & 1u;
      int flip = ((r >> 21) % 23 == 0) || (cyc >= 5000 && (dpaused[p] >> v & 1u));
      if (flip) {
        dpaused[p] ^= 1u << v;
        d.in_cr[p] = (uint8_t)v;
        d.in.credit_mask |= 1u << p;
      }
      if (!left[p]) {
        unsigned vc = r & 1u, len = 1 + (r >> 1) % LMAX, dst = (r >> 8) % P;
        if (!gen || (r >> 12) % 4 == 0) continue;
        if (obey && (upaused[p] >> vc & 1u)) continue;
        left[p] = len;
        cvc[p] = vc;
        asw_flit f = {1, 1, len == 1, (uint8_t)vc, asw_hdr_make(dst, p, vc, len, 0, 0, 0), 0};
        d.in_flit[p] = f;
      } else {
        asw_flit f = {1, 0, left[p] == 1, (uint8_t)cvc[p], 0, 0};
        d.in_flit[p] = f;
      }
      left[p]--;
      d.in.flit_mask |= 1u << p;
      sent++;
    }
    int rc = test_drv_step(&d);
    if (rc == ASW_EPROTO) { eproto = 1; break; }
    CHECK(rc == ASW_OK);
    recv += __builtin_popcountll(d.out.flit_mask);
    for (uint64_t m = d.out.credit_mask; m; m &= m - 1) {
      unsigned p = (unsigned)__builtin_ctzll(m);
      upaused[p] ^= 1u << d.out_cr[p];
      frames++;
    }
    for (unsigned p = 0; p < P; p++) pc += upaused[p] != 0;
  }
  if (!eproto) {
    CHECKF(recv == sent, "seed %u: %ld flits sent, %ld received", seed, sent, recv);
    CHECK(asw_switch_idle(sw));
    for (unsigned p = 0; p < P; p++) CHECK(upaused[p] == 0); /* all resumed */
  }
  *frames_out = frames;
  *paused_cycles = pc;
  asw_switch_free(sw);
  return eproto;
}

void test_pfc_lossless_random(void) {
  long frames_total = 0, pc_total = 0;
  for (unsigned seed = 1; seed <= (test_quick ? 3u : 10u); seed++) {
    long frames, pc;
    CHECKF(!pfc_random_run(seed, 1, &frames, &pc), "seed %u: protocol error with headroom", seed);
    frames_total += frames;
    pc_total += pc;
  }
  CHECKF(frames_total > 20 && pc_total > 1000, "frames %ld, paused input-cycles %ld: "
         "PFC barely exercised", frames_total, pc_total);
  long frames, pc;
  CHECK(pfc_random_run(1, 0, &frames, &pc) == 1); /* planted bug: XOFF ignored */
}
