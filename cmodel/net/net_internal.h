/* net_internal.h — the network simulator's internal state and the helpers its
 * files share (not installed; the public interface is network.h).
 *
 * Files of the simulator by concern (cmodel/net/README.md):
 *   network.c      building and freeing a network, accessors
 *   net_cycle.c    the cycle loop (net_run, one cycle)
 *   net_switch.c   stepping switches, staging their outputs, idle switches
 *   net_endnode.c  end nodes: sinks, admission queues, injection
 *   net_traffic.c  traffic patterns and injection processes (tables)
 *   net_stats.c    histograms, windows, results, the JSON / CSV / text writers
 *   net_parallel.c threads and MPI ranks behind one interface (net_par_*)
 *   net_watchdog.c deadlock and starvation reports
 *   net_mech.c     the registry of optional mechanisms (net_mech hooks), one
 *                  mech_*.c each: PFC, route hash + port gap, QCN and the CNM
 *                  lane, link faults, trace replay, VOQnet */
#ifndef NET_INTERNAL_H
#define NET_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <threads.h>

#include "../asw_switch.h"
#include "cube_tables.h" /* §16.4 */
#include "faults.h"
#include "network.h"
#include "qcn_net.h"
#include "tables.h"
#include "topofile.h" /* §16.5 */
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
static inline void hist_add(hist *h, uint64_t v) {
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
  uint16_t queued, free_head; /* free_head: the pool's free list (LIFO, NIL16: empty) */
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
  uint16_t fresh; /* pool packets [fresh, cap) never used: handed out, in order, when
                     the free list is empty (the pool is not written at set-up) */
} node;

typedef struct {
  uint64_t offered, accepted, acc_hot, acc_cold, lat_count, adaptive, adapted;
  double lat_sum;
} window_stat;

/* What is staged for one switch in one slot: the masks of its inputs, whether
 * it is on the slot's wake list and the VC of each credit. One record of
 * net.st_stride bytes (a cache line for P <= 39) per switch and slot, so a
 * credit touches one line and a flit one besides its entry. */
typedef struct {
  uint64_t flit_mask, cr_mask, arn_mask;
  uint8_t woken;
  uint8_t cr_vc[]; /* [P] VC of the credit of port p (cr_mask) */
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
  int moved1;              /* cycle pairs: a flit moved in a step of t+1 */
  uint64_t cyc;            /* the cycle it steps and its slots (net.slot_now, */
  unsigned now, fl, cr;    /* slot_fl, slot_cr; a pair's t+1 step: those of t+1) */
  unsigned err_switch;
  char err[512];
} net_worker;

/* Threads (cfg.threads; 1 with an observer): net_parallel.c. */
typedef struct {
  unsigned nthreads, nwk;   /* threads running, workers allocated */
  net_worker *wk;           /* [nwk] */
  uint64_t range;           /* todo entries left: hi << 32 | lo */
  uint64_t go, done, done_target;
  int quit;
} net_threads;

/* A distributed run (cfg.ranks > 1, see net_comm): net_parallel.c. */
typedef struct {
  net_comm comm;
  uint16_t *sw_owner;        /* [S] rank of each switch */
  uint64_t g_injected, g_consumed, g_generated, g_delivered; /* all ranks */
  uint64_t msgs, bytes, syncs;
  unsigned every;            /* lookahead: min(link_latency, credit_latency) */
  uint64_t next_sync;        /* cycle at whose end the next exchange is */
  int failed;                /* this rank failed; tell the others at the sync */
  uint64_t *xbuf; size_t xbuf_cap; /* one sync's records, rank after rank */
  size_t *off, *len;         /* [R] bytes */
  uint64_t *hdr;             /* [2*R*NET_NH] */
  /* after the final reduction: the register totals of all ranks */
  int reduced;
  uint64_t red_re, red_cs, red_acnt[ASW_ACNT_NUM];
  uint32_t *red_fout;        /* [S*P] FLITS_OUT counters */
} net_ranks;

/* §17.3 PFC (cfg.flow_control = pfc): every port a PFC port. mech_pfc.c. */
typedef struct {
  int on;
  unsigned xoff, xon;
  uint8_t *sink_want, *sink_sent, *sink_ptr; /* [N] slow sinks' PFC state */
  uint64_t *pause_since; /* [(S*P + N) * V] cycle + 1 a priority was paused, 0: resumed */
  uint64_t frames, max, storms, dropped; /* pause frames, longest pause, storms, drops */
  uint64_t sink_drop;    /* 1 + d*V + vc of a slow sink that overflowed, 0 none */
} net_pfc;

/* §17.5 QCN (cfg.qcn) and §17.8/§17.9 the CNM lane: mech_qcn.c. */
typedef struct {
  qcn_net *qcn;              /* CNM transport and reaction points; NULL when off */
  int rl;                    /* rate limiters gate the sources (cfg.rl) */
  uint64_t *cnm_buf;         /* [P] one switch's CNM words */
  int lane;                  /* cnm_path = lane: words staged per slot like flits */
  unsigned sar_ttl, sar_ts;  /* SAR_TTL of every switch (from ar_timer_us) */
  uint64_t *st_cnm_mask;     /* [W*S] */
  uint64_t *st_cnm;          /* [W*S*P] */
  uint64_t *out_cnm;         /* [P] one switch's lane outputs */
  uint64_t cnm_generated;    /* CNMs the congestion points put on their outputs */
} net_cong;

/* §18.6 link faults (faults.h; faults NULL without link_fault / link_fault_rate):
 * mech_faults.c. */
typedef struct {
  net_faults *faults;
  uint32_t *touch, touch_n;  /* [3S] switches whose pins changed this cycle, then
                              * those with fabric-manager writes queued, then
                              * those with an input link down */
  uint64_t pad_payload;      /* payload of a padding flit: PW ones */
  uint64_t pkts_damaged, pkts_bad; /* arrived padded; arrived with a wrong flit */
  uint64_t fd, pd, pad;      /* sums of the switches' §18.4 counters */
  uint64_t fd_seen, last_loss; /* flits discarded so far; 1 + last cycle one was */
} net_lf;

/* traffic=trace (trace.h): the trace, its replay state; rec: the packets
 * generated, for net_record_trace. mech_trace.c. */
typedef struct {
  trace *trc;
  trace_replay *rp;
  trace *rec;
  uint64_t errors;           /* deliveries the replay did not expect */
} net_tr;

typedef struct net_traffic net_traffic;     /* net_traffic.c */
typedef struct net_injection net_injection; /* net_traffic.c */

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
  st_head *st;                          /* [W*S] records of st_stride bytes (st_at) */
  size_t st_stride;
  asw_flit *st_flit;                    /* [W*S*P] */
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
  /* Cycle pairs (net_cycle.c): what a switch sends arrives two or more cycles
   * later, so cycles t and t+1 of different switches are independent and each
   * switch can take both of its steps in a row while its state is in cache.
   * pairs: the configuration allows it (one rank, no mechanism with
   * per-cycle hooks, no ARN, W one slot deeper); pair: 1 in the first cycle of
   * a pair (switches step t and, if due, t+1), 2 in the second (only the
   * switches first woken for t+1), else 0; pair_moved: a flit moved at t+1
   * (net_worker.moved1 of all workers). */
  int pairs, pair, pair_moved;
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
  src_pkt *pool;   /* [cap*N]: packet k of source s at k*N + s (src_at), so the few
                      packets each source holds share pages and lines with its neighbours' */
  dest_q *dq;      /* active destination queues per source and VC, in blocks of
                      DQ_BLOCK (one cache line) block-major (dq_at): the first
                      queues of all sources are together, the rest never touched */
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
  const net_traffic *traffic;     /* the pattern (net_traffic.c) */
  const net_injection *inj;       /* the injection process (net_traffic.c, mech_trace.c) */
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
  uint64_t adaptive_at_warmup;
  int warm_snapshot_taken;
  char routing_name[64];
  char err[512];
  char *report; size_t report_len, report_cap;
  net_dl_hop *dl_cycle; unsigned dl_len; /* channel-dependency cycle of a deadlock */
  asw_config sw_cfg;   /* parameters of every switch */
  net_observer obs;    /* lockstep observer (tb/net), zero if none */
  int observed;        /* built with an observer (net_new_observed) */
  unsigned prog_switch; /* switch being programmed (observer's reg_write) */
  /* this process's share of a distributed run (cfg.ranks > 1): the rest in rk */
  unsigned rank, R;
  unsigned node_lo, node_hi; /* end nodes of this rank: [node_lo, node_hi) */
  /* the concerns with state of their own (the types above) */
  net_threads th;  /* net_parallel.c: threads */
  net_ranks rk;    /* net_parallel.c: ranks */
  net_pfc pfc;     /* mech_pfc.c: §17.3 PFC */
  net_cong cg;     /* mech_qcn.c: §17.5 QCN, §17.9 the CNM lane */
  net_lf lf;       /* mech_faults.c: §18.6 link faults */
  net_tr tr;       /* mech_trace.c: trace replay, --trace-out */
  /* mech_voqnet.c: §16.6 sqs = voqnet, the reference fabric in place of the switches
   * (all NULL); the end nodes use one VC (V = 1), their credits are the fabric's per
   * destination */
  vqn *vq;
};

/* A switch port whose peer switch another rank simulates (in n->peer). */
enum { PEER_REMOTE = 3 };
/* Words of the per-sync header each rank sends every rank. */
enum { NET_NH = 6 };

/* Records on the wire between ranks (64-bit words): word 0 = kind | head << 2 |
 * tail << 3 | vc << 4 | port << 8 | arrival slot << 16 | switch << 32, then hdr
 * and payload for a flit, the message for an ARN, nothing for a credit. */
enum { X_FLIT = 1, X_CREDIT = 2, X_ARN = 3 };
static inline uint64_t x_word0(unsigned kind, topo_peer pe, unsigned slot, unsigned vc,
                               unsigned head, unsigned tail) {
  return kind | (uint64_t)head << 2 | (uint64_t)tail << 3 | (uint64_t)vc << 4 |
         (uint64_t)pe.port << 8 | (uint64_t)slot << 16 | (uint64_t)pe.id << 32;
}

/* ---- per-cycle helpers ---------------------------------------------------- */
/* Queue qi of source s's VC vc. */
enum { DQ_BLOCK = 8 };
static inline dest_q *dq_at(const net *n, unsigned s, unsigned vc, unsigned qi) {
  return &n->dq[(((size_t)(qi / DQ_BLOCK) * n->V + vc) * n->N + s) * DQ_BLOCK + qi % DQ_BLOCK];
}
/* Packet k of source s's pool. */
static inline src_pkt *src_at(const net *n, unsigned s, unsigned k) {
  return &n->pool[(size_t)k * n->N + s];
}

/* The staging record of entry i = slot * S + switch. */
static inline st_head *st_at(const net *n, size_t i) {
  return (st_head *)((char *)n->st + i * n->st_stride);
}

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
  st_head *h = st_at(n, i);
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
  st_head *h = st_at(n, i);
  h->cr_vc[port] = (uint8_t)vc;
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
  st_head *h = st_at(n, i);
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

/* §17.3: one PFC frame (credit channel, flips the priority's pause state) for
 * priority v of the link that pause_since entry k tracks: counts it, and the
 * pause's length when it resumes. */
static inline void pause_track(net *n, size_t k, uint64_t *frames, uint64_t *mx,
                               uint64_t *storms) {
  uint64_t *ps = &n->pfc.pause_since[k];
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

/* ---- network.c ------------------------------------------------------------- */
/* Register write to the switch being programmed (n->prog_switch), shown to the
 * observer; the callback of the table generators (ctx: the net). */
int net_reg_write_cb(void *ctx, uint32_t addr, uint32_t data);

/* ---- net_switch.c: the switch phase ---------------------------------------- */
/* Steps todo[from..to) (mt: staging with atomics). 0, or -1 with the message in
 * w->err and the switch in w->err_switch. */
int net_step_switches(net *n, net_worker *w, uint32_t from, uint32_t to, int mt);
int net_step_switch_pairs(net *n, net_worker *w, uint32_t from, uint32_t to, int mt);
/* Makes up the steps pending switch s missed before cycle `upto`; all of them. */
void net_catch_up(net *n, unsigned s, uint64_t upto);
void net_catch_up_all(net *n, uint64_t upto);
/* Staging and step lists (after W, S, P): 0, or -1 out of memory; freeing them. */
int net_switches_build(net *n);
void net_switches_free(net *n);

/* ---- net_endnode.c: sinks, admission queues, injection --------------------- */
/* The admission queue of source s for dest among the queues of its VC vc (an
 * index for dq_at), NIL16 if dest has none. */
static inline unsigned dest_queue(const net *n, unsigned s, const node *nd, unsigned vc,
                                  unsigned dest) {
  if (n->dmap) {
    unsigned m = n->dmap[(size_t)s * n->N + dest];
    return m ? m - 1 : NIL16;
  }
  const dest_q *q = NULL;
  for (unsigned i = 0; i < nd->nactive[vc]; i++, q++) {
    if (i % DQ_BLOCK == 0) q = dq_at(n, s, vc, i);
    if (q->dest == dest) return i;
  }
  return NIL16;
}
/* End-node state (after N, V, W, cap): 0, or -1 out of memory; freeing it. */
int net_nodes_build(net *n);
void net_nodes_free(net *n);
/* The nodes' phase of a cycle (mt: staging with atomics). */
void net_end_nodes(net *n, int generating, int measuring, int mt);
/* Node state of this rank's nodes: random streams, pools, credits, sink rates. */
void net_nodes_init(net *n);
/* Room in the delivered-id bitmap for id; -1 out of memory. */
int net_grow_bits(net *n, uint64_t id);
/* Takes a packet from source s's pool and appends it to destination queue qi of
 * its VC (NIL16: a new queue for dest); returns the packet's id. The caller has
 * checked the pool, the queue's capacity and the id space. */
uint32_t net_src_enqueue(net *n, unsigned s, node *nd, unsigned qi, unsigned dest,
                         unsigned sl, unsigned vc, unsigned len, int hot);

/* ---- net_traffic.c: traffic patterns and injection processes ---------------- */
/* A traffic pattern: one row of the table in net_traffic.c. */
struct net_traffic {
  int kind;              /* TRAFFIC_* (netcfg.h) */
  const char *name;      /* the JSON's traffic_name (NULL: json_name) */
  /* destinations drawn at random for each packet (else perm_dest of each node) */
  int random_dest;
  int pow2; /* perm needs N a power of two (2: with an even exponent) */
  /* permutation: the destination of node s of N = 2^bits (NULL: none) */
  unsigned (*perm)(unsigned s, unsigned N, int bits);
  /* set-up after the permutations (roles, hot spots): 0 or -1 with n->err */
  int (*setup)(net *n);
  void (*json_name)(const net *n, FILE *f); /* the traffic_name when name is NULL */
};
/* An injection process: when a node generates packets. */
struct net_injection {
  const char *name;
  void (*init)(net *n, node *nd);                             /* before cycle 0 */
  void (*step)(net *n, unsigned s, node *nd, int measuring);  /* once a cycle */
};
extern const net_injection net_inj_bernoulli; /* inlined in net_end_nodes */
/* The pattern, hot spots and roles of cfg.traffic; 0 or -1 with n->err. */
int net_traffic_setup(net *n);
/* trace_hs (mech_trace.c, after the trace is loaded): the hot spots, and hot sources
 * drawn among the nodes whose busy[] is 0; 0 or -1 with n->err. */
int net_trace_hotspot_setup(net *n, const uint8_t *busy);
/* The injection process's state of every node (after net_traffic_setup). */
void net_injection_init(net *n);
/* The SL (= VC) source s gives a packet to dest: a function of both. */
unsigned net_source_sl(const net *n, unsigned s, unsigned dest);
/* One packet of the synthetic traffic at source s (admitted or refused). */
void net_generate(net *n, unsigned s, node *nd, int measuring);
/* Bernoulli: the cycle of the node's next packet after `from`. */
void net_geometric_next(net *n, node *nd, uint64_t from);
void net_traffic_json_name(const net *n, FILE *f);

/* ---- net_stats.c ------------------------------------------------------------ */
/* Windows and counter snapshots (after total, S, P): 0, or -1 out of memory; freeing. */
int net_stats_build(net *n);
void net_stats_free(net *n);
/* Adaptive decisions (and ARN-adapted packets) since the last call, into ws too. */
void net_accumulate_adaptive(net *n, window_stat *ws);

/* ---- net_parallel.c: threads and ranks --------------------------------------
 * One interface for both: a run is built (net_par_build), started and stopped
 * around the cycles; each cycle's nodes' and switches' phase runs over the
 * threads (net_par_phase), ranks exchange what crosses between them
 * (net_par_exchange) and agree (net_par_any); the results are summed over the
 * ranks at the end (net_par_reduce). One thread and one rank are the plain case. */
int net_par_build(net *n, char *err, size_t errlen);
void net_par_free(net *n);
void net_par_start(net *n);
void net_par_stop(net *n);
/* The end nodes and the todo[0..nt) switches of this cycle; the workers' results
 * merged in worker order. 0, or -1 with n->err; *moved: a flit left a switch. */
int net_par_phase(net *n, uint32_t nt, int generating, int measuring, int *moved);
/* Ranks: the end-of-cycle exchange. 1 if any rank failed, 0, -1 transport. */
int net_par_exchange(net *n, int failed);
/* 1 if v on any rank (collective with ranks). */
int net_par_any(net *n, int v);
/* Sums what every rank measured into every rank's copy (collective). */
int net_par_reduce(net *n);
/* Queues k words for rank r (a link to a switch of another rank). */
int net_xo_push(net_worker *w, unsigned r, const uint64_t *words, unsigned k);

/* ---- net_watchdog.c --------------------------------------------------------- */
void net_report_add(net *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sources starving for starvation cycles: reported; 1 if any. */
int net_check_starvation(net *n);
/* The deadlock report: blocked resources and the channel-dependency cycle. */
void net_watchdog_deadlock(net *n, uint64_t inflight);

/* ---- net_mech.c: optional mechanisms ----------------------------------------
 * A mechanism (PFC, QCN and the CNM lane, link faults, trace replay, VOQnet, the
 * route hash and port gaps) is a mech_*.c file with a net_mech of hooks and a row
 * of the registry in net_mech.c; each hook may be NULL and is called only when the
 * mechanism is on (`on`). The per-flit hot path (net_switch.c, net_endnode.c)
 * tests the mechanism's own field of struct net and calls its functions below. */
typedef struct {
  const char *name;
  int (*on)(const net_cfg *c);
  /* switch parameters, before they are checked (no allocation) */
  void (*configure)(net *n, asw_config *sc);
  /* state, before the switches are built: 0 or -1 with err */
  int (*build)(net *n, char *err, size_t errlen);
  /* register writes to switch s (net_reg_write_cb), after its tables: 0 or the rv */
  int (*program)(net *n, unsigned s);
  /* state after the switches and the traffic: 0 or -1 with err */
  int (*build_late)(net *n, char *err, size_t errlen);
  /* after the switch phase of a cycle: 0 or -1 with n->err */
  int (*cycle_end)(net *n, int measuring);
  void (*results)(const net *n, net_results *out);
  /* JSON object / text lines; rank orders them (below 20: before the ARN's) */
  void (*json)(const net *n, FILE *f);
  int json_rank;
  void (*text)(const net *n, FILE *f);
  int text_rank;
  void (*free)(net *n);
} net_mech;

void net_mech_configure(net *n, asw_config *sc);
int net_mech_build(net *n, char *err, size_t errlen);
int net_mech_program(net *n, unsigned s);
int net_mech_build_late(net *n, char *err, size_t errlen);
int net_mech_cycle_end(net *n, int measuring);
void net_mech_results(const net *n, net_results *out);
/* The JSON (json 1) or text writers of ranks [lo, hi), in rank order. */
void net_mech_write(const net *n, FILE *f, int json, int lo, int hi);
void net_mech_free(net *n);
enum { NET_MECH_ARN = 20, NET_MECH_LAST = 100 }; /* output ranks: the ARN's; past the last */

/* mech_pfc.c (§17.3): a slow sink's PAUSE frames. */
void net_pfc_sink(net *n, unsigned d, int mt);
/* mech_qcn.c (§17.5, §17.9) */
int net_qcn_cnm_out(net *n, net_worker *w, unsigned s);
int net_lane_out(net *n, net_worker *w, unsigned s, const asw_outputs *out);
unsigned net_rl_ready_queue(net *n, unsigned s, const node *nd, unsigned v);
/* mech_faults.c (§18.6) */
void net_fault_sum(const net *n);
/* the pins and the fabric manager of this cycle: switches to step in
 * n->lf.touch; 0 or -1 with n->err */
int net_faults_cycle_begin(net *n);
/* mech_trace.c: --trace-out */
void net_trace_record(net *n, unsigned s, unsigned dest, uint32_t id);
/* mech_voqnet.c (§16.6) */
unsigned net_vq_pick(net *n, unsigned s, node *nd);
int net_voqnet_cycle(net *n, int generating, int measuring);

#endif
