/* netref.c — see netref.h. */
#include "netref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "net/netcfg.h"
#include "net/topo.h"

struct netref {
  net *n;
};

netref *netref_new(int nsettings, char *const *settings, const net_observer *obs,
                   char *err, size_t errlen) {
  net_cfg cfg;
  netcfg_default(&cfg);
  for (int i = 0; i < nsettings; i++)
    if (netcfg_set_arg(&cfg, settings[i], err, errlen)) return NULL;
  netref *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  r->n = net_new_observed(&cfg, obs, err, errlen);
  if (!r->n) {
    free(r);
    return NULL;
  }
  return r;
}

void netref_free(netref *r) {
  if (!r) return;
  net_free(r->n);
  free(r);
}

void netref_switch_config(const netref *r, asw_config *cfg) { net_switch_config(r->n, cfg); }
unsigned netref_switches(const netref *r) { return topo_switches(net_topo(r->n)); }
unsigned netref_stage(const netref *r, unsigned s) { return topo_level(net_topo(r->n), s); }

static double progress_every; /* netref_progress(): seconds between reports (0: none) */

void netref_progress(double every_s) { progress_every = every_s; }

typedef struct {
  struct timespec t0;
  double last;
  int tty, drawn;
} progress_state;

/* A bar on a terminal, else a line every progress_every seconds (stderr). */
static void progress_cb(void *ctx, uint64_t cycle, uint64_t total) {
  progress_state *ps = ctx;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  const double el = (double)(t.tv_sec - ps->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - ps->t0.tv_nsec);
  if (el - ps->last < progress_every || !cycle) return;
  ps->last = el;
  const double frac = total ? (double)(cycle > total ? total : cycle) / (double)total : 1.0;
  const double left = frac > 0 ? el * (1 - frac) / frac : 0;
  if (ps->tty) {
    char bar[31];
    for (int i = 0; i < 30; i++) bar[i] = i < (int)(frac * 30) ? '#' : '.';
    bar[30] = 0;
    fprintf(stderr, "\r[%s] %5.1f %% cycle %llu/%llu, %.0f s left ", bar, 100 * frac,
            (unsigned long long)cycle, (unsigned long long)total, left);
    ps->drawn = 1;
  } else {
    fprintf(stderr, "cosim_net: cycle %llu of %llu (%.0f %%), %.0f s left\n",
            (unsigned long long)cycle, (unsigned long long)total, 100 * frac, left);
  }
  fflush(stderr);
}

int netref_run(netref *r, char *err, size_t errlen) {
  progress_state ps = {.tty = isatty(2)};
  clock_gettime(CLOCK_MONOTONIC, &ps.t0);
  int st = net_run(r->n, progress_every > 0 ? progress_cb : NULL, &ps);
  if (ps.drawn) fputc('\n', stderr);
  if (st == NET_RUN_OK) return 0;
  snprintf(err, errlen, "%s", st == NET_RUN_WATCHDOG ? net_watchdog_report(r->n) : net_error(r->n));
  return -1;
}

int netref_step(netref *r, unsigned s, const asw_inputs *in, asw_outputs *out) {
  asw_switch *sw = net_switch(r->n, s);
  return sw ? asw_switch_step(sw, in, out) : ASW_EINVAL;
}

uint64_t netref_cnm(const netref *r, unsigned s, uint64_t *msgs) {
  const asw_switch *sw = net_switch(r->n, s);
  return sw ? asw_switch_cnm(sw, msgs) : 0;
}

void netref_counts_get(const netref *r, netref_counts *c) {
  net_results res;
  net_get_results(r->n, &res);
  memset(c, 0, sizeof *c);
  c->cycles_run = res.cycles_run;
  c->packets_generated = res.packets_generated;
  c->packets_delivered = res.packets_delivered;
  c->route_errors = res.route_errors;
  c->credit_stalls = res.credit_stalls;
  c->adaptive_decisions = res.adaptive_decisions;
  c->arn[ASW_ACNT_ROOTS] = res.arn_roots;
  c->arn[ASW_ACNT_SENT] = res.arn_sent;
  c->arn[ASW_ACNT_RECEIVED] = res.arn_received;
  c->arn[ASW_ACNT_CONSUMED] = res.arn_consumed;
  c->arn[ASW_ACNT_EXPIRED] = res.arn_expired;
  c->arn[ASW_ACNT_ADAPTED] = res.arn_adapted;
  c->arn[ASW_ACNT_IN_DROPPED] = res.arn_in_dropped;
  c->arn[ASW_ACNT_OUT_DROPPED] = res.arn_out_dropped;
  c->arn[ASW_ACNT_EVICTED] = res.arn_evicted;
  c->arn_at_nodes = res.arn_at_nodes;
  for (unsigned s = 0; s < netref_switches(r); s++) {
    const asw_switch *sw = net_switch(r->n, s);
    for (unsigned k = 0; k < ASW_LCNT_NUM && sw; k++) {
      uint32_t v = 0;
      asw_reg_read(sw, ASW_REG_LINK_COUNTER(k), &v);
      c->link[k] += v;
    }
  }
}

void netref_write_text(const netref *r, FILE *f) { net_write_text(r->n, f); }
