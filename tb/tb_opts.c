/* tb_opts.c — the stimulus's run options (tb_traffic.h): names of the routing modes,
 * VC maps, scenarios and ARN settings, and the parser shared by the harnesses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_traffic.h"

static const char *const routing_names[TB_ROUTE_N] = {"det", "obl", "ada", "th", "2th"};
static const char *const vcmap_names[TB_VC_N] = {"id", "sl", "obqa", "afi", "obqa-afi"};
static const char *const scen_names[TB_SCEN_N] = {
    "random", "hotspot", "full",   "zerocred", "len1", "lenmax", "rewrite", "proto",
    "refresh", "replace", "adapted", "consume", "evict", "drop", "branch", "hyst",
    "fcth",    "crt",     "root",    "clear"};
static const char *const arn_names[TB_ARN_N] = {"off", "arn", "afi", "adaptive-th-afi"};

static int find_name(const char *const *names, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], s) == 0) return i;
  return -1;
}
int tb_routing_from_name(const char *s) { return find_name(routing_names, TB_ROUTE_N, s); }
int tb_vcmap_from_name(const char *s) { return find_name(vcmap_names, TB_VC_N, s); }
int tb_scenario_from_name(const char *s) { return find_name(scen_names, TB_SCEN_N, s); }
const char *tb_routing_name(unsigned r) { return r < TB_ROUTE_N ? routing_names[r] : "?"; }
const char *tb_vcmap_name(unsigned v) { return v < TB_VC_N ? vcmap_names[v] : "?"; }
const char *tb_scenario_name(unsigned s) { return s < TB_SCEN_N ? scen_names[s] : "?"; }
int tb_arn_from_name(const char *s) { return find_name(arn_names, TB_ARN_N, s); }
const char *tb_arn_name(unsigned a) { return a < TB_ARN_N ? arn_names[a] : "?"; }
const char *tb_scenario_list(void) {
  static char buf[512];
  if (!buf[0])
    for (int i = 0; i < TB_SCEN_N; i++) {
      strcat(buf, scen_names[i]);
      if (i + 1 < TB_SCEN_N) strcat(buf, " ");
    }
  return buf;
}
static int parse_num(const char *s, unsigned long long max, unsigned long long *out) {
  char *end = NULL;
  if (!s || !*s || *s == '-') return -1;
  errno = 0;
  unsigned long long n = strtoull(s, &end, 0);
  if (*end || errno || n > max) return -1; /* errno: beyond 64 bits (ERANGE) */
  *out = n;
  return 0;
}
/* parse_num of an option's value, or -1 with "NAME: WHAT'VAL'" in err. */
static int num_opt(const char *name, const char *val, unsigned long long max,
                   unsigned long long *out, const char *what, char *err, size_t errlen) {
  if (!parse_num(val, max, out)) return 0;
  snprintf(err, errlen, "%s: %s'%s'", name, what, val ? val : "");
  return -1;
}

int tb_parse_opt(tb_opts *o, const char *name, const char *val, char *err, size_t errlen) {
  static const struct { const char *name; size_t off; unsigned long long max; } nums[] = {
      {"--hcdth", offsetof(tb_opts, hcdth), 0xFFFF}, {"--lcdth", offsetof(tb_opts, lcdth), 0xFFFF},
      {"--fcth", offsetof(tb_opts, fcth), 0xFFFF},   {"--crt", offsetof(tb_opts, crt), 0xFFFFFF},
      {"--ttl", offsetof(tb_opts, ttl), 0xFFFFFF},   {"--stage", offsetof(tb_opts, stage), 15},
      {"--arnx", offsetof(tb_opts, arnx), 3}};
  unsigned long long n;
  int idx;
  if (!strcmp(name, "--routing") || !strcmp(name, "--vcmap") || !strcmp(name, "--scen") ||
      !strcmp(name, "--arn")) {
    int r = name[2] == 'r' && name[3] == 'o' ? 0 : name[2] == 'v' ? 1 : name[2] == 's' ? 2 : 3;
    idx = !val ? -1 : r == 0 ? tb_routing_from_name(val) : r == 1 ? tb_vcmap_from_name(val)
        : r == 2 ? tb_scenario_from_name(val) : tb_arn_from_name(val);
    if (idx < 0) {
      static const char *const lists[3] = {"det obl ada th 2th", "id sl obqa afi obqa-afi",
                                           "off arn afi adaptive-th-afi"};
      snprintf(err, errlen, "%s: unknown value '%s' (one of %s)", name, val ? val : "",
               r == 2 ? tb_scenario_list() : lists[r == 3 ? 2 : r]);
      return -1;
    }
    if (r == 0) o->routing = (unsigned)idx;
    else if (r == 1) o->vcmap = (unsigned)idx;
    else if (r == 2) o->scenario = (unsigned)idx;
    else o->arn = (unsigned)idx;
    return 1;
  }
  if (!strcmp(name, "--seed") || !strcmp(name, "--cycles")) {
    if (num_opt(name, val, ~0ULL, &n, "not a number: ", err, errlen)) return -1;
    if (name[2] == 's') o->seed = n;
    else o->cycles = n;
    return 1;
  }
  if (!strcmp(name, "--linkfault")) {
    char *end = NULL;
    double r = val && *val ? strtod(val, &end) : -1.0;
    if (!val || !*val || *end || !(r >= 0.0 && r <= 1.0)) {
      snprintf(err, errlen, "--linkfault: a probability per link and cycle in 0..1, not '%s'",
               val ? val : "");
      return -1;
    }
    o->linkfault = r;
    return 1;
  }
  if (!strcmp(name, "--bubble") || !strcmp(name, "--qcn") || !strcmp(name, "--hash") ||
      !strcmp(name, "--gap") || !strcmp(name, "--vcadapt") || !strcmp(name, "--sar")) {
    if (num_opt(name, val, 1, &n, "0 or 1, not ", err, errlen)) return -1;
    if (name[2] == 'b') o->bubble = (unsigned)n;
    else if (name[2] == 'q') o->qcn = (unsigned)n;
    else if (name[2] == 'h') o->hash = (unsigned)n;
    else if (name[2] == 'v') o->vcadapt = (unsigned)n;
    else if (name[2] == 's') o->sar = (unsigned)n;
    else o->gap = (unsigned)n;
    return 1;
  }
  if (!strcmp(name, "--up") || !strcmp(name, "--pfc")) {
    if (num_opt(name, val, ~0ULL, &n, "not a port mask: ", err, errlen)) return -1;
    if (name[2] == 'u') o->up = (int64_t)n;
    else o->pfc = n;
    return 1;
  }
  for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
    if (!strcmp(name, nums[k].name)) {
      if (parse_num(val, nums[k].max, &n)) {
        snprintf(err, errlen, "%s: not a number in 0..%llu: '%s'", name, nums[k].max, val ? val : "");
        return -1;
      }
      *(long *)((char *)o + nums[k].off) = (long)n;
      return 1;
    }
  return 0;
}

void tb_opts_default(tb_opts *o) {
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->cycles = 20000;
  o->hcdth = o->lcdth = o->fcth = o->crt = o->ttl = o->stage = o->arnx = -1;
  o->up = -1;
}
