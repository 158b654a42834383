/* bubble.h — bubble flow control for the rings of direct networks (contract
 * §16.1): the per-output ring registers BUBBLE[o], the credits a queue head
 * needs to request its output (len, or 2*len when it enters a ring), and the
 * ring_enter / bubble_stall counters (§16.2). Internal to the C model (see
 * input_buffer.h); owned by the register file (regs.h).
 */
#ifndef ASW_BUBBLE_H
#define ASW_BUBBLE_H

#include <stddef.h>
#include <stdint.h>

#include "asw_regmap.h"

typedef struct {
  unsigned ports, vcs;
  uint64_t on;            /* outputs whose vcs mask is not 0 (rule active) */
  uint8_t vcs_mask[64];   /* BUBBLE[o].vcs */
  uint8_t ring_in[64];    /* BUBBLE[o].ring_in */
  uint8_t ring_valid[64]; /* BUBBLE[o].ring_valid */
  uint32_t counters[64 * ASW_BCNT_NUM]; /* [o*2 + k] */
} asw_bubble;

/* Reset state (§14/§16): every BUBBLE[o] = 0, counters 0. */
void asw_bubble_init(asw_bubble *b, unsigned ports, unsigned vcs);
void asw_bubble_clear_counters(asw_bubble *b);

/* Register access of the §16.2 addresses. write: 1 if addr is not a §16
 * register (nothing done), 0 for a legal write, -1 for an illegal value or a
 * read-only address (message in err). read: 1 and the value if mapped. */
int asw_bubble_write(asw_bubble *b, uint32_t addr, uint32_t data, char *err,
                     size_t errlen);
int asw_bubble_read(const asw_bubble *b, uint32_t addr, uint32_t *data);

/* 1 if a head on input i, input VC v, leaving on output o, VC w, enters a
 * ring under the rule of o (needs 2*len credits), 0 if it needs len. */
static inline unsigned asw_bubble_enters(const asw_bubble *b, unsigned i,
                                         unsigned v, unsigned o, unsigned w) {
  if (!(b->vcs_mask[o] >> w & 1u)) return 0;
  return !(b->ring_valid[o] && b->ring_in[o] == i && v == w);
}

#endif
