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
#include "../net/topofile.h"
#include "../net/trace.h"
#include "cli.h"
#include "commands.h"
#ifdef ASW_MPI
#include "../net/net_mpi.h"
#endif

static void net_usage(FILE *f) {
  fprintf(f,
          "usage: asw net [CONFIG_FILE] [key=value ...] [--seed N] [--json FILE]\n"
          "               [--csv FILE] [--trace-out FILE] [--quiet] [--print-config] [--help]\n"
          "               [--write-topology FILE] [--write-table FILE]\n"
          "Simulates a network of arnswitch C-model switches: a fat-tree, a torus or\n"
          "mesh, or any topology from a file. Settings apply in\n"
          "order: defaults, CONFIG_FILE (`key = value` lines, # comments), then\n"
          "key=value arguments (also --key value, with - for _, asw switch's form;\n"
          "docs/options.md gives each name in every tool); the options above too:\n"
          "json=FILE, csv=FILE, trace_out=FILE, write_topology=FILE, write_table=FILE,\n"
          "quiet=on|off, print_config=on|off (--quiet, --print-config).\n"
          "--json writes the summary (configuration echoed),\n"
          "--csv the per-window series ('-' = stdout), --trace-out the packets the\n"
          "traffic generated as a trace (docs/traces.md; .bz2/.gz compressed) that\n"
          "traffic=trace:FILE replays. Exit status: 0 ok, 2 bad\n"
          "usage or configuration, 1 simulation error, 3 watchdog (deadlock or\n"
          "starvation; the report names the blocked resources and, for a\n"
          "deadlock, the cycle of waiting channels).\n"
          "--write-topology / --write-table write the configured network as a\n"
          "topology file and its forwarding tables as a table file\n"
          "(docs/topology-file.md; topology=file:FILE routing=table:FILE runs them)\n"
          "and exit without running.\n"
          "Keys:\n");
  netcfg_help(f);
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static FILE *open_out(const char *path) {
  if (!strcmp(path, "-")) return stdout;
  return fopen(path, "w");
}

/* The rank of this process (0 without MPI) and the MPI transport. */
typedef struct {
  unsigned rank, ranks;
  net_comm comm;
#ifdef ASW_MPI
  net_mpi *mpi;
#endif
} net_proc;

static int net_main(int argc, char **argv, net_proc *pr);

int cmd_net(int argc, char **argv) {
  net_proc pr;
  memset(&pr, 0, sizeof pr);
  pr.ranks = 1;
#ifdef ASW_MPI
  char err[256];
  if (net_mpi_init(NULL, NULL)) {
    fprintf(stderr, "asw net: MPI_Init failed\n");
    return 1;
  }
  pr.mpi = net_mpi_new(&pr.comm, err, sizeof err);
  if (!pr.mpi) {
    fprintf(stderr, "asw net: %s\n", err);
    net_mpi_abort(1);
    return 1;
  }
  pr.rank = pr.comm.rank;
  pr.ranks = pr.comm.ranks;
#endif
  int rc = net_main(argc, argv, &pr);
#ifdef ASW_MPI
  rc = net_mpi_max_rc(rc); /* every rank exits with the worst status */
  net_mpi_free(pr.mpi);
  net_mpi_finalize();
#endif
  return rc;
}

/* --write-topology / --write-table (contract §16.5): the network c configures
 * as files. 0, or 2 with a message. */
static int write_network(const net_cfg *c, const char *wtopo, const char *wtable) {
  char err[512];
  topo *t = topofile_topo_for(c, err, sizeof err);
  fwd_tables ft = {0};
  int rc = 2;
  if (!t || (wtable && fwd_tables_for(c, t, &ft, err, sizeof err))) {
    fprintf(stderr, "asw net: %s\n", err);
    goto out;
  }
  const char *path[2] = {wtopo, wtable};
  for (int k = 0; k < 2; k++) {
    if (!path[k]) continue;
    FILE *f = fopen(path[k], "w");
    if (!f) {
      fprintf(stderr, "asw net: %s: cannot write\n", path[k]);
      goto out;
    }
    if (k == 0) topofile_write(t, c->link_latency, c->credit_latency, f);
    else fwd_tables_write(t, &ft, f);
    if (fclose(f)) {
      fprintf(stderr, "asw net: %s: write error\n", path[k]);
      goto out;
    }
  }
  rc = 0;
out:
  fwd_tables_free(&ft);
  topo_free(t);
  return rc;
}

/* asw net's keys in asw switch's form: argv[*i] is "--key value" or "--key=value" (- for _
 * in the key). Returns a malloc'd "key=value" (*i past the value), or NULL after printing
 * "asw CMD: ..." (if say) when the key is not one of asw net's or the value is missing. */
static char *net_dash_arg(const char *cmd, int argc, char **argv, int *i, int say) {
  const char *a = argv[*i], *eq = strchr(a + 2, '=');
  const size_t kl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
  const char *v = eq ? eq + 1 : *i + 1 < argc ? argv[*i + 1] : NULL;
  char *kv = malloc(kl + (v ? strlen(v) : 0) + 2);
  if (!kv) return NULL;
  memcpy(kv, a + 2, kl);
  kv[kl] = 0;
  for (char *q = kv; *q; q++)
    if (*q == '-') *q = '_';
  net_cfg probe;
  char err[512];
  netcfg_default(&probe);
  const int unknown = netcfg_set(&probe, kv, "", err, sizeof err) && strstr(err, "unknown key");
  if (unknown || !v) {
    if (say && unknown) cli_unknown(cmd, a);
    else if (say) fprintf(stderr, "asw %s: %s needs a value\n", cmd, a);
    free(kv);
    return NULL;
  }
  sprintf(kv + kl, "=%s", v);
  if (!eq) ++*i;
  return kv;
}

/* Messages about the command line: once (rank 0). */
#define SAY(...) do { if (pr->rank == 0) fprintf(stderr, __VA_ARGS__); } while (0)

static int net_main(int argc, char **argv, net_proc *pr) {
  net_cfg cfg;
  netcfg_default(&cfg);
  const char *json = NULL, *csv = NULL, *trace_out = NULL, *wtopo = NULL, *wtable = NULL;
  int quiet = 0, print_cfg = 0;
  char err[512];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    /* asw net's own options, each also as key=value and --key=value: name (key form), v */
    char name[32];
    const char *v = NULL;
    const int dashed = a[0] == '-' && a[1] == '-';
    snprintf(name, sizeof name, "%.*s", (int)strcspn(a + 2 * dashed, "="), a + 2 * dashed);
    for (char *q = name; *q; q++)
      if (*q == '-') *q = '_';
    static const char *const own_val[] = {"json", "csv", "trace_out", "write_topology",
                                          "write_table"}; /* (--seed N: the key seed) */
    int own = 0; /* 1: takes a value, 2: on|off (--quiet, --print-config) */
    for (unsigned k = 0; k < sizeof own_val / sizeof *own_val; k++) own |= !strcmp(name, own_val[k]);
    if (!strcmp(name, "quiet") || !strcmp(name, "print_config")) own = 2;
    if (own && (a[2 * dashed + strlen(name)] == '=')) v = a + 2 * dashed + strlen(name) + 1;
    else if (own == 2 && dashed) v = "on";
    else if (own == 1 && dashed) {
      if (i + 1 >= argc) {
        SAY("asw net: %s needs a value\n", a);
        return 2;
      }
      v = argv[++i];
    } else if (!strcmp(a, "-q")) {
      snprintf(name, sizeof name, "quiet");
      own = 2;
      v = "on";
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      if (pr->rank == 0) net_usage(stdout);
      return 0;
    } else if (own == 2 && v) {
      char shown[48];
      snprintf(shown, sizeof shown, "%.*s", (int)strcspn(a, "="), a);
      int on = !strcmp(v, "on") || !strcmp(v, "1");
      if (!on && strcmp(v, "off") && strcmp(v, "0")) {
        if (pr->rank == 0) cli_onoff("net", shown, v, &on); /* says why */
        return 2;
      }
      *(name[0] == 'q' ? &quiet : &print_cfg) = on;
    } else if (own && v) {
      if (!strcmp(name, "json")) json = v;
      else if (!strcmp(name, "csv")) csv = v;
      else if (!strcmp(name, "trace_out")) trace_out = v;
      else if (!strcmp(name, "write_topology")) wtopo = v;
      else wtable = v;
    } else if (a[0] == '-' && a[1] == '-' && a[2]) { /* --key value / --key=value: key=value */
      char *kv = net_dash_arg("net", argc, argv, &i, pr->rank == 0);
      const int bad = !kv || netcfg_set_arg(&cfg, kv, err, sizeof err);
      if (kv && bad && pr->rank == 0) { /* the key named as written: --buffer-flits */
        char shown[80], key[80];
        snprintf(shown, sizeof shown, "%.*s", (int)strcspn(a, "="), a);
        snprintf(key, sizeof key, "%.*s", (int)strcspn(kv, "="), kv);
        cli_key_error("net", shown, key, err);
      }
      free(kv);
      if (bad) return 2;
    } else if (a[0] == '-') {
      if (pr->rank == 0) cli_unknown("net", a);
      return 2;
    } else if (strchr(a, '=')) {
      if (netcfg_set_arg(&cfg, a, err, sizeof err)) {
        SAY("asw net: %s\n", err);
        return 2;
      }
    } else {
      net_cfg probe_cfg; /* a key without =value (`ports 8`) is no config file: say so */
      netcfg_default(&probe_cfg);
      if (access(a, F_OK) && (netcfg_set(&probe_cfg, a, "", err, sizeof err) == 0 ||
                              !strstr(err, "unknown key"))) {
        SAY("asw net: %s: a key needs its value, %s=VALUE (a word without = is a config "
            "file, and there is no file %s)\n", a, a, a);
        return 2;
      }
      if (netcfg_load(&cfg, a, err, sizeof err)) {
        SAY("asw net: %s\n", err);
        return 2;
      }
    }
  }
  /* --seed after key=value must still win: re-scan for it */
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--seed")) netcfg_set(&cfg, "seed", argv[i + 1], err, sizeof err);
  if (netcfg_check(&cfg, err, sizeof err)) {
    SAY("asw net: %s\n", err);
    return 2;
  }
  if (print_cfg) {
    if (pr->rank == 0) netcfg_write(&cfg, stdout);
    return 0;
  }
  if (wtopo || wtable) return pr->rank == 0 ? write_network(&cfg, wtopo, wtable) : 0; /* §16.5 */
  if (cfg.ranks != pr->ranks && (pr->ranks > 1 || cfg.ranks > 1)) {
#ifdef ASW_MPI
    SAY("asw net: ranks: %u configured but mpirun started %u processes (mpirun -np %u)\n",
        cfg.ranks, pr->ranks, cfg.ranks);
#else
    SAY("asw net: ranks: %u ranks need the MPI build under mpirun (make build-mpi; "
        "mpirun -np %u build/asw-mpi net ... ranks=%u)\n", cfg.ranks, cfg.ranks, cfg.ranks);
#endif
    return 2;
  }
  /* Fail fast: every output is checked before the run (on every rank, so that
   * all of them stop; rank 0 says why). */
  const char *outs[3][2] = {{"--json", json}, {"--csv", csv}, {"--trace-out", trace_out}};
  for (int k = 0; k < 3; k++)
    if (outs[k][1] && cli_check_out("net", outs[k][0], outs[k][1], pr->rank != 0)) return 2;
  double t0 = now_seconds();
  net *n = pr->ranks > 1 ? net_new_part(&cfg, &pr->comm, err, sizeof err)
                         : net_new(&cfg, err, sizeof err);
#ifdef ASW_MPI
  /* every rank builds or none runs (a rank short of memory must not leave
   * the others waiting in the first exchange) */
  if (net_mpi_max_rc(n ? 0 : 1)) {
    if (!n) fprintf(stderr, "asw net: rank %u: %s\n", pr->rank, err);
    net_free(n);
    return 2;
  }
#endif
  if (!n) {
    SAY("asw net: %s\n", err);
    return 2;
  }
  if (net_routing_check(n)[0]) SAY("asw net: warning: the routing may deadlock: %s\n", net_routing_check(n));
  trace *rec = NULL; /* --trace-out */
  if (trace_out && (!(rec = trace_new()) || net_record_trace(n, rec))) {
    SAY("asw net: --trace-out: needs synthetic traffic in one process (not traffic=trace, ranks = 1)\n");
    trace_free(rec);
    net_free(n);
    return 2;
  }
  /* progress: a bar on a terminal, a line every 10 s otherwise (rank 0, not --quiet) */
  cli_progress ps;
  cli_progress_init(&ps, "net");
  int show = !quiet && pr->rank == 0;
  int st = net_run(n, show ? cli_progress_cb : NULL, &ps);
  double wall = now_seconds() - t0;
  cli_progress_end(&ps);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  long rss_kb = ru.ru_maxrss, rss_sum_kb = ru.ru_maxrss;
#ifdef ASW_MPI
  if (pr->ranks > 1) { /* the slowest rank's time, the largest rank's memory */
    wall = net_mpi_max_double(wall);
    rss_kb = (long)net_mpi_max_double((double)rss_kb);
    rss_sum_kb = net_mpi_sum_long(rss_sum_kb);
  }
#endif
  /* run-time messages from every rank, each naming its rank */
  char who[32] = "";
  if (pr->ranks > 1) snprintf(who, sizeof who, "rank %u: ", pr->rank);
  if (st == NET_RUN_ERROR) fprintf(stderr, "asw net: %s%s\n", who, net_error(n));
  if (st == NET_RUN_WATCHDOG) fprintf(stderr, "asw net: %swatchdog: %s", who, net_watchdog_report(n));
  uint64_t xm = 0, xb = 0, xs = 0;
  net_comm_stats(n, &xm, &xb, &xs);
#ifdef ASW_MPI
  if (pr->ranks > 1) {
    xm = (uint64_t)net_mpi_sum_long((long)xm);
    xb = (uint64_t)net_mpi_sum_long((long)xb);
  }
#endif
  if (pr->rank != 0) { /* rank 0 writes the results of all */
    net_free(n);
    return st == NET_RUN_OK ? 0 : st == NET_RUN_WATCHDOG ? 3 : 1;
  }
  int rc = st == NET_RUN_OK ? 0 : st == NET_RUN_WATCHDOG ? 3 : 1;
  if (rec) {
    net_results r0;
    net_get_results(n, &r0);
    if (trace_count(rec) != r0.packets_generated) {
      SAY("asw net: --trace-out: recorded %u of %llu packets (a trace holds at most %u)\n",
          trace_count(rec), (unsigned long long)r0.packets_generated, (unsigned)TRACE_MAX_MSGS);
      rc = rc ? rc : 1;
    } else if (trace_write(rec, trace_out, TRACE_TEXT, err, sizeof err)) {
      SAY("asw net: --trace-out: %s\n", err);
      rc = rc ? rc : 1;
    }
    trace_free(rec);
  }
  if (json) {
    FILE *f = open_out(json);
    if (!f) {
      SAY("asw net: --json: cannot write %s\n", json);
      rc = rc ? rc : 1;
    } else {
      net_write_json(n, f, wall, rss_kb);
      if (f != stdout) fclose(f);
    }
  }
  if (csv) {
    FILE *f = open_out(csv);
    if (!f) {
      SAY("asw net: --csv: cannot write %s\n", csv);
      rc = rc ? rc : 1;
    } else {
      net_write_csv(n, f);
      if (f != stdout) fclose(f);
    }
  }
  net_results nr;
  net_get_results(n, &nr);
  if (st == NET_RUN_OK && !nr.packets_measured) { /* nothing was measured: not a result */
    SAY("asw net: no packet was delivered in the measurement window (cycles %llu..%llu, "
        "after warmup=%llu): nothing was measured; raise load or cycles, or lower warmup\n",
        (unsigned long long)cfg.warmup, (unsigned long long)(cfg.warmup + cfg.cycles),
        (unsigned long long)cfg.warmup);
    rc = rc ? rc : 1;
  }
  if (!quiet && !(json && !strcmp(json, "-")) && !(csv && !strcmp(csv, "-"))) {
    net_write_text(n, stdout);
    if (pr->ranks > 1)
      printf("exchange: %llu messages (flits, credits, ARNs), %llu bytes between ranks in "
             "%llu syncs over %llu cycles (%.1f messages, %.0f bytes per cycle)\n",
             (unsigned long long)xm, (unsigned long long)xb, (unsigned long long)xs,
             (unsigned long long)nr.cycles_run,
             nr.cycles_run ? (double)xm / (double)nr.cycles_run : 0.0,
             nr.cycles_run ? (double)xb / (double)nr.cycles_run : 0.0);
    if (pr->ranks > 1)
      printf("wall %.2f s, max RSS %ld MB per rank (largest), %ld MB over %u ranks\n", wall,
             rss_kb / 1024, rss_sum_kb / 1024, pr->ranks);
    else
      printf("wall %.2f s, max RSS %ld MB\n", wall, rss_kb / 1024);
  }
  net_free(n);
  return rc;
}
