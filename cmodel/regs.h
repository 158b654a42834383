/* regs.h — register file and event counters (contract §10–§12).
 *
 * Holds every programmable register, the forwarding table, the candidate
 * sets and the
 * per-port counters. OCC and CRED are read from the blocks that own them
 * (asw_switch.c). Internal to the C model (see input_buffer.h).
 */
#ifndef ASW_REGS_H
#define ASW_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "asw_regmap.h"
#include "bubble.h"

/* Effects of a write that other blocks must apply (asw_regs_write). */
enum {
  ASW_REGS_FX_THRESH = 1, /* LTTH/HTTH changed: recompute 2TH flags */
  ASW_REGS_FX_LFSR = 2,   /* LFSR_SEED written: reseed every input LFSR */
  ASW_REGS_FX_ARN_OFF = 4, /* ARN_CTRL written with mode 0: reset §15 state */
};

/* Fields of a FWD[d] entry (§7.1; asw_fwd_entry in asw_switch.h builds one). */
#define FWD_DET(e) ((e)&0x3Fu)
#define FWD_LOOKAHEAD(e) ((e) >> 8 & 0x3Fu)
#define FWD_CSET(e) ((e) >> 16 & 3u)
#define FWD_MULTIPATH(e) ((e) >> 30 & 1u)
#define FWD_VALID(e) ((e) >> 31 & 1u)

typedef struct {
  asw_config cfg;
  unsigned route_mode, trigger, stage_mask, stage; /* ROUTE_CTRL */
  unsigned vc_mode, afi;                                  /* VC_CTRL */
  unsigned fb, fb_same, esc_vc; /* VC_CTRL: §16.3 fallback (ROUTE_CTRL mode 3) */
  unsigned ltth, htth;                                    /* THRESH */
  unsigned lfsr_seed, default_port;
  uint32_t reg_errors;
  uint8_t *sl2vc;     /* [P*16] */
  uint32_t *fwd;      /* [TABLE] */
  /* §12 counters: counter k (ASW_CNT_*) of port p at cnt_at[k][p * cnt_stride]; an
   * array of the registers' own (cnt_own, stride 8) or words of the per-port records
   * of the switch (asw_regs_place_counters) */
  uint32_t *cnt_at[8];
  unsigned cnt_stride;
  uint32_t *cnt_own; /* the array allocated here, NULL once placed */
  /* §15 (meaningful only if cfg.arn_entries >= 1) */
  unsigned arn_mode, mark_adapted;      /* ARN_CTRL */
  unsigned adapted_arn, alt_refresh;    /* ARN_CTRL [3], [4] (§15.3, §15.5) */
  uint64_t arn_up;                      /* ARN_UP */
  unsigned hcdth, lcdth, fcth, crt, arn_ttl;
  uint32_t *arn_counters; /* [P*16], index ASW_ACNT_* */
  uint64_t cset[4];
  asw_bubble bubble; /* §16.1 ring registers and counters (bubble.h) */
  uint64_t link_down; /* §18.5: ports whose link_up pin is 0 (set by the switch) */
  uint32_t route_hash; /* §17.6 ROUTE_HASH (decoded in asw_switch.c; 0: LFSR) */
} asw_regs;

int asw_regs_init(asw_regs *r, const asw_config *cfg);
/* Moves the §12 counters into memory the caller owns: counter k of port p to
 * at[k][p * stride], e.g. into the per-port records whose cache lines a flit-hop
 * touches anyway. Copies the counters' values, frees the registers' own array. */
void asw_regs_place_counters(asw_regs *r, uint32_t *const at[8], unsigned stride);
/* Allocates the ARN counters (separately, after the blocks a step uses). */
int asw_regs_init_arn(asw_regs *r);
void asw_regs_destroy(asw_regs *r);
void asw_regs_reset(asw_regs *r);

/* Register write (§11). Returns ASW_OK (and ORs ASW_REGS_FX_* into *fx), or
 * ASW_EINVAL for an illegal value, a read-only or an unmapped address: the
 * write is ignored and REG_ERRORS increments. If err is not NULL it gets a
 * message naming the register and the problem. */
int asw_regs_write(asw_regs *r, uint32_t addr, uint32_t data, unsigned *fx,
                   char *err, size_t errlen);

/* Register read of the registers held here (everything except OCC and
 * CRED). Returns 1 and the value if addr is one of them, else 0. */
int asw_regs_read(const asw_regs *r, uint32_t addr, uint32_t *data);

static inline void asw_regs_count(asw_regs *r, unsigned port, unsigned k) {
  r->cnt_at[k][port * r->cnt_stride]++;
}
static inline void asw_regs_arn_count(asw_regs *r, unsigned port, unsigned k) {
  r->arn_counters[port * 16u + k]++;
}

#endif
