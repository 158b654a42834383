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
  /* Directed §15 scenarios (need AE >= 1 and ARN on, except as noted). Each
   * asserts its own counter / state outcome read from the C model. */
  TB_SCEN_REFRESH,  /* §15.3 step 1: same message repeated: 1 entry, refreshed */
  TB_SCEN_REPLACE,  /* step 2: same {dest, port, vc}, new ids: replaced, not expired */
  TB_SCEN_ADAPTED,  /* step 3: roots of adapted offenders make no entry */
  TB_SCEN_CONSUME,  /* step 4: consumed with a candidate (most credits), without one,
                       stage mismatch; timeline of an entry (valid c+1..c+TTL) */
  TB_SCEN_EVICT,    /* step 5: add until full, then evict the smallest ttl */
  TB_SCEN_DROP,     /* §15.4: event FIFO overflow (arn_in_dropped) */
  TB_SCEN_BRANCH,   /* §15.5 branches 1 (alt port), 2 (ARN upstream), 3 (plain) */
  TB_SCEN_HYST,     /* §15.2 hot flags with hysteresis (vs an own model) */
  TB_SCEN_FCTH,     /* root (credits > FCTH) vs branch (credits withheld) */
  TB_SCEN_CRT,      /* root declared after CRT cycles of cond, timer checks */
  TB_SCEN_ROOT,     /* root refresh (same id, entry kept alive) and clear */
  TB_SCEN_CLEAR,    /* ARN_CTRL mode 0 in mid-traffic resets all §15 state */
  TB_SCEN_N
};
/* ARN configuration (ARN=...): off, ARN (mode 1), ARN+AFI (mode 2),
 * Adaptive-Th + AFI (mark_adapted, mode 0). */
enum { TB_ARN_OFF, TB_ARN_ARN, TB_ARN_AFI, TB_ARN_ADTH, TB_ARN_N };
#define TB_FIRST_ARN_SCEN TB_SCEN_REFRESH

typedef struct {
  unsigned routing;  /* TB_ROUTE_* */
  unsigned vcmap;    /* TB_VC_* */
  unsigned scenario; /* TB_SCEN_* */
  uint64_t seed;
  uint64_t cycles;   /* total, the last part is a drain */
  /* §15 (AE = cfg.arn_entries >= 1): values < 0 are drawn per seed and may be
   * rewritten during the run; values >= 0 are fixed. */
  unsigned arn;      /* TB_ARN_* */
  long hcdth, lcdth, fcth, crt, ttl, stage;
  /* ARN_CTRL options [4:3] = {alt_refresh, adapted_arn} (§15.3, §15.5) with
   * ARN=arn|afi; < 0: drawn from the seed (random runs; 0 in directed ones). */
  long arnx;
  int64_t up;        /* ARN_UP port mask */
  unsigned bubble;   /* §16.1: 1 programs BUBBLE[o] (and rewrites it); 0 leaves it off */
  /* §17.1: ports in PFC mode (0: every port a credit port). Senders on them obey
   * the frames, receivers pause and resume at random instead of returning credits. */
  uint64_t pfc;
  /* §18 link faults: each link (output p to its receiver, input p from its sender) goes
   * down with this probability per cycle, for V*LMAX .. 5*V*LMAX cycles (0: never). */
  double linkfault;
  /* §17.4: 1 enables the QCN congestion points with frequent sampling (small
   * QCN_SAMPLE and QCN_QEQ, random WL/FBSH/cpid) and rewrites the QCN registers. */
  unsigned qcn;
  /* §17.6: 1 programs ROUTE_HASH (flow hash or source digit, random SHIFT/BITS) and
   * rewrites it, illegal values too, while traffic flows. */
  unsigned hash;
  /* §17.7: 1 programs PORT_GAP (random GAPs, most outputs slowed) and rewrites it,
   * illegal values too, while traffic flows; checks the flit spacing of every output. */
  unsigned gap;
  /* §16.3: 1 programs ROUTE_CTRL mode 3 (VC-adaptive; needs VOQ = 0 and the
   * vc_adaptive feature), FWD entries with random amask / vlo / vn and VC_CTRL with random fb / fb_same /
   * esc_vc, and rewrites them (illegal values too) while traffic flows. */
  unsigned vcadapt;
  /* §17.8: 1 programs Switch AR (SAR_CTRL en with steer mostly on, SAR_TTL with small TTL and
   * TS so entries expire during the run, SAR_SEED) and rewrites it (en = 0 clears, illegal
   * values too), with FWD entries for a pool of destinations that CNM words on the lane
   * (busier than the background lane traffic of every run) name; needs SE >= 1 and the
   * qcn feature. */
  unsigned sar;
} tb_opts;

/* Fills defaults: everything 0 / off, ARN values drawn per seed (-1). */
void tb_opts_default(tb_opts *o);
/* Parses one run option shared by the co-simulation binaries: --routing
 * --vcmap --scen --seed --cycles --arn --arnx --hcdth --lcdth --fcth --crt --ttl
 * --up --stage --bubble --pfc --linkfault --qcn --hash --gap --vcadapt --sar. Returns 1 if `name` is one of them and `val` is valid, 0 if
 * `name` is not one of them, -1 with a message if `val` is invalid. */
int tb_parse_opt(tb_opts *o, const char *name, const char *val, char *err, size_t errlen);

/* Parses names ("det", "obl", "ada", "th", "2th"; "id", "sl", "obqa", "afi",
 * "obqa-afi"; scenario names as in the enum, lower case). -1 if unknown. */
int tb_routing_from_name(const char *s);
int tb_vcmap_from_name(const char *s);
int tb_scenario_from_name(const char *s);
int tb_arn_from_name(const char *s); /* "off" "arn" "afi" "adaptive-th-afi" */
const char *tb_arn_name(unsigned a);
/* Space-separated list of the scenario names (for messages). */
const char *tb_scenario_list(void);
const char *tb_routing_name(unsigned r);
const char *tb_vcmap_name(unsigned v);
const char *tb_scenario_name(unsigned s);

typedef struct tb_traffic tb_traffic;

/* §18.1: the link_up / link_rx_up pins of the cycle of the last tb_inputs call (all
 * ones unless opt.linkfault > 0). */
void tb_link_pins(const tb_traffic *t, uint64_t *up, uint64_t *rx_up);
/* One line "link downs N flits_discarded N packets_discarded N packets_cut N
 * flits_padded N self_credits N receiver_padded N" (switch counters summed over the
 * run; self_credits: discarded flits of dead packets). */
void tb_link_report(const tb_traffic *t, char *buf, size_t len);
/* §17.6 (opt.hash): one line "hash flow N digit N", the head flits that arrived while
 * ROUTE_HASH (as last written legally) had kind 1 (flow hash) and kind 2 (source digit). */
void tb_hash_report(const tb_traffic *t, char *buf, size_t len);
/* §17.7 (opt.gap): one line "gap flits N spaced N": the flits that left outputs whose
 * GAP (non-zero) had been unchanged for 32 cycles, and those of them that left exactly
 * GAP + 1 cycles after the output's previous flit (the rate reached). A flit closer
 * than that fails the run. */
void tb_gap_report(const tb_traffic *t, char *buf, size_t len);
/* §16.3 (opt.vcadapt): one line "vcadapt heads N adaptive_choices N fb_vc N": the heads
 * that arrived while ROUTE_CTRL (as last written legally) had mode 3, the adaptive_choices
 * counter total (routes off det_port) and the heads that left on det_port on a VC outside
 * the candidate VCs of their FWD entry as last written (fallback departures, §16.3). */
void tb_vcadapt_report(const tb_traffic *t, char *buf, size_t len);
/* §17.8 (opt.sar): one line "sar rx N tx N dropped N unroutable N evicted N expired N
 * steered N lane N": the Switch AR counter totals (CNT_CLEAR accounted for: lower bounds),
 * the adaptive_choices total (in ROUTE_CTRL mode 0 only steering leaves det_port) and the
 * lane words driven. */
void tb_sar_report(const tb_traffic *t, char *buf, size_t len);

/* NULL with a message if the options do not fit the configuration. */
tb_traffic *tb_new(const asw_config *cfg, const tb_opts *o, char *err, size_t errlen);
void tb_free(tb_traffic *t);

/* The inputs of cycle `cycle` (pointers stay valid until the next call). */
void tb_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in);
/* Called after tb_inputs and before the reference steps the same cycle: the
 * stimulus observes the C model (registers read without advancing time) for
 * its counter accounting and the directed scenarios' assertions. */
void tb_observe(tb_traffic *t, const asw_switch *ref, uint64_t cycle, const asw_inputs *in);
/* The outputs of the same cycle (as produced by the reference). */
void tb_outputs(tb_traffic *t, uint64_t cycle, const asw_outputs *out);

/* Cycle of the injected protocol violation (TB_SCEN_PROTO), UINT64_MAX if none yet. */
uint64_t tb_proto_cycle(const tb_traffic *t);

/* After the drain: every flit sent arrived and every credit came back, the
 * scenario's §15 assertions held and every event it asks for happened.
 * 0 if so, else -1 with a message. */
int tb_check_end(const tb_traffic *t, char *msg, size_t msglen);

typedef struct {
  uint64_t flits_sent, flits_recv, packets_sent, reg_reads, reg_writes;
  uint64_t fills;  /* times an input VC's buffer became full (sender at 0 credits) */
  uint64_t drains; /* times the switch became empty again after holding flits */
} tb_stats;
void tb_get_stats(const tb_traffic *t, tb_stats *s);

/* §15.8 counter totals over the run (summed over ports, CNT_CLEAR accounted
 * for), index ASW_ACNT_*, plus messages seen on arn_out and packets that
 * left adapted after entering non-adapted. Valid after the last tb_observe. */
typedef struct {
  uint64_t cnt[ASW_ACNT_NUM];
  uint64_t arn_out_msgs, marked;
} tb_arn_totals;
void tb_get_arn_totals(const tb_traffic *t, tb_arn_totals *a);
/* One line "arn roots N sent N ..." ("arn AE=0 ..." if AE = 0), then a second
 * line "bubble ring_enter N bubble_stall N" (§16.1 counter totals). */
void tb_arn_report(const tb_traffic *t, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
