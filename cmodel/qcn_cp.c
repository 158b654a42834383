/* qcn_cp.c — QCN congestion point (contract §17.4). */
#include "qcn_cp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfsr.h"

enum { QEQ_RESET = 320, SAMPLE_RESET = 2400, SEED_RESET = 1, WL_RESET = 1,
       FBSH_RESET = 5, SAMPLE_MIN = 64 };

int asw_qcn_init(asw_qcn_cp *c, unsigned ports) {
  memset(c, 0, sizeof *c);
  c->ports = ports;
  c->qlen = calloc(ports, sizeof *c->qlen);
  c->qold = calloc(ports, sizeof *c->qold);
  c->cnt = calloc(ports, sizeof *c->cnt);
  c->qadd = calloc(ports, sizeof *c->qadd);
  c->lfsr = calloc(ports, sizeof *c->lfsr);
  c->cnm_next_msg = calloc(ports, sizeof *c->cnm_next_msg);
  c->cnm_msg = calloc(ports, sizeof *c->cnm_msg);
  c->cnt_sent = calloc(ports, sizeof *c->cnt_sent);
  c->cnt_samples = calloc(ports, sizeof *c->cnt_samples);
  if (!c->qlen || !c->qold || !c->cnt || !c->qadd || !c->lfsr || !c->cnm_next_msg ||
      !c->cnm_msg || !c->cnt_sent || !c->cnt_samples) {
    asw_qcn_destroy(c);
    return -1;
  }
  asw_qcn_reset(c);
  return 0;
}

void asw_qcn_destroy(asw_qcn_cp *c) {
  free(c->qlen);
  free(c->qold);
  free(c->cnt);
  free(c->qadd);
  free(c->lfsr);
  free(c->cnm_next_msg);
  free(c->cnm_msg);
  free(c->cnt_sent);
  free(c->cnt_samples);
  memset(c, 0, sizeof *c);
}

static void reseed(asw_qcn_cp *c) {
  for (unsigned o = 0; o < c->ports; o++) c->lfsr[o] = asw_lfsr_init((uint16_t)c->seed, o);
}

/* Queue state of every output back to empty: reset and enabling. */
static void clear_queues(asw_qcn_cp *c) {
  for (unsigned o = 0; o < c->ports; o++) {
    c->qlen[o] = c->qold[o] = c->qadd[o] = 0;
    c->cnt[o] = c->sample;
  }
  c->sampled = c->added = 0;
  c->cnm_next = c->cnm_mask = 0;
}

void asw_qcn_reset(asw_qcn_cp *c) {
  c->en = 0;
  c->wl = WL_RESET;
  c->fbsh = FBSH_RESET;
  c->cpid = 0;
  c->qeq = QEQ_RESET;
  c->sample = SAMPLE_RESET;
  c->seed = SEED_RESET;
  reseed(c);
  clear_queues(c);
  asw_qcn_clear_counters(c);
}

void asw_qcn_clear_counters(asw_qcn_cp *c) {
  memset(c->cnt_sent, 0, c->ports * sizeof *c->cnt_sent);
  memset(c->cnt_samples, 0, c->ports * sizeof *c->cnt_samples);
}

int64_t asw_qcn_fb(unsigned qlen, unsigned qold, unsigned qeq, unsigned wl) {
  int64_t qoff = (int64_t)qlen - qeq, qdelta = (int64_t)qlen - qold;
  return -(qoff + qdelta * ((int64_t)1 << wl));
}

unsigned asw_qcn_quant(int64_t fb, unsigned fbsh) {
  if (fb >= 0) return 0;
  uint64_t m = (uint64_t)(-fb) >> fbsh;
  return m > 63 ? 63u : (unsigned)m;
}

unsigned asw_qcn_interval(unsigned sample, unsigned q, uint16_t r) {
  uint32_t i = sample - (uint32_t)(((uint64_t)sample * q * 58u) >> 12);
  return i - (i >> 3) + ((i * (r & 31u)) >> 7);
}

void asw_qcn_arrive(asw_qcn_cp *c, unsigned o, unsigned len, uint64_t hdr) {
  c->qadd[o] += len;
  c->added |= 1ull << o;
  if (c->sampled >> o & 1u) return; /* one sample per output and cycle */
  if (c->cnt[o] > len) {
    c->cnt[o] -= len;
    return;
  }
  /* sample: qlen as at the start of the cycle */
  c->sampled |= 1ull << o;
  c->cnt_samples[o]++;
  const unsigned qlen = c->qlen[o];
  const unsigned q = asw_qcn_quant(asw_qcn_fb(qlen, c->qold[o], c->qeq, c->wl), c->fbsh);
  c->qold[o] = qlen;
  c->lfsr[o] = asw_lfsr_next(c->lfsr[o]);
  c->cnt[o] = asw_qcn_interval(c->sample, q, c->lfsr[o]);
  if (q) {
    c->cnm_next |= 1ull << o;
    c->cnm_next_msg[o] = asw_cnm_make(ASW_HDR_SRC(hdr), ASW_HDR_DEST(hdr), q, o, c->cpid);
    c->cnt_sent[o]++;
  }
}

void asw_qcn_end_cycle(asw_qcn_cp *c, uint64_t sent) {
  for (uint64_t m = sent; m; m &= m - 1) { /* from 0 only if enabled while busy */
    unsigned o = (unsigned)__builtin_ctzll(m);
    if (c->qlen[o]) c->qlen[o]--;
  }
  for (uint64_t m = c->added; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    c->qlen[o] += c->qadd[o];
    c->qadd[o] = 0;
  }
  c->added = c->sampled = 0;
  c->cnm_mask = c->cnm_next;
  for (uint64_t m = c->cnm_next; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    c->cnm_msg[o] = c->cnm_next_msg[o];
  }
  c->cnm_next = 0;
}

int asw_qcn_owns(uint32_t a, unsigned ports) {
  return (a >= ASW_REG_QCN_CTRL && a <= ASW_REG_QCN_SEED) ||
         (a >= ASW_REG_QCN_COUNTER(0, 0) && a < ASW_REG_QCN_COUNTER(ports, 0)) ||
         (a >= ASW_REG_QCN_QLEN(0) && a < ASW_REG_QCN_QLEN(ports));
}

#define WERR(...)                                          \
  do {                                                     \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    return ASW_EINVAL;                                     \
  } while (0)

int asw_qcn_reg_write(asw_qcn_cp *c, uint32_t a, uint32_t d, char *err, size_t errlen) {
  switch (a) {
  case ASW_REG_QCN_CTRL:
    if (d & 0xFF08u) WERR("QCN_CTRL 0x%08x: bits 3 and 15:8 must be 0", (unsigned)d);
    if ((d & 1u) && !c->en) clear_queues(c); /* enabled: queues start empty */
    c->en = d & 1u;
    c->wl = d >> 1 & 3u;
    c->fbsh = d >> 4 & 0xFu;
    c->cpid = d >> 16;
    if (!c->en) c->cnm_next = c->cnm_mask = 0;
    return ASW_OK;
  case ASW_REG_QCN_QEQ:
    if (d >> 16) WERR("QCN_QEQ 0x%08x: bits 31:16 must be 0", (unsigned)d);
    c->qeq = d;
    return ASW_OK;
  case ASW_REG_QCN_SAMPLE:
    if (d < SAMPLE_MIN || d > 0xFFFFu)
      WERR("QCN_SAMPLE %u out of range %u..65535 flits", (unsigned)d, (unsigned)SAMPLE_MIN);
    c->sample = d;
    return ASW_OK;
  case ASW_REG_QCN_SEED:
    if (d >> 16) WERR("QCN_SEED 0x%08x: bits 31:16 must be 0", (unsigned)d);
    c->seed = d;
    reseed(c);
    return ASW_OK;
  default:
    WERR("QCN register 0x%05x is read-only", (unsigned)a);
  }
}

uint32_t asw_qcn_reg_read(const asw_qcn_cp *c, uint32_t a) {
  switch (a) {
  case ASW_REG_QCN_CTRL: return asw_qcn_ctrl(c->en, c->wl, c->fbsh, c->cpid);
  case ASW_REG_QCN_QEQ: return c->qeq;
  case ASW_REG_QCN_SAMPLE: return c->sample;
  case ASW_REG_QCN_SEED: return c->seed;
  default: break;
  }
  if (a >= ASW_REG_QCN_QLEN(0)) return c->qlen[a - ASW_REG_QCN_QLEN(0)];
  unsigned o = (a - ASW_REG_QCN_COUNTER(0, 0)) >> 1;
  return (a & 1u) ? c->cnt_samples[o] : c->cnt_sent[o];
}
