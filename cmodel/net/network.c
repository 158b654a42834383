/* network.c — the network simulator (see network.h). */
#include "network.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "../asw_switch.h"
#include "faults.h"
#include "cube_tables.h" /* §16.4 */
#include "topofile.h"  /* §16.5 */
#include "qcn_net.h"
#include "tables.h"
#include "trace.h"
#include "voqnet.h" /* §16.6 */

/* ---- random numbers: one splitmix64 stream per end node ---------------- */
static inline uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline double rng_unit(uint64_t *s) { /* (0, 1] */
  return ((rng_next(s) >> 11) + 1) * (1.0 / 9007199254740992.0);
}
static inline unsigned rng_below(uint64_t *s, unsigned n) {
  return (unsigned)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* ---- latency histogram: exact below 1024, 64 sub-buckets per octave ---- */
enum { HIST_EXACT = 1024, HIST_BUCKETS = HIST_EXACT + 64 * 40 };
typedef struct {
  uint64_t count;
  double sum;
  uint32_t b[HIST_BUCKETS];
} hist;

static void hist_add(hist *h, uint64_t v) {
  h->count++;
  h->sum += (double)v;
  unsigned idx;
  if (v < HIST_EXACT) idx = (unsigned)v;
  else {
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* >= 10 */
    idx = HIST_EXACT + (e - 10) * 64 + (unsigned)((v >> (e - 6)) & 63);
    if (idx >= HIST_BUCKETS) idx = HIST_BUCKETS - 1;
  }
  h->b[idx]++;
}
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

/* ---- end nodes ----------------------------------------------------------- */
typedef struct { /* a packet waiting in a source admission queue */
  uint32_t id, gen;
  uint16_t dest, next;
  uint8_t vc, sl, hot;
  uint8_t len; /* flits: packet_flits, or the trace's packet (traffic=trace) */
} src_pkt;

typedef struct { /* one per-destination admission queue */
  uint16_t dest, head, tail, count;
} dest_q;

typedef struct { /* packet being received on one VC of a sink */
  uint32_t id, gen, inject, src;
  uint16_t flits;
  uint8_t hot;
  uint8_t damaged; /* §18.6: 1 a padding flit arrived (cut by a link fault), 2 a wrong flit */
  uint8_t len;     /* §18.6: the header's len */
} sink_pkt;

enum { ROLE_NONE = 0, ROLE_HOTSPOT = 1, ROLE_IHS = 2 };
enum { NIL16 = 0xFFFF };

typedef struct {
  uint64_t rng;
  uint64_t next_gen;   /* Bernoulli: cycle of the next packet */
  uint64_t last_inject;/* starvation watchdog */
  double sink_acc, sink_rate;
  uint32_t perm_dest;  /* permutation traffic */
  uint16_t queued, free_head;
  uint16_t nactive[8], rr[8]; /* per injection VC: active destination queues */
  uint8_t rr_vc;
  uint16_t rr_dest; /* §16.6 voqnet: the destination after the last one served */
  uint16_t hot_target; /* ROLE_HOTSPOT: destination */
  uint8_t role, on, streaming, sink_slow, sink_rr;
  uint8_t inj_blocked; /* no VC had credits for a queued packet: nothing to
                          try until a credit arrives or a packet is queued */
  /* packet being injected */
  src_pkt cur;
  uint16_t cur_sent, cur_len;
} node;

typedef struct {
  uint64_t offered, accepted, acc_hot, acc_cold, lat_count, adaptive, adapted;
  double lat_sum;
} window_stat;

/* What is staged for one switch in one slot: the masks of its inputs (one
 * 32-byte record per switch and slot, so a stage touches one cache line
 * besides the entry itself) and whether it is on the slot's wake list. */
typedef struct {
  uint64_t flit_mask, cr_mask, arn_mask;
  uint8_t woken;
} st_head;

/* One thread of the switch phase (worker 0 is the calling thread). */
typedef struct {
  struct net *n;
  thrd_t thread;
  asw_flit *out_flit;     /* [P] outputs of the switch being stepped */
  uint8_t *out_cr_vc;     /* [P] */
  uint32_t *out_arn;      /* [P] */
  uint32_t *carry, carry_n; /* [S] switches it stepped that are not idle */
  uint32_t *pend, pend_n;   /* [S] switches it stepped that only age ARN entries */
  uint64_t flit_hops, arn_at_nodes;
  uint64_t pause_frames, pause_max, pause_storms, frames_dropped; /* §17.3 */
  uint64_t **xo;           /* [R] records for each other rank (R > 1) */
  size_t *xo_n, *xo_cap;   /* [R] words used, allocated */
  int moved, failed;
  unsigned err_switch;
  char err[512];
} net_worker;

struct net {
  net_cfg cfg;
  topo *t;
  unsigned N, S, P, V, W, L, LC, len, dest_bits;
  unsigned Q; /* VCs the source scheme uses: V, or V - 1 with AFI (§7.4) */
  unsigned leaf_arity, pod_nodes; /* m_1 and m_1 * m_2 */
  asw_switch **sw;
  topo_peer *peer;        /* [S*P] copy of the topology's links (hot path) */
  const cube *cube;       /* §16.4 tori and meshes (the topology's geometry), else NULL */
  cube_route_cfg crc;     /* §16.4 their routing and VC selection */
  fwd_tables ft;          /* §16.5 topology=file: the forwarding tables (port NULL otherwise) */
  char *cdg_note;         /* §16.5 cdg_check=warn: the cycle found, else NULL */
  uint32_t *node_leaf;    /* [N] leaf switch of each node */
  uint8_t *node_port;     /* [N] its port on that switch */
  /* staging of switch inputs, per slot (cycle mod W) and switch */
  st_head *st;                          /* [W*S] masks, woken flag */
  asw_flit *st_flit;                    /* [W*S*P] */
  uint8_t *st_cr_vc;                    /* [W*S*P] */
  uint32_t *st_arn;                     /* [W*S*P] ARN messages (§15.6) */
  uint32_t *wake, *wake_n;              /* [W*S], [W] */
  uint32_t *carry, carry_n;             /* [S] not idle after last cycle */
  uint64_t *stepped_at;                 /* [S] */
  uint32_t *todo;                       /* [S] switches to step this cycle */
  unsigned slot_now, slot_fl, slot_cr;  /* this cycle's slot, flits' and
                                           credits' arrival slots */
  uint16_t *port_lat;   /* §16.5 per-link latencies: [S*P*2] the flit and credit latency
                           of what each switch port sends (NULL: all L and LC) */
  unsigned Lmin;        /* the shortest switch-to-switch or node link's flit latency */
  window_stat *ws;                      /* this cycle's window (or NULL) */
  int prefetch;  /* warm the cache ahead of the steps: pays off once the
                    switches' buffers are well beyond the caches */
  /* threads (cfg.threads; 1 with an observer) */
  unsigned nthreads, nwk;               /* threads running, workers allocated */
  net_worker *wk;                       /* [nwk] */
  uint64_t range;                       /* todo entries left: hi << 32 | lo */
  /* Switches whose only live state is ARN-table entries ageing are not
   * stepped; the steps they miss are made up with asw_switch_skip_idle
   * (exactly as many as stepping them would have made: until the last
   * entry expires) before their next step and before registers are read. */
  int lazy;                             /* on unless an observer watches steps */
  uint8_t *pending, *pend_listed;       /* [S] */
  uint64_t *pend_from, *pend_left;      /* [S] first step missed, steps left */
  uint32_t *pend_list, pend_n;          /* [S] */
  uint64_t go, done, done_target;
  int quit;
  /* end nodes */
  node *nodes;
  src_pkt *pool;   /* [N*cap] */
  dest_q *dq;      /* [(N*V + vc)*cap]: active destination queues per VC */
  uint16_t *dmap;  /* [N*N] queue index + 1 of (source, dest) in its VC, small N */
  unsigned dest_cap;
  uint16_t *credits;   /* [N*V] */
  asw_flit *sink_in;   /* [W*N] */
  uint8_t *sink_valid; /* [W*N] */
  uint8_t *src_cr;     /* [W*N]: vc+1 of an arriving credit, 0 none */
  sink_pkt *sinkp;     /* [N*V] */
  uint32_t *sink_buf;  /* [N*V] flits waiting in slow sinks */
  unsigned cap;
  /* traffic */
  unsigned hot_nodes[NETCFG_MAX_HOT], nhot;
  double hot_accept[NETCFG_MAX_HOT]; /* hs_cap: share of a hot source's hot packets kept */
  uint64_t *hot_rx;   /* hs_packets: hot packets delivered at each node (its sink's thread) */
  uint64_t hs_closed; /* hs_packets: cycle from which the hot flows are over (0: open) */
  uint8_t *is_hotspot; /* [N] */
  uint32_t *ihs_dest, n_ihs;
  /* bookkeeping */
  uint64_t cycle, total, next_id;
  uint64_t *delivered_bits; size_t bits_words;
  uint32_t *flow_last; /* [N*N] last delivered id+1, order check */
  uint64_t injected_flits, consumed_flits, last_progress;
  net_results r;
  hist h_net, h_e2e, h_hot, h_cold;
  window_stat *win; size_t nwin;
  uint32_t *cnt_prev; /* adaptive counter snapshot [S*P] */
  uint32_t *adp_prev; /* packets_adapted counter snapshot [S*P] */
  uint64_t arn_at_nodes; /* ARN messages that reached end nodes (§15.6) */
  /* §17.3 PFC (cfg.flow_control = pfc): every port a PFC port */
  int pfc;
  unsigned pfc_xoff, pfc_xon;
  uint8_t *sink_want, *sink_sent, *sink_ptr; /* [N] slow sinks' PFC state */
  uint64_t *pause_since; /* [(S*P + N) * V] cycle + 1 a priority was paused, 0: resumed */
  uint64_t pause_frames, pause_max, pause_storms, frames_dropped;
  uint64_t sink_drop;    /* 1 + d*V + vc of a slow sink that overflowed, 0 none */
  uint64_t adaptive_at_warmup;
  int warm_snapshot_taken;
  char routing_name[64];
  char err[512];
  char *report; size_t report_len, report_cap;
  net_dl_hop *dl_cycle; unsigned dl_len; /* channel-dependency cycle of a deadlock */
  asw_config sw_cfg;   /* parameters of every switch */
  net_observer obs;    /* lockstep observer (tb/net), zero if none */
  unsigned prog_switch; /* switch being programmed (observer's reg_write) */
  /* distributed run (cfg.ranks > 1, see net_comm) */
  net_comm comm;
  unsigned rank, R;
  uint16_t *sw_owner;        /* [S] rank of each switch */
  unsigned node_lo, node_hi; /* end nodes of this rank: [node_lo, node_hi) */
  uint64_t g_injected, g_consumed, g_generated, g_delivered; /* all ranks */
  uint64_t x_msgs, x_bytes, x_syncs;
  unsigned x_every;          /* lookahead: min(link_latency, credit_latency) */
  uint64_t next_sync;        /* cycle at whose end the next exchange is */
  int x_failed;              /* this rank failed; tell the others at the sync */
  uint64_t *xbuf; size_t xbuf_cap; /* one sync's records, rank after rank */
  size_t *x_off, *x_len;     /* [R] bytes */
  uint64_t *x_hdr;           /* [2*R*NET_NH] */
  /* after the final reduction: the register totals of all ranks */
  int reduced;
  uint64_t red_re, red_cs, red_acnt[ASW_ACNT_NUM];
  uint32_t *red_fout;        /* [S*P] FLITS_OUT counters */
  /* traffic=trace (cmodel/net/trace.h): the trace, its replay state; rec: the
   * packets generated, for net_record_trace */
  trace *trc;
  trace_replay *rp;
  trace *rec;
  uint64_t trace_errors;     /* deliveries the replay did not expect */
  /* link faults (§18.6, faults.h; NULL without link_fault / link_fault_rate) */
  net_faults *faults;
  uint32_t *fault_touch, fault_touch_n; /* [3S] switches whose pins changed this cycle, then
                                         * those with fabric-manager writes queued, then
                                         * those with an input link down */
  uint64_t pad_payload;      /* payload of a padding flit: PW ones */
  uint64_t pkts_damaged, pkts_bad; /* arrived padded; arrived with a wrong flit */
  uint64_t fault_fd, fault_pd, fault_pad; /* sums of the switches' §18.4 counters */
  uint64_t fault_fd_seen, last_loss; /* flits discarded so far; 1 + last cycle one was */
  /* §17.5 QCN (cfg.qcn): CNM transport and reaction points; NULL when off */
  qcn_net *qcn;
  int qcn_rl;                /* rate limiters gate the sources (cfg.rl) */
  uint64_t *cnm_buf;         /* [P] one switch's CNM words */
  /* §17.8/§17.9 CNM lane (cnm_path = lane): words staged per slot like flits */
  int lane;
  unsigned sar_ttl, sar_ts; /* SAR_TTL of every switch (from ar_timer_us) */
  uint64_t *st_cnm_mask;     /* [W*S] */
  uint64_t *st_cnm;          /* [W*S*P] */
  uint64_t *out_cnm;         /* [P] one switch's lane outputs */
  uint64_t cnm_generated;    /* CNMs the congestion points put on their outputs */
  /* §16.6 sqs = voqnet: the reference fabric in place of the switches (all NULL);
   * the end nodes use one VC (V = 1), their credits are the fabric's per destination */
  vqn *vq;
};

/* A switch port whose peer switch another rank simulates (in n->peer). */
enum { PEER_REMOTE = 3 };
/* Words of the per-sync header each rank sends every rank. */
enum { NET_NH = 6 };

/* traffic=trace and --trace-out (defined at the end of this file) */
static int net_trace_setup(net *n, char *err, size_t errlen);
static void fault_sum(const net *cn); /* §18.6 */
static void net_trace_record(net *n, unsigned s, unsigned dest, uint32_t id);
static uint32_t src_enqueue(net *n, unsigned s, node *nd, dest_q *dq, unsigned qi, unsigned dest,
                            unsigned sl, unsigned vc, unsigned len, int hot);
static void net_trace_json(const net *n, FILE *f);
static unsigned inj_len(const net *n, unsigned s, const node *nd, unsigned vc);
static void trace_feed(net *n, unsigned s, node *nd, int measuring);
static int qcn_cnm_out(net *n, net_worker *w, unsigned s); /* §17.5 */

static void report_add(net *n, const char *fmt, ...) {
  va_list ap;
  char line[512];
  va_start(ap, fmt);
  int k = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  size_t l = strlen(line);
  if (n->report_len + l + 1 > n->report_cap) {
    size_t cap = (n->report_cap + l + 1) * 2;
    char *p = realloc(n->report, cap);
    if (!p) return;
    n->report = p;
    n->report_cap = cap;
  }
  memcpy(n->report + n->report_len, line, l + 1);
  n->report_len += l;
}

const char *net_error(const net *n) { return n->err; }
const char *net_watchdog_report(const net *n) {
  return n->report ? n->report : "";
}
unsigned net_deadlock_cycle(const net *n, const net_dl_hop **hops) {
  if (hops) *hops = n->dl_cycle;
  return n->dl_len;
}
const topo *net_topo(const net *n) { return n->t; }
uint64_t net_hs_closed(const net *n) { return n->hs_closed; }

/* The SL (= VC) source s gives a packet to dest: a function of both. */
static unsigned source_sl(const net *n, unsigned s, unsigned dest) {
  const net_cfg *c = &n->cfg;
  if (n->cube) return cube_route_vc(n->cube, &n->crc, s, dest); /* §16.4: the first hop's VC */
  if (n->ft.has_vc) return n->ft.vc[(size_t)n->node_leaf[s] * n->N + dest]; /* §16.5: likewise */
  if (c->sqs == SQS_OBQA) return topo_dmodk_port(n->t, n->node_leaf[s], dest) % n->Q;
  return sqs_sl((sqs_kind)c->sqs, n->Q, n->N, n->leaf_arity, n->dest_bits, s, dest);
}

const char *net_routing_check(const net *n) { return n->cdg_note ? n->cdg_note : ""; }

static int reg_write_cb(void *ctx, uint32_t addr, uint32_t data) {
  net *n = ctx;
  int rv = asw_reg_write(n->sw[n->prog_switch], addr, data);
  if (rv == 0 && n->obs.reg_write) n->obs.reg_write(n->obs.ctx, n->prog_switch, addr, data);
  return rv;
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

static int setup_traffic(net *n) {
  const net_cfg *c = &n->cfg;
  unsigned N = n->N;
  n->is_hotspot = calloc(N, 1);
  if (!n->is_hotspot) return snprintf(n->err, sizeof n->err, "out of memory"), -1;
  uint64_t trng = c->seed ^ 0x5EEDF00Dull;
  int bits = log2_exact(N);
  for (unsigned s = 0; s < N; s++) {
    unsigned d = s;
    switch (c->traffic) {
    case TRAFFIC_BITREV:
    case TRAFFIC_SHUFFLE:
    case TRAFFIC_BITCOMP:
    case TRAFFIC_TRANSPOSE:
      if (bits < 1 || (c->traffic == TRAFFIC_TRANSPOSE && bits % 2)) {
        snprintf(n->err, sizeof n->err, "traffic: %s needs N a power of two%s "
                 "(N = %u)", c->traffic == TRAFFIC_TRANSPOSE ? "transpose" :
                 c->traffic == TRAFFIC_BITREV ? "bitrev" :
                 c->traffic == TRAFFIC_SHUFFLE ? "shuffle" : "bitcomp",
                 c->traffic == TRAFFIC_TRANSPOSE ? " with an even exponent" : "",
                 N);
        return -1;
      }
      if (c->traffic == TRAFFIC_BITREV) {
        d = 0;
        for (int b = 0; b < bits; b++) d |= ((s >> b) & 1u) << (bits - 1 - b);
      } else if (c->traffic == TRAFFIC_SHUFFLE) {
        d = ((s << 1) | (s >> (bits - 1))) & (N - 1);
      } else if (c->traffic == TRAFFIC_BITCOMP) {
        d = ~s & (N - 1);
      } else {
        unsigned h = (unsigned)bits / 2, lo = s & ((1u << h) - 1);
        d = (lo << h) | (s >> h);
      }
      break;
    case TRAFFIC_TORNADO:
      d = (s + N / 2) % N;
      break;
    default:
      break;
    }
    n->nodes[s].perm_dest = d;
  }
  if (c->traffic == TRAFFIC_FLOW) { /* one flow: every other node a fixed point, silent */
    if (c->flow_src >= N || c->flow_dst >= N) {
      snprintf(n->err, sizeof n->err, "traffic: flow%u-%u names a node not below N = %u",
               c->flow_src, c->flow_dst, N);
      return -1;
    }
    n->nodes[c->flow_src].perm_dest = c->flow_dst;
  }
  if (c->traffic == TRAFFIC_HOTSPOT) {
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
  }
  if (c->traffic == TRAFFIC_IHS) {
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
  }
  /* Hot sources: a seeded random subset of the other nodes. */
  if (c->traffic == TRAFFIC_HOTSPOT || c->traffic == TRAFFIC_IHS) {
    double frac = c->traffic == TRAFFIC_HOTSPOT ? c->hs_fraction : c->ihs_fraction;
    unsigned *idx = malloc(sizeof *idx * N), m = 0;
    if (!idx) return snprintf(n->err, sizeof n->err, "out of memory"), -1;
    for (unsigned s = 0; s < N; s++)
      if (!n->is_hotspot[s]) idx[m++] = s;
    unsigned want = (unsigned)floor(frac * N + 0.5);
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
      if (c->traffic == TRAFFIC_HOTSPOT) {
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
  }
  return 0;
}

static void geometric_next(net *n, node *nd, uint64_t from) {
  double p = n->cfg.load / n->len;
  if (p <= 0) { nd->next_gen = UINT64_MAX; return; }
  if (p >= 1) { nd->next_gen = from + 1; return; }
  double u = rng_unit(&nd->rng);
  double k = floor(log(u) / log1p(-p));
  nd->next_gen = from + 1 + (k > 4e18 ? (uint64_t)4e18 : (uint64_t)k);
}

/* §17.6: the bits of r a stage with w up ports uses, which the stages above skip
 * (their SHIFT grows by it). S-mod-k (kind 2): log2 w, w a power of two. The flow
 * hash (kind 1): log2 w too when w is a power of two, which makes the stages'
 * choices independent; else ceil(log2 w) + 2, so that the next stage's r, taken that
 * many bits lower, runs over at least four whole periods within each choice of this
 * stage and its choice is nearly uniform (with log2 w bits skipped, w = 6 would leave
 * the next stage 2 of its 6 ports for each choice here). */
static unsigned hash_stage_bits(unsigned w, unsigned kind) {
  if (w < 2) return 0;
  unsigned ceil_log2 = 32u - (unsigned)__builtin_clz(w - 1);
  return (w & (w - 1)) == 0 || kind != 1 ? ceil_log2 : ceil_log2 + 2;
}

/* §16.5 topology=file: the tables of the routing and the channel-dependency
 * check (refuse, or note the cycle). */
static int file_routing(net *n, char *err, size_t errlen) {
  const net_cfg *c = &n->cfg;
  if (fwd_tables_for(c, n->t, &n->ft, err, errlen)) return -1;
  if (n->ft.has_vc && c->sqs != SQS_1Q) {
    snprintf(err, errlen, "sqs: %s gives the VCs; leave sqs at 1q", c->table_path);
    return -1;
  }
  unsigned q = c->vcs; /* no AFC with a file topology */
  cdg_hop *h = NULL;
  int k = fwd_tables_cdg(n->t, &n->ft, c->vcs, q, c->sqs, &h);
  if (k < 0) {
    snprintf(err, errlen, "routing: out of memory for the channel-dependency graph");
    return -1;
  }
  if (k == 0) return 0;
  size_t len = 64 + (size_t)k * 64;
  char *buf = malloc(len);
  if (!buf) { free(h); snprintf(err, errlen, "out of memory"); return -1; }
  cdg_describe(h, (unsigned)k, buf, len);
  free(h);
  if (c->cdg_check == 0) {
    snprintf(err, errlen, "routing: %s may deadlock: %s (cdg_check=warn runs it anyway)",
             c->file_routing == 3 ? c->table_path : c->file_routing == 2 ? "updn" : "minhop", buf);
    free(buf);
    return -1;
  }
  n->cdg_note = buf;
  return 0;
}

static net *net_build(const net_cfg *cfg, const net_observer *obs, const net_comm *comm,
                      char *err, size_t errlen);

net *net_new(const net_cfg *cfg, char *err, size_t errlen) {
  return net_build(cfg, NULL, NULL, err, errlen);
}

net *net_new_observed(const net_cfg *cfg, const net_observer *obs, char *err,
                      size_t errlen) {
  return net_build(cfg, obs, NULL, err, errlen);
}

net *net_new_part(const net_cfg *cfg, const net_comm *comm, char *err, size_t errlen) {
  if (!comm || !comm->exchange || !comm->sum || comm->ranks != cfg->ranks ||
      comm->rank >= comm->ranks) {
    snprintf(err, errlen, "ranks: %u configured but the transport has %u ranks",
             cfg->ranks, comm ? comm->ranks : 0u);
    return NULL;
  }
  return net_build(cfg, NULL, comm, err, errlen);
}

void net_comm_stats(const net *n, uint64_t *msgs, uint64_t *bytes, uint64_t *syncs) {
  *msgs = n->x_msgs;
  *bytes = n->x_bytes;
  *syncs = n->x_syncs;
}

/* The rank of every switch and this rank's end nodes: blocks of whole pods
 * (or of leaves when there are fewer pods than ranks) in node order; a
 * switch below the top stage goes with the first node below it, the top
 * stage is spread evenly. Returns 0 or -1 with a message. */
static int partition(net *n, char *err, size_t errlen) {
  unsigned R = n->R, N = n->N, G = n->pod_nodes;
  if (N / G < R) G = n->leaf_arity;
  if (N / G < R) {
    snprintf(err, errlen, "ranks: %u ranks need at least as many leaf switches "
             "(this network has %u)", R, N / n->leaf_arity);
    return -1;
  }
  unsigned groups = N / G;
  n->node_lo = (unsigned)(((uint64_t)n->rank * groups + R - 1) / R) * G;
  n->node_hi = (unsigned)(((uint64_t)(n->rank + 1) * groups + R - 1) / R) * G;
  unsigned top = topo_levels(n->t), tf = topo_level_first(n->t, top),
           tc = topo_level_count(n->t, top);
  for (unsigned s = 0; s < n->S; s++) {
    unsigned r;
    if (topo_level(n->t, s) == top && top > 1) {
      r = (unsigned)((uint64_t)(s - tf) * R / tc);
    } else {
      unsigned x = s; /* down port 0 to the first node below */
      topo_peer pe = topo_port_peer(n->t, x, 0);
      while (pe.kind == PEER_SWITCH) pe = topo_port_peer(n->t, pe.id, 0);
      unsigned g = pe.id / G; /* first r with ceil(r * groups / R) > g, minus 1 */
      r = (unsigned)(((uint64_t)g * R + R) / groups);
      while (r > 0 && ((uint64_t)r * groups + R - 1) / R > g) r--;
      while (r + 1 < R && ((uint64_t)(r + 1) * groups + R - 1) / R <= g) r++;
    }
    n->sw_owner[s] = (uint16_t)r;
  }
  return 0;
}

void net_switch_config(const net *n, asw_config *out) { *out = n->sw_cfg; }
asw_switch *net_switch(const net *n, unsigned s) { return s < n->S ? n->sw[s] : NULL; }

static net *net_build(const net_cfg *cfg, const net_observer *obs, const net_comm *comm,
                      char *err, size_t errlen) {
  if (netcfg_check(cfg, err, errlen)) return NULL;
  if (cfg->ranks > 1 && !comm) {
    snprintf(err, errlen, "ranks: %u ranks need the MPI build run under mpirun "
             "(mpirun -np %u build/asw-mpi net ... ranks=%u)", cfg->ranks, cfg->ranks,
             cfg->ranks);
    return NULL;
  }
  if (cfg->ranks > 1 && obs) {
    snprintf(err, errlen, "ranks: an observed network runs in one process");
    return NULL;
  }
  net *n = calloc(1, sizeof *n);
  if (!n) { snprintf(err, errlen, "out of memory"); return NULL; }
  n->cfg = *cfg;
  if (obs) n->obs = *obs;
  n->R = 1;
  if (comm && cfg->ranks > 1) {
    n->comm = *comm;
    n->rank = comm->rank;
    n->R = comm->ranks;
  }
  const net_cfg *c = &n->cfg;
  n->t = topofile_topo_for(c, err, errlen); /* any kind */
  if (!n->t) { free(n); return NULL; }
  if (c->topology == TOPO_TORUS || c->topology == TOPO_MESH) { /* §16.4 tori and meshes */
    n->cube = topo_cube(n->t);
    n->crc = (cube_route_cfg){.order = c->cube_order == 2 ? CUBE_ORDER_DIRECTION : CUBE_ORDER_DOR,
                              .adapt = c->cube_order == 3   ? CUBE_ADAPT_FULLY
                                       : c->cube_order == 4 ? CUBE_ADAPT_XOR
                                                            : CUBE_ADAPT_NONE,
                              .groups = c->groups,
                              .sqs = c->sqs, .vcs = c->vcs, .lfsr_seed = c->lfsr_seed,
                              .bubble = c->bubble == 2 ? c->topology == TOPO_TORUS : c->bubble};
  }
  if (c->topology == TOPO_FILE && file_routing(n, err, errlen)) { /* §16.5 */
    net_free(n);
    return NULL;
  }
  n->N = topo_nodes(n->t);
  n->S = topo_switches(n->t);
  n->P = topo_ports(n->t);
  n->V = c->vcs;
  n->Q = c->vcs - ((c->afi || c->arn == 2) ? 1u : 0u);
  n->L = c->link_latency;
  n->LC = c->credit_latency;
  n->W = (n->L > n->LC ? n->L : n->LC) + 1;
  n->Lmin = n->L;
  if (topo_has_latencies(n->t)) { /* §16.5: links of the file with latencies of their own */
    size_t np = (size_t)n->S * n->P;
    n->port_lat = malloc(np * 2 * sizeof *n->port_lat);
    if (!n->port_lat) {
      snprintf(err, errlen, "out of memory");
      net_free(n);
      return NULL;
    }
    for (unsigned s = 0; s < n->S; s++)
      for (unsigned p = 0; p < n->P; p++) {
        uint16_t *pl = &n->port_lat[((size_t)s * n->P + p) * 2];
        for (int k = 0; k < 2; k++) { /* flits, credits; a link without its own: L, LC */
          unsigned l = topo_port_latency(n->t, s, p, k);
          pl[k] = (uint16_t)(l ? l : k ? n->LC : n->L);
          if (pl[k] + 1u > n->W) n->W = pl[k] + 1u;
        }
        if (pl[0] < n->Lmin && topo_port_peer(n->t, s, p).kind == PEER_SWITCH) n->Lmin = pl[0];
      }
  }
  n->len = c->packet_flits;
  n->cap = c->source_pool;
  n->dest_cap = c->source_queue;
  n->leaf_arity = topo_down_ports(n->t, 1);
  n->pod_nodes = n->leaf_arity * (topo_levels(n->t) >= 2 ? topo_down_ports(n->t, 2) : 1);
  n->dest_bits = 1;
  while ((1u << n->dest_bits) < n->N) n->dest_bits++;
  if (c->delta > topo_up_ports(n->t, 1) && c->routing != 0) {
    /* allowed by the switch, but say so rather than silently route det */
  }
  size_t WS = (size_t)n->W * n->S, WN = (size_t)n->W * n->N;
  n->sw = calloc(n->S, sizeof *n->sw);
  n->peer = calloc((size_t)n->S * n->P, sizeof *n->peer);
  n->node_leaf = calloc(n->N, sizeof *n->node_leaf);
  n->node_port = calloc(n->N, 1);
  n->st = calloc(WS, sizeof *n->st);
  n->st_flit = calloc(WS * n->P, sizeof(asw_flit));
  n->st_cr_vc = calloc(WS * n->P, 1);
  n->st_arn = calloc(WS * n->P, 4);
  n->adp_prev = calloc((size_t)n->S * n->P, 4);
  n->wake = calloc(WS, 4);
  n->wake_n = calloc(n->W, 4);
  /* >= 2^24 buffer slots (400 MB): measured 23 % less CPU on the 11 664-node
   * RLFT (180 M slots); no gain measured on the 512-node bench (0.4 M) or
   * the 432-node RLFT (6.6 M), where it only adds instructions */
  n->prefetch = (uint64_t)n->S * n->P * n->V * c->buffer_flits >= (1u << 24);
  n->carry = calloc(n->S, 4);
  n->nthreads = obs && obs->step ? 1 : c->threads; /* observer: in order */
  n->lazy = !(obs && obs->step); /* the observer sees every step */
  n->pending = calloc(n->S, 1);
  n->pend_listed = calloc(n->S, 1);
  n->pend_from = calloc(n->S, 8);
  n->pend_left = calloc(n->S, 8);
  n->pend_list = calloc(n->S, 4);
  if (n->nthreads < 1) n->nthreads = 1;
  n->wk = calloc(n->nthreads, sizeof *n->wk);
  n->nwk = n->wk ? n->nthreads : 0;
  for (unsigned t = 0; t < n->nwk; t++) {
    net_worker *w = &n->wk[t];
    w->n = n;
    w->out_flit = calloc(n->P, sizeof(asw_flit));
    w->out_cr_vc = calloc(n->P, 1);
    w->out_arn = calloc(n->P, 4);
    w->carry = calloc(n->S, 4);
    w->pend = calloc(n->S, 4);
    if (!w->out_flit || !w->out_cr_vc || !w->out_arn || !w->carry || !w->pend) {
      snprintf(err, errlen, "out of memory building the network");
      net_free(n);
      return NULL;
    }
  }
  n->stepped_at = calloc(n->S, 8);
  n->todo = calloc(n->S, 4);
  n->nodes = calloc(n->N, sizeof(node));
  n->pool = calloc((size_t)n->N * n->cap, sizeof(src_pkt));
  n->dq = calloc((size_t)n->N * n->V * n->cap, sizeof(dest_q));
  if ((size_t)n->N * n->N * 2 <= (64u << 20)) {
    n->dmap = calloc((size_t)n->N * n->N, 2);
    if (!n->dmap) {
      snprintf(err, errlen, "out of memory building the network");
      net_free(n);
      return NULL;
    }
  }
  n->credits = calloc((size_t)n->N * n->V, 2);
  n->sink_in = calloc(WN, sizeof(asw_flit));
  n->sink_valid = calloc(WN, 1);
  n->src_cr = calloc(WN, 1);
  n->sinkp = calloc((size_t)n->N * n->V, sizeof(sink_pkt));
  n->sink_buf = calloc((size_t)n->N * n->V, 4);
  if (c->flow_control) { /* §17.3 */
    n->pfc = 1;
    n->sink_want = calloc(n->N, 1);
    n->sink_sent = calloc(n->N, 1);
    n->sink_ptr = calloc(n->N, 1);
    n->pause_since = calloc(((size_t)n->S * n->P + n->N) * n->V, sizeof *n->pause_since);
    /* thresholds as netcfg_check accepted them (§17.1 headroom) */
    unsigned hr = c->packet_flits + c->link_latency + c->credit_latency + c->vcs + 2;
    n->pfc_xoff = c->pfc_xoff ? c->pfc_xoff : c->buffer_flits - hr;
    n->pfc_xon = c->pfc_xon ? c->pfc_xon : n->pfc_xoff / 2;
  }
  n->cnt_prev = calloc((size_t)n->S * n->P, 4);
  n->total = c->warmup + c->cycles;
  n->nwin = (size_t)((n->total + c->window - 1) / c->window);
  n->win = calloc(n->nwin, sizeof(window_stat));
  n->bits_words = 1024;
  n->delivered_bits = calloc(n->bits_words, 8);
  if (!n->sw || !n->peer || !n->node_leaf || !n->node_port || !n->st || !n->st_flit ||
      !n->st_cr_vc || !n->st_arn || !n->adp_prev || !n->wake || !n->wake_n || !n->carry || !n->wk ||
      !n->pending || !n->pend_listed || !n->pend_from || !n->pend_left || !n->pend_list ||
      !n->stepped_at || !n->todo ||
      !n->nodes || !n->pool || !n->dq || !n->credits || !n->sink_in ||
      !n->sink_valid || !n->src_cr || !n->sinkp || !n->sink_buf ||
      !n->cnt_prev || !n->win || !n->delivered_bits ||
      (n->pfc && (!n->sink_want || !n->sink_sent || !n->sink_ptr || !n->pause_since))) {
    snprintf(err, errlen, "out of memory building the network");
    net_free(n);
    return NULL;
  }
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned p = 0; p < n->P; p++) n->peer[(size_t)s * n->P + p] = topo_port_peer(n->t, s, p);
  n->node_lo = 0;
  n->node_hi = n->N;
  if (n->R > 1) {
    n->sw_owner = calloc(n->S, sizeof *n->sw_owner);
    n->x_off = calloc(n->R, sizeof *n->x_off);
    n->x_len = calloc(n->R, sizeof *n->x_len);
    n->x_hdr = calloc((size_t)2 * n->R * NET_NH, 8);
    int bad = !n->sw_owner || !n->x_off || !n->x_len || !n->x_hdr;
    for (unsigned t = 0; t < n->nwk && !bad; t++) {
      net_worker *w = &n->wk[t];
      w->xo = calloc(n->R, sizeof *w->xo);
      w->xo_n = calloc(n->R, sizeof *w->xo_n);
      w->xo_cap = calloc(n->R, sizeof *w->xo_cap);
      bad = !w->xo || !w->xo_n || !w->xo_cap;
    }
    if (bad) {
      snprintf(err, errlen, "out of memory building the network");
      net_free(n);
      return NULL;
    }
    if (partition(n, err, errlen)) {
      net_free(n);
      return NULL;
    }
    /* links to switches of other ranks go through the exchange */
    for (size_t i = 0; i < (size_t)n->S * n->P; i++)
      if (n->peer[i].kind == PEER_SWITCH && n->sw_owner[n->peer[i].id] != n->rank)
        n->peer[i].kind = PEER_REMOTE;
    n->next_id = n->rank; /* packet ids rank + R * k: unique, rising per source */
    n->x_every = n->L < n->LC ? n->L : n->LC;
    if (c->sync_every && c->sync_every < n->x_every) n->x_every = c->sync_every;
    if (n->W > 0xFFFF) {
      snprintf(err, errlen, "ranks: link and credit latencies above 65534 cycles");
      net_free(n);
      return NULL;
    }
  }
  for (unsigned d = 0; d < n->N; d++) {
    n->node_leaf[d] = topo_node_switch(n->t, d);
    n->node_port[d] = (uint8_t)topo_node_port(n->t, d);
  }
  for (unsigned l = 1; c->route_hash == 2 && l <= topo_levels(n->t); l++) { /* §17.6 */
    unsigned w = topo_up_ports(n->t, l);
    if (w & (w - 1)) {
      snprintf(err, errlen, "routing: smodk takes the up port from source digits and needs "
               "power-of-two up-port counts (stage %u has %u)", l, w);
      net_free(n);
      return NULL;
    }
  }
  for (unsigned i = 0; i < c->pg_count; i++) { /* §17.7 */
    unsigned s = c->pg[i].sw, p = c->pg[i].port;
    if (s >= n->S || p >= n->P || topo_port_peer(n->t, s, p).kind == PEER_NONE) {
      snprintf(err, errlen, "port_gap: %u:%u:%u: %s", s, p, c->pg[i].gap,
               s >= n->S ? "no such switch" : p >= n->P ? "no such port" : "the port has no link");
      net_free(n);
      return NULL;
    }
  }
  int det_only = (c->routing == ASW_ROUTE_DET || c->route_hash) && c->arn == 0 && /* ARN re-routes */
                 c->cube_order < 3 && c->sqs != SQS_OODET; /* §16.3: out of order */
  n->r.order_checked = c->check_order == 1 || (c->check_order == 2 && det_only && n->N <= 4096);
  if (n->r.order_checked) {
    n->flow_last = calloc((size_t)n->N * n->N, 4);
    if (!n->flow_last) {
      snprintf(err, errlen, "check_order: out of memory for %u x %u flows", n->N, n->N);
      net_free(n);
      return NULL;
    }
  }
  asw_config sc;
  asw_config_default(&sc);
  sc.ports = n->P;
  sc.vcs = n->V;
  sc.buf_flits = c->buffer_flits;
  sc.max_packet = c->packet_flits;
  sc.payload_bits = 64;
  sc.dest_bits = 16;
  sc.table_entries = n->N;
  sc.voq = c->voq;
  sc.iters = c->iters;
  sc.arn_entries = c->arn_entries;
  asw_config_set_features(&sc, ASW_FEAT_ALL); /* §1: the simulator's switches build them all */
  n->lane = c->qcn && (c->cnm_path == 1 || (c->cnm_path == 2 && c->switch_ar)); /* §17.9 */
  sc.sar_entries = n->lane ? c->sar_entries : 0;
  if (n->lane) { /* the AR timer in ticks of 2^TS cycles, TTL < 2^24 */
    double cyc = c->ar_timer_us * 1000.0 / c->cycle_ns;
    uint64_t t = cyc < 1 ? 1 : (uint64_t)(cyc + 0.5);
    n->sar_ts = 0;
    while (((t + (1ull << n->sar_ts) - 1) >> n->sar_ts) > 0xFFFFFFu) n->sar_ts++;
    n->sar_ttl = (unsigned)((t + (1ull << n->sar_ts) - 1) >> n->sar_ts);
    n->st_cnm_mask = calloc(WS, 8);
    n->st_cnm = calloc(WS * n->P, 8);
    n->out_cnm = calloc(n->P, 8);
    if (!n->st_cnm_mask || !n->st_cnm || !n->out_cnm) {
      snprintf(err, errlen, "out of memory for the CNM lane");
      net_free(n);
      return NULL;
    }
  }
  char e2[256];
  if (asw_config_check(&sc, e2, sizeof e2)) {
    snprintf(err, errlen, "switch parameters: %s", e2);
    net_free(n);
    return NULL;
  }
  n->sw_cfg = sc;
  route_cfg rc = {.mode = c->routing, .trigger = c->trigger,
                  .stage_mask = c->adaptive_stages & 0xFF, .delta = c->delta,
                  .obqa = c->sqs == SQS_OBQA, .ltth = c->ltth, .htth = c->htth,
                  .lfsr_seed = c->lfsr_seed};
  unsigned afi = c->afi || c->arn == 2, B = c->buffer_flits;
  rc.arn_regs = c->arn_entries >= 1;
  rc.arn_mode = c->arn;
  rc.afi = afi;
  rc.mark_adapted = c->arn == 0 && afi; /* Adaptive-Th + AFI (§15.1) */
  /* thresholds in % of BUF, rounded down as the register reset values */
  rc.hcdth = c->hcdth * B / 100 ? c->hcdth * B / 100 : 1;
  rc.lcdth = c->lcdth * B / 100 ? c->lcdth * B / 100 : 1;
  rc.fcth = c->fcth * B / 100;
  rc.crt = c->crt;
  rc.arn_ttl = c->arn_ttl;
  rc.arn_up_nodes = c->arn_up_nodes;
  if (rc.obqa && n->V < 1) rc.obqa = 0;
  if (c->sqs == SQS_VOQNET) { /* §16.6: the reference fabric, no switch of the contract */
    if (obs) {
      snprintf(err, errlen, "sqs: voqnet is the simulator-only reference fabric; there is no "
               "switch of the contract to co-simulate");
      net_free(n);
      return NULL;
    }
    vqn_cfg vc = {.cb = n->cube, .order = n->crc.order, .bubble = n->crc.bubble,
                  .buf_flits = c->buffer_flits, .max_packet = c->packet_flits, .iters = c->iters,
                  .link_latency = n->L, .credit_latency = n->LC};
    if (!(n->vq = vqn_new(&vc, err, errlen))) {
      net_free(n);
      return NULL;
    }
  }
  for (unsigned s = 0; s < n->S && !n->vq; s++) {
    if (n->R > 1 && n->sw_owner[s] != n->rank) continue; /* another rank's */
    n->sw[s] = asw_switch_new(&sc, e2, sizeof e2);
    if (!n->sw[s]) {
      snprintf(err, errlen, "switch %u: %s", s, e2);
      net_free(n);
      return NULL;
    }
    n->prog_switch = s;
    int rv = n->cube ? cube_tables_program_switch(n->cube, &n->crc, s, reg_write_cb, n) /* §16.4 */
             : n->ft.port ? fwd_tables_program_switch(&n->ft, s, c->lfsr_seed, reg_write_cb, n) /* §16.5 */
             : tables_program_switch(n->t, s, &rc, reg_write_cb, n);
    if (!rv && n->pfc) { /* §17.2: every port a PFC port */
      uint64_t all = n->P == 64 ? ~0ull : (1ull << n->P) - 1;
      rv = reg_write_cb(n, ASW_REG_PFC_THRESH, asw_pfc_thresh(n->pfc_xoff, n->pfc_xon));
      if (!rv) rv = reg_write_cb(n, ASW_REG_PFC_EN(0), (uint32_t)all);
      if (!rv && n->P > 32) rv = reg_write_cb(n, ASW_REG_PFC_EN(1), (uint32_t)(all >> 32));
    }
    if (!rv && c->route_hash) { /* §17.6: hashed, or S-mod-k by source digits */
      unsigned lvl = topo_level(n->t, s), shift = 0, bits = 0;
      for (unsigned l = 1; l < lvl; l++) shift += hash_stage_bits(topo_up_ports(n->t, l), c->route_hash);
      if (topo_up_ports(n->t, lvl)) bits = (unsigned)__builtin_ctz(topo_up_ports(n->t, lvl));
      rv = reg_write_cb(n, ASW_REG_ROUTE_HASH, c->route_hash == 1 ? asw_route_hash_reg(ASW_RH_FLOW, shift > 8 ? 8 : shift, 0)
                                               : bits ? asw_route_hash_reg(ASW_RH_SRC_DIGIT, shift, bits) : 0);
    }
    if (!rv && c->pg_count) { /* §17.7: output port rates, one write per PORT_GAP register */
      uint32_t word[8] = {0};
      unsigned touched = 0;
      for (unsigned i = 0; i < c->pg_count; i++)
        if (c->pg[i].sw == s) {
          word[c->pg[i].port / 8] |= asw_port_gap_field(c->pg[i].port, c->pg[i].gap);
          touched |= 1u << (c->pg[i].port / 8);
        }
      for (unsigned k = 0; k < 8 && !rv; k++)
        if (touched >> k & 1u) rv = reg_write_cb(n, ASW_REG_PORT_GAP(k), word[k]);
    }
    if (!rv && c->qcn) { /* §17.4: a congestion point per output, cpid = switch */
      unsigned wl = (unsigned)__builtin_ctz(c->qcn_w);
      rv = reg_write_cb(n, ASW_REG_QCN_QEQ, c->qcn_qeq / 64);
      if (!rv) rv = reg_write_cb(n, ASW_REG_QCN_SAMPLE, c->qcn_sample / 64);
      if (!rv) rv = reg_write_cb(n, ASW_REG_QCN_SEED, c->lfsr_seed);
      if (!rv) rv = reg_write_cb(n, ASW_REG_QCN_CTRL, asw_qcn_ctrl(1, wl, c->qcn_fb_shift, s));
    }
    if (!rv && n->lane) { /* §17.9: the lane, snooping; steering with switch-ar */
      rv = reg_write_cb(n, ASW_REG_SAR_TTL, asw_sar_ttl(n->sar_ttl, n->sar_ts));
      if (!rv) rv = reg_write_cb(n, ASW_REG_SAR_SEED, (c->lfsr_seed ^ (s * 0x9E37u)) & 0xFFFFu);
      if (!rv) rv = reg_write_cb(n, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, c->switch_ar));
    }
    if (rv) {
      snprintf(err, errlen, "switch %u: the table generator wrote an illegal "
               "register value (%d); check delta/ltth/htth", s, rv);
      net_free(n);
      return NULL;
    }
  }
  if (c->qcn) { /* §17.5: rates as fractions of the line rate, 512 bits a cycle */
    const double line_mbps = 512.0 / c->cycle_ns * 1000.0;
    qcn_rp_params qp = {.nodes = n->N, .rl = (int)c->rl, .gd = c->rl_gd,
                        .min_rate = c->rl_min_mbps / line_mbps,
                        .ai = c->rl_ai_mbps / line_mbps, .hai = c->rl_hai_mbps / line_mbps,
                        .fr = c->rl_fr, .bc_flits = c->rl_bc / 64,
                        .timer = (uint64_t)(c->rl_timer_us * 1000.0 / c->cycle_ns + 0.5)};
    if (qp.timer < 1) qp.timer = 1;
    n->qcn = qcn_net_new(&qp, err, errlen);
    n->cnm_buf = calloc(n->P, sizeof *n->cnm_buf);
    if (!n->qcn || !n->cnm_buf) {
      if (n->qcn && !n->cnm_buf) snprintf(err, errlen, "out of memory");
      net_free(n);
      return NULL;
    }
    n->qcn_rl = (int)c->rl;
  }
  if (n->lane) { /* §17.9: the AR timer counts every cycle: every switch steps every cycle */
    n->carry_n = 0;
    for (unsigned s = 0; s < n->S; s++)
      if (n->sw[s]) n->carry[n->carry_n++] = s;
  }
  /* Node i's state is the i-th output of a master splitmix64 seeded from
   * `seed`: well-mixed, so the node streams are unrelated offsets of the
   * generator's period (a state of seed*a + i*gamma would make node i's stream
   * node 0's shifted by i draws). */
  uint64_t master = c->seed ^ 0x6A09E667F3BCC909ull;
  for (unsigned i = 0; i < n->N; i++) {
    node *nd = &n->nodes[i];
    nd->rng = rng_next(&master);
    if (i < n->node_lo || i >= n->node_hi) continue; /* another rank's */
    nd->free_head = 0;
    src_pkt *pool = &n->pool[(size_t)i * n->cap];
    for (unsigned k = 0; k < n->cap; k++)
      pool[k].next = (uint16_t)(k + 1 < n->cap ? k + 1 : NIL16);
    for (unsigned v = 0; v < n->V; v++) n->credits[(size_t)i * n->V + v] = (uint16_t)c->buffer_flits;
    nd->sink_rate = c->sink_rate;
  }
  if (n->cube) /* §16.4 */
    snprintf(n->routing_name, sizeof n->routing_name, "%s",
             n->crc.adapt == CUBE_ADAPT_FULLY ? "fully-adaptive"
             : n->crc.adapt == CUBE_ADAPT_XOR ? "xoradap"
             : n->crc.order == CUBE_ORDER_DIRECTION ? "direction-order" : "dor");
  else if (n->ft.port) /* §16.5 */
    snprintf(n->routing_name, sizeof n->routing_name, "%s",
             c->file_routing == 3 ? "table" : c->file_routing == 2 ? "updn" : "minhop");
  else if (c->route_hash)
    snprintf(n->routing_name, sizeof n->routing_name, c->route_hash == 1 ? "hashed" : "smodk");
  else if (c->switch_ar) snprintf(n->routing_name, sizeof n->routing_name, "switch-ar"); /* §17.8 */
  else if (c->routing == ASW_ROUTE_DET) snprintf(n->routing_name, sizeof n->routing_name, "dmodk");
  else if (c->routing == ASW_ROUTE_OBLIVIOUS) snprintf(n->routing_name, sizeof n->routing_name, "oblivious");
  else if (c->trigger == 0 && (c->adaptive_stages & 0xFF) == 0xFF && c->delta == 1)
    snprintf(n->routing_name, sizeof n->routing_name, "fully-adaptive");
  else {
    char st[24], dl[16];
    if ((c->adaptive_stages & 0xFF) == 0xFF) snprintf(st, sizeof st, "s");
    else {
      size_t k = 0;
      for (unsigned b = 0; b < 8; b++)
        if (c->adaptive_stages & (1u << b)) k += (size_t)snprintf(st + k, sizeof st - k, "%u", b + 1);
      snprintf(st + k, sizeof st - k, "s");
    }
    if (c->delta > 1) snprintf(dl, sizeof dl, "k/%u", c->delta);
    else snprintf(dl, sizeof dl, "k");
    snprintf(n->routing_name, sizeof n->routing_name, "adap-%s-%s-%s",
             c->trigger == 0 ? "noth" : c->trigger == 1 ? "th" : "2th", st, dl);
  }
  if (setup_traffic(n)) {
    snprintf(err, errlen, "%s", n->err);
    net_free(n);
    return NULL;
  }
  if (c->traffic == TRAFFIC_TRACE && net_trace_setup(n, err, errlen)) { /* trace replay */
    net_free(n);
    return NULL;
  }
  if (c->lf_count || c->link_fault_rate > 0) { /* §18.6 */
    n->faults = faults_new(c, n->t, n->total, err, errlen);
    n->fault_touch = calloc(3 * (size_t)n->S, sizeof *n->fault_touch);
    if (!n->faults || !n->fault_touch) {
      if (n->faults) snprintf(err, errlen, "link_fault: out of memory");
      net_free(n);
      return NULL;
    }
    n->pad_payload = n->sw_cfg.payload_bits == 64 ? ~0ull : (1ull << n->sw_cfg.payload_bits) - 1;
  }
  for (unsigned i = 0; i < n->N; i++) {
    node *nd = &n->nodes[i];
    if (n->is_hotspot[i] && c->hs_sink_rate >= 0) nd->sink_rate = c->hs_sink_rate;
    nd->sink_slow = nd->sink_rate < 1.0;
    if (c->injection == 0) geometric_next(n, nd, 0);
    else nd->on = rng_unit(&nd->rng) <= c->load;
    if (c->injection == 0 && nd->next_gen > 0) nd->next_gen -= 1; /* may start at 0 */
  }
  return n;
}

void net_free(net *n) {
  if (!n) return;
  free(n->port_lat);
  faults_free(n->faults);
  free(n->fault_touch);
  if (n->sw)
    for (unsigned s = 0; s < n->S; s++)
      if (n->sw[s]) asw_switch_free(n->sw[s]);
  free(n->sw);
  free(n->peer); free(n->node_leaf); free(n->node_port);
  free(n->st); free(n->st_flit); free(n->st_cr_vc);
  free(n->st_arn); free(n->adp_prev);
  free(n->wake); free(n->wake_n); free(n->carry);
  for (unsigned t = 0; t < n->nwk; t++) {
    free(n->wk[t].out_flit); free(n->wk[t].out_cr_vc); free(n->wk[t].out_arn);
    free(n->wk[t].carry); free(n->wk[t].pend);
    if (n->wk[t].xo)
      for (unsigned r = 0; r < n->R; r++) free(n->wk[t].xo[r]);
    free(n->wk[t].xo); free(n->wk[t].xo_n); free(n->wk[t].xo_cap);
  }
  free(n->sw_owner); free(n->xbuf); free(n->x_off); free(n->x_len); free(n->x_hdr);
  free(n->red_fout);
  free(n->pending); free(n->pend_listed); free(n->pend_from); free(n->pend_left);
  free(n->pend_list);
  free(n->wk);
  free(n->stepped_at); free(n->todo);
  free(n->nodes); free(n->pool); free(n->dq); free(n->dmap); free(n->credits);
  free(n->sink_in); free(n->sink_valid); free(n->src_cr); free(n->sinkp);
  free(n->sink_want); free(n->sink_sent); free(n->sink_ptr); free(n->pause_since);
  free(n->sink_buf); free(n->cnt_prev); free(n->win); free(n->delivered_bits);
  free(n->flow_last); free(n->hot_rx); free(n->is_hotspot); free(n->ihs_dest); free(n->report); free(n->dl_cycle);
  fwd_tables_free(&n->ft); free(n->cdg_note);
  trace_replay_free(n->rp); trace_free(n->trc); /* traffic=trace */
  qcn_net_free(n->qcn); free(n->cnm_buf); /* §17.5 */
  vqn_free(n->vq); /* §16.6 */
  free(n->st_cnm_mask); free(n->st_cnm); free(n->out_cnm); /* §17.9 */
  topo_free(n->t);
  free(n);
}

/* ---- per-cycle helpers ---------------------------------------------------- */
/* Puts switch s on the wake list of `slot` unless it is there already. */
static inline void wake_switch(net *n, unsigned slot, unsigned s, st_head *h, int mt) {
  if (mt) {
    if (__atomic_exchange_n(&h->woken, 1, __ATOMIC_RELAXED)) return;
    uint32_t k = __atomic_fetch_add(&n->wake_n[slot], 1, __ATOMIC_RELAXED);
    n->wake[(size_t)slot * n->S + k] = s;
  } else {
    if (h->woken) return;
    h->woken = 1;
    n->wake[(size_t)slot * n->S + n->wake_n[slot]++] = s;
  }
}

static inline void mask_set(uint64_t *m, unsigned bit, int mt) {
  if (mt) __atomic_fetch_or(m, 1ull << bit, __ATOMIC_RELAXED);
  else *m |= 1ull << bit;
}

/* Each (switch, port) entry of a slot has one writer: the link's far end. */
static inline void stage_flit_at(net *n, unsigned slot, unsigned s, unsigned port,
                                 const asw_flit *f, int mt) {
  size_t i = (size_t)slot * n->S + s;
  st_head *h = &n->st[i];
  n->st_flit[i * n->P + port] = *f;
  mask_set(&h->flit_mask, port, mt);
  wake_switch(n, slot, s, h, mt);
}
static inline void stage_flit(net *n, unsigned s, unsigned port, const asw_flit *f, int mt) {
  stage_flit_at(n, n->slot_fl, s, port, f, mt);
}

/* §16.5: the arrival slot of what port p of switch s sends now over a link with a
 * latency of its own (credit 0: flits, 1: credits and ARNs). */
static inline unsigned port_slot(const net *n, unsigned s, unsigned p, int credit) {
  unsigned x = n->slot_now + n->port_lat[((size_t)s * n->P + p) * 2 + (unsigned)credit];
  return x >= n->W ? x - n->W : x;
}

static inline void stage_credit_at(net *n, unsigned slot, unsigned s, unsigned port,
                                   unsigned vc, int mt) {
  size_t i = (size_t)slot * n->S + s;
  st_head *h = &n->st[i];
  n->st_cr_vc[i * n->P + port] = (uint8_t)vc;
  mask_set(&h->cr_mask, port, mt);
  wake_switch(n, slot, s, h, mt);
}
static inline void stage_credit(net *n, unsigned s, unsigned port, unsigned vc, int mt) {
  stage_credit_at(n, n->slot_cr, s, port, vc, mt);
}

/* An ARN travels upstream on the backward channel, like a credit. */
static inline void stage_arn_at(net *n, unsigned slot, unsigned s, unsigned port,
                                uint32_t msg, int mt) {
  size_t i = (size_t)slot * n->S + s;
  st_head *h = &n->st[i];
  n->st_arn[i * n->P + port] = msg;
  mask_set(&h->arn_mask, port, mt);
  wake_switch(n, slot, s, h, mt);
}
static inline void stage_arn(net *n, unsigned s, unsigned port, uint32_t msg, int mt) {
  stage_arn_at(n, n->slot_cr, s, port, msg, mt);
}

static inline window_stat *cur_win(net *n) {
  size_t w = (size_t)(n->cycle / n->cfg.window);
  return w < n->nwin ? &n->win[w] : NULL;
}

static int grow_bits(net *n, uint64_t id) {
  size_t need = (size_t)(id / 64) + 1;
  if (need <= n->bits_words) return 0;
  size_t nw = n->bits_words * 2;
  while (nw < need) nw *= 2;
  uint64_t *p = realloc(n->delivered_bits, nw * 8);
  if (!p) return -1;
  memset(p + n->bits_words, 0, (nw - n->bits_words) * 8);
  n->delivered_bits = p;
  n->bits_words = nw;
  return 0;
}

static int mark_delivered(net *n, uint32_t id) {
  size_t w = id / 64;
  /* with ranks, ids are issued elsewhere: grow (out of memory: unchecked) */
  if (w >= n->bits_words && (n->R == 1 || grow_bits(n, id))) return 0; /* never issued */
  uint64_t bit = 1ull << (id % 64);
  if (n->delivered_bits[w] & bit) return 1;
  n->delivered_bits[w] |= bit;
  return 0;
}

static inline __attribute__((always_inline)) void sink_consume_credit(net *n, unsigned d,
                                                                       unsigned vc, int mt) {
  if (n->vq) vqn_node_credit(n->vq, d, n->cycle); /* §16.6 */
  else if (!n->pfc) stage_credit(n, n->node_leaf[d], n->node_port[d], vc, mt);
  n->consumed_flits++; /* §17.3: a PFC sink returns no credits */
}

/* §17.3: one PFC frame (credit channel, flips the priority's pause state) for
 * priority v of the link that pause_since entry k tracks: counts it, and the
 * pause's length when it resumes. */
static inline void pause_track(net *n, size_t k, uint64_t *frames, uint64_t *mx,
                               uint64_t *storms) {
  uint64_t *ps = &n->pause_since[k];
  (*frames)++;
  if (!*ps) {
    *ps = n->cycle + 1;
    return;
  }
  uint64_t len = n->cycle + 1 - *ps;
  if (len > *mx) *mx = len;
  if (n->cfg.pfc_storm && len > n->cfg.pfc_storm) (*storms)++;
  *ps = 0;
}

/* §17.3: a slow sink's hysteresis over the flits it holds per priority (the
 * switch's rule, §17.1) and at most one frame per cycle to its leaf. */
static void sink_pfc(net *n, unsigned d, int mt) {
  const unsigned V = n->V;
  const uint32_t *hd = &n->sink_buf[(size_t)d * V];
  unsigned want = n->sink_want[d];
  for (unsigned v = 0; v < V; v++) {
    unsigned w = hd[v] >= n->pfc_xoff || ((want >> v & 1u) && hd[v] > n->pfc_xon);
    want = (want & ~(1u << v)) | w << v;
  }
  n->sink_want[d] = (uint8_t)want;
  unsigned diff = want ^ n->sink_sent[d];
  if (!diff) return;
  unsigned v = n->sink_ptr[d];
  while (!(diff >> v & 1u)) v = v + 1 == V ? 0 : v + 1;
  n->sink_sent[d] ^= (uint8_t)(1u << v);
  n->sink_ptr[d] = (uint8_t)(v + 1 == V ? 0 : v + 1);
  stage_credit(n, n->node_leaf[d], n->node_port[d], v, mt);
  pause_track(n, ((size_t)n->S * n->P + d) * V + v, &n->pause_frames, &n->pause_max,
              &n->pause_storms);
}

/* Inlined in end_nodes (mt constant there). */
static inline __attribute__((always_inline)) void sink_receive(net *n, unsigned d,
                                                               const asw_flit *f,
                                                               int measuring, int mt) {
  sink_pkt *sp = &n->sinkp[(size_t)d * n->V + f->vc];
  window_stat *ws = n->ws;
  if (f->head) {
    sp->id = (uint32_t)f->payload;
    sp->gen = (uint32_t)(f->payload >> 32) & 0x7FFFFFFFu;
    sp->hot = (uint8_t)(f->payload >> 63);
    sp->src = ASW_HDR_SRC(f->hdr);
    sp->flits = 0;
    sp->damaged = 0;
    sp->len = (uint8_t)ASW_HDR_LEN(f->hdr);
  } else if (n->faults && f->payload == n->pad_payload) { /* §18.3 padding */
    sp->damaged = 1;
  } else if (sp->flits == 1) {
    sp->inject = (uint32_t)f->payload;
  } else if (n->faults && f->payload) { /* §18.6 checker: body flits carry 0 */
    sp->damaged = 2;
  }
  sp->flits++;
  if (n->faults && f->tail && (sp->damaged || sp->flits != sp->len)) {
    if (sp->damaged == 1) n->pkts_damaged++; /* a cut packet, discarded by the sink */
    else n->pkts_bad++;                      /* must never happen */
    if (!n->nodes[d].sink_slow) sink_consume_credit(n, d, f->vc, mt);
    else n->sink_buf[(size_t)d * n->V + f->vc]++;
    return;
  }
  if (ws) {
    ws->accepted++;
    if (sp->hot) ws->acc_hot++; else ws->acc_cold++;
  }
  if (measuring) {
    if (sp->hot) n->r.accepted_hot += 1; else n->r.accepted_cold += 1;
  }
  if (f->tail) {
    n->r.packets_delivered++;
    if (sp->hot && n->hot_rx) n->hot_rx[d]++; /* hs_packets */
    if (mark_delivered(n, sp->id)) n->r.duplicates++;
    if (n->rp && trace_replay_delivered(n->rp, sp->id, n->cycle)) n->trace_errors++; /* trace */
    if (n->flow_last) {
      uint32_t *last = &n->flow_last[(size_t)sp->src * n->N + d];
      if (*last > sp->id) n->r.order_violations++;
      *last = sp->id + 1;
    }
    uint64_t lat = n->cycle - sp->inject, e2e = n->cycle - sp->gen;
    if (ws) { ws->lat_sum += (double)lat; ws->lat_count++; }
    if (measuring) {
      n->r.packets_measured++;
      hist_add(&n->h_net, lat);
      hist_add(&n->h_e2e, e2e);
      hist_add(sp->hot ? &n->h_hot : &n->h_cold, lat);
    }
  }
  if (!n->nodes[d].sink_slow) sink_consume_credit(n, d, f->vc, mt);
  else if (++n->sink_buf[(size_t)d * n->V + f->vc] > n->cfg.buffer_flits && !n->sink_drop)
    n->sink_drop = 1 + (uint64_t)d * n->V + f->vc; /* §17.3: a frame would be dropped */
}

static void generate(net *n, unsigned s, node *nd, int measuring) {
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
  } else if (c->traffic == TRAFFIC_UNIFORM || c->traffic == TRAFFIC_HOTSPOT ||
             c->traffic == TRAFFIC_IHS) {
    dest = rng_below(&nd->rng, n->N - 1);
    if (dest >= s) dest++;
  } else {
    dest = nd->perm_dest;
    if (dest == s) return; /* fixed point of the permutation: silent node */
  }
  window_stat *ws = n->ws;
  if (ws) ws->offered += n->len;
  if (measuring) n->r.offered_load += n->len;
  /* SL and VC are functions of (source, destination) */
  unsigned sl = source_sl(n, s, dest);
  unsigned vc = sl % n->Q; /* identity SL2VC on the injection link; never the AFC */
  dest_q *dq = &n->dq[((size_t)s * n->V + vc) * n->cap];
  unsigned qi = NIL16;
  if (nd->queued >= n->cap) { /* full pool: refused, no queue lookup */
    n->r.packets_refused++;
    return;
  }
  if (n->dmap) {
    unsigned m = n->dmap[(size_t)s * n->N + dest];
    if (m) qi = m - 1;
  } else {
    for (unsigned i = 0; i < nd->nactive[vc]; i++)
      if (dq[i].dest == dest) { qi = i; break; }
  }
  if (nd->queued >= n->cap || (qi != NIL16 && dq[qi].count >= n->dest_cap)) {
    n->r.packets_refused++;
    return;
  }
  if (n->next_id >= 0xFFFFFFFFull || grow_bits(n, n->next_id)) {
    n->r.packets_refused++;
    return;
  }
  if (measuring) n->r.admitted_load += n->len;
  uint32_t id = src_enqueue(n, s, nd, dq, qi, dest, sl, vc, n->len, hot);
  if (n->rec) net_trace_record(n, s, dest, id); /* asw net --trace-out */
}

/* Takes a packet from source s's pool and appends it to destination queue qi of
 * its VC (NIL16: a new queue for dest); returns the packet's id. The caller has
 * checked the pool, the queue's capacity and the id space. */
static uint32_t src_enqueue(net *n, unsigned s, node *nd, dest_q *dq, unsigned qi, unsigned dest,
                            unsigned sl, unsigned vc, unsigned len, int hot) {
  src_pkt *pool = &n->pool[(size_t)s * n->cap];
  uint16_t k = nd->free_head;
  nd->free_head = pool[k].next;
  src_pkt *p = &pool[k];
  p->id = (uint32_t)n->next_id;
  n->next_id += n->R;
  p->gen = (uint32_t)n->cycle;
  p->dest = (uint16_t)dest;
  p->hot = (uint8_t)hot;
  p->next = NIL16;
  p->sl = (uint8_t)sl;
  p->vc = (uint8_t)vc;
  p->len = (uint8_t)len;
  n->r.packets_generated++;
  nd->queued++;
  nd->inj_blocked = 0;
  if (qi != NIL16) {
    pool[dq[qi].tail].next = k;
    dq[qi].tail = k;
    dq[qi].count++;
    return p->id;
  }
  qi = nd->nactive[vc]++;
  dq[qi].dest = (uint16_t)dest;
  dq[qi].head = dq[qi].tail = k;
  dq[qi].count = 1;
  if (n->dmap) n->dmap[(size_t)s * n->N + dest] = (uint16_t)(qi + 1);
  return p->id;
}

/* §17.5: the first destination queue of VC v, in round-robin order from
 * rr[v], whose flow's rate limiter lets it start a packet now (NIL16: none). */
static unsigned rl_ready_queue(net *n, unsigned s, const node *nd, unsigned v) {
  const dest_q *dq = &n->dq[((size_t)s * n->V + v) * n->cap];
  unsigned na = nd->nactive[v], k = nd->rr[v] % na;
  for (unsigned j = 0; j < na; j++, k = k + 1 == na ? 0 : k + 1)
    if (qcn_net_ready(n->qcn, s, dq[k].dest, n->cycle)) return k;
  return NIL16;
}

/* The next body or tail flit of the packet source s is streaming: the
 * common injection (15 of 16 flits in the bench), inlined in end_nodes
 * (mt constant) instead of a call of inject. */
static inline __attribute__((always_inline)) void inject_body(net *n, unsigned s, node *nd,
                                                              int mt) {
  asw_flit f = {.valid = 1, .vc = nd->cur.vc};
  if (nd->cur_sent == 1) f.payload = nd->cur.gen; /* injection cycle */
  nd->cur_sent++;
  if (nd->cur_sent == nd->cur_len) {
    f.tail = 1;
    nd->streaming = 0;
  }
  if (n->vq) vqn_node_send(n->vq, s, &f, n->cycle); /* §16.6 */
  else stage_flit(n, n->node_leaf[s], n->node_port[s], &f, mt);
  n->injected_flits++;
  n->last_progress = n->cycle;
}

/* §16.6: the destinations are the VCs: the queue of the first destination from rr_dest
 * on, in id order, whose queue at the switch has room for its next packet (NIL16: none). */
static __attribute__((noinline)) unsigned vq_pick(net *n, unsigned s, node *nd) {
  const dest_q *q0 = &n->dq[(size_t)s * n->cap];
  const src_pkt *pl = &n->pool[(size_t)s * n->cap];
  unsigned best = n->N, pick = NIL16;
  for (unsigned k = 0, na = nd->nactive[0]; k < na; k++) {
    unsigned d = q0[k].dest, dist = d >= nd->rr_dest ? d - nd->rr_dest : d + n->N - nd->rr_dest;
    if (dist < best && vqn_node_credits(n->vq, s, d) >= pl[q0[k].head].len) {
      best = dist;
      pick = k;
    }
  }
  if (pick != NIL16) nd->rr_dest = (uint16_t)(q0[pick].dest + 1u == n->N ? 0u : q0[pick].dest + 1u);
  return pick;
}

static void inject(net *n, unsigned s, node *nd, int mt) {
  unsigned leaf = n->node_leaf[s], port = n->node_port[s];
  vqn *const vq = n->vq; /* §16.6 */
  asw_flit f = {0};
  if (!nd->streaming) {
    if (!nd->queued) return;
    /* round robin over the VCs with credits for a packet, then over the
     * destinations queued on that VC */
    uint16_t *cr = &n->credits[(size_t)s * n->V];
    unsigned vc = NIL16, rl_pick = NIL16;
    int rl_held = 0; /* §17.5: a VC with credits whose flows all wait for their rate limiters */
    if (__builtin_expect(vq != NULL, 0)) {
      if ((rl_pick = vq_pick(n, s, nd)) != NIL16) vc = 0;
    } else for (unsigned j = 0; j < n->V; j++) {
      unsigned v = nd->rr_vc + j; /* (rr_vc + j) mod V */
      if (v >= n->V) v -= n->V;
      if (nd->nactive[v] && cr[v] >= inj_len(n, s, nd, v)) {
        if (n->qcn_rl && (rl_pick = rl_ready_queue(n, s, nd, v)) == NIL16) {
          rl_held = 1;
          continue;
        }
        vc = v;
        break;
      }
    }
    if (vc == NIL16) {
      if (!rl_held) nd->inj_blocked = 1;
      return;
    }
    nd->rr_vc = (uint8_t)(vc + 1 == n->V ? 0 : vc + 1);
    dest_q *dq = &n->dq[((size_t)s * n->V + vc) * n->cap];
    src_pkt *pool = &n->pool[(size_t)s * n->cap];
    unsigned pick = n->qcn_rl || vq ? rl_pick : nd->rr[vc] % nd->nactive[vc];
    uint16_t k = dq[pick].head;
    nd->cur = pool[k];
    dq[pick].head = pool[k].next;
    dq[pick].count--;
    pool[k].next = nd->free_head;
    nd->free_head = k;
    nd->queued--;
    if (dq[pick].head == NIL16) {
      /* queue empty: the last queue takes its place */
      if (n->dmap) n->dmap[(size_t)s * n->N + dq[pick].dest] = 0;
      unsigned last = --nd->nactive[vc];
      if (pick != last) {
        dq[pick] = dq[last];
        if (n->dmap) n->dmap[(size_t)s * n->N + dq[pick].dest] = (uint16_t)(pick + 1);
      }
      nd->rr[vc] = (uint16_t)(nd->nactive[vc] ? pick % nd->nactive[vc] : 0);
    } else {
      nd->rr[vc] = (uint16_t)((pick + 1) % nd->nactive[vc]);
    }
    if (vq) vqn_node_reserve(vq, s, nd->cur.dest, nd->cur.len); /* §16.6 */
    else if (!n->pfc) cr[nd->cur.vc] = (uint16_t)(cr[nd->cur.vc] - nd->cur.len); /* PFC: pause view */
    nd->streaming = 1;
    nd->cur_sent = 0;
    nd->cur_len = nd->cur.len;
    if (n->qcn_rl) qcn_net_sent(n->qcn, s, nd->cur.dest, nd->cur.len, n->cycle); /* §17.5 */
    f.head = 1;
    f.hdr = asw_hdr_make(nd->cur.dest, s, nd->cur.sl, nd->cur.len, 0, 0, nd->cur.id & 0xFFFFu);
    f.payload = (uint64_t)nd->cur.id | ((uint64_t)(nd->cur.gen & 0x7FFFFFFFu) << 32) |
                ((uint64_t)nd->cur.hot << 63);
    nd->cur.gen = (uint32_t)n->cycle; /* reuse: injection cycle of the head */
    nd->last_inject = n->cycle;
  } else if (nd->cur_sent == 1) {
    f.payload = nd->cur.gen; /* injection cycle */
  }
  f.valid = 1;
  f.vc = nd->cur.vc;
  nd->cur_sent++;
  if (nd->cur_sent == nd->cur_len) {
    f.tail = 1;
    nd->streaming = 0;
  }
  if (vq) vqn_node_send(vq, s, &f, n->cycle); /* §16.6 */
  else stage_flit(n, leaf, port, &f, mt);
  n->injected_flits++;
  n->last_progress = n->cycle;
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

static void accumulate_adaptive(net *n, window_stat *ws) {
  uint64_t sum = counter_growth(n, ASW_REG_COUNTER(0, ASW_CNT_ADAPTIVE),
                                ASW_REG_COUNTER(1, 0) - ASW_REG_COUNTER(0, 0), n->cnt_prev);
  n->r.adaptive_decisions += sum;
  if (ws) ws->adaptive += sum;
  if (n->cfg.arn_entries == 0) return;
  sum = counter_growth(n, ASW_REG_ARN_COUNTER(0, ASW_ACNT_ADAPTED),
                       ASW_REG_ARN_COUNTER(1, 0) - ASW_REG_ARN_COUNTER(0, 0), n->adp_prev);
  if (ws) ws->adapted += sum;
}

/* cdg_edges_fn: the waiting heads of channel c (switch, input, VC). */
static void waiting_edges(void *ctx, size_t c, cdg_add_fn add, void *g) {
  net *n = ctx;
  const unsigned P = n->P, V = n->V, NQ = n->cfg.voq ? n->P : 1;
  unsigned s = (unsigned)(c / ((size_t)P * V)), i = (unsigned)(c / V % P), v = (unsigned)(c % V);
  for (unsigned q = 0; n->sw[s] && q < NQ; q++) {
    unsigned o, w, len;
    uint32_t cr = 0;
    if (asw_switch_queue_head(n->sw[s], i, v, q, &o, &w, &len) != 1) continue;
    if (asw_reg_read(n->sw[s], ASW_REG_CRED(o, w), &cr) || cr >= len) continue;
    topo_peer pe = topo_port_peer(n->t, s, o);
    if (pe.kind != PEER_SWITCH || !n->sw[pe.id]) continue;
    add(g, ((size_t)pe.id * P + pe.port) * V + w, o, w);
  }
}

/* Deadlock diagnosis (issue 14): the channel-dependency graph of the queue heads
 * that wait for credits. A channel is an input VC (switch s, input port i, VC v);
 * the head packet of one of its queues, routed to output o with next-hop VC w and
 * len flits, waits for channel (s', i', w) -- the far end of output o -- when
 * CRED(o, w) < len. Packets are granted only with all their credits, so in a
 * deadlock every waiting head is such an edge; a cycle of them is the deadlock.
 * Depth-first search from the channels in index order; the first cycle found is
 * kept in n->dl_cycle, rotated to start at its lowest channel (deterministic).
 * Returns the cycle's length, 0 if there is none, -1 if out of memory. Only for
 * one-process runs (a rank does not see the other ranks' switches). */
static int find_dependency_cycle(net *n) {
  net_dl_hop *h = NULL;
  int found = cdg_cycle_of((size_t)n->S * n->P * n->V, n->P, n->V, waiting_edges, n, &h);
  if (found > 0) {
    free(n->dl_cycle);
    n->dl_cycle = h;
    n->dl_len = (unsigned)found;
  }
  return found;
}

static void describe_blocked(net *n) {
  unsigned shown = 0;
  for (unsigned s = 0; s < n->S && shown < 24; s++) {
    if (!n->sw[s] || asw_switch_idle(n->sw[s])) continue;
    shown++;
    report_add(n, "  switch %u (stage %u):", s, topo_level(n->t, s));
    unsigned nq = n->cfg.voq ? n->P : 1;
    for (unsigned i = 0; i < n->P; i++)
      for (unsigned v = 0; v < n->V; v++) {
        uint32_t occ = 0, x;
        for (unsigned q = 0; q < nq; q++)
          if (!asw_reg_read(n->sw[s], ASW_REG_OCC(i, v, q), &x)) occ += x;
        if (occ) report_add(n, " in%u.vc%u holds %u flits;", i, v, occ);
      }
    for (unsigned o = 0; o < n->P; o++)
      for (unsigned v = 0; v < n->V; v++) {
        uint32_t cr = 0;
        asw_reg_read(n->sw[s], ASW_REG_CRED(o, v), &cr);
        if (cr < n->len) {
          topo_peer pe = topo_port_peer(n->t, s, o);
          report_add(n, " out%u.vc%u has %u credits (< %u) towards %s %u;", o, v,
                     cr, n->len, pe.kind == PEER_NODE ? "node" : "switch", pe.id);
        }
      }
    report_add(n, "\n");
  }
  unsigned sinks = 0;
  for (unsigned d = n->node_lo; d < n->node_hi && sinks < 16; d++) {
    uint64_t held = 0;
    for (unsigned v = 0; v < n->V; v++) held += n->sink_buf[(size_t)d * n->V + v];
    if (held) {
      sinks++;
      report_add(n, "  node %u sink holds %llu flits it does not consume (rate %g)\n",
                 d, (unsigned long long)held, n->nodes[d].sink_rate);
    }
  }
}

static int check_starvation(net *n) {
  uint64_t lim = n->cfg.starvation;
  unsigned found = 0;
  for (unsigned s = n->node_lo; s < n->node_hi; s++) {
    node *nd = &n->nodes[s];
    if (!nd->queued || nd->streaming) { if (!nd->queued) nd->last_inject = n->cycle; continue; }
    if (n->cycle - nd->last_inject < lim) continue;
    if (!found)
      report_add(n, "starvation at cycle %llu: sources with queued packets that "
                 "have not injected for %llu cycles:\n",
                 (unsigned long long)n->cycle, (unsigned long long)lim);
    if (found < 16) {
      report_add(n, "  node %u: %u packets queued; credits into switch %u port %u:",
                 s, nd->queued, topo_node_switch(n->t, s), topo_node_port(n->t, s));
      for (unsigned v = 0; v < n->V; v++)
        report_add(n, " vc%u=%u", v, n->credits[(size_t)s * n->V + v]);
      report_add(n, "\n");
    }
    found++;
  }
  if (found) {
    report_add(n, "  (%u starving sources)\n", found);
    describe_blocked(n);
  }
  return found != 0;
}

/* Nodes' phase of a cycle: credits and flits arriving at the end nodes,
 * slow sinks, generation, injection. It reads only the slot of this cycle
 * and stages into the slots of later cycles, like the switch phase: with
 * threads the two run at the same time (mt: staging with atomics). */
static inline __attribute__((always_inline)) void
end_nodes(net *n, int generating, int measuring, int mt) {
  const net_cfg *c = &n->cfg;
  const unsigned slot = n->slot_now, V = n->V;
  uint8_t *src_cr = &n->src_cr[(size_t)slot * n->N];
  uint8_t *sink_valid = &n->sink_valid[(size_t)slot * n->N];
  const asw_flit *sink_in = &n->sink_in[(size_t)slot * n->N];
  /* loop invariants in locals: the stores in the loop may alias *n */
  node *const nodes = n->nodes;
  const int bernoulli = generating && !n->rp && c->injection == 0;
  const uint64_t cycle = n->cycle;
  vqn *const vq = n->vq; /* §16.6 */
  for (unsigned d = n->node_lo, hi = n->node_hi; d < hi; d++) {
    node *nd = &nodes[d];
    if (src_cr[d]) {
      uint16_t *cr = &n->credits[(size_t)d * V + src_cr[d] - 1];
      if (n->pfc) *cr = *cr ? 0 : (uint16_t)c->buffer_flits; /* §17.3: a frame flips it */
      else (*cr)++;
      src_cr[d] = 0;
      nd->inj_blocked = 0;
    } else if (vq && vqn_node_credited(vq, d)) { /* §16.6 */
      nd->inj_blocked = 0;
    }
    if (sink_valid[d]) {
      sink_receive(n, d, &sink_in[d], measuring, mt);
      sink_valid[d] = 0;
    }
    if (nd->sink_slow) {
      nd->sink_acc += nd->sink_rate;
      int have = 0;
      for (unsigned v = 0; v < V; v++) have |= n->sink_buf[(size_t)d * V + v] != 0;
      if (!have) { if (nd->sink_acc > 1.0) nd->sink_acc = 1.0; }
      else if (nd->sink_acc >= 1.0) {
        for (unsigned j = 0; j < V; j++) {
          unsigned v = nd->sink_rr + j;
          if (v >= V) v -= V;
          if (n->sink_buf[(size_t)d * V + v]) {
            n->sink_buf[(size_t)d * V + v]--;
            nd->sink_rr = (uint8_t)(v + 1 == V ? 0 : v + 1);
            nd->sink_acc -= 1.0;
            sink_consume_credit(n, d, v, mt);
            break;
          }
        }
      }
      if (n->pfc) sink_pfc(n, d, mt);
    }
    if (bernoulli) {
      while (nd->next_gen <= cycle) {
        generate(n, d, nd, measuring);
        geometric_next(n, nd, nd->next_gen);
      }
    } else if (generating) {
      if (n->rp) {
        trace_feed(n, d, nd, measuring); /* traffic=trace */
      } else if (c->injection == 0) {
        while (nd->next_gen <= n->cycle) {
          generate(n, d, nd, measuring);
          geometric_next(n, nd, nd->next_gen);
        }
      } else {
        double a = 1.0 / (c->burst_packets * n->len);
        double b = c->load >= 1.0 ? 1.0 : a * c->load / (1.0 - c->load);
        double u = rng_unit(&nd->rng);
        if (nd->on) {
          if (u <= 1.0 / n->len) generate(n, d, nd, measuring);
          if (c->load < 1.0 && rng_unit(&nd->rng) <= a) nd->on = 0;
        } else if (c->load > 0 && u <= b) {
          nd->on = 1;
        }
      }
    }
    if (nd->streaming) inject_body(n, d, nd, mt);
    else if (nd->queued && !nd->inj_blocked) inject(n, d, nd, mt);
  }
}

/* Queues k words for rank r (a link to a switch of another rank). */
static int xo_push(net_worker *w, unsigned r, const uint64_t *words, unsigned k) {
  if (w->xo_n[r] + k > w->xo_cap[r]) {
    size_t cap = w->xo_cap[r] ? w->xo_cap[r] * 2 : 1024;
    uint64_t *p = realloc(w->xo[r], cap * 8);
    if (!p) {
      snprintf(w->err, sizeof w->err, "out of memory queueing messages for rank %u", r);
      return -1;
    }
    w->xo[r] = p;
    w->xo_cap[r] = cap;
  }
  memcpy(w->xo[r] + w->xo_n[r], words, k * 8);
  w->xo_n[r] += k;
  return 0;
}

/* Records on the wire (64-bit words): word 0 = kind | head << 2 | tail << 3 |
 * vc << 4 | port << 8 | arrival slot << 16 | switch << 32, then hdr and
 * payload for a flit, the message for an ARN, nothing for a credit. */
enum { X_FLIT = 1, X_CREDIT = 2, X_ARN = 3 };
static inline uint64_t x_word0(unsigned kind, topo_peer pe, unsigned slot, unsigned vc,
                               unsigned head, unsigned tail) {
  return kind | (uint64_t)head << 2 | (uint64_t)tail << 3 | (uint64_t)vc << 4 |
         (uint64_t)pe.port << 8 | (uint64_t)slot << 16 | (uint64_t)pe.id << 32;
}

/* §17.9: the words switch s puts on its CNM lane this cycle reach the peer after
 * the link's flit latency: a switch's cnm_in, or an end node's reaction point. */
static int lane_out(net *n, net_worker *w, unsigned s, const asw_outputs *out) {
  const topo_peer *peer = &n->peer[(size_t)s * n->P];
  for (uint64_t m = out->cnm_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    topo_peer pe = peer[p];
    unsigned lat = n->port_lat ? n->port_lat[((size_t)s * n->P + p) * 2] : n->L;
    if (pe.kind == PEER_SWITCH) {
      unsigned slot = n->port_lat ? port_slot(n, s, p, 0) : n->slot_fl;
      size_t i = (size_t)slot * n->S + pe.id;
      n->st_cnm[i * n->P + pe.port] = out->cnm[p];
      n->st_cnm_mask[i] |= 1ull << pe.port;
      wake_switch(n, slot, pe.id, &n->st[i], 0);
    } else if (pe.kind == PEER_NODE) {
      if (qcn_net_send(n->qcn, n->cycle + lat, out->cnm[p])) {
        snprintf(w->err, sizeof w->err, "switch %u: out of memory for CNMs", s);
        return -1;
      }
    }
  }
  return 0;
}

/* Steps switch s with the inputs staged for this cycle and stages its
 * outputs. Returns 0, or -1 with the message in w->err. */
static inline __attribute__((always_inline)) int
step_switch(net *n, net_worker *w, unsigned s, int mt) {
  const unsigned slot = n->slot_now;
  size_t i = (size_t)slot * n->S + s;
  st_head *h = &n->st[i];
  asw_inputs in = {.flit_mask = h->flit_mask, .flit = &n->st_flit[i * n->P],
                   .credit_mask = h->cr_mask, .credit_vc = &n->st_cr_vc[i * n->P],
                   .arn_mask = h->arn_mask, .arn = &n->st_arn[i * n->P],
                   .reg_en = 0, .reg_we = 0, .reg_addr = 0, .reg_wdata = 0};
  if (n->lane) { /* §17.9: the CNM lane (one thread) */
    in.cnm_mask = n->st_cnm_mask[i];
    in.cnm = &n->st_cnm[i * n->P];
    n->st_cnm_mask[i] = 0;
  }
  if (n->faults && faults_fm_take(n->faults, s, n->cycle, &in.reg_addr, &in.reg_wdata))
    in.reg_en = in.reg_we = 1; /* §18.6: the fabric manager's write of this cycle */
  asw_outputs out = {.flit_mask = 0, .flit = w->out_flit, .credit_mask = 0,
                     .credit_vc = w->out_cr_vc, .arn_mask = 0, .arn = w->out_arn,
                     .reg_rvalid = 0, .reg_rdata = 0, .cnm_mask = 0, .cnm = n->out_cnm};
  if (n->lane) n->cnm_generated += (uint64_t)__builtin_popcountll(asw_switch_cnm(n->sw[s], NULL));
  int rv = asw_switch_step(n->sw[s], &in, &out);
  if (rv) {
    if (n->pfc && rv == ASW_EPROTO) w->frames_dropped++; /* §17.3: a buffer overflowed */
    snprintf(w->err, sizeof w->err, "switch %u, cycle %llu: step failed (%d): %s%s",
             s, (unsigned long long)n->cycle, rv, asw_switch_error(n->sw[s]),
             n->pfc ? " (flow_control=pfc: a frame dropped, PFC headroom too small)" : "");
    return -1;
  }
  if (n->obs.step && n->obs.step(n->obs.ctx, s, n->cycle, &in, &out, w->err, sizeof w->err))
    return -1;
  *h = (st_head){0};
  if (n->qcn && !n->lane && qcn_cnm_out(n, w, s)) return -1; /* §17.5 */
  if (out.cnm_mask && lane_out(n, w, s, &out)) return -1;     /* §17.9 */
  const topo_peer *peer = &n->peer[(size_t)s * n->P];
  uint64_t m = out.flit_mask;
  if (m) w->moved = 1;
  while (m) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    w->flit_hops++;
    topo_peer pe = peer[o];
    if (pe.kind == PEER_SWITCH)
      stage_flit_at(n, n->port_lat ? port_slot(n, s, o, 0) : n->slot_fl, pe.id, pe.port,
                    &w->out_flit[o], mt);
    else if (pe.kind == PEER_NODE) {
      size_t si = (size_t)n->slot_fl * n->N + pe.id;
      n->sink_in[si] = w->out_flit[o];
      n->sink_valid[si] = 1;
    } else if (pe.kind == PEER_REMOTE) {
      const asw_flit *f = &w->out_flit[o];
      uint64_t x[3] = {x_word0(X_FLIT, pe, n->slot_fl, f->vc, f->head, f->tail), f->hdr, f->payload};
      if (xo_push(w, n->sw_owner[pe.id], x, 3)) return -1;
    } else {
      snprintf(w->err, sizeof w->err, "switch %u sent a flit on unconnected port %u",
               s, o);
      return -1;
    }
  }
  m = out.credit_mask;
  while (m) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    topo_peer pe = peer[p];
    if (n->pfc) /* §17.3: every one is a PFC frame */
      pause_track(n, ((size_t)s * n->P + p) * n->V + w->out_cr_vc[p], &w->pause_frames,
                  &w->pause_max, &w->pause_storms);
    if (pe.kind == PEER_SWITCH)
      stage_credit_at(n, n->port_lat ? port_slot(n, s, p, 1) : n->slot_cr, pe.id, pe.port,
                      w->out_cr_vc[p], mt);
    else if (pe.kind == PEER_NODE)
      n->src_cr[(size_t)n->slot_cr * n->N + pe.id] = (uint8_t)(w->out_cr_vc[p] + 1);
    else if (pe.kind == PEER_REMOTE) {
      uint64_t x = x_word0(X_CREDIT, pe, n->slot_cr, w->out_cr_vc[p], 0, 0);
      if (xo_push(w, n->sw_owner[pe.id], &x, 1)) return -1;
    }
  }
  m = out.arn_mask;
  while (m) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    topo_peer pe = peer[p];
    if (pe.kind == PEER_SWITCH)
      stage_arn_at(n, n->port_lat ? port_slot(n, s, p, 1) : n->slot_cr, pe.id, pe.port,
                   w->out_arn[p], mt);
    else if (pe.kind == PEER_NODE) w->arn_at_nodes++; /* counted, discarded */
    else if (pe.kind == PEER_REMOTE) {
      uint64_t x[2] = {x_word0(X_ARN, pe, n->slot_cr, 0, 0, 0), w->out_arn[p]};
      if (xo_push(w, n->sw_owner[pe.id], x, 2)) return -1;
    }
  }
  /* A switch with live state is stepped next cycle; one that only ages ARN
   * entries is left pending (see net.lazy), skipping stays exact. */
  int idle;
  uint64_t idle_in = asw_switch_idle_both(n->sw[s], &idle);
  if (!idle) {
    uint64_t k = n->lazy ? idle_in : UINT64_MAX;
    if (k == UINT64_MAX) {
      w->carry[w->carry_n++] = s;
    } else {
      n->pending[s] = 1;
      n->pend_from[s] = n->cycle + 1;
      n->pend_left[s] = k;
      if (!n->pend_listed[s]) {
        n->pend_listed[s] = 1;
        w->pend[w->pend_n++] = s;
      }
    }
  }
  return 0;
}

/* §17.5: the CNMs switch s registered this cycle (on its CNM outputs next
 * cycle) travel to their culprit sources in the zero-load time of the path
 * back: down to the source if it is below s, else up to the top and down. */
static int qcn_cnm_out(net *n, net_worker *w, unsigned s) {
  uint64_t m = asw_switch_cnm(n->sw[s], n->cnm_buf);
  for (; m; m &= m - 1) {
    uint64_t cnm = n->cnm_buf[__builtin_ctzll(m)];
    unsigned src = ASW_CNM_SRC(cnm), lvl = topo_level(n->t, s);
    unsigned hops = topo_below(n->t, s, src) ? lvl : 2 * topo_levels(n->t) - lvl;
    uint64_t at = n->cycle + 1 + (uint64_t)hops * (ASW_ZERO_LOAD_LATENCY + n->cfg.link_latency);
    if (qcn_net_send(n->qcn, at, cnm)) {
      snprintf(w->err, sizeof w->err, "switch %u: out of memory for CNMs", s);
      return -1;
    }
  }
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

/* §17.5: the largest QCN_QLEN of the network, one sample per window. */
static void qcn_queue_sample(net *n) {
  uint64_t mx = 0;
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned o = 0; o < n->P; o++) {
      uint32_t v = 0;
      asw_reg_read(n->sw[s], ASW_REG_QCN_QLEN(o), &v);
      if (v > mx) mx = v;
    }
  qcn_net_queue_sample(n->qcn, mx);
}

/* Makes up the steps pending switch s missed before cycle `upto`. */
static void catch_up(net *n, unsigned s, uint64_t upto) {
  uint64_t k = upto - n->pend_from[s];
  if (k > n->pend_left[s]) k = n->pend_left[s];
  if (k) asw_switch_skip_idle(n->sw[s], k); /* cannot fail: idle_in was finite */
  n->pend_left[s] -= k;
  n->pend_from[s] = upto;
  if (!n->pend_left[s]) n->pending[s] = 0; /* idle now */
}

/* All pending switches up to cycle `upto` (before registers are read). */
static void catch_up_all(net *n, uint64_t upto) {
  uint32_t keep = 0;
  for (uint32_t j = 0; j < n->pend_n; j++) {
    unsigned s = n->pend_list[j];
    if (n->pending[s]) catch_up(n, s, upto);
    if (n->pending[s]) n->pend_list[keep++] = s;
    else n->pend_listed[s] = 0;
  }
  n->pend_n = keep;
}

/* Steps todo[from..to) in order, warming the cache ahead (no effect on
 * results): the switch record three switches ahead, its per-port state and
 * the staged inputs and peers two ahead, the slots and queues one ahead. */
static inline void prefetch_net(net *n, uint32_t j, int level) {
  unsigned s = n->todo[j];
  size_t i = (size_t)n->slot_now * n->S + s;
  if (level == 1) {
    const char *pe = (const char *)&n->peer[(size_t)s * n->P];
    for (size_t k = 0; k < n->P * sizeof *n->peer; k += 64) __builtin_prefetch(pe + k);
    __builtin_prefetch(&n->st[i]);
  }
  asw_switch_prefetch(n->sw[s], level, level ? n->st[i].flit_mask : 0);
}

static inline __attribute__((always_inline)) int
step_switches(net *n, net_worker *w, uint32_t from, uint32_t to, int mt) {
  const uint32_t *todo = n->todo;
  if (!n->prefetch) {
    for (uint32_t j = from; j < to; j++)
      if (step_switch(n, w, todo[j], mt)) {
        w->err_switch = todo[j];
        return -1;
      }
    return 0;
  }
  for (uint32_t j = from; j < to && j < from + 3; j++) prefetch_net(n, j, 0);
  for (uint32_t j = from; j < to && j < from + 2; j++) prefetch_net(n, j, 1);
  if (from < to) prefetch_net(n, from, 2);
  for (uint32_t j = from; j < to; j++) {
    if (j + 3 < to) prefetch_net(n, j + 3, 0);
    if (j + 2 < to) prefetch_net(n, j + 2, 1);
    if (j + 1 < to) prefetch_net(n, j + 1, 2);
    if (step_switch(n, w, todo[j], mt)) {
      w->err_switch = todo[j];
      return -1;
    }
  }
  return 0;
}

/* ---- threads: the switch phase split over workers ------------------------
 * Switches interact only through links of latency >= 1 and the end nodes
 * only read this cycle's slot, so within a cycle the steps of different
 * switches and the nodes' phase are independent; only the staging of
 * outputs into later slots is shared (each staged entry has one writer; the
 * masks and wake lists are updated with atomics). The carry lists are
 * merged in worker order; the order switches are stepped in does not change
 * any result, so any number of threads gives the same bytes. */
enum { CHUNK = 8 };

/* Claims up to CHUNK switches of todo from the front (worker threads) or
 * the back (the main thread, after the end nodes). */
static int claim(net *n, int back, uint32_t *from, uint32_t *to) {
  uint64_t v = __atomic_load_n(&n->range, __ATOMIC_RELAXED), nv;
  uint32_t lo, hi;
  do {
    lo = (uint32_t)v;
    hi = (uint32_t)(v >> 32);
    if (lo >= hi) return 0;
    if (back) {
      *to = hi;
      *from = hi - lo > CHUNK ? hi - CHUNK : lo;
      nv = (uint64_t)*from << 32 | lo;
    } else {
      *from = lo;
      *to = hi - lo > CHUNK ? lo + CHUNK : hi;
      nv = (uint64_t)hi << 32 | *to;
    }
  } while (!__atomic_compare_exchange_n(&n->range, &v, nv, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
  return 1;
}

static void work_chunks(net *n, net_worker *w, int back) {
  uint32_t from, to;
  while (!w->failed && claim(n, back, &from, &to))
    if (step_switches(n, w, from, to, 1)) w->failed = 1;
}

static void spin_until(const uint64_t *p, uint64_t want) {
  for (unsigned k = 0; __atomic_load_n(p, __ATOMIC_ACQUIRE) != want; k++) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (k >= 256) thrd_yield(); /* the other core may be busy elsewhere */
  }
}

static int worker_main(void *arg) {
  net_worker *w = arg;
  net *n = w->n;
  for (uint64_t round = 1;; round++) {
    spin_until(&n->go, round);
    if (n->quit) break;
    work_chunks(n, w, 0);
    __atomic_fetch_add(&n->done, 1, __ATOMIC_RELEASE);
  }
  return 0;
}

static void start_workers(net *n) {
  n->go = n->done = n->done_target = n->quit = 0;
  for (unsigned t = 1; t < n->nthreads; t++)
    if (thrd_create(&n->wk[t].thread, worker_main, &n->wk[t]) != thrd_success) {
      n->nthreads = t; /* run with the ones started (same results) */
      break;
    }
}

static void stop_workers(net *n) {
  if (n->nthreads < 2) return;
  __atomic_store_n(&n->quit, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&n->go, 1, __ATOMIC_RELEASE);
  for (unsigned t = 1; t < n->nthreads; t++) thrd_join(n->wk[t].thread, NULL);
}

/* §16.6: a flit of the reference fabric for node d, staged for its arrival cycle
 * (at = now + 1 + L: the slot end_nodes read this cycle, or a later one). */
static void vq_deliver(void *ctx, unsigned d, const asw_flit *f, uint64_t at) {
  net *n = ctx;
  size_t i = (size_t)(at % n->W) * n->N + d;
  n->sink_in[i] = *f;
  n->sink_valid[i] = 1;
}

static int step_cycle(net *n, int generating, int measuring) {
  const unsigned slot = (unsigned)(n->cycle % n->W);
  n->slot_now = slot;
  n->slot_fl = (unsigned)((n->cycle + n->L) % n->W);
  n->slot_cr = (unsigned)((n->cycle + n->LC) % n->W);
  size_t wi = (size_t)(n->cycle / n->cfg.window);
  n->ws = wi < n->nwin ? &n->win[wi] : NULL;
  if (n->vq) { /* §16.6: the end nodes, then the reference fabric */
    end_nodes(n, generating, measuring, 0);
    uint64_t hops = 0;
    int mv = vqn_step(n->vq, n->cycle, vq_deliver, n, &hops);
    if (mv < 0) {
      snprintf(n->err, sizeof n->err, "cycle %llu: voqnet: out of memory for packets",
               (unsigned long long)n->cycle);
      return -1;
    }
    n->r.flit_hops += hops;
    if (mv) n->last_progress = n->cycle;
    return 0;
  }
  /* switches to step: those with pending work or inputs this cycle, in the
   * order carried over, then woken (each once) */
  uint32_t *lists[3] = {n->carry, &n->wake[(size_t)slot * n->S], n->fault_touch};
  uint32_t counts[3] = {n->carry_n, n->wake_n[slot], 0};
  if (n->faults) { /* §18.6: pins that change now; the fabric manager */
    n->fault_touch_n = 0;
    int fm = faults_cycle(n->faults, n->cycle, n->sw, n->fault_touch, &n->fault_touch_n);
    if (n->obs.link) /* the pins from this cycle on, before its steps */
      for (uint32_t j = 0; j < n->fault_touch_n; j++) {
        uint64_t up, rx_up;
        faults_pins(n->faults, n->fault_touch[j], &up, &rx_up);
        n->obs.link(n->obs.ctx, n->fault_touch[j], n->cycle, up, rx_up);
      }
    if (fm) {
      catch_up_all(n, n->cycle);
      if (faults_fm(n->faults, n->sw, n->cycle) == UINT64_MAX) {
        snprintf(n->err, sizeof n->err, "link_fault: out of memory for the fabric manager");
        return -1;
      }
    }
    faults_fm_busy(n->faults, n->fault_touch, &n->fault_touch_n); /* their writes: stepped */
    faults_rx_down(n->faults, n->fault_touch, &n->fault_touch_n);  /* padding: stepped */
    counts[2] = n->fault_touch_n;
  }
  uint32_t nt = 0;
  for (int li = 0; li < 3; li++)
    for (uint32_t j = 0; j < counts[li]; j++) {
      unsigned s = lists[li][j];
      if (n->stepped_at[s] == n->cycle + 1) continue;
      n->stepped_at[s] = n->cycle + 1;
      if (n->pending[s]) { /* woken: first the steps it missed */
        catch_up(n, s, n->cycle);
        n->pending[s] = 0;
      }
      n->todo[nt++] = s;
    }
  for (unsigned t = 0; t < n->nthreads; t++) {
    net_worker *w = &n->wk[t];
    w->carry_n = 0;
    w->pend_n = 0;
    w->moved = 0;
    w->failed = 0;
  }
  if (n->nthreads < 2) {
    if (n->qcn) qcn_net_deliver(n->qcn, n->cycle); /* §17.5 */
    end_nodes(n, generating, measuring, 0);
    if (step_switches(n, &n->wk[0], 0, nt, 0)) n->wk[0].failed = 1;
  } else {
    n->range = (uint64_t)nt << 32;
    __atomic_fetch_add(&n->go, 1, __ATOMIC_RELEASE);
    end_nodes(n, generating, measuring, 1);
    work_chunks(n, &n->wk[0], 1);
    n->done_target += n->nthreads - 1;
    spin_until(&n->done, n->done_target);
  }
  /* merge the workers' results in worker order */
  n->wake_n[slot] = 0;
  uint32_t cn = 0;
  int moved = 0, failed = 0;
  unsigned bad = UINT32_MAX;
  for (unsigned t = 0; t < n->nthreads; t++) {
    net_worker *w = &n->wk[t];
    if (w->failed && w->err_switch < bad) {
      bad = w->err_switch;
      snprintf(n->err, sizeof n->err, "%s", w->err);
      failed = 1;
    }
    if (n->nthreads < 2) { /* the carry list was read into todo: swap */
      uint32_t *x = n->carry;
      n->carry = w->carry;
      w->carry = x;
    } else {
      memcpy(n->carry + cn, w->carry, w->carry_n * sizeof *w->carry);
    }
    cn += w->carry_n;
    memcpy(n->pend_list + n->pend_n, w->pend, w->pend_n * sizeof *w->pend);
    n->pend_n += w->pend_n;
    n->r.flit_hops += w->flit_hops;
    n->arn_at_nodes += w->arn_at_nodes;
    w->flit_hops = w->arn_at_nodes = 0;
    n->pause_frames += w->pause_frames;
    n->pause_storms += w->pause_storms;
    n->frames_dropped += w->frames_dropped;
    if (w->pause_max > n->pause_max) n->pause_max = w->pause_max;
    w->pause_frames = w->pause_storms = w->pause_max = w->frames_dropped = 0;
    moved |= w->moved;
  }
  n->carry_n = cn;
  if (failed) return -1;
  if (n->qcn && measuring && n->cycle % n->cfg.window == 0) qcn_queue_sample(n); /* §17.5 */
  if (n->sink_drop) { /* §17.3: lossless or an error */
    n->frames_dropped++;
    snprintf(n->err, sizeof n->err, "cycle %llu: frame dropped at end node %llu VC %llu: "
             "its buffer of %u flits overflowed (PFC headroom too small)",
             (unsigned long long)n->cycle, (unsigned long long)((n->sink_drop - 1) / n->V),
             (unsigned long long)((n->sink_drop - 1) % n->V), n->cfg.buffer_flits);
    return -1;
  }
  if (moved) n->last_progress = n->cycle;
  if (n->faults) { /* §18.6: the last cycle a flit was discarded */
    fault_sum(n);
    if (n->fault_fd != n->fault_fd_seen) n->fault_fd_seen = n->fault_fd, n->last_loss = n->cycle + 1;
  }
  return 0;
}

/* ---- ranks: the end-of-cycle exchange ------------------------------------
 * After the switch phase of a cycle every rank sends every other rank the
 * flits, credits and ARN messages its switches put on links to that rank's
 * switches this cycle (they arrive link_latency >= 1 cycles later, so they
 * are staged before they are due) and a header with its progress and flit
 * and packet counts, from which every rank derives the same global figures
 * for the watchdog and the drain. Returns 1 if any rank failed, 0, or -1 if
 * the transport failed. */
static int net_sync(net *n, int failed) {
  const unsigned R = n->R;
  size_t total = 0;
  for (unsigned r = 0; r < R; r++) {
    size_t len = 0;
    for (unsigned t = 0; t < n->nthreads; t++) len += n->wk[t].xo_n[r];
    n->x_off[r] = total * 8;
    n->x_len[r] = len * 8;
    total += len;
  }
  if (total > n->xbuf_cap) {
    size_t cap = total * 2;
    uint64_t *p = realloc(n->xbuf, cap * 8);
    if (!p) {
      snprintf(n->err, sizeof n->err, "out of memory for the rank exchange");
      failed = 1;
      total = 0;
      memset(n->x_len, 0, R * sizeof *n->x_len);
      memset(n->x_off, 0, R * sizeof *n->x_off);
    } else {
      n->xbuf = p;
      n->xbuf_cap = cap;
    }
  }
  for (unsigned r = 0; r < R; r++) {
    size_t at = n->x_off[r] / 8;
    for (unsigned t = 0; t < n->nthreads; t++) {
      net_worker *w = &n->wk[t];
      if (n->x_len[r]) memcpy(n->xbuf + at, w->xo[r], w->xo_n[r] * 8);
      at += w->xo_n[r];
      w->xo_n[r] = 0;
    }
    if (r != n->rank) n->x_bytes += n->x_len[r];
  }
  uint64_t *ho = n->x_hdr, *hi = n->x_hdr + (size_t)R * NET_NH;
  for (unsigned r = 0; r < R; r++) {
    uint64_t *h = &ho[(size_t)r * NET_NH];
    h[0] = n->last_progress;
    h[1] = n->injected_flits;
    h[2] = n->consumed_flits;
    h[3] = n->r.packets_generated;
    h[4] = n->r.packets_delivered;
    h[5] = (uint64_t)failed;
  }
  const void *in = NULL;
  size_t in_len = 0;
  if (n->comm.exchange(n->comm.ctx, NET_NH, ho, hi, n->xbuf, n->x_off, n->x_len, &in,
                       &in_len)) {
    snprintf(n->err, sizeof n->err, "rank %u: the exchange between ranks failed", n->rank);
    return -1;
  }
  n->x_syncs++;
  uint64_t g[NET_NH] = {0};
  for (unsigned r = 0; r < R; r++) {
    const uint64_t *h = &hi[(size_t)r * NET_NH];
    if (h[0] > g[0]) g[0] = h[0]; /* the latest progress anywhere */
    for (unsigned k = 1; k < NET_NH; k++) g[k] += h[k];
  }
  n->last_progress = g[0];
  n->g_injected = g[1];
  n->g_consumed = g[2];
  n->g_generated = g[3];
  n->g_delivered = g[4];
  if (g[5]) {
    if (!failed) snprintf(n->err, sizeof n->err, "another rank failed (see its message)");
    return 1;
  }
  /* stage what arrived (staged into this cycle's arrival slots, as if the
   * sending switch were local; the order does not matter: one writer per
   * entry) */
  const uint64_t *x = in, *end = x + in_len / 8;
  while (x < end) {
    unsigned kind = (unsigned)(x[0] & 3), vc = (unsigned)(x[0] >> 4 & 0xF),
             port = (unsigned)(x[0] >> 8 & 0xFF), slot = (unsigned)(x[0] >> 16 & 0xFFFF),
             sw = (unsigned)(x[0] >> 32);
    unsigned k = kind == X_FLIT ? 3 : kind == X_ARN ? 2 : 1;
    if (kind < X_FLIT || x + k > end || sw >= n->S || port >= n->P || slot >= n->W ||
        n->sw_owner[sw] != n->rank) {
      snprintf(n->err, sizeof n->err, "rank %u, cycle %llu: malformed message from "
               "another rank", n->rank, (unsigned long long)n->cycle);
      return 1;
    }
    if (kind == X_FLIT) {
      asw_flit f = {.valid = 1, .head = (uint8_t)(x[0] >> 2 & 1),
                    .tail = (uint8_t)(x[0] >> 3 & 1), .vc = (uint8_t)vc, .hdr = x[1],
                    .payload = x[2]};
      stage_flit_at(n, slot, sw, port, &f, 0);
    } else if (kind == X_CREDIT) {
      stage_credit_at(n, slot, sw, port, vc, 0);
    } else {
      stage_arn_at(n, slot, sw, port, (uint32_t)x[1], 0);
    }
    n->x_msgs++;
    x += k;
  }
  return 0;
}

/* §18.6: the switches' link-fault counters summed: flits discarded on down
 * links, packets discarded whole, padding flits. */
static void fault_sum(const net *cn) {
  net *n = (net *)cn; /* a copy of counters, not state of the run */
  if (!n->faults) return;
  n->fault_fd = n->fault_pd = n->fault_pad = 0;
  for (unsigned s = 0; s < n->S; s++) {
    uint32_t v[3];
    asw_reg_read(n->sw[s], ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_DISCARDED), &v[0]);
    asw_reg_read(n->sw[s], ASW_REG_LINK_COUNTER(ASW_LCNT_PACKETS_DISCARDED), &v[1]);
    asw_reg_read(n->sw[s], ASW_REG_LINK_COUNTER(ASW_LCNT_FLITS_PADDED), &v[2]);
    n->fault_fd += v[0];
    n->fault_pd += v[1];
    n->fault_pad += v[2];
  }
}

/* Global figures: this rank's alone in one process, else the last sync's.
 * With link faults (§18.6) flits discarded on a down link are not in flight
 * and padding flits were never injected; packets discarded whole or
 * delivered damaged are not in flight. */
static uint64_t g_inflight_flits(const net *n) {
  if (n->faults) {
    fault_sum(n);
    return n->injected_flits + n->fault_pad - n->consumed_flits - n->fault_fd;
  }
  return n->R > 1 ? n->g_injected - n->g_consumed : n->injected_flits - n->consumed_flits;
}
static int g_all_delivered(const net *n) {
  if (n->faults)
    return n->r.packets_delivered + n->pkts_damaged + n->pkts_bad + (fault_sum(n), n->fault_pd) ==
               n->r.packets_generated &&
           g_inflight_flits(n) == 0;
  if (n->R > 1) return n->g_delivered == n->g_generated && n->g_consumed == n->g_injected;
  return n->r.packets_delivered == n->r.packets_generated &&
         n->consumed_flits == n->injected_flits;
}

/* 1 if `v` on any rank (collective with ranks). */
static int any_rank(net *n, int v) {
  if (n->R == 1) return v;
  uint64_t u = v != 0;
  if (n->comm.sum(n->comm.ctx, &u, 1, NULL, 0)) return 1;
  return u != 0;
}

/* Sums what every rank measured into every rank's copy (collective). */
static int net_reduce(net *n) {
  hist *hs[4] = {&n->h_net, &n->h_e2e, &n->h_hot, &n->h_cold};
  size_t nu = 16 + 4 * (1 + (size_t)HIST_BUCKETS) + n->nwin * 7 + 2 + ASW_ACNT_NUM +
              (size_t)n->S * n->P;
  size_t nf = 4 + 4 + n->nwin;
  uint64_t *u = calloc(nu, 8);
  double *f = calloc(nf, sizeof *f);
  if (!u || !f) {
    free(u); free(f);
    snprintf(n->err, sizeof n->err, "out of memory reducing the results");
    return -1;
  }
  net_results tmp;
  n->reduced = 0;
  net_get_results(n, &tmp); /* this rank's register totals */
  uint64_t *rp[16] = {&n->r.packets_generated, &n->r.packets_refused, &n->r.packets_delivered,
                      &n->r.packets_measured, &n->r.duplicates, &n->r.order_violations,
                      &n->r.reordered, &n->r.adaptive_decisions, &n->r.flit_hops,
                      &n->arn_at_nodes, &n->adaptive_at_warmup, &n->injected_flits,
                      &n->consumed_flits, &n->r.adaptive_measured, &n->r.credit_stalls,
                      &n->r.route_errors};
  size_t k = 0, kf = 0;
  for (unsigned i = 0; i < 16; i++) u[k++] = *rp[i];
  for (unsigned h = 0; h < 4; h++) {
    u[k++] = hs[h]->count;
    for (unsigned b = 0; b < HIST_BUCKETS; b++) u[k++] = hs[h]->b[b];
    f[kf++] = hs[h]->sum;
  }
  for (size_t w = 0; w < n->nwin; w++) {
    window_stat *ws = &n->win[w];
    u[k++] = ws->offered; u[k++] = ws->accepted; u[k++] = ws->acc_hot;
    u[k++] = ws->acc_cold; u[k++] = ws->lat_count; u[k++] = ws->adaptive;
    u[k++] = ws->adapted;
    f[kf++] = ws->lat_sum;
  }
  u[k++] = tmp.route_errors;
  u[k++] = tmp.credit_stalls;
  size_t kac = k;
  u[kac + ASW_ACNT_ROOTS] = tmp.arn_roots;
  u[kac + ASW_ACNT_SENT] = tmp.arn_sent;
  u[kac + ASW_ACNT_RECEIVED] = tmp.arn_received;
  u[kac + ASW_ACNT_CONSUMED] = tmp.arn_consumed;
  u[kac + ASW_ACNT_EXPIRED] = tmp.arn_expired;
  u[kac + ASW_ACNT_ADAPTED] = tmp.arn_adapted;
  u[kac + ASW_ACNT_IN_DROPPED] = tmp.arn_in_dropped;
  u[kac + ASW_ACNT_OUT_DROPPED] = tmp.arn_out_dropped;
  u[kac + ASW_ACNT_EVICTED] = tmp.arn_evicted;
  k += ASW_ACNT_NUM;
  size_t kfo = k;
  for (unsigned s = 0; s < n->S; s++)
    for (unsigned p = 0; n->sw[s] && p < n->P; p++) {
      uint32_t v = 0;
      asw_reg_read(n->sw[s], ASW_REG_COUNTER(p, ASW_CNT_FLITS_OUT), &v);
      u[kfo + (size_t)s * n->P + p] = v;
    }
  f[kf++] = n->r.offered_load; f[kf++] = n->r.admitted_load;
  f[kf++] = n->r.accepted_hot; f[kf++] = n->r.accepted_cold;
  int rv = 0;
  if (n->comm.sum(n->comm.ctx, u, nu, f, nf)) {
    snprintf(n->err, sizeof n->err, "rank %u: the reduction of the results failed", n->rank);
    rv = -1;
  } else {
    k = 0; kf = 0;
    for (unsigned i = 0; i < 16; i++) *rp[i] = u[k++];
    for (unsigned h = 0; h < 4; h++) {
      hs[h]->count = u[k++];
      for (unsigned b = 0; b < HIST_BUCKETS; b++) hs[h]->b[b] = (uint32_t)u[k++];
      hs[h]->sum = f[kf++];
    }
    for (size_t w = 0; w < n->nwin; w++) {
      window_stat *ws = &n->win[w];
      ws->offered = u[k++]; ws->accepted = u[k++]; ws->acc_hot = u[k++];
      ws->acc_cold = u[k++]; ws->lat_count = u[k++]; ws->adaptive = u[k++];
      ws->adapted = u[k++];
      ws->lat_sum = f[kf++];
    }
    n->red_re = u[k++];
    n->red_cs = u[k++];
    for (unsigned i = 0; i < ASW_ACNT_NUM; i++) n->red_acnt[i] = u[kac + i];
    n->red_fout = malloc((size_t)n->S * n->P * sizeof *n->red_fout);
    if (!n->red_fout) {
      snprintf(n->err, sizeof n->err, "out of memory reducing the results");
      rv = -1;
    } else {
      for (size_t i = 0; i < (size_t)n->S * n->P; i++) n->red_fout[i] = (uint32_t)u[kfo + i];
      n->r.offered_load = f[kf++]; n->r.admitted_load = f[kf++];
      n->r.accepted_hot = f[kf++]; n->r.accepted_cold = f[kf++];
      n->reduced = 1;
    }
  }
  free(u);
  free(f);
  return rv;
}

int net_run(net *n, net_progress_fn progress, void *ctx) {
  const net_cfg *c = &n->cfg;
  uint64_t total = n->total;
  int status = NET_RUN_OK;
  n->last_progress = 0;
  /* From here on the switches are only stepped: locked, they skip state no
   * register setting reads (asw_switch_lock_config). Not under a lockstep
   * observer, which may program its switches further, nor with link faults,
   * whose fabric manager rewrites FWD entries during the run (§18.6). */
  if (!n->obs.step && !n->faults)
    for (unsigned s = 0; s < n->S; s++)
      if (n->sw[s]) asw_switch_lock_config(n->sw[s]);
  if (n->nthreads > 1) start_workers(n);
  n->next_sync = n->x_every ? n->x_every - 1 : 0;
  if (c->watchdog && c->watchdog < n->next_sync) n->next_sync = c->watchdog;
  for (n->cycle = 0;; n->cycle++) {
    int in_run = n->cycle < total;
    if (n->rp && trace_replay_done(n->rp) && g_all_delivered(n)) { /* trace complete */
      n->r.drained = 1;
      break;
    }
    if (!in_run) {
      if (!c->drain) break;
      if (g_all_delivered(n)) {
        n->r.drained = 1;
        break;
      }
      if (n->cycle - total >= c->drain_limit) {
        snprintf(n->err, sizeof n->err, "drain_limit: %llu packets still in "
                 "flight after %llu drain cycles",
                 (unsigned long long)(n->r.packets_generated - n->r.packets_delivered),
                 (unsigned long long)c->drain_limit);
        status = NET_RUN_ERROR;
        break;
      }
    }
    if (n->cycle == c->warmup) {
      catch_up_all(n, n->cycle);
      accumulate_adaptive(n, cur_win(n));
      n->adaptive_at_warmup = n->r.adaptive_decisions;
    }
    int measuring = in_run && n->cycle >= c->warmup;
    if (n->hot_rx && !n->hs_closed) { /* hs_packets: delivered by the previous cycle */
      uint64_t got = 0;
      for (unsigned t = 0; t < n->nhot; t++) got += n->hot_rx[n->hot_nodes[t]];
      if (got >= c->hs_packets) n->hs_closed = n->cycle;
    }
    int failed = n->x_failed || step_cycle(n, in_run, measuring) != 0;
    int synced = 1;
    if (n->R > 1) {
      /* Exchange every x_every cycles (what a link carries arrives that many
       * cycles later or more), every cycle from the last cycle of the run on
       * (the drain test), and at the cycle the watchdog would fire if
       * nothing moved anywhere since the last exchange. A rank that failed
       * stops stepping and says so at the next exchange. */
      synced = n->cycle >= n->next_sync || n->cycle + 1 >= total;
      if (failed) n->x_failed = 1;
      if (synced) {
        int g = net_sync(n, n->x_failed);
        if (g) { status = NET_RUN_ERROR; n->cycle++; break; }
        n->next_sync = n->cycle + n->x_every;
        uint64_t due = n->last_progress + c->watchdog;
        if (c->watchdog && due > n->cycle && due < n->next_sync) n->next_sync = due;
      }
    } else if (failed) { status = NET_RUN_ERROR; break; }
    if (in_run && (n->cycle + 1) % c->window == 0) {
      catch_up_all(n, n->cycle + 1);
      accumulate_adaptive(n, cur_win(n));
    }
    if (c->watchdog && synced && g_inflight_flits(n) &&
        n->cycle - n->last_progress >= c->watchdog) {
      report_add(n, "deadlock at cycle %llu: no flit moved for %llu cycles with "
                 "%llu flits in flight; blocked resources%s:\n",
                 (unsigned long long)n->cycle, (unsigned long long)c->watchdog,
                 (unsigned long long)g_inflight_flits(n),
                 n->R > 1 ? " (this rank's)" : "");
      catch_up_all(n, n->cycle + 1);
      describe_blocked(n);
      if (n->vq) /* §16.6: no switches to describe */
        report_add(n, "  voqnet reference fabric: %llu flits held in its input buffers\n",
                   (unsigned long long)vqn_buffered(n->vq));
      else if (n->R == 1) { /* the waiting channels' cycle (issue 14) */
        int k = find_dependency_cycle(n);
        if (k > 0) {
          report_add(n, "  channel-dependency cycle of %d channels (each input VC's head "
                     "packet waits for credits of the next):", k);
          for (unsigned j = 0; j <= n->dl_len; j++) {
            const net_dl_hop *h = &n->dl_cycle[j % n->dl_len];
            report_add(n, j ? " -> switch %u in%u.vc%u" : " switch %u in%u.vc%u", h->sw, h->in, h->vc);
            if (j < n->dl_len) report_add(n, " -> out%u.vc%u", h->out, h->out_vc);
          }
          report_add(n, "\n");
        } else {
          report_add(n, "  no channel-dependency cycle among the queue heads waiting for "
                     "credits%s\n", k < 0 ? " (out of memory: not searched)" : "");
        }
      }
      status = NET_RUN_WATCHDOG;
      n->cycle++;
      break;
    }
    if (c->starvation && (n->cycle & 1023) == 1023 && (catch_up_all(n, n->cycle + 1), 1) &&
        any_rank(n, check_starvation(n))) {
      status = NET_RUN_WATCHDOG;
      n->cycle++;
      break;
    }
    if (progress && (n->cycle & 255) == 0) progress(ctx, n->cycle, total);
  }
  stop_workers(n);
  if (n->rp && status == NET_RUN_OK && !trace_replay_done(n->rp)) { /* traffic=trace */
    trace_stats ts;
    trace_replay_stats(n->rp, &ts);
    snprintf(n->err, sizeof n->err, "cycles: the trace did not complete: %llu of %llu messages "
             "delivered after %llu cycles (raise cycles%s)", (unsigned long long)ts.messages_delivered,
             (unsigned long long)ts.messages, (unsigned long long)n->cycle,
             c->drain ? " or drain_limit" : ", or set drain=1");
    status = NET_RUN_ERROR;
  }
  catch_up_all(n, n->cycle);
  if (n->total % c->window && n->cycle >= n->total) accumulate_adaptive(n, &n->win[n->nwin - 1]);
  else accumulate_adaptive(n, NULL);
  n->r.cycles_run = n->cycle;
  if (n->R > 1 && net_reduce(n)) status = NET_RUN_ERROR;
  return status;
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
  if (n->faults) { /* §18.6: lost packets are not in flight */
    fault_sum(n);
    out->in_flight -= n->pkts_damaged + n->pkts_bad + n->fault_pd;
  }
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
  out->route_errors = n->reduced ? n->red_re : re; /* reduced: all ranks' */
  out->credit_stalls = n->reduced ? n->red_cs : cs;
  uint64_t acnt[ASW_ACNT_NUM] = {0};
  if (n->reduced) memcpy(acnt, n->red_acnt, sizeof acnt);
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
  out->pause_frames = n->pause_frames;
  out->pause_storms = n->pause_storms;
  out->pause_max_cycles = n->pause_max;
  out->frames_dropped = n->frames_dropped;
  if (n->pfc) /* pauses still open at the end count with their length so far */
    for (size_t k = 0; k < ((size_t)n->S * n->P + n->N) * n->V; k++)
      if (n->pause_since[k]) {
        uint64_t len = n->cycle + 1 - n->pause_since[k];
        if (len > out->pause_max_cycles) out->pause_max_cycles = len;
        if (n->cfg.pfc_storm && len > n->cfg.pfc_storm) out->pause_storms++;
      }
}

/* §18.6: the "link_faults" object. Throughput per window (`window` cycles,
 * delivered flits per node and cycle): the mean of the measured windows
 * before the first link went down, the lowest window after it, and
 * recovery_cycles, from that first down event to the end of the last window
 * after it below 95 % of that mean (0: none); last_loss, the last cycle a
 * flit was discarded (-1: none), and loss_cycles from the first down event
 * to the end of it. */
static void fault_json(const net *n, FILE *f) {
  uint64_t downs, runs, entries, first, cnt[ASW_LCNT_NUM] = {0};
  faults_stats(n->faults, &downs, &runs, &entries, &first);
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
          (unsigned long long)n->pkts_damaged, (unsigned long long)n->pkts_bad,
          (unsigned long long)(n->pkts_damaged + cnt[ASW_LCNT_PACKETS_DISCARDED]),
          (unsigned long long)runs, (unsigned long long)entries,
          first == UINT64_MAX ? -1ll : (long long)first, (long long)n->last_loss - 1,
          (unsigned long long)(n->last_loss && first != UINT64_MAX ? n->last_loss - first : 0),
          base, low < 0 ? 0.0 : low,
          (unsigned long long)(last_low == SIZE_MAX ? 0 : (last_low + 1) * W - first));
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
  static const char *const tnames[] = {"uniform", "hotspot", "ihs", "bitrev", "transpose",
                                       "shuffle", "bitcomp", "tornado"};
  if (n->cfg.traffic == TRAFFIC_HOTSPOT) {
    fprintf(f, ", \"traffic_name\": \"hs%.0f-%u\"", n->cfg.hs_fraction * 100, n->nhot);
    if (n->hot_rx) /* hs_packets: the cycle the hot flows ended (null: still open) */
      fprintf(f, n->hs_closed ? ", \"hs_closed_cycle\": %llu" : ", \"hs_closed_cycle\": null",
              (unsigned long long)n->hs_closed);
  } else if (n->cfg.traffic == TRAFFIC_TRACE)
    fprintf(f, ", \"traffic_name\": \"trace\"");
  else if (n->cfg.traffic == TRAFFIC_FLOW)
    fprintf(f, ", \"traffic_name\": \"flow%u-%u\"", n->cfg.flow_src, n->cfg.flow_dst);
  else
    fprintf(f, ", \"traffic_name\": \"%s\"", tnames[n->cfg.traffic]);
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
  if (n->rp) net_trace_json(n, f); /* traffic=trace */
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
  if (n->pfc)
    fprintf(f, "  \"pfc\": {\"frames_dropped\": %llu, \"pause_frames\": %llu, "
            "\"pause_max_cycles\": %llu, \"pause_storms\": %llu},\n",
            (unsigned long long)r.frames_dropped, (unsigned long long)r.pause_frames, (unsigned long long)r.pause_max_cycles,
            (unsigned long long)r.pause_storms);
  if (n->faults) fault_json(n, f); /* §18.6 */
  if (n->qcn) { /* §17.5 */
    qcn_net_stats q;
    qcn_net_get_stats(n->qcn, &q);
    if (n->lane) { /* §17.9: what the switches' lanes carried (their §17.8 counters) */
      uint64_t sc[ASW_SCNT_NUM] = {0};
      lane_counts(n, sc);
      fprintf(f, "  \"cnm_lane\": {\"cnm_snooped\": %llu, \"cnm_forwarded\": %llu, "
              "\"cnm_dropped\": %llu, \"cnm_unroutable\": %llu, \"sar_evicted\": %llu, "
              "\"sar_expired\": %llu, \"ar_timer_cycles\": %llu},\n",
              (unsigned long long)(sc[ASW_SCNT_TX] + sc[ASW_SCNT_UNROUTABLE]),
              (unsigned long long)sc[ASW_SCNT_TX], (unsigned long long)sc[ASW_SCNT_DROPPED],
              (unsigned long long)sc[ASW_SCNT_UNROUTABLE], (unsigned long long)sc[ASW_SCNT_EVICTED],
              (unsigned long long)sc[ASW_SCNT_EXPIRED],
              (unsigned long long)n->sar_ttl << n->sar_ts);
    }
    fprintf(f, "  \"qcn\": {\"cnm_sent\": %llu, \"cnm_delivered\": %llu, \"rl\": %d, "
            "\"rl_created\": %llu, \"rl_released\": %llu, \"rl_active\": %llu, "
            "\"rl_min_rate\": %.6g, \"qlen_max_flits\": %llu, \"qlen_max_mean_flits\": %.1f},\n",
            (unsigned long long)(n->lane ? n->cnm_generated : q.cnm_sent),
            (unsigned long long)q.cnm_delivered, n->qcn_rl,
            (unsigned long long)q.rl_created, (unsigned long long)q.rl_released,
            (unsigned long long)q.rl_active, q.rl_min_rate, (unsigned long long)q.qlen_max,
            q.qlen_max_mean);
  }
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
        if (n->reduced) v = n->red_fout[(size_t)sw * n->P + p];
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
          cpu > 0 ? (double)r.flit_hops / cpu : 0.0, n->nthreads, n->R);
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
  if (n->rp) { /* traffic=trace */
    trace_stats ts;
    trace_replay_stats(n->rp, &ts);
    fprintf(f, "trace: %llu of %llu messages delivered, completion %llu cycles (lower bound %llu)\n",
            (unsigned long long)ts.messages_delivered, (unsigned long long)ts.messages,
            (unsigned long long)ts.completion, (unsigned long long)ts.lower_bound);
  }
  if (n->cfg.arn || n->cfg.afi)
    fprintf(f, "ARN: roots %llu, sent %llu, received %llu, consumed %llu, expired %llu, "
            "packets adapted %llu, at end nodes %llu\n",
            (unsigned long long)r.arn_roots, (unsigned long long)r.arn_sent,
            (unsigned long long)r.arn_received, (unsigned long long)r.arn_consumed,
            (unsigned long long)r.arn_expired, (unsigned long long)r.arn_adapted,
            (unsigned long long)r.arn_at_nodes);
  if (n->qcn) { /* §17.5 */
    qcn_net_stats q;
    qcn_net_get_stats(n->qcn, &q);
    fprintf(f, "QCN: CNMs sent %llu delivered %llu; rate limiters %s, created %llu, active %llu, "
            "lowest rate %.4g; largest CP queue mean %.1f max %llu flits\n",
            (unsigned long long)(n->lane ? n->cnm_generated : q.cnm_sent),
            (unsigned long long)q.cnm_delivered, n->qcn_rl ? "on" : "off", (unsigned long long)q.rl_created,
            (unsigned long long)q.rl_active, q.rl_min_rate, q.qlen_max_mean,
            (unsigned long long)q.qlen_max);
    if (n->lane) { /* §17.9 */
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
  if (n->pfc) {
    fprintf(f, "PFC: frames dropped %llu, pause frames %llu, longest pause %llu cycles\n",
            (unsigned long long)r.frames_dropped, (unsigned long long)r.pause_frames, (unsigned long long)r.pause_max_cycles);
    if (r.pause_storms)
      fprintf(f, "PFC: %llu pause storms (pauses longer than pfc_storm = %llu cycles)\n",
              (unsigned long long)r.pause_storms, (unsigned long long)n->cfg.pfc_storm);
  }
  if (n->faults) { /* §18.6 */
    uint64_t downs, runs, entries, first;
    faults_stats(n->faults, &downs, &runs, &entries, &first);
    fault_sum(n);
    fprintf(f, "link faults: %llu down events; packets lost %llu (%llu discarded on down links, "
            "%llu cut and discarded by their sinks, %llu bad); fabric manager: %llu runs, %llu "
            "entries; last loss %lld cycles after the first fault\n", (unsigned long long)downs,
            (unsigned long long)(n->fault_pd + n->pkts_damaged), (unsigned long long)n->fault_pd,
            (unsigned long long)n->pkts_damaged, (unsigned long long)n->pkts_bad,
            (unsigned long long)runs, (unsigned long long)entries,
            n->last_loss && first != UINT64_MAX ? (long long)(n->last_loss - first) : -1ll);
  }
}

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
  n->trc = trace_load(c->trace_path, err, errlen);
  if (!n->trc) return -1;
  n->rp = trace_replay_new(n->trc, n->N, c->packet_flits, TRACE_FLIT_BYTES, c->trace_path, err,
                           errlen); /* names the line of a message with a node >= N */
  if (!n->rp) return -1;
  if (trace_nodes(n->trc) > n->N) {
    snprintf(err, errlen, "traffic: trace %s is for %u nodes, the network has %u", c->trace_path,
             trace_nodes(n->trc), n->N);
    return -1;
  }
  trace_replay_lower_bound(n->rp, trace_path, n);
  return 0;
}

static unsigned inj_len(const net *n, unsigned s, const node *nd, unsigned vc) {
  if (!n->rp) return n->len;
  /* the packet inject() would take from this VC: the head of its next queue */
  const dest_q *dq = &n->dq[((size_t)s * n->V + vc) * n->cap];
  const src_pkt *pool = &n->pool[(size_t)s * n->cap];
  return pool[dq[nd->rr[vc] % nd->nactive[vc]].head].len;
}

/* Queues one packet of `len` flits for dest; 0 if the admission queues are full. */
static int trace_queue(net *n, unsigned s, node *nd, unsigned dest, unsigned len, int measuring) {
  unsigned sl = source_sl(n, s, dest);
  unsigned vc = sl % n->Q;
  dest_q *dq = &n->dq[((size_t)s * n->V + vc) * n->cap];
  unsigned qi = NIL16;
  if (nd->queued >= n->cap) return 0;
  if (n->dmap) {
    unsigned m = n->dmap[(size_t)s * n->N + dest];
    if (m) qi = m - 1;
  } else {
    for (unsigned i = 0; i < nd->nactive[vc]; i++)
      if (dq[i].dest == dest) { qi = i; break; }
  }
  if (qi != NIL16 && dq[qi].count >= n->dest_cap) return 0;
  if (n->next_id >= 0xFFFFFFFFull || grow_bits(n, n->next_id)) return 0;
  if (trace_replay_take(n->rp, s, (uint32_t)n->next_id)) return 0;
  window_stat *ws = n->ws;
  if (ws) ws->offered += len;
  if (measuring) {
    n->r.offered_load += len;
    n->r.admitted_load += len;
  }
  src_enqueue(n, s, nd, dq, qi, dest, sl, vc, len, 0);
  return 1;
}

static void trace_feed(net *n, unsigned s, node *nd, int measuring) {
  unsigned dest, len;
  while (trace_replay_peek(n->rp, s, n->cycle, &dest, &len))
    if (!trace_queue(n, s, nd, dest, len, measuring)) break;
}

static void net_trace_json(const net *n, FILE *f) {
  trace_stats ts;
  trace_replay_stats(n->rp, &ts);
  fprintf(f, "  \"trace\": {\"messages\": %llu, \"packets\": %llu, \"flits\": %llu, \"bytes\": %llu, "
          "\"dependencies\": %llu, \"messages_delivered\": %llu, \"packets_delivered\": %llu, "
          "\"completion_cycles\": %llu, \"completion_us\": %.3f, \"lower_bound_cycles\": %llu, "
          "\"errors\": %llu},\n",
          (unsigned long long)ts.messages, (unsigned long long)ts.packets,
          (unsigned long long)ts.flits, (unsigned long long)ts.bytes,
          (unsigned long long)ts.dependencies, (unsigned long long)ts.messages_delivered,
          (unsigned long long)ts.packets_delivered, (unsigned long long)ts.completion,
          (double)ts.completion * n->cfg.cycle_ns / 1000.0, (unsigned long long)ts.lower_bound,
          (unsigned long long)n->trace_errors);
}

/* --trace-out: every packet the synthetic traffic admits, as a trace message of
 * packet_flits flits sent in the cycle it was generated. */
static void net_trace_record(net *n, unsigned s, unsigned dest, uint32_t id) {
  char e[128];
  if (trace_add(n->rec, n->cycle, id, s, dest,
                n->len * TRACE_FLIT_BYTES, NULL, 0, e, sizeof e) < 0 && !n->err[0])
    snprintf(n->err, sizeof n->err, "trace-out: %s", e);
}

int net_record_trace(net *n, trace *t) {
  if (n->R > 1 || n->cfg.traffic == TRAFFIC_TRACE) return -1;
  n->rec = t;
  return trace_set_nodes(t, n->N, n->err, sizeof n->err);
}
