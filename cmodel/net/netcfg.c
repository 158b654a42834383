/* netcfg.c — key table, parsing and echo of net_cfg (see netcfg.h). */
#define _POSIX_C_SOURCE 200809L
#include "netcfg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../textfile.h"
#include "optval.h"
#include "cube.h"
#include "tables.h"
#include "topo.h"
#include "voqnet.h"

typedef enum { K_UINT, K_U64, K_DBL, K_ENUM, K_STAGES, K_HSNODES, K_DIMS, K_FAULTS, K_GAPS } key_type;

typedef struct {
  const char *name;
  key_type type;
  size_t off;
  double min, max;
  const char *const *names; /* K_ENUM */
  const char *help;
} key_desc;

static const char *const topo_names[] = {"rlft", "kary", "torus", "mesh", NULL}; /* and file:PATH */
static const char *const cdg_names[] = {"refuse", "warn", NULL}; /* §16.5 */
static const char *const bubble_names[] = {"off", "on", "auto", NULL}; /* §16.4 */
static const char *const routing_names[] = {"dmodk", "oblivious", "adaptive",
                                            NULL};
static const char *const arn_names[] = {"off", "arn", "afi", NULL};
static const char *const fc_names[] = {"credit", "pfc", NULL};
static const char *const onoff_names[] = {"off", "on", NULL};
static const char *const cnm_path_names[] = {"direct", "lane", "auto", NULL}; /* §17.9 */
static const char *const trigger_names[] = {"noth", "th", "2th", NULL};
static const char *const sqs_names_tab[] = {"1q",   "dbbm",   "vftree", "flow2sl", "obqa",
                                            "xordet", "bbq", "iodet", "voqsw", "oodet", "voqnet", NULL};
/* routing names of tori and meshes by cube_order (§16.4, §16.3) */
static const char *const cube_order_names[] = {"", "dor", "direction-order", "fully-adaptive",
                                               "xoradap"};
static const char *const traffic_names[] = {
    "uniform", "hotspot", "ihs",    "bitrev",
    "transpose", "shuffle", "bitcomp", "tornado", NULL};
static const char *const injection_names[] = {"bernoulli", "onoff", NULL};
static const char *const order_names[] = {"0", "1", "auto", NULL};

#define F(x) offsetof(net_cfg, x)
static const key_desc keys[] = {
    {"topology", K_ENUM, F(topology), 0, 0, topo_names,
     "rlft (P-port switches, N = 2(P/2)^T), kary (k-ary n-tree), or torus / mesh "
     "(k-ary n-cube of dims, contract 16.4), or file:PATH (any topology, docs/topology-file.md, "
     "contract 16.5)"},
    {"ports", K_UINT, F(ports), 4, 64, NULL, "RLFT switch ports P (even)"},
    {"stages", K_UINT, F(stages), 1, 8, NULL, "RLFT stages T"},
    {"k", K_UINT, F(k), 2, 32, NULL, "k-ary n-tree arity"},
    {"n", K_UINT, F(n), 1, 8, NULL, "k-ary n-tree stages"},
    {"dims", K_DIMS, F(dims), 0, 0, NULL,
     "torus / mesh radices, e.g. 16x16 or 8x8x8 (node id = x + kx (y + ky z))"},
    {"bubble", K_ENUM, F(bubble), 0, 0, bubble_names,
     "torus: bubble flow control (contract 16.1) on all VCs: on, off, auto (on for "
     "tori; a mesh has no rings)"},
    {"groups", K_UINT, F(groups), 1, 8, NULL,
     "routing=xoradap: VC groups of the vcs - 1 adaptive VCs (power of two dividing vcs - 1; "
     "contract 16.3)"},
    {"vcs", K_UINT, F(vcs), 1, 8, NULL, "virtual channels per port"},
    {"voq", K_UINT, F(voq), 0, 1, NULL, "on|off (1|0): VOQs at switch inputs"},
    {"buffer_flits", K_UINT, F(buffer_flits), 1, 16384, NULL,
     "buffer per input VC, flits (BUF)"},
    {"packet_flits", K_UINT, F(packet_flits), 2, 255, NULL,
     "packet length, flits (64-byte flits: 64 = 4 KB MTU)"},
    {"iters", K_UINT, F(iters), 1, 4, NULL, "iSLIP iterations"},
    {"sa_pipe", K_UINT, F(sa_pipe), 0, 1, NULL,
     "on|off (1|0): pipelined switch allocation (contract 8.1; needs iters=1)"},
    {"routing", K_ENUM, F(routing), 0, 0, routing_names,
     "dmodk (also det: deterministic), oblivious (random), smodk, hashed (flow hash; contract 17.6), switch-ar (D-mod-k steered by snooped CNMs, qcn=on; contract 17.8), adaptive (fat-trees), "
     "dor or direction-order (tori and meshes: XY(Z) or X+Y+Z+X-Y-Z-), fully-adaptive or xoradap "
     "(tori and meshes: minimal adaptive with an escape VC, contract 16.3), minhop, updn or "
     "table:FILE (topology=file: shortest paths, up*/down*, a forwarding-table file), or a Table 2 name adap-<noth|th|2th>-"
     "<s|1s|2s>-<k|k/D> (sets trigger, adaptive_stages, delta)"},
    {"arn", K_ENUM, F(arn), 0, 0, arn_names,
     "ARN mechanism (contract §15): off, arn (ARN_CTRL.mode 1), afi (ARN+AFI, "
     "mode 2 and VC_CTRL.afi; the last VC is the adapted-flow channel)"},
    {"afi", K_UINT, F(afi), 0, 1, NULL,
     "1: VC_CTRL.afi (last VC = adapted-flow channel); with arn=off also "
     "ARN_CTRL.mark_adapted (Adaptive-Th + AFI); implied by arn=afi"},
    {"arn_entries", K_UINT, F(arn_entries), 0, 32, NULL,
     "ARN-table entries per switch (AE; 0: no ARN hardware)"},
    {"hcdth_pct", K_UINT, F(hcdth), 1, 100, NULL,
     "high congestion-detection threshold, % of buffer_flits (VOQ occupancy)"},
    {"lcdth_pct", K_UINT, F(lcdth), 1, 100, NULL,
     "low congestion-detection threshold, % of buffer_flits"},
    {"fcth_pct", K_UINT, F(fcth), 0, 100, NULL,
     "free-credits threshold telling a root from a branch, % of buffer_flits"},
    {"crt", K_UINT, F(crt), 1, 16777215, NULL,
     "congestion root timer, cycles"},
    {"arn_ttl", K_UINT, F(arn_ttl), 1, 16777215, NULL,
     "ARN-table entry time-to-live, cycles"},
    {"arn_up_nodes", K_UINT, F(arn_up_nodes), 0, 1, NULL,
     "1: leaves also list their end-node ports in ARN_UP, so an incast root keeps "
     "the leaf's stage and its ARNs are consumed by the sources' leaves (seed 001 "
     "section 4.3 behaviour; 0: pseudo-code 1 literally, incast ARNs reach the end nodes); "
     "routing=arn-afi sets 1 unless the key is given"},
    {"adapted_arn", K_UINT, F(adapted_arn), 0, 1, NULL,
     "ARN_CTRL.adapted_arn (contract §15.5): adapted packets send ARNs with their original VC "
     "(seed 001 §3.4 text; 0: pseudo-code 4); routing=arn-afi sets 1 unless the key is given"},
    {"alt_refresh", K_UINT, F(alt_refresh), 0, 1, NULL,
     "ARN_CTRL.alt_refresh (contract §15.3): ARNs arriving on a consumed entry's alternative "
     "port refresh it while its flows are adapted; routing=arn-afi sets 1 unless the key is given"},
    {"flow_control", K_ENUM, F(flow_control), 0, 0, fc_names,
     "link-level flow control: credit, or pfc (per-priority PAUSE, contract 17)"},
    {"pfc_xoff", K_UINT, F(pfc_xoff), 0, 16384, NULL,
     "pfc: XOFF threshold, flits held or due per input VC (0: buffer_flits - "
     "(packet_flits + link_latency + credit_latency + vcs + 2))"},
    {"pfc_xon", K_UINT, F(pfc_xon), 0, 16384, NULL,
     "pfc: XON threshold, below pfc_xoff (0: pfc_xoff / 2)"},
    {"pfc_storm", K_U64, F(pfc_storm), 0, 2e9, NULL,
     "pfc: a pause longer than this many cycles counts as a pause storm (0: off)"},
    {"link_fault", K_FAULTS, F(lf), 0, 0, NULL,
     "link faults (contract 18): none, or a list of S:P:D:U, the link of switch S port P "
     "(to another switch) down from cycle D to cycle U (U 0: never up again)"},
    {"port_gap", K_GAPS, F(pg), 0, 0, NULL,
     "output port rates (contract 17.7): none, or a list of S:P:G, output P of switch S sends "
     "at most one flit every G+1 cycles (G 1..15: a link at 1/(G+1) of the speed)"},
    {"link_fault_rate", K_DBL, F(link_fault_rate), 0, 1, NULL,
     "random link faults: probability per switch-to-switch link and cycle that it goes "
     "down (for link_down_cycles), drawn from the seed"},
    {"link_down_cycles", K_U64, F(link_down_cycles), 1, 2e9, NULL,
     "cycles a random link fault lasts"},
    {"fm_delay", K_U64, F(fm_delay), 0, 2e9, NULL,
     "link faults: cycles from a link going down or up to the fabric manager's new "
     "forwarding tables (0: no fabric manager)"},
    {"qcn", K_ENUM, F(qcn), 0, 0, onoff_names,
     "QCN congestion point at every switch output (contract 17.4); CNMs go to the culprit sources"},
    {"rl", K_ENUM, F(rl), 0, 0, onoff_names,
     "qcn: QCN 2.2 reaction points (per-flow rate limiters) at the sources (contract 17.5)"},
    {"cnm_path", K_ENUM, F(cnm_path), 0, 0, cnm_path_names,
     "qcn: how CNMs reach the sources: direct (zero-load time of the path, contract 17.5), "
     "lane (hop by hop on the links' CNM lane through the switches, contract 17.8), auto "
     "(lane with routing=switch-ar, else direct)"},
    {"sar_entries", K_UINT, F(sar_entries), 1, 32, NULL,
     "cnm_path=lane: Switch AR table entries per switch (SE, contract 17.8)"},
    {"ar_timer_us", K_DBL, F(ar_timer_us), 0.001, 1e7, NULL,
     "routing=switch-ar: the AR timer, microseconds a CNM keeps a port avoided (seed 004: 250 ms)"},
    {"sar_decay", K_UINT, F(sar_decay), 0, 24, NULL,
     "cnm_path=lane: SAR_CTRL.decay of every switch (contract 17.8): 0 off (a level holds for "
     "the AR timer); 1..24: an unrefreshed level steps down by 1 every 2^sar_decay cycles"},
    {"qcn_qeq", K_UINT, F(qcn_qeq), 64, 4194304, NULL,
     "qcn: equilibrium queue Qeq, bytes (a multiple of 64)"},
    {"qcn_sample", K_UINT, F(qcn_sample), 4096, 4194240, NULL,
     "qcn: mean sampling interval at Fb = 0, bytes (a multiple of 64)"},
    {"qcn_w", K_UINT, F(qcn_w), 1, 8, NULL, "qcn: weight w of Qdelta (1, 2, 4 or 8)"},
    {"qcn_fb_shift", K_UINT, F(qcn_fb_shift), 0, 15, NULL,
     "qcn: |Fb| in flits >> this is the 6-bit feedback (5: Fbmax = Qeq (2w+1) maps to 50 at the defaults)"},
    {"rl_gd", K_DBL, F(rl_gd), 0, 1, NULL, "rl: decrease gain, CR *= 1 - rl_gd * q / 63"},
    {"rl_min_mbps", K_DBL, F(rl_min_mbps), 0, 1e6, NULL, "rl: minimum rate, Mb/s"},
    {"rl_ai_mbps", K_DBL, F(rl_ai_mbps), 0, 1e6, NULL, "rl: active increase, Mb/s"},
    {"rl_hai_mbps", K_DBL, F(rl_hai_mbps), 0, 1e6, NULL, "rl: hyper-active increase, Mb/s"},
    {"rl_fr", K_UINT, F(rl_fr), 1, 100, NULL, "rl: fast-recovery threshold, stages"},
    {"rl_bc", K_UINT, F(rl_bc), 64, 1073741760, NULL,
     "rl: byte-counter limit, bytes (a multiple of 64)"},
    {"rl_timer_us", K_DBL, F(rl_timer_us), 0.001, 1e7, NULL, "rl: rate-limiter timer, microseconds"},
    {"trigger", K_ENUM, F(trigger), 0, 0, trigger_names,
     "adaptive trigger: noth, th, 2th"},
    {"adaptive_stages", K_STAGES, F(adaptive_stages), 0, 0, NULL,
     "stages where multipath routing is enabled: all, or a list like 1,2"},
    {"delta", K_UINT, F(delta), 1, TABLES_MAX_DELTA, NULL,
     "K/delta port restriction (one switch candidate set per class)"},
    {"ltth", K_UINT, F(ltth), 0, 16384, NULL,
     "low trigger threshold, credits (0 with htth=0: BUF/4)"},
    {"htth", K_UINT, F(htth), 0, 16384, NULL,
     "high trigger threshold, credits (0 with ltth=0: BUF/2)"},
    {"lfsr_seed", K_UINT, F(lfsr_seed), 0, 65535, NULL,
     "LFSR_SEED of every switch (oblivious routing)"},
    {"cdg_check", K_ENUM, F(cdg_check), 0, 0, cdg_names,
     "topology=file: a routing whose channel-dependency graph has a cycle is refused "
     "(refuse) or reported and run (warn)"},
    {"sqs", K_ENUM, F(sqs), 0, 0, sqs_names_tab,
     "queuing scheme: 1q dbbm vftree flow2sl obqa xordet (fat-trees); 1q dbbm bbq "
     "iodet xordet voqsw oodet (tori and meshes), voqnet (their simulator-only reference: "
     "one VC per node, contract 16.6)"},
    {"traffic", K_ENUM, F(traffic), 0, 0, traffic_names,
     "uniform hotspot ihs bitrev transpose shuffle bitcomp tornado, or "
     "hsX-Y (X % of nodes to Y hot spots, e.g. hs25-1), flowS-D (node S alone sends, "
     "to node D), or trace:FILE (replay a packet trace, docs/traces.md)"},
    {"hs_fraction", K_DBL, F(hs_fraction), 0, 1, NULL,
     "fraction of nodes sending to the hot spots"},
    {"hs_count", K_UINT, F(hs_count), 1, NETCFG_MAX_HOT, NULL,
     "number of hot-spot nodes"},
    {"hs_nodes", K_HSNODES, F(hs_nodes), 0, 0, NULL,
     "hot-spot node ids (list) or auto (the seeds' ids)"},
    {"hs_start", K_U64, F(hs_start), 0, 4e9, NULL,
     "cycle the hot-spot / IHS flows start"},
    {"hs_end", K_U64, F(hs_end), 0, 4e9, NULL,
     "cycle they end (0: never)"},
    {"hs_packets", K_U64, F(hs_packets), 0, 4e9, NULL,
     "the hot-spot flows end after the cycle their hs_packets-th packet is delivered "
     "(0: never; seed 003: 10000)"},
    {"hs_cap", K_ENUM, F(hs_cap), 0, 0, onoff_names,
     "on: a hot source sends to its hot spot at most 1/k flits/cycle, k its hot spot's "
     "sources, so they never exceed its ejection bandwidth (seed 003); off"},
    {"hs_idle", K_UINT, F(hs_idle), 0, 1, NULL,
     "1: hot sources generate nothing outside [hs_start, hs_end) (seed 002); "
     "0: they send uniform traffic then"},
    {"hs_cold_avoid", K_UINT, F(hs_cold_avoid), 0, 1, NULL,
     "1: while the hot spot is on, the uniform (cold) sources never pick a hot-spot node "
     "as destination (redrawn), so only the hot sources feed the incast (issue 27); "
     "0: uniform over all other nodes"},
    {"trace_hs", K_DBL, F(trace_hs), 0, 1, NULL,
     "traffic=trace:FILE: fraction of the nodes, drawn among those the trace does not use, "
     "that send to the hot spots (hs_count, hs_nodes) at `load` from hs_start to hs_end "
     "beside the replay (an incast during the application; seed 001 Fig. 8: 0.1); 0: none"},
    {"hs_sink_rate", K_DBL, F(hs_sink_rate), -1, 1, NULL,
     "consumption rate of hot-spot sinks, flits/cycle (-1: sink_rate)"},
    {"ihs_fraction", K_DBL, F(ihs_fraction), 0, 1, NULL,
     "IHS: fraction of nodes sending through the chosen 2nd-stage port"},
    {"ihs_switch", K_UINT, F(ihs_switch), 0, 63, NULL,
     "IHS: 2nd-stage switch of each pod (= leaf up port)"},
    {"ihs_port", K_UINT, F(ihs_port), 0, 63, NULL,
     "IHS: up port (0-based among up ports) of that switch"},
    {"load", K_DBL, F(load), 0, 1, NULL,
     "offered load, fraction of link bandwidth"},
    {"injection", K_ENUM, F(injection), 0, 0, injection_names,
     "bernoulli or onoff (bursty)"},
    {"burst_packets", K_DBL, F(burst_packets), 1, 1e6, NULL,
     "onoff: mean burst length, packets"},
    {"link_latency", K_UINT, F(link_latency), 1, 1000, NULL,
     "flit latency of every link (a topology file's links may give their own), cycles"},
    {"credit_latency", K_UINT, F(credit_latency), 1, 1000, NULL,
     "credit latency of every link (a topology file's links may give their own), cycles"},
    {"cycle_ns", K_DBL, F(cycle_ns), 1e-3, 1e6, NULL,
     "ns per cycle (64-byte flits at 100 Gb/s: 5.12)"},
    {"sink_rate", K_DBL, F(sink_rate), 0, 1, NULL,
     "sink consumption rate, flits/cycle"},
    {"source_queue", K_UINT, F(source_queue), 1, 65534, NULL,
     "capacity of each per-destination admission queue of a source, packets "
     "(a packet generated for a full queue is refused)"},
    {"source_pool", K_UINT, F(source_pool), 1, 65534, NULL,
     "packets a source can hold over all its admission queues"},
    {"cycles", K_U64, F(cycles), 1, 2e9, NULL,
     "measured cycles (after warmup)"},
    {"warmup", K_U64, F(warmup), 0, 2e9, NULL, "warm-up cycles (0 with traffic=trace:FILE)"},
    {"window", K_U64, F(window), 1, 2e9, NULL,
     "cycles per window of the CSV series"},
    {"seed", K_U64, F(seed), 0, 18446744073709551615.0, NULL, "random seed"},
    {"watchdog", K_U64, F(watchdog), 0, 2e9, NULL,
     "cycles without any flit moving (packets in flight) before a deadlock "
     "report (0: off)"},
    {"starvation", K_U64, F(starvation), 0, 2e9, NULL,
     "cycles a source with queued packets may go without injecting before a "
     "starvation report (0: off)"},
    {"check_order", K_ENUM, F(check_order), 0, 0, order_names,
     "check in-order delivery per flow: 0, 1, auto (deterministic routing "
     "and N <= 4096)"},
    {"drain", K_UINT, F(drain), 0, 1, NULL,
     "1: after the run stop generating and run until every packet is "
     "delivered"},
    {"drain_limit", K_U64, F(drain_limit), 1, 2e9, NULL,
     "maximum drain cycles"},
    {"threads", K_UINT, F(threads), 1, 64, NULL,
     "threads stepping the switches and end nodes (same results for any "
     "value; not echoed in the JSON)"},
    {"ranks", K_UINT, F(ranks), 1, 4096, NULL,
     "MPI ranks the network is partitioned over, by pod (build/asw-mpi under "
     "mpirun -np N; same results for any value; not echoed in the JSON)"},
    {"sync_every", K_UINT, F(sync_every), 0, 1000, NULL,
     "ranks: cycles between exchanges, at most min(link_latency, "
     "credit_latency) (0: that lookahead; same results for any value; not "
     "echoed in the JSON)"},
};
#undef F
enum { NKEYS = sizeof keys / sizeof *keys };

void netcfg_default(net_cfg *c) {
  memset(c, 0, sizeof *c);
  c->topology = TOPO_RLFT;
  c->ports = 12;
  c->stages = 3;
  c->k = 4;
  c->n = 3;
  c->vcs = 1;
  c->voq = 0;
  c->buffer_flits = 3072;
  c->packet_flits = 64;
  c->iters = 3;
  c->routing = 0;
  c->trigger = 0;
  c->adaptive_stages = 0xFF;
  c->delta = 1;
  c->lfsr_seed = 1;
  c->sqs = SQS_1Q;
  c->arn = 0;
  c->afi = 0;
  c->arn_entries = 8;
  c->hcdth = 81;
  c->lcdth = 63;
  c->fcth = 78;
  c->crt = 1024;
  c->arn_ttl = 4096;
  c->flow_control = 0;
  c->pfc_xoff = c->pfc_xon = 0;
  c->pfc_storm = 100000;
  c->link_down_cycles = 1000;
  c->fm_delay = 1000;
  c->qcn = c->rl = 0; /* §17.4/§17.5 defaults: the seed's Table I */
  c->switch_ar = 0;    /* §17.8 */
  c->cnm_path = 2;
  c->sar_entries = 32;
  c->ar_timer_us = 250000;
  c->qcn_qeq = 20480;
  c->qcn_sample = 153600;
  c->qcn_w = 2;
  c->qcn_fb_shift = 5;
  c->rl_gd = 0.5;
  c->rl_min_mbps = 0.1;
  c->rl_ai_mbps = 5;
  c->rl_hai_mbps = 50;
  c->rl_fr = 5;
  c->rl_bc = 153600;
  c->rl_timer_us = 15000;
  c->traffic = TRAFFIC_UNIFORM;
  c->hs_fraction = 0.25;
  c->hs_count = 1;
  c->hs_sink_rate = -1;
  c->ihs_fraction = 0.2;
  c->load = 1.0;
  c->injection = 0;
  c->burst_packets = 8;
  c->link_latency = 2;
  c->credit_latency = 2;
  c->cycle_ns = 5.12;
  c->sink_rate = 1.0;
  c->source_queue = 4;
  c->source_pool = 1024;
  c->cycles = 20000;
  c->warmup = NETCFG_WARMUP;
  c->window = 1000;
  c->seed = 1;
  c->watchdog = 20000;
  c->starvation = 0;
  c->check_order = 2;
  c->drain = 0;
  c->drain_limit = 1000000;
  c->threads = 1;
  c->ranks = 1;
  c->bubble = 2; /* auto */
  c->groups = 2;
}

/* A file name of a key's value (traffic=trace:FILE, topology=file:PATH,
 * routing=table:PATH) into dst[NETCFG_MAX_PATH]. */
static int bad(char *err, size_t errlen, const char *key, const char *value, const char *why);

/* "X-Y" (hsX-Y, flowS-D): two plain decimal numbers (no sign, blank or wrap; each
 * saturates at cap) and nothing after them. 1 with *x, *y, else 0. */
static int dash_pair(const char *p, unsigned cap, unsigned *x, unsigned *y) {
  unsigned v[2] = {0, 0}, nd[2] = {0, 0};
  for (int j = 0; j < 2; j++) {
    for (; isdigit((unsigned char)*p); p++, nd[j]++) v[j] = v[j] < cap ? v[j] * 10 + (unsigned)(*p - '0') : v[j];
    if (j == 0 && *p++ != '-') return 0;
  }
  if (!nd[0] || !nd[1] || *p) return 0;
  *x = v[0];
  *y = v[1];
  return 1;
}

/* n plain decimal numbers separated by ':' at *pp (link_fault, port_gap entries), each
 * at most max; *pp moves past them. 0, -1 (not that form) or -2 (a number above max). */
static int colon_fields(const char **pp, uint64_t *f, int n, uint64_t max) {
  const char *p = *pp;
  for (int j = 0; j < n; j++) {
    if (!isdigit((unsigned char)*p)) return -1;
    uint64_t x = 0;
    while (isdigit((unsigned char)*p)) {
      x = x * 10 + (uint64_t)(*p++ - '0');
      if (x > max) return -2;
    }
    f[j] = x;
    if (j < n - 1 && *p++ != ':') return -1;
  }
  *pp = p;
  return 0;
}
static int set_path(char *dst, const char *path, const char *key, const char *value, char *err,
                    size_t errlen) {
  size_t pl = strlen(path);
  if (!pl) {
    char why[48];
    snprintf(why, sizeof why, "%.*sFILE needs a file name", (int)(path - value), value);
    return bad(err, errlen, key, value, why);
  }
  if (pl >= NETCFG_MAX_PATH) return bad(err, errlen, key, value, "file name longer than 511 characters");
  for (const char *q = path; *q; q++)
    if ((unsigned char)*q < 0x20 || *q == '#' || *q == '"' || *q == '\\' || *q == 0x7f)
      return bad(err, errlen, key, value, "the file name must not hold #, \", \\ or control characters");
  if (isspace((unsigned char)path[0]) || isspace((unsigned char)path[pl - 1]))
    return bad(err, errlen, key, value, "the file name must not start or end with a blank");
  memset(dst, 0, NETCFG_MAX_PATH); /* no bytes of an earlier name */
  memcpy(dst, path, pl);
  return 0;
}

static const key_desc *find_key(const char *name) {
  for (unsigned i = 0; i < NKEYS; i++)
    if (!strcmp(keys[i].name, name)) return &keys[i];
  return NULL;
}

/* One number syntax in every front end (optval.h): decimal, 0x hexadecimal (a leading 0
 * is not octal), plain scientific notation for an integer (2e5); no sign, no blank. */
static int parse_u64(const char *v, uint64_t *out) { return optval_parse_u64(v, out); }

static int parse_dbl(const char *v, double *out) { return optval_parse_double(v, out); }

static int bad(char *err, size_t errlen, const char *key, const char *value,
               const char *why) {
  snprintf(err, errlen, "%s: bad value '%s' (%s)", key, value, why);
  return -1;
}

/* routing=adap-<trig>-<stages>-<k|k/D> */
static int parse_table2_routing(net_cfg *c, const char *v) {
  char buf[64];
  if (strlen(v) >= sizeof buf || strncmp(v, "adap-", 5)) return -1;
  strcpy(buf, v + 5);
  char *save = NULL;
  char *trig = strtok_r(buf, "-", &save), *st = strtok_r(NULL, "-", &save),
       *kk = strtok_r(NULL, "-", &save);
  if (!trig || !st || !kk || strtok_r(NULL, "-", &save)) return -1;
  unsigned t;
  if (!strcmp(trig, "noth")) t = 0;
  else if (!strcmp(trig, "th")) t = 1;
  else if (!strcmp(trig, "2th")) t = 2;
  else return -1;
  unsigned mask;
  if (!strcmp(st, "s") || !strcmp(st, "*s") || !strcmp(st, "as")) mask = 0xFF;
  else if (!strcmp(st, "1s")) mask = 1;
  else if (!strcmp(st, "2s")) mask = 2;
  else return -1;
  unsigned delta = 1;
  if (!strcmp(kk, "k")) delta = 1;
  else if (!strncmp(kk, "k/", 2)) {
    uint64_t d;
    if (parse_u64(kk + 2, &d) || d < 1 || d > TABLES_MAX_DELTA) return -1;
    delta = (unsigned)d;
  } else
    return -1;
  c->routing = 2;
  c->trigger = t;
  c->adaptive_stages = mask;
  c->delta = delta;
  return 0;
}

/* Link faults configured (§18.6). */
static int netcfg_faulty(const net_cfg *c) { return c->lf_count || c->link_fault_rate > 0; }

#define HS_COUNT_CONFLICT \
  "hs_nodes lists a different number of hot spots; set hs_nodes=auto first"

int netcfg_set(net_cfg *c, const char *key, const char *value, char *err,
               size_t errlen) {
  const key_desc *k = find_key(key);
  /* one name, one unit (tb/options.py): hcdth, lcdth, fcth are flits in asw switch and make
   * cosim; the network's thresholds are percent of buffer_flits under their own names */
  static const char *const renamed[][2] = {
      {"hcdth", "hcdth_pct"}, {"lcdth", "lcdth_pct"}, {"fcth", "fcth_pct"}};
  for (unsigned i = 0; !k && i < sizeof renamed / sizeof renamed[0]; i++)
    if (!strcmp(key, renamed[i][0])) {
      snprintf(err, errlen, "%s: renamed to %s (percent of buffer_flits; %s is in flits in "
               "asw switch and make cosim)", key, renamed[i][1], key);
      return -1;
    }
  if (!k) return optval_unknown(err, errlen, key, "asw net --help");
  char *base = (char *)c;
  switch (k->type) {
  case K_UINT:
  case K_U64: {
    uint64_t x;
    /* Switches (0..1 keys) take on/off as well as 1/0: one spelling across the tools. */
    const int onoff = k->type == K_UINT && k->min == 0 && k->max == 1;
    const uint64_t lo = (uint64_t)k->min, hi = k->max >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)k->max;
    if (onoff && !strcmp(value, "on")) x = 1;
    else if (onoff && !strcmp(value, "off")) x = 0;
    else if (parse_u64(value, &x) || x < lo || x > hi) { /* the wording of optval.h */
      static const char *const words[] = {"on", "off", "1", "0"};
      return onoff ? optval_not_one_of(err, errlen, key, value, words, 4)
                   : optval_not_int(err, errlen, key, value, lo, hi);
    }
    /* with a hs_nodes list the hot spots are that list: a different count
     * would be echoed but not used */
    if (k->off == offsetof(net_cfg, hs_count) && c->hs_nodes_given && x != c->hs_nodes_given)
      return bad(err, errlen, key, value, HS_COUNT_CONFLICT);
    if (k->type == K_UINT) *(unsigned *)(base + k->off) = (unsigned)x;
    else *(uint64_t *)(base + k->off) = x;
    if (k->off == offsetof(net_cfg, warmup)) c->warmup_given = 1;
    if (k->off == offsetof(net_cfg, arn_up_nodes)) c->arn_up_nodes_given = 1;
    if (k->off == offsetof(net_cfg, adapted_arn)) c->adapted_arn_given = 1;
    if (k->off == offsetof(net_cfg, alt_refresh)) c->alt_refresh_given = 1;
    return 0;
  }
  case K_DBL: {
    double d;
    if (parse_dbl(value, &d) || d < k->min || d > k->max)
      return optval_not_number(err, errlen, key, value, k->min, k->max);
    *(double *)(base + k->off) = d;
    return 0;
  }
  case K_ENUM: {
    if (k->off == offsetof(net_cfg, routing)) c->route_hash = c->switch_ar = 0; /* §17.6, §17.8 */
    if (!strcmp(key, "routing") && !strcmp(value, "switch-ar")) { /* §17.8 */
      c->routing = 0;
      c->cube_order = c->file_routing = 0;
      c->arn = c->afi = 0;
      c->switch_ar = 1;
      return 0;
    }
    if (!strcmp(key, "routing")) { /* §16.4: a cube routing name sets cube_order */
      c->cube_order = 0;
      for (unsigned i = 1; i < sizeof cube_order_names / sizeof *cube_order_names; i++)
        if (!strcmp(value, cube_order_names[i])) c->cube_order = i;
      c->file_routing = !strcmp(value, "minhop") ? 1 : !strcmp(value, "updn") ? 2 : 0; /* §16.5 */
      memset(c->table_path, 0, sizeof c->table_path); /* any routing name replaces a table */
      if (c->cube_order || c->file_routing) { c->routing = 0; return 0; }
    }
    if (!strcmp(key, "topology")) memset(c->topo_path, 0, sizeof c->topo_path); /* §16.5 */
    for (unsigned i = 0; k->names[i]; i++)
      if (!strcmp(value, k->names[i])) {
        *(unsigned *)(base + k->off) = i;
        if (k->off == offsetof(net_cfg, traffic)) { /* not a trace, not a flow */
          memset(c->trace_path, 0, sizeof c->trace_path);
          c->flow_src = c->flow_dst = 0;
          if (!c->warmup_given) c->warmup = NETCFG_WARMUP;
        }
        return 0;
      }
    if (!strcmp(key, "traffic") && !strncmp(value, "trace:", 6)) { /* traffic=trace:FILE */
      if (set_path(c->trace_path, value + 6, key, value, err, errlen)) return -1;
      c->traffic = TRAFFIC_TRACE;
      c->flow_src = c->flow_dst = 0;
      /* a trace is replayed from its first message: no warm-up unless asked for */
      if (!c->warmup_given) c->warmup = 0;
      return 0;
    }
    if (!strcmp(key, "traffic") && !strncmp(value, "flow", 4)) { /* traffic=flowS-D */
      unsigned x, y;
      if (!dash_pair(value + 4, 100000, &x, &y) || x > 65535 || y > 65535 || x == y)
        return bad(err, errlen, key, value, "flowS-D: source S and destination D, different "
                   "node ids 0..65535");
      c->traffic = TRAFFIC_FLOW;
      memset(c->trace_path, 0, sizeof c->trace_path);
      c->flow_src = x;
      c->flow_dst = y;
      if (!c->warmup_given) c->warmup = NETCFG_WARMUP;
      return 0;
    }
    if (!strcmp(key, "topology") && !strncmp(value, "file:", 5)) { /* §16.5 */
      if (set_path(c->topo_path, value + 5, key, value, err, errlen)) return -1;
      c->topology = TOPO_FILE;
      return 0;
    }
    if (!strcmp(key, "routing") && !strncmp(value, "table:", 6)) { /* §16.5 */
      if (set_path(c->table_path, value + 6, key, value, err, errlen)) return -1;
      c->routing = 0;
      c->cube_order = 0;
      c->file_routing = 3;
      return 0;
    }
    if (!strcmp(key, "routing")) {
      if (!strcmp(value, "det")) { c->routing = 0; return 0; }
      if (!strcmp(value, "hashed") || !strcmp(value, "smodk")) { /* §17.6 */
        c->routing = 1;
        c->route_hash = value[0] == 'h' ? 1 : 2;
        return 0;
      }
      if (!strcmp(value, "fully")) {
        c->routing = 2; c->trigger = 0; c->adaptive_stages = 0xFF; c->delta = 1;
        return 0;
      }
      if (!parse_table2_routing(c, value)) return 0;
      /* seed 001 §4.1 configurations (contract §15.1) */
      if (!strcmp(value, "adaptive-th") || !strcmp(value, "adaptive-th-afi")) {
        c->routing = 2; c->trigger = 1; c->adaptive_stages = 0xFF; c->delta = 1;
        c->arn = 0;
        c->afi = !strcmp(value, "adaptive-th-afi");
        return 0;
      }
      if (!strcmp(value, "arn") || !strcmp(value, "arn-afi")) {
        c->routing = 0;
        c->arn = !strcmp(value, "arn") ? 1 : 2;
        c->afi = c->arn == 2;
        if (c->arn == 2) { /* seed 001's text and results (issue 27), unless given */
          if (!c->arn_up_nodes_given) c->arn_up_nodes = 1;
          if (!c->adapted_arn_given) c->adapted_arn = 1;
          if (!c->alt_refresh_given) c->alt_refresh = 1;
        }
        return 0;
      }
    }
    if (!strcmp(key, "traffic") && (value[0] == 'h' || value[0] == 'H') &&
        (value[1] == 's' || value[1] == 'S')) {
      unsigned x, y; /* hsX-Y */
      if (dash_pair(value + 2, 1000, &x, &y) && x <= 100 && y >= 1 && y <= NETCFG_MAX_HOT) {
        if (c->hs_nodes_given && y != c->hs_nodes_given)
          return bad(err, errlen, key, value, HS_COUNT_CONFLICT);
        c->traffic = TRAFFIC_HOTSPOT;
        memset(c->trace_path, 0, sizeof c->trace_path);
        c->flow_src = c->flow_dst = 0;
        c->hs_fraction = x / 100.0;
        c->hs_count = y;
        if (!c->warmup_given) c->warmup = NETCFG_WARMUP;
        return 0;
      }
    }
    const char *words[64]; /* the wording of optval.h: KEY: 'VALUE' is not one of A, B, C */
    unsigned nw = 0;
    for (unsigned i = 0; k->names[i] && nw < 48; i++) words[nw++] = k->names[i];
    if (!strcmp(key, "routing"))
      words[nw++] = "dor, direction-order, fully-adaptive, xoradap, minhop, updn, table:FILE, "
                    "smodk, hashed, switch-ar, adap-<noth|th|2th>-<s|1s|2s>-<k|k/D>, adaptive-th, "
                    "adaptive-th-afi, arn, arn-afi";
    if (!strcmp(key, "traffic")) words[nw++] = "hsX-Y, flowS-D, trace:FILE";
    if (!strcmp(key, "topology")) words[nw++] = "file:PATH";
    return optval_not_one_of(err, errlen, key, value, words, nw);
  }
  case K_STAGES: {
    if (!strcmp(value, "all")) {
      c->adaptive_stages = 0xFF;
      return 0;
    }
    unsigned mask = 0;
    const char *p = value;
    while (*p) {
      if (!isdigit((unsigned char)*p)) return bad(err, errlen, key, value, "all, or stage numbers 1..8 separated by commas");
      unsigned s = 0;
      while (isdigit((unsigned char)*p)) { /* saturates: no wrap into 1..8 */
        s = s < 100 ? s * 10 + (unsigned)(*p - '0') : s;
        p++;
      }
      if (s < 1 || s > 8) return bad(err, errlen, key, value, "stage numbers are 1..8");
      mask |= 1u << (s - 1);
      if (*p == ',') p++;
      else if (*p) return bad(err, errlen, key, value, "all, or stage numbers 1..8 separated by commas");
    }
    if (!mask) return bad(err, errlen, key, value, "empty list");
    c->adaptive_stages = mask;
    return 0;
  }
  case K_GAPS: { /* none | S:P:G[,S:P:G...] (§17.7) */
    static const char *const form = "none, or S:P:G entries separated by commas (G 1..15)";
    if (!strcmp(value, "none")) {
      c->pg_count = 0;
      memset(c->pg, 0, sizeof c->pg);
      return 0;
    }
    netcfg_gap pg[NETCFG_MAX_GAPS];
    unsigned cnt = 0;
    const char *p = value;
    while (*p) {
      uint64_t f[3];
      int rc = colon_fields(&p, f, 3, 65535);
      if (rc) return bad(err, errlen, key, value, rc == -2 ? "a number above 65535" : form);
      if (f[1] > 63) return bad(err, errlen, key, value, "port above 63");
      if (f[2] < 1 || f[2] > 15) return bad(err, errlen, key, value, "GAP G outside 1..15");
      for (unsigned i = 0; i < cnt; i++)
        if (pg[i].sw == f[0] && pg[i].port == f[1])
          return bad(err, errlen, key, value, "a port given twice");
      if (cnt == NETCFG_MAX_GAPS) return bad(err, errlen, key, value, "more than 32 entries");
      pg[cnt++] = (netcfg_gap){(unsigned)f[0], (unsigned)f[1], (unsigned)f[2]};
      if (*p == ',') p++;
      else if (*p) return bad(err, errlen, key, value, form);
    }
    if (!cnt) return bad(err, errlen, key, value, "empty list");
    memset(c->pg, 0, sizeof c->pg); /* entries past the list are not part of it */
    memcpy(c->pg, pg, cnt * sizeof *pg);
    c->pg_count = cnt;
    return 0;
  }
  case K_FAULTS: { /* none | S:P:D:U[,S:P:D:U...] */
    static const char *const form = "none, or S:P:D:U entries separated by commas";
    if (!strcmp(value, "none")) {
      c->lf_count = 0;
      return 0;
    }
    unsigned cnt = 0;
    const char *p = value;
    while (*p) {
      uint64_t f[4];
      int rc = colon_fields(&p, f, 4, 2000000000ull);
      if (rc) return bad(err, errlen, key, value, rc == -2 ? "a number above 2e9" : form);
      if (f[0] > 65535 || f[1] > 63) return bad(err, errlen, key, value, "switch above 65535 or port above 63");
      if (f[3] && f[3] <= f[2]) return bad(err, errlen, key, value, "up cycle U not after down cycle D");
      if (cnt == NETCFG_MAX_FAULTS) return bad(err, errlen, key, value, "more than 16 faults");
      c->lf[cnt].sw = (unsigned)f[0];
      c->lf[cnt].port = (unsigned)f[1];
      c->lf[cnt].down = f[2];
      c->lf[cnt].up = f[3];
      cnt++;
      if (*p == ',') p++;
      else if (*p) return bad(err, errlen, key, value, form);
    }
    if (!cnt) return bad(err, errlen, key, value, "empty list");
    c->lf_count = cnt;
    return 0;
  }
  case K_DIMS: { /* §16.4: checked now, kept as its radices in plain decimal (04x4: 4x4) */
    if (!strcmp(value, "none")) { /* the echo's word for no radices (the default) */
      memset(c->dims, 0, sizeof c->dims);
      return 0;
    }
    cube cb;
    char e2[160];
    if (cube_parse(&cb, value, 1, e2, sizeof e2)) {
      snprintf(err, errlen, "%s", e2);
      return -1;
    }
    char canon[sizeof c->dims + 8];
    size_t cl = 0;
    for (unsigned d = 0; d < cb.n && cl < sizeof canon; d++)
      cl += (size_t)snprintf(canon + cl, sizeof canon - cl, d ? "x%u" : "%u", cb.k[d]);
    if (cl >= sizeof c->dims) return bad(err, errlen, key, value, "too long");
    memset(c->dims, 0, sizeof c->dims);
    memcpy(c->dims, canon, cl);
    return 0;
  }
  case K_HSNODES: {
    if (!strcmp(value, "auto")) {
      c->hs_nodes_given = 0;
      return 0;
    }
    unsigned cnt = 0;
    const char *p = value;
    while (*p) {
      if (!isdigit((unsigned char)*p)) return bad(err, errlen, key, value, "auto, or node ids separated by commas");
      unsigned long x = 0;
      while (isdigit((unsigned char)*p)) {
        x = x * 10 + (unsigned long)(*p++ - '0');
        if (x > 65535) return bad(err, errlen, key, value, "node id above 65535");
      }
      if (cnt == NETCFG_MAX_HOT) return bad(err, errlen, key, value, "more than 64 nodes");
      c->hs_nodes[cnt++] = (unsigned)x;
      if (*p == ',') p++;
      else if (*p) return bad(err, errlen, key, value, "auto, or node ids separated by commas");
    }
    if (!cnt) return bad(err, errlen, key, value, "empty list");
    c->hs_nodes_given = cnt;
    c->hs_count = cnt;
    return 0;
  }
  }
  return -1;
}

int netcfg_set_arg(net_cfg *c, const char *arg, char *err, size_t errlen) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg) {
    snprintf(err, errlen, "'%s': expected key=value", arg);
    return -1;
  }
  char key[64];
  size_t kl = (size_t)(eq - arg);
  if (kl >= sizeof key) {
    snprintf(err, errlen, "'%.40s...': key too long", arg);
    return -1;
  }
  memcpy(key, arg, kl);
  key[kl] = 0;
  return netcfg_set(c, key, eq + 1, err, errlen);
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
  return s;
}

int netcfg_parse(net_cfg *c, const char *text, size_t len, const char *name,
                 char *err, size_t errlen) {
  if (!name) name = "config";
  if (memchr(text, 0, len)) {
    snprintf(err, errlen, "%s: not a text file (NUL byte)", name);
    return -1;
  }
  size_t pos = 0;
  unsigned lineno = 0;
  while (pos < len) {
    lineno++;
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t ll = nl ? (size_t)(nl - (text + pos)) : len - pos;
    char line[NETCFG_MAX_LINE + 1];
    if (ll > NETCFG_MAX_LINE) {
      snprintf(err, errlen, "%s:%u: line longer than %d characters", name,
               lineno, NETCFG_MAX_LINE);
      return -1;
    }
    memcpy(line, text + pos, ll);
    line[ll] = 0;
    pos += ll + (nl ? 1 : 0);
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *s = trim(line);
    if (!*s) continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(err, errlen, "%s:%u: expected key = value", name, lineno);
      return -1;
    }
    *eq = 0;
    char *key = trim(s), *value = trim(eq + 1);
    char e2[512];
    if (netcfg_set(c, key, value, e2, sizeof e2)) {
      snprintf(err, errlen, "%s:%u: %s", name, lineno, e2);
      return -1;
    }
  }
  return 0;
}

int netcfg_load(net_cfg *c, const char *path, char *err, size_t errlen) {
  size_t n;
  char *text = asw_textfile_read(path, &n, err, errlen);
  if (!text) return -1;
  int rc = netcfg_parse(c, text, n, path, err, errlen);
  free(text);
  return rc;
}

/* §16.4: the keys of tori and meshes against the rest. */
static int netcfg_check_cube(const net_cfg *c, char *err, size_t errlen) {
  int cubic = c->topology == TOPO_TORUS || c->topology == TOPO_MESH;
  const char *tn = c->topology == TOPO_TORUS ? "torus" : "mesh";
  if (!cubic) {
    if (c->dims[0]) {
      snprintf(err, errlen, "dims: only for topology=torus or mesh (topology=%s: use %s)",
               c->topology == TOPO_RLFT ? "rlft" : c->topology == TOPO_KARY ? "kary" : "file",
               c->topology == TOPO_RLFT ? "ports and stages" : c->topology == TOPO_KARY
               ? "k and n" : "the file's switches");
      return -1;
    }
    if (c->bubble != 2) {
      snprintf(err, errlen, "bubble: only for topology=torus (bubble flow control, contract 16.1)");
      return -1;
    }
    if (c->cube_order) {
      snprintf(err, errlen, "routing: %s is for topology=torus or mesh%s",
               cube_order_names[c->cube_order], c->cube_order == 3
               ? " (fully adaptive routing on fat-trees: adap-noth-s-k)" : "");
      return -1;
    }
    if (c->groups != 2) {
      snprintf(err, errlen, "groups: only with routing=xoradap (topology=torus or mesh)");
      return -1;
    }
    if (c->sqs >= SQS_BBQ) {
      snprintf(err, errlen, "sqs: %s is for topology=torus or mesh",
               sqs_names_tab[c->sqs]);
      return -1;
    }
    return 0;
  }
  cube cb;
  if (!c->dims[0]) {
    snprintf(err, errlen, "dims: topology=%s needs dims (e.g. dims=16x16 or dims=8x8x8)", tn);
    return -1;
  }
  if (cube_parse(&cb, c->dims, c->topology == TOPO_TORUS, err, errlen)) return -1;
  if (cb.nodes > 65536) {
    snprintf(err, errlen, "dims=%s: %u nodes; at most 65536 (16-bit destination ids)",
             c->dims, cb.nodes);
    return -1;
  }
  if (c->topology == TOPO_MESH && c->bubble == 1) {
    snprintf(err, errlen, "bubble: a mesh has no rings (bubble flow control is for tori)");
    return -1;
  }
  if (c->routing != 0) {
    snprintf(err, errlen, "routing: topology=%s takes dor or direction-order (%s routing "
             "is for fat-trees)", tn, c->routing == 1 ? "oblivious" : "adaptive");
    return -1;
  }
  if (c->sqs == SQS_VFTREE || c->sqs == SQS_FLOW2SL || c->sqs == SQS_OBQA) {
    snprintf(err, errlen, "sqs: %s is a fat-tree scheme; topology=%s takes 1q dbbm bbq "
             "iodet xordet voqsw oodet voqnet", sqs_names_tab[c->sqs], tn);
    return -1;
  }
  if (c->sqs == SQS_VOQNET) { /* §16.6: the reference fabric, not the switch */
    const char *no =
        c->cube_order >= 3 ? "routing" : c->vcs != 1 ? "vcs" : c->voq ? "voq"
        : c->threads > 1 ? "threads" : c->flow_control ? "flow_control" : c->qcn ? "qcn"
        : c->lf_count || c->link_fault_rate > 0 ? "link_fault" : c->pg_count ? "port_gap"
        : c->traffic == TRAFFIC_TRACE ? "traffic" : NULL;
    if (no) {
      snprintf(err, errlen, "%s: sqs=voqnet is the simulator-only reference fabric (one VC per "
               "node, contract 16.6): %s", no,
               !strcmp(no, "routing") ? "it routes by dor or direction-order"
               : !strcmp(no, "vcs") ? "every node has its own VC; leave vcs at 1"
               : !strcmp(no, "voq") ? "its queues are per destination already; voq=0"
               : !strcmp(no, "threads") ? "it runs in one thread (threads=1)"
               : !strcmp(no, "traffic") ? "not with a trace (synthetic traffic only)"
               : "it has credit flow control and none of the switch's optional hardware");
      return -1;
    }
    if (cb.nodes > VQN_MAX_NODES) {
      snprintf(err, errlen, "dims=%s: sqs=voqnet keeps one queue per node on every port, at "
               "most %u nodes (this network has %u)", c->dims, (unsigned)VQN_MAX_NODES, cb.nodes);
      return -1;
    }
  }
  if (c->groups != 2 && c->cube_order != 4) {
    snprintf(err, errlen, "groups: only with routing=xoradap");
    return -1;
  }
  if (c->cube_order >= 3) { /* §16.3 adaptive: VC groups, escape VC 0 */
    const char *rn = cube_order_names[c->cube_order];
    if (c->sqs != SQS_1Q) {
      snprintf(err, errlen, "sqs: routing=%s chooses the VCs itself (contract 16.3); sqs=%s "
               "is for routing=dor or direction-order", rn, sqs_names_tab[c->sqs]);
      return -1;
    }
    if (c->vcs < 2) {
      snprintf(err, errlen, "vcs: routing=%s needs vcs >= 2 (escape VC 0 and adaptive VCs)", rn);
      return -1;
    }
    unsigned g = c->groups;
    if (c->cube_order == 4 && ((g & (g - 1)) || (c->vcs - 1) % g)) {
      snprintf(err, errlen, "groups=%u: routing=xoradap needs a power of two dividing the "
               "vcs - 1 = %u adaptive VCs", g, c->vcs - 1);
      return -1;
    }
  }
  if ((c->cube_order >= 3 || c->sqs == SQS_OODET) && c->voq) {
    snprintf(err, errlen, "voq: %s%s chooses VCs in the switch (contract 16.3, ROUTE_CTRL mode "
             "3), which needs voq=0", c->cube_order >= 3 ? "routing=" : "sqs=",
             c->cube_order >= 3 ? cube_order_names[c->cube_order] : "oodet");
    return -1;
  }
  if (c->sqs != SQS_1Q && c->sqs != SQS_VOQNET && c->vcs < 2) {
    snprintf(err, errlen, "sqs: %s classifies destinations into VCs: needs vcs >= 2",
             sqs_names_tab[c->sqs]);
    return -1;
  }
  if (c->arn || c->afi) {
    snprintf(err, errlen, "%s: the ARN/AFI mechanism (contract 15) is for fat-trees",
             c->arn ? "arn" : "afi");
    return -1;
  }
  if (c->ranks > 1) {
    snprintf(err, errlen, "ranks: topology=%s runs in one process (ranks = 1)", tn);
    return -1;
  }
  if (c->traffic == TRAFFIC_IHS) {
    snprintf(err, errlen, "traffic: ihs is a fat-tree pattern (second-stage up ports)");
    return -1;
  }
  return 0;
}

/* §16.5: the keys of file topologies against the rest. */
static int netcfg_check_file(const net_cfg *c, char *err, size_t errlen) {
  if (c->topology != TOPO_FILE) {
    if (c->file_routing) {
      snprintf(err, errlen, "routing: %s%s is for topology=file:PATH",
               c->file_routing == 1 ? "minhop" : c->file_routing == 2 ? "updn" : "table:",
               c->file_routing == 3 ? c->table_path : "");
      return -1;
    }
    if (c->cdg_check) {
      snprintf(err, errlen, "cdg_check: only for topology=file:PATH (the built-in topologies' "
               "routings are fixed)");
      return -1;
    }
    return 0;
  }
  if (c->routing != 0 || c->route_hash) {
    snprintf(err, errlen, "routing: topology=file takes minhop, updn or table:FILE (%s routing "
             "is for fat-trees)", c->route_hash == 1 ? "hashed" : c->route_hash == 2 ? "smodk"
             : c->routing == 1 ? "oblivious" : "adaptive");
    return -1;
  }
  if (c->sqs != SQS_1Q && c->sqs != SQS_DBBM && c->sqs != SQS_FLOW2SL && c->sqs != SQS_XORDET) {
    snprintf(err, errlen, "sqs: %s needs the structure of a fat-tree or a torus; topology=file "
             "takes 1q dbbm flow2sl xordet (or VCs in a table file)", sqs_names_tab[c->sqs]);
    return -1;
  }
  if (c->sqs != SQS_1Q && c->vcs < 2) {
    snprintf(err, errlen, "sqs: %s classifies packets into VCs: needs vcs >= 2",
             sqs_names_tab[c->sqs]);
    return -1;
  }
  const char *no = c->arn || c->afi ? (c->arn ? "arn" : "afi") : c->qcn ? "qcn"
                   : c->lf_count ? "link_fault" : c->link_fault_rate > 0 ? "link_fault_rate"
                   : c->ranks > 1 ? "ranks" : c->traffic == TRAFFIC_IHS ? "traffic" : NULL;
  if (no) {
    snprintf(err, errlen, "%s: not with topology=file (%s)", no,
             c->ranks > 1 && !strcmp(no, "ranks") ? "a file topology runs in one process"
             : !strcmp(no, "traffic") ? "ihs is a fat-tree pattern"
             : !strcmp(no, "qcn") ? "the CNM transport knows fat-trees only"
             : !strncmp(no, "link", 4) ? "the fabric manager knows D-mod-K only"
             : "the ARN/AFI mechanism (contract 15) is for fat-trees");
    return -1;
  }
  return 0;
}

int netcfg_check(const net_cfg *c, char *err, size_t errlen) {
  if (netcfg_check_cube(c, err, errlen)) return -1;
  if ((c->hs_packets || c->hs_cap) && c->traffic != TRAFFIC_HOTSPOT) {
    snprintf(err, errlen, "%s: only with traffic=hotspot (or hsX-Y)",
             c->hs_packets ? "hs_packets" : "hs_cap");
    return -1;
  }
  if (c->trace_hs > 0 && c->traffic != TRAFFIC_TRACE) {
    snprintf(err, errlen, "trace_hs: only with traffic=trace:FILE (hot sources beside a trace "
             "replay); synthetic hot spots are traffic=hsX-Y");
    return -1;
  }
  if (c->hs_packets && c->ranks > 1) {
    snprintf(err, errlen, "hs_packets: counts the hot packets delivered over the whole network; "
             "needs ranks = 1");
    return -1;
  }
  if (netcfg_check_file(c, err, errlen)) return -1;
  if (c->topology == TOPO_RLFT && c->ports % 2) {
    snprintf(err, errlen, "ports: %u must be even (K = P/2)", c->ports);
    return -1;
  }
  if (c->flow_control) { /* §17.1 headroom rule */
    unsigned hr = c->packet_flits + c->link_latency + c->credit_latency + c->vcs + 2;
    unsigned xoff = c->pfc_xoff ? c->pfc_xoff : (c->buffer_flits > hr ? c->buffer_flits - hr : 0);
    unsigned xon = c->pfc_xon ? c->pfc_xon : xoff / 2;
    if (c->buffer_flits <= hr) {
      snprintf(err, errlen, "buffer_flits: %u leaves no PFC headroom: it must exceed "
               "packet_flits + link_latency + credit_latency + vcs + 2 = %u (contract 17.1)",
               c->buffer_flits, hr);
      return -1;
    }
    if (xoff > c->buffer_flits - hr) {
      snprintf(err, errlen, "pfc_xoff: %u leaves %u flits of headroom, the link needs %u "
               "(packet_flits + link_latency + credit_latency + vcs + 2, contract 17.1)",
               xoff, c->buffer_flits > xoff ? c->buffer_flits - xoff : 0, hr);
      return -1;
    }
    if (xon >= xoff) {
      snprintf(err, errlen, "pfc_xon: %u must be below pfc_xoff %u", xon, xoff);
      return -1;
    }
    if (c->ranks > 1) {
      snprintf(err, errlen, "ranks: flow_control=pfc runs in one process (ranks = 1)");
      return -1;
    }
  } else if (c->pfc_xoff || c->pfc_xon) {
    snprintf(err, errlen, "%s: set, but flow_control is credit", c->pfc_xoff ? "pfc_xoff" : "pfc_xon");
    return -1;
  }
  if (c->qcn) { /* §17.5 */
    if (c->qcn_qeq % 64 || c->qcn_sample % 64 || c->rl_bc % 64) {
      snprintf(err, errlen, "%s: %u bytes is not a multiple of the 64-byte flit",
               c->qcn_qeq % 64 ? "qcn_qeq" : c->qcn_sample % 64 ? "qcn_sample" : "rl_bc",
               c->qcn_qeq % 64 ? c->qcn_qeq : c->qcn_sample % 64 ? c->qcn_sample : c->rl_bc);
      return -1;
    }
    if (c->qcn_qeq / 64 > 65535) {
      snprintf(err, errlen, "qcn_qeq: %u bytes exceeds QCN_QEQ (65535 flits)", c->qcn_qeq);
      return -1;
    }
    if (c->qcn_w & (c->qcn_w - 1)) {
      snprintf(err, errlen, "qcn_w: %u is not 1, 2, 4 or 8", c->qcn_w);
      return -1;
    }
    if (c->threads > 1 || c->ranks > 1) {
      snprintf(err, errlen, "%s: qcn=on runs in one thread and one process (threads = ranks = 1)",
               c->threads > 1 ? "threads" : "ranks");
      return -1;
    }
    if (c->switch_ar && c->cnm_path == 0) {
      snprintf(err, errlen, "cnm_path: routing=switch-ar snoops CNMs in the switches they cross, it needs "
               "cnm_path=lane (or auto), not direct");
      return -1;
    }
  } else if (c->rl) {
    snprintf(err, errlen, "rl: rate limiters react to CNMs, they need qcn=on");
    return -1;
  } else if (c->switch_ar) {
    snprintf(err, errlen, "routing: switch-ar steers by the CNMs of the QCN congestion points, it needs qcn=on");
    return -1;
  }
  if (c->sar_decay && !(c->qcn && (c->cnm_path == 1 || (c->cnm_path == 2 && c->switch_ar)))) {
    snprintf(err, errlen, "sar_decay: %u decays the Switch AR tables of the CNM lane, it needs "
             "qcn=on and cnm_path=lane (or routing=switch-ar)", c->sar_decay);
    return -1;
  }
  if (c->packet_flits > c->buffer_flits) {
    snprintf(err, errlen, "packet_flits: %u exceeds buffer_flits %u (virtual "
             "cut-through needs a whole packet of buffer)", c->packet_flits,
             c->buffer_flits);
    return -1;
  }
  if ((uint64_t)c->vcs * c->buffer_flits > 65536) {
    snprintf(err, errlen, "buffer_flits: vcs * buffer_flits = %llu exceeds "
             "65536", (unsigned long long)c->vcs * c->buffer_flits);
    return -1;
  }
  if (c->ltth > c->htth || c->htth > c->buffer_flits) {
    snprintf(err, errlen, "ltth: need ltth <= htth <= buffer_flits (got "
             "%u, %u, %u)", c->ltth, c->htth, c->buffer_flits);
    return -1;
  }
  unsigned afi = c->afi || c->arn == 2;
  if (c->arn == 1 && c->afi) {
    snprintf(err, errlen, "afi: needs arn=off (Adaptive-Th + AFI) or arn=afi "
             "(got arn=arn)");
    return -1;
  }
  if (afi && c->vcs < 2) {
    snprintf(err, errlen, "%s: the adapted-flow channel needs vcs >= 2 (vcs = %u)",
             c->arn == 2 ? "arn" : "afi", c->vcs);
    return -1;
  }
  if ((c->arn || afi) && c->arn_entries == 0) {
    snprintf(err, errlen, "arn_entries: must be >= 1 with arn=%s/afi=%u (ARN "
             "registers exist only with ARN hardware)", c->arn == 0 ? "off" :
             c->arn == 1 ? "arn" : "afi", c->afi);
    return -1;
  }
  if (c->arn && !c->voq) {
    snprintf(err, errlen, "arn: the congestion detector needs voq=1");
    return -1;
  }
  if (c->sa_pipe && c->iters != 1) {
    snprintf(err, errlen, "sa_pipe: on needs iters=1 (iters=%u; contract 8.1: one grant phase)",
             c->iters);
    return -1;
  }
  if (c->sa_pipe && c->cube_order >= 3) {
    snprintf(err, errlen, "sa_pipe: on excludes the VC-adaptive routings (fully-adaptive, "
             "xoradap: contract 8.1)");
    return -1;
  }
  if (c->lcdth > c->hcdth) {
    snprintf(err, errlen, "lcdth_pct: must be <= hcdth_pct (got %u%% > %u%%)", c->lcdth,
             c->hcdth);
    return -1;
  }
  unsigned q = c->vcs - afi; /* the AFC is not a source queue (§7.4, §13) */
  if (c->sqs == SQS_XORDET && (q & (q - 1))) {
    snprintf(err, errlen, "sqs: xordet needs a power-of-two number of queues "
             "(vcs%s = %u)", afi ? " - 1 (AFC)" : "", q);
    return -1;
  }
  if (c->traffic == TRAFFIC_TRACE && c->ranks > 1) {
    snprintf(err, errlen, "traffic: trace replay runs in one process (ranks = 1, got %u)", c->ranks);
    return -1;
  }
  if (netcfg_faulty(c)) { /* §18.6 */
    uint64_t min_down = (uint64_t)c->vcs * c->packet_flits; /* padding time, §18.3 */
    for (unsigned i = 0; i < c->lf_count; i++)
      if (c->lf[i].up && c->lf[i].up - c->lf[i].down < min_down) {
        snprintf(err, errlen, "link_fault: %u:%u is down %llu cycles, less than vcs * packet_flits "
                 "= %llu (the far input pads a cut packet while the link is down, §18.3)",
                 c->lf[i].sw, c->lf[i].port, (unsigned long long)(c->lf[i].up - c->lf[i].down),
                 (unsigned long long)min_down);
        return -1;
      }
    if (c->link_fault_rate > 0 && c->link_down_cycles < min_down) {
      snprintf(err, errlen, "link_down_cycles: %llu is less than vcs * packet_flits = %llu (§18.3)",
               (unsigned long long)c->link_down_cycles, (unsigned long long)min_down);
      return -1;
    }
    if (c->ranks > 1 || c->flow_control) {
      snprintf(err, errlen, "%s: link faults run in one process with flow_control=credit",
               c->lf_count ? "link_fault" : "link_fault_rate");
      return -1;
    }
    if (c->topology == TOPO_TORUS || c->topology == TOPO_MESH) { /* the FM knows D-mod-K only */
      snprintf(err, errlen, "%s: link faults need a fat tree (topology rlft or kary)",
               c->lf_count ? "link_fault" : "link_fault_rate");
      return -1;
    }
  }
  if (c->warmup + c->cycles > 2000000000ull) {
    snprintf(err, errlen, "cycles: warmup + cycles must be <= 2e9");
    return -1;
  }
  /* packet timestamps are 31-bit cycle numbers */
  if (c->drain && c->warmup + c->cycles + c->drain_limit > 2147483647ull) {
    snprintf(err, errlen, "drain_limit: warmup + cycles + drain_limit must be < 2^31");
    return -1;
  }
  return 0;
}

static void fmt_value(const net_cfg *c, const key_desc *k, char *out,
                      size_t len, int json) {
  const char *base = (const char *)c;
  switch (k->type) {
  case K_UINT:
    snprintf(out, len, "%u", *(const unsigned *)(base + k->off));
    return;
  case K_U64:
    snprintf(out, len, "%llu",
             (unsigned long long)*(const uint64_t *)(base + k->off));
    return;
  case K_DBL: { /* 15 digits, or 17 when 15 would not read back the same */
    const double d = *(const double *)(base + k->off);
    snprintf(out, len, "%.15g", d);
    if (strtod(out, NULL) != d) snprintf(out, len, "%.17g", d);
    return;
  }
  case K_DIMS: /* empty only outside tori and meshes (--help) */
    snprintf(out, len, json ? "\"%s\"" : "%s", c->dims[0] || json ? c->dims : "none");
    return;
  case K_ENUM:
    if (k->off == offsetof(net_cfg, topology) && c->topology == TOPO_FILE) { /* §16.5 */
      snprintf(out, len, json ? "\"file:%s\"" : "file:%s", c->topo_path);
      return;
    }
    if (k->off == offsetof(net_cfg, routing) &&
        (c->file_routing ||
         (c->topology == TOPO_FILE && c->routing == 0 && !c->route_hash && !c->cube_order &&
          !c->switch_ar))) {
      if (c->file_routing == 3)
        snprintf(out, len, json ? "\"table:%s\"" : "table:%s", c->table_path);
      else
        snprintf(out, len, json ? "\"%s\"" : "%s", c->file_routing == 2 ? "updn" : "minhop");
      return; /* §16.5 */
    }
    if (k->off == offsetof(net_cfg, routing) &&
        (c->cube_order || ((c->topology == TOPO_TORUS || c->topology == TOPO_MESH) &&
                           c->routing == 0 && !c->route_hash && !c->switch_ar))) {
      /* a cube routing on a fat-tree, or a fat-tree routing on a cube, is echoed as
       * given (netcfg_check refuses both) */
      snprintf(out, len, json ? "\"%s\"" : "%s",
               cube_order_names[c->cube_order ? c->cube_order : 1]);
      return; /* §16.4 */
    }
    if (k->off == offsetof(net_cfg, routing) && c->switch_ar) { /* §17.8 */
      snprintf(out, len, json ? "\"switch-ar\"" : "switch-ar");
      return;
    }
    if (k->off == offsetof(net_cfg, routing) && c->route_hash) { /* §17.6 */
      snprintf(out, len, json ? "\"%s\"" : "%s", c->route_hash == 1 ? "hashed" : "smodk");
      return;
    }
    if (k->off == offsetof(net_cfg, bubble)) { /* §16.4: auto resolved */
      unsigned cubic = c->topology == TOPO_TORUS || c->topology == TOPO_MESH;
      unsigned on = c->bubble == 2 ? c->topology == TOPO_TORUS : c->bubble;
      snprintf(out, len, json ? "\"%s\"" : "%s",
               c->bubble == 2 && !cubic ? "auto" : on ? "on" : "off");
      return;
    }
    if (k->off == offsetof(net_cfg, traffic) && c->traffic == TRAFFIC_TRACE) {
      snprintf(out, len, json ? "\"trace:%s\"" : "trace:%s", c->trace_path);
      return;
    }
    if (k->off == offsetof(net_cfg, traffic) && c->traffic == TRAFFIC_FLOW) {
      snprintf(out, len, json ? "\"flow%u-%u\"" : "flow%u-%u", c->flow_src, c->flow_dst);
      return;
    }
    snprintf(out, len, json ? "\"%s\"" : "%s",
             k->names[*(const unsigned *)(base + k->off)]);
    return;
  case K_STAGES: {
    if ((c->adaptive_stages & 0xFF) == 0xFF) {
      snprintf(out, len, json ? "\"all\"" : "all");
      return;
    }
    size_t n = (size_t)snprintf(out, len, json ? "\"" : "");
    for (unsigned s = 0; s < 8 && n < len; s++)
      if (c->adaptive_stages & (1u << s))
        n += (size_t)snprintf(out + n, len - n, "%s%u",
                              (c->adaptive_stages & ((1u << s) - 1)) ? "," : "",
                              s + 1);
    if (json && n < len) snprintf(out + n, len - n, "\"");
    return;
  }
  case K_GAPS: {
    if (!c->pg_count) {
      snprintf(out, len, json ? "\"none\"" : "none");
      return;
    }
    size_t n = (size_t)snprintf(out, len, json ? "\"" : "");
    for (unsigned i = 0; i < c->pg_count && n < len; i++)
      n += (size_t)snprintf(out + n, len - n, "%s%u:%u:%u", i ? "," : "", c->pg[i].sw,
                            c->pg[i].port, c->pg[i].gap);
    if (json && n < len) snprintf(out + n, len - n, "\"");
    return;
  }
  case K_FAULTS: {
    if (!c->lf_count) {
      snprintf(out, len, json ? "\"none\"" : "none");
      return;
    }
    size_t n = (size_t)snprintf(out, len, json ? "\"" : "");
    for (unsigned i = 0; i < c->lf_count && n < len; i++)
      n += (size_t)snprintf(out + n, len - n, "%s%u:%u:%llu:%llu", i ? "," : "", c->lf[i].sw,
                            c->lf[i].port, (unsigned long long)c->lf[i].down,
                            (unsigned long long)c->lf[i].up);
    if (json && n < len) snprintf(out + n, len - n, "\"");
    return;
  }
  case K_HSNODES: {
    if (!c->hs_nodes_given) {
      snprintf(out, len, json ? "\"auto\"" : "auto");
      return;
    }
    size_t n = (size_t)snprintf(out, len, json ? "\"" : "");
    for (unsigned i = 0; i < c->hs_nodes_given && n < len; i++)
      n += (size_t)snprintf(out + n, len - n, "%s%u", i ? "," : "",
                            c->hs_nodes[i]);
    if (json && n < len) snprintf(out + n, len - n, "\"");
    return;
  }
  }
}

/* The §16.4 keys, left out of the echo of other topologies (fat-tree bytes
 * unchanged), and §16.5's cdg_check of non-file topologies, but only at their
 * default value: a value given reloads (and netcfg_check refuses it there). */
static int netcfg_cube_key(const net_cfg *c, const key_desc *k) {
  if (k->off == offsetof(net_cfg, cdg_check)) /* §16.5 */
    return c->topology != TOPO_FILE && c->cdg_check == 0;
  int cubic = c->topology == TOPO_TORUS || c->topology == TOPO_MESH;
  if (k->off == offsetof(net_cfg, dims)) return !cubic && !c->dims[0];
  if (k->off == offsetof(net_cfg, bubble)) return !cubic && c->bubble == 2;
  if (k->off == offsetof(net_cfg, groups)) return c->cube_order != 4 && c->groups == 2;
  return 0;
}

/* The §17.3 keys, left out of the echo of a credit run (its bytes unchanged). */
static int netcfg_pfc_key(const key_desc *k) {
  return k->off == offsetof(net_cfg, flow_control) || k->off == offsetof(net_cfg, pfc_xoff) ||
         k->off == offsetof(net_cfg, pfc_xon) || k->off == offsetof(net_cfg, pfc_storm);
}
/* The §17.5 keys, left out of the echo unless qcn = on. */
static int netcfg_qcn_key(const key_desc *k) {
  return k->off >= offsetof(net_cfg, qcn) && k->off <= offsetof(net_cfg, rl_bc);
}

/* The §18.6 keys, left out of the echo of a run without link faults. */
static int netcfg_fault_key(const key_desc *k) {
  return k->off == offsetof(net_cfg, lf) || k->off == offsetof(net_cfg, link_fault_rate) ||
         k->off == offsetof(net_cfg, link_down_cycles) || k->off == offsetof(net_cfg, fm_delay);
}

/* 1 if key k is left out of the echo of c: a §17.3 key of a credit run, a
 * §17.5 key of a run without QCN or a §18.6 key of a run without link faults,
 * at its default value (a value set is echoed, so the echo always reloads to
 * the same configuration). */
static int netcfg_quiet_key(const net_cfg *c, const key_desc *k) {
  int gap_key = k->off == offsetof(net_cfg, pg) || /* §17.7: echoed only when given */
                k->off == offsetof(net_cfg, hs_packets) || k->off == offsetof(net_cfg, hs_cap);
  if (!gap_key && !(netcfg_pfc_key(k) && !c->flow_control) && !(netcfg_qcn_key(k) && !c->qcn) &&
      !(netcfg_fault_key(k) && !netcfg_faulty(c)))
    return 0;
  net_cfg d;
  netcfg_default(&d);
  char a[NETCFG_MAX_PATH + 64], b[NETCFG_MAX_PATH + 64];
  fmt_value(c, k, a, sizeof a, 0);
  fmt_value(&d, k, b, sizeof b, 0);
  return !strcmp(a, b);
}

void netcfg_json(const net_cfg *c, FILE *f) {
  fputc('{', f);
  for (unsigned i = 0; i < NKEYS; i++) {
    char v[NETCFG_MAX_PATH + 64]; /* traffic = trace:FILE is the longest */
    if (keys[i].off == offsetof(net_cfg, threads) || keys[i].off == offsetof(net_cfg, ranks) ||
        keys[i].off == offsetof(net_cfg, sync_every))
      continue; /* same bytes for any */
    if (netcfg_quiet_key(c, &keys[i])) continue; /* §17.3, §17.5, §18.6 at their defaults */
    if (netcfg_cube_key(c, &keys[i])) continue; /* §16.4: fat-trees */
    fmt_value(c, &keys[i], v, sizeof v, 1);
    fprintf(f, "%s\"%s\": %s", i ? ", " : "", keys[i].name, v);
  }
  fputc('}', f);
}

void netcfg_resolve_auto(net_cfg *c) {
  /* a fat-tree routing (refused there), switch-ar included */
  const int given = c->routing != 0 || c->route_hash != 0 || c->switch_ar != 0;
  if (c->topology == TOPO_TORUS || c->topology == TOPO_MESH) {
    if (c->bubble == 2) c->bubble = c->topology == TOPO_TORUS;
    /* a file topology's routing (minhop, updn, table:, refused by netcfg_check) is
     * echoed as given too */
    if (!c->cube_order && !given && !c->file_routing) c->cube_order = 1;
  }
  /* a cube routing (dor, direction-order, refused there) is echoed as given too */
  if (c->topology == TOPO_FILE && !c->file_routing && !given && !c->cube_order)
    c->file_routing = 1;
}

void netcfg_write(const net_cfg *c, FILE *f) {
  for (unsigned i = 0; i < NKEYS; i++) {
    char v[NETCFG_MAX_PATH + 64]; /* traffic = trace:FILE is the longest */
    if (netcfg_quiet_key(c, &keys[i])) continue;
    if (netcfg_cube_key(c, &keys[i])) continue; /* §16.4 */
    fmt_value(c, &keys[i], v, sizeof v, 0);
    fprintf(f, "%s = %s\n", keys[i].name, v);
  }
}

void netcfg_help(FILE *f) {
  net_cfg d;
  netcfg_default(&d);
  for (unsigned i = 0; i < NKEYS; i++) {
    char v[NETCFG_MAX_PATH + 64]; /* traffic = trace:FILE is the longest */
    fmt_value(&d, &keys[i], v, sizeof v, 0);
    fprintf(f, "  %-16s %s [default %s]\n", keys[i].name, keys[i].help, v);
  }
}
