/* switch_cmd.c — `asw switch`: single-switch study (see switch_study.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "switch_study.h"

static const char *const routing_names[] = {"det", "oblivious", "adaptive"};
static const char *const trigger_names[] = {"noth", "th", "2th"};
/* The §1 feature options, in ASW_FEAT_* bit order (asw_feature_name with '-' for '_'). */
static const char *const feat_opts[ASW_FEAT_COUNT] = {
    "--bubble",    "--pfc",       "--qcn",      "--link-faults", "--vc-adaptive", "--route-hash",
    "--port-rate", "--oblivious", "--adaptive", "--counters",    "--readback"};

/* cli_match over the feature options: 0 none, else its result with *feat the feature. */
static int feature_opt(int argc, char **argv, int *k, const char **v, unsigned *feat) {
  for (unsigned f = 0; f < ASW_FEAT_COUNT; f++) {
    int m = cli_match("switch", argc, argv, k, feat_opts[f], v);
    if (m) {
      *feat = f;
      return m < 0 ? 2 : m;
    }
  }
  return 0;
}
static const char *const arn_names[] = {"off", "arn", "afi"};

static void help(void) {
  printf(
      "usage: asw switch [options]\n"
      "Simulates one switch whose output ports feed sinks directly. Each input\n"
      "has a Bernoulli source (per-VC queues, so nothing generated is lost;\n"
      "packets are sent whole when the source holds len credits). The SL (and\n"
      "VC) of a packet is dest mod V. Destination d leaves on output d\n"
      "(det_port = d). With oblivious/adaptive routing the P outputs form 4\n"
      "groups (port p in group 4p/P, = CSET[group]) and a packet for d may\n"
      "leave on any port of d's group (like up-links that all lead towards d).\n"
      "Latency: cycle the tail leaves the switch minus the cycle the packet was\n"
      "generated (zero-load: 5 + len - 1). Throughput: flits per output per\n"
      "cycle over the window [warmup, warmup + cycles).\n\n"
      "options (default in brackets; also as key=value with _ for -, asw net's form:\n"
      "ports=8 buffer_flits=64; docs/options.md gives each name in every tool):\n"
      "  --ports N            P, 2..64 [16]\n"
      "  --vcs N              V, 1..8 [1]\n"
      "  --voq on|off|1|0     virtual output queues [on]\n"
      "  --iters N            iSLIP iterations, 1..4 [1]\n"
      "  --sa-pipe on|off|1|0 pipelined allocation (contract 8.1; iters 1) [off]\n"
      "  --bubble, --pfc, --qcn, --route-hash, --link-faults, --port-rate, --vc-adaptive,\n"
      "  --oblivious, --adaptive, --counters, --readback on|off|1|0\n"
      "                       optional hardware built (contract 1) [off]; the study always\n"
      "                       builds the routing mode of --routing, the counters and the\n"
      "                       OCC/CRED read-back it reads, so the results are the same\n"
      "  --routing det|oblivious|adaptive   [det]\n"
      "  --trigger noth|th|2th  adaptive trigger [noth]\n"
      "  --load X             offered flits per input per cycle, 0..1 [0.5]\n"
      "  --packet-flits N     packet length [1]\n"
      "  --max-packet N       LMAX [max(16, packet-flits)]\n"
      "  --buffer-flits N     BUF, flits per input VC [64]\n"
      "  --cycles N           cycles measured, after the warm-up (generation runs\n"
      "                       warmup + cycles) [20000]\n"
      "  --warmup N           cycles before measuring [5000]\n"
      "  --seed N             random seed [1]\n"
      "  --credit-delay N     cycles from a flit on an output to its credit [1]\n"
      "  --dest uniform|permutation|hotspot:PORT:FRACTION   destinations [uniform]\n"
      "  --drain on|off|1|0   after generation stops run on until every packet is\n"
      "                       delivered, and require the switch empty [off]\n"
      "  --drain-limit N      at most N cycles of draining [1000000]\n"
      "  --table FILE         register table applied after the study's programming\n"
      "                       (format: cmodel/asw_table.h), e.g. thresholds, VC maps\n"
      "  --arn off|arn|afi    congestion detector + ARN (contract §15); afi also\n"
      "                       isolates adapted packets in the last VC [off]\n"
      "  --arn-up on|off|1|0  every port is an up port: roots are consumed here\n"
      "                       (needs oblivious/adaptive routing to find another\n"
      "                       port), else reported upstream to the sources [off]\n"
      "  --hcdth N --lcdth N  detector thresholds, flits of VOQ occupancy (asw net:\n"
      "                       hcdth_pct, lcdth_pct, percent of BUF)\n"
      "                       [81%%, 63%% of BUF]\n"
      "  --fcth N             free-credit threshold of a root, flits [78%% of BUF]\n"
      "  --crt N              congestion root timer, cycles [1024]\n"
      "  --arn-ttl N          ARN-table entry lifetime, cycles [4096]\n"
      "  --json FILE          write configuration and results as JSON\n"
      "  --quiet              no human summary\n"
      "Exit status: 0 ok, 1 simulation/check failure, 2 bad option.\n");
}

static int parse_dest(const char *s, study_params *sp) {
  if (!strcmp(s, "uniform")) {
    sp->dest = STUDY_DEST_UNIFORM;
    return 0;
  }
  if (!strcmp(s, "permutation")) {
    sp->dest = STUDY_DEST_PERMUTATION;
    return 0;
  }
  if (!strncmp(s, "hotspot:", 8)) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s + 8);
    char *colon = strchr(buf, ':');
    if (colon) {
      *colon = 0;
      uint64_t port;
      double frac;
      if (cli_uint("switch", "--dest hotspot PORT", buf, 0, 63, &port) ||
          cli_double("switch", "--dest hotspot FRACTION", colon + 1, 0.0, 1.0, &frac))
        return -1;
      sp->dest = STUDY_DEST_HOTSPOT;
      sp->hot_port = (unsigned)port;
      sp->hot_fraction = frac;
      return 0;
    }
  }
  fprintf(stderr, "asw switch: --dest: '%s' is not one of uniform, permutation, hotspot:PORT:FRACTION\n", s);
  return -1;
}

/* Writes s as a JSON string (null if s is NULL). */
static void json_string(FILE *f, const char *s) {
  if (!s) {
    fputs("null", f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}

/* drain_limit: the cycle limit of --drain on (sp->drain is 0 with --drain off). */
static int write_json(const char *path, const study_params *sp, uint64_t drain_limit,
                      const study_result *r) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return -1;
  }
  static const char *const dest_names[] = {"uniform", "hotspot", "permutation"};
  fprintf(f, "{\n  \"config\": {\"ports\": %u, \"vcs\": %u, \"voq\": %u, \"iters\": %u, "
             "\"sa_pipe\": %u, \"routing\": \"%s\", \"trigger\": \"%s\", \"load\": %.6g, \"packet_flits\": %u, "
             "\"max_packet\": %u, \"buffer_flits\": %u, \"cycles\": %llu, \"warmup\": %llu, "
             "\"seed\": %llu, \"credit_delay\": %u, \"dest\": \"%s\", \"hot_port\": %u, "
             "\"hot_fraction\": %.6g, \"drain\": %d, \"drain_limit\": %llu, \"table\": ",
          sp->sw.ports, sp->sw.vcs, sp->sw.voq, sp->sw.iters, sp->sw.sa_pipe,
          routing_names[sp->routing],
          trigger_names[sp->trigger], sp->load, sp->packet_flits, sp->sw.max_packet,
          sp->sw.buf_flits, (unsigned long long)(sp->cycles - sp->warmup),
          (unsigned long long)sp->warmup,
          (unsigned long long)sp->seed, sp->credit_delay, dest_names[sp->dest], sp->hot_port,
          sp->hot_fraction, sp->drain > 0, (unsigned long long)drain_limit);
  json_string(f, sp->table);
  fprintf(f, "},\n");
  fprintf(f, "  \"offered_load\": %.6f,\n  \"accepted_throughput\": %.6f,\n"
             "  \"latency_mean\": %.4f,\n  \"latency_p99\": %llu,\n  \"latency_max\": %llu,\n"
             "  \"latency_definition\": \"cycles from packet generation to its tail leaving the switch\",\n"
             "  \"window_packets\": %llu,\n  \"packets_generated\": %llu,\n"
             "  \"packets_delivered\": %llu,\n  \"cycles_run\": %llu,\n  \"drained\": %s,\n"
             "  \"adaptive_choices\": %llu,\n  \"credit_stalls\": %llu,\n  \"sa_lost\": %llu,\n"
             "  \"arn\": \"%s\",\n  \"roots_declared\": %llu,\n  \"arn_sent\": %llu,\n"
             "  \"arn_consumed\": %llu,\n  \"packets_adapted\": %llu,\n  \"arn_expired\": %llu\n}\n",
          r->offered_load, r->accepted_throughput, r->latency_mean,
          (unsigned long long)r->latency_p99, (unsigned long long)r->latency_max,
          (unsigned long long)r->window_packets, (unsigned long long)r->packets_generated,
          (unsigned long long)r->packets_delivered, (unsigned long long)r->cycles_run,
          r->drained ? "true" : "false", (unsigned long long)r->adaptive_choices,
          (unsigned long long)r->credit_stalls, (unsigned long long)r->sa_lost,
          arn_names[sp->arn], (unsigned long long)r->roots_declared,
          (unsigned long long)r->arn_sent, (unsigned long long)r->arn_consumed,
          (unsigned long long)r->packets_adapted, (unsigned long long)r->arn_expired);
  if (fclose(f)) {
    perror(path);
    return -1;
  }
  return 0;
}

int cmd_switch(int argc, char **argv) {
  study_params sp;
  study_defaults(&sp);
  sp.warmup = 5000; /* asw net's defaults: 20000 cycles measured after 5000 of warm-up */
  const char *json = NULL;
  int quiet = 0, have_lmax = 0, have_buf = 0, have_warmup = 0, drain = 0;
  uint64_t drain_limit = 1000000; /* asw net's drain_limit */
  for (int k = 1; k < argc; k++) {
    const char *v = NULL;
    const char *as_given = argv[k]; /* for the unknown-option message */
    if (argv[k][0] != '-' && strchr(argv[k], '=')) { /* key=value (asw net's form): --key=value */
      char *o = malloc(strlen(argv[k]) + 3);     /* kept: option values point into it */
      if (!o) return 1;
      sprintf(o, "--%s", argv[k]);
      for (char *q = o + 2; *q != '='; q++)
        if (*q == '_') *q = '-';
      argv[k] = o;
    }
    const char *a = argv[k];
    char shown[64]; /* the option's name as the user wrote it, for the messages */
    snprintf(shown, sizeof shown, "%.*s", (int)strcspn(as_given, "="), as_given);
    uint64_t u;
    unsigned c, feat = 0;
    int on;
    int m;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      help();
      return 0;
    }
    if (!strcmp(a, "--quiet")) {
      quiet = 1;
      continue;
    }
#define OPT(name) ((m = cli_match("switch", argc, argv, &k, name, &v)) < 0 ? 2 : m)
#define BAD return 2
    if ((m = OPT("--ports"))) {
      if (m == 2 || cli_uint("switch", shown, v, 2, 64, &u)) BAD;
      sp.sw.ports = (unsigned)u;
    } else if ((m = OPT("--vcs"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 8, &u)) BAD;
      sp.sw.vcs = (unsigned)u;
    } else if ((m = OPT("--voq"))) {
      if (m == 2 || cli_onoff("switch", shown, v, &on)) BAD;
      sp.sw.voq = on;
    } else if ((m = OPT("--iters"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 4, &u)) BAD;
      sp.sw.iters = (unsigned)u;
    } else if ((m = OPT("--sa-pipe"))) {
      if (m == 2 || cli_onoff("switch", shown, v, &on)) BAD;
      sp.sw.sa_pipe = on;
    } else if ((m = feature_opt(argc, argv, &k, &v, &feat)) != 0) { /* §1 features */
      if (m == 2 || cli_onoff("switch", shown, v, &on)) BAD;
      asw_config_set_feature(&sp.sw, asw_feature_name(feat), on);
    } else if ((m = OPT("--routing"))) {
      if (m == 2 || cli_choice("switch", shown, v, routing_names, 3, &c)) BAD;
      sp.routing = c;
    } else if ((m = OPT("--trigger"))) {
      if (m == 2 || cli_choice("switch", shown, v, trigger_names, 3, &c)) BAD;
      sp.trigger = c;
    } else if ((m = OPT("--load"))) {
      if (m == 2 || cli_double("switch", shown, v, 0.0, 1.0, &sp.load)) BAD;
    } else if ((m = OPT("--packet-flits"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 255, &u)) BAD;
      sp.packet_flits = (unsigned)u;
    } else if ((m = OPT("--max-packet"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 255, &u)) BAD;
      sp.sw.max_packet = (unsigned)u;
      have_lmax = 1;
    } else if ((m = OPT("--buffer-flits"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 16384, &u)) BAD;
      sp.sw.buf_flits = (unsigned)u;
      have_buf = 1;
    } else if ((m = OPT("--cycles"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 0xFFFFFFFFull, &sp.cycles)) BAD;
    } else if ((m = OPT("--warmup"))) {
      if (m == 2 || cli_uint("switch", shown, v, 0, 0xFFFFFFFFull, &sp.warmup)) BAD;
      have_warmup = 1;
    } else if ((m = OPT("--seed"))) {
      if (m == 2 || cli_uint("switch", shown, v, 0, UINT64_MAX, &sp.seed)) BAD;
    } else if ((m = OPT("--credit-delay"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 1000000, &u)) BAD;
      sp.credit_delay = (unsigned)u;
    } else if ((m = OPT("--dest"))) {
      if (m == 2 || parse_dest(v, &sp)) BAD;
    } else if ((m = OPT("--drain-limit"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 0xFFFFFFFFull, &drain_limit)) BAD;
    } else if ((m = OPT("--drain"))) {
      if (m == 2) BAD;
      if (*v && strspn(v, "0123456789") == strlen(v) && strcmp(v, "0") && strcmp(v, "1")) {
        /* the old --drain N */
        fprintf(stderr, "asw switch: --drain N (a cycle limit) was renamed to --drain-limit N; "
                        "--drain is on|off (asw net's drain)\n");
        BAD;
      }
      if (cli_onoff("switch", shown, v, &on)) BAD;
      drain = on;
    } else if ((m = OPT("--table"))) {
      if (m == 2) BAD;
      sp.table = v;
    } else if ((m = OPT("--arn"))) {
      if (m == 2 || cli_choice("switch", shown, v, arn_names, 3, &c)) BAD;
      sp.arn = (unsigned)c;
    } else if ((m = OPT("--arn-up"))) {
      if (m == 2 || cli_onoff("switch", shown, v, &on)) BAD;
      sp.arn_up = on;
    } else if ((m = OPT("--hcdth"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 16384, &u)) BAD;
      sp.hcdth = (unsigned)u;
    } else if ((m = OPT("--lcdth"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 16384, &u)) BAD;
      sp.lcdth = (unsigned)u;
    } else if ((m = OPT("--fcth"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 16384, &u)) BAD;
      sp.fcth = (unsigned)u;
    } else if ((m = OPT("--crt"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 0xFFFFFF, &u)) BAD;
      sp.crt = (unsigned)u;
    } else if ((m = OPT("--arn-ttl"))) {
      if (m == 2 || cli_uint("switch", shown, v, 1, 0xFFFFFF, &u)) BAD;
      sp.arn_ttl = (unsigned)u;
    } else if ((m = OPT("--json"))) {
      if (m == 2) BAD;
      json = v;
    } else {
      cli_unknown("switch", as_given);
      BAD;
    }
  }
  if (!have_lmax) sp.sw.max_packet = sp.packet_flits > 16 ? sp.packet_flits : 16;
  /* cycles: measured after the warm-up, as in asw net; the study's cycles is the generation's end */
  if (sp.warmup + sp.cycles > 0xFFFFFFFFull) {
    fprintf(stderr, "asw switch: %s: warmup%s + cycles must be < 2^32\n",
            have_warmup ? "--warmup" : "--cycles", have_warmup ? "" : " (default 5000)");
    return 2;
  }
  sp.cycles += sp.warmup;
  sp.drain = drain ? drain_limit : 0;
  char err[300];
  if (study_check(&sp, err, sizeof err)) {
    /* name the option behind the failing parameter */
    const char *opt = strstr(err, "V*BUF")           ? "--vcs/--buffer-flits"
                      : strstr(err, "BUF (")           ? "--buffer-flits"
                      : strstr(err, "LMAX (")          ? "--max-packet"
                      : strstr(err, "packet length")   ? "--packet-flits"
                      : strstr(err, "warmup")          ? "--warmup"
                      : strstr(err, "hotspot")         ? "--dest"
                      : strstr(err, "cycles + drain")  ? "--drain-limit"
                      : strstr(err, "LCDTH ")          ? "--lcdth"
                      : strstr(err, "HCDTH ")          ? "--hcdth"
                      : strstr(err, "FCTH ")           ? "--fcth"
                      : strstr(err, "arn")             ? "--arn"
                                                       : "option";
    if (!strcmp(opt, "--buffer-flits") && !have_buf) /* blame what the user set, not the default */
      fprintf(stderr, "asw switch: %s: LMAX %u flits does not fit the default --buffer-flits %u "
              "(a whole packet must fit; give --buffer-flits >= %u)\n",
              have_lmax ? "--max-packet" : "--packet-flits", sp.sw.max_packet, sp.sw.buf_flits,
              sp.sw.max_packet);
    else
      fprintf(stderr, "asw switch: %s: %s\n", opt, err);
    return 2;
  }
  if (json && cli_check_out("switch", "--json", json, 0)) return 2; /* before the run */
  study_result r;
  cli_progress prog; /* a bar on a terminal, a line every 10 s otherwise (not with --quiet) */
  cli_progress_init(&prog, "switch");
  if (!quiet) {
    sp.progress = cli_progress_cb;
    sp.progress_ctx = &prog;
  }
  const int failed = study_run(&sp, &r, err, sizeof err);
  cli_progress_end(&prog);
  if (failed) {
    /* a bad table is a bad option value; anything else is a failed run */
    int table_err = sp.table && !strncmp(err, sp.table, strlen(sp.table));
    fprintf(stderr, "asw switch: %s%s\n", table_err ? "--table: " : "", err);
    return table_err ? 2 : 1;
  }
  if (!quiet) {
    printf("switch P=%u V=%u VOQ=%s iters=%u routing=%s BUF=%u len=%u credit-delay=%u\n",
           sp.sw.ports, sp.sw.vcs, sp.sw.voq ? "on" : "off", sp.sw.iters,
           routing_names[sp.routing], sp.sw.buf_flits, sp.packet_flits, sp.credit_delay);
    printf("  offered %.4f  accepted %.4f flits/output/cycle\n", r.offered_load,
           r.accepted_throughput);
    printf("  latency mean %.2f  p99 %llu  max %llu cycles (%llu packets)\n", r.latency_mean,
           (unsigned long long)r.latency_p99, (unsigned long long)r.latency_max,
           (unsigned long long)r.window_packets);
    if (sp.arn)
      printf("  arn %s: roots declared %llu, ARNs sent %llu, consumed %llu, packets adapted %llu, "
             "entries expired %llu\n", arn_names[sp.arn], (unsigned long long)r.roots_declared,
             (unsigned long long)r.arn_sent, (unsigned long long)r.arn_consumed,
             (unsigned long long)r.packets_adapted, (unsigned long long)r.arn_expired);
  }
  if (json && write_json(json, &sp, drain_limit, &r)) return 1;
  if (!r.window_packets) { /* nothing was measured: not a result */
    fprintf(stderr, "asw switch: no packet finished in the measurement window [%llu, %llu) "
            "(--warmup, --cycles): nothing was measured; raise --load or --cycles\n",
            (unsigned long long)sp.warmup, (unsigned long long)sp.cycles);
    return 1;
  }
  return 0;
}
