/* pfc.c — see pfc.h. */
#include "pfc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asw_regmap.h"

static uint64_t ports_mask(unsigned ports) {
  return ports == 64 ? ~0ull : (1ull << ports) - 1;
}

int asw_pfc_init(asw_pfc *f, unsigned ports, unsigned vcs, unsigned buf) {
  memset(f, 0, sizeof *f);
  f->ports = ports;
  f->vcs = vcs;
  f->buf = buf;
  f->want = calloc(ports, 1);
  f->sent = calloc(ports, 1);
  f->ptr = calloc(ports, 1);
  f->frame_vc = calloc(ports, 1);
  f->cnt = calloc((size_t)ports * ASW_PCNT_NUM, sizeof *f->cnt);
  if (!f->want || !f->sent || !f->ptr || !f->frame_vc || !f->cnt) {
    asw_pfc_destroy(f);
    return -1;
  }
  asw_pfc_reset(f);
  return 0;
}

void asw_pfc_destroy(asw_pfc *f) {
  free(f->want);
  free(f->sent);
  free(f->ptr);
  free(f->frame_vc);
  free(f->cnt);
  f->want = f->sent = f->ptr = f->frame_vc = NULL;
  f->cnt = NULL;
}

void asw_pfc_reset(asw_pfc *f) {
  f->en = 0;
  f->xoff = f->buf / 2 ? f->buf / 2 : 1;
  f->xon = f->xoff / 2;
  memset(f->want, 0, f->ports);
  memset(f->sent, 0, f->ports);
  memset(f->ptr, 0, f->ports);
  asw_pfc_clear_counters(f);
  f->pending = f->wanting = 0;
  f->eval_all = 0;
}

void asw_pfc_clear_counters(asw_pfc *f) {
  memset(f->cnt, 0, (size_t)f->ports * ASW_PCNT_NUM * sizeof *f->cnt);
}

uint64_t asw_pfc_frames(asw_pfc *f) {
  uint64_t sent_mask = 0;
  for (uint64_t m = f->pending & f->en; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    unsigned diff = (unsigned)(f->want[i] ^ f->sent[i]), v = f->ptr[i];
    while (!(diff >> v & 1u)) v = v + 1 == f->vcs ? 0 : v + 1;
    f->sent[i] ^= (uint8_t)(1u << v);
    f->ptr[i] = (uint8_t)(v + 1 == f->vcs ? 0 : v + 1);
    f->cnt[i * ASW_PCNT_NUM + ASW_PCNT_SENT]++;
    f->frame_vc[i] = (uint8_t)v;
    sent_mask |= 1ull << i;
    if (f->want[i] == f->sent[i]) f->pending &= ~(1ull << i);
  }
  return sent_mask;
}

void asw_pfc_eval(asw_pfc *f, unsigned i, const uint16_t *hd) {
  unsigned want = f->want[i];
  for (unsigned v = 0; v < f->vcs; v++) {
    unsigned h = hd[v], w = want >> v & 1u;
    w = h >= f->xoff || (w && h > f->xon);
    want = (want & ~(1u << v)) | w << v;
  }
  f->want[i] = (uint8_t)want;
  const uint64_t bit = 1ull << i;
  f->pending = (f->pending & ~bit) | (uint64_t)(want != f->sent[i]) << i;
  f->wanting = (f->wanting & ~bit) | (uint64_t)(want != 0) << i;
}

int asw_pfc_owns(uint32_t a, unsigned ports) {
  return a == ASW_REG_PFC_EN(0) || a == ASW_REG_PFC_EN(1) || a == ASW_REG_PFC_THRESH ||
         (a >= ASW_REG_PFC_COUNTER(0, 0) && a < ASW_REG_PFC_COUNTER(ports, 0)) ||
         (a >= ASW_REG_PFC_STATE(0) && a < ASW_REG_PFC_STATE(ports));
}

#define PFC_REJECT(...)                                  \
  do {                                                   \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    return ASW_EINVAL;                                   \
  } while (0)

int asw_pfc_reg_write(asw_pfc *f, uint32_t a, uint32_t d, uint64_t *changed,
                      char *err, size_t errlen) {
  *changed = 0;
  if (err && errlen) err[0] = 0;
  if (a == ASW_REG_PFC_EN(0) || a == ASW_REG_PFC_EN(1)) {
    unsigned w = a - ASW_REG_PFC_EN(0);
    uint64_t m = (uint64_t)d << (32 * w);
    if (m & ~ports_mask(f->ports))
      PFC_REJECT("PFC_EN word %u: value 0x%x has bits for ports >= P = %u", w, d, f->ports);
    uint64_t en = (f->en & ~(0xFFFFFFFFull << (32 * w))) | m;
    *changed = en ^ f->en;
    for (uint64_t c = *changed; c; c &= c - 1) {
      unsigned p = (unsigned)__builtin_ctzll(c);
      f->want[p] = f->sent[p] = f->ptr[p] = 0;
    }
    f->pending &= ~*changed;
    f->wanting &= ~*changed;
    f->en = en;
    if (*changed) f->eval_all = 1;
    return ASW_OK;
  }
  if (a == ASW_REG_PFC_THRESH) {
    unsigned xoff = d & 0xFFFFu, xon = d >> 16;
    if (xon >= xoff) PFC_REJECT("PFC_THRESH: XON %u >= XOFF %u", xon, xoff);
    if (xoff > f->buf) PFC_REJECT("PFC_THRESH: XOFF %u > BUF %u", xoff, f->buf);
    f->xoff = xoff;
    f->xon = xon;
    f->eval_all = 1;
    return ASW_OK;
  }
  PFC_REJECT("register 0x%05x is read-only", a);
}

uint32_t asw_pfc_reg_read(const asw_pfc *f, uint32_t a, unsigned paused) {
  if (a == ASW_REG_PFC_EN(0)) return (uint32_t)f->en;
  if (a == ASW_REG_PFC_EN(1)) return (uint32_t)(f->en >> 32);
  if (a == ASW_REG_PFC_THRESH) return f->xoff | f->xon << 16;
  if (a >= ASW_REG_PFC_COUNTER(0, 0) && a < ASW_REG_PFC_COUNTER(f->ports, 0)) {
    unsigned p = (a - ASW_REG_PFC_COUNTER(0, 0)) / 4, k = a & 3u;
    return k < ASW_PCNT_NUM ? f->cnt[p * ASW_PCNT_NUM + k] : 0;
  }
  if (a >= ASW_REG_PFC_STATE(0) && a < ASW_REG_PFC_STATE(f->ports)) {
    unsigned p = a - ASW_REG_PFC_STATE(0);
    return (paused & 0xFFu) | (uint32_t)f->want[p] << 8 | (uint32_t)f->sent[p] << 16;
  }
  return 0;
}
