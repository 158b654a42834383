/* Route computation (§7): every mode and trigger, candidate list with
 * stage and K/DELTA restrictions, VC maps (SL table, OBQA, AFI), invalid
 * entries; credits module incl. 2TH hysteresis. */
#include <string.h>

#include "asw_switch.h" /* asw_config_default */
#include "credits.h"
#include "lfsr.h"
#include "regs.h"
#include "route_compute.h"
#include "test.h"

typedef struct {
  asw_config cfg;
  asw_regs r;
  asw_credits c;
} rc_env;

static void env_init(rc_env *e, unsigned P, unsigned V, unsigned BUF) {
  asw_config_default(&e->cfg);
  asw_config_set_features(&e->cfg, ASW_FEAT_ALL); /* §1: every feature built */
  e->cfg.ports = P;
  e->cfg.vcs = V;
  e->cfg.buf_flits = BUF;
  e->cfg.max_packet = BUF < 16 ? BUF : 16;
  asw_regs_init(&e->r, &e->cfg);
  asw_credits_init(&e->c, P, V, BUF, e->cfg.max_packet);
}
static void env_free(rc_env *e) {
  asw_regs_destroy(&e->r);
  asw_credits_destroy(&e->c);
}
static int wr(rc_env *e, uint32_t a, uint32_t d) {
  unsigned fx = 0;
  return asw_regs_write(&e->r, a, d, &fx, NULL, 0);
}
static void set_cred(rc_env *e, unsigned o, unsigned v, unsigned val) {
  e->c.out[o].cred[v] = (uint16_t)val;
}
static uint64_t hdr(unsigned dest, unsigned sl) { return asw_hdr_make(dest, 0, sl, 1, 0, 0, 0); }

void test_route_deterministic_and_sl2vc(void) {
  rc_env e;
  env_init(&e, 8, 4, 16);
  uint16_t l = 1;
  asw_route r = asw_route_compute(&e.r, &e.c, hdr(3, 6), asw_fwd_entry(5, 0, 0, 0), &l);
  CHECK(r.oport == 5 && r.ovc == 6 % 4 && !r.route_error && !r.adaptive_choice);
  CHECK(wr(&e, ASW_REG_SL2VC(5, 6), 1) == ASW_OK);
  r = asw_route_compute(&e.r, &e.c, hdr(3, 6), asw_fwd_entry(5, 0, 0, 0), &l);
  CHECK(r.ovc == 1);
  /* multipath entries route deterministically in mode det */
  wr(&e, ASW_REG_CSET(0, 0), 0xF0);
  r = asw_route_compute(&e.r, &e.c, hdr(3, 0), asw_fwd_entry(2, 0, 0, 1), &l);
  CHECK(r.oport == 2 && l == 1);
  /* invalid entry: DEFAULT_PORT, route error, VC from the SL table */
  wr(&e, ASW_REG_DEFAULT_PORT, 7);
  r = asw_route_compute(&e.r, &e.c, hdr(3, 2), 0, &l);
  CHECK(r.oport == 7 && r.route_error && r.ovc == 2);
  /* an invalid entry's other fields are ignored: with OBQA the VC is that
   * of lookahead 0, not of the stale lookahead 3 */
  wr(&e, ASW_REG_VC_CTRL, 1);
  r = asw_route_compute(&e.r, &e.c, hdr(3, 2), 3u << 8 | 5u, &l);
  CHECK(r.oport == 7 && r.route_error && r.ovc == 0);
  env_free(&e);
}

void test_route_oblivious(void) {
  rc_env e;
  env_init(&e, 16, 2, 16);
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_OBLIVIOUS, 0, 0xFF, 1));
  const uint64_t cset = 0x8A52; /* ports 1,4,6,9,11,15 */
  wr(&e, ASW_REG_CSET(2, 0), (uint32_t)cset);
  uint16_t l = 0x1234, ref = 0x1234;
  unsigned hits[16] = {0};
  for (int k = 0; k < 6000; k++) {
    asw_route r = asw_route_compute(&e.r, &e.c, hdr(9, 1), asw_fwd_entry(3, 0, 2, 1), &l);
    ref = asw_lfsr_next(ref);
    CHECK(l == ref);
    unsigned kk = (unsigned)((ref * 6u) >> 16), o = 0;
    for (uint64_t m = cset;; m &= m - 1)
      if (kk-- == 0) { o = (unsigned)__builtin_ctzll(m); break; }
    CHECK(r.oport == o && r.ovc == 1 && !r.adaptive_choice);
    hits[r.oport]++;
    if (test_failed_checks) break;
  }
  for (unsigned p = 0; p < 16; p++)
    if (cset >> p & 1u) CHECKF(hits[p] > 800 && hits[p] < 1200, "port %u: %u", p, hits[p]);
    else CHECK(hits[p] == 0);
  /* empty candidate set: det_port, LFSR unchanged */
  asw_route r = asw_route_compute(&e.r, &e.c, hdr(9, 1), asw_fwd_entry(3, 0, 1, 1), &l);
  CHECK(r.oport == 3 && l == ref);
  /* stage disabled (bit STAGE-1 of the mask): det_port, LFSR unchanged */
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_OBLIVIOUS, 0, 0xFB, 3));
  r = asw_route_compute(&e.r, &e.c, hdr(9, 1), asw_fwd_entry(3, 0, 2, 1), &l);
  CHECK(r.oport == 3 && l == ref);
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_OBLIVIOUS, 0, 0x04, 3));
  r = asw_route_compute(&e.r, &e.c, hdr(9, 1), asw_fwd_entry(3, 0, 2, 1), &l);
  CHECK(l != ref);
  /* stage 9..15 is beyond the 8-bit mask: never enabled */
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_OBLIVIOUS, 0, 0xFF, 9));
  ref = l;
  r = asw_route_compute(&e.r, &e.c, hdr(9, 1), asw_fwd_entry(3, 0, 2, 1), &l);
  CHECK(r.oport == 3 && l == ref);
  env_free(&e);
}

void test_route_cset(void) {
  /* The candidates are CSET[entry.cset] as written, whatever the destination: a K/DELTA
   * restriction is software's choice of sets (§7.2), e.g. ranks of the up ports
   * 1,3,4,6,9 split by rank mod 2 into sets 0 and 1, destination d using set d mod 2. */
  rc_env e;
  env_init(&e, 16, 1, 16);
  wr(&e, ASW_REG_CSET(0, 0), (1u << 1) | (1u << 4) | (1u << 9));
  wr(&e, ASW_REG_CSET(1, 0), (1u << 3) | (1u << 6));
  wr(&e, ASW_REG_CSET(3, 0), 0xF000);
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_OBLIVIOUS, 0, 0xFF, 1));
  for (unsigned d = 0; d < 8; d++) {
    CHECK(asw_route_candidates(&e.r, hdr(d, 0), asw_fwd_entry(0, 0, d % 2, 1)) ==
          (d % 2 ? ((1u << 3) | (1u << 6)) : ((1u << 1) | (1u << 4) | (1u << 9))));
    CHECK(asw_route_candidates(&e.r, hdr(d, 0), asw_fwd_entry(0, 0, 3, 1)) == 0xF000);
  }
  /* a CSET rewrite takes effect at once */
  wr(&e, ASW_REG_CSET(3, 0), 0x8000);
  CHECK(asw_route_candidates(&e.r, hdr(3, 0), asw_fwd_entry(0, 0, 3, 1)) == 0x8000);
  /* ROUTE_CTRL bits 31..16 (formerly DELTA) are ignored and read 0 */
  wr(&e, ASW_REG_ROUTE_CTRL, 0x00030000u | asw_route_ctrl(ASW_ROUTE_OBLIVIOUS, 0, 0xFF, 1));
  CHECK(e.r.route_mode == ASW_ROUTE_OBLIVIOUS);
  CHECK(asw_route_candidates(&e.r, hdr(5, 0), asw_fwd_entry(0, 0, 1, 1)) == ((1u << 3) | (1u << 6)));
  env_free(&e);
}

void test_route_adaptive_noth_th(void) {
  rc_env e;
  env_init(&e, 8, 2, 16); /* LTTH 4, HTTH 8 */
  wr(&e, ASW_REG_CSET(1, 0), 0xB6); /* ports 1,2,4,5,7 */
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, ASW_TRIG_NOTH, 0xFF, 1));
  uint32_t ent = asw_fwd_entry(4, 0, 1, 1);
  uint16_t l = 1;
  /* all candidates at BUF: the deterministic port wins the tie */
  asw_route r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 4 && !r.adaptive_choice && l == 1);
  /* most credits wins; ties keep the earlier in scan order 4,5,7,1,2 */
  set_cred(&e, 4, 1, 10);
  set_cred(&e, 5, 1, 12);
  set_cred(&e, 7, 1, 15);
  set_cred(&e, 1, 1, 15);
  set_cred(&e, 2, 1, 3);
  r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 7 && r.adaptive_choice && r.ovc == 1);
  set_cred(&e, 5, 0, 16); /* credits of another VC do not matter */
  set_cred(&e, 7, 1, 11);
  r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 1);
  /* the VC per port comes from SL2VC of that port */
  wr(&e, ASW_REG_SL2VC(5, 1), 0);
  r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 5 && r.ovc == 0);
  wr(&e, ASW_REG_SL2VC(5, 1), 1);
  /* TH: no search while cr(det) >= LTTH */
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, ASW_TRIG_TH, 0xFF, 1));
  set_cred(&e, 4, 1, 4);
  r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 4 && !r.adaptive_choice);
  set_cred(&e, 4, 1, 3);
  r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 1 && r.adaptive_choice);
  /* TH floor: candidates need more than LTTH credits */
  for (unsigned o = 0; o < 8; o++) set_cred(&e, o, 1, 4);
  set_cred(&e, 4, 1, 0);
  r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 4);
  set_cred(&e, 2, 1, 5);
  r = asw_route_compute(&e.r, &e.c, hdr(0, 1), ent, &l);
  CHECK(r.oport == 2);
  env_free(&e);
}

void test_route_adaptive_2th(void) {
  rc_env e;
  env_init(&e, 8, 1, 16); /* LTTH 4, HTTH 8 */
  wr(&e, ASW_REG_CSET(0, 0), 0x0F);
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, ASW_TRIG_2TH, 0xFF, 1));
  uint32_t ent = asw_fwd_entry(0, 0, 0, 1);
  uint16_t l = 1;
  set_cred(&e, 1, 0, 12);
  set_cred(&e, 2, 0, 2);
  set_cred(&e, 3, 0, 2);
  /* credit trajectory of port 0 and the expected flag (hysteresis) */
  static const unsigned cr[] = {16, 5, 3, 5, 7, 8, 5, 4, 3, 9};
  static const int cong[] = {0, 0, 1, 1, 1, 0, 0, 0, 1, 0};
  for (unsigned k = 0; k < 10; k++) {
    set_cred(&e, 0, 0, cr[k]);
    e.c.dirty |= 1;
    e.c.out[0].dirty_vc |= 1;
    asw_credits_update_cong(&e.c, e.r.ltth, e.r.htth, 0);
    CHECKF(asw_credits_cong(&e.c, 0, 0) == cong[k], "step %u", k);
    asw_route r = asw_route_compute(&e.r, &e.c, hdr(0, 0), ent, &l);
    CHECKF(r.oport == (cong[k] && 12 > 4 && cr[k] < 12 ? 1 : 0), "step %u: port %u", k, r.oport);
  }
  /* outputs not marked dirty keep their flag */
  set_cred(&e, 2, 0, 0);
  asw_credits_update_cong(&e.c, e.r.ltth, e.r.htth, 0);
  CHECK(!asw_credits_cong(&e.c, 2, 0));
  asw_credits_update_cong(&e.c, e.r.ltth, e.r.htth, 1); /* all */
  CHECK(asw_credits_cong(&e.c, 2, 0));
  env_free(&e);
}

void test_route_vc_maps(void) {
  rc_env e;
  env_init(&e, 8, 4, 16);
  uint32_t ent = asw_fwd_entry(2, 7, 0, 0); /* lookahead 7 */
  uint64_t h = hdr(1, 3), ha = asw_hdr_make(1, 0, 3, 1, 1, 2, 0); /* adapted */
  CHECK(asw_route_ovc(&e.r, h, ent, 2) == 3);
  CHECK(asw_route_ovc(&e.r, ha, ent, 2) == 3); /* adapted ignored without AFI */
  CHECK(wr(&e, ASW_REG_VC_CTRL, 1) == ASW_OK); /* OBQA */
  CHECK(asw_route_ovc(&e.r, h, ent, 2) == 7 % 4);
  CHECK(wr(&e, ASW_REG_VC_CTRL, 3) == ASW_OK); /* OBQA + AFI: R = V-1 */
  CHECK(asw_route_ovc(&e.r, h, ent, 2) == 7 % 3);
  CHECK(asw_route_ovc(&e.r, ha, ent, 2) == 3);
  CHECK(wr(&e, ASW_REG_VC_CTRL, 2) == ASW_OK); /* SL table + AFI */
  CHECK(asw_route_ovc(&e.r, h, ent, 2) == 3);
  CHECK(asw_route_ovc(&e.r, ha, ent, 2) == 3);
  /* adapted packet under AFI: det_port on V-1 even in adaptive mode */
  wr(&e, ASW_REG_CSET(0, 0), 0xFF);
  wr(&e, ASW_REG_ROUTE_CTRL, asw_route_ctrl(ASW_ROUTE_ADAPTIVE, 0, 0xFF, 1));
  set_cred(&e, 2, 3, 1);
  uint16_t l = 1;
  uint64_t ha0 = asw_hdr_make(1, 0, 0, 1, 1, 0, 0);
  asw_route r = asw_route_compute(&e.r, &e.c, ha0, asw_fwd_entry(2, 0, 0, 1), &l);
  CHECK(r.oport == 2 && r.ovc == 3 && !r.adaptive_choice);
  r = asw_route_compute(&e.r, &e.c, hdr(1, 0), asw_fwd_entry(2, 0, 0, 1), &l);
  CHECK(r.oport == 2 && r.ovc == 0); /* not adapted: searches, det wins tie */
  set_cred(&e, 2, 0, 5);
  r = asw_route_compute(&e.r, &e.c, hdr(1, 0), asw_fwd_entry(2, 0, 0, 1), &l);
  CHECK(r.oport == 3 && r.ovc == 0 && r.adaptive_choice);
  env_free(&e);
}

void test_credits_block(void) {
  asw_credits c;
  char err[128];
  CHECK(asw_credits_init(&c, 4, 2, 10, 3) == 0);
  CHECK(c.rich == 0xF);
  CHECK(asw_credits_get(&c, 3, 1) == 10);
  CHECK(asw_credits_check_return(&c, 3, 1, err, sizeof err) != 0); /* above BUF */
  CHECK(asw_credits_check_return(&c, 3, 2, err, sizeof err) != 0); /* vc >= V */
  asw_credits_reserve(&c, 3, 1, 4);
  CHECK(asw_credits_get(&c, 3, 1) == 6 && c.dirty == 8);
  CHECK(asw_credits_check_return(&c, 3, 1, err, sizeof err) == 0);
  asw_credits_return(&c, 3, 1);
  CHECK(asw_credits_get(&c, 3, 1) == 7 && asw_credits_get(&c, 3, 0) == 10);
  asw_credits_update_cong(&c, 8, 9, 0);
  CHECK(asw_credits_cong(&c, 3, 1) && !asw_credits_cong(&c, 3, 0) && c.dirty == 0);
  CHECK(c.rich == 0xF); /* 7 >= LMAX 3 */
  asw_credits_reserve(&c, 3, 1, 5);
  asw_credits_update_cong(&c, 8, 9, 0);
  CHECK(c.rich == 0x7);
  asw_credits_return(&c, 3, 1);
  asw_credits_update_cong(&c, 8, 9, 0);
  CHECK(c.rich == 0xF);
  asw_credits_reset(&c);
  CHECK(asw_credits_get(&c, 3, 1) == 10 && !asw_credits_cong(&c, 3, 1));
  asw_credits_destroy(&c);
}
