/* Register map (§11): reset values, read-back, every illegal-value rule,
 * read-only and unmapped addresses, CNT_CLEAR. */
#include <string.h>

#include "asw_switch.h"
#include "test.h"
#include "test_drv.h"

static asw_switch *make(unsigned P, unsigned V, unsigned BUF, unsigned table) {
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.ports = P;
  c.vcs = V;
  c.buf_flits = BUF;
  c.max_packet = BUF < 16 ? BUF : 16;
  c.table_entries = table;
  char err[128];
  asw_switch *sw = asw_switch_new(&c, err, sizeof err);
  CHECKF(sw != NULL, "%s", err);
  return sw;
}
void test_regs_reset_values(void) {
  asw_switch *sw = make(12, 3, 40, 100);
  if (!sw) return;
  CHECK(test_rd(sw, ASW_REG_ID) == 0x41535731u);
  CHECK(test_rd(sw, ASW_REG_PARAM0) == (12u | 3u << 8 | 1u << 12 | 1u << 15 | 16u << 16 | 32u << 24));
  CHECK(test_rd(sw, ASW_REG_PARAM1) == (40u | 16u << 16));
  CHECK(test_rd(sw, ASW_REG_PARAM2) == (100u | 8u << 17 | (ASW_FEAT_ALL & 0x1FFu) << 23));
  CHECK(test_rd(sw, ASW_REG_ARN_CTRL) == 0 && test_rd(sw, ASW_REG_ARN_UP(0)) == 0);
  CHECK(test_rd(sw, ASW_REG_CD_THRESH) == (32u | 25u << 16)); /* 81%, 63% of 40 */
  CHECK(test_rd(sw, ASW_REG_FCTH) == 31u && test_rd(sw, ASW_REG_CRT) == 1024u && test_rd(sw, ASW_REG_ARN_TTL) == 4096u);
  CHECK(test_rd(sw, ASW_REG_ROUTE_CTRL) == asw_route_ctrl(0, 0, 0xFF, 1));
  CHECK(test_rd(sw, ASW_REG_VC_CTRL) == 0);
  CHECK(test_rd(sw, ASW_REG_THRESH) == (10u | 20u << 16));
  CHECK(test_rd(sw, ASW_REG_LFSR_SEED) == 1);
  CHECK(test_rd(sw, ASW_REG_DEFAULT_PORT) == 0);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 0);
  CHECK(test_rd(sw, ASW_REG_CNT_CLEAR) == 0);
  for (unsigned c = 0; c < 4; c++) CHECK(test_rd(sw, ASW_REG_CSET(c, 0)) == 0 && test_rd(sw, ASW_REG_CSET(c, 1)) == 0);
  for (unsigned o = 0; o < 12; o++)
    for (unsigned s = 0; s < 16; s++) CHECK(test_rd(sw, ASW_REG_SL2VC(o, s)) == s % 3);
  for (unsigned o = 0; o < 12; o++)
    for (unsigned v = 0; v < 3; v++) CHECK(test_rd(sw, ASW_REG_CRED(o, v)) == 40);
  CHECK(test_rd(sw, ASW_REG_CRED(0, 3)) == 0); /* v >= V: unmapped */
  CHECK(test_rd(sw, ASW_REG_OCC(11, 2, 11)) == 0);
  CHECK(test_rd(sw, ASW_REG_FWD(99)) == 0);
  CHECK(test_rd(sw, 0x00017) == 0 && test_rd(sw, 0x3000) == 0 && test_rd(sw, 0xFFFFF) == 0);
  uint32_t d;
  CHECK(asw_reg_read(sw, 0x100000, &d) == ASW_EINVAL); /* wider than 20 bits */
  asw_switch_free(sw);
  /* BUF = 16384 reads as 0x4000, DW and TABLE as configured */
  asw_config c;
  asw_config_default(&c);
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  c.vcs = 4;
  c.buf_flits = 16384;
  c.dest_bits = 7;
  c.table_entries = 128;
  sw = asw_switch_new(&c, NULL, 0);
  CHECK(sw && test_rd(sw, ASW_REG_PARAM1) == (0x4000u | 7u << 16) && test_rd(sw, ASW_REG_PARAM2) == (128u | 8u << 17 | (ASW_FEAT_ALL & 0x1FFu) << 23));
  asw_switch_free(sw);
}

typedef struct { uint32_t addr, data; } wr_case;

void test_regs_legal_writes(void) {
  asw_switch *sw = make(40, 4, 64, 300);
  if (!sw) return;
  const wr_case ok[] = {
      {ASW_REG_ROUTE_CTRL, asw_route_ctrl(2, 2, 0x5A, 15)},
      {ASW_REG_ROUTE_CTRL, asw_route_ctrl(1, 1, 0, 1)},
      {ASW_REG_VC_CTRL, 3},
      {ASW_REG_THRESH, 64u << 16 | 64u},
      {ASW_REG_THRESH, 0},
      {ASW_REG_LFSR_SEED, 0xBEEF},
      {ASW_REG_DEFAULT_PORT, 39},
      {ASW_REG_CSET(3, 0), 0xFFFFFFFFu},
      {ASW_REG_CSET(3, 1), 0xFFu},
      {ASW_REG_SL2VC(39, 15), 3},
      {ASW_REG_FWD(299), asw_fwd_entry(39, 63, 3, 1)},
      {ASW_REG_FWD(0), 63}, /* det_port >= P is legal while invalid */
  };
  for (unsigned k = 0; k < sizeof ok / sizeof ok[0]; k++) {
    CHECKF(asw_reg_write(sw, ok[k].addr, ok[k].data) == ASW_OK, "write 0x%x = 0x%x", ok[k].addr, ok[k].data);
    CHECKF(test_rd(sw, ok[k].addr) == ok[k].data, "read-back of 0x%x", ok[k].addr);
  }
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 0);
  /* ROUTE_CTRL bits above 15 and LFSR_SEED bits above 15 are ignored and
   * read as 0; DEFAULT_PORT and SL2VC compare the whole value */
  CHECK(asw_reg_write(sw, ASW_REG_ROUTE_CTRL, 0xFFFF0000u | asw_route_ctrl(1, 0, 0xFF, 1)) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_ROUTE_CTRL) == asw_route_ctrl(1, 0, 0xFF, 1));
  CHECK(asw_reg_write(sw, ASW_REG_LFSR_SEED, 0x12345678u) == ASW_OK && test_rd(sw, ASW_REG_LFSR_SEED) == 0x5678);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 0);
  CHECK(asw_reg_write(sw, ASW_REG_SL2VC(0, 0), 0xF2u) == ASW_EINVAL && test_rd(sw, ASW_REG_SL2VC(0, 0)) == 0);
  CHECK(asw_reg_write(sw, ASW_REG_DEFAULT_PORT, 0x105u) == ASW_EINVAL && test_rd(sw, ASW_REG_DEFAULT_PORT) == 39);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 2);
  asw_switch_free(sw);
}

void test_regs_illegal_writes(void) {
  asw_switch *sw = make(20, 2, 32, 50);
  asw_switch *sw1 = make(8, 1, 32, 50);
  if (!sw || !sw1) return;
  const wr_case bad[] = {
      {ASW_REG_ROUTE_CTRL, asw_route_ctrl(3, 0, 0xFF, 1)},
      {ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 3, 0xFF, 1)},
      {ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, 0)},
      {ASW_REG_VC_CTRL, 0x80},          /* bits above 6 */
      {ASW_REG_VC_CTRL, 0x80000001u},
      {ASW_REG_VC_CTRL, 2u << 4 | 4u}, /* esc_vc 2 >= V = 2 (§16.3) */
      {ASW_REG_THRESH, 9u << 16 | 10u}, /* LTTH > HTTH */
      {ASW_REG_THRESH, 33u << 16 | 1u}, /* HTTH > BUF */
      {ASW_REG_DEFAULT_PORT, 20},
      {ASW_REG_DEFAULT_PORT, 63},
      {ASW_REG_DEFAULT_PORT, 0x40},
      {ASW_REG_SL2VC(0, 0), 0x100},
      {ASW_REG_CSET(0, 0), 1u << 20},
      {ASW_REG_CSET(2, 1), 1u},
      {ASW_REG_SL2VC(3, 4), 2},
      {ASW_REG_SL2VC(19, 15), 7},
      {ASW_REG_FWD(1), asw_fwd_entry(20, 0, 0, 0)}, /* det_port >= P, valid */
      {ASW_REG_FWD(1), asw_fwd_entry(1, 0, 0, 0) | 1u << 6},
      {ASW_REG_FWD(1), asw_fwd_entry(1, 0, 0, 0) | 1u << 7},
      {ASW_REG_FWD(1), asw_fwd_entry(1, 0, 0, 0) | 1u << 14},
      {ASW_REG_FWD(1), asw_fwd_entry(1, 0, 0, 0) | 1u << 15},
      {ASW_REG_FWD(1), 1u << 6}, /* reserved bits while invalid */
      /* read-only (index first_ro) */
      {ASW_REG_ID, 0}, {ASW_REG_PARAM0, 0}, {ASW_REG_PARAM1, 0}, {ASW_REG_PARAM2, 0},
      {ASW_REG_REG_ERRORS, 0}, {ASW_REG_COUNTER(0, 0), 0}, {ASW_REG_COUNTER(19, 7), 0},
      {ASW_REG_OCC(0, 0, 0), 0}, {ASW_REG_OCC(19, 1, 19), 0},
      {ASW_REG_CRED(0, 0), 0}, {ASW_REG_CRED(19, 1), 0},
      {ASW_REG_OCC(0, 0, 19), 0},
      /* unmapped (index first_unmapped) */
      {0x00017, 0}, {0x000FF, 0}, {ASW_REG_CSET(3, 1) + 1, 0}, {ASW_REG_SL2VC(20, 0), 0},
      {ASW_REG_COUNTER(20, 0), 0}, {ASW_REG_OCC(20, 0, 0), 0}, {ASW_REG_CRED(20, 0), 0},
      {ASW_REG_FWD(50), 0}, {0xFFFFF, 0}, {0x100000, 0},
      {ASW_REG_OCC(0, 2, 0), 0}, {ASW_REG_OCC(0, 0, 20), 0}, {ASW_REG_CRED(0, 2), 0},
  };
  unsigned n = sizeof bad / sizeof bad[0];
  unsigned first_ro = 0, first_unmapped = 0;
  for (unsigned k = 0; k < n; k++) {
    if (bad[k].addr == ASW_REG_ID) first_ro = k;
    if (bad[k].addr == 0x00017) first_unmapped = k;
  }
  for (unsigned k = 0; k < n; k++) {
    uint32_t before = 0, after = 0;
    int mapped = (bad[k].addr >> 20) == 0;
    if (mapped) before = test_rd(sw, bad[k].addr);
    CHECKF(asw_reg_write(sw, bad[k].addr, bad[k].data) == ASW_EINVAL, "write 0x%x = 0x%x accepted", bad[k].addr, bad[k].data);
    CHECKF(strlen(asw_switch_error(sw)) > 0, "no message for 0x%x", bad[k].addr);
    int ro = k >= first_ro && k < first_unmapped;
    CHECKF(strstr(asw_switch_error(sw), ro ? "read-only" : "") != NULL &&
               (ro || strstr(asw_switch_error(sw), "read-only") == NULL),
           "0x%x: '%s'", bad[k].addr, asw_switch_error(sw));
    if (mapped) after = test_rd(sw, bad[k].addr);
    if (bad[k].addr != ASW_REG_REG_ERRORS) /* it counts this write */
      CHECKF(before == after, "0x%x changed by an illegal write", bad[k].addr);
    CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == k + 1);
  }
  CHECK(asw_reg_write(sw1, ASW_REG_VC_CTRL, 2) == ASW_EINVAL); /* afi with V = 1 */
  CHECK(asw_reg_write(sw1, ASW_REG_VC_CTRL, 1) == ASW_OK);
  CHECK(asw_reg_write(sw1, ASW_REG_SL2VC(0, 0), 1) == ASW_EINVAL);
  CHECK(test_rd(sw1, ASW_REG_REG_ERRORS) == 2);
  /* §16.3 FWD.amask: ports 0..11, none >= P (P = 8 here; legal while invalid too) */
  CHECK(asw_reg_write(sw1, ASW_REG_FWD(1), 0x80u << 18) == ASW_OK);
  CHECK(asw_reg_write(sw1, ASW_REG_FWD(1), 0x100u << 18) == ASW_EINVAL);
  CHECK(asw_reg_write(sw1, ASW_REG_FWD(1), asw_fwd_entry(1, 0, 0, 0) | 0x800u << 18) == ASW_EINVAL);
  CHECK(test_rd(sw1, ASW_REG_FWD(1)) == 0x80u << 18);
  CHECK(test_rd(sw1, ASW_REG_REG_ERRORS) == 4);
  /* CNT_CLEAR does not clear REG_ERRORS */
  CHECK(asw_reg_write(sw, ASW_REG_CNT_CLEAR, 0) == ASW_OK);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == n);
  asw_switch_free(sw);
  asw_switch_free(sw1);
}

