/* qcn_cp.h — QCN congestion point per output queue (contract §17.4): the
 * per-output queue counter, randomized sampling, the quantized feedback
 * Fb = -(Qoff + w * Qdelta) and the congestion notification messages (CNM)
 * the switch puts on its CNM outputs; the QCN registers and counters.
 * Internal to the C model; the switch (asw_switch.c) calls it from RQ
 * (arrivals), after ST (departures) and from its register decode.
 */
#ifndef ASW_QCN_CP_H
#define ASW_QCN_CP_H

#include <stddef.h>
#include <stdint.h>

#include "asw_regmap.h" /* ASW_REG_QCN_*, ASW_CNM_* */

typedef struct {
  unsigned ports;
  /* registers (§17.4) */
  unsigned en, wl, fbsh, cpid; /* QCN_CTRL */
  unsigned qeq;                /* QCN_QEQ, flits */
  unsigned sample;             /* QCN_SAMPLE, flits */
  unsigned seed;               /* QCN_SEED */
  /* state per output o */
  uint32_t *qlen;   /* [P] flits routed to o and not yet sent on o */
  uint32_t *qold;   /* [P] qlen at the last sample */
  uint32_t *cnt;    /* [P] flits left before the next sample */
  uint32_t *qadd;   /* [P] this cycle's arrivals (applied at its end) */
  uint16_t *lfsr;   /* [P] §7.7 polynomial, one per output */
  uint64_t sampled; /* outputs sampled this cycle */
  uint64_t added;   /* outputs with qadd != 0 */
  /* CNM registers: valid mask and messages, on the outputs next cycle */
  uint64_t cnm_next, cnm_mask;
  uint64_t *cnm_next_msg, *cnm_msg; /* [P] */
  uint32_t *cnt_sent, *cnt_samples; /* [P] counters (§17.4) */
} asw_qcn_cp;

int asw_qcn_init(asw_qcn_cp *c, unsigned ports);
void asw_qcn_destroy(asw_qcn_cp *c);
void asw_qcn_reset(asw_qcn_cp *c);

/* Pure §17.4 arithmetic (exposed for the unit tests and the RTL twin). */
/* Feedback of a sample: (qeq - qlen) - ((qlen - qold) << wl). */
int64_t asw_qcn_fb(unsigned qlen, unsigned qold, unsigned qeq, unsigned wl);
/* Quantized |Fb|: 0 if fb >= 0, else min(63, (-fb) >> fbsh). */
unsigned asw_qcn_quant(int64_t fb, unsigned fbsh);
/* Next sampling interval after a sample with quantized feedback q, from the
 * LFSR value r (after its step): I = S - ((S * q * 58) >> 12), then
 * I - (I >> 3) + ((I * (r & 31)) >> 7). */
unsigned asw_qcn_interval(unsigned sample, unsigned q, uint16_t r);

/* RQ: a packet of len flits with header hdr is appended for output o
 * (called in increasing input order). Samples per §17.4. */
void asw_qcn_arrive(asw_qcn_cp *c, unsigned o, unsigned len, uint64_t hdr);
/* End of the cycle: departures (bit o of sent: one flit left on output o
 * this cycle), this cycle's arrivals added; CNMs of the cycle registered. */
void asw_qcn_end_cycle(asw_qcn_cp *c, uint64_t sent);

/* 1 if addr is a §17.4 register (mapped or RO). */
int asw_qcn_owns(uint32_t addr, unsigned ports);
/* Register write: ASW_OK or ASW_EINVAL with a message (illegal, RO). */
int asw_qcn_reg_write(asw_qcn_cp *c, uint32_t addr, uint32_t data, char *err,
                      size_t errlen);
uint32_t asw_qcn_reg_read(const asw_qcn_cp *c, uint32_t addr);
void asw_qcn_clear_counters(asw_qcn_cp *c);

#endif
