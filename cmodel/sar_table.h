/* sar_table.h — Switch AR of contract §17.8: the CNM lane's received and
 * local registers, the two-stage event path (stage A picks one of 2P
 * sources round robin and reads FWD[src]; stage B snoops the CNM into the
 * SE-entry {dest, port, level} table and forwards it on a random candidate
 * port towards the culprit source), the AR-timer decay in ticks of 2^TS
 * cycles, the level lookup of RC, the registers, counters and table view.
 * Entries store their last valid cycle, so ageing costs nothing per cycle.
 * Internal to the C model; the switch (asw_switch.c) calls it after RC.
 */
#ifndef ASW_SAR_TABLE_H
#define ASW_SAR_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "regs.h" /* FWD, CSET, TABLE */

typedef struct {
  uint16_t dest;
  uint8_t port, level;
  uint64_t last; /* last cycle in which the entry is valid */
} asw_sar_entry;

typedef struct {
  unsigned P, SE;
  /* registers (§17.8) */
  unsigned en, steer;     /* SAR_CTRL */
  unsigned decay;         /* SAR_CTRL.decay: 0 off, else a level step every 2^decay cycles */
  unsigned ttl, ts;       /* SAR_TTL */
  unsigned seed;          /* SAR_SEED */
  /* state */
  uint64_t tc;            /* the cycle being stepped, or the next one between steps and
                           * in the end-of-cycle register write (the RTL's 24-bit tc
                           * is its low bits) */
  asw_sar_entry *e;       /* [SE] */
  uint32_t valid;         /* bit e */
  uint64_t *rx, *loc;     /* [P] received / local CNM words */
  uint64_t rx_mask, loc_mask;
  unsigned ptr;           /* sar_ptr, 0..2P-1 */
  uint8_t b_valid, b_port;
  uint64_t b_word;
  uint32_t b_entry;       /* FWD[src] read in stage A */
  uint16_t rs;            /* sar_rs */
  uint64_t *out;          /* [P] cnm_out registers */
  uint64_t out_mask;
  uint32_t *cnt;          /* [P * ASW_SCNT_NUM] counters */
} asw_sar;

int asw_sar_init(asw_sar *t, unsigned P, unsigned SE);
void asw_sar_destroy(asw_sar *t);
void asw_sar_reset(asw_sar *t);

/* Levels of every port for destination dest (lvl[P], zeroed first); returns
 * a mask of the ports with a level. */
uint64_t asw_sar_levels(const asw_sar *t, unsigned dest, uint8_t *lvl);

/* One cycle while en (called after RC, before the register write):
 * stage B (snoop, forward into the next cnm_out), stage A (pop, FWD read
 * with regs as at the start of the cycle), filling of rx from the lane
 * (in_mask/in_words) and of loc from the congestion points' CNM outputs of
 * this cycle (loc_in/loc_words), expiry, cnm_out registers. */
void asw_sar_cycle(asw_sar *t, const asw_regs *r, uint64_t in_mask, const uint64_t *in_words,
                   uint64_t loc_in, const uint64_t *loc_words);

/* Registers: 1 if addr is a §17.8 register (mapped or RO). */
int asw_sar_owns(uint32_t addr, unsigned P, unsigned SE);
/* Register write (end of the cycle): ASW_OK or ASW_EINVAL with a message. */
int asw_sar_reg_write(asw_sar *t, uint32_t addr, uint32_t data, char *err, size_t errlen);
uint32_t asw_sar_reg_read(const asw_sar *t, uint32_t addr);
void asw_sar_clear_counters(asw_sar *t);

#endif
