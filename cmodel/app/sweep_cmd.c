/* sweep_cmd.c — `asw sweep`: a grid of `asw net` runs in parallel processes,
 * merged into one JSON array and one summary CSV (grid order, whatever the
 * order the runs finish in). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../net/netcfg.h"
#include "commands.h"

enum { MAX_DIMS = 8, MAX_VALS = 64, MAX_FIXED = 128 };

typedef struct {
  char key[64];
  char *vals[MAX_VALS];
  unsigned nvals;
} dim;

static void sweep_usage(FILE *f) {
  fprintf(f,
          "usage: asw sweep [-j JOBS] [--dir DIR] [CONFIG_FILE] [key=value ...]\n"
          "                 --vary key=v1,v2,... [--vary key=...]\n"
          "Runs `asw net` for every combination of the --vary values (the first\n"
          "--vary varies slowest), JOBS processes at a time (default 2). Writes\n"
          "DIR/run-NNN.json and .csv per run, DIR/results.json (all summaries,\n"
          "grid order) and DIR/summary.csv (varied keys and main figures).\n"
          "Exit status: 0 if every run succeeded, 2 on bad usage, 1 if a run failed.\n");
}

/* Reads a whole file into a malloc'd string. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t k;
  while (buf && (k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += k;
    if (cap - len < 2) {
      char *p = realloc(buf, cap * 2);
      if (!p) { free(buf); buf = NULL; break; }
      buf = p;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf) buf[len] = 0;
  return buf;
}

/* Extracts the number after "key": in a JSON text (0 if absent). */
static double json_num(const char *js, const char *key) {
  char pat[80];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = js ? strstr(js, pat) : NULL;
  return p ? strtod(p + strlen(pat), NULL) : 0.0;
}

int cmd_sweep(int argc, char **argv) {
  const char *dir = "sweep_out", *cfgfile = NULL;
  unsigned jobs = 2;
  const char *fixed[MAX_FIXED];
  unsigned nfixed = 0;
  dim dims[MAX_DIMS];
  unsigned ndims = 0;
  char err[512];
  net_cfg probe;
  netcfg_default(&probe);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      sweep_usage(stdout);
      return 0;
    } else if (!strcmp(a, "-j") || !strcmp(a, "--dir") || !strcmp(a, "--vary")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "asw sweep: %s needs an argument\n", a);
        return 2;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "-j")) {
        char *end;
        long j = strtol(v, &end, 10);
        if (*end || j < 1 || j > 64) {
          fprintf(stderr, "asw sweep: -j: '%s' is not in 1..64\n", v);
          return 2;
        }
        jobs = (unsigned)j;
      } else if (!strcmp(a, "--dir")) {
        dir = v;
      } else {
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || (size_t)(eq - v) >= sizeof dims[0].key) {
          fprintf(stderr, "asw sweep: --vary '%s': expected key=v1,v2,...\n", v);
          return 2;
        }
        if (ndims == MAX_DIMS) {
          fprintf(stderr, "asw sweep: at most %d --vary keys\n", MAX_DIMS);
          return 2;
        }
        dim *d = &dims[ndims++];
        memcpy(d->key, v, (size_t)(eq - v));
        d->key[eq - v] = 0;
        d->nvals = 0;
        char *list = strdup(eq + 1), *save = NULL;
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
          if (d->nvals == MAX_VALS) {
            fprintf(stderr, "asw sweep: %s: at most %d values\n", d->key, MAX_VALS);
            return 2;
          }
          /* validate now so a typo fails before any run starts */
          if (netcfg_set(&probe, d->key, tok, err, sizeof err)) {
            fprintf(stderr, "asw sweep: --vary %s\n", err);
            return 2;
          }
          d->vals[d->nvals++] = tok;
        }
        if (!d->nvals) {
          fprintf(stderr, "asw sweep: --vary %s: no values\n", d->key);
          return 2;
        }
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "asw sweep: unknown option %s (see --help)\n", a);
      return 2;
    } else if (strchr(a, '=')) {
      if (netcfg_set_arg(&probe, a, err, sizeof err)) {
        fprintf(stderr, "asw sweep: %s\n", err);
        return 2;
      }
      if (nfixed == MAX_FIXED) {
        fprintf(stderr, "asw sweep: too many key=value settings\n");
        return 2;
      }
      fixed[nfixed++] = a;
    } else {
      if (cfgfile) {
        fprintf(stderr, "asw sweep: only one config file (got %s and %s)\n", cfgfile, a);
        return 2;
      }
      if (netcfg_load(&probe, a, err, sizeof err)) {
        fprintf(stderr, "asw sweep: %s\n", err);
        return 2;
      }
      cfgfile = a;
    }
  }
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "asw sweep: --dir: cannot create %s (%s)\n", dir, strerror(errno));
    return 2;
  }
  unsigned nruns = 1;
  for (unsigned d = 0; d < ndims; d++) nruns *= dims[d].nvals;
  pid_t *pids = calloc(nruns, sizeof *pids);
  int *status = calloc(nruns, sizeof *status);
  if (!pids || !status) {
    fprintf(stderr, "asw sweep: out of memory\n");
    return 2;
  }
  char self[4096];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) snprintf(self, sizeof self, "%s", argv[0]);
  else self[sl] = 0;
  unsigned next = 0, running = 0, done = 0;
  while (done < nruns) {
    while (running < jobs && next < nruns) {
      unsigned r = next++;
      char jpath[4200], cpath[4200];
      snprintf(jpath, sizeof jpath, "%s/run-%03u.json", dir, r);
      snprintf(cpath, sizeof cpath, "%s/run-%03u.csv", dir, r);
      char *args[8 + MAX_FIXED + MAX_DIMS];
      char kv[MAX_DIMS][256];
      unsigned na = 0, idx = r;
      args[na++] = self;
      args[na++] = "net";
      if (cfgfile) args[na++] = (char *)cfgfile;
      for (unsigned k = 0; k < nfixed; k++) args[na++] = (char *)fixed[k];
      for (int d = (int)ndims - 1; d >= 0; d--) {
        unsigned vi = idx % dims[d].nvals;
        idx /= dims[d].nvals;
        snprintf(kv[d], sizeof kv[d], "%s=%s", dims[d].key, dims[d].vals[vi]);
      }
      for (unsigned d = 0; d < ndims; d++) args[na++] = kv[d];
      args[na++] = "--quiet";
      args[na++] = "--json";
      args[na++] = jpath;
      args[na++] = "--csv";
      args[na++] = cpath;
      args[na] = NULL;
      pid_t pid = fork();
      if (pid < 0) {
        fprintf(stderr, "asw sweep: fork failed (%s)\n", strerror(errno));
        return 2;
      }
      if (pid == 0) {
        execv(self, args);
        _exit(127);
      }
      pids[r] = pid;
      running++;
    }
    int ws;
    pid_t pid = wait(&ws);
    if (pid < 0) break;
    for (unsigned r = 0; r < nruns; r++)
      if (pids[r] == pid) {
        status[r] = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
        pids[r] = 0;
        running--;
        done++;
        fprintf(stderr, "asw sweep: %u/%u done (run %03u: %s)\n", done, nruns, r,
                status[r] ? "FAILED" : "ok");
      }
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/results.json", dir);
  FILE *rj = fopen(path, "w");
  snprintf(path, sizeof path, "%s/summary.csv", dir);
  FILE *sc = fopen(path, "w");
  if (!rj || !sc) {
    fprintf(stderr, "asw sweep: cannot write results into %s\n", dir);
    return 2;
  }
  fprintf(rj, "[\n");
  fprintf(sc, "run");
  for (unsigned d = 0; d < ndims; d++) fprintf(sc, ",%s", dims[d].key);
  fprintf(sc, ",status,offered_load,accepted_throughput,accepted_hot,accepted_cold,"
              "latency_mean,latency_p99,adaptive_decisions,flit_hops\n");
  int failed = 0;
  for (unsigned r = 0; r < nruns; r++) {
    snprintf(path, sizeof path, "%s/run-%03u.json", dir, r);
    char *js = slurp(path);
    if (status[r]) failed = 1;
    fprintf(rj, "%s", r ? ",\n" : "");
    if (js) {
      size_t l = strlen(js);
      while (l && (js[l - 1] == '\n')) js[--l] = 0;
      fprintf(rj, "%s", js);
    } else {
      fprintf(rj, "{\"run\": %u, \"status\": %d}", r, status[r]);
    }
    fprintf(sc, "%u", r);
    unsigned idx = r, vis[MAX_DIMS];
    for (int d = (int)ndims - 1; d >= 0; d--) {
      vis[d] = idx % dims[d].nvals;
      idx /= dims[d].nvals;
    }
    for (unsigned d = 0; d < ndims; d++) fprintf(sc, ",%s", dims[d].vals[vis[d]]);
    fprintf(sc, ",%d,%.6f,%.6f,%.6f,%.6f,%.3f,%.1f,%.0f,%.0f\n", status[r],
            json_num(js, "offered_load"), json_num(js, "accepted_throughput"),
            json_num(js, "accepted_hot"), json_num(js, "accepted_cold"),
            json_num(js, "latency_mean"), json_num(js, "latency_p99"),
            json_num(js, "adaptive_decisions"), json_num(js, "flit_hops"));
    free(js);
  }
  fprintf(rj, "\n]\n");
  fclose(rj);
  fclose(sc);
  free(pids);
  free(status);
  fprintf(stderr, "asw sweep: %u runs, results in %s/results.json and %s/summary.csv\n",
          nruns, dir, dir);
  return failed ? 1 : 0;
}
