/* mech_pfc.c — §17.3 lossless Ethernet links (flow_control = pfc): every switch
 * port a PFC port (per-priority PAUSE frames on the credit channel), slow sinks
 * pausing their leaf, the frames and pauses counted. The switches' and the
 * sinks' frames are tracked in the hot path (pause_track, net_pfc_sink). */
#include "net_internal.h"

#include <stdlib.h>

static int pfc_on(const net_cfg *c) { return c->flow_control != 0; }

static int pfc_build(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  n->pfc.on = 1;
  n->pfc.sink_want = calloc(n->N, 1);
  n->pfc.sink_sent = calloc(n->N, 1);
  n->pfc.sink_ptr = calloc(n->N, 1);
  n->pfc.pause_since = calloc(((size_t)n->S * n->P + n->N) * n->V, sizeof *n->pfc.pause_since);
  if (!n->pfc.sink_want || !n->pfc.sink_sent || !n->pfc.sink_ptr || !n->pfc.pause_since) {
    snprintf(err, errlen, "out of memory building the network");
    return -1;
  }
  /* thresholds as netcfg_check accepted them (§17.1 headroom) */
  unsigned hr = c->packet_flits + c->link_latency + c->credit_latency + c->vcs + 2;
  n->pfc.xoff = c->pfc_xoff ? c->pfc_xoff : c->buffer_flits - hr;
  n->pfc.xon = c->pfc_xon ? c->pfc_xon : n->pfc.xoff / 2;
  return 0;
}

/* §17.2: every port a PFC port */
static int pfc_program(net *n, unsigned s) {
  (void)s;
  uint64_t all = n->P == 64 ? ~0ull : (1ull << n->P) - 1;
  int rv = net_reg_write_cb(n, ASW_REG_PFC_THRESH, asw_pfc_thresh(n->pfc.xoff, n->pfc.xon));
  if (!rv) rv = net_reg_write_cb(n, ASW_REG_PFC_EN(0), (uint32_t)all);
  if (!rv && n->P > 32) rv = net_reg_write_cb(n, ASW_REG_PFC_EN(1), (uint32_t)(all >> 32));
  return rv;
}

/* Lossless or an error: a slow sink's buffer overflowed this cycle. */
static int pfc_cycle_end(net *n, int measuring) {
  (void)measuring;
  if (!n->pfc.sink_drop) return 0;
  n->pfc.dropped++;
  snprintf(n->err, sizeof n->err, "cycle %llu: frame dropped at end node %llu VC %llu: "
           "its buffer of %u flits overflowed (PFC headroom too small)",
           (unsigned long long)n->cycle, (unsigned long long)((n->pfc.sink_drop - 1) / n->V),
           (unsigned long long)((n->pfc.sink_drop - 1) % n->V), n->cfg.buffer_flits);
  return -1;
}

static void pfc_results(const net *n, net_results *out) {
  /* pauses still open at the end count with their length so far */
  for (size_t k = 0; k < ((size_t)n->S * n->P + n->N) * n->V; k++)
    if (n->pfc.pause_since[k]) {
      uint64_t len = n->cycle + 1 - n->pfc.pause_since[k];
      if (len > out->pause_max_cycles) out->pause_max_cycles = len;
      if (n->cfg.pfc_storm && len > n->cfg.pfc_storm) out->pause_storms++;
    }
}

static void pfc_json(const net *n, FILE *f) {
  net_results r;
  net_get_results(n, &r);
  fprintf(f, "  \"pfc\": {\"frames_dropped\": %llu, \"pause_frames\": %llu, "
          "\"pause_max_cycles\": %llu, \"pause_storms\": %llu},\n",
          (unsigned long long)r.frames_dropped, (unsigned long long)r.pause_frames, (unsigned long long)r.pause_max_cycles,
          (unsigned long long)r.pause_storms);
}

static void pfc_text(const net *n, FILE *f) {
  net_results r;
  net_get_results(n, &r);
  fprintf(f, "PFC: frames dropped %llu, pause frames %llu, longest pause %llu cycles\n",
          (unsigned long long)r.frames_dropped, (unsigned long long)r.pause_frames, (unsigned long long)r.pause_max_cycles);
  if (r.pause_storms)
    fprintf(f, "PFC: %llu pause storms (pauses longer than pfc_storm = %llu cycles)\n",
            (unsigned long long)r.pause_storms, (unsigned long long)n->cfg.pfc_storm);
}

static void pfc_free(net *n) {
  free(n->pfc.sink_want); free(n->pfc.sink_sent); free(n->pfc.sink_ptr); free(n->pfc.pause_since);
}

const net_mech net_mech_pfc = {.name = "pfc", .on = pfc_on, .build = pfc_build,
                               .program = pfc_program, .cycle_end = pfc_cycle_end,
                               .results = pfc_results, .json = pfc_json, .json_rank = 30,
                               .text = pfc_text, .text_rank = 40, .free = pfc_free};

/* §17.3: a slow sink's hysteresis over the flits it holds per priority (the
 * switch's rule, §17.1) and at most one frame per cycle to its leaf. */
void net_pfc_sink(net *n, unsigned d, int mt) {
  const unsigned V = n->V;
  const uint32_t *hd = &n->sink_buf[(size_t)d * V];
  unsigned want = n->pfc.sink_want[d];
  for (unsigned v = 0; v < V; v++) {
    unsigned w = hd[v] >= n->pfc.xoff || ((want >> v & 1u) && hd[v] > n->pfc.xon);
    want = (want & ~(1u << v)) | w << v;
  }
  n->pfc.sink_want[d] = (uint8_t)want;
  unsigned diff = want ^ n->pfc.sink_sent[d];
  if (!diff) return;
  unsigned v = n->pfc.sink_ptr[d];
  while (!(diff >> v & 1u)) v = v + 1 == V ? 0 : v + 1;
  n->pfc.sink_sent[d] ^= (uint8_t)(1u << v);
  n->pfc.sink_ptr[d] = (uint8_t)(v + 1 == V ? 0 : v + 1);
  stage_credit(n, n->node_leaf[d], n->node_port[d], v, mt);
  pause_track(n, ((size_t)n->S * n->P + d) * V + v, &n->pfc.frames, &n->pfc.max,
              &n->pfc.storms);
}
