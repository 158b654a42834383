/* netref.h — plain-C facade over the network simulator (cmodel/net/) for the
 * multi-switch lockstep harness (tb/net/cosim_net.cpp): settings, the network
 * with its observer, the run and the counters the harness checks. C++ sees
 * only this header and cmodel/asw_switch.h (the model's other headers are
 * C11-only). Built with gcc as C11 together with cmodel/ and cmodel/net/.
 */
#ifndef TB_NET_NETREF_H
#define TB_NET_NETREF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "asw_switch.h"
#include "net/network.h" /* net_observer (plain C, no C11-only construct) */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct netref netref;

/* The observer is the network's own (net_observer in cmodel/net/network.h):
 * every register write the table generator makes to switch s (before cycle 0,
 * in order), then every switch step. */
/* Builds the network from `key=value` settings (applied in order over the
 * defaults of `asw net`). obs may be NULL. Returns NULL with the network's
 * own message in err on a bad key, value or configuration. */
netref *netref_new(int nsettings, char *const *settings, const net_observer *obs,
                   char *err, size_t errlen);
void netref_free(netref *r);

/* The elaboration parameters of every switch, the number of switches. */
void netref_switch_config(const netref *r, asw_config *cfg);
unsigned netref_switches(const netref *r);
/* Stage (1 = leaf) of switch s. */
unsigned netref_stage(const netref *r, unsigned s);

/* Runs the network. Returns 0, or -1 with the message in err (an observer
 * stop, a protocol error, the drain limit or the watchdog report). */
int netref_run(netref *r, char *err, size_t errlen);

/* Progress of every later netref_run on stderr (make cosim-net): a bar on a terminal,
 * else a line every every_s seconds; 0 (the default): none. */
void netref_progress(double every_s);

/* One more cycle of C switch s after netref_run (asw_switch_step), e.g. the
 * register reads the harness makes of every switch and its twin at the end. */
int netref_step(netref *r, unsigned s, const asw_inputs *in, asw_outputs *out);

/* §17.4: the CNM registers of C switch s now (its CNM outputs in its next cycle):
 * valid mask, words in msgs[o] (asw_switch_cnm). */
uint64_t netref_cnm(const netref *r, unsigned s, uint64_t *msgs);

/* Counters summed over all switches and ports (whole run), as the network
 * reads them from its C switches' registers. */
typedef struct {
  uint64_t cycles_run;
  uint64_t packets_generated, packets_delivered;
  uint64_t route_errors, credit_stalls, adaptive_decisions;
  uint64_t arn[ASW_ACNT_NUM]; /* ASW_ACNT_* */
  uint64_t arn_at_nodes;
  uint64_t link[ASW_LCNT_NUM]; /* §18.4 link counters (ASW_LCNT_*), read from the switches */
} netref_counts;
void netref_counts_get(const netref *r, netref_counts *c);

/* The network's own short summary (as `asw net` prints it). */
void netref_write_text(const netref *r, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
