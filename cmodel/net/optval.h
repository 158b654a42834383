/* optval.h — one number syntax and one wording for option values, in every front end
 * (issue 28): asw switch, asw trace and asw sweep's own options (cmodel/app/cli.c),
 * asw net's and asw sweep's keys and the binding's Network (netcfg.c); tb/cosim.py
 * (make cosim) and the binding's Switch copy the wording:
 *
 *   KEY: 'VALUE' is not an integer in LO..HI     (not a number, or out of range)
 *   KEY: 'VALUE' is not a number in LO..HI       (a real number)
 *   KEY: 'VALUE' is not one of A, B, C           (a word)
 *   KEY: unknown key (see HELP)
 *
 * KEY is the name as the user wrote it (--buffer-flits, buffer_flits). Header only: the
 * switch library, the network simulator and the asw program all use it. */
#ifndef ASW_OPTVAL_H
#define ASW_OPTVAL_H

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An unsigned integer: decimal, 0x hexadecimal (a leading 0 is not octal: 032 is 32) or an
 * integer in plain scientific notation (2e5). All of s; no sign, no blank. 0 or -1. */
static inline int optval_parse_u64(const char *s, uint64_t *out) {
  if (!isdigit((unsigned char)*s)) return -1;
  const int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  /* only hex digits after the prefix: strtoull would take a second 0x */
  if (hex && (!s[2] || strspn(s + 2, "0123456789abcdefABCDEF") != strlen(s + 2))) return -1;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
  if (errno || *end) {
    if (hex || strspn(s, "0123456789.eE+") != strlen(s)) return -1;
    double d = strtod(s, &end);
    if (*end || d < 0 || d != floor(d) || d >= 18446744073709551616.0) return -1;
    x = (unsigned long long)d;
  }
  *out = x;
  return 0;
}

/* A finite real number, all of s. 0 or -1. */
static inline int optval_parse_double(const char *s, double *out) {
  if (!*s || isspace((unsigned char)*s)) return -1;
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  if (errno || *end || !isfinite(d)) return -1;
  *out = d;
  return 0;
}

/* The messages (into buf, no newline); each returns -1 for `return optval_...(...)`. */
static inline int optval_not_int(char *buf, size_t n, const char *key, const char *value,
                                 uint64_t lo, uint64_t hi) {
  snprintf(buf, n, "%s: '%s' is not an integer in %llu..%llu", key, value,
           (unsigned long long)lo, (unsigned long long)hi);
  return -1;
}
static inline int optval_not_number(char *buf, size_t n, const char *key, const char *value,
                                    double lo, double hi) {
  snprintf(buf, n, "%s: '%s' is not a number in %g..%g", key, value, lo, hi);
  return -1;
}
/* names: n words, or NULL-terminated if n is 0. */
static inline int optval_not_one_of(char *buf, size_t n, const char *key, const char *value,
                                    const char *const *names, unsigned count) {
  int at = snprintf(buf, n, "%s: '%s' is not one of", key, value);
  for (unsigned k = 0; (count ? k < count : names[k] != NULL) && at >= 0 && (size_t)at < n; k++)
    at += snprintf(buf + at, n - (size_t)at, "%s %s", k ? "," : "", names[k]);
  return -1;
}
static inline int optval_unknown(char *buf, size_t n, const char *key, const char *help) {
  snprintf(buf, n, "%s: unknown key (see %s)", key, help);
  return -1;
}

#endif
