/* pfc.h — PFC link mode (contract §17.1, §17.2): per-port mode, per-(input,
 * priority) pause hysteresis and the frames sent upstream on the credit
 * channel, the PFC registers, counters and state view.
 *
 * The sender side (a PFC output's CRED is its pause view) lives in
 * credits.h (asw_credits_pfc_frame); the held-or-due count hd[i][v] is the
 * input buffer's vc_held (input_buffer.h). Internal to the C model.
 */
#ifndef ASW_PFC_H
#define ASW_PFC_H

#include <stddef.h>
#include <stdint.h>

#include "asw_regmap.h" /* ASW_REG_PFC_*, ASW_PCNT_* */

typedef struct {
  unsigned ports, vcs, buf;
  uint64_t en;             /* PFC_EN */
  unsigned xoff, xon;      /* PFC_THRESH */
  uint8_t *want, *sent;    /* [P] bit v per priority */
  uint8_t *ptr;            /* [P] frame round-robin pointer */
  uint8_t *frame_vc;       /* [P] priority of this cycle's frame (asw_pfc_frames) */
  uint32_t *cnt;           /* [P * ASW_PCNT_NUM] */
  uint64_t pending;        /* inputs with want != sent */
  uint64_t wanting;        /* inputs with some want bit */
  int eval_all;            /* thresholds or mode changed: evaluate every PFC
                              input at the end of the next cycle */
} asw_pfc;

int asw_pfc_init(asw_pfc *f, unsigned ports, unsigned vcs, unsigned buf);
void asw_pfc_destroy(asw_pfc *f);
void asw_pfc_reset(asw_pfc *f);

/* Frames of this cycle (§17.1 "frame"), from the state at its start: for
 * every PFC input with want != sent, picks the priority, updates sent, ptr
 * and pfc_sent. Returns the mask of inputs with a frame; frame_vc[i] gets
 * its priority. */
uint64_t asw_pfc_frames(asw_pfc *f);

/* Hysteresis at the end of the cycle for PFC input i, from its final
 * held-or-due counts hd[0..V-1]. */
void asw_pfc_eval(asw_pfc *f, unsigned i, const uint16_t *hd);

/* 1 if the address is a §17.2 register (mapped or RO). */
int asw_pfc_owns(uint32_t addr, unsigned ports);
/* Register write: ASW_OK, or ASW_EINVAL with a message (illegal value, RO).
 * *changed gets the ports whose mode changes (for CRED <- BUF). The caller
 * counts REG_ERRORS. */
int asw_pfc_reg_write(asw_pfc *f, uint32_t addr, uint32_t data, uint64_t *changed,
                      char *err, size_t errlen);
/* Register read; paused: output p's paused priorities (PFC_STATE[7:0]). */
uint32_t asw_pfc_reg_read(const asw_pfc *f, uint32_t addr, unsigned paused);
void asw_pfc_clear_counters(asw_pfc *f);

/* Live state that makes the switch non-idle: a frame to send, or an
 * evaluation pending that could change want (held: flits in the buffers). */
static inline int asw_pfc_live(const asw_pfc *f, uint64_t held) {
  return f->pending || (f->eval_all && (held || f->wanting));
}

#endif
