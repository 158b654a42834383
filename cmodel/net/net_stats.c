/* net_stats.c — what a run measures and how it is written: latency
 * histograms, per-window series, the results (net_get_results) and the JSON,
 * CSV and text writers. Optional mechanisms add their objects and lines through
 * their net_mech hooks (net_mech_write). */
#include "net_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double hist_lower(unsigned idx) {
  if (idx < HIST_EXACT) return idx;
  unsigned e = (idx - HIST_EXACT) / 64 + 10, sub = (idx - HIST_EXACT) % 64;
  return ldexp(64.0 + sub, (int)e - 6);
}
static double hist_mean(const hist *h) {
  return h->count ? h->sum / (double)h->count : 0.0;
}
static double hist_pct(const hist *h, double q) {
  if (!h->count) return 0.0;
  uint64_t need = (uint64_t)ceil(q * (double)h->count), acc = 0;
  for (unsigned i = 0; i < HIST_BUCKETS; i++) {
    acc += h->b[i];
    if (acc >= need) return hist_lower(i);
  }
  return hist_lower(HIST_BUCKETS - 1);
}

/* Sum over every switch port p of how much the per-port counter at register
 * base + p * stride grew since the last call (prev: one value per switch
 * port; 32-bit counters wrap). */
static uint64_t counter_growth(net *n, uint32_t base, uint32_t stride, uint32_t *prev) {
  uint64_t sum = 0;
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned p = 0; n->sw[s] && p < n->P; p++) {
      uint32_t v = 0;
      asw_reg_read(n->sw[s], base + p * stride, &v);
      uint32_t *pv = &prev[(size_t)s * n->P + p];
      sum += (uint32_t)(v - *pv);
      *pv = v;
    }
  return sum;
}

void net_accumulate_adaptive(net *n, window_stat *ws) {
  uint64_t sum = counter_growth(n, ASW_REG_COUNTER(0, ASW_CNT_ADAPTIVE),
                                ASW_REG_COUNTER(1, 0) - ASW_REG_COUNTER(0, 0), n->cnt_prev);
  n->r.adaptive_decisions += sum;
  if (ws) ws->adaptive += sum;
  if (n->cfg.arn_entries == 0) return;
  sum = counter_growth(n, ASW_REG_ARN_COUNTER(0, ASW_ACNT_ADAPTED),
                       ASW_REG_ARN_COUNTER(1, 0) - ASW_REG_ARN_COUNTER(0, 0), n->adp_prev);
  if (ws) ws->adapted += sum;
}

void net_get_results(const net *n, net_results *out) {
  *out = n->r;
  const net_cfg *c = &n->cfg;
  uint64_t meas = n->cycle > c->warmup ? (n->cycle < n->total ? n->cycle : n->total) - c->warmup : 0;
  double denom = (double)n->N * (double)(meas ? meas : 1);
  out->measured_cycles = meas;
  out->offered_load = n->r.offered_load / denom;
  out->admitted_load = n->r.admitted_load / denom;
  out->accepted_hot = n->r.accepted_hot / denom;
  out->accepted_cold = n->r.accepted_cold / denom;
  out->accepted_throughput = out->accepted_hot + out->accepted_cold;
  out->latency_mean = hist_mean(&n->h_net);
  out->latency_p99 = hist_pct(&n->h_net, 0.99);
  out->latency_e2e_mean = hist_mean(&n->h_e2e);
  out->latency_e2e_p99 = hist_pct(&n->h_e2e, 0.99);
  out->latency_hot_mean = hist_mean(&n->h_hot);
  out->latency_hot_p99 = hist_pct(&n->h_hot, 0.99);
  out->latency_cold_mean = hist_mean(&n->h_cold);
  out->latency_cold_p99 = hist_pct(&n->h_cold, 0.99);
  out->in_flight = n->r.packets_generated - n->r.packets_delivered;
  out->adaptive_measured = n->r.adaptive_decisions - n->adaptive_at_warmup;
  uint64_t re = 0, cs = 0;
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned p = 0; n->sw[s] && p < n->P; p++) {
      uint32_t v;
      if (!asw_reg_read(n->sw[s], ASW_REG_COUNTER(p, ASW_CNT_ROUTE_ERRORS), &v)) re += v;
      if (!asw_reg_read(n->sw[s], ASW_REG_COUNTER(p, ASW_CNT_CREDIT_STALL), &v)) cs += v;
    }
  for (unsigned s = 0; n->vq && s < n->S; s++) /* §16.6 */
    for (unsigned p = 0; p < n->P; p++) {
      uint32_t fo, st;
      vqn_port_counters(n->vq, s, p, &fo, &st);
      cs += st;
    }
  out->route_errors = n->rk.reduced ? n->rk.red_re : re; /* reduced: all ranks' */
  out->credit_stalls = n->rk.reduced ? n->rk.red_cs : cs;
  uint64_t acnt[ASW_ACNT_NUM] = {0};
  if (n->rk.reduced) memcpy(acnt, n->rk.red_acnt, sizeof acnt);
  else if (c->arn_entries)
    for (unsigned s = 0; s < n->S; s++)
      for (unsigned p = 0; n->sw[s] && p < n->P; p++)
        for (unsigned k = 0; k < ASW_ACNT_NUM; k++) {
          uint32_t v;
          if (!asw_reg_read(n->sw[s], ASW_REG_ARN_COUNTER(p, k), &v)) acnt[k] += v;
        }
  out->arn_roots = acnt[ASW_ACNT_ROOTS];
  out->arn_sent = acnt[ASW_ACNT_SENT];
  out->arn_received = acnt[ASW_ACNT_RECEIVED];
  out->arn_consumed = acnt[ASW_ACNT_CONSUMED];
  out->arn_expired = acnt[ASW_ACNT_EXPIRED];
  out->arn_adapted = acnt[ASW_ACNT_ADAPTED];
  out->arn_in_dropped = acnt[ASW_ACNT_IN_DROPPED];
  out->arn_out_dropped = acnt[ASW_ACNT_OUT_DROPPED];
  out->arn_evicted = acnt[ASW_ACNT_EVICTED];
  out->arn_at_nodes = n->arn_at_nodes;
  out->pause_frames = n->pfc.frames;
  out->pause_storms = n->pfc.storms;
  out->pause_max_cycles = n->pfc.max;
  out->frames_dropped = n->pfc.dropped;
  net_mech_results(n, out); /* §17.3 pauses still open, §18.6 packets lost, ... */
}

void net_write_json(const net *n, FILE *f, double wall, long rss_kb) {
  net_results r;
  net_get_results(n, &r);
  fprintf(f, "{\n  \"config\": ");
  netcfg_json(&n->cfg, f);
  fprintf(f, ",\n  \"routing_name\": \"%s\", \"scheme_name\": \"%s%s\"", n->routing_name,
          sqs_name((sqs_kind)n->cfg.sqs), n->cfg.voq ? "-voq" : "");
  if (n->vq) /* §16.6 */
    fprintf(f, ",\n  \"reference\": \"voqnet: the simulator-only reference fabric (contract "
            "16.6), one VC per node (%u VCs of %u flits per port), not the switch\"", n->N,
            n->cfg.buffer_flits);
  net_traffic_json_name(n, f);
  if (n->ft.port) { /* §16.5: the cycle cdg_check=warn let through, else null */
    fprintf(f, ", \"cdg_cycle\": ");
    if (n->cdg_note) fprintf(f, "\"%s\"", n->cdg_note); /* no quotes or backslashes in it */
    else fprintf(f, "null");
  }
  fprintf(f, ",\n  \"topology\": {\"nodes\": %u, \"switches\": %u, \"ports\": %u, "
          "\"stages\": %u},\n", n->N, n->S, n->P, topo_levels(n->t));
  fprintf(f, "  \"cycles_run\": %llu, \"measured_cycles\": %llu, \"time_us\": %.3f,\n",
          (unsigned long long)r.cycles_run, (unsigned long long)r.measured_cycles,
          (double)r.measured_cycles * n->cfg.cycle_ns / 1000.0);
  fprintf(f, "  \"offered_load\": %.6f, \"admitted_load\": %.6f, "
          "\"accepted_throughput\": %.6f,\n", r.offered_load, r.admitted_load,
          r.accepted_throughput);
  fprintf(f, "  \"accepted_hot\": %.6f, \"accepted_cold\": %.6f,\n", r.accepted_hot,
          r.accepted_cold);
  fprintf(f, "  \"latency_mean\": %.3f, \"latency_p99\": %.1f, \"latency_e2e_mean\": "
          "%.3f, \"latency_e2e_p99\": %.1f,\n", r.latency_mean, r.latency_p99,
          r.latency_e2e_mean, r.latency_e2e_p99);
  fprintf(f, "  \"latency_hot_mean\": %.3f, \"latency_hot_p99\": %.1f, "
          "\"latency_cold_mean\": %.3f, \"latency_cold_p99\": %.1f,\n",
          r.latency_hot_mean, r.latency_hot_p99, r.latency_cold_mean, r.latency_cold_p99);
  fprintf(f, "  \"latency_unit\": \"cycles\", \"cycle_ns\": %.15g,\n", n->cfg.cycle_ns);
  fprintf(f, "  \"packets_generated\": %llu, \"packets_refused\": %llu, "
          "\"packets_delivered\": %llu, \"packets_measured\": %llu, \"in_flight\": %llu,\n",
          (unsigned long long)r.packets_generated, (unsigned long long)r.packets_refused,
          (unsigned long long)r.packets_delivered, (unsigned long long)r.packets_measured,
          (unsigned long long)r.in_flight);
  fprintf(f, "  \"duplicates\": %llu, \"order_checked\": %s, \"order_violations\": %llu, "
          "\"drained\": %s,\n", (unsigned long long)r.duplicates,
          r.order_checked ? "true" : "false", (unsigned long long)r.order_violations,
          r.drained ? "true" : "false");
  fprintf(f, "  \"adaptive_decisions\": %llu, \"adaptive_decisions_measured\": %llu, "
          "\"route_errors\": %llu, \"credit_stalls\": %llu,\n",
          (unsigned long long)r.adaptive_decisions, (unsigned long long)r.adaptive_measured,
          (unsigned long long)r.route_errors, (unsigned long long)r.credit_stalls);
  fprintf(f, "  \"flit_hops\": %llu,\n", (unsigned long long)r.flit_hops);
  net_mech_write(n, f, 1, 0, NET_MECH_ARN); /* traffic=trace, ... */
  if (n->cfg.arn || n->cfg.afi)
    fprintf(f, "  \"arn\": {\"roots_declared\": %llu, \"sent\": %llu, \"received\": %llu, "
            "\"consumed\": %llu, \"expired\": %llu, \"packets_adapted\": %llu, "
            "\"in_dropped\": %llu, \"out_dropped\": %llu, \"evicted\": %llu, "
            "\"at_end_nodes\": %llu},\n",
            (unsigned long long)r.arn_roots, (unsigned long long)r.arn_sent,
            (unsigned long long)r.arn_received, (unsigned long long)r.arn_consumed,
            (unsigned long long)r.arn_expired, (unsigned long long)r.arn_adapted,
            (unsigned long long)r.arn_in_dropped, (unsigned long long)r.arn_out_dropped,
            (unsigned long long)r.arn_evicted, (unsigned long long)r.arn_at_nodes);
  net_mech_write(n, f, 1, NET_MECH_ARN, NET_MECH_LAST); /* PFC, link faults, QCN, ... */
  /* link utilization per stage and direction over the whole run (switch
   * FLITS_OUT counters / cycles): shows where a network saturates */
  fprintf(f, "  \"link_utilization\": [");
  for (unsigned l = 1; l <= topo_levels(n->t); l++) {
    double sum[2] = {0, 0}, mx[2] = {0, 0};
    unsigned cnt[2] = {0, 0};
    unsigned first = topo_level_first(n->t, l), down = topo_down_ports(n->t, l);
    for (unsigned sw = first; sw < first + topo_level_count(n->t, l); sw++)
      for (unsigned p = 0; p < n->P; p++) {
        if (n->peer[(size_t)sw * n->P + p].kind == PEER_NONE) continue;
        uint32_t v = 0;
        if (n->rk.reduced) v = n->rk.red_fout[(size_t)sw * n->P + p];
        else if (n->sw[sw]) asw_reg_read(n->sw[sw], ASW_REG_COUNTER(p, ASW_CNT_FLITS_OUT), &v);
        else if (n->vq) { uint32_t st; vqn_port_counters(n->vq, sw, p, &v, &st); } /* §16.6 */
        double u = n->cycle ? (double)v / (double)n->cycle : 0.0;
        int up = n->cube || n->ft.port /* §16.4, §16.5: "up" = network links */
                 ? n->peer[(size_t)sw * n->P + p].kind == PEER_SWITCH : p >= down;
        sum[up] += u;
        cnt[up]++;
        if (u > mx[up]) mx[up] = u;
      }
    fprintf(f, "%s{\"stage\": %u, \"up_mean\": %.4f, \"up_max\": %.4f, \"down_mean\": %.4f, "
            "\"down_max\": %.4f}", l > 1 ? ", " : "", l, cnt[1] ? sum[1] / cnt[1] : 0.0, mx[1],
            cnt[0] ? sum[0] / cnt[0] : 0.0, mx[0]);
  }
  fprintf(f, "],\n");
  fprintf(f, "  \"watchdog\": ");
  if (n->report && n->report_len) {
    fputc('"', f);
    for (const char *p = n->report; *p; p++) {
      if (*p == '"' || *p == '\\') fputc('\\', f), fputc(*p, f);
      else if (*p == '\n') fputs("\\n", f);
      else fputc(*p, f);
    }
    fputc('"', f);
  } else {
    fputs("null", f);
  }
  if (n->dl_len) { /* only after a deadlock with a cycle: other outputs unchanged */
    fprintf(f, ",\n  \"deadlock_cycle\": [");
    for (unsigned j = 0; j < n->dl_len; j++) {
      const net_dl_hop *h = &n->dl_cycle[j];
      fprintf(f, "%s{\"switch\": %u, \"in\": %u, \"vc\": %u, \"out\": %u, \"out_vc\": %u}",
              j ? ", " : "", h->sw, h->in, h->vc, h->out, h->out_vc);
    }
    fputc(']', f);
  }
  /* processor time of the whole process (all threads), ISO C clock() */
  double cpu = (double)clock() / CLOCKS_PER_SEC;
  fprintf(f, ",\n  \"wall_seconds\": %.3f, \"flit_hops_per_second\": %.0f, "
          "\"max_rss_kb\": %ld, \"cpu_seconds\": %.3f, "
          "\"flit_hops_per_cpu_second\": %.0f, \"threads\": %u, \"ranks\": %u\n}\n", wall,
          wall > 0 ? (double)r.flit_hops / wall : 0.0, rss_kb, cpu,
          cpu > 0 ? (double)r.flit_hops / cpu : 0.0, n->th.nthreads, n->R);
}

void net_write_csv(const net *n, FILE *f) {
  int arn_cols = n->cfg.arn || n->cfg.afi; /* arn=off: the CSV of before */
  fprintf(f, "cycle,time_us,offered,accepted,accepted_hot,accepted_cold,"
          "latency_mean,adaptive_decisions%s\n", arn_cols ? ",packets_adapted" : "");
  uint64_t W = n->cfg.window;
  for (size_t w = 0; w < n->nwin; w++) {
    uint64_t start = w * W;
    if (start >= n->cycle) break;
    uint64_t len = (start + W <= n->total ? W : n->total - start);
    double d = (double)n->N * (double)len;
    const window_stat *s = &n->win[w];
    fprintf(f, "%llu,%.3f,%.6f,%.6f,%.6f,%.6f,%.3f,%llu",
            (unsigned long long)(start + len), (double)(start + len) * n->cfg.cycle_ns / 1000.0,
            (double)s->offered / d, (double)s->accepted / d, (double)s->acc_hot / d,
            (double)s->acc_cold / d, s->lat_count ? s->lat_sum / (double)s->lat_count : 0.0,
            (unsigned long long)s->adaptive);
    if (arn_cols) fprintf(f, ",%llu", (unsigned long long)s->adapted);
    fputc('\n', f);
  }
}

void net_write_text(const net *n, FILE *f) {
  net_results r;
  net_get_results(n, &r);
  if (n->cube) /* §16.4 */
    fprintf(f, "network: %u nodes, %u switches of %u ports, %s %s%s\n", n->N, n->S, n->P,
            n->cube->torus ? "torus" : "mesh", n->cfg.dims,
            n->cube->torus ? (n->crc.bubble ? " (bubble flow control)" : " (no bubble flow control)") : "");
  else if (n->ft.port) /* §16.5 */
    fprintf(f, "network: %u nodes, %u switches of up to %u ports, from %s (%s routing%s)\n", n->N,
            n->S, n->P, n->cfg.topo_path, n->routing_name, n->cdg_note ? "; may deadlock" : "");
  else
  fprintf(f, "network: %u nodes, %u switches of %u ports, %u stages\n", n->N, n->S,
          n->P, topo_levels(n->t));
  if (n->vq) /* §16.6 */
    fprintf(f, "VOQnet reference (contract 16.6): not the switch; the simulator's model of it with "
            "one VC per node, %u VCs of %u flits per port (the switch holds at most 8 VCs)\n",
            n->N, n->cfg.buffer_flits);
  fprintf(f, "offered %.4f  accepted %.4f (hot %.4f, cold %.4f) flits/node/cycle\n",
          r.offered_load, r.accepted_throughput, r.accepted_hot, r.accepted_cold);
  fprintf(f, "latency network mean %.1f p99 %.0f, end-to-end mean %.1f p99 %.0f cycles\n",
          r.latency_mean, r.latency_p99, r.latency_e2e_mean, r.latency_e2e_p99);
  fprintf(f, "packets generated %llu delivered %llu refused %llu in flight %llu; "
          "adaptive decisions %llu; flit-hops %llu\n",
          (unsigned long long)r.packets_generated, (unsigned long long)r.packets_delivered,
          (unsigned long long)r.packets_refused, (unsigned long long)r.in_flight,
          (unsigned long long)r.adaptive_decisions, (unsigned long long)r.flit_hops);
  if (n->hot_rx) {
    if (n->hs_closed)
      fprintf(f, "hot flows ended at cycle %llu (hs_packets = %llu delivered)\n",
              (unsigned long long)n->hs_closed, (unsigned long long)n->cfg.hs_packets);
    else
      fprintf(f, "hot flows still open: fewer than hs_packets = %llu hot packets delivered\n",
              (unsigned long long)n->cfg.hs_packets);
  }
  net_mech_write(n, f, 0, 0, NET_MECH_ARN); /* traffic=trace, ... */
  if (n->cfg.arn || n->cfg.afi)
    fprintf(f, "ARN: roots %llu, sent %llu, received %llu, consumed %llu, expired %llu, "
            "packets adapted %llu, at end nodes %llu\n",
            (unsigned long long)r.arn_roots, (unsigned long long)r.arn_sent,
            (unsigned long long)r.arn_received, (unsigned long long)r.arn_consumed,
            (unsigned long long)r.arn_expired, (unsigned long long)r.arn_adapted,
            (unsigned long long)r.arn_at_nodes);
  net_mech_write(n, f, 0, NET_MECH_ARN, NET_MECH_LAST); /* QCN, PFC, link faults, ... */
}

/* The windows of the series and the adaptive-counter snapshots: 0, or -1 out of
 * memory. */
int net_stats_build(net *n) {
  const net_cfg *c = &n->cfg;
  n->nwin = (size_t)((n->total + c->window - 1) / c->window);
  n->win = calloc(n->nwin, sizeof(window_stat));
  n->cnt_prev = calloc((size_t)n->S * n->P, 4);
  n->adp_prev = calloc((size_t)n->S * n->P, 4);
  return !n->win || !n->cnt_prev || !n->adp_prev ? -1 : 0;
}

void net_stats_free(net *n) {
  free(n->win); free(n->cnt_prev); free(n->adp_prev);
}
