/* network.h — whole-network simulation of fat-trees built from the C switch
 * model (asw_switch.h): end nodes, links, traffic, statistics, watchdog.
 *
 * Time is in switch cycles. A flit a switch (or end node) emits in cycle c
 * is on the far input in cycle c + link_latency; a credit in cycle
 * c + credit_latency. Idle switches are not stepped (asw_switch_idle).
 * Flit payloads carry the packet id, generation and injection cycles so the
 * sink can measure latency and check conservation and ordering.
 */
#ifndef NET_NETWORK_H
#define NET_NETWORK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../asw_switch.h"
#include "cdg.h"
#include "netcfg.h"
#include "topo.h"

typedef struct net net;

/* Builds topology, switches (tables programmed), end nodes and traffic.
 * Returns NULL with a message naming the offending key in err. */
net *net_new(const net_cfg *cfg, char *err, size_t errlen);
void net_free(net *n);

/* Observer of every switch, for lockstep checks of another implementation of
 * the switch (tb/net: the RTL). Both callbacks may be NULL.
 * - reg_write: a register write net_new made to switch s while programming
 *   its tables (all before cycle 0, in order).
 * - step: switch s was stepped in cycle `cycle` with these inputs and
 *   outputs. A switch that is not stepped in a cycle is idle in it: no
 *   inputs, no outputs, no state change (asw_switch_idle). A non-zero return
 *   stops the run with NET_RUN_ERROR and the text the observer put in err.
 * - link: §18.6, the link pins of switch s change in cycle `cycle` to these
 *   (asw_switch_set_link_up); called before the cycle's steps, and the switch
 *   is stepped in it.
 * Called in a deterministic order (cycle, then the network's switch order). */
typedef struct {
  void *ctx;
  void (*reg_write)(void *ctx, unsigned s, uint32_t addr, uint32_t data);
  int (*step)(void *ctx, unsigned s, uint64_t cycle, const asw_inputs *in,
              const asw_outputs *out, char *err, size_t errlen);
  void (*link)(void *ctx, unsigned s, uint64_t cycle, uint64_t up, uint64_t rx_up);
} net_observer;

/* net_new with an observer (copied; obs may be NULL). */
net *net_new_observed(const net_cfg *cfg, const net_observer *obs, char *err,
                      size_t errlen);
/* Distributed run (cfg.ranks > 1): this process is rank `rank` of `ranks`
 * and simulates its share of the network (a block of pods: their end nodes
 * and switches; the top-stage switches spread evenly); flits, credits and
 * ARN messages on links between ranks are exchanged once per cycle. The
 * transport is the caller's (cmodel/net/net_mpi.c: MPI); both callbacks are
 * collective: every rank calls them in the same order.
 * - exchange: sends len_out[r] bytes at out + off_out[r] to each rank r
 *   (its own share included, len 0) together with `nh` words hdr_out[r*nh..]
 *   and receives the words every rank sent it in hdr_in[r*nh..] and the
 *   bytes in one buffer *in (owned by the transport, valid until the next
 *   call) of *in_len bytes. Returns 0 or -1.
 * - sum: element-wise sum over the ranks of u64[nu] and f64[nf], in place
 *   on every rank. Returns 0 or -1.
 * Results are byte-identical to the single-process run (rank 0 writes them
 * after net_run); the packet ids differ (rank + ranks * k) but are never
 * observable. */
typedef struct {
  void *ctx;
  unsigned rank, ranks;
  int (*exchange)(void *ctx, unsigned nh, const uint64_t *hdr_out, uint64_t *hdr_in,
                  const void *out, const size_t *off_out, const size_t *len_out,
                  const void **in, size_t *in_len);
  int (*sum)(void *ctx, uint64_t *u, size_t nu, double *f, size_t nf);
} net_comm;

/* net_new for one rank of a distributed run: comm->ranks must equal
 * cfg->ranks. Each rank builds only its own switches and end-node state. */
net *net_new_part(const net_cfg *cfg, const net_comm *comm, char *err, size_t errlen);

/* Messages and bytes this rank sent to other ranks so far (flits, credits,
 * ARN messages; payload bytes without the per-cycle headers). */
void net_comm_stats(const net *n, uint64_t *msgs, uint64_t *bytes, uint64_t *syncs);

/* The elaboration parameters every switch of the network was built with. */
void net_switch_config(const net *n, asw_config *out);
/* Switch s (NULL if s is out of range): for the lockstep harness to step and
 * read it after net_run, together with its twin. */
asw_switch *net_switch(const net *n, unsigned s);

typedef void (*net_progress_fn)(void *ctx, uint64_t cycle, uint64_t total);

enum {
  NET_RUN_OK = 0,
  NET_RUN_WATCHDOG = 1, /* deadlock or starvation: see net_watchdog_report */
  NET_RUN_ERROR = 2,    /* protocol error or drain limit: net_error */
};

/* Runs warmup + cycles (and the drain phase if configured). progress (may
 * be NULL) is called every few thousand cycles. */
int net_run(net *n, net_progress_fn progress, void *ctx);

const char *net_error(const net *n);
/* topology=file with cdg_check=warn (contract §16.5): the channel-dependency
 * cycle of the routing ("channel-dependency cycle of K channels: ..."), or ""
 * when the routing has none (or the topology is not a file). */
const char *net_routing_check(const net *n);
/* Multi-line report of the blocked resources when the watchdog fired. */
const char *net_watchdog_report(const net *n);

/* One channel of a channel-dependency cycle: input port `in`, VC `vc` of switch
 * `sw`, whose head packet waits for the credits of output `out`, VC `out_vc`
 * (the far end of that link is the next hop's switch, input and VC). */
typedef cdg_hop net_dl_hop; /* cdg.h */

/* After a deadlock stop (NET_RUN_WATCHDOG, "deadlock" report) of a one-process
 * run: the cycle of waiting channels the watchdog found, starting at its
 * lowest (switch, input, VC); hop j waits for hop j+1, the last for hop 0.
 * Returns its length and sets *hops (owned by n; may be NULL); 0 if there is
 * no cycle (e.g. sinks that do not consume) or the watchdog did not fire. The
 * report (net_watchdog_report) and the JSON ("deadlock_cycle", present only
 * then) show the same cycle. */
unsigned net_deadlock_cycle(const net *n, const net_dl_hop **hops);

typedef struct {
  uint64_t cycles_run;       /* total cycles simulated incl. drain */
  uint64_t measured_cycles;
  double offered_load;       /* generated (incl. refused) flits/node/cycle */
  double admitted_load;      /* admitted flits/node/cycle */
  double accepted_throughput;/* delivered flits/node/cycle */
  double accepted_hot, accepted_cold;
  double latency_mean, latency_p99;         /* network: inject -> tail */
  double latency_e2e_mean, latency_e2e_p99; /* generation -> tail */
  double latency_hot_mean, latency_hot_p99;
  double latency_cold_mean, latency_cold_p99;
  uint64_t packets_generated, packets_refused, packets_delivered;
  uint64_t packets_measured; /* delivered within the measurement window */
  uint64_t duplicates, order_violations, reordered;
  uint64_t in_flight;        /* admitted but not delivered at the end */
  uint64_t adaptive_decisions, adaptive_measured, route_errors;
  uint64_t credit_stalls;
  uint64_t flit_hops;        /* flits leaving switch outputs */
  /* §15 counters summed over all switches and ports (whole run) */
  uint64_t arn_roots, arn_sent, arn_received, arn_consumed, arn_expired;
  uint64_t arn_adapted, arn_in_dropped, arn_out_dropped, arn_evicted;
  uint64_t arn_at_nodes;     /* ARN messages received by end nodes */
  /* §17.3 PFC (flow_control = pfc): frames sent by switches and sinks, the
   * longest pause of a link's priority, pauses longer than pfc_storm */
  uint64_t pause_frames, pause_max_cycles, pause_storms;
  uint64_t frames_dropped;   /* flits that found a full buffer (the run stops at the first) */
  int order_checked, drained;
} net_results;

void net_get_results(const net *n, net_results *r);
const topo *net_topo(const net *n);
/* hs_packets: the cycle from which the hot flows are over (0: still open, or no hs_packets). */
uint64_t net_hs_closed(const net *n);

/* JSON summary: configuration echoed, results; the wall-clock figures go
 * on the last line so determinism checks can drop it. */
void net_write_json(const net *n, FILE *f, double wall_seconds,
                    long max_rss_kb);
/* One CSV row per window of `window` cycles. */
void net_write_csv(const net *n, FILE *f);
/* Short human-readable summary. */
void net_write_text(const net *n, FILE *f);

/* asw net --trace-out: records every packet the (synthetic) traffic admits into
 * t (cmodel/net/trace.h; owned by the caller, alive until net_free), so that
 * `traffic=trace:FILE` replays the same packets. Before net_run; -1 with ranks > 1
 * or traffic=trace. */
struct trace;
int net_record_trace(net *n, struct trace *t);

#endif
