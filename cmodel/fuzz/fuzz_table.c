/* fuzz_table.c — libFuzzer target: the register-table parser
 * (cmodel/asw_table.c, asw_table_apply).
 *
 * Input: first byte picks one of a few switch configurations (P = 8 or 40
 * ports, so CSET word 1 exists; V = 1 or 2; AE = 0 or 8; TABLE = 16 or
 * 256), the rest is the table text (a NUL ends it, as for a C string).
 * Properties checked (a failure aborts, so libFuzzer keeps the input):
 *   - no crash, leak or undefined behaviour (ASan + UBSan);
 *   - a rejected table returns ASW_EINVAL with "t:LINE: ..." (or "t: ...")
 *     and leaves every register of the switch as it was (REG_ERRORS too);
 *   - an accepted table leaves REG_ERRORS at 0, and applying it again
 *     changes nothing (a table is a set of writes);
 *   - numbers are decimal or 0x hexadecimal: the same table with the
 *     leading zeros of its decimal numbers removed is accepted too and
 *     programs the same registers (a leading 0 is not octal);
 *   - `cset C LIST`: CSET[C] is the port set LIST names, parsed here
 *     independently (no silent truncation of a long list).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asw_table.h"

#define FAIL(...)                                  \
  do {                                             \
    fprintf(stderr, "fuzz_table: " __VA_ARGS__);   \
    fputc('\n', stderr);                           \
    abort();                                       \
  } while (0)

typedef struct {
  asw_config cfg;
  asw_switch *sw;
} target;

enum { NCFG = 4, MAXREGS = 1400 };
static target cfgs[NCFG];

static void setup(void) {
  if (cfgs[0].sw) return;
  for (unsigned k = 0; k < NCFG; k++) {
    asw_config *c = &cfgs[k].cfg;
    asw_config_default(c); /* P=8 V=2 TABLE=256 AE=8 */
    if (k == 1) { c->ports = 40; c->table_entries = 16; c->dest_bits = 4; }
    if (k == 2) { c->vcs = 1; c->arn_entries = 0; c->voq = 0; }
    if (k == 3) { c->ports = 2; c->vcs = 1; c->table_entries = 16; c->dest_bits = 8; }
    char e[200];
    cfgs[k].sw = asw_switch_new(c, e, sizeof e);
    if (!cfgs[k].sw) FAIL("config %u: %s", k, e);
  }
}

/* Every register a table can write, read back (plus REG_ERRORS). */
static unsigned snapshot(const asw_switch *sw, uint32_t *v) {
  const asw_config *c = asw_switch_config(sw);
  unsigned n = 0;
  static const uint32_t ctl[] = {ASW_REG_ROUTE_CTRL, ASW_REG_VC_CTRL, ASW_REG_THRESH,
                                 ASW_REG_LFSR_SEED, ASW_REG_DEFAULT_PORT, ASW_REG_REG_ERRORS,
                                 ASW_REG_ARN_CTRL, ASW_REG_ARN_UP(0), ASW_REG_ARN_UP(1),
                                 ASW_REG_CD_THRESH, ASW_REG_FCTH, ASW_REG_CRT, ASW_REG_ARN_TTL};
  for (unsigned i = 0; i < sizeof ctl / sizeof *ctl; i++) asw_reg_read(sw, ctl[i], &v[n++]);
  for (unsigned i = 0; i < 8; i++) asw_reg_read(sw, ASW_REG_CSET(i / 2, i % 2), &v[n++]);
  for (unsigned i = 0; i < c->ports * 16; i++) asw_reg_read(sw, ASW_REG_SL2VC(i / 16, i % 16), &v[n++]);
  for (unsigned i = 0; i < c->table_entries; i++) asw_reg_read(sw, ASW_REG_FWD(i), &v[n++]);
  return n;
}

/* Leading zeros of decimal numbers removed ("007" -> "7", "0x07" kept). */
static char *strip_zeros(const char *t) {
  size_t n = strlen(t);
  char *o = malloc(n + 1), *q = o;
  if (!o) abort();
  for (size_t i = 0; i < n;) {
    int start = (t[i] >= '0' && t[i] <= '9') &&
                (i == 0 || !((t[i - 1] >= '0' && t[i - 1] <= '9') || (t[i - 1] | 0x20) == 'x' ||
                             ((t[i - 1] | 0x20) >= 'a' && (t[i - 1] | 0x20) <= 'z') || t[i - 1] == '_'));
    if (start) {
      size_t j = i;
      while (t[j] >= '0' && t[j] <= '9') j++;
      int hexnum = (t[j] | 0x20) == 'x';
      if (!hexnum)
        while (i + 1 < j && t[i] == '0') i++;
      memcpy(q, t + i, j - i);
      q += j - i;
      i = j;
    } else {
      *q++ = t[i++];
    }
  }
  *q = 0;
  return o;
}

/* Independent reading of the accepted table's last `cset C LIST` lines:
 * compares with CSET[C], unless a later `reg` line wrote CSET[C] directly.
 * Returns quietly on anything it does not follow. */
static void check_csets(const asw_switch *sw, const char *t) {
  int seen[4] = {0};
  uint64_t want[4] = {0};
  while (*t) {
    const char *eol = strchr(t, '\n');
    size_t len = eol ? (size_t)(eol - t) : strlen(t);
    char line[600];
    if (len >= sizeof line) return;
    memcpy(line, t, len);
    line[len] = 0;
    t += len + (eol != NULL);
    char *h = strchr(line, '#');
    if (h) *h = 0;
    char *tok[4];
    int n = 0;
    for (char *s = strtok(line, " \t\r"); s && n < 4; s = strtok(NULL, " \t\r")) tok[n++] = s;
    if (n == 3 && !strcmp(tok[0], "reg")) { /* a raw write to CSET[c] replaces its list */
      int rhx = tok[1][0] == '0' && (tok[1][1] | 0x20) == 'x';
      char *end;
      unsigned long a = strtoul(tok[1], &end, rhx ? 16 : 10);
      if (!*end && a >= ASW_REG_CSET(0, 0) && a <= ASW_REG_CSET(3, 1))
        seen[(a - ASW_REG_CSET(0, 0)) / 2] = 0;
      continue;
    }
    if (n != 3 || strcmp(tok[0], "cset")) continue;
    int hx = tok[1][0] == '0' && (tok[1][1] | 0x20) == 'x';
    unsigned long c = strtoul(tok[1], NULL, hx ? 16 : 10);
    if (c > 3) return;
    uint64_t m = 0;
    if (strcmp(tok[2], "none")) {
      for (char *p = tok[2]; *p;) {
        if (*p == ',') { p++; continue; }
        char *end;
        int hex = !strncmp(p, "0x", 2) || !strncmp(p, "0X", 2);
        unsigned long lo = strtoul(p, &end, hex ? 16 : 10), hi = lo;
        if (*end == '-') {
          p = end + 1;
          hex = !strncmp(p, "0x", 2) || !strncmp(p, "0X", 2);
          hi = strtoul(p, &end, hex ? 16 : 10);
        }
        if (lo > 63 || hi > 63 || (*end && *end != ',')) return;
        for (unsigned long q = lo; q <= hi; q++) m |= 1ull << q;
        p = end;
      }
    }
    seen[c] = 1;
    want[c] = m;
  }
  for (unsigned c = 0; c < 4; c++) {
    if (!seen[c]) continue;
    uint32_t w0, w1;
    asw_reg_read(sw, ASW_REG_CSET(c, 0), &w0);
    asw_reg_read(sw, ASW_REG_CSET(c, 1), &w1);
    if (((uint64_t)w1 << 32 | w0) != want[c])
      FAIL("CSET[%u] = 0x%08x%08x, the table says 0x%016llx", c, w1, w0,
           (unsigned long long)want[c]);
  }
}

static uint32_t before[MAXREGS], after[MAXREGS], other[MAXREGS];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 4096) return 0;
  setup();
  target *tg = &cfgs[data[0] % NCFG];
  asw_switch *sw = tg->sw;
  asw_switch_reset(sw);
  /* some state to keep: a table must not disturb what it does not write */
  asw_reg_write(sw, ASW_REG_FWD(3), asw_fwd_entry(1, 2, 1, 1));
  asw_reg_write(sw, ASW_REG_CSET(1, 0), 0x3u);
  char *text = malloc(size);
  if (!text) abort();
  memcpy(text, data + 1, size - 1);
  text[size - 1] = 0;
  unsigned n = snapshot(sw, before);
  char err[300] = "";
  int rc = asw_table_apply(sw, text, "t", err, sizeof err);
  unsigned n2 = snapshot(sw, after);
  if (n2 != n) FAIL("register count changed");
  if (rc != ASW_OK) {
    if (rc != ASW_EINVAL) FAIL("rejected with %d, not ASW_EINVAL", rc);
    if (strncmp(err, "t:", 2) || strlen(err) < 4) FAIL("message without the place: '%s'", err);
    for (unsigned i = 0; i < n; i++)
      if (before[i] != after[i])
        FAIL("rejected table ('%s') changed register #%u: 0x%x -> 0x%x", err, i, before[i], after[i]);
  } else {
    uint32_t re;
    asw_reg_read(sw, ASW_REG_REG_ERRORS, &re);
    if (re) FAIL("accepted table counted %u REG_ERRORS", re);
    check_csets(sw, text);
    if (asw_table_apply(sw, text, "t", err, sizeof err) != ASW_OK) FAIL("second apply fails: %s", err);
    snapshot(sw, other);
    if (memcmp(after, other, n * sizeof *after)) FAIL("second apply changed registers");
    /* the same table without leading zeros programs the same registers */
    char *s = strip_zeros(text);
    if (strcmp(s, text)) {
      asw_switch_reset(sw);
      asw_reg_write(sw, ASW_REG_FWD(3), asw_fwd_entry(1, 2, 1, 1));
      asw_reg_write(sw, ASW_REG_CSET(1, 0), 0x3u);
      if (asw_table_apply(sw, s, "t", err, sizeof err) != ASW_OK)
        FAIL("accepted, but not without leading zeros: %s\n%s", err, s);
      snapshot(sw, other);
      for (unsigned i = 0; i < n; i++)
        if (after[i] != other[i])
          FAIL("leading zeros change register #%u: 0x%x vs 0x%x (octal?)\n%s", i, after[i], other[i], s);
    }
    free(s);
  }
  free(text);
  return 0;
}
