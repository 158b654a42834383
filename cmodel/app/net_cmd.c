/* net_cmd.c — `asw net`: simulate a fat-tree of C-model switches. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../net/netcfg.h"
#include "../net/network.h"
#include "commands.h"

static void net_usage(FILE *f) {
  fprintf(f,
          "usage: asw net [CONFIG_FILE] [key=value ...] [--seed N] [--json FILE]\n"
          "               [--csv FILE] [--quiet] [--print-config] [--help]\n"
          "Simulates a fat-tree of arnswitch C-model switches. Settings apply in\n"
          "order: defaults, CONFIG_FILE (`key = value` lines, # comments), then\n"
          "key=value arguments. --json writes the summary (configuration echoed),\n"
          "--csv the per-window series ('-' = stdout). Exit status: 0 ok, 2 bad\n"
          "usage or configuration, 1 simulation error, 3 watchdog (deadlock or\n"
          "starvation; the report names the blocked resources).\n"
          "Keys:\n");
  netcfg_help(f);
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
  double start, last;
} progress_state;

static void progress_cb(void *ctx, uint64_t cycle, uint64_t total) {
  progress_state *ps = ctx;
  double t = now_seconds();
  if (t - ps->last < 0.2 && cycle < total) return;
  ps->last = t;
  double frac = total ? (double)(cycle > total ? total : cycle) / (double)total : 1;
  double eta = frac > 0 ? (t - ps->start) * (1 - frac) / frac : 0;
  int width = 30, fill = (int)(frac * width);
  char bar[64];
  for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
  bar[width] = 0;
  fprintf(stderr, "\r[%s] %5.1f%%  cycle %llu/%llu  ETA %.0f s   ", bar, 100 * frac,
          (unsigned long long)cycle, (unsigned long long)total, eta);
}

static FILE *open_out(const char *path) {
  if (!strcmp(path, "-")) return stdout;
  return fopen(path, "w");
}

int cmd_net(int argc, char **argv) {
  net_cfg cfg;
  netcfg_default(&cfg);
  const char *json = NULL, *csv = NULL;
  int quiet = 0, print_cfg = 0;
  char err[512];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      net_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json") || !strcmp(a, "--csv") || !strcmp(a, "--seed")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "asw net: %s needs an argument\n", a);
        return 2;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "--json")) json = v;
      else if (!strcmp(a, "--csv")) csv = v;
      else if (netcfg_set(&cfg, "seed", v, err, sizeof err)) {
        fprintf(stderr, "asw net: --seed: %s\n", err);
        return 2;
      }
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
      quiet = 1;
    } else if (!strcmp(a, "--print-config")) {
      print_cfg = 1;
    } else if (a[0] == '-') {
      fprintf(stderr, "asw net: unknown option %s (see --help)\n", a);
      return 2;
    } else if (strchr(a, '=')) {
      if (netcfg_set_arg(&cfg, a, err, sizeof err)) {
        fprintf(stderr, "asw net: %s\n", err);
        return 2;
      }
    } else {
      if (netcfg_load(&cfg, a, err, sizeof err)) {
        fprintf(stderr, "asw net: %s\n", err);
        return 2;
      }
    }
  }
  /* --seed after key=value must still win: re-scan for it */
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--seed")) netcfg_set(&cfg, "seed", argv[i + 1], err, sizeof err);
  if (netcfg_check(&cfg, err, sizeof err)) {
    fprintf(stderr, "asw net: %s\n", err);
    return 2;
  }
  if (print_cfg) {
    netcfg_write(&cfg, stdout);
    return 0;
  }
  double t0 = now_seconds();
  net *n = net_new(&cfg, err, sizeof err);
  if (!n) {
    fprintf(stderr, "asw net: %s\n", err);
    return 2;
  }
  progress_state ps = {t0, 0};
  int tty = !quiet && isatty(2);
  int st = net_run(n, tty ? progress_cb : NULL, &ps);
  double wall = now_seconds() - t0;
  if (tty) fprintf(stderr, "\r%80s\r", "");
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  if (st == NET_RUN_ERROR) fprintf(stderr, "asw net: %s\n", net_error(n));
  if (st == NET_RUN_WATCHDOG) fprintf(stderr, "asw net: watchdog: %s", net_watchdog_report(n));
  int rc = st == NET_RUN_OK ? 0 : st == NET_RUN_WATCHDOG ? 3 : 1;
  if (json) {
    FILE *f = open_out(json);
    if (!f) {
      fprintf(stderr, "asw net: --json: cannot write %s\n", json);
      rc = rc ? rc : 1;
    } else {
      net_write_json(n, f, wall, ru.ru_maxrss);
      if (f != stdout) fclose(f);
    }
  }
  if (csv) {
    FILE *f = open_out(csv);
    if (!f) {
      fprintf(stderr, "asw net: --csv: cannot write %s\n", csv);
      rc = rc ? rc : 1;
    } else {
      net_write_csv(n, f);
      if (f != stdout) fclose(f);
    }
  }
  if (!quiet && !(json && !strcmp(json, "-")) && !(csv && !strcmp(csv, "-"))) {
    net_write_text(n, stdout);
    printf("wall %.2f s, max RSS %ld MB\n", wall, ru.ru_maxrss / 1024);
  }
  net_free(n);
  return rc;
}
