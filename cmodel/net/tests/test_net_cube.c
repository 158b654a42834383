/* test_net_cube.c — tori and meshes in the network simulator (contract §16.4,
 * issue 11), on the C switch model:
 * - the built network: every (source, destination) path followed through the
 *   switches' programmed FWD tables is minimal, stays inside the mesh, obeys
 *   its order (DOR: dimensions never decrease; direction order: X+ Y+ Z+ X- Y- Z-
 *   ranks never decrease), ends on the destination's local port, and carries
 *   the VC of cube_route_vc; BUBBLE registers as §16.1's typical programming;
 * - conservation: after a drain every packet is delivered exactly once, in
 *   order (deterministic routes), for every scheme, both routings, 2D and 3D;
 * - zero-load latency close to the analytic mean (never below it);
 * - a torus without bubble flow control deadlocks, the watchdog catches it and
 *   names the cycle (the channels of one ring, one direction); with it, the
 *   same load never deadlocks;
 * - determinism (same seed, same bytes); bad keys give errors naming them;
 * - VOQnet, the reference fabric (§16.6): the same results, byte for byte, as
 *   the switch with one VC per node where the switch can hold them (N <= 8,
 *   DBBM with V = N), conservation and order, the analytic zero-load latency,
 *   no deadlock even without bubble flow control, and its cold flows
 *   untouched by a hot spot.
 * `--quick` runs shorter simulations (sanitizer build). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../asw_switch.h"
#include "../cube.h"
#include "../cube_tables.h"
#include "../netcfg.h"
#include "../network.h"
#include "../topo.h"

#include "net_check.h"
static int quick;

static int make_cfg(net_cfg *c, const char *settings, char *err, size_t errlen) {
  netcfg_default(c);
  char buf[1024], *save = NULL;
  snprintf(buf, sizeof buf, "%s", settings);
  for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
    if (netcfg_set_arg(c, tok, err, errlen)) return -1;
  return netcfg_check(c, err, errlen);
}

static net *build(const char *settings) {
  net_cfg c;
  char err[512];
  if (make_cfg(&c, settings, err, sizeof err)) {
    printf("config error (%s): %s\n", settings, err);
    return NULL;
  }
  net *n = net_new(&c, err, sizeof err);
  if (!n) printf("net_new (%s): %s\n", settings, err);
  return n;
}

static uint32_t rd(net *n, unsigned s, uint32_t addr) {
  uint32_t v = 0;
  asw_reg_read(net_switch(n, s), addr, &v);
  return v;
}

/* Rank of an output port in the routing's order: DOR the dimension,
 * direction order + directions first. */
static unsigned port_rank(const cube *c, unsigned order, unsigned p) {
  return order == CUBE_ORDER_DIRECTION ? (p % 2) * c->n + p / 2 : p / 2;
}

static void test_paths(const char *settings, unsigned order, unsigned sqs, unsigned vcs) {
  net *n = build(settings);
  CHECK(n != NULL, "paths: build %s", settings);
  if (!n) return;
  const topo *t = net_topo(n);
  const cube *c = topo_cube(t);
  CHECK(c != NULL, "paths: %s is a cube", settings);
  if (!c) { net_free(n); return; }
  cube_route_cfg rc = {.order = order, .sqs = sqs, .vcs = vcs};
  unsigned N = topo_nodes(t), P = topo_ports(t), local = 2 * c->n;
  unsigned bad_len = 0, bad_order = 0, bad_end = 0, bad_vc = 0, hops_total = 0;
  for (unsigned s = 0; s < N; s++)
    for (unsigned d = 0; d < N; d++) {
      unsigned cur = s, hops = 0, last_rank = 0;
      for (;;) {
        uint32_t e = rd(n, cur, ASW_REG_FWD(d));
        unsigned port = e & 0x3Fu, vc = (e >> 8) & 0x3Fu;
        if (!(e >> 31) || port >= P) { bad_end++; break; }
        if (vc != cube_route_vc(c, &rc, cur, d)) bad_vc++;
        if (port == local) {
          if (cur != d) bad_end++;
          break;
        }
        unsigned rank = port_rank(c, order, port);
        if (hops && rank < last_rank) bad_order++;
        last_rank = rank;
        topo_peer pe = topo_port_peer(t, cur, port);
        if (pe.kind != PEER_SWITCH || pe.port != (port ^ 1u) || ++hops > N) { bad_end++; break; }
        cur = pe.id;
      }
      if (hops != cube_distance(c, s, d)) bad_len++;
      hops_total += hops;
    }
  CHECK(!bad_len && !bad_order && !bad_end && !bad_vc,
        "paths %s: %u not minimal, %u out of order, %u wrong end, %u wrong VC", settings, bad_len,
        bad_order, bad_end, bad_vc);
  CHECK(hops_total > 0, "paths %s: %u hops", settings, hops_total);
  /* §16.1 typical programming: a torus's ring outputs name the opposite input */
  unsigned bad_bub = 0, all = (1u << vcs) - 1u;
  for (unsigned s = 0; s < N; s++)
    for (unsigned o = 0; o < P; o++) {
      uint32_t want = 0;
      if (c->torus && o < local && !strstr(settings, "bubble=off"))
        want = asw_bubble_entry(o ^ 1u, 1, all);
      if (rd(n, s, ASW_REG_BUBBLE(o)) != want) bad_bub++;
    }
  CHECK(!bad_bub, "paths %s: %u BUBBLE registers differ from 16.1's programming", settings, bad_bub);
  net_free(n);
}

/* §16.3 tables (ROUTE_CTRL mode 3): for every (switch, node) the entry's det_port is the
 * DOR port, amask exactly the ports that bring the packet one hop closer (adaptive; 0 for
 * OODET and at the node), the candidate VCs the scheme's (fully adaptive 1..V-1, XORADAP
 * the destination's XOR group, a partition of 1..V-1, OODET all); VC_CTRL's fallback and
 * BUBBLE on the escape VC only (adaptive) or all VCs (OODET). */
static void test_vca_tables(const char *settings, unsigned adapt, unsigned groups,
                            unsigned vcs) {
  net *n = build(settings);
  CHECK(n != NULL, "vca tables: build %s", settings);
  if (!n) return;
  const topo *t = net_topo(n);
  const cube *c = topo_cube(t);
  unsigned N = topo_nodes(t), P = topo_ports(t), local = 2 * c->n;
  cube_route_cfg rc = {.order = CUBE_ORDER_DOR, .sqs = adapt ? SQS_1Q : SQS_OODET,
                       .adapt = adapt, .groups = groups, .vcs = vcs};
  unsigned bad_det = 0, bad_mask = 0, bad_vc = 0, used[8] = {0};
  for (unsigned s = 0; s < N; s++)
    for (unsigned d = 0; d < N; d++) {
      uint32_t e = rd(n, s, ASW_REG_FWD(d));
      unsigned det = e & 0x3Fu, vlo = e >> 8 & 7u, vn = (e >> 11 & 7u) + 1, amask = e >> 18 & 0xFFFu;
      if (!(e >> 31) || det != cube_route_port(c, CUBE_ORDER_DOR, s, d)) bad_det++;
      unsigned want = 0;
      if (adapt && s != d)
        for (unsigned p = 0; p < local; p++) {
          int nb = cube_neighbor(c, s, p);
          if (nb >= 0 && cube_distance(c, (unsigned)nb, d) + 1 == cube_distance(c, s, d))
            want |= 1u << p;
        }
      if (amask != want || (want && !(want >> det & 1u))) bad_mask++;
      if (e != cube_vca_entry(c, &rc, s, d)) bad_mask++;
      if (!adapt) {
        if (vlo != 0 || vn != vcs) bad_vc++;
      } else {
        unsigned per = (vcs - 1) / (adapt == CUBE_ADAPT_XOR ? groups : 1);
        if (vn != per || vlo < 1 || vlo + vn > vcs || (vlo - 1) % per) bad_vc++;
        if (s == 0) used[vlo]++;
      }
    }
  CHECK(!bad_det && !bad_mask && !bad_vc, "vca tables %s: %u det_port, %u amask, %u VC range wrong",
        settings, bad_det, bad_mask, bad_vc);
  if (adapt) { /* every group used, by equal shares of the nodes (XOR of the id bits) */
    unsigned g = adapt == CUBE_ADAPT_XOR ? groups : 1, per = (vcs - 1) / g, bad_share = 0;
    for (unsigned k = 0; k < g; k++)
      if (used[1 + k * per] != N / g) bad_share++;
    CHECK(!bad_share, "vca tables %s: groups not used by N/%u nodes each", settings, g);
  }
  unsigned bad_reg = 0;
  for (unsigned s = 0; s < N; s++) {
    if ((rd(n, s, ASW_REG_ROUTE_CTRL) & 3u) != ASW_ROUTE_VCADAPT) bad_reg++;
    if (rd(n, s, ASW_REG_VC_CTRL) != (adapt ? 1u << 2 : 3u << 2)) bad_reg++;
    for (unsigned o = 0; o < P; o++) {
      uint32_t want = 0;
      if (c->torus && o < local) want = asw_bubble_entry(o ^ 1u, 1, adapt ? 1u : (1u << vcs) - 1u);
      if (rd(n, s, ASW_REG_BUBBLE(o)) != want) bad_reg++;
    }
  }
  CHECK(!bad_reg, "vca tables %s: %u ROUTE_CTRL / VC_CTRL / BUBBLE registers wrong", settings,
        bad_reg);
  net_free(n);
}

/* §16.3 runs: every packet delivered once (out of order allowed), no route error, at
 * full load with bubble flow control on the escape VC no deadlock, the escape channel used
 * (ring entries counted on VC 0's rule), adaptive choices made. */
static void test_vca_conservation(void) {
  static const char *const cases[] = {
      "topology=torus dims=8x8 vcs=5 routing=fully-adaptive load=1 seed=1",
      "topology=torus dims=8x8 vcs=5 routing=fully-adaptive load=1 seed=2 traffic=transpose",
      "topology=torus dims=8x8 vcs=5 routing=xoradap groups=2 load=1 traffic=bitrev",
      "topology=torus dims=8x8 vcs=5 routing=xoradap groups=4 load=1 traffic=hs25-1",
      "topology=torus dims=4x4x4 vcs=3 routing=fully-adaptive load=1",
      "topology=torus dims=5x3 vcs=2 routing=fully-adaptive load=1",
      "topology=mesh dims=4x4 vcs=3 routing=xoradap groups=2 load=0.9",
      "topology=torus dims=8x8 vcs=4 sqs=oodet load=1",
      "topology=torus dims=4x4x4 vcs=2 sqs=oodet routing=direction-order load=1",
  };
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
    char settings[512];
    snprintf(settings, sizeof settings,
             "%s packet_flits=16 buffer_flits=32 warmup=500 cycles=%u drain=1 drain_limit=200000 "
             "watchdog=3000",
             cases[i], quick ? 2000 : 8000);
    net *n = build(settings);
    CHECK(n != NULL, "vca conservation: build %s", cases[i]);
    if (!n) continue;
    int st = net_run(n, NULL, NULL);
    net_results r;
    net_get_results(n, &r);
    uint64_t enter = 0, adaptive = 0;
    for (unsigned s = 0; s < topo_switches(net_topo(n)); s++)
      for (unsigned o = 0; o < topo_ports(net_topo(n)); o++) {
        enter += rd(n, s, ASW_REG_BUBBLE_COUNTER(o, ASW_BCNT_RING_ENTER));
        adaptive += rd(n, s, ASW_REG_COUNTER(o, ASW_CNT_ADAPTIVE));
      }
    CHECK(st == NET_RUN_OK && r.drained && r.packets_generated == r.packets_delivered &&
              r.in_flight == 0 && r.duplicates == 0 && r.route_errors == 0 &&
              r.packets_delivered > 500,
          "vca %s: status %d drained %d admitted %llu delivered %llu dup %llu: %.300s%s", cases[i],
          st, r.drained, (unsigned long long)r.packets_generated,
          (unsigned long long)r.packets_delivered, (unsigned long long)r.duplicates,
          net_watchdog_report(n), net_error(n));
    int torus = strstr(cases[i], "torus") != NULL, oodet = strstr(cases[i], "oodet") != NULL;
    CHECK(!torus || enter > 0, "vca %s: no ring entry under the bubble rule", cases[i]);
    CHECK(oodet == (adaptive == 0), "vca %s: %llu adaptive choices", cases[i],
          (unsigned long long)adaptive);
    net_free(n);
  }
}

/* Seed 003 §4.2: under bit-reversal and matrix transpose, adaptive routing (fully
 * adaptive, XORADAP) accepts far more than deterministic DOR with XORDET's classes. */
static void test_vca_adversarial(void) {
  static const char *const tr[] = {"bitrev", "transpose"};
  for (unsigned k = 0; k < 2; k++) {
    double acc[3] = {0};
    static const char *const sch[] = {"routing=dor sqs=xordet vcs=4",
                                      "routing=fully-adaptive vcs=5",
                                      "routing=xoradap groups=4 vcs=5"};
    for (unsigned j = 0; j < 3; j++) {
      char settings[512];
      snprintf(settings, sizeof settings,
               "topology=torus dims=8x8 packet_flits=16 buffer_flits=64 load=0.8 warmup=2000 "
               "cycles=%u traffic=%s %s", quick ? 3000 : 6000, tr[k], sch[j]);
      net *n = build(settings);
      CHECK(n != NULL, "adversarial: build %s", settings);
      if (!n) continue;
      CHECK(net_run(n, NULL, NULL) == NET_RUN_OK, "adversarial: run %s", settings);
      net_results r;
      net_get_results(n, &r);
      acc[j] = r.accepted_throughput;
      net_free(n);
    }
    CHECK(acc[1] > 1.4 * acc[0] && acc[2] > 1.4 * acc[0],
          "%s: fully adaptive %.3f and XORADAP %.3f not above 1.4 x XORDET %.3f", tr[k], acc[1],
          acc[2], acc[0]);
  }
}

/* Seed 003's hot spot: hs_packets ends the hot flows after the cycle their N-th packet is
 * delivered (none delivered later than the drain of what was in flight), hs_cap keeps the
 * hot sources' offer to the hot node at 1 flit/cycle in total (16 sources at 0.5 would offer
 * 8), and both are refused where they mean nothing. */
static void test_hs_seed003(void) {
  double during_off[2] = {0};
  for (unsigned cap = 0; cap < 2; cap++) {
    char settings[512];
    snprintf(settings, sizeof settings,
             "topology=torus dims=8x8 vcs=4 sqs=xordet packet_flits=16 buffer_flits=64 "
             "traffic=hotspot hs_fraction=0.25 hs_count=1 hs_start=2000 hs_packets=150 hs_cap=%s "
             "load=0.5 warmup=0 cycles=%u window=500",
             cap ? "on" : "off", cap ? 20000 : 8000);
    net *n = build(settings);
    CHECK(n != NULL, "hs seed003: build %s", settings);
    if (!n) continue;
    CHECK(net_run(n, NULL, NULL) == NET_RUN_OK, "hs seed003: run");
    uint64_t closed = net_hs_closed(n);
    CHECK(closed > 2000 + 150 * 16 / 2, "hs cap %u: hot flows closed at %llu", cap,
          (unsigned long long)closed);
    FILE *f = tmpfile();
    if (f && closed) {
      net_write_csv(n, f);
      rewind(f);
      char line[512];
      double hot_flits = 0, late_hot = 0, off_sum = 0;
      unsigned off_n = 0;
      CHECK(fgets(line, sizeof line, f) != NULL, "csv header");
      while (fgets(line, sizeof line, f)) {
        unsigned long long end;
        double t, off, acc, hot;
        if (sscanf(line, "%llu,%lf,%lf,%lf,%lf", &end, &t, &off, &acc, &hot) != 5) continue;
        hot_flits += hot * 64 * 500;
        if (end > closed + 6000) late_hot += hot;
        if (end > 3000 && end + 500 <= closed) { off_sum += off; off_n++; }
      }
      during_off[cap] = off_n ? off_sum / off_n : 0;
      CHECK(hot_flits >= 150 * 16 - 1 && late_hot == 0,
            "hs cap %u: %.0f hot flits delivered (>= 2400), %.4f hot after the drain", cap,
            hot_flits, late_hot);
    }
    if (f) fclose(f);
    net_free(n);
  }
  /* offered per node during the hot phase: 48 cold at 0.5 plus the hot sources' offer */
  CHECK(during_off[1] > 0.36 && during_off[1] < 0.42 && during_off[0] > 0.47,
        "hs_cap: offered %.3f capped (48 x 0.5 + 1 = 25 / 64 = 0.39), %.3f uncapped (0.5)",
        during_off[1], during_off[0]);
  net_cfg c;
  char err[512] = "";
  CHECK(make_cfg(&c, "topology=torus dims=4x4 hs_packets=10", err, sizeof err) != 0 &&
            strstr(err, "hs_packets: only with traffic=hotspot"), "hs_packets on uniform: %s", err);
  CHECK(make_cfg(&c, "topology=rlft traffic=hs25-1 hs_packets=10 ranks=2", err, sizeof err) != 0 &&
            strstr(err, "needs ranks = 1"), "hs_packets with ranks: %s", err);
}

/* Direction order differs from DOR on an X- Y+ pair: DOR takes X- first, direction
 * order Y+ (+ directions first). */
static void test_direction_order_differs(void) {
  cube c;
  char err[128];
  CHECK(!cube_parse(&c, "8x8", 1, err, sizeof err), "8x8 parses");
  unsigned src = 2 + 8 * 2, dst = 1 + 8 * 3; /* (2,2) -> (1,3): X- and Y+ */
  CHECK(cube_route_port(&c, CUBE_ORDER_DOR, src, dst) == 1, "DOR takes X- first");
  CHECK(cube_route_port(&c, CUBE_ORDER_DIRECTION, src, dst) == 2, "direction order takes Y+ first");
  CHECK(cube_route_port(&c, CUBE_ORDER_DIRECTION, dst, dst) == 4, "local port at the destination");
  /* torus wrap: (0,0) -> (7,0) is one hop X- */
  CHECK(cube_route_port(&c, CUBE_ORDER_DOR, 0, 7) == 1 && cube_distance(&c, 0, 7) == 1, "wrap X-");
}

static void test_conservation(void) {
  static const char *const cases[] = {
      "topology=torus dims=4x4 vcs=4 sqs=xordet",
      "topology=torus dims=4x4 vcs=4 sqs=iodet routing=direction-order",
      "topology=torus dims=4x4 vcs=2 sqs=dbbm traffic=bitrev",
      "topology=torus dims=4x4 vcs=4 sqs=bbq traffic=transpose",
      "topology=torus dims=4x4 vcs=8 sqs=voqsw",
      "topology=torus dims=3x5 vcs=1",
      "topology=mesh dims=4x4 vcs=4 sqs=xordet traffic=hs25-1",
      "topology=mesh dims=3x3 vcs=2 sqs=iodet routing=direction-order",
      "topology=torus dims=4x4x4 vcs=4 sqs=xordet",
      "topology=mesh dims=3x3x3 vcs=2 sqs=voqsw",
  };
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
    char settings[512];
    snprintf(settings, sizeof settings,
             "%s packet_flits=16 buffer_flits=32 load=0.9 warmup=500 cycles=%u drain=1 watchdog=5000 "
             "check_order=1",
             cases[i], quick ? 1500 : 4000);
    net *n = build(settings);
    CHECK(n != NULL, "conservation: build %s", cases[i]);
    if (!n) continue;
    int st = net_run(n, NULL, NULL);
    net_results r;
    net_get_results(n, &r);
    CHECK(st == NET_RUN_OK && r.drained, "conservation %s: status %d drained %d: %.300s%s", cases[i], st,
          r.drained, net_watchdog_report(n), net_error(n));
    CHECK(r.packets_generated == r.packets_delivered && r.in_flight == 0 &&
              r.duplicates == 0 && r.order_violations == 0 && r.route_errors == 0 &&
              r.packets_delivered > 100,
          "conservation %s: admitted %llu = delivered %llu, in flight %llu, dup %llu, "
          "order %llu, route errors %llu",
          cases[i], (unsigned long long)r.packets_generated, (unsigned long long)r.packets_delivered, (unsigned long long)r.in_flight,
          (unsigned long long)r.duplicates, (unsigned long long)r.order_violations,
          (unsigned long long)r.route_errors);
    net_free(n);
  }
}

/* Low uniform load: latency = L + h (Z + L) + len - 1 on average, never below. */
static void test_zero_load(const char *scheme) {
  const unsigned L = 2, len = 16;
  char st[256];
  snprintf(st, sizeof st, "topology=torus dims=8x8 %s packet_flits=16 buffer_flits=64 load=0.01 "
           "warmup=1000 cycles=20000", scheme);
  net *n = build(st);
  CHECK(n != NULL, "zero load %s: build", scheme);
  if (!n) return;
  CHECK(net_run(n, NULL, NULL) == NET_RUN_OK, "zero load %s: run", scheme);
  net_results r;
  net_get_results(n, &r);
  const topo *t = net_topo(n);
  double sum = 0, N = topo_nodes(t);
  for (unsigned s = 0; s < N; s++)
    for (unsigned d = 0; d < N; d++)
      if (s != d) sum += L + topo_path_switches(t, s, d) * ((double)ASW_ZERO_LOAD_LATENCY + L) + len - 1;
  double want = sum / (N * (N - 1));
  CHECK(r.latency_mean >= want * 0.97 && r.latency_mean < want * 1.08 && r.packets_measured > 300,
        "zero load %s: latency %.2f vs analytic %.2f (%llu packets)", scheme, r.latency_mean, want,
        (unsigned long long)r.packets_measured);
  net_free(n);
}

/* One VC, full load: the rings of a torus deadlock without bubble flow control. */
static void test_deadlock(void) {
  const char *base = "topology=torus dims=8x8 vcs=1 packet_flits=16 buffer_flits=32 load=1 "
                     "warmup=0 watchdog=2000";
  char settings[512];
  snprintf(settings, sizeof settings, "%s cycles=20000 bubble=off", base);
  net *n = build(settings);
  CHECK(n != NULL, "deadlock: build");
  if (n) {
    int st = net_run(n, NULL, NULL);
    const char *rep = net_watchdog_report(n);
    CHECK(st == NET_RUN_WATCHDOG && strstr(rep, "deadlock"), "bubble=off deadlocks (status %d)", st);
    const net_dl_hop *h = NULL;
    unsigned k = net_deadlock_cycle(n, &h);
    /* the cycle is one ring: k hops through k switches, all leaving by one port */
    unsigned same = 1;
    for (unsigned j = 0; h && j < k; j++) same &= h[j].out == h[0].out && h[j].in == (h[0].out ^ 1u);
    CHECK(k == 8 && h && same && h[0].out < 4,
          "deadlock cycle is one ring of 8 channels (length %u): %.400s", k, rep);
    net_free(n);
  }
  /* the same with bubble flow control, several seeds and a 3D torus: never */
  static const char *const on[] = {"dims=8x8 seed=1", "dims=8x8 seed=2", "dims=8x8 seed=3",
                                   "dims=4x4x4 seed=1", "dims=8x8 routing=direction-order seed=4"};
  for (unsigned i = 0; i < sizeof on / sizeof *on; i++) {
    snprintf(settings, sizeof settings,
             "topology=torus vcs=1 packet_flits=16 buffer_flits=32 load=1 warmup=0 watchdog=2000 "
             "cycles=%u drain=1 drain_limit=200000 %s",
             quick ? 5000 : 20000, on[i]);
    n = build(settings);
    CHECK(n != NULL, "bubble: build %s", on[i]);
    if (!n) continue;
    int st = net_run(n, NULL, NULL);
    net_results r;
    net_get_results(n, &r);
    uint64_t enter = 0, stall = 0;
    for (unsigned s = 0; s < topo_switches(net_topo(n)); s++)
      for (unsigned o = 0; o < topo_ports(net_topo(n)); o++) {
        enter += rd(n, s, ASW_REG_BUBBLE_COUNTER(o, ASW_BCNT_RING_ENTER));
        stall += rd(n, s, ASW_REG_BUBBLE_COUNTER(o, ASW_BCNT_BUBBLE_STALL));
      }
    CHECK(st == NET_RUN_OK && r.drained && r.in_flight == 0 && r.packets_delivered > 1000,
          "bubble=on %s never deadlocks: status %d drained %d delivered %llu: %.300s", on[i], st,
          r.drained, (unsigned long long)r.packets_delivered, net_watchdog_report(n));
    CHECK(enter > 0 && stall > 0, "bubble=on %s: the rule admitted %llu ring entries, blocked %llu cycles",
          on[i], (unsigned long long)enter, (unsigned long long)stall);
    net_free(n);
  }
}

static char *json_of(const char *settings, size_t *len) {
  net *n = build(settings);
  if (!n) return NULL;
  net_run(n, NULL, NULL);
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  net_write_json(n, f, 0, 0);
  fclose(f);
  net_free(n);
  char *w = strstr(buf, "\"wall_seconds\""); /* the wall-clock line */
  if (w) {
    *w = 0;
    *len = (size_t)(w - buf);
  }
  return buf;
}

static void test_determinism(void) {
  const char *s = "topology=torus dims=8x8 vcs=4 sqs=xordet packet_flits=16 buffer_flits=64 load=0.5 "
                  "warmup=500 cycles=3000 seed=7";
  size_t la = 0, lb = 0, lc = 0;
  char *a = json_of(s, &la), *b = json_of(s, &lb);
  char s2[512];
  snprintf(s2, sizeof s2, "%s seed=8", s);
  char *c = json_of(s2, &lc);
  CHECK(a && b && la == lb && !memcmp(a, b, la), "determinism: same seed, same JSON");
  CHECK(a && c && (la != lc || memcmp(a, c, la)), "determinism: another seed, other results");
  CHECK(a && strstr(a, "\"dims\": \"8x8\"") && strstr(a, "\"bubble\": \"on\"") &&
            strstr(a, "\"routing\": \"dor\""),
        "JSON echoes dims, bubble (auto -> on) and routing");
  free(a);
  free(b);
  free(c);
  /* fat-tree echo unchanged: no cube keys */
  size_t lf = 0;
  char *f = json_of("topology=kary k=2 n=2 cycles=200 warmup=0", &lf);
  CHECK(f && !strstr(f, "\"dims\"") && !strstr(f, "\"bubble\""), "fat-tree JSON has no cube keys");
  free(f);
}

static void test_errors(void) {
  static const struct {
    const char *settings, *want;
  } cases[] = {
      {"topology=rlft dims=8x8", "dims: only for topology=torus or mesh"},
      {"topology=torus", "dims: topology=torus needs dims"},
      {"topology=mesh dims=4x4 bubble=on", "bubble: a mesh has no rings"},
      {"topology=kary bubble=on", "bubble: only for topology=torus"},
      {"topology=torus dims=4x4 routing=adaptive", "routing: topology=torus takes dor or direction-order"},
      {"topology=rlft routing=dor", "routing: dor is for topology=torus or mesh"},
      {"topology=torus dims=4x4 vcs=2 sqs=vftree", "sqs: vftree is a fat-tree scheme"},
      {"topology=rlft vcs=2 sqs=iodet", "sqs: iodet is for topology=torus or mesh"},
      {"topology=torus dims=4x4 sqs=xordet", "sqs: xordet classifies destinations into VCs"},
      {"topology=torus dims=4x4 vcs=3 sqs=xordet", "xordet needs a power-of-two"},
      {"topology=torus dims=4x4 sqs=oodet", "sqs: oodet classifies destinations into VCs: needs vcs >= 2"},
      {"topology=torus dims=4x4 vcs=4 sqs=voqnet", "vcs: sqs=voqnet is the simulator-only reference fabric"},
      {"topology=torus dims=4x4 sqs=voqnet routing=fully-adaptive", "it routes by dor or direction-order"},
      {"topology=torus dims=4x4 sqs=voqnet voq=1", "voq: sqs=voqnet"},
      {"topology=torus dims=4x4 sqs=voqnet threads=2", "it runs in one thread"},
      {"topology=torus dims=4x4 sqs=voqnet qcn=on", "qcn: sqs=voqnet"},
      {"topology=torus dims=4x4 sqs=voqnet flow_control=pfc", "flow_control: sqs=voqnet"},
      {"topology=torus dims=33x32 sqs=voqnet", "at most 1024 nodes (this network has 1056)"},
      {"topology=rlft sqs=voqnet", "sqs: voqnet is for topology=torus or mesh"},
      {"topology=torus dims=4x4 routing=fully-adaptive", "vcs: routing=fully-adaptive needs vcs >= 2"},
      {"topology=torus dims=4x4 vcs=5 routing=xoradap groups=3", "groups=3: routing=xoradap needs a power of two"},
      {"topology=torus dims=4x4 vcs=4 routing=xoradap groups=2", "dividing the vcs - 1 = 3 adaptive VCs"},
      {"topology=torus dims=4x4 vcs=5 routing=dor groups=4", "groups: only with routing=xoradap"},
      {"topology=rlft groups=4", "groups: only with routing=xoradap"},
      {"topology=rlft routing=fully-adaptive", "fully adaptive routing on fat-trees: adap-noth-s-k"},
      {"topology=rlft vcs=2 sqs=oodet", "sqs: oodet is for topology=torus or mesh"},
      {"topology=torus dims=4x4 vcs=5 routing=fully-adaptive sqs=xordet", "chooses the VCs itself"},
      {"topology=torus dims=4x4 vcs=5 routing=fully-adaptive voq=1", "needs voq=0"},
      {"topology=torus dims=4x4 vcs=4 sqs=oodet voq=1", "voq: sqs=oodet chooses VCs in the switch"},
      {"topology=torus dims=1x8", "radix 1 out of range 2..256"},
      {"topology=torus dims=4x4x4x4", "more than 3 dimensions"},
      {"topology=torus dims=4y4", "not a list of radices"},
      {"topology=torus dims=4x4 vcs=2 arn=afi voq=1", "arn: the ARN/AFI mechanism (contract 15) is for fat-trees"},
      {"topology=torus dims=4x4 vcs=2 afi=1", "afi: the ARN/AFI mechanism (contract 15) is for fat-trees"},
      {"topology=torus dims=4x4 traffic=ihs", "traffic: ihs is a fat-tree pattern"},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
    net_cfg c;
    char err[512] = "";
    int rv = make_cfg(&c, cases[i].settings, err, sizeof err);
    CHECK(rv != 0 && strstr(err, cases[i].want), "error for '%s': got '%s', want '%s'",
          cases[i].settings, err, cases[i].want);
  }
  /* transpose needs an even exponent: 512 nodes */
  net_cfg c;
  char err[512] = "";
  CHECK(!make_cfg(&c, "topology=torus dims=8x8x8 traffic=transpose cycles=10", err, sizeof err), "cfg");
  net *n = net_new(&c, err, sizeof err);
  CHECK(!n && strstr(err, "transpose needs N a power of two with an even exponent"), "transpose 512: %s", err);
  net_free(n);
}

/* The JSON of a run from its results on (no configuration echo, scheme name or
 * reference note), "" if the marker is missing. */
static const char *results_part(const char *json) {
  const char *r = json ? strstr(json, "\"topology\": {\"nodes\"") : NULL;
  return r ? r : "";
}

/* §16.6: VOQnet, the reference fabric. */
static void test_voqnet(void) {
  /* Where the switch holds one VC per node (N <= 8 with DBBM: VC = d mod 8 = d), the
   * reference and the switch network give the same results, byte for byte. */
  static const char *const eq[] = {
      "topology=torus dims=2x4 load=0.9 iters=1",
      "topology=torus dims=2x2x2 load=0.7 iters=3",
      "topology=mesh dims=4x2 load=0.5 iters=2 routing=direction-order",
      "topology=torus dims=2x4 load=0.6 traffic=hotspot hs_nodes=3 hs_fraction=0.5",
      "topology=torus dims=2x4 load=1.0 traffic=bitrev packet_flits=4 buffer_flits=12 "
      "link_latency=1 credit_latency=1",
      "topology=torus dims=2x4 load=0.8 bubble=off link_latency=3 credit_latency=1",
  };
  for (unsigned i = 0; i < sizeof eq / sizeof *eq; i++) {
    char a[512], b[512];
    const char *com = "packet_flits=8 buffer_flits=16 link_latency=2 credit_latency=3 warmup=500 "
                      "window=500";
    snprintf(a, sizeof a, "%s %s %s sqs=voqnet", com, eq[i], quick ? "cycles=1500" : "cycles=5000");
    snprintf(b, sizeof b, "%s %s %s sqs=dbbm vcs=8", com, eq[i], quick ? "cycles=1500" : "cycles=5000");
    size_t la = 0, lb = 0;
    char *ja = json_of(a, &la), *jb = json_of(b, &lb);
    const char *ra = results_part(ja), *rb = results_part(jb);
    CHECK(*ra && !strcmp(ra, rb) && strstr(ja, "\"reference\": \"voqnet") &&
              !strstr(jb, "\"reference\""),
          "voqnet = the switch with V = N: %s (%zu vs %zu bytes of results)", eq[i], strlen(ra),
          strlen(rb));
    free(ja);
    free(jb);
  }
  /* conservation and order, drained, with and without bubble flow control: one VC per
   * destination breaks every ring's cycle (minimal routes to d never pass d) */
  static const char *const cons[] = {
      "topology=torus dims=4x4", "topology=torus dims=8x8 bubble=off load=1",
      "topology=mesh dims=3x3 routing=direction-order", "topology=torus dims=4x4x4 traffic=bitrev",
      "topology=torus dims=5x3 traffic=hs25-1",
  };
  for (unsigned i = 0; i < sizeof cons / sizeof *cons; i++) {
    char st[512];
    snprintf(st, sizeof st, "sqs=voqnet packet_flits=16 buffer_flits=32 load=0.9 warmup=500 "
             "cycles=%u drain=1 watchdog=3000 check_order=1 %s", quick ? 1500 : 4000, cons[i]);
    net *n = build(st);
    CHECK(n != NULL, "voqnet conservation: build %s", cons[i]);
    if (!n) continue;
    int rv = net_run(n, NULL, NULL);
    net_results r;
    net_get_results(n, &r);
    CHECK(rv == NET_RUN_OK && r.drained && r.packets_generated == r.packets_delivered &&
              r.in_flight == 0 && r.duplicates == 0 && r.order_violations == 0 &&
              r.order_checked && r.packets_delivered > 100 && r.flit_hops > 0,
          "voqnet conservation %s: status %d drained %d admitted %llu delivered %llu dup %llu "
          "order %llu: %.300s%s", cons[i], rv, r.drained, (unsigned long long)r.packets_generated,
          (unsigned long long)r.packets_delivered, (unsigned long long)r.duplicates,
          (unsigned long long)r.order_violations, net_watchdog_report(n), net_error(n));
    net_free(n);
  }
  test_zero_load("sqs=voqnet"); /* the analytic latency, as the switches: the same pipeline */
  { /* no RTL of it: a lockstep observer is refused */
    net_cfg c;
    char err[512] = "";
    net_observer obs = {0};
    CHECK(!make_cfg(&c, "topology=torus dims=4x4 sqs=voqnet", err, sizeof err), "voqnet cfg");
    net *n = net_new_observed(&c, &obs, err, sizeof err);
    CHECK(!n && strstr(err, "no switch of the contract to co-simulate"), "voqnet observed: %s", err);
    net_free(n);
  }
  /* a hot spot: 25 % of the nodes to node 27, the others uniform at 0.3 (0.225 of
   * cold traffic per node): VOQnet delivers the cold flows, 1Q does not */
  double cold[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    char st[512];
    snprintf(st, sizeof st, "topology=torus dims=8x8 %s packet_flits=16 buffer_flits=64 "
             "traffic=hotspot hs_nodes=27 hs_fraction=0.25 load=0.3 warmup=2000 cycles=%u",
             k ? "sqs=1q" : "sqs=voqnet", quick ? 4000 : 10000);
    net *n = build(st);
    CHECK(n && net_run(n, NULL, NULL) == NET_RUN_OK, "voqnet hot spot: run %d", k);
    if (!n) continue;
    net_results r;
    net_get_results(n, &r);
    cold[k] = r.accepted_cold;
    net_free(n);
  }
  CHECK(cold[0] > 0.95 * 0.225 && cold[0] > 1.5 * cold[1],
        "voqnet keeps the cold flows under a hot spot: %.4f of 0.225 (1Q %.4f)", cold[0], cold[1]);
}

int main(int argc, char **argv) {
  quick = argc > 1 && !strcmp(argv[1], "--quick");
  test_direction_order_differs();
  test_paths("topology=torus dims=8x8 vcs=4 sqs=xordet", CUBE_ORDER_DOR, SQS_XORDET, 4);
  test_paths("topology=torus dims=8x8 vcs=4 sqs=iodet routing=direction-order", CUBE_ORDER_DIRECTION,
             SQS_IODET, 4);
  test_paths("topology=torus dims=5x3 vcs=8 sqs=voqsw bubble=off", CUBE_ORDER_DOR, SQS_VOQSW, 8);
  test_paths("topology=mesh dims=4x3 vcs=2 sqs=dbbm routing=direction-order", CUBE_ORDER_DIRECTION,
             SQS_DBBM, 2);
  test_paths("topology=torus dims=4x4x4 vcs=4 sqs=bbq", CUBE_ORDER_DOR, SQS_BBQ, 4);
  test_paths("topology=mesh dims=3x4x2 vcs=1", CUBE_ORDER_DOR, SQS_1Q, 1);
  test_errors();
  test_vca_tables("topology=torus dims=8x8 vcs=5 routing=fully-adaptive", CUBE_ADAPT_FULLY, 1, 5);
  test_vca_tables("topology=torus dims=8x8 vcs=5 routing=xoradap groups=4", CUBE_ADAPT_XOR, 4, 5);
  test_vca_tables("topology=torus dims=6x4x3 vcs=7 routing=xoradap groups=2", CUBE_ADAPT_XOR, 2, 7);
  test_vca_tables("topology=mesh dims=5x4 vcs=3 routing=fully-adaptive", CUBE_ADAPT_FULLY, 1, 3);
  test_vca_tables("topology=torus dims=4x4 vcs=4 sqs=oodet", CUBE_ADAPT_NONE, 1, 4);
  test_vca_conservation();
  test_vca_adversarial();
  test_hs_seed003();
  test_zero_load("vcs=2 sqs=xordet");
  test_conservation();
  test_deadlock();
  test_determinism();
  test_voqnet();
  printf("net_cube%s: %u passed, %u failed\n", quick ? "_quick" : "", passed, failed);
  return failed != 0;
}
