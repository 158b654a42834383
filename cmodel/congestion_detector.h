/* congestion_detector.h — congestion detector of contract §15.2: per-VOQ
 * hot flags with HCDTH/LCDTH hysteresis (updated only when an occupancy
 * changes), per-output hot counts, the offender (first hot non-empty VOQ),
 * the FCTH root/branch test, the CRT timers, root state and ids. Cost is
 * proportional to activity: outputs with no hot VOQ and no root are never
 * visited. Internal to the C model.
 */
#ifndef ASW_CONGESTION_DETECTOR_H
#define ASW_CONGESTION_DETECTOR_H

#include <stdint.h>

#include "credits.h"
#include "input_buffer.h"
#include "regs.h"

/* A root event or received ARN message, as processARN takes it (§15.3). */
typedef struct {
  uint16_t dest, id;
  uint8_t port, vc, stage, adapted;
} asw_arn_event;

typedef struct {
  unsigned P, V, words; /* words: 64-bit words per output of hot bits */
  uint64_t *hot;        /* [P*words]: output o, bit i*V+v = hot[i][v][o] */
  uint16_t *hot_cnt;    /* [P] hot VOQs per output */
  uint32_t *crt;        /* [P] */
  uint16_t *root_id;    /* [P] */
  uint64_t hot_out;     /* outputs with hot_cnt > 0 */
  uint64_t root;        /* root[o] */
  uint64_t crt_nz;      /* outputs with crt > 0 */
  unsigned next_id;
} asw_cd;

int asw_cd_init(asw_cd *cd, unsigned P, unsigned V);
void asw_cd_destroy(asw_cd *cd);
/* Reset state; keep_id: keep next_id (ARN_CTRL written with mode 0). */
void asw_cd_reset(asw_cd *cd, int keep_id);

/* Occupancy of VOQ (i, v, o) is now occ (its final value this cycle):
 * re-evaluates the hysteresis flag (§15.2). */
static inline void asw_cd_occ(asw_cd *cd, unsigned i, unsigned v, unsigned o,
                              unsigned occ, unsigned hcdth, unsigned lcdth) {
  unsigned bit = i * cd->V + v;
  uint64_t *w = &cd->hot[o * cd->words + bit / 64], m = 1ull << (bit % 64);
  int was = (*w & m) != 0;
  int now = occ >= hcdth || (was && occ >= lcdth);
  if (now == was) return;
  if (now) {
    *w |= m;
    if (cd->hot_cnt[o]++ == 0) cd->hot_out |= 1ull << o;
  } else {
    *w &= ~m;
    if (--cd->hot_cnt[o] == 0) cd->hot_out &= ~(1ull << o);
  }
}

/* One cycle of §15.2 with the state at the start of the cycle (call before
 * ST/SA change queues or credits). root_fifo_room: the root FIFO holds
 * fewer than AQ events. Updates timers and roots, counts roots_declared.
 * Returns 1 and the root event in *ev if one is declared or refreshed. */
int asw_cd_cycle(asw_cd *cd, const asw_ibuf *in, const asw_credits *cr,
                 asw_regs *r, int root_fifo_room, asw_arn_event *ev);

/* Live state that makes a switch non-idle: a root or a running timer (a
 * running timer implies a hot VOQ, hence a buffered flit). */
static inline int asw_cd_live(const asw_cd *cd) {
  return (cd->root | cd->hot_out) != 0;
}

#endif
