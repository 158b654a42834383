/* test_net_sim.c — whole-network properties on the C switch model:
 * zero-load latency = hops x (ASW_ZERO_LOAD_LATENCY + link latency) + serialization (exact on a
 * contention-free permutation, close at low uniform load); accepted =
 * offered at low load; saturation within what the topology allows and the
 * hot-spot sink bound; conservation (every packet delivered exactly once
 * after a drain, in order on deterministic routes) for every routing mode,
 * VOQ and queuing scheme; the watchdog's deadlock and starvation reports;
 * determinism. `--quick` runs shorter simulations (sanitizer build). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../asw_switch.h"
#include "../faults.h"
#include "../netcfg.h"
#include "../network.h"
#include "../tables.h"
#include "../topo.h"

#include "net_check.h"
static int quick;

/* Builds a config from "key=value key=value ..." on top of the defaults. */
static int make_cfg(net_cfg *c, const char *settings) {
  netcfg_default(c);
  char buf[1024], err[512], *save = NULL;
  snprintf(buf, sizeof buf, "%s", settings);
  for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
    if (netcfg_set_arg(c, tok, err, sizeof err)) {
      printf("config error: %s\n", err);
      return -1;
    }
  return 0;
}

/* Runs a simulation; returns the run status (-1 if it could not start). */
static int run(const char *settings, net_results *r, char *report, size_t rlen) {
  net_cfg c;
  char err[512];
  if (make_cfg(&c, settings)) return -1;
  net *n = net_new(&c, err, sizeof err);
  if (!n) {
    printf("net_new: %s\n", err);
    return -1;
  }
  int st = net_run(n, NULL, NULL);
  net_get_results(n, r);
  if (report) snprintf(report, rlen, "%s%s", net_watchdog_report(n), net_error(n));
  if (st == NET_RUN_ERROR) printf("run error: %s\n", net_error(n));
  net_free(n);
  return st;
}

/* Drops the JSON's wall-clock line (wall and CPU time, RSS, threads): the
 * rest is the same bytes for the same configuration and seed. */
static void strip_wall(char *buf, size_t *len) {
  char *w = buf ? strstr(buf, "\"wall_seconds\"") : NULL;
  if (!w) return;
  char *b = w, *e = strchr(w, '\n');
  while (b > buf && b[-1] != '\n') b--;
  e = e ? e + 1 : buf + *len;
  memmove(b, e, (size_t)(buf + *len - e) + 1);
  *len -= (size_t)(e - b);
}

/* Mean zero-load latency over uniform pairs: L + h (Z + L) + len - 1, with
 * Z = ASW_ZERO_LOAD_LATENCY (contract §5). */
static double zero_load_uniform(const topo *t, unsigned L, unsigned len) {
  const double Z = ASW_ZERO_LOAD_LATENCY;
  unsigned N = topo_nodes(t);
  double sum = 0;
  for (unsigned s = 0; s < N; s++)
    for (unsigned d = 0; d < N; d++)
      if (s != d) sum += L + topo_path_switches(t, s, d) * (Z + L) + len - 1;
  return sum / ((double)N * (N - 1));
}

static void test_zero_load(void) {
  net_results r;
  char settings[512];
  /* Contention-free permutation on a k-ary n-tree: every packet sees exactly
   * the contract's pipeline: ASW_ZERO_LOAD_LATENCY cycles per switch plus the
   * link latency. */
  const unsigned L = 3, len = 8;
  snprintf(settings, sizeof settings,
           "topology=kary k=4 n=3 traffic=tornado load=0.5 packet_flits=%u "
           "buffer_flits=64 link_latency=%u credit_latency=2 warmup=500 cycles=%u",
           len, L, quick ? 3000 : 10000);
  CHECK(run(settings, &r, NULL, 0) == NET_RUN_OK, "tornado run");
  /* 5 switches: 4-ary 3-tree, half away */
  double want = L + 5 * ((double)ASW_ZERO_LOAD_LATENCY + L) + len - 1;
  CHECK(r.packets_measured > 100, "tornado delivered %llu", (unsigned long long)r.packets_measured);
  CHECK(fabs(r.latency_mean - want) < 1e-9 && r.latency_p99 == want,
        "tornado latency mean %.3f p99 %.1f, want exactly %.1f", r.latency_mean, r.latency_p99, want);
  CHECK(fabs(r.accepted_throughput - r.offered_load) < 0.01,
        "tornado accepted %.4f = offered %.4f", r.accepted_throughput, r.offered_load);

  /* Low uniform load on the 432-node RLFT: accepted = offered and latency
   * close to the analytic zero-load mean (never below it). */
  char err[256];
  topo *t = topo_new_rlft(12, 3, err, sizeof err);
  double z = zero_load_uniform(t, 2, 16);
  topo_free(t);
  CHECK(run(quick ? "load=0.03 packet_flits=16 buffer_flits=128 warmup=1000 cycles=3000"
                  : "load=0.03 packet_flits=16 buffer_flits=128 warmup=2000 cycles=20000",
            &r, NULL, 0) == NET_RUN_OK, "uniform low-load run");
  CHECK(fabs(r.accepted_throughput - r.offered_load) < 0.05 * r.offered_load,
        "low load: accepted %.4f vs offered %.4f", r.accepted_throughput, r.offered_load);
  CHECK(fabs(r.offered_load - 0.03) < 0.1 * 0.03, "offered %.4f ~ load 0.03", r.offered_load);
  CHECK(r.latency_mean >= z - 1e-9 && r.latency_mean < z * 1.05,
        "low load latency %.2f vs zero-load %.2f (hops x (Z + L) + L + len - 1)",
        r.latency_mean, z);
}

static void test_saturation(void) {
  net_results r;
  const char *cy = quick ? "warmup=1000 cycles=3000" : "warmup=3000 cycles=15000";
  char s[512];
  /* Full-bisection fat-tree: uniform saturation below link rate, well
   * above the 1Q head-of-line limit of a single input queue (~0.59 for
   * large switches is the cell-switch bound; multi-stage VCT loses more). */
  snprintf(s, sizeof s, "topology=kary k=4 n=3 load=1 packet_flits=8 buffer_flits=64 voq=1 %s", cy);
  CHECK(run(s, &r, NULL, 0) == NET_RUN_OK, "saturation run");
  CHECK(r.accepted_throughput > 0.4 && r.accepted_throughput <= 1.0 &&
            r.accepted_throughput <= r.offered_load + 1e-9,
        "uniform saturation %.4f in (0.4, 1]", r.accepted_throughput);
  net_results low;
  snprintf(s, sizeof s, "topology=kary k=4 n=3 load=0.2 packet_flits=8 buffer_flits=64 voq=1 %s", cy);
  run(s, &low, NULL, 0);
  CHECK(r.latency_mean > low.latency_mean, "latency grows with load (%.1f > %.1f)",
        r.latency_mean, low.latency_mean);
  /* Hot spot: the hot flows cannot get more than the hot sink consumes. */
  snprintf(s, sizeof s, "traffic=hs25-1 load=1 packet_flits=16 buffer_flits=256 %s", cy);
  CHECK(run(s, &r, NULL, 0) == NET_RUN_OK, "hs25-1 run");
  CHECK(r.accepted_hot <= 1.0 / 432 + 1e-12 && r.accepted_hot > 0.9 / 432,
        "hot-spot sink bound: hot %.6f per node, bound %.6f", r.accepted_hot, 1.0 / 432);
  snprintf(s, sizeof s, "traffic=hs25-1 load=1 hs_sink_rate=0.5 packet_flits=16 buffer_flits=256 %s", cy);
  CHECK(run(s, &r, NULL, 0) == NET_RUN_OK, "slow hot sink run");
  /* arrivals may lead consumption by at most the sink's buffer (256 flits) */
  CHECK(r.accepted_hot <= (0.5 + 256.0 / r.measured_cycles) / 432 && r.accepted_hot > 0.4 / 432,
        "slow hot sink: hot %.6f per node, bound %.6f", r.accepted_hot, 0.5 / 432);
  /* Adaptive routing makes adaptive decisions under a hot spot; D-mod-K none. */
  snprintf(s, sizeof s, "traffic=hs25-1 load=1 routing=adaptive packet_flits=16 buffer_flits=128 %s", cy);
  run(s, &r, NULL, 0);
  CHECK(r.adaptive_decisions > 0, "adaptive decisions %llu > 0", (unsigned long long)r.adaptive_decisions);
  snprintf(s, sizeof s, "traffic=hs25-1 load=1 routing=dmodk packet_flits=16 buffer_flits=128 %s", cy);
  run(s, &r, NULL, 0);
  CHECK(r.adaptive_decisions == 0, "D-mod-K: no adaptive decisions");
}

static void test_conservation(void) {
  static const char *variants[] = {
      "routing=dmodk",
      "routing=dmodk voq=1 vcs=3 sqs=vftree",
      "routing=dmodk vcs=2 sqs=obqa",
      "routing=dmodk vcs=4 sqs=xordet",
      "routing=oblivious vcs=3 sqs=dbbm",
      "routing=adaptive voq=1",
      "routing=adap-2th-s-k/3 vcs=3 sqs=flow2sl",
      "routing=adap-th-1s-k vcs=3 sqs=vftree voq=1 traffic=ihs",
      "routing=adaptive traffic=hs25-4 hs_start=500 hs_end=2000",
      "routing=dmodk injection=onoff burst_packets=4 sink_rate=0.7",
      "topology=kary k=4 n=3 routing=adap-2th-2s-k vcs=2 sqs=dbbm traffic=bitrev",
  };
  for (unsigned i = 0; i < sizeof variants / sizeof *variants; i++) {
    if (quick && i % 3) continue;
    char s[512];
    snprintf(s, sizeof s, "%s load=0.7 packet_flits=8 buffer_flits=64 warmup=0 "
             "cycles=%u drain=1 drain_limit=200000 check_order=1", variants[i],
             quick ? 1500 : 4000);
    net_results r;
    char rep[2048];
    int st = run(s, &r, rep, sizeof rep);
    CHECK(st == NET_RUN_OK, "%s: run status %d %s", variants[i], st, rep);
    CHECK(r.drained && r.packets_delivered == r.packets_generated && r.in_flight == 0,
          "%s: generated %llu delivered %llu", variants[i],
          (unsigned long long)r.packets_generated, (unsigned long long)r.packets_delivered);
    CHECK(r.duplicates == 0, "%s: %llu duplicates", variants[i], (unsigned long long)r.duplicates);
    CHECK(r.packets_generated > 1000, "%s: only %llu packets", variants[i],
          (unsigned long long)r.packets_generated);
    CHECK(r.route_errors == 0, "%s: %llu route errors", variants[i], (unsigned long long)r.route_errors);
    if (strstr(variants[i], "dmodk"))
      CHECK(r.order_violations == 0, "%s: %llu packets out of order on deterministic routes",
            variants[i], (unsigned long long)r.order_violations);
  }
}

/* ARN / AFI (contract §15): every packet delivered exactly once with ARN
 * messages on the backward channels and adapted packets in the AFC; roots,
 * consumption and adaptation actually happen (thresholds and CRT small). */
static void test_arn_conservation(void) {
  static const char *variants[] = {
      "routing=arn vcs=1 traffic=ihs",
      "routing=arn-afi vcs=2 traffic=ihs",
      "routing=arn-afi vcs=4 sqs=vftree traffic=hs25-4 hs_start=500",
      "routing=adaptive-th-afi vcs=3 sqs=vftree traffic=hs25-1",
  };
  for (unsigned i = 0; i < sizeof variants / sizeof *variants; i++) {
    char s[512];
    snprintf(s, sizeof s, "%s ports=6 stages=3 voq=1 ihs_fraction=0.5 load=0.9 "
             "packet_flits=8 buffer_flits=64 crt=16 hcdth_pct=50 lcdth_pct=30 fcth_pct=30 "
             "warmup=0 cycles=%u drain=1 drain_limit=200000", variants[i],
             quick ? 1500 : 4000);
    net_results r;
    char rep[2048];
    int st = run(s, &r, rep, sizeof rep);
    CHECK(st == NET_RUN_OK, "%s: run status %d %s", variants[i], st, rep);
    CHECK(r.drained && r.packets_delivered == r.packets_generated && r.in_flight == 0 &&
          r.duplicates == 0 && r.route_errors == 0 && r.packets_generated > 500,
          "%s: generated %llu delivered %llu duplicates %llu", variants[i],
          (unsigned long long)r.packets_generated, (unsigned long long)r.packets_delivered,
          (unsigned long long)r.duplicates);
    if (strstr(variants[i], "routing=arn"))
      CHECK(r.arn_roots > 0 && r.arn_sent > 0 && r.arn_consumed > 0 && r.arn_adapted > 0,
            "%s: roots %llu sent %llu consumed %llu adapted %llu", variants[i],
            (unsigned long long)r.arn_roots, (unsigned long long)r.arn_sent,
            (unsigned long long)r.arn_consumed, (unsigned long long)r.arn_adapted);
    else
      CHECK(r.adaptive_decisions > 0 && r.arn_sent == 0, "%s: %llu adaptive decisions, "
            "%llu ARNs", variants[i], (unsigned long long)r.adaptive_decisions,
            (unsigned long long)r.arn_sent);
  }
}

static void test_watchdog(void) {
  net_results r;
  char rep[8192];
  /* Sinks that never consume: everything stops; the report must name the
   * blocked switch ports and the sinks that hold flits. */
  int st = run("topology=kary k=4 n=2 load=0.5 packet_flits=8 buffer_flits=16 sink_rate=0 "
               "warmup=0 cycles=20000 watchdog=2000", &r, rep, sizeof rep);
  CHECK(st == NET_RUN_WATCHDOG, "sink_rate=0 stops with the watchdog (status %d)", st);
  CHECK(strstr(rep, "deadlock") && strstr(rep, "switch") && strstr(rep, "credits") &&
            strstr(rep, "sink holds"),
        "deadlock report names blocked resources: %.300s", rep);
  /* A hot spot that never consumes starves its sources while the rest of
   * the network keeps moving. */
  st = run("traffic=hs10-1 hs_sink_rate=0 load=0.3 packet_flits=8 buffer_flits=32 "
           "warmup=0 cycles=30000 starvation=4000", &r, rep, sizeof rep);
  CHECK(st == NET_RUN_WATCHDOG, "hot sink 0: starvation reported (status %d)", st);
  CHECK(strstr(rep, "starvation") && strstr(rep, "packets queued"),
        "starvation report names sources: %.300s", rep);
  /* Per-destination admission queues and VCs: a sink that never consumes
   * blocks its own VC's congestion tree, not the sources' other traffic. */
  st = run(quick ? "vcs=3 sqs=vftree buffer_flits=256 packet_flits=16 traffic=hotspot "
                   "hs_fraction=0 hs_nodes=4 hs_sink_rate=0 load=0.2 warmup=4000 cycles=3000 watchdog=0"
                 : "vcs=3 sqs=vftree buffer_flits=256 packet_flits=16 traffic=hotspot "
                   "hs_fraction=0 hs_nodes=4 hs_sink_rate=0 load=0.2 warmup=10000 cycles=10000 watchdog=0",
           &r, rep, sizeof rep);
  CHECK(st == NET_RUN_OK && r.accepted_throughput > 0.6 * r.offered_load,
        "dead sink, vFtree: accepted %.3f of offered %.3f", r.accepted_throughput, r.offered_load);
  /* Uniform traffic below saturation starves nobody. */
  st = run("traffic=uniform load=0.3 packet_flits=8 buffer_flits=32 warmup=0 cycles=8000 "
           "starvation=4000", &r, rep, sizeof rep);
  CHECK(st == NET_RUN_OK, "no false starvation report (status %d) %.200s", st, rep);
}

static void test_determinism(void) {
  net_cfg c;
  char err[256];
  char *out[3];
  size_t len[3];
  const char *seeds[3] = {"seed=7", "seed=7", "seed=8"};
  for (int i = 0; i < 3; i++) {
    char s[256];
    snprintf(s, sizeof s, "routing=oblivious traffic=hs25-1 load=0.8 packet_flits=8 "
             "buffer_flits=64 warmup=500 cycles=2000 %s", seeds[i]);
    make_cfg(&c, s);
    net *n = net_new(&c, err, sizeof err);
    net_run(n, NULL, NULL);
    FILE *f = open_memstream(&out[i], &len[i]);
    net_write_json(n, f, 0.0, 0);
    net_write_csv(n, f);
    fclose(f);
    strip_wall(out[i], &len[i]);
    net_free(n);
  }
  CHECK(len[0] == len[1] && !memcmp(out[0], out[1], len[0]), "same seed, same bytes");
  CHECK(len[0] != len[2] || memcmp(out[0], out[2], len[0]), "other seed, other results");
  for (int i = 0; i < 3; i++) free(out[i]);
}

static int count_step(void *ctx, unsigned s, uint64_t cycle, const asw_inputs *in,
                      const asw_outputs *out, char *err, size_t errlen) {
  (void)s, (void)cycle, (void)in, (void)out, (void)err, (void)errlen;
  ++*(uint64_t *)ctx;
  return 0;
}

/* JSON + CSV of one run (wall-clock figures zero); with steps != NULL an
 * observer counts the switch steps. */
static char *run_bytes_obs(const char *settings, size_t *len, int *status, uint64_t *steps) {
  net_cfg c;
  char err[512], *out = NULL;
  *len = 0;
  if (make_cfg(&c, settings)) return NULL;
  net_observer obs = {steps, NULL, count_step, NULL};
  net *n = net_new_observed(&c, steps ? &obs : NULL, err, sizeof err);
  if (!n) {
    printf("net_new: %s\n", err);
    return NULL;
  }
  *status = net_run(n, NULL, NULL);
  FILE *f = open_memstream(&out, len);
  net_write_json(n, f, 0.0, 0);
  net_write_csv(n, f);
  fputs(net_watchdog_report(n), f);
  fclose(f);
  strip_wall(out, len);
  net_free(n);
  return out;
}

static char *run_bytes(const char *settings, size_t *len, int *status) {
  return run_bytes_obs(settings, len, status, NULL);
}

/* Switches that only age ARN entries are not stepped, their missed steps are
 * made up with asw_switch_skip_idle: the same bytes as stepping every one
 * of them (an observer of steps turns the skipping off), with entries
 * expiring between and during the windows and after the hot spot. */
static void test_lazy_arn(void) {
  const char *s = "topology=kary k=4 n=3 vcs=2 buffer_flits=128 packet_flits=8 voq=1 "
                  "traffic=hs25-1 arn=arn routing=adap-th-s-k load=0.5 hs_start=500 "
                  "hs_end=2500 hcdth_pct=30 lcdth_pct=20 fcth_pct=60 arn_ttl=300 crt=100 warmup=0 "
                  "cycles=5000 window=250 drain=1";
  size_t l1, l2;
  int st1 = -1, st2 = -1;
  uint64_t steps = 0;
  char *lazy = run_bytes(s, &l1, &st1);
  char *every = run_bytes_obs(s, &l2, &st2, &steps);
  CHECK(lazy && every && st1 == NET_RUN_OK && st2 == NET_RUN_OK && l1 == l2 &&
        !memcmp(lazy, every, l1), "ARN ageing skipped: same bytes as stepped (%llu steps)",
        (unsigned long long)steps);
  const char *x = lazy ? strstr(lazy, "\"expired\": ") : NULL;
  CHECK(x && atoi(x + 11) > 100, "entries expired: %.20s", x ? x + 11 : "?");
  free(lazy);
  free(every);
}

/* The switch phase on several threads: the same bytes as on one, for plain
 * runs, ARN/AFI (ARN messages on the backward channel), slow sinks with
 * drain, bursty adaptive traffic and a watchdog stop; threads not echoed. */
static void test_threads(void) {
  const char *cases[] = {
      "routing=oblivious traffic=hs25-1 load=0.8 vcs=2 buffer_flits=128 packet_flits=8 "
      "warmup=300 cycles=1500",
      "traffic=hs25-1 vcs=3 buffer_flits=1024 voq=1 arn=afi routing=adaptive warmup=500 "
      "cycles=2500",
      "topology=kary k=4 n=3 vcs=2 buffer_flits=64 packet_flits=8 traffic=hs10-1 "
      "hs_sink_rate=0.5 load=0.5 drain=1 warmup=200 cycles=1500",
      "topology=kary k=4 n=3 vcs=4 buffer_flits=32 packet_flits=16 injection=onoff "
      "routing=adap-2th-s-k load=0.9 iters=1 sqs=dbbm warmup=200 cycles=1500",
      "topology=kary k=4 n=2 sink_rate=0 watchdog=300 load=0.5 packet_flits=4 "
      "buffer_flits=16 warmup=0 cycles=2000",
  };
  const char *threads[] = {"threads=2", "threads=3"};
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
    if (quick && i >= 2) break;
    char s[512];
    size_t l1, l2;
    int st1 = -1, st2 = -1;
    char *one = run_bytes(cases[i], &l1, &st1);
    CHECK(one && !strstr(one, "\"threads\""), "case %u: threads not echoed in the JSON", i);
    for (unsigned t = 0; t < 2; t++) {
      snprintf(s, sizeof s, "%s %s", cases[i], threads[t]);
      char *many = run_bytes(s, &l2, &st2);
      CHECK(one && many && st1 == st2 && l1 == l2 && !memcmp(one, many, l1),
            "case %u: %s gives the bytes of threads=1 (status %d/%d)", i, threads[t], st1, st2);
      free(many);
    }
    if (i == 4) CHECK(st1 == NET_RUN_WATCHDOG, "case 4 stops with the watchdog (%d)", st1);
    free(one);
  }
}

static void test_config_errors(void) {
  net_cfg c;
  char err[512];
  make_cfg(&c, "traffic=bitrev");
  CHECK(!net_new(&c, err, sizeof err) && strstr(err, "traffic"), "bitrev on 432 nodes: %s", err);
  make_cfg(&c, "traffic=hotspot hs_nodes=500");
  CHECK(!net_new(&c, err, sizeof err) && strstr(err, "hs_nodes"), "hot spot beyond N: %s", err);
  make_cfg(&c, "traffic=ihs ihs_port=6");
  CHECK(!net_new(&c, err, sizeof err) && strstr(err, "ihs_port"), "ihs_port out of range: %s", err);
  make_cfg(&c, "topology=kary k=4 n=2 traffic=ihs");
  CHECK(!net_new(&c, err, sizeof err) && strstr(err, "ihs"), "ihs on 2 stages: %s", err);
  make_cfg(&c, "vcs=8 buffer_flits=16384");
  CHECK(!net_new(&c, err, sizeof err) && strstr(err, "buffer_flits"), "V*BUF limit: %s", err);
  netcfg_default(&c);
  const char *bad_threads[] = {"threads=0", "threads=65", "threads=two", "threads=-1"};
  for (unsigned i = 0; i < 4; i++)
    CHECK(netcfg_set_arg(&c, bad_threads[i], err, sizeof err) && strstr(err, "threads"),
          "%s is an error naming the key: %s", bad_threads[i], err);
  CHECK(!netcfg_set_arg(&c, "threads=2", err, sizeof err) && c.threads == 2, "threads=2 accepted");
}

/* Port of switch s whose far end is switch `peer` (an up port if up, else a
 * down port); P if none. */
static unsigned port_to(const topo *t, unsigned s, unsigned peer, int up) {
  uint64_t upm = topo_up_mask(t, s);
  for (unsigned p = 0; p < topo_ports(t); p++) {
    topo_peer pe = topo_port_peer(t, s, p);
    if (pe.kind == PEER_SWITCH && pe.id == peer && !!(upm >> p & 1u) == up) return p;
  }
  return topo_ports(t);
}

/* Deadlock detection (issue 14): a deliberately cyclic routing makes a
 * deadlock, and the watchdog must name its cycle of waiting channels. On a
 * 2-ary 2-tree (leaves L0, L1, tops T0, T1) the entries for destination 0 are
 * rewritten into the loop L0 -up-> T0 -down-> L1 -up-> T1 -down-> L0: its
 * packets circle until the four link buffers on the loop are full. The cycle
 * must be exactly those four input VCs, each waiting on the next. Sinks that
 * never consume (no cycle) must report none. */
static void test_deadlock_cycle(void) {
  net_cfg c;
  char err[512];
  if (make_cfg(&c, "topology=kary k=2 n=2 routing=dmodk load=0.6 packet_flits=4 "
                   "buffer_flits=8 warmup=0 cycles=20000 watchdog=500")) {
    CHECK(0, "deadlock cycle: config");
    return;
  }
  net *n = net_new(&c, err, sizeof err);
  if (!n) {
    CHECK(0, "deadlock cycle: net_new: %s", err);
    return;
  }
  const topo *t = net_topo(n);
  unsigned L0 = topo_node_switch(t, 0), L1 = topo_node_switch(t, 2);
  uint64_t up = topo_up_mask(t, L0);
  unsigned u0 = (unsigned)__builtin_ctzll(up);
  unsigned T0 = topo_port_peer(t, L0, u0).id;
  unsigned T1 = T0;
  for (uint64_t m = topo_up_mask(t, L1); m && T1 == T0; m &= m - 1)
    T1 = topo_port_peer(t, L1, (unsigned)__builtin_ctzll(m)).id;
  /* the loop: switch, output port, and the far end's input port */
  unsigned sw[4] = {L0, T0, L1, T1}, out[4], in[4];
  out[0] = port_to(t, L0, T0, 1);
  out[1] = port_to(t, T0, L1, 0);
  out[2] = port_to(t, L1, T1, 1);
  out[3] = port_to(t, T1, L0, 0);
  for (unsigned j = 0; j < 4; j++) {
    in[(j + 1) % 4] = port_to(t, sw[(j + 1) % 4], sw[j], j % 2 == 1);
    int rv = asw_reg_write(net_switch(n, sw[j]), ASW_REG_FWD(0), asw_fwd_entry(out[j], 0, 0, 0));
    CHECK(rv == 0 && out[j] < topo_ports(t), "loop entry at switch %u (port %u)", sw[j], out[j]);
  }
  int st = net_run(n, NULL, NULL);
  const char *rep = net_watchdog_report(n);
  CHECK(st == NET_RUN_WATCHDOG && strstr(rep, "deadlock"),
        "cyclic routing deadlocks (status %d): %.200s", st, rep);
  const net_dl_hop *h = NULL;
  unsigned k = net_deadlock_cycle(n, &h);
  CHECK(k == 4 && strstr(rep, "channel-dependency cycle of 4 channels"),
        "the report names a cycle of 4 channels (%u): %.600s", k, rep);
  for (unsigned j = 0; j < k && k == 4; j++) {
    /* hop j is the loop's channel into some switch; it waits on hop j+1 */
    unsigned m = 0;
    while (m < 4 && sw[m] != h[j].sw) m++;
    CHECK(m < 4 && h[j].in == in[m] && h[j].vc == 0 && h[j].out == out[m] && h[j].out_vc == 0,
          "hop %u: switch %u in%u.vc%u -> out%u.vc%u is on the loop", j, h[j].sw, h[j].in,
          h[j].vc, h[j].out, h[j].out_vc);
    const net_dl_hop *nx = &h[(j + 1) % k];
    topo_peer pe = topo_port_peer(t, h[j].sw, h[j].out);
    CHECK(pe.kind == PEER_SWITCH && pe.id == nx->sw && pe.port == nx->in && nx->vc == h[j].out_vc,
          "hop %u waits on hop %u (out%u of switch %u is switch %u in%u)", j, (j + 1) % k,
          h[j].out, h[j].sw, nx->sw, nx->in);
  }
  for (unsigned j = 1; j < k; j++) /* channel order: switch, then input port, then VC */
    CHECK(((uint64_t)h[0].sw << 16 | (unsigned)h[0].in << 8 | h[0].vc)
              < ((uint64_t)h[j].sw << 16 | (unsigned)h[j].in << 8 | h[j].vc),
          "the cycle starts at its lowest channel (hop %u is lower)", j);
  /* the JSON carries the same cycle */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (f) {
    net_write_json(n, f, 0.0, 0);
    fclose(f);
  }
  char want[128];
  snprintf(want, sizeof want, "\"deadlock_cycle\": [{\"switch\": %u, \"in\": %u, \"vc\": 0",
           k ? h[0].sw : 0, k ? h[0].in : 0);
  CHECK(buf && strstr(buf, want), "JSON has %s", want);
  free(buf);
  net_free(n);
  /* Sinks that never consume block the network without a cycle. */
  net_results r;
  char rep2[8192];
  st = run("topology=kary k=2 n=2 routing=dmodk load=0.6 packet_flits=4 buffer_flits=8 "
           "sink_rate=0 warmup=0 cycles=20000 watchdog=500", &r, rep2, sizeof rep2);
  CHECK(st == NET_RUN_WATCHDOG && strstr(rep2, "no channel-dependency cycle"),
        "blocked sinks: no cycle reported (status %d): %.600s", st, rep2);
}

/* §18.6: the fabric manager's routes. Every route the tables allow from every leaf to
 * every node (the deterministic port, and with multipath each port of the candidate set
 * whose link is up, as adaptive routing may take any) keeps off down links, never goes
 * up after going down (up*-down*: no channel-dependency cycle, so no deadlock, however
 * adaptive routing picks), and reaches the node's leaf. Returns the number of bad
 * routes; *bad names the first. */
static int reg_write_sw(void *ctx, uint32_t addr, uint32_t data) {
  return asw_reg_write(ctx, addr, data) == ASW_OK ? 0 : -1;
}

static unsigned fm_walk(const topo *t, asw_switch *const *sw, const net_faults *f, unsigned s,
                        unsigned d, int down, unsigned depth, char *bad, size_t blen) {
  if (s == topo_node_switch(t, d)) return 0;
  if (depth > 2 * topo_levels(t)) {
    if (!*bad) snprintf(bad, blen, "node %u: a loop through switch %u", d, s);
    return 1;
  }
  uint32_t e = 0, lo = 0, hi = 0;
  asw_reg_read(sw[s], ASW_REG_FWD(d), &e);
  uint64_t up, rx_up, ports = 1ull << (e & 0x3Fu);
  faults_pins(f, s, &up, &rx_up);
  if (e >> 30 & 1u) {
    asw_reg_read(sw[s], ASW_REG_CSET(e >> 16 & 3u, 0), &lo);
    asw_reg_read(sw[s], ASW_REG_CSET(e >> 16 & 3u, 1), &hi);
    ports |= ((uint64_t)hi << 32 | lo) & up; /* §18.3: down outputs leave the set */
  }
  unsigned n = 0;
  for (; ports; ports &= ports - 1) {
    unsigned p = (unsigned)__builtin_ctzll(ports);
    topo_peer pe = topo_port_peer(t, s, p);
    if (!(up >> p & 1) || pe.kind != PEER_SWITCH) {
      if (!*bad) snprintf(bad, blen, "node %u: switch %u sends it to port %u (%s)", d, s, p,
                          pe.kind != PEER_SWITCH ? "an end node" : "link down");
      n++;
      continue;
    }
    int going_down = topo_level(t, pe.id) < topo_level(t, s);
    if (down && !going_down) {
      if (!*bad) snprintf(bad, blen, "node %u: switch %u sends it up again (port %u) after "
                          "going down (a valley)", d, s, p);
      n++;
      continue;
    }
    n += fm_walk(t, sw, f, pe.id, d, going_down, depth + 1, bad, blen);
  }
  return n;
}

static void test_fm_updn(void) {
  static const struct { const char *what, *faults; int back; } sc[] = { /* back: link up again */
      /* 4-ary 3-tree: leaves 0..15 (up ports 4..7), stage 2 16..31, tops 32..47 */
      {"a leaf up link", "link_fault=0:4:5:0", 0},
      {"a stage-2 up link", "link_fault=16:5:5:0", 0},
      {"two up links of one leaf and a stage-2 one", "link_fault=0:4:5:0,0:6:5:0,21:7:5:0", 0},
      {"a leaf up link, back up at cycle 40", "link_fault=0:4:5:40", 1},
  };
  for (unsigned i = 0; i < sizeof sc / sizeof *sc; i++)
    for (int mode = 0; mode < 2; mode++) {
      char set[256], err[256] = "", bad[200] = "";
      snprintf(set, sizeof set, "topology=kary k=4 n=3 routing=%s delta=%u fm_delay=2 %s",
               mode ? "adaptive" : "dmodk", mode ? 2 : 1, sc[i].faults);
      net_cfg c;
      if (make_cfg(&c, set)) {
        CHECK(0, "fabric manager, %s: config", sc[i].what);
        continue;
      }
      topo *t = topo_new_kary(4, 3, err, sizeof err);
      const unsigned S = topo_switches(t), N = topo_nodes(t);
      asw_switch *sw[48] = {0};
      asw_config ac;
      asw_config_default(&ac);
      asw_config_set_features(&ac, ASW_FEAT_ALL); /* §1: as the simulator's switches */
      ac.ports = topo_ports(t);
      ac.vcs = 2;
      ac.dest_bits = 16;
      ac.table_entries = N;
      route_cfg rc = {.mode = mode ? ASW_ROUTE_ADAPTIVE : ASW_ROUTE_DET, .stage_mask = 0xFF,
                      .delta = mode ? 2 : 1};
      int ok = S <= 48;
      for (unsigned s = 0; ok && s < S; s++)
        ok = (sw[s] = asw_switch_new(&ac, err, sizeof err)) &&
             !tables_program_switch(t, s, &rc, reg_write_sw, sw[s]);
      net_faults *f = ok ? faults_new(&c, t, 1000, err, sizeof err) : NULL;
      CHECK(f != NULL, "fabric manager, %s: set-up (%s)", sc[i].what, err);
      if (f) {
        uint32_t touched[48], nt = 0, addr, data;
        for (uint64_t cy = 0; cy < 42 + 2 * N + 2; cy++) { /* faults, FM runs, their writes */
          nt = 0;
          if (faults_cycle(f, cy, sw, touched, &nt)) faults_fm(f, sw, cy);
          for (unsigned s = 0; s < S; s++)
            while (faults_fm_take(f, s, cy, &addr, &data)) asw_reg_write(sw[s], addr, data);
        }
        uint64_t downs, runs, entries, first;
        faults_stats(f, &downs, &runs, &entries, &first);
        unsigned nbad = 0, routes = 0;
        for (unsigned l = topo_level_first(t, 1), le = l + topo_level_count(t, 1); l < le; l++)
          for (unsigned d = 0; d < N; d++, routes++)
            nbad += fm_walk(t, sw, f, l, d, 0, 0, bad, sizeof bad);
        const int back = sc[i].back;
        if (back) { /* the link back up: every entry as the tables first wrote it */
          unsigned diff = 0;
          asw_switch *ref = asw_switch_new(&ac, err, sizeof err);
          for (unsigned s = 0; ref && s < S; s++) {
            tables_program_switch(t, s, &rc, reg_write_sw, ref);
            for (unsigned d = 0; d < N; d++) {
              uint32_t a = 0, b = 0;
              asw_reg_read(sw[s], ASW_REG_FWD(d), &a);
              asw_reg_read(ref, ASW_REG_FWD(d), &b);
              diff += a != b;
            }
          }
          CHECK(ref && diff == 0 && runs == 2, "fabric manager, %s, %s: the second run "
                "restores every FWD entry (multipath included): %u differ", sc[i].what,
                mode ? "adaptive" : "D-mod-K", diff);
          asw_switch_free(ref);
        }
        CHECK(runs == 1u + back && entries > 0 && nbad == 0,
              "fabric manager, %s, %s: %u leaf-to-node routes (every choice) up*-down*, off "
              "the down links, all reach their node (%llu entries rewritten)%s%s",
              sc[i].what, mode ? "adaptive" : "D-mod-K", routes, (unsigned long long)entries,
              nbad ? "; first bad: " : "", bad);
        faults_free(f);
      }
      for (unsigned s = 0; s < S && s < 48; s++) asw_switch_free(sw[s]);
      topo_free(t);
    }
}

int main(int argc, char **argv) {
  quick = argc > 1 && !strcmp(argv[1], "--quick");
  test_config_errors();
  test_zero_load();
  test_saturation();
  test_conservation();
  test_arn_conservation();
  test_watchdog();
  test_deadlock_cycle();
  test_determinism();
  test_threads();
  test_lazy_arn();
  test_fm_updn();
  printf("net_sim%s: %u passed, %u failed\n", quick ? "_quick" : "", passed, failed);
  return failed != 0;
}
