/* asw_table.c — see asw_table.h. */
#include "asw_table.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

enum { MAX_TOKENS = 8 };

/* Splits s in place at any of the characters in delim (no hidden state,
 * unlike strtok). Returns the next token or NULL; *save tracks the position. */
static char *next_token(char **save, const char *delim) {
  char *s = *save;
  s += strspn(s, delim);
  if (!*s) {
    *save = s;
    return NULL;
  }
  char *end = s + strcspn(s, delim);
  if (*end) *end++ = 0;
  *save = end;
  return s;
}

typedef struct {
  const char *name;
  int line;
  char *err;
  size_t errlen;
} ctx;

#define BAD(...)                                                        \
  do {                                                                  \
    char m_[200];                                                       \
    snprintf(m_, sizeof m_, __VA_ARGS__);                               \
    if (c->err && c->errlen) snprintf(c->err, c->errlen, "%s:%d: %s", c->name, c->line, m_); \
    return -1;                                                          \
  } while (0)

/* Decimal or 0x hexadecimal (a leading 0 is not octal: 010 is ten); digits
 * only, no sign or blank. */
static int number(ctx *c, const char *tok, const char *what, unsigned long max,
                  unsigned long *out) {
  char *end = NULL;
  const int hex = tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
  const char *digits = hex ? tok + 2 : tok;
  /* only digits after the prefix: strtoul would take a second 0x ("0x0x1") */
  int ok = *digits && strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789") == strlen(digits);
  errno = 0;
  unsigned long v = ok ? strtoul(digits, &end, hex ? 16 : 10) : 0;
  if (!ok || *end || errno || v > max)
    BAD("%s '%s' is not a number in 0..%lu", what, tok, max);
  *out = v;
  return 0;
}

/* key=value option; returns 1 if tok is `key=...` (value parsed), 0 if not. */
static int keyval(ctx *c, const char *tok, const char *key, unsigned long max,
                  unsigned long *out, int *err) {
  size_t n = strlen(key);
  if (strncmp(tok, key, n) || tok[n] != '=') return 0;
  if (number(c, tok + n + 1, key, max, out)) *err = 1;
  return 1;
}

static int named_reg(const char *s, unsigned long *addr) {
  static const struct { const char *n; unsigned a; } regs[] = {
      {"ROUTE_CTRL", ASW_REG_ROUTE_CTRL}, {"VC_CTRL", ASW_REG_VC_CTRL},
      {"THRESH", ASW_REG_THRESH},         {"LFSR_SEED", ASW_REG_LFSR_SEED},
      {"DEFAULT_PORT", ASW_REG_DEFAULT_PORT}, {"CNT_CLEAR", ASW_REG_CNT_CLEAR},
  };
  for (size_t k = 0; k < sizeof regs / sizeof regs[0]; k++)
    if (!strcmp(s, regs[k].n)) {
      *addr = regs[k].a;
      return 1;
    }
  return 0;
}

/* Parses one directive into up to 2 register writes. Returns the number of
 * writes, or -1. */
static int parse_line(ctx *c, char **t, int n, uint32_t *addr, uint32_t *data) {
  unsigned long a, b, v;
  const char *d = t[0];
  if (!strcmp(d, "reg")) {
    if (n != 3) BAD("reg needs NAME|ADDR VALUE");
    if (!named_reg(t[1], &a) && number(c, t[1], "register address", 0xFFFFF, &a)) return -1;
    if (number(c, t[2], "value", 0xFFFFFFFFul, &v)) return -1;
    addr[0] = (uint32_t)a;
    data[0] = (uint32_t)v;
    return 1;
  }
  if (!strcmp(d, "fwd")) {
    if (n < 3) BAD("fwd needs DEST PORT [lookahead=L] [cset=C] [multipath]");
    unsigned long dest, port, look = 0, cs = 0;
    unsigned multi = 0;
    if (number(c, t[1], "destination", 0xFFFF, &dest) || number(c, t[2], "port", 63, &port)) return -1;
    for (int k = 3; k < n; k++) {
      int e = 0;
      if (keyval(c, t[k], "lookahead", 63, &look, &e) || keyval(c, t[k], "cset", 3, &cs, &e)) {
        if (e) return -1;
      } else if (!strcmp(t[k], "multipath")) {
        multi = 1;
      } else {
        BAD("fwd: unknown option '%s'", t[k]);
      }
    }
    addr[0] = ASW_REG_FWD((uint32_t)dest);
    data[0] = asw_fwd_entry((unsigned)port, (unsigned)look, (unsigned)cs, multi);
    return 1;
  }
  if (!strcmp(d, "cset")) {
    if (n != 3) BAD("cset needs C PORTS (e.g. 0,2,5-7 or none)");
    if (number(c, t[1], "candidate set", 3, &a)) return -1;
    uint64_t m = 0;
    if (strcmp(t[2], "none")) {
      char *save = t[2]; /* split in place: the whole list, however long */
      for (char *p = next_token(&save, ","); p; p = next_token(&save, ",")) {
        char *dash = strchr(p, '-');
        unsigned long lo, hi;
        if (dash) {
          *dash = 0;
          if (number(c, p, "port", 63, &lo) || number(c, dash + 1, "port", 63, &hi)) return -1;
          if (lo > hi) BAD("cset: empty range %lu-%lu", lo, hi);
        } else {
          if (number(c, p, "port", 63, &lo)) return -1;
          hi = lo;
        }
        for (unsigned long q = lo; q <= hi; q++) m |= 1ull << q;
      }
    }
    addr[0] = ASW_REG_CSET((uint32_t)a, 0);
    data[0] = (uint32_t)m;
    addr[1] = ASW_REG_CSET((uint32_t)a, 1);
    data[1] = (uint32_t)(m >> 32);
    return 2;
  }
  if (!strcmp(d, "sl2vc")) {
    if (n != 4) BAD("sl2vc needs OUT SL VC");
    if (number(c, t[1], "output", 63, &a) || number(c, t[2], "SL", 15, &b) ||
        number(c, t[3], "VC", 7, &v))
      return -1;
    addr[0] = ASW_REG_SL2VC((uint32_t)a, (uint32_t)b);
    data[0] = (uint32_t)v;
    return 1;
  }
  if (!strcmp(d, "route")) {
    static const char *const modes[] = {"det", "oblivious", "adaptive"};
    static const char *const trigs[] = {"noth", "th", "2th"};
    if (n < 2) BAD("route needs MODE");
    unsigned mode = 3, trig = 0;
    unsigned long stage = 1, mask = 0xFF;
    for (unsigned k = 0; k < 3; k++)
      if (!strcmp(t[1], modes[k])) mode = k;
    if (mode == 3) BAD("route: mode '%s' is not det, oblivious or adaptive", t[1]);
    for (int k = 2; k < n; k++) {
      int e = 0;
      if (!strncmp(t[k], "trigger=", 8)) {
        unsigned found = 3;
        for (unsigned j = 0; j < 3; j++)
          if (!strcmp(t[k] + 8, trigs[j])) found = j;
        if (found == 3) BAD("route: trigger '%s' is not noth, th or 2th", t[k] + 8);
        trig = found;
      } else if (keyval(c, t[k], "stage", 15, &stage, &e) ||
                 keyval(c, t[k], "stage_mask", 255, &mask, &e)) {
        if (e) return -1;
      } else {
        if (!strncmp(t[k], "delta=", 6))
          BAD("route: delta= is gone: K/delta is expressed by candidate sets (cset lines, fwd cset=)");
        BAD("route: unknown option '%s'", t[k]);
      }
    }
    addr[0] = ASW_REG_ROUTE_CTRL;
    data[0] = asw_route_ctrl(mode, trig, (unsigned)mask, (unsigned)stage);
    return 1;
  }
  BAD("unknown directive '%s' (reg, fwd, cset, sl2vc, route)", d);
}

/* Parses the table; calls write(addr, data) for each register write.
 * `sw` receives the writes (a scratch switch in the checking pass). */
static int run_table(asw_switch *sw, const char *text, ctx *c) {
  const char *p = text;
  c->line = 0;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char buf[512];
    c->line++;
    if (len >= sizeof buf) BAD("line longer than %zu characters", sizeof buf - 1);
    memcpy(buf, p, len);
    buf[len] = 0;
    p += len + (eol ? 1 : 0);
    char *hash = strchr(buf, '#');
    if (hash) *hash = 0;
    char *tok[MAX_TOKENS + 1];
    int n = 0;
    char *save = buf;
    for (char *s = next_token(&save, " \t\r"); s; s = next_token(&save, " \t\r")) {
      if (n == MAX_TOKENS) BAD("too many fields");
      tok[n++] = s;
    }
    if (!n) continue;
    uint32_t addr[2], data[2];
    int w = parse_line(c, tok, n, addr, data);
    if (w < 0) return -1;
    for (int k = 0; k < w; k++)
      if (asw_reg_write(sw, addr[k], data[k]) != ASW_OK)
        BAD("%s", asw_switch_error(sw));
  }
  return 0;
}

int asw_table_apply(asw_switch *sw, const char *text, const char *name,
                    char *err, size_t errlen) {
  ctx c = {name ? name : "table", 0, err, errlen};
  char e[200];
  asw_switch *scratch = asw_switch_new(asw_switch_config(sw), e, sizeof e);
  if (!scratch) {
    if (err && errlen) snprintf(err, errlen, "%s: %s", c.name, e);
    return ASW_EINVAL;
  }
  int rc = run_table(scratch, text, &c);
  asw_switch_free(scratch);
  if (rc) return ASW_EINVAL;
  return run_table(sw, text, &c) ? ASW_EINVAL : ASW_OK;
}

int asw_table_load(asw_switch *sw, const char *path, char *err, size_t errlen) {
  size_t n;
  char *text = asw_textfile_read(path, &n, err, errlen);
  if (!text) return ASW_EINVAL;
  if (memchr(text, 0, n)) {
    free(text);
    if (err && errlen) snprintf(err, errlen, "%s: not a text file", path);
    return ASW_EINVAL;
  }
  int rc = asw_table_apply(sw, text, path, err, errlen);
  free(text);
  return rc;
}
