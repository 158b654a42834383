/* cli.c — see cli.h. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "../net/optval.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_match(const char *cmd, int argc, char **argv, int *k, const char *name,
              const char **value) {
  const char *a = argv[*k];
  size_t n = strlen(name);
  if (strncmp(a, name, n)) return 0;
  if (a[n] == '=') {
    *value = a + n + 1;
    return 1;
  }
  if (a[n]) return 0;
  if (*k + 1 >= argc || !strncmp(argv[*k + 1], "--", 2)) {
    fprintf(stderr, "asw %s: %s needs a value\n", cmd, name);
    return -1;
  }
  *value = argv[++*k];
  return 1;
}

/* The wording is optval.h's, the same in every front end (asw net's keys, make cosim). */
static int say(const char *cmd, const char *msg) {
  fprintf(stderr, "asw %s: %s\n", cmd, msg);
  return -1;
}

int cli_uint(const char *cmd, const char *opt, const char *s, uint64_t min,
             uint64_t max, uint64_t *out) {
  char msg[512];
  if (!optval_parse_u64(s, out) && *out >= min && *out <= max) return 0;
  return say(cmd, (optval_not_int(msg, sizeof msg, opt, s, min, max), msg));
}

int cli_double(const char *cmd, const char *opt, const char *s, double min,
               double max, double *out) {
  char msg[512];
  if (!optval_parse_double(s, out) && *out >= min && *out <= max) return 0;
  return say(cmd, (optval_not_number(msg, sizeof msg, opt, s, min, max), msg));
}

int cli_choice(const char *cmd, const char *opt, const char *s,
               const char *const *names, unsigned n, unsigned *out) {
  for (unsigned k = 0; k < n; k++)
    if (!strcmp(s, names[k])) {
      *out = k;
      return 0;
    }
  char msg[512];
  return say(cmd, (optval_not_one_of(msg, sizeof msg, opt, s, names, n), msg));
}

int cli_onoff(const char *cmd, const char *opt, const char *s, int *on) {
  static const char *const words[] = {"on", "off", "1", "0"}; /* asw net's and make cosim's */
  unsigned c = 1;
  if (cli_choice(cmd, opt, s, words, 4, &c)) return -1;
  *on = c == 0 || c == 2;
  return 0;
}

int cli_unknown(const char *cmd, const char *arg) {
  char name[128], help[64], msg[256];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
  snprintf(help, sizeof help, "asw %s --help", cmd);
  return say(cmd, (optval_unknown(msg, sizeof msg, name, help), msg));
}

/* A copy of s followed, after its NUL, by the name n (l characters) and a NUL: the name
 * as the user wrote it, for cli_kv_name. */
static char *kv_dup(const char *s, const char *n, size_t l) {
  const size_t sl = strlen(s);
  char *d = malloc(sl + l + 2);
  if (d) {
    memcpy(d, s, sl + 1);
    memcpy(d + sl + 1, n, l);
    d[sl + 1 + l] = 0;
  }
  return d;
}

char **cli_kv_args(int argc, char **argv, const char *const *keep, int *n) {
  char **out = calloc((size_t)argc + 1, sizeof *out);
  int k = 0, ok = out != NULL;
  for (int i = 0; ok && i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    const size_t al = strcspn(a, "="); /* the name as written */
    int own = i == 0 || a[0] != '-' || a[1] != '-' || !a[2];
    for (const char *const *o = keep; !own && *o; o++) {
      const size_t l = strlen(*o);
      own = !strncmp(a, *o, (*o)[l - 1] == '=' ? l - 1 : l) && !a[(*o)[l - 1] == '=' ? l - 1 : l];
      if (own && (*o)[l - 1] == '=' && i + 1 < argc) v = argv[++i]; /* its value, as is */
    }
    if (own) {
      ok = (out[k++] = kv_dup(a, a, al)) != NULL && (!v || (out[k++] = kv_dup(v, v, 0)) != NULL);
      continue;
    }
    const int eq = a[al] == '=';
    if (!eq && i + 1 >= argc) { /* no value: as is (the command says so) */
      ok = (out[k++] = kv_dup(a, a, al)) != NULL;
      continue;
    }
    v = eq ? "" : argv[++i];
    char *kv = malloc(strlen(a) + strlen(v) + 1);
    ok = kv != NULL;
    if (ok) {
      sprintf(kv, eq ? "%s%s" : "%s=%s", a + 2, v);
      for (char *q = kv; *q && *q != '='; q++)
        if (*q == '-') *q = '_';
      ok = (out[k++] = kv_dup(kv, a, al)) != NULL;
      free(kv);
    }
  }
  if (!ok) {
    cli_kv_free(out, k);
    return NULL;
  }
  *n = k;
  return out;
}

const char *cli_kv_name(const char *arg) { return arg + strlen(arg) + 1; }

void cli_kv_free(char **args, int n) {
  if (!args) return;
  for (int i = 0; i < n; i++) free(args[i]);
  free(args);
}

void cli_key_error(const char *cmd, const char *shown, const char *key, const char *err) {
  const size_t kl = strlen(key);
  if (!strncmp(err, key, kl) && err[kl] == ':')
    fprintf(stderr, "asw %s: %s%s\n", cmd, shown, err + kl);
  else
    fprintf(stderr, "asw %s: %s\n", cmd, err);
}

int cli_check_out(const char *cmd, const char *opt, const char *path, int quiet) {
  if (!strcmp(path, "-")) return 0;
  struct stat st;
  const int existed = stat(path, &st) == 0;
  const char *why = NULL;
  if (!*path) why = "empty file name";
  else if (existed && S_ISDIR(st.st_mode)) why = "it is a directory";
  if (!why) {
    /* open without O_TRUNC: an existing file keeps its contents until the results are ready */
    int fd = open(path, O_WRONLY | O_CREAT, 0666);
    if (fd < 0) why = strerror(errno);
    else {
      close(fd);
      if (!existed) unlink(path); /* only the check: the file is written after the run */
    }
  }
  if (!why) return 0;
  if (!quiet) fprintf(stderr, "asw %s: %s: cannot write %s: %s\n", cmd, opt, path, why);
  return -1;
}

static double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p, const char *cmd) {
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->tty = isatty(2);
  p->every = p->tty ? 0.2 : 10.0;
  p->start = p->last = cli_now();
}

void cli_progress_cb(void *ctx, uint64_t cycle, uint64_t total) {
  cli_progress *p = ctx;
  const double t = cli_now();
  if (t - p->last < p->every || !cycle) return;
  p->last = t;
  const double frac = total ? (double)(cycle > total ? total : cycle) / (double)total : 1;
  const double left = frac > 0 ? (t - p->start) * (1 - frac) / frac : 0;
  if (p->tty) {
    char bar[31];
    for (int i = 0; i < 30; i++) bar[i] = i < (int)(frac * 30) ? '#' : '.';
    bar[30] = 0;
    fprintf(stderr, "\r[%s] %5.1f%%  cycle %llu/%llu  ETA %.0f s   ", bar, 100 * frac,
            (unsigned long long)cycle, (unsigned long long)total, left);
    p->drawn = 1;
  } else {
    fprintf(stderr, "asw %s: cycle %llu of %llu (%.0f %%), %.0f s left\n", p->cmd,
            (unsigned long long)cycle, (unsigned long long)total, 100 * frac, left);
  }
  fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
  if (p->drawn) fprintf(stderr, "\r%80s\r", "");
  p->drawn = 0;
}
