/* asw_switch.c — top of the C model: parameter checks, pipeline glue
 * (ST, SA, RQ, RC, IW in the order of contract §5), crossbar, output and credit
 * registers, register bus. See asw_switch.h.
 */
#define _DEFAULT_SOURCE /* mmap flags (MAP_ANONYMOUS) */
#include "asw_switch.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arn_table.h"
#include "congestion_detector.h"
#include "credits.h"
#include "input_buffer.h"
#include "islip.h"
#include "lfsr.h"
#include "link_fault.h"
#include "port_gap.h"
#include "pfc.h"
#include "qcn_cp.h"
#include "sar_table.h"
#include "route_hash.h"
#include "regs.h"
#include "route_compute.h"

typedef struct { /* route register of one input (§6) */
  uint8_t vc;
  uint16_t slot;
  uint32_t entry;
} route_reg;

typedef struct { /* route-result register of one input (§5: RC -> RQ) */
  uint8_t vc, q; /* input VC and queue (VOQ ? oport : 0); route in the slot */
  uint16_t slot;
} route_res;

typedef struct { /* streaming state of a busy input (§8) */
  uint8_t out, vc, ovc;
  uint8_t len; /* packet length, for the credit reservation after RC */
  uint8_t rem; /* flits still to send, this cycle's included (§8.1 open outputs) */
  uint16_t slot;
  uint16_t qidx; /* index of the packet's queue (vc, out or 0) in the buffer */
} stream_state;

/* Per-port state, one cache line per port: with many switches in one
 * process each step finds little in cache, so what one stage touches for a
 * port should share a line. The §12 counters of the port live in the lines a
 * flit-hop touches anyway (asw_regs_place_counters): flits in and out and
 * packets out here (IW and ST), the others in the port's credit line
 * (asw_out_credits.host). */
enum { PCNT_FLITS_IN, PCNT_FLITS_OUT, PCNT_PACKETS_OUT, PCNT_NUM }; /* port_state.cnt */
enum { OCNT_PACKETS_IN, OCNT_CREDIT_STALL, OCNT_SA_LOST, OCNT_ROUTE_ERRORS, OCNT_ADAPTIVE,
       OCNT_NUM }; /* asw_out_credits.host */
typedef struct {
  _Alignas(64) asw_flit out; /* output register of output p */
  route_reg rr;    /* route register of input p */
  route_res ra;    /* route-result register of input p (valid: ra_mask) */
  stream_state st; /* streaming state of input p */
  uint16_t lfsr;   /* LFSR of input p */
  uint8_t cr_vc;   /* credit register of input p (valid: cr_mask) */
  uint8_t rel_vc, rel_out; /* queue ST released a flit of (rel_mask) */
  uint32_t cnt[PCNT_NUM];  /* §12 counters (PCNT_*) */
} port_state;
_Static_assert(sizeof(port_state) == 64, "port_state: one cache line");
_Static_assert(sizeof(port_state) == sizeof(asw_out_credits) && OCNT_NUM <= 5 &&
                   PCNT_NUM + OCNT_NUM == 8,
               "the §12 counters: one stride, every counter placed");


struct asw_switch {
  asw_config cfg;
  unsigned P, V, NQ;
  uint64_t port_mask, payload_mask;
  asw_credits cred;
  uint8_t fbsel[64]; /* §16.3: per input, the VCs whose SA request is the fallback */
  /* §8: the packet RQ appended to each input's queues in cycle app_cyc (a queue
   * head appended in the previous cycle does not request yet) */
  uint64_t app_cyc[64];
  uint16_t app_slot[64];
  uint8_t app_vc[64], app_q[64];
  asw_islip sa;
  asw_ibuf *in;         /* [P] */
  asw_slot *slots;      /* [P*V*BUF] slot memory of all inputs, in one block
                           mapped lazily: untouched slots cost no memory */
  size_t slots_map_len; /* bytes mmap'ed for slots; 0: slots from calloc */
  port_state *port;     /* [P] */
  uint64_t rr_mask;     /* inputs whose route register is valid */
  uint64_t ra_mask;     /* inputs whose route-result register is valid */
  uint64_t busy_in, busy_out;
  uint64_t nonempty_in; /* inputs with at least one non-empty queue */
  uint64_t held;        /* flits in all buffers */
  uint64_t out_mask;    /* valid output registers */
  uint64_t cr_mask;     /* valid credit registers */
  uint8_t rvalid;
  uint8_t arn_on;       /* ARN_CTRL.mode != 0; when 0 all §15 state is 0 */
  uint8_t locked;       /* asw_switch_lock_config: register writes refused */
  uint8_t plain_cfg;    /* locked with no optional hardware on: see asw_switch_step */
  uint32_t rdata;
  uint64_t *req_vc;     /* [P*V] SA scratch (see asw_islip_allocate_req) */
  uint8_t *match_out, *match_vc; /* [P] SA scratch */
  /* §8.1 (SAPIPE): the outputs open at the start of this cycle (no input streams to them
   * or it has at most two flits left), for the selections SA makes for the next cycle */
  uint64_t open_mask;
  /* §8.1 registers: pe[i*V*NQ + k], queue k's head passed SR's check (queued, CRED >= len)
   * in the last cycle; each input's selection (sel_mask, sel_out, sel_vc) */
  uint8_t *pe;
  uint64_t sel_mask;
  uint8_t sel_out[64], sel_vc[64];
  asw_regs regs; /* large (candidate tables): after the hot fields */
  /* §15, touched only while ARN_CTRL.mode != 0 (arn_on) */
  uint64_t rel_mask;    /* inputs whose ST released a flit this cycle */
  uint64_t now;         /* cycles stepped since reset (ARN-table ages) */
  asw_cd cd;            /* congestion detector (§15.2) */
  asw_arn arn;          /* ARN table and queues (§15.3-15.6) */
  asw_pfc pfc;          /* §17.1 PFC link mode (touched only with PFC_EN != 0) */
  asw_link link;        /* §18 link faults (hooks run only while link.on) */
  asw_port_gap gap;     /* §17.7 output port rate (hooks run only with gap.on | gap.wait) */
  uint64_t self_cr;     /* §18.2: outputs taking a discarded flit's credit back */
  uint64_t st_disc;     /* §18.2: outputs whose flit ST discarded this cycle (§17.4 qlen) */
  uint8_t self_vc[64];  /* ... on this VC */
  asw_qcn_cp qcn;       /* §17.4 QCN congestion points (touched only with QCN_CTRL.en) */
  asw_sar sar;          /* §17.8 Switch AR (touched only with SAR_CTRL.en / steer) */
  unsigned SE;          /* Switch AR entries present: 0 without cfg.qcn */
  char err[256];
};

/* Zeroed array of n elements of `size` bytes (a multiple of 64), aligned to
 * a cache line; free() releases it. */
static void *aligned_calloc(size_t n, size_t size) {
  void *p = aligned_alloc(64, n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

/* Zeroed slot memory of `bytes`. Blocks of at least 2 MB are mmap'ed
 * (2 MB-aligned), so pages are mapped on first touch and slots that are
 * never used cost no memory (the input buffers reuse their slots LIFO). No
 * transparent huge pages (MADV_HUGEPAGE): a 2 MB page spans the slices of
 * many ports and is mapped whole on the first touch of any of them, which
 * made every slot of a network resident from the start (11 664-node RLFT:
 * 4.1 GB instead of 1.9 GB after 8 000 cycles) for the same CPU time (user
 * time -10 %, system time +7 s zeroing huge pages). *map_len: bytes to
 * munmap (0 when the block came from calloc). */
#define HUGE_PAGE ((size_t)2 << 20)
static asw_slot *slots_alloc(size_t bytes, size_t *map_len) {
  *map_len = 0;
  if (bytes < HUGE_PAGE) return calloc(1, bytes ? bytes : 1);
  size_t len = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  size_t span = len + HUGE_PAGE; /* room to align the start */
  char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  char *base = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
  if (base > raw) munmap(raw, (size_t)(base - raw));
  size_t tail = (size_t)(raw + span - (base + len));
  if (tail) munmap(base + len, tail);
  *map_len = len;
  return (asw_slot *)base;
}

static void slots_free(asw_slot *slots, size_t map_len) {
  if (map_len) munmap(slots, map_len);
  else free(slots);
}

void asw_switch_free(asw_switch *sw) {
  if (!sw) return;
  if (sw->in)
    for (unsigned p = 0; p < sw->P; p++) asw_ibuf_destroy(&sw->in[p]);
  free(sw->in);
  slots_free(sw->slots, sw->slots_map_len);
  asw_regs_destroy(&sw->regs);
  asw_credits_destroy(&sw->cred);
  asw_islip_destroy(&sw->sa);
  asw_cd_destroy(&sw->cd);
  asw_arn_destroy(&sw->arn);
  asw_pfc_destroy(&sw->pfc);
  asw_qcn_destroy(&sw->qcn);
  asw_sar_destroy(&sw->sar);
  free(sw->port);
  free(sw->req_vc);
  free(sw->match_out);
  free(sw->match_vc);
  free(sw->pe);
  free(sw);
}

/* The §12 counters into the per-port records (asw_regs_place_counters). */
static void place_counters(asw_switch *sw) {
  uint32_t *at[8];
  at[ASW_CNT_FLITS_IN] = &sw->port[0].cnt[PCNT_FLITS_IN];
  at[ASW_CNT_FLITS_OUT] = &sw->port[0].cnt[PCNT_FLITS_OUT];
  at[ASW_CNT_PACKETS_OUT] = &sw->port[0].cnt[PCNT_PACKETS_OUT];
  at[ASW_CNT_PACKETS_IN] = &sw->cred.out[0].host[OCNT_PACKETS_IN];
  at[ASW_CNT_CREDIT_STALL] = &sw->cred.out[0].host[OCNT_CREDIT_STALL];
  at[ASW_CNT_SA_LOST] = &sw->cred.out[0].host[OCNT_SA_LOST];
  at[ASW_CNT_ROUTE_ERRORS] = &sw->cred.out[0].host[OCNT_ROUTE_ERRORS];
  at[ASW_CNT_ADAPTIVE] = &sw->cred.out[0].host[OCNT_ADAPTIVE];
  asw_regs_place_counters(&sw->regs, at, sizeof(port_state) / sizeof(uint32_t));
}

asw_switch *asw_switch_new(const asw_config *cfg, char *err, size_t errlen) {
  if (asw_config_check(cfg, err, errlen) != ASW_OK) return NULL;
  asw_switch *sw = calloc(1, sizeof *sw);
  if (!sw) goto oom;
  sw->cfg = *cfg;
  sw->P = cfg->ports;
  sw->V = cfg->vcs;
  sw->NQ = cfg->voq ? cfg->ports : 1;
  sw->port_mask = sw->P == 64 ? ~0ull : (1ull << sw->P) - 1;
  sw->payload_mask =
      cfg->payload_bits == 64 ? ~0ull : (1ull << cfg->payload_bits) - 1;
  sw->in = aligned_calloc(sw->P, sizeof *sw->in);
  /* One block, mapped from the OS on demand, huge pages when large */
  sw->slots = slots_alloc((size_t)sw->P * sw->V * cfg->buf_flits * sizeof *sw->slots,
                          &sw->slots_map_len);
  sw->port = aligned_calloc(sw->P, sizeof *sw->port);
  sw->req_vc = calloc((size_t)sw->P * sw->V, sizeof *sw->req_vc);
  sw->match_out = calloc(sw->P, 1);
  sw->match_vc = calloc(sw->P, 1);
  sw->pe = calloc((size_t)sw->P * sw->V * sw->NQ, 1);
  if (!sw->in || !sw->slots || !sw->port || !sw->req_vc || !sw->match_out ||
      !sw->match_vc || !sw->pe)
    goto oom;
  if (asw_regs_init(&sw->regs, cfg) || asw_credits_init(&sw->cred, sw->P, sw->V, cfg->buf_flits,
                        /* only SA with VOQs reads `rich` */
                        cfg->voq ? cfg->max_packet : 0) ||
      asw_islip_init(&sw->sa, sw->P, sw->V, cfg->iters))
    goto oom;
  place_counters(sw);
  for (unsigned p = 0; p < sw->P; p++)
    if (asw_ibuf_init(&sw->in[p], sw->V, cfg->buf_flits, sw->NQ,
                      sw->slots + (size_t)p * sw->V * cfg->buf_flits))
      goto oom;
  /* §15 state last: it stays out of the way of the blocks every step uses */
  if (asw_regs_init_arn(&sw->regs) || asw_cd_init(&sw->cd, sw->P, sw->V) ||
      asw_arn_init(&sw->arn, sw->P, cfg->arn_entries) ||
      asw_pfc_init(&sw->pfc, sw->P, sw->V, cfg->buf_flits) || asw_qcn_init(&sw->qcn, sw->P))
    goto oom;
  sw->SE = cfg->qcn ? cfg->sar_entries : 0; /* §1: no §17.8 without §17.4 */
  if (asw_sar_init(&sw->sar, sw->P, sw->SE)) goto oom;
  asw_switch_reset(sw);
  return sw;
oom:
  if (err && errlen) snprintf(err, errlen, "out of memory creating a switch");
  asw_switch_free(sw);
  return NULL;
}

const asw_config *asw_switch_config(const asw_switch *sw) { return &sw->cfg; }

static void reseed_lfsrs(asw_switch *sw) {
  for (unsigned p = 0; p < sw->P; p++)
    sw->port[p].lfsr = asw_lfsr_init((uint16_t)sw->regs.lfsr_seed, p);
}

void asw_switch_reset(asw_switch *sw) {
  asw_regs_reset(&sw->regs);
  asw_credits_reset(&sw->cred);
  asw_islip_reset(&sw->sa);
  for (unsigned p = 0; p < sw->P; p++) asw_ibuf_reset(&sw->in[p]);
  reseed_lfsrs(sw);
  asw_cd_reset(&sw->cd, 0);
  asw_arn_reset(&sw->arn);
  asw_pfc_reset(&sw->pfc);
  asw_link_reset(&sw->link, sw->P); /* §18: every link up */
  asw_port_gap_reset(&sw->gap);      /* §17.7: every output at full rate */
  sw->regs.link_down = sw->self_cr = 0;
  asw_qcn_reset(&sw->qcn);
  sw->regs.route_hash = 0; /* §17.6 */
  asw_sar_reset(&sw->sar);  /* §17.8 */
  sw->rel_mask = 0;
  sw->now = 0;
  sw->arn_on = 0;
  sw->rr_mask = sw->ra_mask = sw->busy_in = sw->busy_out = sw->nonempty_in = 0;
  sw->held = 0;
  sw->open_mask = 0;
  memset(sw->pe, 0, (size_t)sw->P * sw->V * sw->NQ);
  sw->sel_mask = 0;
  for (unsigned p = 0; p < sw->P; p++) sw->app_cyc[p] = ~0ull; /* no append since reset */
  sw->out_mask = sw->cr_mask = sw->st_disc = 0;
  sw->rvalid = 0;
  sw->rdata = 0;
  sw->err[0] = 0;
  sw->locked = 0; /* asw_credits_reset maintains the 2TH flags again */
  sw->plain_cfg = 0;
}

int asw_switch_lock_config(asw_switch *sw) {
  sw->locked = 1;
  /* the 2TH flags' only reader is adaptive RC with the 2TH trigger */
  sw->cred.cong_off = !(sw->regs.route_mode == ASW_ROUTE_ADAPTIVE &&
                        sw->regs.trigger == ASW_TRIG_2TH);
  /* the plain step (asw_switch_step) for the rest of the run: none of the
   * optional hardware can be switched on any more. Empty only, so no queued
   * packet carries a mode-3 fallback route. */
  sw->plain_cfg = !(sw->arn_on | sw->regs.mark_adapted | sw->pfc.en | sw->qcn.en |
                    sw->sar.en | sw->sar.steer | sw->gap.on | sw->regs.bubble.on |
                    sw->held | sw->busy_in | sw->rr_mask | sw->ra_mask) &&
                  sw->regs.route_mode != ASW_ROUTE_VCADAPT;
  return ASW_OK;
}

const char *asw_switch_error(const asw_switch *sw) { return sw->err; }

uint64_t asw_switch_cnm(const asw_switch *sw, uint64_t *msgs) { /* §17.4 */
  if (msgs)
    for (uint64_t m = sw->qcn.cnm_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      msgs[o] = sw->qcn.cnm_msg[o];
    }
  return sw->qcn.cnm_mask;
}

/* Inspection for the deadlock report (asw_switch.h). */
int asw_switch_queue_head(const asw_switch *sw, unsigned in, unsigned vc, unsigned q,
                          unsigned *oport, unsigned *ovc, unsigned *len) {
  if (in >= sw->P || vc >= sw->V || q >= sw->NQ) return ASW_EINVAL;
  const asw_ibuf *b = &sw->in[in];
  if (!(b->nonempty[vc] >> q & 1u)) return 0;
  uint32_t info = asw_ibuf_queue_info(b, vc, q);
  *oport = ASW_QINFO_OPORT(info);
  *ovc = ASW_QINFO_OVC(info);
  *len = ASW_QINFO_LEN(info);
  return 1;
}

static int core_idle(const asw_switch *sw) {
  return !(sw->busy_in | sw->rr_mask | sw->ra_mask | sw->held | sw->out_mask | sw->cr_mask |
           sw->rvalid | (sw->link.up ^ sw->link.up_q) | (sw->link.rx_up ^ sw->link.rx_up_q)
           /* §18: LINK_DOWN to update */) &&
         !(sw->pfc.en && asw_pfc_live(&sw->pfc, sw->held)) && /* §17.1 frames due */
         !sw->qcn.cnm_mask && /* §17.4 a CNM on the outputs */
         !sw->sar.en &&       /* §17.8: the lane and the AR timer run every cycle */
         !sw->gap.wait;       /* §17.7 outputs still counting down */
}

int asw_switch_idle(const asw_switch *sw) {
  if (!sw->arn_on) return core_idle(sw); /* mode 0: no §15 state */
  return core_idle(sw) && !asw_cd_live(&sw->cd) && !asw_arn_busy(&sw->arn) &&
         !sw->arn.valid;
}

uint64_t asw_switch_idle_in(const asw_switch *sw) {
  if (!sw->arn_on) return core_idle(sw) ? 0 : UINT64_MAX;
  if (!core_idle(sw) || asw_cd_live(&sw->cd) || asw_arn_busy(&sw->arn))
    return UINT64_MAX;
  if (!sw->arn.valid) return 0;
  return asw_arn_last_expiry(&sw->arn) - sw->now + 1;
}

uint64_t asw_switch_idle_both(const asw_switch *sw, int *idle) {
  const int core = core_idle(sw);
  if (!sw->arn_on) { /* mode 0: no §15 state */
    *idle = core;
    return core ? 0 : UINT64_MAX;
  }
  *idle = core && !asw_cd_live(&sw->cd) && !asw_arn_busy(&sw->arn) && !sw->arn.valid;
  return asw_switch_idle_in(sw);
}

int asw_switch_skip_idle(asw_switch *sw, uint64_t n) {
  if (asw_switch_idle_in(sw) == UINT64_MAX) {
    snprintf(sw->err, sizeof sw->err, "skip_idle: switch has live state");
    return ASW_EINVAL;
  }
  sw->sar.tc += n; /* §17.8 tc counts every cycle */
  asw_credits_skip(&sw->cred, n); /* §8: the previous cycle changed nothing */
  if (!n || !sw->arn_on) return ASW_OK; /* mode 0: idle steps change nothing */
  sw->now += n;
  /* entries whose last valid cycle has passed expired at its end */
  asw_arn_end_cycle(&sw->arn, &sw->regs, 0, sw->now - 1);
  return ASW_OK;
}

void asw_switch_prefetch(const asw_switch *sw, int level, uint64_t in_mask,
                         uint64_t cr_mask) {
  if (level == 0) { /* the record: masks and the pointers to the rest */
    const char *p = (const char *)sw;
    for (size_t k = 0; k < offsetof(asw_switch, regs) + 64; k += 64)
      __builtin_prefetch(p + k);
    /* and the words of the later blocks every step reads (the plain test of
     * asw_switch_step, the thresholds, §17.8 tc, asw_switch_idle_both) */
    __builtin_prefetch(&sw->regs.ltth);
    __builtin_prefetch(&sw->pfc.en);
    __builtin_prefetch(&sw->link.up);
    __builtin_prefetch(&sw->link.rx_up_q);
    __builtin_prefetch(&sw->link.on);
    __builtin_prefetch(&sw->gap.wait);
    __builtin_prefetch(&sw->self_cr);
    __builtin_prefetch(&sw->qcn.cnm_mask);
    __builtin_prefetch(&sw->sar.tc, 1);
    __builtin_prefetch(&sw->sar.out_mask);
    return;
  }
  uint64_t act =
      (sw->busy_in | sw->nonempty_in | sw->rr_mask | sw->ra_mask | in_mask) & sw->port_mask;
  if (level == 1) { /* per-port state of the active ports */
    const uint64_t ports = act | ((sw->busy_out | sw->cr_mask | sw->out_mask) & sw->port_mask);
    uint64_t m = ports;
    if (m) {
      __builtin_prefetch(sw->sa.gp);
      __builtin_prefetch(sw->sa.ap);
      __builtin_prefetch(sw->sa.req);
    }
    for (; m; m &= m - 1) {
      unsigned p = (unsigned)__builtin_ctzll(m);
      const char *b = (const char *)&sw->in[p];
      __builtin_prefetch(b);
      __builtin_prefetch(b + 64);
      if (sw->NQ > 1) __builtin_prefetch(b + 128); /* nonempty[]: read with VOQs */
      __builtin_prefetch(&sw->port[p]);
      __builtin_prefetch(&sw->cred.out[p]);
    }
    /* the credit lines of the outputs credits return to (and nothing else) */
    for (m = cr_mask & sw->port_mask & ~ports; m; m &= m - 1)
      __builtin_prefetch(&sw->cred.out[__builtin_ctzll(m)], 1);
    return;
  }
  /* level 2: what the per-port state points to: the slots ST sends from and
   * RC routes, the queue descriptors SA reads, the free-slot stack tops */
  for (uint64_t m = act; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    const asw_ibuf *b = &sw->in[p];
    if (sw->busy_in >> p & 1u) __builtin_prefetch(&b->slot[sw->port[p].st.slot]);
    if (sw->rr_mask >> p & 1u) __builtin_prefetch(&b->slot[sw->port[p].rr.slot]);
    if (sw->ra_mask >> p & 1u) __builtin_prefetch(&b->slot[sw->port[p].ra.slot]);
    if (sw->nonempty_in >> p & 1u) __builtin_prefetch(b->q);
    if (in_mask >> p & 1u) {
      __builtin_prefetch(&b->slot[b->free_top], 1);
      __builtin_prefetch(&b->slot[b->vc_last[0]], 1);
    }
  }
}

int asw_switch_set_link_up(asw_switch *sw, uint64_t up, uint64_t rx_up) { /* §18.1 */
  if ((up | rx_up) & ~sw->port_mask) {
    snprintf(sw->err, sizeof sw->err, "link_up/link_rx_up have bits for ports >= P = %u", sw->P);
    return ASW_EINVAL;
  }
  if (!sw->cfg.link_faults && (up & rx_up) != sw->port_mask) { /* §1 link_faults off */
    snprintf(sw->err, sizeof sw->err,
             "link_up/link_rx_up: a link down needs the §18 hardware (link_faults is off)");
    return ASW_EINVAL;
  }
  sw->link.up = up;
  sw->link.rx_up = rx_up;
  sw->regs.link_down = sw->port_mask & ~up;
  if ((up & rx_up) != sw->port_mask) sw->link.on = 1;
  return ASW_OK;
}

/* 1 if a is the address of an event counter of any block (§12, §15.8, §16.2, §17.2,
 * §17.4, §17.8, §18.4): without the counters feature (§1) they all read 0. */
static int counter_addr(unsigned P, uint32_t a) {
  return (a >= ASW_REG_COUNTER(0, 0) && a < ASW_REG_COUNTER(P, 0)) ||
         (a >= ASW_REG_ARN_COUNTER(0, 0) && a < ASW_REG_ARN_COUNTER(P, 0)) ||
         (a >= ASW_REG_BUBBLE_COUNTER(0, 0) && a < ASW_REG_BUBBLE_COUNTER(P, 0)) ||
         (a >= ASW_REG_PFC_COUNTER(0, 0) && a < ASW_REG_PFC_COUNTER(P, 0)) ||
         (a >= ASW_REG_QCN_COUNTER(0, 0) && a < ASW_REG_QCN_COUNTER(P, 0)) ||
         (a >= ASW_REG_SAR_COUNTER(0, 0) && a < ASW_REG_SAR_COUNTER(P, 0)) ||
         (a >= ASW_REG_LINK_COUNTER(0) && a < ASW_REG_LINK_COUNTER(ASW_LCNT_NUM));
}

int asw_reg_read(const asw_switch *sw, uint32_t a, uint32_t *data) {
  *data = 0;
  if (a >> 20) return ASW_EINVAL;
  if (!sw->cfg.counters && counter_addr(sw->P, a)) return ASW_OK; /* §1: no counters */
  if (!sw->cfg.readback && a >= ASW_REG_OCC(0, 0, 0) && a < ASW_REG_CRED(64, 0))
    return ASW_OK; /* §1: no OCC / CRED read-back */
  if (sw->cfg.link_faults && asw_link_owns(a)) { /* §18.4 */
    *data = asw_link_reg_read(&sw->link, a);
    return ASW_OK;
  }
  if (asw_regs_read(&sw->regs, a, data)) return ASW_OK;
  if (sw->cfg.pfc && asw_pfc_owns(a, sw->P)) { /* §17.2 */
    unsigned paused = 0;
    if (a >= ASW_REG_PFC_STATE(0) && (sw->pfc.en >> (a - ASW_REG_PFC_STATE(0)) & 1u))
      for (unsigned v = 0; v < sw->V; v++)
        paused |= (unsigned)(asw_credits_get(&sw->cred, a - ASW_REG_PFC_STATE(0), v) == 0) << v;
    *data = asw_pfc_reg_read(&sw->pfc, a, paused);
    return ASW_OK;
  }
  if (sw->cfg.qcn && asw_qcn_owns(a, sw->P)) { /* §17.4 */
    *data = asw_qcn_reg_read(&sw->qcn, a);
    return ASW_OK;
  }
  if (sw->cfg.route_hash && a == ASW_REG_ROUTE_HASH) { /* §17.6 */
    *data = sw->regs.route_hash;
    return ASW_OK;
  }
  if (sw->cfg.port_rate && asw_port_gap_owns(a)) { /* §17.7 */
    *data = asw_port_gap_read(&sw->gap, a);
    return ASW_OK;
  }
  if (sw->SE && asw_sar_owns(a, sw->P, sw->SE)) { /* §17.8 */
    *data = asw_sar_reg_read(&sw->sar, a);
    return ASW_OK;
  }
  if (a >= ASW_REG_OCC(0, 0, 0) && a < ASW_REG_OCC(sw->P, 0, 0)) {
    unsigned i = (a - ASW_REG_OCC(0, 0, 0)) >> 9, v = a >> 6 & 7u, q = a & 63u;
    if (v < sw->V && q < sw->NQ) *data = asw_ibuf_occ(&sw->in[i], v, q);
  } else if (a >= ASW_REG_CRED(0, 0) && a < ASW_REG_CRED(sw->P, 0)) {
    unsigned o = (a - ASW_REG_CRED(0, 0)) >> 3, v = a & 7u;
    if (v < sw->V) *data = asw_credits_get(&sw->cred, o, v);
  } else if (sw->cfg.arn_entries && a >= ASW_REG_ARN_ENTRY(0, 0) &&
             a < ASW_REG_ARN_ENTRY(sw->cfg.arn_entries, 0)) {
    unsigned e = (a - ASW_REG_ARN_ENTRY(0, 0)) >> 2;
    *data = asw_arn_entry_word(&sw->arn, e, a & 3u, sw->now);
  } else if (sw->cfg.arn_entries && a >= ASW_REG_ROOT(0, 0) &&
             a < ASW_REG_ROOT(sw->P, 0)) {
    unsigned o = (a - ASW_REG_ROOT(0, 0)) >> 1;
    unsigned root = (unsigned)(sw->cd.root >> o & 1u);
    *data = (a & 1u) ? sw->cd.crt[o]
                     : root | (root ? (uint32_t)sw->cd.root_id[o] << 1 : 0) |
                           (uint32_t)sw->cd.hot_cnt[o] << 10;
  }
  return ASW_OK;
}

static void apply_write_effects(asw_switch *sw, unsigned fx) {
  if (fx & ASW_REGS_FX_LFSR) reseed_lfsrs(sw);
  if (fx & ASW_REGS_FX_ARN_OFF) { /* §15.7: all §15 state but next_id */
    asw_cd_reset(&sw->cd, 1);
    asw_arn_reset(&sw->arn);
  }
  sw->arn_on = sw->regs.arn_mode != 0;
}

/* The §17 registers (§17.2 PFC, §17.4 QCN, §17.6 ROUTE_HASH, §17.7 PORT_GAP); 1 if
 * addr is not one of them, else ASW_OK / ASW_EINVAL (counted in REG_ERRORS). A
 * CNT_CLEAR also clears the PFC, QCN and link counters (and returns 1). */
static int sec17_write(asw_switch *sw, uint32_t a, uint32_t d, char *err, size_t errlen) {
  if (a == ASW_REG_CNT_CLEAR) asw_qcn_clear_counters(&sw->qcn); /* §17.4 */
  if (sw->cfg.qcn && asw_qcn_owns(a, sw->P)) { /* §17.4, same rules */
    int rc = asw_qcn_reg_write(&sw->qcn, a, d, err, errlen);
    if (rc) sw->regs.reg_errors++;
    return rc;
  }
  if (sw->cfg.route_hash && a == ASW_REG_ROUTE_HASH) { /* §17.6, as §17.4 */
    int rc = asw_route_hash_check(d, err, errlen);
    if (rc) sw->regs.reg_errors++;
    else sw->regs.route_hash = d;
    return rc;
  }
  if (sw->cfg.port_rate && asw_port_gap_owns(a)) { /* §17.7 */
    int rc = asw_port_gap_write(&sw->gap, a, d, sw->P, err, errlen);
    if (rc) sw->regs.reg_errors++;
    return rc;
  }
  if (a == ASW_REG_CNT_CLEAR) asw_sar_clear_counters(&sw->sar); /* §17.8 */
  if (sw->SE && asw_sar_owns(a, sw->P, sw->SE)) {               /* §17.8, same rules */
    int rc = asw_sar_reg_write(&sw->sar, a, d, err, errlen);
    if (rc) sw->regs.reg_errors++;
    return rc;
  }
  if (a == ASW_REG_CNT_CLEAR) asw_pfc_clear_counters(&sw->pfc);
  if (a == ASW_REG_CNT_CLEAR) asw_link_clear_counters(&sw->link); /* §18.4 */
  if (!sw->cfg.pfc || !asw_pfc_owns(a, sw->P)) return 1; /* pfc off: unmapped */
  uint64_t changed;
  int rc = asw_pfc_reg_write(&sw->pfc, a, d, &changed, err, errlen);
  if (rc) sw->regs.reg_errors++;
  if (changed) asw_credits_set_pfc(&sw->cred, sw->pfc.en, changed);
  return rc;
}

/* §16.3: mode 3 and the §17.4 congestion points exclude each other. 1 (the write is
 * illegal, counted in REG_ERRORS, err set if given) if writing d at a would join them. */
static int vca_qcn_excluded(asw_switch *sw, uint32_t a, uint32_t d, char *err, size_t errlen) {
  if (!((a == ASW_REG_ROUTE_CTRL && (d & 3u) == ASW_ROUTE_VCADAPT && sw->qcn.en) ||
        (a == ASW_REG_QCN_CTRL && (d & 1u) && sw->cfg.qcn &&
         sw->regs.route_mode == ASW_ROUTE_VCADAPT)))
    return 0;
  if (err && errlen)
    snprintf(err, errlen, "%s: ROUTE_CTRL mode 3 (§16.3) and QCN_CTRL.en = 1 exclude each other",
             a == ASW_REG_ROUTE_CTRL ? "ROUTE_CTRL" : "QCN_CTRL");
  sw->regs.reg_errors++;
  return 1;
}

int asw_reg_write(asw_switch *sw, uint32_t a, uint32_t d) {
  unsigned fx = 0;
  if (sw->locked) {
    snprintf(sw->err, sizeof sw->err,
             "register write 0x%x to a switch whose configuration is locked", a);
    return ASW_EINVAL;
  }
  if (vca_qcn_excluded(sw, a, d, sw->err, sizeof sw->err)) return ASW_EINVAL;
  int prc = sec17_write(sw, a, d, sw->err, sizeof sw->err);
  if (prc != 1) return prc;
  int rc = asw_regs_write(&sw->regs, a, d, &fx, sw->err,
                          sizeof sw->err);
  apply_write_effects(sw, fx);
  if (fx & ASW_REGS_FX_THRESH)
    asw_credits_update_cong(&sw->cred, sw->regs.ltth, sw->regs.htth, 1);
  return rc;
}

#define PROTO_ERR(...)                                   \
  do {                                                   \
    snprintf(sw->err, sizeof sw->err, __VA_ARGS__);      \
    return ASW_EPROTO;                                   \
  } while (0)

/* Checks a cycle's inputs against the link protocol before anything
 * changes (§2, §9). */
static __attribute__((noinline)) int check_inputs(asw_switch *sw, const asw_inputs *in) {
  char msg[200];
  if ((in->flit_mask | in->credit_mask | in->arn_mask | in->cnm_mask) & ~sw->port_mask)
    PROTO_ERR("input masks have bits for ports >= P = %u", sw->P);
  if (in->flit_mask && !in->flit)
    PROTO_ERR("flit_mask set but flit array is NULL");
  if (in->arn_mask && !in->arn)
    PROTO_ERR("arn_mask set but arn array is NULL");
  if (in->cnm_mask && !in->cnm)
    PROTO_ERR("cnm_mask set but cnm array is NULL");
  if (in->credit_mask && !in->credit_vc)
    PROTO_ERR("credit_mask set but credit_vc array is NULL");
  const asw_flit *const flit = in->flit;
  const unsigned lmax = sw->cfg.max_packet;
  if (in->flit_mask & ~sw->link.rx_up) /* §18.3 */
    PROTO_ERR("input %u: flit while link_rx_up is 0",
              (unsigned)__builtin_ctzll(in->flit_mask & ~sw->link.rx_up));
  for (uint64_t m = in->flit_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    const asw_flit *f = &flit[p];
    unsigned len = ASW_HDR_LEN(f->hdr);
    if (!asw_ibuf_flit_ok(&sw->in[p], f->vc, f->head != 0, f->tail != 0, len,
                          lmax) &&
        asw_ibuf_check(&sw->in[p], f->vc, f->head != 0, f->tail != 0, len,
                       sw->cfg.max_packet, msg, sizeof msg))
      PROTO_ERR("input %u: %s", p, msg);
    if (f->head && (ASW_HDR_DEST(f->hdr) >> sw->cfg.dest_bits))
      PROTO_ERR("input %u: head flit dest 0x%x has bits above DW = %u set", p,
                ASW_HDR_DEST(f->hdr), sw->cfg.dest_bits);
  }
  for (uint64_t m = in->credit_mask; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    if (!asw_credits_return_ok(&sw->cred, o, in->credit_vc[o]) &&
        asw_credits_check_return(&sw->cred, o, in->credit_vc[o], msg, sizeof msg))
      PROTO_ERR("%s", msg);
  }
  if (in->reg_en && (in->reg_addr >> 20))
    PROTO_ERR("reg_addr 0x%x is wider than 20 bits", in->reg_addr);
  if (in->reg_en && in->reg_we && sw->locked)
    PROTO_ERR("register bus write 0x%x to a switch whose configuration is locked",
              in->reg_addr);
  return ASW_OK;
}

/* Inlined into both step bodies (see asw_switch_step): `plain` constant. */
#define STEP_INLINE static inline __attribute__((always_inline))

/* The tests of check_inputs without its messages, inlined in the step:
 * 1 if the inputs are legal (0: check_inputs finds out why). */
STEP_INLINE int inputs_ok(const asw_switch *sw, const asw_inputs *in, const int plain) {
  const uint64_t fm = in->flit_mask, cm = in->credit_mask;
  if ((fm | cm | (plain ? 0 : in->arn_mask | in->cnm_mask)) & ~sw->port_mask) return 0;
  if ((fm && !in->flit) || (cm && !in->credit_vc) || (fm & ~sw->link.rx_up)) return 0;
  if (!plain && ((in->arn_mask && !in->arn) || (in->cnm_mask && !in->cnm))) return 0;
  const asw_flit *const flit = in->flit;
  const unsigned lmax = sw->cfg.max_packet, dest_bits = sw->cfg.dest_bits;
  for (uint64_t m = fm; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    const asw_flit *f = &flit[p];
    if (!asw_ibuf_flit_ok(&sw->in[p], f->vc, f->head != 0, f->tail != 0,
                          f->head ? ASW_HDR_LEN(f->hdr) : 0, lmax) ||
        (f->head && (ASW_HDR_DEST(f->hdr) >> dest_bits)))
      return 0;
  }
  for (uint64_t m = cm; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    if (!asw_credits_return_ok(&sw->cred, o, in->credit_vc[o])) return 0;
  }
  return plain || !in->reg_en || (!(in->reg_addr >> 20) && !(in->reg_we && sw->locked));
}

/* ST (§8): every busy input with a sendable flit moves it into its output
 * register and a credit into its credit register; tails release. */
STEP_INLINE void stage_st(asw_switch *sw, int arn_on, const int plain) {
  uint64_t out_mask = 0, cr_mask = 0, disc = 0;
  /* in locals: the output register's byte stores may alias them */
  const uint64_t gap_wait = plain ? 0 : sw->gap.wait;
  const int link_on = plain ? 0 : sw->link.on;
  uint64_t released = 0;
  for (uint64_t m = sw->busy_in; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    stream_state *st = &sw->port[i].st;
    asw_ibuf *b = &sw->in[i];
    unsigned s = st->slot;
    if (link_on && st->rem < st->len) asw_link_mid(&sw->link, st->out); /* §18.2 cut */
    if (!asw_ibuf_sendable(b, st->vc, s)) continue; /* bubble, match holds */
    if (gap_wait >> st->out & 1u) continue;          /* §17.7: the output waits */
    const asw_slot *sl = &b->slot[s];
    unsigned o = st->out, head = sl->flags & ASW_SLOT_HEAD,
             tail = sl->flags & ASW_SLOT_TAIL;
    int self = 0; /* §18.2: a flit for a down link is discarded, not sent */
    if (!(link_on && asw_link_st(&sw->link, o, head != 0, tail != 0, &self))) {
      port_state *po = &sw->port[o];
      asw_flit *f = &po->out;
      f->valid = 1;
      f->head = head ? 1 : 0;
      f->tail = tail ? 1 : 0;
      f->vc = st->ovc;
      f->hdr = head ? sl->hdr : 0;
      f->payload = sl->payload;
      out_mask |= 1ull << o;
      po->cnt[PCNT_FLITS_OUT]++;
      if (head) po->cnt[PCNT_PACKETS_OUT]++;
    } else {
      disc |= 1ull << o;
      if (self) {
        sw->self_cr |= 1ull << o;
        sw->self_vc[o] = st->ovc;
      }
    }
    sw->port[i].cr_vc = st->vc;
    st->rem--;
    cr_mask |= 1ull << i;
    unsigned next = asw_ibuf_release_at(b, st->vc, st->qidx, s);
    released++;
    if (arn_on) { /* hot flag evaluated after RC, on the final occupancy */
      sw->port[i].rel_vc = st->vc;
      sw->port[i].rel_out = (uint8_t)o;
      sw->rel_mask |= 1ull << i;
    }
    if (tail) {
      sw->busy_in &= ~(1ull << i);
      sw->busy_out &= ~(1ull << o);
    } else {
      st->slot = (uint16_t)next;
      /* next cycle's ST reads this slot: start the (likely) cache miss now */
      __builtin_prefetch(&b->slot[next]);
    }
  }
  sw->held -= released;
  sw->out_mask = out_mask;
  sw->st_disc = disc;
  sw->cr_mask = cr_mask;
}

/* The match effects of §8 for the inputs in matched (match_out, match_vc): pop, streaming
 * state, busy masks; the credits are reserved after RC (step_body). Returns the outputs. */
static uint64_t sa_match_effects(asw_switch *sw, uint64_t matched, const uint64_t bub_on,
                                 const int plain) {
  const asw_bubble *bub = &sw->regs.bubble;
  uint64_t matched_out = 0;
  for (uint64_t m = matched; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    unsigned o = sw->match_out[i], v = sw->match_vc[i];
    asw_ibuf *b = &sw->in[i];
    const unsigned q = sw->cfg.voq ? o : 0;
    /* the head's route and length from the queue descriptor: no slot read */
    const uint32_t info = asw_ibuf_queue_info(b, v, q);
    unsigned s = asw_ibuf_pop(b, v, q);
    if (!b->nonempty_vcs) sw->nonempty_in &= ~(1ull << i);
    stream_state *st = &sw->port[i].st;
    /* §16.3: a fallback match streams on the fallback VC (o is its port) */
    const unsigned w = (!plain && !sw->cfg.voq && (sw->fbsel[i] >> v & 1u)) ? ASW_QINFO_FVC(info)
                                                                       : ASW_QINFO_OVC(info);
    if ((bub_on >> o & 1u) && asw_bubble_enters(bub, i, v, o, w))
      sw->regs.bubble.counters[o * ASW_BCNT_NUM + ASW_BCNT_RING_ENTER]++; /* §16.1 */
    st->out = (uint8_t)o;
    st->vc = (uint8_t)v;
    st->ovc = (uint8_t)w;
    st->len = (uint8_t)ASW_QINFO_LEN(info);
    st->rem = st->len;
    st->slot = (uint16_t)s;
    st->qidx = (uint16_t)asw_ibuf_queue_index(b, v, q);
    __builtin_prefetch(&b->slot[s]);
    sw->busy_in |= 1ull << i;
    sw->busy_out |= 1ull << o;
    matched_out |= 1ull << o;
  }
  return matched_out;
}

/* The §8 counters of an allocation: credit_stall and (§16.1) bubble_stall of the outputs in
 * stall / bstall left unmatched, sa_lost of the requesting inputs left unmatched. */
static void sa_count(asw_switch *sw, uint64_t stall, uint64_t bstall, uint64_t req_in,
                     uint64_t matched, uint64_t matched_out, const int plain) {
  asw_out_credits *const oc = sw->cred.out;
  for (uint64_t m = stall & ~matched_out; m; m &= m - 1)
    oc[__builtin_ctzll(m)].host[OCNT_CREDIT_STALL]++;
  for (uint64_t m = req_in & ~matched; m; m &= m - 1)
    oc[__builtin_ctzll(m)].host[OCNT_SA_LOST]++;
  if (!plain)
    for (uint64_t m = bstall & ~matched_out; m; m &= m - 1) /* §16.1 */
      sw->regs.bubble.counters[__builtin_ctzll(m) * ASW_BCNT_NUM + ASW_BCNT_BUBBLE_STALL]++;
}

/* SA with SAPIPE = 1 (§8.1), as the hardware registers it: the requests of the selections
 * made last cycle (§8 condition 3 on the selected head), the outputs' grants, the match
 * effects; then, for the next cycle, each input's selection (from the eligibility SR
 * registered last cycle, this cycle's open outputs and the pointers after the grants; an
 * input granted a 1-flit packet also takes the packet behind it, without a credit check)
 * and the eligibility SR registers now (the heads queued now, CRED now >= len). The §8
 * counters over every head, as iSLIP's. Returns the matched inputs. */
static uint64_t stage_sa_pipe(asw_switch *sw, const int plain) {
  const unsigned V = sw->V, P = sw->P, NQ = sw->NQ, voq = sw->cfg.voq;
  const uint64_t free_in = sw->port_mask & ~sw->busy_in;
  const uint64_t free_out = sw->port_mask & ~sw->busy_out;
  const asw_bubble *bub = &sw->regs.bubble;
  const uint64_t bub_on = plain ? 0 : bub->on;
  const asw_credits *const cred = &sw->cred;
  const uint64_t pcyc = cred->cyc - 1;
  asw_islip *a = &sw->sa;
  uint64_t req_in = 0, stall = 0, bstall = 0;
  uint8_t app_vc[64];
  uint64_t app_q[64]; /* §8: the queue whose head RQ appended last cycle (condition 1) */
  for (uint64_t m = sw->nonempty_in & free_in; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    const asw_ibuf *b = &sw->in[i];
    app_vc[i] = 8;
    app_q[i] = 0;
    if (sw->app_cyc[i] == pcyc &&
        b->q[asw_ibuf_queue_index(b, sw->app_vc[i], voq ? sw->app_q[i] : 0)].head ==
            sw->app_slot[i]) {
      app_vc[i] = sw->app_vc[i];
      app_q[i] = voq ? 1ull << sw->app_q[i] : 1u;
    }
    for (unsigned vm = b->nonempty_vcs; vm; vm &= vm - 1) { /* §8 counters */
      unsigned v = (unsigned)__builtin_ctz(vm);
      uint64_t qs = voq ? b->nonempty[v] : 1u;
      if (v == app_vc[i]) qs &= ~app_q[i];
      for (; qs; qs &= qs - 1) {
        uint32_t info = asw_ibuf_queue_info(b, v, (unsigned)__builtin_ctzll(qs));
        unsigned o = ASW_QINFO_OPORT(info), w = ASW_QINFO_OVC(info), mm;
        if (!(free_out >> o & 1u)) continue;
        unsigned cr = asw_credits_prev(cred, o, w, &mm), len = ASW_QINFO_LEN(info), need = len;
        if ((bub_on >> o & 1u) && asw_bubble_enters(bub, i, v, o, w)) need = 2 * len;
        if (cr < need + mm) {
          stall |= 1ull << o;
          if (!plain && cr >= len + mm) bstall |= 1ull << o;
        }
      }
    }
    if (!(sw->sel_mask >> i & 1u)) continue;
    /* the request of the selection: its queue's head, condition 1 and 3 (§8) */
    unsigned o = sw->sel_out[i], v = sw->sel_vc[i], q = voq ? o : 0;
    if (!(free_out >> o & 1u) || !(b->nonempty_vcs >> v & 1u)) continue;
    if (voq && !(b->nonempty[v] >> o & 1u)) continue;
    if (v == app_vc[i] && (app_q[i] >> q & 1u)) continue;
    uint32_t info = asw_ibuf_queue_info(b, v, q);
    if (ASW_QINFO_OPORT(info) != o) continue;
    unsigned w = ASW_QINFO_OVC(info), mm;
    unsigned cr = asw_credits_prev(cred, o, w, &mm), len = ASW_QINFO_LEN(info), need = len;
    if ((bub_on >> o & 1u) && asw_bubble_enters(bub, i, v, o, w)) need = 2 * len;
    if (cr >= need + mm) req_in |= 1ull << i;
  }
  uint64_t matched = 0;
  if (req_in)
    matched = asw_islip_grant(a, req_in, sw->sel_out, sw->sel_vc, sw->match_out, sw->match_vc);
  sa_count(sw, stall, bstall, req_in, matched, sa_match_effects(sw, matched, bub_on, plain),
           plain);

  /* The selections for the next cycle, then SR's eligibility for the one after. */
  const uint64_t open = sw->open_mask; /* this cycle's (step_body, before ST) */
  uint64_t sel = 0;
  for (uint64_t m = sw->port_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    const asw_ibuf *b = &sw->in[i];
    uint8_t *pe = &sw->pe[(size_t)i * V * NQ];
    int g = (int)(matched >> i & 1u);
    unsigned kg = 0; /* the queue the grant popped */
    if (g) {
      if (sw->port[i].st.len != 1) continue; /* busy next cycle: no selection */
      kg = sw->match_vc[i] * NQ + (voq ? sw->match_out[i] : 0);
    }
    uint64_t outs = 0;
    uint8_t evc[64];
    for (unsigned v = 0; v < V; v++) {
      uint64_t qs = voq ? b->nonempty[v] : (b->nonempty_vcs >> v & 1u);
      for (; qs; qs &= qs - 1) {
        unsigned q = (unsigned)__builtin_ctzll(qs), k = v * NQ + q;
        if (!(g && k == kg) && !pe[k]) continue;
        /* the popped queue's new head: queued at the start of this cycle (RQ comes later) */
        unsigned o = ASW_QINFO_OPORT(asw_ibuf_queue_info(b, v, q));
        if (!(open >> o & 1u)) continue;
        if (!(outs >> o & 1u)) evc[o] = 0;
        outs |= 1ull << o;
        evc[o] |= (uint8_t)(1u << v);
      }
    }
    if (!outs) continue;
    unsigned o = asw_rr_first(outs, a->ap[i]);
    sw->sel_out[i] = (uint8_t)o;
    sw->sel_vc[i] = (uint8_t)(V > 1 ? asw_rr_first(evc[o], a->vp[i * P + o]) : 0);
    sel |= 1ull << i;
  }
  sw->sel_mask = sel;
  for (uint64_t m = sw->port_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    const asw_ibuf *b = &sw->in[i];
    uint8_t *pe = &sw->pe[(size_t)i * V * NQ];
    memset(pe, 0, (size_t)V * NQ);
    for (unsigned vm = b->nonempty_vcs; vm; vm &= vm - 1) {
      unsigned v = (unsigned)__builtin_ctz(vm);
      for (uint64_t qs = voq ? b->nonempty[v] : 1u; qs; qs &= qs - 1) {
        unsigned q = (unsigned)__builtin_ctzll(qs);
        uint32_t info = asw_ibuf_queue_info(b, v, q);
        pe[v * NQ + q] = asw_credits_get(cred, ASW_QINFO_OPORT(info), ASW_QINFO_OVC(info)) >=
                         ASW_QINFO_LEN(info);
      }
    }
  }
  return matched;
}

/* SA (§8): requests from free inputs' queue heads to free outputs with
 * enough credits, iSLIP, match effects (credit reservation deferred until
 * RC has read the cycle-start credits). Returns the matched inputs.
 * Requests are registered a cycle ahead in hardware (SR): a head requests
 * only if it was queued at the start of the previous cycle, and its credit
 * check uses the credits at the start of the previous cycle, one more on an
 * (output, VC) a match of that cycle reserved on (asw_credits_prev). */
STEP_INLINE uint64_t stage_sa(asw_switch *sw, const int plain) {
  if (sw->cfg.sa_pipe) return stage_sa_pipe(sw, plain);
  const unsigned V = sw->V;
  uint64_t free_in = sw->port_mask & ~sw->busy_in;
  uint64_t free_out = sw->port_mask & ~sw->busy_out;
  uint64_t scan = sw->nonempty_in & free_in;
  if (!scan || !free_out) return 0;
  /* Outputs in `rich` have >= LMAX credits on every VC, and had them at
   * the start of the previous cycle (unchanged since, no reservation): every
   * head packet fits, only the others need a per-packet credit check. */
  /* §16.1: outputs under the bubble rule are never `rich` (a head may need
   * 2*len credits) and count bubble_stall in bstall. */
  const asw_bubble *bub = &sw->regs.bubble;
  const uint64_t bub_on = plain ? 0 : bub->on;
  const asw_credits *const cred = &sw->cred;
  const uint64_t rich = cred->rich & ~bub_on & ~asw_credits_changed_prev(cred);
  const uint64_t pcyc = cred->cyc - 1;
  uint64_t req_in = 0, stall = 0, bstall = 0;
  /* Requests go straight into the allocator's scratch: req_vc[i*V + v] for
   * the VCs with a request, their OR and that VC mask (nothing to clear). */
  uint64_t *const req = sw->sa.req;
  uint8_t *const req_vcs = sw->sa.req_vcs;
  if (sw->cfg.voq) {
    for (uint64_t m = scan; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      const asw_ibuf *b = &sw->in[i];
      uint64_t *req_vc = &sw->req_vc[i * V];
      uint64_t any = 0;
      unsigned vcs = 0, av = 8;
      uint64_t aq = 0; /* §8: the queue whose head RQ appended last cycle */
      if (sw->app_cyc[i] == pcyc &&
          b->q[asw_ibuf_queue_index(b, sw->app_vc[i], sw->app_q[i])].head == sw->app_slot[i]) {
        av = sw->app_vc[i];
        aq = 1ull << sw->app_q[i];
      }
      for (unsigned vm = b->nonempty_vcs; vm; vm &= vm - 1) {
        unsigned v = (unsigned)__builtin_ctz(vm);
        uint64_t want = b->nonempty[v] & free_out & ~(v == av ? aq : 0);
        uint64_t r = want & rich;
        for (uint64_t qm = want & ~rich; qm; qm &= qm - 1) {
          unsigned o = (unsigned)__builtin_ctzll(qm);
          uint32_t info = asw_ibuf_queue_info(b, v, o);
          unsigned mm;
          unsigned cr = asw_credits_prev(cred, o, ASW_QINFO_OVC(info), &mm);
          unsigned len = ASW_QINFO_LEN(info), need = len;
          if ((bub_on >> o & 1u) && asw_bubble_enters(bub, i, v, o, ASW_QINFO_OVC(info)))
            need = 2 * len; /* §16.1: entering a ring */
          if (cr >= need + mm) {
            r |= 1ull << o;
          } else {
            stall |= 1ull << o;
            if (!plain && cr >= len + mm) bstall |= 1ull << o; /* need > len: bubble */
          }
        }
        if (r) {
          req_vc[v] = r;
          vcs |= 1u << v;
          any |= r;
        }
      }
      if (any) {
        req_in |= 1ull << i;
        req[i] = any;
        req_vcs[i] = (uint8_t)vcs;
      }
    }
  } else { /* one queue per VC: at most one request per VC */
    for (uint64_t m = scan; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      const asw_ibuf *b = &sw->in[i];
      uint64_t *req_vc = &sw->req_vc[i * V];
      uint64_t any = 0;
      unsigned vcs = 0, fbsel = 0, vmask = b->nonempty_vcs;
      if (sw->app_cyc[i] == pcyc && b->q[sw->app_vc[i]].head == sw->app_slot[i])
        vmask &= ~(1u << sw->app_vc[i]); /* §8: appended last cycle */
      for (unsigned vm = vmask; vm; vm &= vm - 1) {
        unsigned v = (unsigned)__builtin_ctz(vm);
        const uint32_t info = b->q[v].info; /* NQ = 1: queue (v, 0) */
        unsigned o = ASW_QINFO_OPORT(info), w = ASW_QINFO_OVC(info);
        unsigned ofree = (unsigned)(free_out >> o & 1u);
        if (!ofree && (plain || !ASW_QINFO_FB(info))) continue;
        unsigned mm;
        unsigned cr = asw_credits_prev(cred, o, w, &mm);
        unsigned len = ASW_QINFO_LEN(info), need = len;
        if ((bub_on >> o & 1u) && asw_bubble_enters(bub, i, v, o, w))
          need = 2 * len; /* §16.1: entering a ring */
        if (cr >= need + mm) { /* a busy output is waited for (§16.3: no fallback) */
          if (ofree) {
            req_vc[v] = 1ull << o;
            vcs |= 1u << v;
            any |= 1ull << o;
          }
          continue;
        }
        if (ofree) {
          stall |= 1ull << o;
          if (!plain && cr >= len + mm) bstall |= 1ull << o; /* need > len: bubble */
        }
        if (!plain && ASW_QINFO_FB(info)) { /* §16.3: the primary cannot be used, try the fallback */
          unsigned fo = ASW_QINFO_FPORT(info), fw = ASW_QINFO_FVC(info), fneed = len, fm;
          if (!(free_out >> fo & 1u)) continue;
          if ((bub_on >> fo & 1u) && asw_bubble_enters(bub, i, v, fo, fw)) fneed = 2 * len;
          if (asw_credits_prev(cred, fo, fw, &fm) >= fneed + fm) {
            req_vc[v] = 1ull << fo;
            vcs |= 1u << v;
            any |= 1ull << fo;
            fbsel |= 1u << v;
          }
        }
      }
      if (any) {
        req_in |= 1ull << i;
        req[i] = any;
        req_vcs[i] = (uint8_t)vcs;
      }
      if (!plain) sw->fbsel[i] = (uint8_t)fbsel; /* read only by this step's matches */
    }
  }
  uint64_t matched = 0;
  if (req_in)
    matched = asw_islip_allocate_req(&sw->sa, req_in, sw->req_vc, sw->match_out,
                                     sw->match_vc);
  sa_count(sw, stall, bstall, req_in, matched, sa_match_effects(sw, matched, bub_on, plain),
           plain);
  return matched;
}

/* Marks the header of the packet in slot h as adapted, from input VC v. */
static void mark_adapted(asw_slot *h, unsigned v) {
  h->hdr = (h->hdr & ~(0xFull << 44)) | 1ull << 44 | (uint64_t)(v & 7u) << 45;
}

/* §7, with Switch AR steering in mode 0 (§17.8). */
STEP_INLINE asw_route route7(asw_switch *sw, unsigned i, uint64_t hdr, uint32_t entry,
                             const int plain) {
  if (!plain && sw->sar.steer && sw->regs.route_mode == ASW_ROUTE_DET) {
    uint8_t lvl[64];
    uint64_t has = sw->sar.valid ? asw_sar_levels(&sw->sar, ASW_HDR_DEST(hdr), lvl) : 0;
    return asw_route_compute_sar(&sw->regs, hdr, entry, lvl, has);
  }
  return asw_route_compute(&sw->regs, &sw->cred, hdr, entry, &sw->port[i].lfsr);
}

/* §7 with the input port controller of §15.5 and mark_adapted (§15.1) for
 * the head in slot h of input i: a consumed ARN entry gives the alternative
 * port, otherwise §7 decides (and may queue an ARN message or mark). */
static asw_route route_arn(asw_switch *sw, unsigned i, const route_reg *rr, asw_slot *h,
                           int arn_on) {
  const asw_regs *rg = &sw->regs;
  asw_route r = {0};
  int lookup = 0;
  unsigned alt = 0;
  uint32_t msg = 0;
  if (arn_on && (rr->entry >> 31)) {
    if (!ASW_HDR_ADAPTED(h->hdr))
      lookup = asw_arn_lookup(&sw->arn, ASW_HDR_DEST(h->hdr), rr->vc, 0, &alt, &msg);
    else if (rg->adapted_arn) /* §15.5 step 2 for adapted packets: key orig_vc */
      lookup = asw_arn_lookup(&sw->arn, ASW_HDR_DEST(h->hdr), ASW_HDR_ORIG_VC(h->hdr), 1,
                              &alt, &msg);
  }
  if (lookup == 1) { /* consumed entry: alternative port (AFI: adapted) */
    if (rg->arn_mode == ASW_ARN_AFI) mark_adapted(h, rr->vc);
    r.oport = (uint8_t)alt;
    r.ovc = (uint8_t)asw_route_ovc(rg, h->hdr, rr->entry, alt);
    r.adaptive_choice = r.route_error = 0;
    asw_regs_arn_count(&sw->regs, i, ASW_ACNT_ADAPTED);
    return r;
  }
  r = route7(sw, i, h->hdr, rr->entry, 0);
  if (rg->mark_adapted && !r.route_error && r.oport != (rr->entry & 0x3Fu) /* det_port */ &&
      !ASW_HDR_ADAPTED(h->hdr)) {
    mark_adapted(h, rr->vc);
    r.ovc = (uint8_t)asw_route_ovc(rg, h->hdr, rr->entry, r.oport);
  }
  if (lookup == 2 && asw_arn_send(&sw->arn, i, msg) < 0)
    asw_regs_arn_count(&sw->regs, i, ASW_ACNT_OUT_DROPPED);
  return r;
}

/* RC (§7): route the packets whose heads were written last cycle into the
 * route-result registers (the route itself is kept in the head slot; RQ
 * appends next cycle). */
STEP_INLINE void stage_rc(asw_switch *sw, int arn_on, const int plain) {
  asw_out_credits *const oc = sw->cred.out;
  const int arn_or_mark = plain ? 0 : arn_on | sw->regs.mark_adapted;
  for (uint64_t m = sw->rr_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    const route_reg *rr = &sw->port[i].rr;
    asw_slot *h = &sw->in[i].slot[rr->slot];
    asw_route r;
    if (!plain && sw->regs.route_mode == ASW_ROUTE_VCADAPT && (rr->entry >> 31)) /* §16.3 */
      r = asw_route_compute_vca(&sw->regs, &sw->cred, rr->entry, rr->vc);
    else
      r = arn_or_mark ? route_arn(sw, i, rr, h, arn_on)
                      : route7(sw, i, h->hdr, rr->entry, plain);
    h->oport = r.oport;
    h->ovc = (uint8_t)(r.ovc | r.fvc << 3 | r.fb << 6);
    h->flags = (uint8_t)((h->flags & 3u) | r.fport << 2);
    route_res *ra = &sw->port[i].ra;
    ra->vc = rr->vc;
    ra->q = (uint8_t)(sw->cfg.voq ? r.oport : 0);
    ra->slot = rr->slot;
    if (r.route_error) oc[i].host[OCNT_ROUTE_ERRORS]++;
    if (r.adaptive_choice) oc[i].host[OCNT_ADAPTIVE]++;
  }
  sw->ra_mask = sw->rr_mask;
  sw->rr_mask = 0;
}

/* RQ (§5, §7.8): append the packets RC routed last cycle to their queues
 * (after SA's pops: contract §5 rule 2); with §15 on, the appended queues'
 * hot flags (§15.2). */
STEP_INLINE void stage_rq(asw_switch *sw, int arn_on, const int plain) {
  const asw_regs *rg = &sw->regs;
  for (uint64_t m = sw->ra_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    const route_res *ra = &sw->port[i].ra;
    asw_ibuf *b = &sw->in[i];
    asw_ibuf_append(b, ra->vc, ra->q, ra->slot);
    sw->app_cyc[i] = sw->cred.cyc;
    sw->app_slot[i] = ra->slot;
    sw->app_vc[i] = ra->vc;
    sw->app_q[i] = ra->q;
    if (!plain && sw->qcn.en) { /* §17.4: the congestion point sees the arrival */
      const asw_slot *h = &b->slot[ra->slot];
      asw_qcn_arrive(&sw->qcn, h->oport, ASW_HDR_LEN(h->hdr), h->hdr);
    }
    if (arn_on) {
      asw_cd_occ(&sw->cd, i, ra->vc, ra->q, asw_ibuf_occ(b, ra->vc, ra->q),
                 rg->hcdth, rg->lcdth);
      if ((sw->rel_mask >> i & 1u) && sw->port[i].rel_vc == ra->vc &&
          sw->port[i].rel_out == ra->q)
        sw->rel_mask &= ~(1ull << i); /* same queue: evaluated once */
    }
  }
  sw->nonempty_in |= sw->ra_mask;
  sw->ra_mask = 0;
}

/* §15 after RC: hot flags of queues ST released from (not appended to),
 * one processARN (credits still as at the cycle start), then the pushes of
 * this cycle: the root event and the messages received from downstream. */
static void arn_cycle(asw_switch *sw, const asw_inputs *in,
                      const asw_arn_event *root_ev) {
  const asw_regs *rg = &sw->regs;
  for (uint64_t m = sw->rel_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    unsigned v = sw->port[i].rel_vc, o = sw->port[i].rel_out;
    asw_cd_occ(&sw->cd, i, v, o, asw_ibuf_occ(&sw->in[i], v, o), rg->hcdth,
               rg->lcdth);
  }
  sw->rel_mask = 0;
  int popped = asw_arn_process(&sw->arn, &sw->regs, &sw->cred, sw->now);
  if (root_ev) asw_arn_fifo_push(&sw->arn.evq[0], root_ev);
  for (uint64_t m = in->arn_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    uint32_t msg = in->arn[p];
    asw_regs_arn_count(&sw->regs, p, ASW_ACNT_RECEIVED);
    asw_arn_fifo *f = &sw->arn.evq[1 + p];
    unsigned start_count = f->count + (popped == (int)(1 + p));
    asw_arn_event e = {(uint16_t)ASW_ARN_DEST(msg), (uint16_t)ASW_ARN_ID(msg),
                       (uint8_t)p, (uint8_t)ASW_ARN_VC(msg),
                       (uint8_t)ASW_ARN_STAGE(msg), 0};
    if (start_count >= ASW_AQ) {
      asw_regs_arn_count(&sw->regs, p, ASW_ACNT_IN_DROPPED);
    } else {
      asw_arn_fifo_push(f, &e);
      sw->arn.evq_nonempty |= 1ull << p;
    }
  }
}

/* IW (§6). */
static void stage_iw(asw_switch *sw, const asw_inputs *in) {
  /* locals: the slot's byte stores may alias *sw and *in for the compiler */
  port_state *const port = sw->port;
  const asw_flit *const flit = in->flit;
  asw_ibuf *const bufs = sw->in;
  const uint64_t payload_mask = sw->payload_mask;
  unsigned written = 0;
  for (uint64_t m = in->flit_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    const asw_flit *f = &flit[p];
    unsigned s = asw_ibuf_write(&bufs[p], f->vc, f->head != 0, f->tail != 0,
                                f->hdr, f->payload & payload_mask);
    written++;
    port[p].cnt[PCNT_FLITS_IN]++;
    if (f->head) {
      unsigned dest = ASW_HDR_DEST(f->hdr);
      route_reg *rr = &port[p].rr;
      rr->vc = f->vc;
      rr->slot = (uint16_t)s;
      rr->entry = dest < sw->cfg.table_entries ? sw->regs.fwd[dest] : 0;
      sw->rr_mask |= 1ull << p;
      sw->cred.out[p].host[OCNT_PACKETS_IN]++;
    }
  }
  sw->held += written;
}

/* §18.3: every input whose link is down writes one padding flit of a cut
 * packet (lowest VC with flits due) through IW. Returns the down inputs with
 * flits still due after it. */
static uint64_t link_pad(asw_switch *sw) {
  uint64_t left = 0;
  for (uint64_t m = sw->port_mask & ~sw->link.rx_up; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m), vm = 0;
    asw_ibuf *b = &sw->in[i];
    for (unsigned v = 0; v < sw->V; v++) vm |= (unsigned)(b->vc_due[v] != 0) << v;
    if (!vm) continue;
    unsigned v = (unsigned)__builtin_ctz(vm), due = b->vc_due[v];
    asw_ibuf_write(b, v, 0, due == 1, 0, sw->payload_mask);
    sw->held++;
    sw->link.cnt[ASW_LCNT_FLITS_PADDED]++;
    if (due > 1 || (vm & (vm - 1))) left |= 1ull << i;
  }
  return left;
}

/* One cycle (asw_switch_step). plain = 1: no optional hardware is active
 * (see asw_switch_step), the body without its hooks. */
STEP_INLINE int step_body(asw_switch *sw, const asw_inputs *in, asw_outputs *out,
                          const int plain) {
  if (!inputs_ok(sw, in, plain) && check_inputs(sw, in) != ASW_OK) return ASW_EPROTO;
  asw_credits_begin_cycle(&sw->cred);
  /* Outputs of this cycle: the registers as they are at its start. */
  if (out) {
    /* arrays and masks in locals: the copies' stores may alias them */
    const port_state *const port = sw->port;
    asw_flit *const out_flit = out->flit;
    uint8_t *const out_credit_vc = out->credit_vc;
    const uint64_t out_mask = sw->out_mask, cr_mask = sw->cr_mask;
    out->flit_mask = out_mask;
    if (out_flit)
      for (uint64_t m = out_mask; m; m &= m - 1) {
        unsigned o = (unsigned)__builtin_ctzll(m);
        out_flit[o] = port[o].out;
      }
    out->credit_mask = cr_mask;
    if (out_credit_vc)
      for (uint64_t m = cr_mask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        out_credit_vc[i] = port[i].cr_vc;
      }
    out->arn_mask = !plain && sw->arn_on ? sw->arn.out_mask : 0;
    if (!plain && out->arn && out->arn_mask)
      for (uint64_t m = sw->arn.out_mask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        out->arn[i] = sw->arn.out_msg[i];
      }
    out->cnm_mask = plain ? 0 : sw->sar.out_mask; /* §17.8 lane */
    if (!plain && out->cnm && out->cnm_mask)
      for (uint64_t m = sw->sar.out_mask; m; m &= m - 1) {
        unsigned p = (unsigned)__builtin_ctzll(m);
        out->cnm[p] = sw->sar.out[p];
      }
    out->reg_rvalid = sw->rvalid;
    out->reg_rdata = sw->rdata;
  }
  /* A read returns the value at the start of the cycle. */
  uint32_t rdata = 0;
  int reading = !plain && in->reg_en && !in->reg_we;
  if (reading) asw_reg_read(sw, in->reg_addr, &rdata);

  /* §15: the detector reads queues and credits as at the cycle start. */
  const int arn_on = plain ? 0 : sw->arn_on;
  uint64_t arn_out_start = 0;
  asw_arn_event root_ev;
  int root_declared = 0;
  if (arn_on) {
    arn_out_start = sw->arn.outq_nonempty;
    if (sw->cd.hot_out | sw->cd.root | sw->cd.crt_nz)
      root_declared = asw_cd_cycle(&sw->cd, sw->in, &sw->cred, &sw->regs,
                                   sw->arn.evq[0].count < ASW_AQ, &root_ev);
  }

  if (sw->cfg.sa_pipe) { /* §8.1: open outputs at the start of this cycle */
    uint64_t open = sw->port_mask & ~sw->busy_out;
    for (uint64_t m = sw->busy_in; m; m &= m - 1) {
      const stream_state *st = &sw->port[__builtin_ctzll(m)].st;
      if (st->rem <= 2) open |= 1ull << st->out;
    }
    sw->open_mask = open;
  }
  if (sw->busy_in) stage_st(sw, arn_on, plain);
  else sw->out_mask = sw->cr_mask = sw->st_disc = 0;
  const uint64_t st_rel = sw->cr_mask; /* inputs that released a flit (hd - 1) */
  /* outputs a flit left on, sent or discarded on a down link (§17.4, §18.2) */
  const uint64_t st_sent = sw->out_mask | sw->st_disc;
  const uint64_t pfc_en = plain ? 0 : sw->pfc.en;
  if (pfc_en) { /* §17.1: PFC inputs send frames instead of credits */
    uint64_t fr = sw->pfc.pending ? asw_pfc_frames(&sw->pfc) : 0;
    for (uint64_t m = fr; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      sw->port[i].cr_vc = sw->pfc.frame_vc[i];
    }
    sw->cr_mask = (sw->cr_mask & ~pfc_en) | fr;
  }
  uint64_t matched = stage_sa(sw, plain);
  if (sw->ra_mask) stage_rq(sw, arn_on, plain);
  if (sw->rr_mask) stage_rc(sw, arn_on, plain);
  if (arn_on) arn_cycle(sw, in, root_declared ? &root_ev : NULL);
  if (!plain && sw->sar.en) /* §17.8, after RC read the table; loc takes this cycle's CNM outputs */
    asw_sar_cycle(&sw->sar, &sw->regs, in->cnm_mask, in->cnm, sw->qcn.cnm_mask,
                  sw->qcn.cnm_msg);
  /* Credits reserved by this cycle's matches are taken only now: adaptive
   * RC and the 2TH flags must see the credits at the start of the cycle. */
  for (uint64_t m = matched; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    const stream_state *st = &sw->port[i].st;
    asw_credits_reserve(&sw->cred, st->out, st->ovc, st->len);
  }
  if (in->flit_mask) stage_iw(sw, in);
  uint64_t pad_left = !plain && sw->link.on ? link_pad(sw) : 0; /* §18.3 */
  if (!plain && sw->self_cr) { /* §18.2: credits of discarded flits, before the returns */
    for (uint64_t m = sw->self_cr & ~sw->pfc.en; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      asw_credits_return(&sw->cred, o, sw->self_vc[o]);
    }
    sw->self_cr = 0;
  }
  uint64_t cr_in = in->credit_mask;
  if (pfc_en) { /* §17.1: hysteresis on the final hd; frames received */
    uint64_t ev = (sw->pfc.eval_all ? ~0ull : (in->flit_mask | st_rel)) & pfc_en;
    sw->pfc.eval_all = 0;
    for (; ev; ev &= ev - 1) {
      unsigned i = (unsigned)__builtin_ctzll(ev);
      asw_pfc_eval(&sw->pfc, i, sw->in[i].vc_held);
    }
    for (uint64_t m = cr_in & pfc_en; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      asw_credits_pfc_frame(&sw->cred, o, in->credit_vc[o]);
      sw->pfc.cnt[o * ASW_PCNT_NUM + ASW_PCNT_RECEIVED]++;
    }
    cr_in &= ~pfc_en;
  }
  const int reg_write = !plain && in->reg_en && in->reg_we;
  if (!reg_write) { /* returns are the cycle's last credit changes */
    const unsigned ltth = sw->regs.ltth, htth = sw->regs.htth;
    for (uint64_t m = cr_in; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      asw_credits_return_last(&sw->cred, o, in->credit_vc[o], ltth, htth);
    }
  } else { /* the write below may change the thresholds: flags after it */
    for (uint64_t m = cr_in; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      asw_credits_return(&sw->cred, o, in->credit_vc[o]);
    }
  }
  if (!plain && (sw->qcn.en || sw->qcn.cnm_mask))
    asw_qcn_end_cycle(&sw->qcn, st_sent); /* §17.4 */
  if (!plain && (sw->gap.on | sw->gap.wait))
    asw_port_gap_cycle(&sw->gap, st_sent); /* §17.7 */
  if (arn_on) { /* ARN time only runs while entries can exist */
    asw_arn_end_cycle(&sw->arn, &sw->regs, arn_out_start, sw->now);
    sw->now++;
  }
  sw->sar.tc++; /* §17.8: a write below takes effect in the next cycle */
  unsigned fx = 0;
  if (!plain && reg_write && !vca_qcn_excluded(sw, in->reg_addr, in->reg_wdata, NULL, 0) &&
      sec17_write(sw, in->reg_addr, in->reg_wdata, NULL, 0) == 1) {
    asw_regs_write(&sw->regs, in->reg_addr, in->reg_wdata, &fx, NULL, 0);
    apply_write_effects(sw, fx);
  }
  if (sw->cred.dirty || (fx & ASW_REGS_FX_THRESH))
    asw_credits_update_cong(&sw->cred, sw->regs.ltth, sw->regs.htth,
                            (fx & ASW_REGS_FX_THRESH) != 0);
  if (!plain &&
      (sw->link.on || sw->link.up != sw->link.up_q || sw->link.rx_up != sw->link.rx_up_q))
    asw_link_end_cycle(&sw->link, pad_left);
  sw->rvalid = (uint8_t)reading;
  sw->rdata = rdata;
  return ASW_OK;
}

/* The step is compiled twice. The common run (asw net with only the §4-§8
 * switch: no ARN, PFC, QCN, Switch AR, VC-adaptive mode 3, mark_adapted,
 * bubble, port gaps or link faults) takes the `plain` body, from which the
 * compiler has removed those blocks' per-cycle tests (6 % of the 512-node
 * bench's instructions); anything else takes the general body. The
 * configuration part of the test is made once, when the configuration is
 * locked (asw_switch_lock_config); what can change from cycle to cycle is
 * tested here. Both bodies give identical results. */
int asw_switch_step(asw_switch *sw, const asw_inputs *in, asw_outputs *out) {
  static const asw_inputs no_inputs;
  if (!in) in = &no_inputs;
  if (sw->plain_cfg &&
      !(in->arn_mask | in->cnm_mask | in->reg_en | sw->qcn.cnm_mask | sw->sar.out_mask |
        sw->gap.wait | sw->self_cr | (uint64_t)sw->link.on | (sw->link.up ^ sw->link.up_q) |
        (sw->link.rx_up ^ sw->link.rx_up_q)))
    return step_body(sw, in, out, 1);
  return step_body(sw, in, out, 0);
}
