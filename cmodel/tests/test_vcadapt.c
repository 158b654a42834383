/* VC-adaptive routing (contract §16.3, ROUTE_CTRL mode 3) on one switch: the
 * legality rules (VOQ = 0 only, vc_adaptive built, QCN exclusion, VC_CTRL and
 * FWD.amask fields), the primary choice by credits in RC (scan order from
 * det_port, VCs in increasing order, ties to the first), the fallback tried in
 * SA when the primary lacks credits (escape VC, or the packet's own VC with
 * fb_same), no fallback without fb, the bubble rule on the fallback, and
 * conservation of every packet under random mode-3 traffic. */
#include <string.h>

#include "asw_switch.h"
#include "test.h"
#include "test_drv.h"

/* A switch of P ports, V VCs, BUF flits per VC with the given VOQ and every §1 feature
 * but those in off (ASW_FEAT_* bits) built, in d. */
static int vca_init(test_drv *d, unsigned P, unsigned V, unsigned BUF, unsigned LMAX,
                    unsigned voq, unsigned off) {
  return test_drv_init_ext(d, P, V, BUF, LMAX, 16, voq, ASW_FEAT_ALL & ~off);
}

static uint32_t vca_entry(unsigned det, unsigned amask, unsigned vlo, unsigned vn) {
  return asw_fwd_entry(det, (vlo & 7u) | ((vn - 1u) & 7u) << 3, 0, 0) | amask << 18;
}

static uint32_t vc_ctrl(unsigned fb, unsigned same, unsigned esc) {
  return fb << 2 | same << 3 | esc << 4;
}

void test_vcadapt_legality(void) {
  test_drv d;
  const uint32_t m3 = asw_route_ctrl(3, 0, 0xFF, 1);
  if (vca_init(&d, 5, 4, 16, 4, 1, 0)) return;
  CHECK(asw_reg_write(d.sw, ASW_REG_ROUTE_CTRL, m3) == ASW_EINVAL); /* VOQ = 1 */
  CHECKF(strstr(asw_switch_error(d.sw), "VOQ = 0") != NULL, "%s", asw_switch_error(d.sw));
  asw_switch_free(d.sw);
  if (vca_init(&d, 5, 4, 16, 4, 0, ASW_FEAT_VC_ADAPTIVE)) return;
  CHECK(asw_reg_write(d.sw, ASW_REG_ROUTE_CTRL, m3) == ASW_EINVAL); /* vc_adaptive off */
  CHECKF(strstr(asw_switch_error(d.sw), "vc_adaptive") != NULL, "%s", asw_switch_error(d.sw));
  asw_switch_free(d.sw);
  if (vca_init(&d, 5, 4, 16, 4, 0, 0)) return;
  asw_switch *sw = d.sw;
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, m3) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_ROUTE_CTRL) == m3);
  /* QCN and mode 3 exclude each other, both ways */
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, test_rd(sw, ASW_REG_QCN_CTRL) | 1u) == ASW_EINVAL);
  CHECKF(strstr(asw_switch_error(sw), "exclude") != NULL, "%s", asw_switch_error(sw));
  CHECK((test_rd(sw, ASW_REG_QCN_CTRL) & 1u) == 0);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, 1)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, test_rd(sw, ASW_REG_QCN_CTRL) | 1u) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, m3) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_ROUTE_CTRL) == asw_route_ctrl(0, 0, 0xFF, 1));
  /* the same on the register bus (§10): illegal, counted, nothing changed */
  CHECK(asw_reg_write(sw, ASW_REG_QCN_CTRL, test_rd(sw, ASW_REG_QCN_CTRL) & ~1u) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, m3) == ASW_OK);
  uint32_t errs = test_rd(sw, ASW_REG_REG_ERRORS);
  d.in.reg_en = d.in.reg_we = 1;
  d.in.reg_addr = ASW_REG_QCN_CTRL;
  d.in.reg_wdata = test_rd(sw, ASW_REG_QCN_CTRL) | 1u;
  CHECK(test_drv_step(&d) == ASW_OK);
  CHECK((test_rd(sw, ASW_REG_QCN_CTRL) & 1u) == 0);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == errs + 1);
  /* VC_CTRL: fb, fb_same, esc_vc < V, bits above 6 */
  CHECK(asw_reg_write(sw, ASW_REG_VC_CTRL, vc_ctrl(1, 1, 3)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_VC_CTRL) == vc_ctrl(1, 1, 3));
  CHECK(asw_reg_write(sw, ASW_REG_VC_CTRL, vc_ctrl(1, 0, 4)) == ASW_EINVAL);
  CHECK(asw_reg_write(sw, ASW_REG_VC_CTRL, 1u << 7) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_VC_CTRL) == vc_ctrl(1, 1, 3));
  /* FWD.amask: bits for ports >= P (5) illegal */
  CHECK(asw_reg_write(sw, ASW_REG_FWD(0), vca_entry(1, 0x1Fu, 0, 4)) == ASW_OK);
  CHECK(asw_reg_write(sw, ASW_REG_FWD(0), vca_entry(1, 0x20u, 0, 4)) == ASW_EINVAL);
  CHECK(test_rd(sw, ASW_REG_FWD(0)) == vca_entry(1, 0x1Fu, 0, 4));
  asw_switch_free(sw);
}

/* Input 0 sends n 4-flit packets for destination 0, one every 12 cycles; no
 * output returns credits. (port, VC) of each packet's head on the outputs in
 * order, the number seen, and the adaptive_choices counter of input 0. */
static unsigned run_drain(test_drv *d, unsigned n, unsigned in_vc, unsigned *port,
                          unsigned *vc, uint32_t *adaptive) {
  unsigned seen = 0;
  for (unsigned c = 0; c < 12 * n + 40; c++) {
    unsigned p = c / 12, k = c % 12;
    if (p < n && k < 4) test_drv_put(d, 1, in_vc, 0, 4, k);
    CHECK(test_drv_step(d) == ASW_OK);
    for (uint64_t m = d->out.flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      if (d->out_flit[o].head && seen < 16) {
        port[seen] = o;
        vc[seen] = d->out_flit[o].vc;
        seen++;
      }
    }
    if (d->out.credit_mask) /* credits upstream: one per flit that left */
      CHECK(d->out.credit_mask == 2u && d->out_cr[1] == in_vc);
  }
  *adaptive = test_rd(d->sw, ASW_REG_COUNTER(1, ASW_CNT_ADAPTIVE));
  return seen;
}

/* det_port 2, amask {2, 3}, VC 1 adaptive, escape VC 0, BUF 8: the primary
 * alternates between the two ports as credits drain (ties to det_port, first
 * in scan order), then with both at 0 credits the primary (2, 1) cannot be
 * used and the fallback (2, VC 0) takes two packets; the seventh waits. */
void test_vcadapt_primary_and_fallback(void) {
  test_drv d;
  if (vca_init(&d, 4, 2, 8, 4, 0, 0)) return;
  CHECK(asw_reg_write(d.sw, ASW_REG_FWD(0), vca_entry(2, 0xCu, 1, 1)) == ASW_OK);
  CHECK(asw_reg_write(d.sw, ASW_REG_VC_CTRL, vc_ctrl(1, 0, 0)) == ASW_OK);
  CHECK(asw_reg_write(d.sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(3, 0, 0xFF, 1)) == ASW_OK);
  unsigned port[16], vc[16];
  uint32_t adaptive = 0;
  unsigned n = run_drain(&d, 7, 0, port, vc, &adaptive);
  const unsigned ep[] = {2, 3, 2, 3, 2, 2}, ev[] = {1, 1, 1, 1, 0, 0};
  CHECKF(n == 6, "%u packets out, 6 expected", n);
  for (unsigned k = 0; k < 6 && k < n; k++)
    CHECKF(port[k] == ep[k] && vc[k] == ev[k], "packet %u on (%u, %u), (%u, %u) expected", k,
           port[k], vc[k], ep[k], ev[k]);
  CHECK(adaptive == 2); /* the two on port 3 */
  CHECK(!asw_switch_idle(d.sw)); /* the seventh waits for credits */
  /* a credit for (2, VC 1)... four of them: the waiting packet takes its primary */
  for (unsigned k = 0; k < 4; k++) {
    d.in.credit_mask = 1u << 2;
    d.in_cr[2] = 1;
    CHECK(test_drv_step(&d) == ASW_OK);
  }
  unsigned got = 0;
  for (unsigned c = 0; c < 20; c++) {
    CHECK(test_drv_step(&d) == ASW_OK);
    if ((d.out.flit_mask >> 2 & 1u) && d.out_flit[2].head) {
      got++;
      CHECK(d.out_flit[2].vc == 1);
    }
  }
  CHECK(got == 1);
  asw_switch_free(d.sw);
}

/* fb = 0: the packet whose primary lacks credits waits (no fallback); fb_same:
 * the fallback is the packet's own input VC. */
void test_vcadapt_fallback_kinds(void) {
  for (unsigned kind = 0; kind < 2; kind++) {
    test_drv d;
    if (vca_init(&d, 4, 4, 8, 4, 0, 0)) return;
    /* det_port 3, no amask: port 3 only, VCs 0..1 */
    CHECK(asw_reg_write(d.sw, ASW_REG_FWD(0), vca_entry(3, 0, 0, 2)) == ASW_OK);
    CHECK(asw_reg_write(d.sw, ASW_REG_VC_CTRL, kind ? vc_ctrl(1, 1, 0) : vc_ctrl(0, 0, 0)) ==
          ASW_OK);
    CHECK(asw_reg_write(d.sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(3, 0, 0xFF, 1)) == ASW_OK);
    unsigned port[16], vc[16];
    uint32_t adaptive = 1;
    /* input VC 3: 4 packets fill (3,0) and (3,1) (VC 0 first on a tie), then the
     * fallback (fb_same) puts two more on VC 3 */
    unsigned n = run_drain(&d, 6, 3, port, vc, &adaptive);
    const unsigned ev[] = {0, 1, 0, 1, 3, 3};
    CHECKF(n == (kind ? 6u : 4u), "kind %u: %u packets out", kind, n);
    for (unsigned k = 0; k < n && k < 6; k++)
      CHECKF(port[k] == 3 && vc[k] == ev[k], "kind %u packet %u on (%u, %u)", kind, k, port[k],
             vc[k]);
    CHECK(adaptive == 0);
    asw_switch_free(d.sw);
  }
}

/* The bubble rule applies to the fallback with its own VC: BUBBLE[2] on VC 0
 * with ring input 3; a packet from input 1 enters the ring and needs 2*len. */
void test_vcadapt_fallback_bubble(void) {
  test_drv d;
  if (vca_init(&d, 4, 2, 8, 4, 0, 0)) return;
  CHECK(asw_reg_write(d.sw, ASW_REG_FWD(0), vca_entry(2, 0, 1, 1)) == ASW_OK);
  CHECK(asw_reg_write(d.sw, ASW_REG_VC_CTRL, vc_ctrl(1, 0, 0)) == ASW_OK);
  CHECK(asw_reg_write(d.sw, ASW_REG_ROUTE_CTRL, asw_route_ctrl(3, 0, 0xFF, 1)) == ASW_OK);
  CHECK(asw_reg_write(d.sw, ASW_REG_BUBBLE(2), asw_bubble_entry(3, 1, 1)) == ASW_OK);
  unsigned port[16], vc[16];
  uint32_t adaptive = 0;
  /* two on (2, 1); then the fallback (2, 0) needs 8 credits: one packet, not two */
  unsigned n = run_drain(&d, 5, 0, port, vc, &adaptive);
  CHECKF(n == 3, "%u packets out, 3 expected", n);
  const unsigned ev[] = {1, 1, 0};
  for (unsigned k = 0; k < n && k < 3; k++) CHECK(port[k] == 2 && vc[k] == ev[k]);
  CHECK(test_rd(d.sw, ASW_REG_BUBBLE_COUNTER(2, 0)) == 1); /* ring_enter: the fallback */
  /* bubble_stall counts for the primary (2, 1), which is not under the rule */
  CHECK(test_rd(d.sw, ASW_REG_BUBBLE_COUNTER(2, 1)) == 0);
  CHECK(test_rd(d.sw, ASW_REG_COUNTER(2, ASW_CNT_CREDIT_STALL)) > 0);
  asw_switch_free(d.sw);
}
