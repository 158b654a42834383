/* mech_qcn.c — §17.4/§17.5 QCN (qcn = on): a congestion point at every switch
 * output, CNMs carried to the culprit sources (directly in the zero-load time
 * of the path, or hop by hop on the §17.8/§17.9 CNM lane) and the sources' rate
 * limiters (rl = on). */
#include "net_internal.h"

#include <stdlib.h>

static int qcn_on(const net_cfg *c) { return c->qcn != 0; }

/* §17.9: the lane (cnm_path = lane, or auto with switch-ar) and its SAR table. */
static void qcn_configure(net *n, asw_config *sc) {
  const net_cfg *c = &n->cfg;
  n->cg.lane = c->qcn && (c->cnm_path == 1 || (c->cnm_path == 2 && c->switch_ar));
  sc->sar_entries = n->cg.lane ? c->sar_entries : 0;
  if (n->cg.lane) { /* the AR timer in ticks of 2^TS cycles, TTL < 2^24 */
    double cyc = c->ar_timer_us * 1000.0 / c->cycle_ns;
    uint64_t t = cyc < 1 ? 1 : (uint64_t)(cyc + 0.5);
    n->cg.sar_ts = 0;
    while (((t + (1ull << n->cg.sar_ts) - 1) >> n->cg.sar_ts) > 0xFFFFFFu) n->cg.sar_ts++;
    n->cg.sar_ttl = (unsigned)((t + (1ull << n->cg.sar_ts) - 1) >> n->cg.sar_ts);
  }
}

static int qcn_build(net *n, char *err, size_t errlen) {
  if (!n->cg.lane) return 0;
  size_t WS = (size_t)n->W * n->S;
  n->cg.st_cnm_mask = calloc(WS, 8);
  n->cg.st_cnm = calloc(WS * n->P, 8);
  n->cg.out_cnm = calloc(n->P, 8);
  if (!n->cg.st_cnm_mask || !n->cg.st_cnm || !n->cg.out_cnm) {
    snprintf(err, errlen, "out of memory for the CNM lane");
    return -1;
  }
  return 0;
}

static int qcn_program(net *n, unsigned s) {
  const net_cfg *c = &n->cfg;
  /* §17.4: a congestion point per output, cpid = switch */
  unsigned wl = (unsigned)__builtin_ctz(c->qcn_w);
  int rv = net_reg_write_cb(n, ASW_REG_QCN_QEQ, c->qcn_qeq / 64);
  if (!rv) rv = net_reg_write_cb(n, ASW_REG_QCN_SAMPLE, c->qcn_sample / 64);
  if (!rv) rv = net_reg_write_cb(n, ASW_REG_QCN_SEED, c->lfsr_seed);
  if (!rv) rv = net_reg_write_cb(n, ASW_REG_QCN_CTRL, asw_qcn_ctrl(1, wl, c->qcn_fb_shift, s));
  if (!rv && n->cg.lane) { /* §17.9: the lane, snooping; steering with switch-ar */
    rv = net_reg_write_cb(n, ASW_REG_SAR_TTL, asw_sar_ttl(n->cg.sar_ttl, n->cg.sar_ts));
    if (!rv) rv = net_reg_write_cb(n, ASW_REG_SAR_SEED, (c->lfsr_seed ^ (s * 0x9E37u)) & 0xFFFFu);
    if (!rv) rv = net_reg_write_cb(n, ASW_REG_SAR_CTRL, asw_sar_ctrl_decay(1, c->switch_ar, c->sar_decay));
  }
  return rv;
}

static int qcn_build_late(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  const double line_mbps = 512.0 / c->cycle_ns * 1000.0;
  qcn_rp_params qp = {.nodes = n->N, .rl = (int)c->rl, .gd = c->rl_gd,
                      .min_rate = c->rl_min_mbps / line_mbps,
                      .ai = c->rl_ai_mbps / line_mbps, .hai = c->rl_hai_mbps / line_mbps,
                      .fr = c->rl_fr, .bc_flits = c->rl_bc / 64,
                      .timer = (uint64_t)(c->rl_timer_us * 1000.0 / c->cycle_ns + 0.5)};
  if (qp.timer < 1) qp.timer = 1;
  n->cg.qcn = qcn_net_new(&qp, err, errlen);
  n->cg.cnm_buf = calloc(n->P, sizeof *n->cg.cnm_buf);
  if (!n->cg.qcn || !n->cg.cnm_buf) {
    if (n->cg.qcn && !n->cg.cnm_buf) snprintf(err, errlen, "out of memory");
    return -1;
  }
  n->cg.rl = (int)c->rl;
  if (n->cg.lane) { /* §17.9: the AR timer counts every cycle: every switch steps every cycle */
    n->carry_n = 0;
    for (unsigned s = 0; s < n->S; s++)
      if (n->sw[s]) n->carry[n->carry_n++] = s;
  }
  return 0;
}

/* §17.5: the largest QCN_QLEN of the network, one sample per window. */
static int qcn_cycle_end(net *n, int measuring) {
  if (!measuring || n->cycle % n->cfg.window != 0) return 0;
  uint64_t mx = 0;
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned o = 0; o < n->P; o++) {
      uint32_t v = 0;
      asw_reg_read(n->sw[s], ASW_REG_QCN_QLEN(o), &v);
      if (v > mx) mx = v;
    }
  qcn_net_queue_sample(n->cg.qcn, mx);
  return 0;
}

/* §17.9: the §17.8 counters summed over the switches (k < ASW_SCNT_NUM). */
static void lane_counts(const net *n, uint64_t *sum) {
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned p = 0; n->sw[s] && p < n->P; p++)
      for (unsigned k = 0; k < ASW_SCNT_NUM; k++) {
        uint32_t v = 0;
        asw_reg_read(n->sw[s], ASW_REG_SAR_COUNTER(p, k), &v);
        sum[k] += v;
      }
}

static void qcn_json(const net *n, FILE *f) {
  qcn_net_stats q;
  qcn_net_get_stats(n->cg.qcn, &q);
  if (n->cg.lane) { /* §17.9: what the switches' lanes carried (their §17.8 counters) */
    uint64_t sc[ASW_SCNT_NUM] = {0};
    lane_counts(n, sc);
    fprintf(f, "  \"cnm_lane\": {\"cnm_snooped\": %llu, \"cnm_forwarded\": %llu, "
            "\"cnm_dropped\": %llu, \"cnm_unroutable\": %llu, \"sar_evicted\": %llu, "
            "\"sar_expired\": %llu, \"ar_timer_cycles\": %llu},\n",
            (unsigned long long)(sc[ASW_SCNT_TX] + sc[ASW_SCNT_UNROUTABLE]),
            (unsigned long long)sc[ASW_SCNT_TX], (unsigned long long)sc[ASW_SCNT_DROPPED],
            (unsigned long long)sc[ASW_SCNT_UNROUTABLE], (unsigned long long)sc[ASW_SCNT_EVICTED],
            (unsigned long long)sc[ASW_SCNT_EXPIRED],
            (unsigned long long)n->cg.sar_ttl << n->cg.sar_ts);
  }
  fprintf(f, "  \"qcn\": {\"cnm_sent\": %llu, \"cnm_delivered\": %llu, \"rl\": %d, "
          "\"rl_created\": %llu, \"rl_released\": %llu, \"rl_active\": %llu, "
          "\"rl_min_rate\": %.6g, \"qlen_max_flits\": %llu, \"qlen_max_mean_flits\": %.1f},\n",
          (unsigned long long)(n->cg.lane ? n->cg.cnm_generated : q.cnm_sent),
          (unsigned long long)q.cnm_delivered, n->cg.rl,
          (unsigned long long)q.rl_created, (unsigned long long)q.rl_released,
          (unsigned long long)q.rl_active, q.rl_min_rate, (unsigned long long)q.qlen_max,
          q.qlen_max_mean);
}

static void qcn_text(const net *n, FILE *f) {
  qcn_net_stats q;
  qcn_net_get_stats(n->cg.qcn, &q);
  fprintf(f, "QCN: CNMs sent %llu delivered %llu; rate limiters %s, created %llu, active %llu, "
          "lowest rate %.4g; largest CP queue mean %.1f max %llu flits\n",
          (unsigned long long)(n->cg.lane ? n->cg.cnm_generated : q.cnm_sent),
          (unsigned long long)q.cnm_delivered, n->cg.rl ? "on" : "off", (unsigned long long)q.rl_created,
          (unsigned long long)q.rl_active, q.rl_min_rate, q.qlen_max_mean,
          (unsigned long long)q.qlen_max);
  if (n->cg.lane) { /* §17.9 */
    uint64_t sc[ASW_SCNT_NUM] = {0};
    lane_counts(n, sc);
    fprintf(f, "CNM lane: snooped %llu, forwarded %llu, dropped %llu, unroutable %llu; "
            "Switch AR entries evicted %llu, expired %llu\n",
            (unsigned long long)(sc[ASW_SCNT_TX] + sc[ASW_SCNT_UNROUTABLE]),
            (unsigned long long)sc[ASW_SCNT_TX], (unsigned long long)sc[ASW_SCNT_DROPPED],
            (unsigned long long)sc[ASW_SCNT_UNROUTABLE], (unsigned long long)sc[ASW_SCNT_EVICTED],
            (unsigned long long)sc[ASW_SCNT_EXPIRED]);
  }
}

static void qcn_free(net *n) {
  qcn_net_free(n->cg.qcn); free(n->cg.cnm_buf);
  free(n->cg.st_cnm_mask); free(n->cg.st_cnm); free(n->cg.out_cnm); /* §17.9 */
}

const net_mech net_mech_qcn = {.name = "qcn", .on = qcn_on, .configure = qcn_configure,
                               .build = qcn_build, .program = qcn_program,
                               .build_late = qcn_build_late, .cycle_end = qcn_cycle_end,
                               .json = qcn_json, .json_rank = 50, .text = qcn_text,
                               .text_rank = 30, .free = qcn_free};

/* §17.5: the CNMs switch s registered this cycle (on its CNM outputs next
 * cycle) travel to their culprit sources in the zero-load time of the path
 * back: down to the source if it is below s, else up to the top and down. */
int net_qcn_cnm_out(net *n, net_worker *w, unsigned s) {
  uint64_t m = asw_switch_cnm(n->sw[s], n->cg.cnm_buf);
  for (; m; m &= m - 1) {
    uint64_t cnm = n->cg.cnm_buf[__builtin_ctzll(m)];
    unsigned src = ASW_CNM_SRC(cnm), lvl = topo_level(n->t, s);
    unsigned hops = topo_below(n->t, s, src) ? lvl : 2 * topo_levels(n->t) - lvl;
    uint64_t at = n->cycle + 1 + (uint64_t)hops * (ASW_ZERO_LOAD_LATENCY + n->cfg.link_latency);
    if (qcn_net_send(n->cg.qcn, at, cnm)) {
      snprintf(w->err, sizeof w->err, "switch %u: out of memory for CNMs", s);
      return -1;
    }
  }
  return 0;
}

/* §17.9: the words switch s puts on its CNM lane this cycle reach the peer after
 * the link's flit latency: a switch's cnm_in, or an end node's reaction point. */
int net_lane_out(net *n, net_worker *w, unsigned s, const asw_outputs *out) {
  const topo_peer *peer = &n->peer[(size_t)s * n->P];
  for (uint64_t m = out->cnm_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    topo_peer pe = peer[p];
    unsigned lat = n->port_lat ? n->port_lat[((size_t)s * n->P + p) * 2] : n->L;
    if (pe.kind == PEER_SWITCH) {
      unsigned slot = n->port_lat ? port_slot(n, s, p, 0) : n->slot_fl;
      size_t i = (size_t)slot * n->S + pe.id;
      n->cg.st_cnm[i * n->P + pe.port] = out->cnm[p];
      n->cg.st_cnm_mask[i] |= 1ull << pe.port;
      wake_switch(n, slot, pe.id, st_at(n, i), 0);
    } else if (pe.kind == PEER_NODE) {
      if (qcn_net_send(n->cg.qcn, n->cycle + lat, out->cnm[p])) {
        snprintf(w->err, sizeof w->err, "switch %u: out of memory for CNMs", s);
        return -1;
      }
    }
  }
  return 0;
}

/* §17.5: the first destination queue of VC v, in round-robin order from
 * rr[v], whose flow's rate limiter lets it start a packet now (NIL16: none). */
unsigned net_rl_ready_queue(net *n, unsigned s, const node *nd, unsigned v) {
  unsigned na = nd->nactive[v], k = nd->rr[v] % na;
  for (unsigned j = 0; j < na; j++, k = k + 1 == na ? 0 : k + 1)
    if (qcn_net_ready(n->cg.qcn, s, dq_at(n, s, v, k)->dest, n->cycle)) return k;
  return NIL16;
}
