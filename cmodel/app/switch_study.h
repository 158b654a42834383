/* switch_study.h — single-switch traffic study: Bernoulli sources with
 * per-(source, VC) queues that respect credits, sinks that return credits
 * after a delay, and a scoreboard that checks every delivered flit (header,
 * payload, VC, port, per-flow order) and measures throughput and latency.
 * Used by `asw switch` and by the C model's tests.
 *
 * Every flit carries a 64-bit payload (PW = 64) that identifies it:
 * [63:58] source, [57:50] flit index, [49:18] generation cycle (low 32
 * bits), [17:0] a hash of the packet header, source and generation cycle.
 * A source generates at most one packet per cycle, so (source, generation
 * cycle) names a packet uniquely.
 */
#ifndef ASW_SWITCH_STUDY_H
#define ASW_SWITCH_STUDY_H

#include <stddef.h>
#include <stdint.h>

#include "asw_switch.h"

enum { STUDY_DEST_UNIFORM, STUDY_DEST_HOTSPOT, STUDY_DEST_PERMUTATION };

typedef struct {
  asw_config sw;         /* payload_bits is forced to 64 */
  unsigned routing;      /* ASW_ROUTE_DET / OBLIVIOUS / ADAPTIVE */
  unsigned trigger;      /* ASW_TRIG_* (adaptive) */
  double load;           /* offered flits per input per cycle, 0..1 */
  unsigned packet_flits; /* packet length, 1..LMAX */
  uint64_t cycles;       /* generation stops after this many cycles */
  uint64_t warmup;       /* measurement window is [warmup, cycles) */
  uint64_t seed;
  unsigned credit_delay; /* flit on an output at c -> credit back at c+D */
  unsigned dest;         /* STUDY_DEST_* */
  unsigned hot_port;     /* hotspot destination */
  double hot_fraction;   /* share of packets sent to hot_port */
  const char *table;     /* optional register table (asw_table.h) applied
                            after the study's own programming, or NULL */
  uint64_t drain;        /* >0: after `cycles`, run up to this many more
                            cycles until every packet is delivered, then
                            check the switch is idle and holds nothing */
  /* ARN (contract §15): ASW_ARN_OFF / ON / AFI (AFI also sets VC_CTRL.afi);
   * detector registers, 0 = keep the reset value; arn_up: every port is an
   * up port (roots are consumed in this switch: with oblivious/adaptive
   * routing packets for a root's destination move to another port of its
   * group), else every port leads down (roots are reported to the sources) */
  unsigned arn, hcdth, lcdth, fcth, crt, arn_ttl, arn_up;
  /* called every 4096 cycles with the cycle and the last cycle (NULL: none) */
  void (*progress)(void *ctx, uint64_t cycle, uint64_t total);
  void *progress_ctx;
} study_params;

typedef struct {
  double offered_load;        /* generated flits / (P * window) */
  double accepted_throughput; /* delivered flits / (P * window) */
  double latency_mean;        /* cycles, head generated -> tail delivered */
  uint64_t latency_p99, latency_max;
  uint64_t window_packets;    /* packets generated and delivered in window */
  uint64_t packets_generated, packets_delivered;
  uint64_t flits_generated, flits_delivered;
  uint64_t cycles_run;
  int drained;                /* drain requested and everything delivered */
  uint64_t adaptive_choices, credit_stalls, sa_lost; /* switch counters */
  uint64_t roots_declared, arn_sent, arn_consumed, packets_adapted, arn_expired;
} study_result;

/* Fills defaults: P=16, V=1, VOQ on, 1 iteration, BUF=64, LMAX=16, det
 * routing, load 0.5, 1-flit packets, 20000 cycles, warmup 2000, seed 1,
 * credit delay 1, uniform destinations, no drain. */
void study_defaults(study_params *sp);

/* Checks the parameters; on error returns -1 with a message naming the
 * offending parameter. */
int study_check(const study_params *sp, char *err, size_t errlen);

/* Runs the study. Returns 0, or -1 with a message in err if the parameters
 * are bad, the switch reports a protocol error, or the scoreboard finds a
 * lost, duplicated, corrupted, misrouted or reordered flit. */
int study_run(const study_params *sp, study_result *res, char *err,
              size_t errlen);

/* Programs sw for the study's routing (FWD[d] = det_port d; for oblivious
 * and adaptive, CSET[c] = ports p with 4p/P = c and multipath entries whose
 * candidate set is the destination's group). Returns 0 or -1. */
int study_program_switch(asw_switch *sw, const study_params *sp, char *err,
                         size_t errlen);

/* Group (candidate set) of port or destination d in a P-port study. */
static inline unsigned study_group(unsigned d, unsigned ports) {
  return d * 4u / ports;
}

#endif
