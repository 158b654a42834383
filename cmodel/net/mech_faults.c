/* mech_faults.c — §18.6 link faults (link_fault, link_fault_rate): the links'
 * pins and the fabric manager each cycle (faults.c), the losses accounted for
 * and the "link_faults" object. */
#include "net_internal.h"

#include <stdlib.h>

static int faults_on(const net_cfg *c) { return c->lf_count || c->link_fault_rate > 0; }

static int faults_build_late(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  n->lf.faults = faults_new(c, n->t, n->total, err, errlen);
  n->lf.touch = calloc(3 * (size_t)n->S, sizeof *n->lf.touch);
  if (!n->lf.faults || !n->lf.touch) {
    if (n->lf.faults) snprintf(err, errlen, "link_fault: out of memory");
    return -1;
  }
  n->lf.pad_payload = n->sw_cfg.payload_bits == 64 ? ~0ull : (1ull << n->sw_cfg.payload_bits) - 1;
  return 0;
}

/* §18.6: the switches' link-fault counters summed: flits discarded on down
 * links, packets discarded whole, padding flits. */
void net_fault_sum(const net *cn) {
  net *n = (net *)cn; /* a copy of counters, not state of the run */
  if (!n->lf.faults) return;
  n->lf.fd = n->lf.pd = n->lf.pad = 0;
  for (unsigned s = 0; s < n->S; s++) {
    uint32_t v[3];
    asw_reg_read(n->sw[s], ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_DISCARDED), &v[0]);
    asw_reg_read(n->sw[s], ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_DISCARDED), &v[1]);
    asw_reg_read(n->sw[s], ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_PADDED), &v[2]);
    n->lf.fd += v[0];
    n->lf.pd += v[1];
    n->lf.pad += v[2];
  }
}

int net_faults_cycle_begin(net *n) {
  n->lf.touch_n = 0;
  int fm = faults_cycle(n->lf.faults, n->cycle, n->sw, n->lf.touch, &n->lf.touch_n);
  if (n->obs.link) /* the pins from this cycle on, before its steps */
    for (uint32_t j = 0; j < n->lf.touch_n; j++) {
      uint64_t up, rx_up;
      faults_pins(n->lf.faults, n->lf.touch[j], &up, &rx_up);
      n->obs.link(n->obs.ctx, n->lf.touch[j], n->cycle, up, rx_up);
    }
  if (fm) {
    net_catch_up_all(n, n->cycle);
    if (faults_fm(n->lf.faults, n->sw, n->cycle) == UINT64_MAX) {
      snprintf(n->err, sizeof n->err, "link_fault: out of memory for the fabric manager");
      return -1;
    }
  }
  faults_fm_busy(n->lf.faults, n->lf.touch, &n->lf.touch_n); /* their writes: stepped */
  faults_rx_down(n->lf.faults, n->lf.touch, &n->lf.touch_n);  /* padding: stepped */
  return 0;
}

/* The last cycle a flit was discarded. */
static int faults_cycle_end(net *n, int measuring) {
  (void)measuring;
  net_fault_sum(n);
  if (n->lf.fd != n->lf.fd_seen) n->lf.fd_seen = n->lf.fd, n->lf.last_loss = n->cycle + 1;
  return 0;
}

/* Lost packets are not in flight. */
static void faults_results(const net *n, net_results *out) {
  net_fault_sum(n);
  out->in_flight -= n->lf.pkts_damaged + n->lf.pkts_bad + n->lf.pd;
}

/* §18.6: the "link_faults" object. Throughput per window (`window` cycles,
 * delivered flits per node and cycle): the mean of the measured windows
 * before the first link went down, the lowest window after it, and
 * recovery_cycles, from that first down event to the end of the last window
 * after it below 95 % of that mean (0: none); last_loss, the last cycle a
 * flit was discarded (-1: none), and loss_cycles from the first down event
 * to the end of it. */
static void faults_json(const net *n, FILE *f) {
  uint64_t downs, runs, entries, first, cnt[ASW_LCNT_NUM] = {0};
  faults_stats(n->lf.faults, &downs, &runs, &entries, &first);
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned k = 0; k < ASW_LCNT_NUM; k++) {
      uint32_t v = 0;
      asw_reg_read(n->sw[s], ASW_REG_LINK_COUNTER(k), &v);
      cnt[k] += v;
    }
  const uint64_t W = n->cfg.window, warm = n->cfg.warmup;
  double base = 0, low = -1;
  size_t nb = 0, last_low = SIZE_MAX;
  for (size_t i = 0; i < n->nwin; i++)
    if ((i + 1) * W <= first && i * W >= warm) base += (double)n->win[i].accepted, nb++;
  if (nb) base /= (double)nb * (double)W * n->N;
  for (size_t i = 0; i < n->nwin && first != UINT64_MAX; i++) {
    if (i * W < first || (i + 1) * W > n->total) continue;
    double x = (double)n->win[i].accepted / ((double)W * n->N);
    if (low < 0 || x < low) low = x;
    if (nb && x < 0.95 * base) last_low = i;
  }
  fprintf(f, "  \"link_faults\": {\"down_events\": %llu, \"flits_discarded\": %llu, "
          "\"packets_discarded\": %llu, \"packets_cut\": %llu, \"flits_padded\": %llu, "
          "\"packets_damaged\": %llu, \"packets_bad\": %llu, \"packets_lost\": %llu, "
          "\"fm_runs\": %llu, \"fm_entries\": %llu, \"first_down\": %lld, "
          "\"last_loss\": %lld, \"loss_cycles\": %llu, "
          "\"throughput_before\": %.6f, \"throughput_min_after\": %.6f, "
          "\"recovery_cycles\": %llu},\n",
          (unsigned long long)downs, (unsigned long long)cnt[ASW_LCNT_FLITS_DISCARDED],
          (unsigned long long)cnt[ASW_LCNT_PACKETS_DISCARDED],
          (unsigned long long)cnt[ASW_LCNT_PACKETS_CUT], (unsigned long long)cnt[ASW_LCNT_FLITS_PADDED],
          (unsigned long long)n->lf.pkts_damaged, (unsigned long long)n->lf.pkts_bad,
          (unsigned long long)(n->lf.pkts_damaged + cnt[ASW_LCNT_PACKETS_DISCARDED]),
          (unsigned long long)runs, (unsigned long long)entries,
          first == UINT64_MAX ? -1ll : (long long)first, (long long)n->lf.last_loss - 1,
          (unsigned long long)(n->lf.last_loss && first != UINT64_MAX ? n->lf.last_loss - first : 0),
          base, low < 0 ? 0.0 : low,
          (unsigned long long)(last_low == SIZE_MAX ? 0 : (last_low + 1) * W - first));
}

static void faults_text(const net *n, FILE *f) {
  uint64_t downs, runs, entries, first;
  faults_stats(n->lf.faults, &downs, &runs, &entries, &first);
  net_fault_sum(n);
  fprintf(f, "link faults: %llu down events; packets lost %llu (%llu discarded on down links, "
          "%llu cut and discarded by their sinks, %llu bad); fabric manager: %llu runs, %llu "
          "entries; last loss %lld cycles after the first fault\n", (unsigned long long)downs,
          (unsigned long long)(n->lf.pd + n->lf.pkts_damaged), (unsigned long long)n->lf.pd,
          (unsigned long long)n->lf.pkts_damaged, (unsigned long long)n->lf.pkts_bad,
          (unsigned long long)runs, (unsigned long long)entries,
          n->lf.last_loss && first != UINT64_MAX ? (long long)(n->lf.last_loss - first) : -1ll);
}

static void mech_faults_free(net *n) {
  faults_free(n->lf.faults);
  free(n->lf.touch);
}

const net_mech net_mech_faults = {.name = "link_fault", .on = faults_on,
                                  .build_late = faults_build_late,
                                  .cycle_end = faults_cycle_end, .results = faults_results,
                                  .json = faults_json, .json_rank = 40, .text = faults_text,
                                  .text_rank = 50, .free = mech_faults_free};
