/* net_traffic.c — traffic patterns and injection processes, each a row of a
 * table: a pattern gives every source its destinations (drawn per packet, or a
 * fixed permutation) and sets up its roles (hot spots, IHS); an injection
 * process decides when a source generates a packet. Adding a pattern: one
 * function and one row of `patterns` (and its name in netcfg.c's traffic key). */
#include "net_internal.h"

#include <math.h>
#include <stdlib.h>

/* The SL (= VC) source s gives a packet to dest: a function of both. */
unsigned net_source_sl(const net *n, unsigned s, unsigned dest) {
  const net_cfg *c = &n->cfg;
  if (n->cube) return cube_route_vc(n->cube, &n->crc, s, dest); /* §16.4: the first hop's VC */
  if (n->ft.has_vc) return n->ft.vc[(size_t)n->node_leaf[s] * n->N + dest]; /* §16.5: likewise */
  if (c->sqs == SQS_OBQA) return topo_dmodk_port(n->t, n->node_leaf[s], dest) % n->Q;
  return sqs_sl((sqs_kind)c->sqs, n->Q, n->N, n->leaf_arity, n->dest_bits, s, dest);
}

/* Default hot-spot ids: those of the seeds for their network sizes. */
static unsigned default_hotspots(unsigned N, unsigned count, unsigned *out) {
  static const unsigned n432[] = {4, 120, 244, 431};
  static const unsigned n3456[] = {0, 889, 1772, 3454};
  static const unsigned n11664[] = {600, 3400, 5200, 9500};
  const unsigned *tab = NULL;
  if (count == 1 && (N == 432 || N == 3456)) { out[0] = 4; return 1; }
  if (count == 1 && N == 256) { out[0] = 123; return 1; }
  if (N == 432) tab = n432;
  else if (N == 3456) tab = n3456;
  else if (N == 11664) tab = n11664;
  if (tab && count <= 4) {
    for (unsigned i = 0; i < count; i++) out[i] = tab[i];
    return count;
  }
  for (unsigned i = 0; i < count; i++)
    out[i] = (unsigned)(((2ull * i + 1) * N) / (2ull * count));
  return count;
}

static int log2_exact(unsigned x) {
  if (!x || (x & (x - 1))) return -1;
  int l = 0;
  while ((1u << l) < x) l++;
  return l;
}

/* ---- permutations: node s of N = 2^bits sends to perm(s) ------------------ */
static unsigned perm_bitrev(unsigned s, unsigned N, int bits) {
  (void)N;
  unsigned d = 0;
  for (int b = 0; b < bits; b++) d |= ((s >> b) & 1u) << (bits - 1 - b);
  return d;
}
static unsigned perm_shuffle(unsigned s, unsigned N, int bits) {
  return ((s << 1) | (s >> (bits - 1))) & (N - 1);
}
static unsigned perm_bitcomp(unsigned s, unsigned N, int bits) {
  (void)bits;
  return ~s & (N - 1);
}
static unsigned perm_transpose(unsigned s, unsigned N, int bits) {
  (void)N;
  unsigned h = (unsigned)bits / 2, lo = s & ((1u << h) - 1);
  return (lo << h) | (s >> h);
}
static unsigned perm_tornado(unsigned s, unsigned N, int bits) {
  (void)bits;
  return (s + N / 2) % N;
}

/* Hot sources (hotspot, ihs, trace_hs): a seeded random subset of the other nodes
 * (with busy: of those whose busy[] is 0, the nodes outside a trace). */
static int hot_sources(net *n, const uint8_t *busy) {
  const net_cfg *c = &n->cfg;
  unsigned N = n->N;
  uint64_t trng = c->seed ^ 0x5EEDF00Dull;
  double frac = c->traffic == TRAFFIC_HOTSPOT ? c->hs_fraction
                : c->traffic == TRAFFIC_TRACE ? c->trace_hs : c->ihs_fraction;
  unsigned *idx = malloc(sizeof *idx * N), m = 0;
  if (!idx) return snprintf(n->err, sizeof n->err, "out of memory"), -1;
  for (unsigned s = 0; s < N; s++)
    if (!n->is_hotspot[s] && !(busy && busy[s])) idx[m++] = s;
  unsigned want = (unsigned)floor(frac * N + 0.5);
  if (busy && want > m) {
    snprintf(n->err, sizeof n->err, "trace_hs: %g of %u nodes is %u hot sources, but %u node%s "
             "outside the trace and the hot spots (leave them out of the trace: asw trace "
             "skip=...)", frac, N, want, m, m == 1 ? " is" : "s are");
    free(idx);
    return -1;
  }
  if (want > m) want = m;
  for (unsigned i = 0; i < want; i++) {
    unsigned j = i + rng_below(&trng, m - i);
    unsigned tmp = idx[i]; idx[i] = idx[j]; idx[j] = tmp;
  }
  /* sort the chosen ones so target assignment does not depend on order */
  for (unsigned i = 1; i < want; i++) {
    unsigned v = idx[i], j = i;
    while (j > 0 && idx[j - 1] > v) { idx[j] = idx[j - 1]; j--; }
    idx[j] = v;
  }
  for (unsigned i = 0; i < want; i++) {
    node *nd = &n->nodes[idx[i]];
    if (c->traffic != TRAFFIC_IHS) { /* hsX-Y, or trace_hs beside a trace */
      nd->role = ROLE_HOTSPOT;
      nd->hot_target = (uint16_t)n->hot_nodes[i % n->nhot];
      n->hot_accept[i % n->nhot] += 1.0; /* sources of the hot spot, for hs_cap */
    } else {
      nd->role = ROLE_IHS;
    }
  }
  free(idx);
  for (unsigned t = 0; t < n->nhot; t++) { /* k sources at `load` each: keep 1/(k load) */
    double k = n->hot_accept[t];
    n->hot_accept[t] = k * c->load > 1.0 ? 1.0 / (k * c->load) : 1.0;
  }
  if (c->hs_packets && !(n->hot_rx = calloc(N, sizeof *n->hot_rx)))
    return snprintf(n->err, sizeof n->err, "out of memory"), -1;
  return 0;
}

static int setup_hotspot_busy(net *n, const uint8_t *busy) {
  const net_cfg *c = &n->cfg;
  unsigned N = n->N;
  if (c->hs_nodes_given) {
    n->nhot = c->hs_nodes_given;
    for (unsigned i = 0; i < n->nhot; i++) {
      if (c->hs_nodes[i] >= N) {
        snprintf(n->err, sizeof n->err, "hs_nodes: node %u is not below N "
                 "= %u", c->hs_nodes[i], N);
        return -1;
      }
      n->hot_nodes[i] = c->hs_nodes[i];
    }
  } else {
    if (c->hs_count >= N) {
      snprintf(n->err, sizeof n->err, "hs_count: %u hot spots need more "
               "than N = %u nodes", c->hs_count, N);
      return -1;
    }
    n->nhot = default_hotspots(N, c->hs_count, n->hot_nodes);
  }
  for (unsigned i = 0; i < n->nhot; i++) n->is_hotspot[n->hot_nodes[i]] = 1;
  return hot_sources(n, busy);
}
static int setup_hotspot(net *n) { return setup_hotspot_busy(n, NULL); }
/* (net_internal.h) */
int net_trace_hotspot_setup(net *n, const uint8_t *busy) { return setup_hotspot_busy(n, busy); }

static int setup_ihs(net *n) {
  const net_cfg *c = &n->cfg;
  unsigned N = n->N;
  if (topo_levels(n->t) < 3) {
    snprintf(n->err, sizeof n->err, "traffic: ihs needs at least 3 stages "
             "(a second stage with up ports)");
    return -1;
  }
  unsigned w2 = topo_up_ports(n->t, 1), w3 = topo_up_ports(n->t, 2);
  if (c->ihs_switch >= w2) {
    snprintf(n->err, sizeof n->err, "ihs_switch: %u is not below %u "
             "(second-stage switches per pod)", c->ihs_switch, w2);
    return -1;
  }
  if (c->ihs_port >= w3) {
    snprintf(n->err, sizeof n->err, "ihs_port: %u is not below %u (up "
             "ports of a second-stage switch)", c->ihs_port, w3);
    return -1;
  }
  /* Destinations whose D-mod-K path from outside their pod uses up port
   * ihs_switch at the leaf and up port ihs_port at the second stage. */
  n->ihs_dest = malloc(sizeof *n->ihs_dest * N);
  if (!n->ihs_dest) return snprintf(n->err, sizeof n->err, "out of memory"), -1;
  unsigned leaf = topo_level_first(n->t, 1), s2 = topo_level_first(n->t, 2);
  (void)s2;
  for (unsigned d = 0; d < N; d++) {
    /* port the D-mod-K tables give for d at a leaf / 2nd-stage switch that
     * is not above d: compute on switches far from d. */
    unsigned far_leaf = topo_below(n->t, leaf, d) ? leaf + topo_level_count(n->t, 1) - 1 : leaf;
    unsigned lp = topo_dmodk_port(n->t, far_leaf, d) - topo_down_ports(n->t, 1);
    unsigned s2a = topo_level_first(n->t, 2);
    unsigned far2 = topo_below(n->t, s2a, d) ? s2a + topo_level_count(n->t, 2) - 1 : s2a;
    unsigned up2 = topo_dmodk_port(n->t, far2, d) - topo_down_ports(n->t, 2);
    if (lp == c->ihs_switch && up2 == c->ihs_port) n->ihs_dest[n->n_ihs++] = d;
  }
  if (n->n_ihs < 2) {
    snprintf(n->err, sizeof n->err, "traffic: ihs finds too few destinations");
    return -1;
  }
  return hot_sources(n, NULL);
}

/* One flow: every other node a fixed point, silent. */
static int setup_flow(net *n) {
  const net_cfg *c = &n->cfg;
  unsigned N = n->N;
  if (c->flow_src >= N || c->flow_dst >= N) {
    snprintf(n->err, sizeof n->err, "traffic: flow%u-%u names a node not below N = %u",
             c->flow_src, c->flow_dst, N);
    return -1;
  }
  n->nodes[c->flow_src].perm_dest = c->flow_dst;
  return 0;
}

static void name_hotspot(const net *n, FILE *f) {
  fprintf(f, ", \"traffic_name\": \"hs%.0f-%u\"", n->cfg.hs_fraction * 100, n->nhot);
  if (n->hot_rx) /* hs_packets: the cycle the hot flows ended (null: still open) */
    fprintf(f, n->hs_closed ? ", \"hs_closed_cycle\": %llu" : ", \"hs_closed_cycle\": null",
            (unsigned long long)n->hs_closed);
}
static void name_flow(const net *n, FILE *f) {
  fprintf(f, ", \"traffic_name\": \"flow%u-%u\"", n->cfg.flow_src, n->cfg.flow_dst);
}

/* ---- injection processes ---------------------------------------------------- */
void net_geometric_next(net *n, node *nd, uint64_t from) {
  double p = n->cfg.load / n->len;
  if (p <= 0) { nd->next_gen = UINT64_MAX; return; }
  if (p >= 1) { nd->next_gen = from + 1; return; }
  double u = rng_unit(&nd->rng);
  double k = floor(log(u) / log1p(-p));
  nd->next_gen = from + 1 + (k > 4e18 ? (uint64_t)4e18 : (uint64_t)k);
}

static void bern_init(net *n, node *nd) {
  net_geometric_next(n, nd, 0);
  if (nd->next_gen > 0) nd->next_gen -= 1; /* may start at 0 */
}
/* (inlined in net_end_nodes, which tests for this process) */
static void bern_step(net *n, unsigned s, node *nd, int measuring) {
  while (nd->next_gen <= n->cycle) {
    net_generate(n, s, nd, measuring);
    net_geometric_next(n, nd, nd->next_gen);
  }
}
const net_injection net_inj_bernoulli = {"bernoulli", bern_init, bern_step};

/* On-off: bursts of burst_packets packets on average at full rate, silences
 * that make the mean `load`. */
static void onoff_init(net *n, node *nd) { nd->on = rng_unit(&nd->rng) <= n->cfg.load; }
static void onoff_step(net *n, unsigned s, node *nd, int measuring) {
  const net_cfg *c = &n->cfg;
  double a = 1.0 / (c->burst_packets * n->len);
  double b = c->load >= 1.0 ? 1.0 : a * c->load / (1.0 - c->load);
  double u = rng_unit(&nd->rng);
  if (nd->on) {
    if (u <= 1.0 / n->len) net_generate(n, s, nd, measuring);
    if (c->load < 1.0 && rng_unit(&nd->rng) <= a) nd->on = 0;
  } else if (c->load > 0 && u <= b) {
    nd->on = 1;
  }
}
static const net_injection inj_onoff = {"onoff", onoff_init, onoff_step};

/* By cfg.injection (netcfg.c's injection key). */
static const net_injection *const injections[] = {&net_inj_bernoulli, &inj_onoff};
enum { NET_INJECTIONS = sizeof injections / sizeof *injections };

/* The patterns, by cfg.traffic (netcfg.h's TRAFFIC_*; netcfg.c parses the names). */
static const net_traffic patterns[] = {
    {TRAFFIC_UNIFORM, "uniform", 1, 0, NULL, NULL, NULL},
    {TRAFFIC_HOTSPOT, NULL, 1, 0, NULL, setup_hotspot, name_hotspot},
    {TRAFFIC_IHS, "ihs", 1, 0, NULL, setup_ihs, NULL},
    {TRAFFIC_BITREV, "bitrev", 0, 1, perm_bitrev, NULL, NULL},
    {TRAFFIC_TRANSPOSE, "transpose", 0, 2, perm_transpose, NULL, NULL},
    {TRAFFIC_SHUFFLE, "shuffle", 0, 1, perm_shuffle, NULL, NULL},
    {TRAFFIC_BITCOMP, "bitcomp", 0, 1, perm_bitcomp, NULL, NULL},
    {TRAFFIC_TORNADO, "tornado", 0, 0, perm_tornado, NULL, NULL},
    {TRAFFIC_TRACE, "trace", 0, 0, NULL, NULL, NULL}, /* mech_trace.c feeds the sources */
    {TRAFFIC_FLOW, NULL, 0, 0, NULL, setup_flow, name_flow},
};

int net_traffic_setup(net *n) {
  const net_cfg *c = &n->cfg;
  unsigned N = n->N;
  for (size_t i = 0; i < sizeof patterns / sizeof *patterns && !n->traffic; i++)
    if (patterns[i].kind == (int)c->traffic) n->traffic = &patterns[i];
  if (!n->traffic) return snprintf(n->err, sizeof n->err, "traffic: unknown pattern"), -1;
  n->inj = c->injection < NET_INJECTIONS ? injections[c->injection] : injections[0];
  n->is_hotspot = calloc(N, 1);
  if (!n->is_hotspot) return snprintf(n->err, sizeof n->err, "out of memory"), -1;
  const net_traffic *t = n->traffic;
  int bits = log2_exact(N);
  if (t->pow2 && (bits < 1 || (t->pow2 == 2 && bits % 2))) {
    snprintf(n->err, sizeof n->err, "traffic: %s needs N a power of two%s (N = %u)", t->name,
             t->pow2 == 2 ? " with an even exponent" : "", N);
    return -1;
  }
  for (unsigned s = 0; s < N; s++) n->nodes[s].perm_dest = t->perm ? t->perm(s, N, bits) : s;
  return t->setup ? t->setup(n) : 0;
}

void net_injection_init(net *n) {
  const net_cfg *c = &n->cfg;
  const net_injection *ip = c->injection < NET_INJECTIONS ? injections[c->injection] : injections[0];
  for (unsigned i = 0; i < n->N; i++) {
    node *nd = &n->nodes[i];
    if (n->is_hotspot[i] && c->hs_sink_rate >= 0) nd->sink_rate = c->hs_sink_rate;
    nd->sink_slow = nd->sink_rate < 1.0;
    ip->init(n, nd);
  }
}

void net_traffic_json_name(const net *n, FILE *f) {
  if (n->traffic->name) fprintf(f, ", \"traffic_name\": \"%s\"", n->traffic->name);
  else n->traffic->json_name(n, f);
}

void net_generate(net *n, unsigned s, node *nd, int measuring) {
  const net_cfg *c = &n->cfg;
  unsigned dest;
  uint8_t hot = 0;
  int hot_window = n->cycle >= c->hs_start && (c->hs_end == 0 || n->cycle < c->hs_end) &&
                   !n->hs_closed;
  if (nd->role == ROLE_HOTSPOT && hot_window) {
    dest = nd->hot_target;
    hot = 1;
    if (c->hs_cap) { /* at most 1 flit/cycle into the hot spot from all its sources */
      unsigned t = 0;
      while (t + 1 < n->nhot && n->hot_nodes[t] != dest) t++;
      if (rng_unit(&nd->rng) > n->hot_accept[t]) return;
    }
  } else if (nd->role == ROLE_IHS && hot_window) {
    unsigned pod = s / n->pod_nodes;
    do dest = n->ihs_dest[rng_below(&nd->rng, n->n_ihs)];
    while (dest / n->pod_nodes == pod);
    hot = 1;
  } else if (nd->role != ROLE_NONE && c->hs_idle) {
    return; /* a hot source outside its window stays silent */
  } else if (n->traffic->random_dest) { /* uniform, and the others of hot spots and IHS */
    /* hs_cold_avoid: redraw a hot-spot destination (only if a cold one exists) */
    const int avoid = c->hs_cold_avoid && hot_window && n->nhot + 1 < n->N;
    do {
      dest = rng_below(&nd->rng, n->N - 1);
      if (dest >= s) dest++;
    } while (avoid && n->is_hotspot[dest]);
  } else {
    dest = nd->perm_dest;
    if (dest == s) return; /* fixed point of the permutation: silent node */
  }
  window_stat *ws = n->ws;
  if (ws) ws->offered += n->len;
  if (measuring) n->r.offered_load += n->len;
  /* SL and VC are functions of (source, destination) */
  unsigned sl = net_source_sl(n, s, dest);
  unsigned vc = sl % n->Q; /* identity SL2VC on the injection link; never the AFC */
  if (nd->queued >= n->cap) { /* full pool: refused, no queue lookup */
    n->r.packets_refused++;
    return;
  }
  unsigned qi = dest_queue(n, s, nd, vc, dest);
  if (nd->queued >= n->cap || (qi != NIL16 && dq_at(n, s, vc, qi)->count >= n->dest_cap)) {
    n->r.packets_refused++;
    return;
  }
  if (n->next_id >= 0xFFFFFFFFull || net_grow_bits(n, n->next_id)) {
    n->r.packets_refused++;
    return;
  }
  if (measuring) n->r.admitted_load += n->len;
  uint32_t id = net_src_enqueue(n, s, nd, qi, dest, sl, vc, n->len, hot);
  if (n->tr.rec) net_trace_record(n, s, dest, id); /* asw net --trace-out */
}
