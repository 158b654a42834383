/* arn_table.h — ARN table and ARN queues of contract §15.3–§15.6: AE
 * entries with TTL, processARN (one event per cycle) with
 * selectAlternativeOport, the P+1 event FIFOs and their round-robin
 * arbiter, the lookup of the input port controller, the per-input ARN
 * message FIFOs and output registers. Times are absolute cycle numbers (an
 * entry stores its last valid cycle), so ageing costs nothing per cycle.
 * Internal to the C model.
 */
#ifndef ASW_ARN_TABLE_H
#define ASW_ARN_TABLE_H

#include <stdint.h>

#include "congestion_detector.h"
#include "credits.h"
#include "regs.h"

enum { ASW_AQ = 4 }; /* depth of every ARN FIFO */

typedef struct {
  uint16_t dest, id;
  uint8_t port, vc, stage, consumed, alt_port;
  uint64_t last; /* last cycle in which the entry is valid */
} asw_arn_entry;

typedef struct { /* FIFO of AQ events or messages */
  asw_arn_event ev[ASW_AQ];
  uint8_t head, count;
} asw_arn_fifo;

typedef struct {
  unsigned P, AE;
  asw_arn_entry *e;       /* [AE] */
  uint32_t valid, consumed; /* bit e */
  asw_arn_fifo *evq;      /* [P+1]: 0 root events, 1+p messages of output p */
  asw_arn_fifo *outq;     /* [P] messages to send upstream on input i */
  uint32_t *out_msg;      /* [P] ARN output registers */
  uint64_t out_mask;      /* valid ARN output registers */
  uint64_t outq_nonempty; /* inputs with queued messages */
  uint64_t evq_nonempty;  /* sources 1..P (bit p for source 1+p) */
  unsigned ev_ptr;
} asw_arn;

int asw_arn_init(asw_arn *t, unsigned P, unsigned AE);
void asw_arn_destroy(asw_arn *t);
void asw_arn_reset(asw_arn *t);

/* Live state that makes a switch non-idle other than ageing entries. */
static inline int asw_arn_busy(const asw_arn *t) {
  return (t->out_mask | t->outq_nonempty | t->evq_nonempty) != 0 ||
         t->evq[0].count != 0;
}

static inline int asw_arn_fifo_push(asw_arn_fifo *f, const asw_arn_event *e) {
  if (f->count == ASW_AQ) return 0;
  f->ev[(f->head + f->count) % ASW_AQ] = *e;
  f->count++;
  return 1;
}

/* Input port controller lookup (§15.5) of key (dest, vc) with the table at
 * the start of the cycle: 1 = consumed entry (*alt_port), 2 = non-consumed
 * entry (*msg = its ARN message with vc), 0 = none. adapted: the lookup of
 * an adapted packet (ARN_CTRL.adapted_arn, vc = its orig_vc), which sees only
 * non-consumed entries. */
static inline int asw_arn_lookup(const asw_arn *t, unsigned dest, unsigned vc,
                                 int adapted, unsigned *alt_port, uint32_t *msg) {
  uint32_t hit = 0;
  for (uint32_t m = t->valid; m; m &= m - 1) {
    unsigned k = (unsigned)__builtin_ctz(m);
    if (t->e[k].dest == dest && t->e[k].vc == vc) hit |= 1u << k;
  }
  if (adapted) hit &= ~t->consumed;
  if (!hit) return 0;
  if (hit & t->consumed) {
    *alt_port = t->e[__builtin_ctz(hit & t->consumed)].alt_port;
    return 1;
  }
  const asw_arn_entry *x = &t->e[__builtin_ctz(hit)];
  *msg = asw_arn_msg(dest, vc, x->stage, x->id);
  return 2;
}

/* Pushes a message on input i's ARN output FIFO (§15.5 step 2): 1 queued,
 * 0 identical one already queued, -1 FIFO full (dropped). Called at most
 * once per input per cycle, before asw_arn_end_cycle pops. */
int asw_arn_send(asw_arn *t, unsigned i, uint32_t msg);

/* Pops and processes one event (§15.4, §15.3) in cycle now; call after the
 * cycle's RC lookups and before credits change. Returns the source popped
 * (0..P) or -1. */
int asw_arn_process(asw_arn *t, asw_regs *r, const asw_credits *cr,
                    uint64_t now);

/* End of cycle now: out_start = outq_nonempty as it was at the start of the
 * cycle (those FIFOs load their head into the output register; the others'
 * registers become invalid), then entries whose last cycle is now expire. */
void asw_arn_end_cycle(asw_arn *t, asw_regs *r, uint64_t out_start,
                       uint64_t now);

/* Cycle after which no entry is valid (0 if none). */
uint64_t asw_arn_last_expiry(const asw_arn *t);

/* Register view of entry e (§15.8 ARN_ENTRY, word w) at the start of
 * cycle now. */
uint32_t asw_arn_entry_word(const asw_arn *t, unsigned e, unsigned w,
                            uint64_t now);

#endif
