/* trace_cmd.c — `asw trace`: write application-pattern traces, convert and
 * summarise trace files (cmodel/net/trace.h, docs/traces.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../net/trace.h"
#include "../net/optval.h"
#include "cli.h"
#include "commands.h"

static void trace_usage(FILE *f) {
  fprintf(f,
          "usage: asw trace pattern=NAME nodes=N size=BYTES [rounds=K] [dims=XxYxZ]\n"
          "                 [layers=L] [compute=CYCLES] [skip=ID,ID...] out=FILE\n"
          "                 [format=text|netrace]\n"
          "       asw trace in=FILE [out=FILE] [format=text|netrace]\n"
          "Writes the trace of an application pattern, or reads a trace (text or\n"
          "netrace, bzip2/gzip-compressed or not) and writes it in `format`; prints\n"
          "a summary either way. `asw net traffic=trace:FILE` replays a trace.\n"
          "Keys (also --key value, as in asw net and asw switch):\n"
          "  pattern  alltoall (every node sends size bytes to every other), allreduce\n"
          "           (ring allreduce of a size-byte vector: 2(N-1) steps of size/N-byte\n"
          "           chunks, each after the previous one arrived), halo3d (each node\n"
          "           sends size bytes to its 6 neighbours on a periodic 3D grid),\n"
          "           ptrans (PTRANS-like: `rounds` rounds of pairwise exchanges of size\n"
          "           bytes, in round k rank i with rank (k-i) mod N), inception\n"
          "           (Inception-like training: `rounds` steps of `layers` recursive-\n"
          "           doubling allreduces of a size-byte gradient, `compute` cycles\n"
          "           of computation before each)\n"
          "  nodes    end nodes N (2..65536)\n"
          "  size     bytes (1..2147483647)\n"
          "  rounds   repetitions, each after the node received the previous one's\n"
          "           messages [default 1]\n"
          "  dims     halo3d grid XxYxZ, X*Y*Z = N, each >= 3 [default: most cubic]\n"
          "  layers   inception: allreduces per step (1..100000) [default 1]\n"
          "  compute  inception: cycles of computation before each allreduce (the\n"
          "           text format's +DELAY) [default 0]\n"
          "  skip     nodes the pattern leaves out (ids, comma-separated): it runs on\n"
          "           the other N - (count) nodes, in order [default none]\n"
          "  in       a trace file to read instead of a pattern\n"
          "  out      file to write ('-' = stdout; .bz2/.gz: compressed)\n"
          "  format   text (docs/traces.md) or netrace (netrace 1.0 binary) [default text]\n"
          "Exit status: 0 ok, 2 bad usage or a bad trace (the message names file:line).\n");
}

/* An unsigned integer in every front end's syntax (optval.h), all of s, at most max. */
static int parse_num(const char *s, unsigned long long max, unsigned long long *out) {
  uint64_t v;
  if (optval_parse_u64(s, &v) || v > max) return -1;
  *out = v;
  return 0;
}

static int trace_main(int argc, char **argv);

int cmd_trace(int argc, char **argv) { /* --key value and --key=value as key=value */
  static const char *const own[] = {"--help", NULL};
  int n;
  char **args = cli_kv_args(argc, argv, own, &n);
  if (!args) return 1;
  const int rc = trace_main(n, args);
  cli_kv_free(args, n);
  return rc;
}

static int trace_main(int argc, char **argv) {
  trace_pattern_cfg pc;
  memset(&pc, 0, sizeof pc);
  pc.iters = 1;
  pc.layers = 1;
  uint32_t skip[256];
  const char *in = NULL, *out = NULL;
  int format = TRACE_TEXT, have_nodes = 0, have_size = 0;
  char err[640];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      trace_usage(stdout);
      return 0;
    }
    const char *eq = strchr(a, '=');
    if (!eq || eq == a) {
      fprintf(stderr, "asw trace: '%s': expected key=value (see --help)\n", a);
      return 2;
    }
    size_t kl = (size_t)(eq - a);
    const char *v = eq + 1;
    unsigned long long x;
    uint64_t u;
    const char *key = cli_kv_name(a); /* as the user wrote it: --nodes or nodes */
#define KEY(name) (kl == strlen(name) && !strncmp(a, name, kl))
    if (KEY("iters")) { /* one name, one meaning: iters is the iSLIP iterations elsewhere */
      fprintf(stderr, "asw trace: iters: renamed to rounds (repetitions of the pattern; iters is "
                      "the iSLIP iterations in asw switch, asw net and make cosim)\n");
      return 2;
    } else if (KEY("pattern")) {
      pc.pattern = v;
    } else if (KEY("nodes") || KEY("rounds")) {
      if (cli_uint("trace", key, v, KEY("nodes") ? 2 : 1, KEY("nodes") ? TRACE_MAX_NODES : 1000000, &u))
        return 2;
      if (KEY("nodes")) { pc.nodes = (uint32_t)u; have_nodes = 1; }
      else pc.iters = (uint32_t)u;
    } else if (KEY("layers")) {
      if (cli_uint("trace", key, v, 1, 100000, &u)) return 2;
      pc.layers = (uint32_t)u;
    } else if (KEY("compute")) {
      if (cli_uint("trace", key, v, 0, TRACE_MAX_DELAY, &u)) return 2;
      pc.compute = u;
    } else if (KEY("skip")) {
      char buf[2048];
      int ok = strlen(v) < sizeof buf && *v;
      pc.nskip = 0;
      if (ok) {
        strcpy(buf, v);
        for (char *tok = strtok(buf, ","); tok && ok; tok = strtok(NULL, ",")) {
          ok = pc.nskip < sizeof skip / sizeof *skip && !parse_num(tok, TRACE_MAX_NODES - 1, &x);
          if (ok) skip[pc.nskip++] = (uint32_t)x;
        }
        ok = ok && v[strlen(v) - 1] != ',' && v[0] != ',' && !strstr(v, ",,");
      }
      if (!ok) {
        fprintf(stderr, "asw trace: %s: '%s' is not node ids 0..%u separated by commas (at most %u)\n",
                key, v, TRACE_MAX_NODES - 1, (unsigned)(sizeof skip / sizeof *skip));
        return 2;
      }
      pc.skip = skip;
    } else if (KEY("size")) {
      if (cli_uint("trace", key, v, 1, TRACE_MAX_BYTES, &u)) return 2;
      pc.size = u;
      have_size = 1;
    } else if (KEY("dims")) {
      char buf[64];
      unsigned long long d[3];
      int ok = strlen(v) < sizeof buf;
      if (ok) {
        strcpy(buf, v);
        char *p1 = strchr(buf, 'x'), *p2 = p1 ? strchr(p1 + 1, 'x') : NULL;
        ok = p1 && p2;
        if (ok) {
          *p1 = *p2 = 0;
          ok = !parse_num(buf, TRACE_MAX_NODES, &d[0]) && !parse_num(p1 + 1, TRACE_MAX_NODES, &d[1]) &&
               !parse_num(p2 + 1, TRACE_MAX_NODES, &d[2]);
        }
      }
      if (!ok) {
        fprintf(stderr, "asw trace: %s: '%s' is not XxYxZ (e.g. 4x4x4)\n", key, v);
        return 2;
      }
      for (int k = 0; k < 3; k++) pc.dims[k] = (uint32_t)d[k];
    } else if (KEY("in")) {
      in = v;
    } else if (KEY("out")) {
      out = v;
    } else if (KEY("format")) {
      static const char *const formats[] = {"text", "netrace"};
      unsigned c;
      if (cli_choice("trace", key, v, formats, 2, &c)) return 2;
      format = c ? TRACE_NETRACE : TRACE_TEXT;
    } else {
      cli_unknown("trace", key);
      return 2;
    }
#undef KEY
  }
  if (out && cli_check_out("trace", "out", out, 0)) return 2; /* before any work */
  trace *t = NULL;
  if (in) {
    if (pc.pattern || have_nodes || have_size) {
      fprintf(stderr, "asw trace: in: give either in=FILE or pattern=NAME, not both\n");
      return 2;
    }
    t = trace_load(in, err, sizeof err);
  } else {
    if (!pc.pattern || !have_nodes || !have_size || !out) {
      fprintf(stderr, "asw trace: pattern, nodes, size and out are needed (or in=FILE; see --help)\n");
      return 2;
    }
    t = trace_pattern(&pc, err, sizeof err);
  }
  if (!t) {
    fprintf(stderr, "asw trace: %s\n", err);
    return 2;
  }
  int rc = 0;
  if (out && trace_write(t, out, format, err, sizeof err)) {
    fprintf(stderr, "asw trace: out: %s\n", err);
    rc = 1;
  }
  if (!out || strcmp(out, "-")) {
    uint64_t bytes = 0, deps = 0, tmax = 0;
    trace_msg m;
    for (uint32_t i = 0; trace_get(t, i, &m); i++) {
      bytes += m.bytes;
      deps += m.ndeps;
      if (m.time > tmax) tmax = m.time;
    }
    printf("trace: %u messages, %u nodes, %llu bytes, %llu dependencies, last time %llu%s%s\n",
           trace_count(t), trace_nodes(t), (unsigned long long)bytes, (unsigned long long)deps,
           (unsigned long long)tmax, out && !rc ? ", written to " : "", out && !rc ? out : "");
  }
  trace_free(t);
  return rc;
}
