/* tables.h — software-generated switch tables and source SL functions.
 *
 * For every switch of a topology: the forwarding table (D-mod-K det_port,
 * OBQA look-ahead, candidate set of the up ports), the candidate set, the
 * stage, and the routing / VC control registers (contract §7, §11). The
 * generator emits register writes through a callback so the same code can
 * program the C model (asw_reg_write) or the RTL (a register-bus script).
 * The source service-level functions are those of contract §13.
 */
#ifndef NET_TABLES_H
#define NET_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "topo.h"

typedef enum {
  SQS_1Q = 0,
  SQS_DBBM,
  SQS_VFTREE,
  SQS_FLOW2SL,
  SQS_OBQA,
  SQS_XORDET,
  /* tori and meshes only (contract §16.4, cmodel/net/cube_tables.h) */
  SQS_BBQ,
  SQS_IODET,
  SQS_VOQSW,
  SQS_OODET, /* §16.3: tori and meshes, any VC of the hop (VC-adaptive) */
  SQS_VOQNET, /* §16.6: tori and meshes, one VC per node: the simulator's reference fabric */
} sqs_kind;

/* K/delta is expressed with the switch's candidate sets (contract §7.2): one per class. */
#define TABLES_MAX_DELTA 4u

typedef struct {
  unsigned mode;       /* ASW_ROUTE_DET / OBLIVIOUS / ADAPTIVE */
  unsigned trigger;    /* ASW_TRIG_NOTH / TH / 2TH */
  unsigned stage_mask; /* bit l-1: adaptivity enabled at stage l */
  unsigned delta;      /* K/delta restriction, 1 = none, at most TABLES_MAX_DELTA */
  unsigned obqa;       /* VC_CTRL.mode = OBQA */
  unsigned ltth, htth; /* thresholds in credits; 0,0 = reset values */
  unsigned lfsr_seed;  /* LFSR_SEED register (16 bits) */
  /* contract §15 (written only if arn_regs): ARN_CTRL, VC_CTRL.afi,
   * CD_THRESH / FCTH in flits, CRT / ARN_TTL in cycles, ARN_UP = up ports */
  unsigned arn_regs;   /* the switches have ARN hardware (AE >= 1) */
  unsigned arn_mode, afi, mark_adapted;
  unsigned hcdth, lcdth, fcth, crt, arn_ttl;
  /* 1: ARN_UP of a leaf switch also has its end-node ports, so an incast
   * root (a leaf's down port to a node) gets root stage = the leaf's STAGE
   * instead of STAGE - 1 and its ARNs are consumed by the first stage-1
   * switch upstream (the sources' leaves), which adapt the flows (seed 001
   * §4.3 behaviour, see docs/results.md). 0: the pseudo-code 1 reading,
   * incast ARNs reach the end nodes. No switch behaviour changes. */
  unsigned arn_up_nodes;
  unsigned adapted_arn, alt_refresh; /* ARN_CTRL [3], [4] */
} route_cfg;

typedef int (*reg_write_fn)(void *ctx, uint32_t addr, uint32_t data);

/* Emits every register write that configures switch s of t for rc.
 * Returns 0, or the first non-zero value returned by write. */
int tables_program_switch(const topo *t, unsigned s, const route_cfg *rc,
                          reg_write_fn write, void *ctx);

/* The FWD entry of switch s for destination d (contract §7.1). */
uint32_t tables_fwd_entry(const topo *t, unsigned s, unsigned d);

/* Source SL (contract §13) of a packet src -> dst with q queues, n nodes,
 * leaf arity k and dest_bits-bit ids. OBQA and 1Q give 0. */
unsigned sqs_sl(sqs_kind kind, unsigned q, unsigned n, unsigned k,
                unsigned dest_bits, unsigned src, unsigned dst);

/* Parses a scheme name (1q dbbm vftree flow2sl obqa xordet bbq iodet voqsw); -1 if unknown. */
int sqs_parse(const char *name);
const char *sqs_name(sqs_kind kind);

#endif
