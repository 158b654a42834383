/* mech_trace.c — traffic = trace:FILE, packet-trace replay (trace.h,
 * docs/traces.md): the sources fed from the trace in place of an injection
 * process, its completion and lower bound; and --trace-out, the synthetic
 * traffic recorded as a trace. */
#include "net_internal.h"

#include <stdlib.h>

/* ---- traffic=trace: packet-trace replay (cmodel/net/trace.h, docs/traces.md) ----
 * Each cycle a node queues the packets of its trace messages that are ready
 * (time reached, dependencies delivered), in (ready, trace order), as long as its
 * admission queues have room (a trace packet is never refused: it waits). Packets
 * take the VC and SL the synthetic traffic would give them. */

enum { TRACE_FLIT_BYTES = 64 }; /* bytes of a flit (cycle_ns: 64-byte flits) */

/* Minimum cycles from a message's first flit leaving its source to its last flit
 * arriving, less the flits: links and at least one cycle in each switch (one
 * switch under a common leaf, at least three otherwise). */
static uint64_t trace_path(void *ctx, unsigned src, unsigned dst) {
  const net *n = ctx;
  /* two switches at least on a torus, mesh or file topology (neighbours) */
  int tree = topo_get_kind(n->t) == TOPO_RLFT || topo_get_kind(n->t) == TOPO_KARY;
  unsigned sw = n->node_leaf[src] == n->node_leaf[dst] ? 1 : tree ? 3 : 2;
  /* the node links, and the shortest switch link between each pair of switches */
  return 2ull * n->cfg.link_latency + (uint64_t)(sw - 1) * n->Lmin + sw;
}

static int net_trace_setup(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  if (n->R > 1) {
    snprintf(err, errlen, "traffic: trace replay runs in one process (ranks = 1)");
    return -1;
  }
  n->tr.trc = trace_load(c->trace_path, err, errlen);
  if (!n->tr.trc) return -1;
  n->tr.rp = trace_replay_new(n->tr.trc, n->N, c->packet_flits, TRACE_FLIT_BYTES, c->trace_path, err,
                           errlen); /* names the line of a message with a node >= N */
  if (!n->tr.rp) return -1;
  if (trace_nodes(n->tr.trc) > n->N) {
    snprintf(err, errlen, "traffic: trace %s is for %u nodes, the network has %u", c->trace_path,
             trace_nodes(n->tr.trc), n->N);
    return -1;
  }
  trace_replay_lower_bound(n->tr.rp, trace_path, n);
  return 0;
}

/* Queues one packet of `len` flits for dest; 0 if the admission queues are full. */
static int trace_queue(net *n, unsigned s, node *nd, unsigned dest, unsigned len, int measuring) {
  unsigned sl = net_source_sl(n, s, dest);
  unsigned vc = sl % n->Q;
  if (nd->queued >= n->cap) return 0;
  unsigned qi = dest_queue(n, s, nd, vc, dest);
  if (qi != NIL16 && dq_at(n, s, vc, qi)->count >= n->dest_cap) return 0;
  if (n->next_id >= 0xFFFFFFFFull || net_grow_bits(n, n->next_id)) return 0;
  if (trace_replay_take(n->tr.rp, s, (uint32_t)n->next_id)) return 0;
  window_stat *ws = n->ws;
  if (ws) ws->offered += len;
  if (measuring) {
    n->r.offered_load += len;
    n->r.admitted_load += len;
  }
  net_src_enqueue(n, s, nd, qi, dest, sl, vc, len, 0);
  return 1;
}

/* trace_hs: a hot source also generates packets for its hot spot at `load`
 * (Bernoulli, as traffic=hsX-Y) inside [hs_start, hs_end); they are refused when its
 * queues are full, as synthetic packets are. */
static void trace_hot_feed(net *n, unsigned s, node *nd, int measuring) {
  const net_cfg *c = &n->cfg;
  if (n->cycle < c->hs_start || (c->hs_end && n->cycle >= c->hs_end)) return;
  if (nd->next_gen < c->hs_start) { /* the first cycle of the window: start afresh */
    net_geometric_next(n, nd, n->cycle);
    nd->next_gen -= 1;
  }
  while (nd->next_gen <= n->cycle) {
    net_generate(n, s, nd, measuring);
    net_geometric_next(n, nd, nd->next_gen);
  }
}

/* The injection process of a replay. */
static void trace_feed(net *n, unsigned s, node *nd, int measuring) {
  unsigned dest, len;
  while (trace_replay_peek(n->tr.rp, s, n->cycle, &dest, &len))
    if (!trace_queue(n, s, nd, dest, len, measuring)) break;
  if (nd->role == ROLE_HOTSPOT) trace_hot_feed(n, s, nd, measuring);
}
static const net_injection inj_trace = {"trace", NULL, trace_feed};

static int trace_on(const net_cfg *c) { return c->traffic == TRAFFIC_TRACE; }

static int trace_build_late(net *n, char *err, size_t errlen) {
  if (net_trace_setup(n, err, errlen)) return -1;
  n->inj = &inj_trace;
  if (n->cfg.trace_hs > 0) { /* trace_hs: the hot sources are nodes outside the trace */
    uint8_t *busy = calloc(n->N, 1);
    if (!busy) return snprintf(err, errlen, "out of memory"), -1;
    trace_msg m;
    for (uint32_t i = 0; trace_get(n->tr.trc, i, &m); i++) busy[m.src] = busy[m.dst] = 1;
    int rc = net_trace_hotspot_setup(n, busy);
    free(busy);
    if (rc) return snprintf(err, errlen, "%s", n->err), -1;
  }
  return 0;
}

static void net_trace_json(const net *n, FILE *f) {
  trace_stats ts;
  trace_replay_stats(n->tr.rp, &ts);
  fprintf(f, "  \"trace\": {\"messages\": %llu, \"packets\": %llu, \"flits\": %llu, \"bytes\": %llu, "
          "\"dependencies\": %llu, \"messages_delivered\": %llu, \"packets_delivered\": %llu, "
          "\"completion_cycles\": %llu, \"completion_us\": %.3f, \"lower_bound_cycles\": %llu, "
          "\"errors\": %llu},\n",
          (unsigned long long)ts.messages, (unsigned long long)ts.packets,
          (unsigned long long)ts.flits, (unsigned long long)ts.bytes,
          (unsigned long long)ts.dependencies, (unsigned long long)ts.messages_delivered,
          (unsigned long long)ts.packets_delivered, (unsigned long long)ts.completion,
          (double)ts.completion * n->cfg.cycle_ns / 1000.0, (unsigned long long)ts.lower_bound,
          (unsigned long long)n->tr.errors);
}

static void net_trace_text(const net *n, FILE *f) {
  trace_stats ts;
  trace_replay_stats(n->tr.rp, &ts);
  fprintf(f, "trace: %llu of %llu messages delivered, completion %llu cycles (lower bound %llu)\n",
          (unsigned long long)ts.messages_delivered, (unsigned long long)ts.messages,
          (unsigned long long)ts.completion, (unsigned long long)ts.lower_bound);
}

static void trace_free_(net *n) {
  trace_replay_free(n->tr.rp);
  trace_free(n->tr.trc);
}

const net_mech net_mech_trace = {.name = "trace", .on = trace_on, .build_late = trace_build_late,
                                 .json = net_trace_json, .json_rank = 10,
                                 .text = net_trace_text, .text_rank = 10, .free = trace_free_};

/* --trace-out: every packet the synthetic traffic admits, as a trace message of
 * packet_flits flits sent in the cycle it was generated. */
void net_trace_record(net *n, unsigned s, unsigned dest, uint32_t id) {
  char e[128];
  if (trace_add(n->tr.rec, n->cycle, id, s, dest,
                n->len * TRACE_FLIT_BYTES, NULL, 0, e, sizeof e) < 0 && !n->err[0])
    snprintf(n->err, sizeof n->err, "trace-out: %s", e);
}

int net_record_trace(net *n, trace *t) {
  if (n->R > 1 || n->cfg.traffic == TRAFFIC_TRACE) return -1;
  n->tr.rec = t;
  return trace_set_nodes(t, n->N, n->err, sizeof n->err);
}
