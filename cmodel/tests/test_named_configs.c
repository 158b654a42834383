/* test_named_configs.c — every named configuration of configs/switch_configs.toml (the one
 * file of every flow: FPGA rows, boards, co-simulation matrix, lint sets; turned into
 * switch_configs_gen.h by configs/switch_configs.py c-header) is a legal C model
 * configuration, builds a switch, and reads back its features in PARAM2[31:23] and
 * PARAM3[7:6] and its Switch AR entries in PARAM3[5:0] (0 without qcn, contract §1, §11). */
#include <stdio.h>

#include "asw_switch.h"
#include "switch_configs_gen.h"
#include "test.h"

void test_named_configs(void) {
  static const struct {
    const char *name;
    asw_config c;
    unsigned features;
  } cfgs[] = ASW_NAMED_CONFIGS;
  const unsigned n = sizeof cfgs / sizeof cfgs[0];
  CHECKF(n >= 40, "only %u named configurations", n);
  for (unsigned k = 0; k < n; k++) {
    char err[200] = "";
    const asw_config *c = &cfgs[k].c;
    CHECKF(asw_config_check(c, err, sizeof err) == ASW_OK, "%s: %s", cfgs[k].name, err);
    CHECKF(asw_config_features(c) == cfgs[k].features, "%s: features 0x%x, file says 0x%x",
           cfgs[k].name, asw_config_features(c), cfgs[k].features);
    asw_switch *sw = asw_switch_new(c, err, sizeof err);
    CHECKF(sw != NULL, "%s: %s", cfgs[k].name, err);
    if (!sw) continue;
    uint32_t p2 = 0, p3 = 0;
    asw_reg_read(sw, ASW_REG_PARAM2, &p2);
    asw_reg_read(sw, ASW_REG_PARAM3, &p3);
    CHECKF((p2 >> 23 | (p3 >> 6 & 3u) << 9) == cfgs[k].features, "%s: PARAM2 0x%x PARAM3 0x%x",
           cfgs[k].name, p2, p3);
    CHECKF((p3 & 0x3Fu) == (c->qcn ? c->sar_entries : 0), "%s: PARAM3 %u", cfgs[k].name, p3);
    asw_switch_free(sw);
  }
}
