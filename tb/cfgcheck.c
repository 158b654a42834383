/* cfgcheck.c — rejects an illegal co-simulation configuration before anything
 * is built: the switch parameters (the C model's message naming the
 * parameter) and the §15 settings of `make cosim` (ARN, HCDTH, LCDTH, FCTH,
 * CRT, TTL, ARN_UP, STAGE: each written into a C model instance, so the
 * contract's legality rules decide). Prints a message naming the make
 * variable and exits 2.
 *   cfgcheck [--features MASK] [--se SE] [--sapipe 0|1] P V BUF LMAX PW DW TABLE VOQ ITERS AE [ARN HCDTH LCDTH FCTH CRT TTL UP STAGE]
 * MASK: the §1 features built, ASW_FEAT_* bits (PARAM2[31:23], PARAM3[7:6] order);
 * ARN is off|arn|afi|adaptive-th-afi; "-" leaves a §15 value unset (drawn per seed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"

static const char *const names[] = {"P",    "V",  "BUF", "PKT", "PW",    "DW",  "TABLE",
                                    "VOQ",  "ITERS", "AE", "ARN", "HCDTH", "LCDTH", "FCTH",
                                    "CRT",  "TTL", "ARN_UP", "STAGE"};

static int number(const char *name, const char *s, unsigned long long *out) {
  char *end = NULL;
  unsigned long long x = strtoull(s, &end, 0);
  if (!*s || *end || *s == '-') {
    fprintf(stderr, "cfgcheck: %s=%s is not a non-negative number\n", name, s);
    return -1;
  }
  *out = x;
  return 0;
}

static int reject(const char *var, const char *val, const char *why) {
  fprintf(stderr, "make cosim: illegal configuration: %s=%s: %s\n", var, val, why);
  return 2;
}

int main(int argc, char **argv) {
  unsigned long long feats = 0; /* §1 features built (ASW_FEAT_* bits; 0: none) */
  unsigned long long se = 0;   /* §1 SE (0: no Switch AR) */
  if (argc > 2 && !strcmp(argv[1], "--features")) {
    if (number("features", argv[2], &feats)) return 2;
    if (feats > ASW_FEAT_ALL) {
      fprintf(stderr, "cfgcheck: features=%s is not a mask of the %u features (0..%u)\n", argv[2],
              ASW_FEAT_COUNT, ASW_FEAT_ALL);
      return 2;
    }
    argv += 2;
    argc -= 2;
  }
  if (argc > 2 && !strcmp(argv[1], "--se")) {
    if (number("SE", argv[2], &se) || se > 0xFFFFFFFFull) return 2;
    argv += 2;
    argc -= 2;
  }
  unsigned long long sapipe = 0; /* §1 SAPIPE (§8.1) */
  if (argc > 2 && !strcmp(argv[1], "--sapipe")) {
    if (number("SAPIPE", argv[2], &sapipe) || sapipe > 0xFFFFFFFFull) return 2;
    argv += 2;
    argc -= 2;
  }
  if (argc != 11 && argc != 19) {
    fprintf(stderr, "usage: cfgcheck [--features MASK] [--se SE] [--sapipe 0|1] P V BUF LMAX PW DW TABLE VOQ ITERS AE "
                    "[ARN HCDTH LCDTH FCTH CRT TTL UP STAGE]\n");
    return 2;
  }
  unsigned long long v[18];
  for (int i = 0; i < 10; i++)
    if (number(names[i], argv[i + 1], &v[i]) || v[i] > 0xFFFFFFFFull) return 2;
  asw_config c = {.ports = (unsigned)v[0], .vcs = (unsigned)v[1], .buf_flits = (unsigned)v[2],
                  .max_packet = (unsigned)v[3], .payload_bits = (unsigned)v[4],
                  .dest_bits = (unsigned)v[5], .table_entries = (unsigned)v[6],
                  .voq = (unsigned)v[7], .iters = (unsigned)v[8], .arn_entries = (unsigned)v[9],
                  .sar_entries = (unsigned)se, .sa_pipe = (unsigned)sapipe};
  asw_config_set_features(&c, (unsigned)feats);
  char err[256];
  if (asw_config_check(&c, err, sizeof err) != ASW_OK) {
    fprintf(stderr, "make cosim: illegal configuration: %s\n", err);
    return 2;
  }
  if (argc == 11) return 0;
  const char *arn = argv[11];
  static const char *const modes[] = {"off", "arn", "afi", "adaptive-th-afi"};
  static const uint32_t ctrl[] = {0, 1, 2, 4};
  int mode = -1;
  for (int k = 0; k < 4; k++)
    if (!strcmp(arn, modes[k])) mode = k;
  if (mode < 0) return reject("ARN", arn, "not one of off arn afi adaptive-th-afi");
  int set[18] = {0};
  for (int i = 11; i < 18; i++) {
    if (!strcmp(argv[i + 1], "-")) continue;
    if (number(names[i], argv[i + 1], &v[i])) return 2;
    set[i] = 1;
  }
  int any = 0;
  for (int i = 11; i < 17; i++) any |= set[i];
  if (c.arn_entries == 0 && (mode != 0 || any)) {
    int i = 10;
    if (!mode)
      for (i = 11; i < 17 && !set[i]; i++) continue;
    return reject(names[i], argv[i + 1],
                  "needs AE >= 1 (the ARN registers exist only with ARN-table entries)");
  }
  asw_switch *sw = asw_switch_new(&c, err, sizeof err);
  if (!sw) {
    fprintf(stderr, "cfgcheck: %s\n", err);
    return 2;
  }
  int rc = 0;
  char why[160];
  if (set[17] && (v[17] < 1 || v[17] > 15)) rc = reject("STAGE", argv[18], "ROUTE_CTRL.stage is 1..15");
  if (!rc && set[16] && (c.ports < 64 && v[16] >> c.ports))
    rc = reject("ARN_UP", argv[17], "port mask with bits >= P");
  unsigned buf = c.buf_flits;
  if (!rc && set[11] && (v[11] < 1 || v[11] > buf)) {
    snprintf(why, sizeof why, "HCDTH must be in 1..BUF (%u)", buf);
    rc = reject("HCDTH", argv[12], why);
  }
  if (!rc && set[12] && (v[12] < 1 || v[12] > (set[11] ? v[11] : buf))) {
    snprintf(why, sizeof why, "LCDTH must be in 1..%s (%llu)", set[11] ? "HCDTH" : "BUF",
             set[11] ? v[11] : (unsigned long long)buf);
    rc = reject("LCDTH", argv[13], why);
  }
  static const struct { int i; uint32_t addr; } regs[] = {
      {13, ASW_REG_FCTH}, {14, ASW_REG_CRT}, {15, ASW_REG_ARN_TTL}};
  for (int k = 0; k < 3 && !rc; k++) {
    int i = regs[k].i;
    if (set[i] && (v[i] > 0xFFFFFFFFull || asw_reg_write(sw, regs[k].addr, (uint32_t)v[i]) != ASW_OK)) {
      snprintf(why, sizeof why, "rejected by the contract (%s)",
               i == 13 ? "FCTH <= BUF" : "1..2^24-1 cycles");
      rc = reject(names[i], argv[i + 1], why);
    }
  }
  /* With AE = 0 the ARN registers do not exist and only ARN=off got here. */
  if (!rc && c.arn_entries > 0 && asw_reg_write(sw, ASW_REG_ARN_CTRL, ctrl[mode]) != ASW_OK)
    rc = reject("ARN", arn, mode == 3 || mode == 2 ? "needs V >= 2 (and VOQ=1 for afi)"
                                                   : "needs VOQ=1 (contract 15.1)");
  asw_switch_free(sw);
  return rc;
}
