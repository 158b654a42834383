/* fuzz_netcfg.c — libFuzzer target: the `asw net` configuration parser
 * (cmodel/net/netcfg.c).
 *
 * Input: first byte selects the form, the rest is the text.
 *   even: a config file (netcfg_parse: `key = value` lines, # comments);
 *   odd:  command-line settings, one `key=value` per '\n'-separated piece
 *         (netcfg_set_arg), NUL bytes included as they come.
 * Properties checked (a failure aborts, so libFuzzer keeps the input):
 *   - no crash, leak or undefined behaviour (ASan + UBSan);
 *   - an error returns -1 with a non-empty message that names the place
 *     (file:line for a file; the key, or the argument, for a setting);
 *   - every accepted value is in its key's range: netcfg_write echoes a
 *     configuration that netcfg_parse reads back to the same echo (so a
 *     value cannot be silently truncated, wrapped or rounded);
 *   - netcfg_check, netcfg_json and netcfg_help do not crash on any
 *     configuration the setters accept.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netcfg.h"

#define FAIL(...)                                   \
  do {                                              \
    fprintf(stderr, "fuzz_netcfg: " __VA_ARGS__);   \
    fputc('\n', stderr);                            \
    abort();                                        \
  } while (0)

/* netcfg_write into a malloc'ed string. */
static char *echo(const net_cfg *c, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f) abort();
  netcfg_write(c, f);
  fclose(f);
  return buf;
}

static void roundtrip(const net_cfg *c) {
  size_t l1, l2;
  char *t1 = echo(c, &l1);
  net_cfg d;
  netcfg_default(&d);
  char err[600] = "";
  if (netcfg_parse(&d, t1, l1, "echo", err, sizeof err))
    FAIL("the echo of an accepted configuration does not load: %s\n%s", err, t1);
  /* the reloaded configuration is the same, bit for bit (doubles too):
   * list entries past the given ones are not part of it */
  net_cfg a = *c;
  for (unsigned i = a.hs_nodes_given; i < NETCFG_MAX_HOT; i++) a.hs_nodes[i] = d.hs_nodes[i] = 0;
  netcfg_resolve_auto(&a); /* the echo shows automatic values resolved (§16.4, §16.5) */
  a.warmup_given = d.warmup_given; /* the echo always writes warmup: a bookkeeping flag */
  /* the same for the ARN keys routing=arn-afi defaults unless given (§15, issue 27): the
   * echo writes their resolved values */
  a.arn_up_nodes_given = d.arn_up_nodes_given;
  a.adapted_arn_given = d.adapted_arn_given;
  a.alt_refresh_given = d.alt_refresh_given;
  if (memcmp(&a, &d, sizeof a)) {
    size_t off = 0; /* the first differing byte of net_cfg (offsetof names the field) */
    while (((const unsigned char *)&a)[off] == ((const unsigned char *)&d)[off]) off++;
    FAIL("echo reloads to a different configuration (net_cfg byte %zu):\n%s", off, t1);
  }
  char *t2 = echo(&d, &l2);
  if (l1 != l2 || memcmp(t1, t2, l1)) {
    /* name the first differing line */
    size_t i = 0, ls = 0;
    while (i < l1 && i < l2 && t1[i] == t2[i]) {
      if (t1[i] == '\n') ls = i + 1;
      i++;
    }
    FAIL("echo round trip differs at:\n  %.80s\nreloaded as:\n  %.80s", t1 + ls, t2 + ls);
  }
  /* JSON and cross-key checks must cope with anything the setters accept */
  char *j = NULL;
  size_t jl;
  FILE *f = open_memstream(&j, &jl);
  if (!f) abort();
  netcfg_json(c, f);
  fclose(f);
  if (jl < 2 || j[0] != '{' || j[jl - 1] != '}') FAIL("JSON echo not an object: %s", j);
  netcfg_check(c, err, sizeof err);
  free(j);
  free(t1);
  free(t2);
}

static int all_digits(const char *s, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

/* value of a digit string, saturated at 10^12 */
static unsigned long long dec(const char *s, size_t n) {
  unsigned long long x = 0;
  for (size_t i = 0; i < n; i++) x = x < 1000000000000ull ? x * 10 + (unsigned)(s[i] - '0') : x;
  return x;
}

/* An accepted setting `key=value` is what it says: a plain decimal value
 * is echoed unchanged (no wrap, no clamp), list entries and hsX-Y are
 * plain decimal numbers in range. */
static void check_accepted(const net_cfg *c, const char *arg) {
  const char *eq = strchr(arg, '=');
  if (!eq) FAIL("'%s' accepted without '='", arg);
  size_t kl = (size_t)(eq - arg);
  const char *v = eq + 1;
  size_t vl = strlen(v);
  if (kl == 15 && !strncmp(arg, "adaptive_stages", kl) && strcmp(v, "all")) {
    for (const char *p = v; *p;) {
      size_t n = strcspn(p, ",");
      if (!all_digits(p, n) || dec(p, n) < 1 || dec(p, n) > 8)
        FAIL("adaptive_stages '%s' accepted with entry '%.*s'", v, (int)n, p);
      p += n + (p[n] == ',');
    }
    return;
  }
  if (kl == 7 && !strncmp(arg, "traffic", kl) && (v[0] | 0x20) == 'h' && (v[1] | 0x20) == 's') {
    const char *dash = strchr(v + 2, '-');
    if (!dash || !all_digits(v + 2, (size_t)(dash - v - 2)) || !all_digits(dash + 1, strlen(dash + 1)) ||
        dec(v + 2, (size_t)(dash - v - 2)) > 100 || dec(dash + 1, strlen(dash + 1)) > NETCFG_MAX_HOT)
      FAIL("traffic '%s' accepted", v);
    return;
  }
  if (!all_digits(v, vl)) return;
  /* the echoed line of the key */
  size_t el;
  char *t = echo(c, &el);
  char pat[80];
  snprintf(pat, sizeof pat, "\n%.*s = ", (int)kl, arg);
  const char *line = strstr(t, pat);
  if (!line && !strncmp(t, pat + 1, strlen(pat + 1))) line = t - 1;
  if (line) {
    const char *e = line + strlen(pat);
    size_t en = strcspn(e, "\n");
    while (vl > 1 && *v == '0') v++, vl--;
    if (all_digits(e, en) && (en != vl || memcmp(e, v, vl)))
      FAIL("'%s' accepted but echoed as '%.*s'", arg, (int)en, e);
  }
  free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const int args = data[0] & 1;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  net_cfg c;
  netcfg_default(&c);
  char err[600];
  int ok = 1;
  if (!args) {
    err[0] = 0;
    if (netcfg_parse(&c, text, len, "f.cfg", err, sizeof err)) {
      if (strncmp(err, "f.cfg:", 6)) FAIL("file error without its name: '%s'", err);
      ok = 0;
    }
  } else {
    /* each piece NUL-terminated in a copy, as argv would be */
    char *buf = malloc(len + 1);
    if (!buf) abort();
    memcpy(buf, text, len);
    buf[len] = 0;
    char *p = buf, *end = buf + len;
    while (p <= end && ok) {
      char *nl = memchr(p, '\n', (size_t)(end - p));
      if (nl) *nl = 0;
      err[0] = 0;
      if (netcfg_set_arg(&c, p, err, sizeof err)) {
        if (!err[0]) FAIL("setting '%s' rejected without a message", p);
        /* the message names the key (or quotes the argument) */
        const char *eq = strchr(p, '=');
        size_t kl = eq ? (size_t)(eq - p) : strlen(p);
        if (kl > 40) kl = 40;
        if (kl && memmem(err, strlen(err), p, kl) == NULL)
          FAIL("error for '%s' does not name the key: '%s'", p, err);
        ok = 0;
      } else {
        check_accepted(&c, p);
      }
      if (!nl) break;
      p = nl + 1;
    }
    free(buf);
  }
  if (ok) roundtrip(&c);
  return 0;
}
