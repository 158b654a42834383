/* netcfg.h — configuration of a network simulation (`asw net`).
 *
 * A configuration is a set of `key = value` settings: defaults, then a
 * config file, then command-line overrides, each applied in order. Unknown
 * keys and bad values are errors that name the key. netcfg_json echoes the
 * complete configuration so any result can be rerun.
 */
#ifndef NET_NETCFG_H
#define NET_NETCFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { NETCFG_MAX_HOT = 64, NETCFG_MAX_FAULTS = 16, NETCFG_MAX_GAPS = 32 };

typedef enum {
  TRAFFIC_UNIFORM = 0,
  TRAFFIC_HOTSPOT,
  TRAFFIC_IHS,
  TRAFFIC_BITREV,
  TRAFFIC_TRANSPOSE,
  TRAFFIC_SHUFFLE,
  TRAFFIC_BITCOMP,
  TRAFFIC_TORNADO,
  TRAFFIC_TRACE, /* traffic=trace:FILE (cmodel/net/trace.h): trace_path */
  TRAFFIC_FLOW,  /* traffic=flowS-D: node S alone sends, to node D (flow_src, flow_dst) */
} traffic_kind;

enum { NETCFG_MAX_PATH = 512 };
enum { NETCFG_WARMUP = 5000 }; /* default warm-up cycles (synthetic traffic) */

/* §17.7: GAP G (1..15) on output `port` of switch `sw` (asw net port_gap=S:P:G) */
typedef struct {
  unsigned sw, port, gap;
} netcfg_gap;

typedef struct {
  /* topology */
  unsigned topology; /* topo_kind */
  unsigned ports, stages, k, n;
  /* switch */
  unsigned vcs, voq, buffer_flits, packet_flits, iters;
  unsigned sa_pipe; /* contract §8.1 pipelined allocation in every switch (iters = 1) */
  /* routing */
  unsigned routing, trigger, adaptive_stages, delta, ltth, htth, lfsr_seed;
  unsigned route_hash; /* §17.6 with routing = oblivious: 0 LFSR, 1 hashed, 2 smodk */
  unsigned sqs; /* sqs_kind */
  /* congestion detection, ARN and AFI (contract §15) */
  unsigned arn;          /* ARN_CTRL.mode: 0 off, 1 arn, 2 afi (ARN+AFI) */
  unsigned afi;          /* VC_CTRL.afi; with arn=off also ARN_CTRL.mark_adapted */
  unsigned arn_entries;  /* AE */
  unsigned hcdth, lcdth, fcth; /* % of buffer_flits */
  unsigned crt, arn_ttl; /* cycles */
  unsigned arn_up_nodes; /* 1: end-node ports in the leaves' ARN_UP */
  unsigned adapted_arn, alt_refresh; /* ARN_CTRL [3], [4] (§15.3, §15.5) */
  /* keys given explicitly: routing=arn-afi leaves them as given (else sets 1) */
  unsigned arn_up_nodes_given, adapted_arn_given, alt_refresh_given;
  /* link-level flow control (contract §17.3); the pfc_* keys are echoed only
   * with flow_control = pfc, so credit runs print what they always did */
  unsigned flow_control; /* 0 credit, 1 pfc */
  unsigned pfc_xoff, pfc_xon; /* flits held or due; 0: automatic */
  uint64_t pfc_storm;    /* pauses longer than this (cycles) are storms; 0 off */
  /* link faults (contract §18.6, cmodel/net/faults.h); the keys are echoed
   * only when a fault is configured, so other runs print what they always did */
  unsigned lf_count;     /* link_fault entries */
  struct { unsigned sw, port; uint64_t down, up; } lf[NETCFG_MAX_FAULTS]; /* up 0: never */
  double link_fault_rate; /* random faults: per switch-to-switch link and cycle */
  /* §17.7 output port rates: port_gap entries S:P:G, GAP G (1..15) on output P of
   * switch S; echoed only when given */
  unsigned pg_count;
  netcfg_gap pg[NETCFG_MAX_GAPS];
  uint64_t link_down_cycles; /* duration of a random fault */
  uint64_t fm_delay;     /* cycles from a link change to the fabric manager's new tables (0: no FM) */
  /* QCN (contract §17.4, §17.5); the qcn_* and rl_* keys are echoed only with
   * qcn = on, so other runs print what they always did */
  unsigned qcn, rl;            /* congestion points / reaction points on */
  unsigned switch_ar;          /* routing = switch-ar (routing 0, D-mod-k tables; §17.8) */
  unsigned cnm_path;           /* §17.8/§17.9: 0 direct (§17.5), 1 lane (hop by hop, snooped), 2 auto */
  unsigned sar_entries;        /* SE of every switch when the lane is on */
  double ar_timer_us;          /* Switch AR: how long a CNM steers (the AR timer) */
  unsigned sar_decay;          /* SAR_CTRL.decay of every switch: 0 off, else 2^sar_decay cycles */
  unsigned qcn_qeq, qcn_sample; /* bytes, multiples of 64 */
  unsigned qcn_w, qcn_fb_shift; /* w (1, 2, 4, 8), FBSH */
  double rl_gd, rl_min_mbps, rl_ai_mbps, rl_hai_mbps, rl_timer_us;
  unsigned rl_fr, rl_bc;       /* fast-recovery stages; byte counter, bytes */
  /* traffic */
  unsigned traffic; /* traffic_kind */
  unsigned flow_src, flow_dst; /* traffic=flowS-D (0 otherwise) */
  double hs_fraction;
  unsigned hs_count;
  unsigned hs_nodes_given, hs_nodes[NETCFG_MAX_HOT];
  uint64_t hs_start, hs_end;
  double hs_sink_rate; /* < 0: same as sink_rate */
  unsigned hs_idle;     /* hot sources silent outside [hs_start, hs_end) */
  unsigned hs_cold_avoid; /* uniform sources skip the hot spots inside [hs_start, hs_end) */
  double trace_hs;      /* traffic=trace: fraction of nodes also sending to the hot spots */
  uint64_t hs_packets;  /* > 0: the hot flows end once this many hot packets are delivered */
  unsigned hs_cap;      /* 1: each hot node's sources together offer it at most 1 flit/cycle */
  double ihs_fraction;
  unsigned ihs_switch, ihs_port;
  double load;
  unsigned injection; /* 0 bernoulli, 1 onoff */
  double burst_packets;
  /* links and end nodes */
  unsigned link_latency, credit_latency;
  double cycle_ns, sink_rate;
  unsigned source_queue, source_pool;
  /* run */
  uint64_t cycles, warmup, window, seed, watchdog, starvation, drain_limit;
  unsigned warmup_given; /* warmup set: else 5000 cycles, 0 with traffic=trace:FILE */
  unsigned check_order; /* 0 off, 1 on, 2 auto */
  unsigned drain;
  /* how, not what: not echoed in the JSON (same results for any value) */
  unsigned threads; /* threads stepping the switches */
  unsigned ranks;   /* MPI ranks (processes) the network is split over */
  unsigned sync_every; /* cycles between rank exchanges (0: the lookahead) */
  /* traffic=trace:FILE: the trace file (empty for every other traffic) */
  char trace_path[NETCFG_MAX_PATH];
  /* tori and meshes (contract §16.4; echoed only with topology = torus|mesh) */
  char dims[32];       /* "16x16", "8x8x8"; empty: not given */
  unsigned bubble;     /* 0 off, 1 on, 2 auto (on for tori, off for meshes) */
  unsigned cube_order; /* routing: 0 not a cube routing, 1 dor, 2 direction-order,
                        * 3 fully-adaptive, 4 xoradap (§16.3) */
  unsigned groups;     /* xoradap: VC groups (§16.3), default 2 */
  /* any topology from a file (contract §16.5, cmodel/net/topofile.h; echoed
   * only with topology = file:PATH) */
  char topo_path[NETCFG_MAX_PATH];  /* topology=file:PATH */
  unsigned file_routing;            /* routing: 0 not a file routing, 1 minhop, 2 updn, 3 table */
  char table_path[NETCFG_MAX_PATH]; /* routing=table:PATH */
  unsigned cdg_check;               /* 0 refuse a routing with a dependency cycle, 1 warn and run */
} net_cfg;

void netcfg_default(net_cfg *c);
/* Applies one `key=value` setting. Returns 0 or -1 with a message naming
 * the key in err. */
int netcfg_set(net_cfg *c, const char *key, const char *value, char *err,
               size_t errlen);
/* Applies "key=value" (one argument). */
int netcfg_set_arg(net_cfg *c, const char *arg, char *err, size_t errlen);
/* Applies a config file: one `key = value` per line, `#` starts a comment.
 * Errors name the file and line ("path:LINE: ..."); a line longer than
 * NETCFG_MAX_LINE characters or a NUL byte is an error. The settings before
 * the bad line stay applied (callers stop on an error). */
int netcfg_load(net_cfg *c, const char *path, char *err, size_t errlen);
enum { NETCFG_MAX_LINE = 1023 };
/* The same for config text of len bytes in memory; name is used in messages. */
int netcfg_parse(net_cfg *c, const char *text, size_t len, const char *name,
                 char *err, size_t errlen);
/* Cross-key checks (e.g. packet_flits <= buffer_flits). */
int netcfg_check(const net_cfg *c, char *err, size_t errlen);
/* Writes the configuration as a JSON object (no trailing newline). */
void netcfg_json(const net_cfg *c, FILE *f);
/* Writes the configuration as `key = value` lines (a loadable file). Tori,
 * meshes and file topologies show their automatic values resolved: the file
 * reloads to the configuration as netcfg_resolve_auto leaves it. */
void netcfg_write(const net_cfg *c, FILE *f);
/* Resolves the automatic values the echo shows resolved (contract §16.4,
 * §16.5): on a torus or mesh bubble=auto becomes on (torus) or off (mesh) and
 * no routing given (neither a fat-tree nor a file topology's) becomes dor; on a
 * file topology no routing given (neither a fat-tree nor a cube routing) becomes
 * minhop. The run is the same either way. */
void netcfg_resolve_auto(net_cfg *c);
/* Prints the list of keys with their meaning (for --help). */
void netcfg_help(FILE *f);

#endif
