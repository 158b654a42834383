/* tb_traffic.h — stimulus for the lockstep co-simulation (tb/): upstream
 * senders that respect credits, downstream receivers that return credits
 * after random delays, and register traffic (table programming, rewrites,
 * reads). Pure C11; drives the RTL and the C model with identical inputs.
 */
#ifndef TB_TRAFFIC_H
#define TB_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "asw_switch.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TB_ROUTE_DET, TB_ROUTE_OBL, TB_ROUTE_ADA, TB_ROUTE_TH, TB_ROUTE_2TH, TB_ROUTE_N };
enum { TB_VC_ID, TB_VC_SL, TB_VC_OBQA, TB_VC_AFI, TB_VC_OBQA_AFI, TB_VC_N };
enum {
  TB_SCEN_RANDOM,   /* phases of every kind below, chosen at random */
  TB_SCEN_HOTSPOT,  /* all inputs to one destination */
  TB_SCEN_FULL,     /* saturating load, slow receivers: buffers fill */
  TB_SCEN_ZEROCRED, /* receivers withhold every credit for long stretches */
  TB_SCEN_LEN1,     /* 1-flit packets back to back */
  TB_SCEN_LENMAX,   /* LMAX-flit packets back to back */
  TB_SCEN_REWRITE,  /* frequent table/mode rewrites while traffic flows */
  TB_SCEN_PROTO,    /* negative test: one link-protocol violation mid-run, which
                       both the C model (ASW_EPROTO) and the RTL (assertion) flag */
  TB_SCEN_N
};

typedef struct {
  unsigned routing;  /* TB_ROUTE_* */
  unsigned vcmap;    /* TB_VC_* */
  unsigned scenario; /* TB_SCEN_* */
  uint64_t seed;
  uint64_t cycles;   /* total, the last part is a drain */
} tb_opts;

/* Parses names ("det", "obl", "ada", "th", "2th"; "id", "sl", "obqa", "afi",
 * "obqa-afi"; scenario names as in the enum, lower case). -1 if unknown. */
int tb_routing_from_name(const char *s);
int tb_vcmap_from_name(const char *s);
int tb_scenario_from_name(const char *s);
const char *tb_routing_name(unsigned r);
const char *tb_vcmap_name(unsigned v);
const char *tb_scenario_name(unsigned s);

typedef struct tb_traffic tb_traffic;

/* NULL with a message if the options do not fit the configuration. */
tb_traffic *tb_new(const asw_config *cfg, const tb_opts *o, char *err, size_t errlen);
void tb_free(tb_traffic *t);

/* The inputs of cycle `cycle` (pointers stay valid until the next call). */
void tb_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in);
/* The outputs of the same cycle (as produced by the reference). */
void tb_outputs(tb_traffic *t, uint64_t cycle, const asw_outputs *out);

/* Cycle of the injected protocol violation (TB_SCEN_PROTO), UINT64_MAX if none yet. */
uint64_t tb_proto_cycle(const tb_traffic *t);

/* After the drain: every flit sent arrived and every credit came back.
 * 0 if so, else -1 with a message. */
int tb_check_end(const tb_traffic *t, char *msg, size_t msglen);

typedef struct {
  uint64_t flits_sent, flits_recv, packets_sent, reg_reads, reg_writes;
  uint64_t fills;  /* times an input VC's buffer became full (sender at 0 credits) */
  uint64_t drains; /* times the switch became empty again after holding flits */
} tb_stats;
void tb_get_stats(const tb_traffic *t, tb_stats *s);

#ifdef __cplusplus
}
#endif
#endif
