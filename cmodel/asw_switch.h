/* asw_switch.h — public API of the arnswitch C model (one switch).
 *
 * Bit-exact, cycle-accurate model of docs/microarchitecture.md. No global
 * state: any number of switches may live in one process. The step function
 * allocates nothing; its cost grows with activity (idle ports and idle
 * switches cost almost nothing).
 */
#ifndef ASW_SWITCH_H
#define ASW_SWITCH_H

#include <stddef.h>
#include <stdint.h>

#include "asw_regmap.h" /* error codes, asw_config, header fields, register map */

#ifdef __cplusplus
extern "C" {
#endif

/* Fills a legal default configuration (P=8, V=2, BUF=32, LMAX=16, PW=32,
 * DW=16, TABLE=256, VOQ=1, ITERS=1, AE=8, SE=0, every optional feature off). */
void asw_config_default(asw_config *cfg);

/* Checks cfg. On error returns ASW_EINVAL and writes a message naming the
 * parameter and its legal range into err (if err != NULL). */
int asw_config_check(const asw_config *cfg, char *err, size_t errlen);

/* One flit on a link (contract §2). Fields other than valid are 0 when
 * valid is 0 (outputs); on inputs they are ignored when valid is 0. */
typedef struct {
  uint8_t valid, head, tail, vc;
  uint64_t hdr;     /* meaningful on head flits; switch outputs 0 otherwise */
  uint64_t payload; /* low PW bits */
} asw_flit;

/* One cycle's inputs. Arrays are indexed by port and have P entries; an
 * entry is read only if its bit is set in the matching mask, so a caller
 * with sparse activity sets only a few entries. */
typedef struct {
  uint64_t flit_mask;     /* bit p: flit[p] is a valid arriving flit */
  const asw_flit *flit;   /* [P] arriving flits (input side of port p) */
  uint64_t credit_mask;   /* bit p: one credit returned on output p ... */
  const uint8_t *credit_vc; /* [P] ... for downstream VC credit_vc[p] */
  uint64_t arn_mask;      /* bit p: ARN message received on output p (§15.4) */
  const uint32_t *arn;    /* [P] */
  /* register access (contract §10) */
  uint8_t reg_en, reg_we;
  uint32_t reg_addr, reg_wdata;
  uint64_t cnm_mask;      /* bit p: CNM word on port p's lane from its peer (§17.8) */
  const uint64_t *cnm;    /* [P] */
} asw_inputs;

/* One cycle's outputs, written by the step. Arrays have P entries; only
 * entries whose bit is set in the mask are written, the caller must treat
 * the others as invalid/zero. */
typedef struct {
  uint64_t flit_mask;   /* bit p: flit[p] leaves on output p */
  asw_flit *flit;       /* [P] */
  uint64_t credit_mask; /* bit p: one credit returned upstream on input p */
  uint8_t *credit_vc;   /* [P] */
  uint64_t arn_mask;    /* bit p: ARN message upstream on input p */
  uint32_t *arn;        /* [P] */
  uint8_t reg_rvalid;
  uint32_t reg_rdata;
  uint64_t cnm_mask;    /* bit p: CNM word sent on port p's lane (§17.8) */
  uint64_t *cnm;        /* [P] */
} asw_outputs;

/* Zero-load latency (contract §5): a head flit on an input in cycle t leaves
 * on its output, and its credit goes upstream, in cycle t + 6 (IW, RC, RQ, SR,
 * SA, ST); the flits behind it follow back to back. */
#define ASW_ZERO_LOAD_LATENCY 6u

typedef struct asw_switch asw_switch;

/* Creates a switch in its reset state (contract §14). Returns NULL on error
 * with a message in err. */
asw_switch *asw_switch_new(const asw_config *cfg, char *err, size_t errlen);
void asw_switch_free(asw_switch *sw);
const asw_config *asw_switch_config(const asw_switch *sw);

/* §17.4 QCN: the CNM outputs of the next step (its registers as they are
 * now, like the outputs a step returns): bit o of the result is set if
 * output o's congestion point sends a CNM, msgs[o] (if msgs != NULL, P
 * entries) gets its word (ASW_CNM_*). Always 0 while QCN_CTRL.en = 0. */
uint64_t asw_switch_cnm(const asw_switch *sw, uint64_t *msgs);

/* Returns to the reset state without reallocating. */
void asw_switch_reset(asw_switch *sw);

/* Advances one clock cycle: out gets the outputs of this cycle (registered
 * values), then the state is updated with in. Returns ASW_OK, or ASW_EPROTO
 * on a link-protocol violation (message via asw_switch_error), in which case
 * nothing changed and out was not written. in may have zero masks or be
 * NULL (an idle cycle); out may be NULL if the caller does not want outputs
 * (and out->flit / out->credit_vc may be NULL to skip those arrays).
 * Protocol violations: a flit breaking §2 (VC >= V, head inside a packet,
 * body without head, len outside 1..LMAX, tail not on the len-th flit, more
 * than BUF flits held or due on a VC, dest bits at or above DW), a credit
 * for VC >= V or above BUF (§9), mask bits for ports >= P, a mask set with
 * its array NULL, reg_addr wider than 20 bits. Payload bits at or above PW
 * are ignored (the port is PW bits wide); an illegal register write through
 * reg_en is not a protocol error (it counts in REG_ERRORS, §11). */
int asw_switch_step(asw_switch *sw, const asw_inputs *in, asw_outputs *out);

/* True if stepping with no inputs would change no state and produce no
 * output (nothing buffered, nothing streaming, no output/credit pending, and
 * no ARN state alive: no root, table entry, queued event or message): a
 * network simulator may skip such a switch until an input arrives. */
int asw_switch_idle(const asw_switch *sw);

/* For a switch whose only live state is ARN-table entries ageing (nothing
 * buffered, streaming or queued, no root): the number of input-less cycles
 * after which it is idle (its last entry has expired); 0 if already idle;
 * UINT64_MAX if other state is live (step it). asw_switch_skip_idle(sw, n)
 * is exactly n steps without inputs, in O(AE), for a switch whose idle_in
 * is not UINT64_MAX (else it returns ASW_EINVAL and changes nothing). */
uint64_t asw_switch_idle_in(const asw_switch *sw);
/* Both in one call (the idle state tested once), for a caller that asks
 * after every step: returns asw_switch_idle_in, *idle = asw_switch_idle. */
uint64_t asw_switch_idle_both(const asw_switch *sw, int *idle);
int asw_switch_skip_idle(asw_switch *sw, uint64_t n);

/* Performance hint with no effect on state: starts loading into the cache
 * what the next asw_switch_step of sw touches, in three levels that each
 * read what the previous one loaded: 0, the switch's own record; 1, the
 * per-port state of the active ports and of the ports in in_mask (those
 * with inputs next step), the credit state of the outputs in cr_mask (credits
 * returning next step); 2, the slots, queue descriptors and free-slot
 * stacks that state points to. A network stepping many switches calls level
 * 0 three switches ahead, level 1 two and level 2 one switch ahead. */
void asw_switch_prefetch(const asw_switch *sw, int level, uint64_t in_mask,
                         uint64_t cr_mask);

/* Register access outside the cycle loop (equivalent to a register access in
 * an otherwise idle cycle, without advancing time). Write returns ASW_EINVAL
 * for an illegal value or RO/unmapped address (and counts it in
 * REG_ERRORS, like the hardware). */
int asw_reg_write(asw_switch *sw, uint32_t addr, uint32_t data);
int asw_reg_read(const asw_switch *sw, uint32_t addr, uint32_t *data);

/* Configuration lock (a model-only speed option, no hardware counterpart):
 * a caller that programs the registers once and then only steps (the
 * network simulator) may lock the switch. Until asw_switch_reset, register
 * writes are refused, with nothing changed: asw_reg_write returns
 * ASW_EINVAL (not counted in REG_ERRORS), a write on the register bus makes
 * asw_switch_step return ASW_EPROTO. In exchange the model stops maintaining
 * state the locked configuration never reads: the 2TH congestion flags
 * (§7.3) unless ROUTE_CTRL selects adaptive routing with the 2TH trigger.
 * Outputs, counters and register reads are unchanged. Returns ASW_OK. */
int asw_switch_lock_config(asw_switch *sw);

/* Last error message (protocol errors), "" if none. */
const char *asw_switch_error(const asw_switch *sw);

/* Inspection for diagnostics (the network simulator's deadlock report, issue
 * 14; no hardware port, no state change): the head packet of queue q of
 * input `in`, VC vc (q: the output port with VOQ = 1, 0 with VOQ = 0).
 * Returns 1 and sets *oport, *ovc (its route and next-hop VC) and *len if
 * the queue holds a packet, 0 if it is empty, ASW_EINVAL if in, vc or q is
 * out of range. */
int asw_switch_queue_head(const asw_switch *sw, unsigned in, unsigned vc, unsigned q,
                          unsigned *oport, unsigned *ovc, unsigned *len);

/* §18.1: the link-state pins, levels held from this call on (after reset
 * all up: the switch of §1-§17). up, bit p: output p's link is up (link_up);
 * rx_up, bit p: input p's link is up (link_rx_up). Bits >= P: ASW_EINVAL,
 * nothing changed; a link down on a switch without cfg.link_faults (no §18
 * hardware, §1): ASW_EINVAL, nothing changed (all up is accepted). */
int asw_switch_set_link_up(asw_switch *sw, uint64_t up, uint64_t rx_up);

#ifdef __cplusplus
}
#endif
#endif
