/* regs.c — see regs.h. */
#include "regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REJECT(...)                                        \
  do {                                                     \
    if (err) snprintf(err, errlen, __VA_ARGS__);           \
    r->reg_errors++;                                       \
    return ASW_EINVAL;                                     \
  } while (0)

static uint64_t port_mask(unsigned ports) {
  return ports == 64 ? ~0ull : (1ull << ports) - 1;
}

int asw_regs_init(asw_regs *r, const asw_config *cfg) {
  memset(r, 0, sizeof *r);
  r->cfg = *cfg;
  r->sl2vc = calloc((size_t)cfg->ports * 16, 1);
  r->fwd = calloc(cfg->table_entries, sizeof *r->fwd);
  r->cnt_own = calloc((size_t)cfg->ports * 8, sizeof *r->cnt_own);
  r->cnt_stride = 8;
  for (unsigned k = 0; k < 8; k++) r->cnt_at[k] = r->cnt_own ? r->cnt_own + k : NULL;
  if (!r->sl2vc || !r->fwd || !r->cnt_own) {
    asw_regs_destroy(r);
    return -1;
  }
  asw_regs_reset(r);
  return 0;
}

int asw_regs_init_arn(asw_regs *r) {
  r->arn_counters = calloc((size_t)r->cfg.ports * 16, sizeof *r->arn_counters);
  return r->arn_counters ? 0 : -1;
}

void asw_regs_destroy(asw_regs *r) {
  free(r->sl2vc);
  free(r->fwd);
  free(r->cnt_own);
  free(r->arn_counters);
  r->arn_counters = NULL;
  r->sl2vc = NULL;
  r->fwd = NULL;
  r->cnt_own = NULL;
  memset(r->cnt_at, 0, sizeof r->cnt_at);
}

static void clear_counters(asw_regs *r) {
  for (unsigned k = 0; k < 8; k++)
    for (unsigned p = 0; p < r->cfg.ports; p++) r->cnt_at[k][(size_t)p * r->cnt_stride] = 0;
}

void asw_regs_place_counters(asw_regs *r, uint32_t *const at[8], unsigned stride) {
  for (unsigned k = 0; k < 8; k++)
    for (unsigned p = 0; p < r->cfg.ports; p++)
      at[k][(size_t)p * stride] = r->cnt_at[k][(size_t)p * r->cnt_stride];
  free(r->cnt_own);
  r->cnt_own = NULL;
  memcpy(r->cnt_at, at, sizeof r->cnt_at);
  r->cnt_stride = stride;
}

void asw_regs_reset(asw_regs *r) {
  const asw_config *c = &r->cfg;
  r->route_mode = 0;
  r->trigger = 0;
  r->stage_mask = 0xFF;
  r->stage = 1;
  r->vc_mode = 0;
  r->afi = 0;
  r->fb = r->fb_same = r->esc_vc = 0;
  r->ltth = c->buf_flits / 4;
  r->htth = c->buf_flits / 2;
  r->lfsr_seed = 1;
  r->default_port = 0;
  r->reg_errors = 0;
  memset(r->cset, 0, sizeof r->cset);
  asw_bubble_init(&r->bubble, c->ports, c->vcs); /* §16: off */
  for (unsigned o = 0; o < c->ports; o++)
    for (unsigned s = 0; s < 16; s++) r->sl2vc[o * 16 + s] = (uint8_t)(s % c->vcs);
  memset(r->fwd, 0, c->table_entries * sizeof *r->fwd);
  clear_counters(r);
  if (r->arn_counters)
    memset(r->arn_counters, 0, (size_t)c->ports * 16 * sizeof *r->arn_counters);
  r->arn_mode = r->mark_adapted = 0;
  r->adapted_arn = r->alt_refresh = 0;
  r->arn_up = 0;
  r->hcdth = c->buf_flits * 81u / 100u;
  r->lcdth = c->buf_flits * 63u / 100u;
  if (r->hcdth < 1) r->hcdth = 1;
  if (r->lcdth < 1) r->lcdth = 1;
  r->fcth = c->buf_flits * 78u / 100u;
  r->crt = 1024;
  r->arn_ttl = 4096;
}

/* §15.8 registers; returns 1 if addr is not one of them (or AE = 0). */
static int arn_write(asw_regs *r, uint32_t a, uint32_t d, unsigned *fx,
                     char *err, size_t errlen) {
  const asw_config *c = &r->cfg;
  if (!c->arn_entries) return 1;
  switch (a) {
  case ASW_REG_ARN_CTRL: {
    unsigned mode = d & 3u, mark = d >> 2 & 1u;
    if (d >> 5) REJECT("ARN_CTRL: bits above 4 must be 0 (value 0x%x)", d);
    if (mode == 3) REJECT("ARN_CTRL: mode 3 is illegal (0 off, 1 ARN, 2 ARN+AFI)");
    if (mode && !c->voq) REJECT("ARN_CTRL: mode %u needs VOQ = 1", mode);
    if (mode == 2 && c->vcs == 1) REJECT("ARN_CTRL: mode 2 (ARN+AFI) needs V >= 2");
    if (mark && c->vcs == 1) REJECT("ARN_CTRL: mark_adapted needs V >= 2");
    if (!mode && fx) *fx |= ASW_REGS_FX_ARN_OFF;
    r->arn_mode = mode;
    r->mark_adapted = mark;
    r->adapted_arn = d >> 3 & 1u;
    r->alt_refresh = d >> 4 & 1u;
    return ASW_OK;
  }
  case ASW_REG_ARN_UP(0):
  case ASW_REG_ARN_UP(1): {
    unsigned w = a - ASW_REG_ARN_UP(0);
    uint64_t m = (uint64_t)d << (32 * w);
    if (m & ~port_mask(c->ports))
      REJECT("ARN_UP word %u: value 0x%x has bits for ports >= P = %u", w, d,
             c->ports);
    r->arn_up = (r->arn_up & ~(0xFFFFFFFFull << (32 * w))) | m;
    return ASW_OK;
  }
  case ASW_REG_CD_THRESH: {
    unsigned h = d & 0xFFFFu, l = d >> 16;
    if (l < 1 || l > h || h > c->buf_flits)
      REJECT("CD_THRESH: need 1 <= LCDTH <= HCDTH <= BUF (LCDTH %u, HCDTH %u, BUF %u)",
             l, h, c->buf_flits);
    r->hcdth = h;
    r->lcdth = l;
    return ASW_OK;
  }
  case ASW_REG_FCTH:
    if (d > c->buf_flits) REJECT("FCTH: %u > BUF %u", d, c->buf_flits);
    r->fcth = d;
    return ASW_OK;
  case ASW_REG_CRT:
  case ASW_REG_ARN_TTL:
    if (d < 1 || d >> 24)
      REJECT("%s: %u out of range 1..2^24-1", a == ASW_REG_CRT ? "CRT" : "ARN_TTL", d);
    if (a == ASW_REG_CRT) r->crt = d;
    else r->arn_ttl = d;
    return ASW_OK;
  default:
    return 1;
  }
}


int asw_regs_write(asw_regs *r, uint32_t a, uint32_t d, unsigned *fx,
                   char *err, size_t errlen) {
  const asw_config *c = &r->cfg;
  if (err && errlen) err[0] = 0;
  switch (a) {
  case ASW_REG_ROUTE_CTRL: {
    unsigned mode = d & 3u, trig = d >> 2 & 3u, stage = d >> 12 & 0xFu;
    if (mode == 3 && c->voq)
      REJECT("ROUTE_CTRL: mode 3 (VC-adaptive, §16.3) needs VOQ = 0");
    if (mode == 3 && !c->vc_adaptive)
      REJECT("ROUTE_CTRL: mode 3 (VC-adaptive, §16.3) is not built (vc_adaptive off)");
    if (mode == 1 && !c->oblivious)
      REJECT("ROUTE_CTRL: mode 1 (oblivious, §7.3) is not built (oblivious off)");
    if (mode == 2 && !c->adaptive)
      REJECT("ROUTE_CTRL: mode 2 (adaptive, §7.3) is not built (adaptive off)");
    if (trig == 3) REJECT("ROUTE_CTRL: trigger 3 is illegal (0 NoTH, 1 TH, 2 2TH)");
    if (stage == 0) REJECT("ROUTE_CTRL: STAGE 0 is illegal (1..15)");
    r->route_mode = mode;
    r->trigger = trig;
    r->stage_mask = d >> 4 & 0xFFu;
    r->stage = stage;
    return ASW_OK;
  }
  case ASW_REG_VC_CTRL:
    if (d >> 7) REJECT("VC_CTRL: bits above 6 must be 0 (value 0x%x)", d);
    if ((d & 2u) && c->vcs == 1) REJECT("VC_CTRL: afi needs V >= 2 (V = 1)");
    if ((d >> 4 & 7u) >= c->vcs)
      REJECT("VC_CTRL: esc_vc %u >= V = %u", d >> 4 & 7u, c->vcs);
    r->vc_mode = d & 1u;
    r->afi = d >> 1 & 1u;
    r->fb = d >> 2 & 1u;
    r->fb_same = d >> 3 & 1u;
    r->esc_vc = d >> 4 & 7u;
    return ASW_OK;
  case ASW_REG_THRESH: {
    unsigned lt = d & 0xFFFFu, ht = d >> 16;
    if (!c->adaptive) REJECT("THRESH is not mapped (adaptive off, §7.3)");
    if (lt > ht) REJECT("THRESH: LTTH %u > HTTH %u", lt, ht);
    if (ht > c->buf_flits) REJECT("THRESH: HTTH %u > BUF %u", ht, c->buf_flits);
    r->ltth = lt;
    r->htth = ht;
    if (fx) *fx |= ASW_REGS_FX_THRESH;
    return ASW_OK;
  }
  case ASW_REG_LFSR_SEED:
    if (!c->oblivious) REJECT("LFSR_SEED is not mapped (oblivious off, §7.7)");
    r->lfsr_seed = d & 0xFFFFu;
    if (fx) *fx |= ASW_REGS_FX_LFSR;
    return ASW_OK;
  case ASW_REG_DEFAULT_PORT:
    if (d >= c->ports) REJECT("DEFAULT_PORT: value %u >= P = %u", d, c->ports);
    r->default_port = d;
    return ASW_OK;
  case ASW_REG_CNT_CLEAR:
    if (!c->counters) REJECT("CNT_CLEAR is not mapped (counters off, §12)");
    clear_counters(r);
    if (r->arn_counters)
      memset(r->arn_counters, 0, (size_t)c->ports * 16 * sizeof *r->arn_counters);
    asw_bubble_clear_counters(&r->bubble); /* §16.2 */
    return ASW_OK;
  default:
    break;
  }
  int arc = arn_write(r, a, d, fx, err, errlen);
  if (arc != 1) return arc;
  int brc = !c->bubble ? 1 /* bubble off: unmapped */
                       : asw_bubble_write(&r->bubble, a, d, err, errlen); /* §16.2 */
  if (brc < 0) {
    r->reg_errors++;
    return ASW_EINVAL;
  }
  if (brc == 0) return ASW_OK;
  if (a >= ASW_REG_CSET(0, 0) && a <= ASW_REG_CSET(3, 1)) {
    unsigned cs = (a - ASW_REG_CSET(0, 0)) / 2, w = (a - ASW_REG_CSET(0, 0)) % 2;
    uint64_t m = (uint64_t)d << (32 * w);
    if (m & ~port_mask(c->ports))
      REJECT("CSET[%u] word %u: value 0x%x has bits for ports >= P = %u", cs, w,
             d, c->ports);
    r->cset[cs] = (r->cset[cs] & ~(0xFFFFFFFFull << (32 * w))) | m;
    return ASW_OK;
  }
  if (a >= ASW_REG_SL2VC(0, 0) && a < ASW_REG_SL2VC(c->ports, 0)) {
    if (d >= c->vcs)
      REJECT("SL2VC[%u][%u]: value %u >= V = %u", (a - 0x1000u) / 16,
             (a - 0x1000u) % 16, d, c->vcs);
    r->sl2vc[a - ASW_REG_SL2VC(0, 0)] = (uint8_t)d;
    return ASW_OK;
  }
  if (a >= ASW_REG_FWD(0) && a < ASW_REG_FWD(c->table_entries)) {
    unsigned dst = a - ASW_REG_FWD(0);
    if (d & 0x0000C0C0u)
      REJECT("FWD[%u]: reserved bits set (value 0x%08x)", dst, d);
    if ((d >> 18 & 0xFFFu) >> (c->ports < 12 ? c->ports : 12))
      REJECT("FWD[%u]: amask 0x%03x has bits for ports >= P = %u", dst, d >> 18 & 0xFFFu,
             c->ports);
    if ((d >> 31) && (d & 0x3Fu) >= c->ports)
      REJECT("FWD[%u]: det_port %u >= P = %u", dst, d & 0x3Fu, c->ports);
    r->fwd[dst] = d;
    return ASW_OK;
  }
  uint32_t v;
  unsigned nq = c->voq ? c->ports : 1;
  int occ = c->readback && a >= ASW_REG_OCC(0, 0, 0) && a < ASW_REG_OCC(c->ports, 0, 0) &&
            (a >> 6 & 7u) < c->vcs && (a & 63u) < nq;
  int cred = c->readback && a >= ASW_REG_CRED(0, 0) && a < ASW_REG_CRED(c->ports, 0) &&
             (a & 7u) < c->vcs;
  int arnview = c->arn_entries &&
                ((a >= ASW_REG_ARN_ENTRY(0, 0) && a < ASW_REG_ARN_ENTRY(c->arn_entries, 0)) ||
                 (a >= ASW_REG_ROOT(0, 0) && a < ASW_REG_ROOT(c->ports, 0)));
  if (asw_regs_read(r, a, &v) || occ || cred || arnview)
    REJECT("register 0x%05x is read-only", a);
  REJECT("register address 0x%x is not mapped", a);
}

int asw_regs_read(const asw_regs *r, uint32_t a, uint32_t *d) {
  const asw_config *c = &r->cfg;
  switch (a) {
  case ASW_REG_ID: *d = ASW_ID_VALUE; return 1;
  case ASW_REG_PARAM0:
    *d = c->ports | c->vcs << 8 | c->iters << 12 | c->voq << 15 |
         c->max_packet << 16 | c->payload_bits << 24;
    return 1;
  case ASW_REG_PARAM1: *d = c->buf_flits | c->dest_bits << 16 | (c->sa_pipe & 1u) << 21; return 1;
  case ASW_REG_PARAM2: /* §11: [31:23] the features 0..8 built */
    *d = c->table_entries | c->arn_entries << 17 | (asw_config_features(c) & 0x1FFu) << 23;
    return 1;
  case ASW_REG_PARAM3: /* §17.8 SE, §11 [7:6] the features 9..10 built */
    *d = (c->qcn ? c->sar_entries : 0) | (asw_config_features(c) >> 9 & 3u) << 6;
    return 1;
  case ASW_REG_ROUTE_CTRL:
    *d = r->route_mode | r->trigger << 2 | r->stage_mask << 4 | r->stage << 12;
    return 1;
  case ASW_REG_VC_CTRL:
    *d = r->vc_mode | r->afi << 1 | r->fb << 2 | r->fb_same << 3 | r->esc_vc << 4;
    return 1;
  case ASW_REG_THRESH: *d = c->adaptive ? r->ltth | r->htth << 16 : 0; return c->adaptive;
  case ASW_REG_LFSR_SEED: *d = c->oblivious ? r->lfsr_seed : 0; return c->oblivious;
  case ASW_REG_DEFAULT_PORT: *d = r->default_port; return 1;
  case ASW_REG_CNT_CLEAR: *d = 0; return c->counters;
  case ASW_REG_REG_ERRORS: *d = r->reg_errors; return 1;
  default: break;
  }
  if (a >= ASW_REG_CSET(0, 0) && a <= ASW_REG_CSET(3, 1)) {
    unsigned cs = (a - ASW_REG_CSET(0, 0)) / 2, w = (a - ASW_REG_CSET(0, 0)) % 2;
    *d = (uint32_t)(r->cset[cs] >> (32 * w));
    return 1;
  }
  if (a >= ASW_REG_SL2VC(0, 0) && a < ASW_REG_SL2VC(c->ports, 0)) {
    *d = r->sl2vc[a - ASW_REG_SL2VC(0, 0)];
    return 1;
  }
  if (c->counters && a >= ASW_REG_COUNTER(0, 0) && a < ASW_REG_COUNTER(c->ports, 0)) {
    const unsigned i = a - ASW_REG_COUNTER(0, 0);
    *d = r->cnt_at[i % 8][(size_t)(i / 8) * r->cnt_stride];
    return 1;
  }
  if (a >= ASW_REG_FWD(0) && a < ASW_REG_FWD(c->table_entries)) {
    *d = r->fwd[a - ASW_REG_FWD(0)];
    return 1;
  }
  if (c->bubble && asw_bubble_read(&r->bubble, a, d)) return 1; /* §16.2 */
  if (!c->arn_entries) return 0;
  switch (a) {
  case ASW_REG_ARN_CTRL:
    *d = r->arn_mode | r->mark_adapted << 2 | r->adapted_arn << 3 | r->alt_refresh << 4;
    return 1;
  case ASW_REG_ARN_UP(0): *d = (uint32_t)r->arn_up; return 1;
  case ASW_REG_ARN_UP(1): *d = (uint32_t)(r->arn_up >> 32); return 1;
  case ASW_REG_CD_THRESH: *d = r->hcdth | r->lcdth << 16; return 1;
  case ASW_REG_FCTH: *d = r->fcth; return 1;
  case ASW_REG_CRT: *d = r->crt; return 1;
  case ASW_REG_ARN_TTL: *d = r->arn_ttl; return 1;
  default: break;
  }
  if (c->counters && a >= ASW_REG_ARN_COUNTER(0, 0) && a < ASW_REG_ARN_COUNTER(c->ports, 0)) {
    *d = r->arn_counters[a - ASW_REG_ARN_COUNTER(0, 0)];
    return 1;
  }
  return 0;
}
