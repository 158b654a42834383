/* test_net_traffic.c — the end nodes' random streams are independent.
 *
 * Uniform traffic at load 0.5, drained, so every admitted packet reaches its
 * sink; an observer counts the head flits each leaf switch sends to each end
 * node. With independent sources, each packet picks one of the N - 1 other
 * nodes uniformly, so node d's count c_d is a sum of many rare independent
 * events: c_d ~ Poisson(mean) (variance = mean, cycles * load / len packets).
 * Checks:
 * - every node's count within 5 standard deviations of the mean
 *   (|c_d - m| <= 5 sqrt(m): probability < 6e-7 per node);
 * - chi-square of the counts, sum (c_d - m)^2 / m, below the 1 - 1e-6
 *   quantile of chi2(N - 1) (Wilson-Hilferty, z = 4.75);
 * - the same chi-square per time window (4 windows, df = 4 (N - 1)): the
 *   destinations are uniform at every time, not only on average.
 * Seeding node i with seed*a + i*gamma (gamma = splitmix64's increment) made
 * node i's stream node 0's shifted by i draws: every even node then sends to
 * the same sequence of destinations with a time shift (moving hot spots),
 * and these checks fail by orders of magnitude. `--quick`: shorter runs
 * (sanitizer build). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../netcfg.h"
#include "../network.h"
#include "../topo.h"

#include "net_check.h"

enum { WINDOWS = 4 };

typedef struct {
  const topo *t;        /* set after net_new */
  uint64_t cycles;      /* generation cycles (window length = cycles / WINDOWS) */
  uint64_t *count;      /* [WINDOWS][N] head flits delivered per node */
  unsigned N;
} rx_ctx;

static int count_rx(void *ctx, unsigned s, uint64_t cycle, const asw_inputs *in,
                    const asw_outputs *out, char *err, size_t errlen) {
  (void)in, (void)err, (void)errlen;
  rx_ctx *x = ctx;
  if (!x->t || !out->flit || topo_level(x->t, s) != 1) return 0;
  uint64_t w = cycle * WINDOWS / x->cycles;
  if (w >= WINDOWS) w = WINDOWS - 1; /* drain: the last window's late packets */
  for (uint64_t m = out->flit_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    if (!out->flit[p].head) continue;
    topo_peer pe = topo_port_peer(x->t, s, p);
    if (pe.kind == PEER_NODE && pe.id < x->N) x->count[w * x->N + pe.id]++;
  }
  return 0;
}

/* 1 - 1e-6 quantile of chi2(df), Wilson-Hilferty approximation. */
static double chi2_limit(double df) {
  double a = 2.0 / (9.0 * df);
  return df * pow(1.0 - a + 4.75 * sqrt(a), 3.0);
}

static void check_uniform(const char *topo_settings, uint64_t cycles) {
  char settings[512], err[512];
  snprintf(settings, sizeof settings,
           "%s traffic=uniform load=0.5 packet_flits=8 buffer_flits=64 warmup=0 "
           "cycles=%llu drain=1 seed=1",
           topo_settings, (unsigned long long)cycles);
  net_cfg c;
  netcfg_default(&c);
  char buf[512], *save = NULL;
  snprintf(buf, sizeof buf, "%s", settings);
  for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
    if (netcfg_set_arg(&c, tok, err, sizeof err)) {
      CHECK(0, "config %s: %s", tok, err);
      return;
    }
  rx_ctx x = {NULL, cycles, NULL, 0};
  net_observer obs = {&x, NULL, count_rx, NULL};
  net *n = net_new_observed(&c, &obs, err, sizeof err);
  if (!n) {
    CHECK(0, "net_new: %s", err);
    return;
  }
  x.t = net_topo(n);
  x.N = topo_nodes(x.t);
  x.count = calloc((size_t)WINDOWS * x.N, sizeof *x.count);
  if (!x.count) {
    CHECK(0, "out of memory");
    net_free(n);
    return;
  }
  int st = net_run(n, NULL, NULL);
  net_results r;
  net_get_results(n, &r);
  CHECK(st == NET_RUN_OK && r.drained && r.packets_refused == 0,
        "%s: run ok, drained, nothing refused (status %d, refused %llu)", topo_settings, st,
        (unsigned long long)r.packets_refused);
  unsigned N = x.N;
  uint64_t total = 0, tot_w[WINDOWS] = {0};
  for (unsigned w = 0; w < WINDOWS; w++)
    for (unsigned d = 0; d < N; d++) tot_w[w] += x.count[w * N + d], total += x.count[w * N + d];
  CHECK(total == r.packets_delivered, "%s: counted %llu head flits = %llu packets delivered",
        topo_settings, (unsigned long long)total, (unsigned long long)r.packets_delivered);
  double m = (double)total / N, chi2 = 0, lo = 1e300, hi = 0;
  unsigned outside = 0;
  for (unsigned d = 0; d < N; d++) {
    double cd = 0;
    for (unsigned w = 0; w < WINDOWS; w++) cd += (double)x.count[w * N + d];
    chi2 += (cd - m) * (cd - m) / m;
    if (fabs(cd - m) > 5.0 * sqrt(m)) outside++;
    if (cd < lo) lo = cd;
    if (cd > hi) hi = cd;
  }
  double rate = 8.0 / (double)cycles; /* flits per cycle per packet counted */
  CHECK(outside == 0,
        "%s: every node receives mean +- 5 sd (%.0f +- %.0f packets): %u outside, "
        "received rate %.3f..%.3f (mean 0.5)",
        topo_settings, m, 5.0 * sqrt(m), outside, lo * rate, hi * rate);
  CHECK(chi2 < chi2_limit(N - 1), "%s: chi-square of destinations %.1f < %.1f (df %u)",
        topo_settings, chi2, chi2_limit(N - 1), N - 1);
  double chi2w = 0;
  for (unsigned w = 0; w < WINDOWS; w++) {
    double mw = (double)tot_w[w] / N;
    for (unsigned d = 0; d < N; d++) {
      double e = (double)x.count[w * N + d] - mw;
      chi2w += e * e / mw;
    }
  }
  CHECK(chi2w < chi2_limit(WINDOWS * (N - 1.0)),
        "%s: chi-square per window %.1f < %.1f (df %u)", topo_settings, chi2w,
        chi2_limit(WINDOWS * (N - 1.0)), WINDOWS * (N - 1));
  printf("  %s: %u nodes, %.0f packets per node, received rate %.3f..%.3f, "
         "chi2 %.1f (df %u), per window %.1f (df %u)\n",
         topo_settings, N, m, lo * rate, hi * rate, chi2, N - 1, chi2w, WINDOWS * (N - 1));
  free(x.count);
  net_free(n);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && !strcmp(argv[1], "--quick");
  check_uniform("topology=kary k=4 n=3", quick ? 8000 : 40000);
  if (!quick) check_uniform("topology=rlft ports=12 stages=3", 16000);
  printf("net_traffic%s: %u passed, %u failed\n", quick ? "_quick" : "", passed, failed);
  return failed != 0;
}
