/* Text table loader: a good table programs the registers; malformed lines
 * and illegal values are rejected with file:line and leave the switch
 * untouched. */
#include <stdio.h>
#include <string.h>

#include "asw_table.h"
#include "test.h"
#include "test_drv.h"

static asw_switch *make(void) {
  asw_config c;
  asw_config_default(&c); /* P=8, V=2, TABLE=256 */
  asw_config_set_features(&c, ASW_FEAT_ALL); /* §1: every feature built */
  return asw_switch_new(&c, NULL, 0);
}
void test_table_good(void) {
  asw_switch *sw = make();
  const char *t =
      "# a comment line\n"
      "\n"
      "fwd 5 3                      # deterministic\n"
      "fwd 0x10 7 lookahead=12 cset=2 multipath\n"
      "cset 2 0,2,5-7\n"
      "cset 3 none\n"
      "sl2vc 4 9 1\n"
      "route adaptive trigger=2th stage=2 stage_mask=0x3\n"
      "reg THRESH 0x00100004\n"
      "reg 0x14 6\n"
      "\treg   LFSR_SEED    0xBEEF\r\n";
  char err[200] = "";
  CHECKF(asw_table_apply(sw, t, "t", err, sizeof err) == ASW_OK, "%s", err);
  CHECK(test_rd(sw, ASW_REG_FWD(5)) == asw_fwd_entry(3, 0, 0, 0));
  CHECK(test_rd(sw, ASW_REG_FWD(16)) == asw_fwd_entry(7, 12, 2, 1));
  CHECK(test_rd(sw, ASW_REG_CSET(2, 0)) == 0xE5u && test_rd(sw, ASW_REG_CSET(2, 1)) == 0);
  CHECK(test_rd(sw, ASW_REG_SL2VC(4, 9)) == 1);
  CHECK(test_rd(sw, ASW_REG_ROUTE_CTRL) == asw_route_ctrl(2, 2, 3, 2));
  CHECK(test_rd(sw, ASW_REG_THRESH) == 0x00100004u);
  CHECK(test_rd(sw, ASW_REG_DEFAULT_PORT) == 6);
  CHECK(test_rd(sw, ASW_REG_LFSR_SEED) == 0xBEEF);
  CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 0);
  /* from a file */
  char path[512];
  snprintf(path, sizeof path, "%s/test_table_%d.txt", test_tmpdir, test_quick);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs("fwd 1 2\n", f);
    fclose(f);
    CHECKF(asw_table_load(sw, path, err, sizeof err) == ASW_OK, "%s", err);
    CHECK(test_rd(sw, ASW_REG_FWD(1)) == asw_fwd_entry(2, 0, 0, 0));
    remove(path);
  }
  /* fuzz findings (cmodel/fuzz/corpus/table/regress-*): a leading 0 is not
   * octal; a cset list longer than 255 characters is read whole */
  CHECKF(asw_table_apply(sw, "reg LFSR_SEED 010\nfwd 010 3 lookahead=012\n", "t", err,
                         sizeof err) == ASW_OK, "%s", err);
  CHECK(test_rd(sw, ASW_REG_LFSR_SEED) == 10);
  CHECK(test_rd(sw, ASW_REG_FWD(10)) == asw_fwd_entry(3, 12, 0, 0));
  char longset[400] = "cset 1 ";
  for (int k = 0; k < 130; k++) strcat(longset, "0,");
  strcat(longset, "7\n");
  CHECKF(asw_table_apply(sw, longset, "t", err, sizeof err) == ASW_OK, "%s", err);
  CHECK(test_rd(sw, ASW_REG_CSET(1, 0)) == 0x81u);
  asw_switch_free(sw);
}

void test_table_bad(void) {
  struct { const char *text, *expect; } bad[] = {
      {"frob 1 2\n", "t:1: unknown directive"},
      {"fwd 1\n", "t:1: fwd needs"},
      {"\nfwd 1 x\n", "t:2: port 'x'"},
      {"fwd 1 8\n", "t:1: FWD[1]: det_port 8 >= P"},         /* illegal value */
      {"fwd 300 1\n", "t:1: register address"},             /* dest >= TABLE: unmapped */
      {"fwd 1 2 cset=4\n", "t:1: cset '4'"},
      {"fwd 1 2 fast\n", "t:1: fwd: unknown option 'fast'"},
      {"cset 4 1\n", "t:1: candidate set '4'"},
      {"cset 0 9\n", "CSET[0]"},                             /* port >= P */
      {"cset 0 5-2\n", "empty range"},
      {"cset 0 1,,x\n", "port 'x'"},
      {"sl2vc 1 2\n", "sl2vc needs"},
      {"sl2vc 1 2 2\n", "SL2VC[1][2]: value 2 >= V"},
      {"sl2vc 1 16 0\n", "SL '16'"},
      {"route fast\n", "mode 'fast'"},
      {"route det trigger=3th\n", "trigger '3th'"},
      {"route det stage=0\n", "STAGE 0"},
      {"route det delta=2\n", "candidate sets"},
      {"reg THRESH\n", "reg needs"},
      {"reg NOPE 1\n", "register address 'NOPE'"},
      {"reg 0x0 1\n", "read-only"},
      {"reg THRESH 0x00040005\n", "LTTH 5 > HTTH 4"},
      {"reg 0x100000 1\n", "register address '0x100000'"},
      {"reg THRESH -1\n", "value '-1'"},
      {"reg THRESH 0x1ffffffff\n", "value"},
      {"fwd 1 2 a b c d e f g\n", "too many fields"},
      {"reg THRESH +5\n", "value '+5'"},
      {"fwd 0x 1\n", "destination '0x'"},
      {"cset 0x0X1 3-34\n", "candidate set '0x0X1'"}, /* fuzz: a second 0x prefix */
  };
  for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    asw_switch *sw = make();
    /* a good first line: must not be applied when a later line is bad */
    char text[300];
    snprintf(text, sizeof text, "fwd 3 4\n%s", bad[k].text);
    char err[300] = "";
    CHECKF(asw_table_apply(sw, bad[k].text, "t", err, sizeof err) == ASW_EINVAL, "'%s' accepted", bad[k].text);
    CHECKF(strstr(err, bad[k].expect) != NULL, "'%s': message '%s' lacks '%s'", bad[k].text, err, bad[k].expect);
    CHECK(asw_table_apply(sw, text, "t", err, sizeof err) == ASW_EINVAL);
    CHECK(test_rd(sw, ASW_REG_FWD(3)) == 0);
    CHECK(test_rd(sw, ASW_REG_REG_ERRORS) == 0); /* checked on a scratch switch */
    asw_switch_free(sw);
  }
  asw_switch *sw = make();
  char err[300];
  char path[512];
  snprintf(path, sizeof path, "%s/no/such/table.txt", test_tmpdir);
  CHECK(asw_table_load(sw, path, err, sizeof err) == ASW_EINVAL);
  CHECK(strstr(err, "cannot open") != NULL);
  asw_switch_free(sw);
}
