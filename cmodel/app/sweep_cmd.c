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
#include "cli.h"
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
          "                 (key=value: asw net's settings, also --key value)\n"
          "                 --vary key=v1,v2,... [--vary key=...] [--slurm [--submit]]\n"
          "       asw sweep --merge --dir DIR\n"
          "The sweep's own options, like every setting, take both forms, key=value and\n"
          "--key value (or --key=value):\n"
          "  jobs=N         --jobs N, -j N     runs at a time, 1..64 [2]\n"
          "  dir=DIR        --dir DIR          output folder [sweep_out]\n"
          "  vary=KEY=V1,V2 --vary KEY=V1,V2   a varied key (one per vary)\n"
          "  slurm=on|off   --slurm            write a Slurm job array [off]\n"
          "  submit=on|off  --submit           also submit it with sbatch [off]\n"
          "  merge=on|off   --merge            merge a Slurm sweep's results [off]\n"
          "Runs `asw net` for every combination of the --vary values (the first\n"
          "--vary varies slowest), JOBS processes at a time (default 2). Writes\n"
          "DIR/run-NNN.json and .csv per run, DIR/results.json (all summaries,\n"
          "grid order) and DIR/summary.csv (varied keys and main figures).\n"
          "--slurm: instead of running, writes DIR/sweep.sbatch, a Slurm job array\n"
          "with one run per array task (DIR/run-NNN.args its arguments, one a line;\n"
          "DIR/run-NNN.status its exit status), and DIR/sweep.args; --submit also\n"
          "submits it with sbatch. --merge --dir DIR, once the tasks are done, writes\n"
          "results.json and summary.csv as a local sweep would (a run without a\n"
          "status file counts as failed).\n"
          "Exit status: 0 if every run succeeded, 2 on bad usage, 1 if a run failed.\n");
}

/* ---- Slurm job arrays (--slurm, --merge; README "Sweeps on a cluster") ---------- */

/* Writes s single-quoted for the shell. */
static void shq(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++)
    if (*s == '\'') fputs("'\\''", f);
    else fputc(*s, f);
  fputc('\'', f);
}

/* An absolute form of path (relative ones against the working directory). */
static int abs_path(const char *path, char *out, size_t len) {
  if (path[0] == '/') return snprintf(out, len, "%s", path) < (int)len ? 0 : -1;
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) return -1;
  return snprintf(out, len, "%s/%s", cwd, path) < (int)len ? 0 : -1;
}

/* Runs argv (no shell), returns its exit status (127: could not start). */
static int run_prog(char *const argv[]) {
  pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    execvp(argv[0], argv);
    _exit(127);
  }
  int ws;
  while (waitpid(pid, &ws, 0) < 0)
    if (errno != EINTR) return 127;
  return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
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

static int write_slurm(const char *dir, const char *self, const char *cfgfile, const char *const *fixed,
                       unsigned nfixed, const dim *dims, unsigned ndims, unsigned nruns, int submit);

/* merging: the arguments come from DIR/sweep.args (--merge); the runs are not
 * started, their statuses are read from DIR/run-NNN.status. */
static int sweep_main(int argc, char **argv, int merging) {
  const char *dir = "sweep_out", *cfgfile = NULL;
  unsigned jobs = 2;
  const char *fixed[MAX_FIXED];
  unsigned nfixed = 0;
  dim dims[MAX_DIMS];
  unsigned ndims = 0;
  char err[512];
  net_cfg probe;
  netcfg_default(&probe);
  int slurm = 0, submit = 0, merge = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    /* the sweep's own options, each also as key=value (cmd_sweep turned --key value and
     * --key=value into key=value): opt its name as the user wrote it, v its value */
    const char *opt = NULL, *v = NULL;
    char shown[80]; /* the name as the user wrote it (--jobs or jobs; --merge's file: as is) */
    snprintf(shown, sizeof shown, "%.*s", (int)strcspn(a, "="), a);
    if (!merging) snprintf(shown, sizeof shown, "%s", cli_kv_name(a));
    static const char *const own_keys[] = {"jobs", "dir", "vary", "slurm", "submit", "merge"};
    for (unsigned k = 0; k < sizeof own_keys / sizeof *own_keys; k++) {
      const size_t l = strlen(own_keys[k]);
      if (!strncmp(a, own_keys[k], l) && a[l] == '=') {
        opt = shown;
        v = a + l + 1;
      }
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      sweep_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--slurm") || !strcmp(a, "--submit") || !strcmp(a, "--merge")) {
      opt = a + 2;
      v = "on";
    } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs") || !strcmp(a, "--dir") || !strcmp(a, "--vary")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "asw sweep: %s needs a value\n", a);
        return 2;
      }
      opt = a;
      v = argv[++i];
    } else if (!strncmp(a, "-j", 2) && a[2] != '-') { /* -j4, as make's */
      opt = "-j";
      v = a + 2;
    }
    const char *key = !opt ? "" : opt[0] != '-' ? opt : opt[1] == '-' ? opt + 2 : "jobs";
    if (!opt) {
      /* not the sweep's own: asw net's settings, below */
    } else if (!strcmp(key, "slurm") || !strcmp(key, "submit") || !strcmp(key, "merge")) {
      if (cli_onoff("sweep", opt, v, key[0] == 'm' ? &merge : key[1] == 'l' ? &slurm : &submit))
        return 2;
      continue;
    } else if (!strcmp(key, "jobs")) {
      uint64_t j;
      if (cli_uint("sweep", opt, v, 1, 64, &j)) return 2;
      jobs = (unsigned)j;
      continue;
    } else if (!strcmp(key, "dir")) {
      dir = v;
      continue;
    } else { /* --vary, vary */
      const char *eq = strchr(v, '=');
      if (!eq || eq == v || (size_t)(eq - v) >= sizeof dims[0].key) {
        fprintf(stderr, "asw sweep: %s: '%s': expected key=v1,v2,...\n", opt, v);
        return 2;
      }
      if (ndims == MAX_DIMS) {
        fprintf(stderr, "asw sweep: %s: at most %d varied keys\n", opt, MAX_DIMS);
        return 2;
      }
      dim *d = &dims[ndims++];
      memcpy(d->key, v, (size_t)(eq - v));
      d->key[eq - v] = 0;
      d->nvals = 0;
      /* split in place: argv is cmd_sweep's copy (or --merge's sweep.args text) */
      char *list = (char *)eq + 1, *save = NULL;
      for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (d->nvals == MAX_VALS) {
          fprintf(stderr, "asw sweep: %s: at most %d values\n", d->key, MAX_VALS);
          return 2;
        }
        /* validate now so a typo fails before any run starts */
        if (netcfg_set(&probe, d->key, tok, err, sizeof err)) {
          fprintf(stderr, "asw sweep: %s\n", err);
          return 2;
        }
        d->vals[d->nvals++] = tok;
      }
      if (!d->nvals) {
        fprintf(stderr, "asw sweep: %s %s: no values\n", opt, d->key);
        return 2;
      }
      continue;
    }
    if (a[0] == '-') {
      cli_unknown("sweep", a);
      return 2;
    } else if (strchr(a, '=')) {
      if (netcfg_set_arg(&probe, a, err, sizeof err)) {
        char key[80];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(a, "="), a);
        cli_key_error("sweep", shown, key, err);
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
  if (submit && !slurm) {
    fprintf(stderr, "asw sweep: --submit needs --slurm\n");
    return 2;
  }
  if (merge && (slurm || ndims || nfixed || cfgfile)) {
    fprintf(stderr, "asw sweep: --merge takes only --dir DIR (the sweep's settings are in DIR/sweep.args)\n");
    return 2;
  }
  if (merge) { /* the sweep's own arguments, then merge the runs' results */
    char ap[4200];
    snprintf(ap, sizeof ap, "%s/sweep.args", dir);
    char *text = slurp(ap);
    if (!text) {
      fprintf(stderr, "asw sweep: --merge: cannot read %s (written by asw sweep --slurm)\n", ap);
      return 2;
    }
    char *sv[4 + 2 * MAX_DIMS + MAX_FIXED + 8];
    int sc = 0;
    sv[sc++] = "sweep";
    for (char *save = NULL, *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
      if (sc >= (int)(sizeof sv / sizeof *sv) - 3) {
        fprintf(stderr, "asw sweep: --merge: %s has too many lines\n", ap);
        free(text);
        return 2;
      }
      sv[sc++] = ln;
    }
    sv[sc++] = "--dir";
    sv[sc++] = (char *)dir;
    sv[sc] = NULL;
    int rc = sweep_main(sc, sv, 1);
    free(text);
    return rc;
  }
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "asw sweep: --dir: cannot create %s (%s)\n", dir, strerror(errno));
    return 2;
  }
  { /* fail fast: the folder takes files before any run starts */
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/results.json", dir);
    if (cli_check_out("sweep", "--dir", probe, 0)) return 2;
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
  if (slurm) {
    int rc = write_slurm(dir, self, cfgfile, fixed, nfixed, dims, ndims, nruns, submit);
    free(pids);
    free(status);
    return rc;
  }
  unsigned next = 0, running = 0, done = merging ? nruns : 0;
  for (unsigned r = 0; merging && r < nruns; r++) { /* the tasks' exit statuses */
    char sp[4200];
    snprintf(sp, sizeof sp, "%s/run-%03u.status", dir, r);
    char *st = slurp(sp);
    char *end = NULL;
    long v = st ? strtol(st, &end, 10) : -1;
    if (!st || end == st || v < 0 || v > 255) {
      fprintf(stderr, "asw sweep: run %03u: no exit status in %s (task not run or still running)\n", r, sp);
      status[r] = 1;
    } else {
      status[r] = (int)v;
    }
    free(st);
  }
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

int cmd_sweep(int argc, char **argv) { /* asw net's settings also as --key value */
  static const char *const own[] = {"--help", "--slurm", "--submit", "--merge", NULL};
  int n;
  char **args = cli_kv_args(argc, argv, own, &n);
  if (!args) return 1;
  const int rc = sweep_main(n, args, 0);
  cli_kv_free(args, n);
  return rc;
}

/* One argument a line (an argument holding a newline cannot be written). */
static int put_arg(FILE *f, const char *a) {
  if (strchr(a, '\n')) {
    fprintf(stderr, "asw sweep: --slurm: argument '%s' holds a newline\n", a);
    return -1;
  }
  fprintf(f, "%s\n", a);
  return 0;
}

static int write_slurm(const char *dir, const char *self, const char *cfgfile, const char *const *fixed,
                       unsigned nfixed, const dim *dims, unsigned ndims, unsigned nruns, int submit) {
  char adir[4200], acfg[4200], path[4300], cwd[4096];
  if (abs_path(dir, adir, sizeof adir) || (cfgfile && abs_path(cfgfile, acfg, sizeof acfg)) ||
      !getcwd(cwd, sizeof cwd)) {
    fprintf(stderr, "asw sweep: --slurm: path too long\n");
    return 2;
  }
  /* the sweep's settings, for --merge */
  snprintf(path, sizeof path, "%s/sweep.args", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "asw sweep: --slurm: cannot write %s (%s)\n", path, strerror(errno));
    return 2;
  }
  int bad = 0;
  if (cfgfile) bad |= put_arg(f, acfg);
  for (unsigned k = 0; k < nfixed; k++) bad |= put_arg(f, fixed[k]);
  for (unsigned d = 0; d < ndims; d++) {
    fprintf(f, "--vary\n%s=", dims[d].key);
    for (unsigned v = 0; v < dims[d].nvals; v++) fprintf(f, "%s%s", v ? "," : "", dims[d].vals[v]);
    fputc('\n', f);
  }
  if (fclose(f) || bad) return 2;
  /* one argument file per run */
  for (unsigned r = 0; r < nruns; r++) {
    snprintf(path, sizeof path, "%s/run-%03u.status", dir, r);
    unlink(path); /* a status of an earlier submission */
    snprintf(path, sizeof path, "%s/run-%03u.args", dir, r);
    f = fopen(path, "w");
    if (!f) {
      fprintf(stderr, "asw sweep: --slurm: cannot write %s (%s)\n", path, strerror(errno));
      return 2;
    }
    if (cfgfile) bad |= put_arg(f, acfg);
    for (unsigned k = 0; k < nfixed; k++) bad |= put_arg(f, fixed[k]);
    unsigned idx = r, vis[MAX_DIMS];
    for (int d = (int)ndims - 1; d >= 0; d--) {
      vis[d] = idx % dims[d].nvals;
      idx /= dims[d].nvals;
    }
    for (unsigned d = 0; d < ndims; d++) fprintf(f, "%s=%s\n", dims[d].key, dims[d].vals[vis[d]]);
    if (fclose(f) || bad) return 2;
  }
  snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
  f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "asw sweep: --slurm: cannot write %s (%s)\n", path, strerror(errno));
    return 2;
  }
  fprintf(f, "#!/bin/bash\n# asw sweep --slurm: one asw net run per array task; then asw sweep --merge --dir DIR\n");
  fprintf(f, "#SBATCH --job-name=asw-sweep\n#SBATCH --array=0-%u\n#SBATCH --ntasks=1\n"
             "#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/slurm-%%a.out\n", nruns - 1, adir);
  fprintf(f, "set -u\ncd ");
  shq(f, cwd);
  fprintf(f, " || exit 1\ndir=");
  shq(f, adir);
  fprintf(f, "\nasw=");
  shq(f, self);
  fprintf(f, "\nr=$(printf %%03d \"$SLURM_ARRAY_TASK_ID\")\n"
             "mapfile -t args < \"$dir/run-$r.args\" || exit 1\n"
             "\"$asw\" net \"${args[@]}\" --quiet --json \"$dir/run-$r.json\" --csv \"$dir/run-$r.csv\"\n"
             "rc=$?\necho $rc > \"$dir/run-$r.status\"\nexit $rc\n");
  if (fclose(f)) return 2;
  fprintf(stderr, "asw sweep: %u runs as a Slurm job array in %s (sbatch %s, then asw sweep --merge --dir %s)\n",
          nruns, path, path, dir);
  if (!submit) return 0;
  char *sv[] = {"sbatch", path, NULL};
  fflush(stdout);
  int rc = run_prog(sv);
  if (rc) {
    fprintf(stderr, "asw sweep: --submit: sbatch %s failed (exit %d%s)\n", path, rc,
            rc == 127 ? ": sbatch not found" : "");
    return 1;
  }
  return 0;
}
