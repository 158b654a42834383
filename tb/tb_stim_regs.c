/* tb_stim_regs.c — the register stimulus: the base registers (routing, VC map, FWD,
 * CSET, SL2VC, thresholds, illegal writes), the registers of features not built (§1),
 * the §16.3 VC-adaptive fields, and the table of every feature's register stimulus
 * (tb_stim.h, tb_feature) with the dispatch over it. Adding a feature's stimulus is one
 * row (a file of its own with its hooks) and its place in the two orders below. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tb_stim.h"

/* ---- register values ------------------------------------------------------ */
static uint32_t route_ctrl_value(tb_traffic *t, int vary) {
  unsigned mode = 0, trig = 0;
  switch (t->opt.routing) {
  case TB_ROUTE_OBL: mode = ASW_ROUTE_OBLIVIOUS; break;
  case TB_ROUTE_ADA: mode = ASW_ROUTE_ADAPTIVE; break;
  case TB_ROUTE_TH: mode = ASW_ROUTE_ADAPTIVE; trig = ASW_TRIG_TH; break;
  case TB_ROUTE_2TH: mode = ASW_ROUTE_ADAPTIVE; trig = ASW_TRIG_2TH; break;
  default: break;
  }
  unsigned mask = 0xFF, stage = t->opt.stage >= 0 ? (unsigned)t->opt.stage : t->stage;
  uint32_t hi = 0;  /* bits 31..16: reserved (formerly DELTA), ignored on write, read 0 */
  /* §16.3: mode 3 (a rewrite leaves it for the ROUTING mode one time in ten) */
  if (t->opt.vcadapt && !(vary && chance(t, 10))) mode = ASW_ROUTE_VCADAPT;
  if (t->directed) vary = 0;
  if (vary) {
    if (chance(t, 30)) hi = (1u + rnd_below(t, 4)) << 16;
    if (chance(t, 5)) hi = rnd_below(t, 0x10000) << 16;
    if (chance(t, 20) && t->opt.stage < 0) stage = 1 + rnd_below(t, 15);
    if (chance(t, 20)) mask = rnd_below(t, 256);
  }
  t->stage = stage;
  return hi | asw_route_ctrl(mode, trig, mask, stage);
}

static uint32_t vc_ctrl_value(const tb_traffic *t) {
  switch (t->opt.vcmap) {
  case TB_VC_OBQA: return 1;
  case TB_VC_AFI: return 2;
  case TB_VC_OBQA_AFI: return 3;
  default: return 0;
  }
}

/* §16.3: VC_CTRL's fallback fields (fb mostly on, fb_same a third, esc_vc < V). */
static uint32_t vca_vc_ctrl_bits(tb_traffic *t) {
  if (!t->opt.vcadapt) return 0;
  return (chance(t, 80) ? 4u : 0u) | (chance(t, 33) ? 8u : 0u) | rnd_below(t, t->V) << 4;
}

/* §16.3 FWD.amask: a random set of ports < min(P, 12) (a fifth empty: det_port alone). */
static uint32_t amask_value(tb_traffic *t) {
  unsigned w = t->P < 12 ? t->P : 12;
  if (chance(t, 20)) return 0;
  return ((uint32_t)rnd(t) & ((1u << w) - 1u)) << 18;
}

static uint32_t thresh_value(tb_traffic *t) {
  unsigned buf = t->cfg.buf_flits;
  unsigned lt = rnd_below(t, buf + 1);
  unsigned ht = lt + rnd_below(t, buf - lt + 1);
  return (uint32_t)lt | ((uint32_t)ht << 16);
}

static uint32_t cset_value(tb_traffic *t, unsigned w) {
  uint64_t m = rnd(t);
  uint64_t ports = t->P >= 64 ? ~0ULL : ((1ULL << t->P) - 1);
  m &= ports;
  if (m == 0) m = 1ULL << rnd_below(t, t->P);
  return (uint32_t)(w ? (m >> 32) : m);
}

static uint32_t fwd_value(tb_traffic *t) {
  if (chance(t, 4)) /* invalid entry with junk fields (legal, must not matter) */
    return ((uint32_t)rnd(t) & (0x3Fu | 0x3Fu << 8 | 3u << 16 | 1u << 30)) |
           (t->opt.vcadapt ? amask_value(t) : 0);
  /* §16.3: lookahead is {vn - 1, vlo} in mode 3: random, so W is at times empty ({0}) */
  return asw_fwd_entry(rnd_below(t, t->P), rnd_below(t, 64), rnd_below(t, 4), chance(t, 75)) |
         (t->opt.vcadapt ? amask_value(t) : 0);
}

static uint32_t sl2vc_value(tb_traffic *t, unsigned s) {
  return t->opt.vcmap == TB_VC_ID ? s % t->V : rnd_below(t, t->V);
}

/* An illegal write (contract §11): must be rejected and counted. */
static void illegal_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  switch (rnd_below(t, 12)) {
  case 8: /* a bit above 6; §16.3: esc_vc >= V */
    *a = ASW_REG_VC_CTRL;
    *d = vc_ctrl_value(t) | 0x80u;
    if (t->opt.vcadapt && t->V < 8 && chance(t, 50)) *d = vc_ctrl_value(t) | (t->V + rnd_below(t, 8 - t->V)) << 4;
    break;
  case 9: *a = ASW_REG_DEFAULT_PORT; *d = 0x40u | rnd_below(t, t->P); break;
  case 10: *a = ASW_REG_CSET(rnd_below(t, 4), 1); *d = t->P <= 32 ? 1u : (t->P < 64 ? 1u << (t->P - 32) : 0);
    if (t->P == 64) *a = ASW_REG_PARAM0;
    break;
  case 11: *a = 0x30000u + rnd_below(t, 0x1000); *d = (uint32_t)rnd(t); break; /* unmapped */
  case 0: /* mode 3 where §16.3 makes it illegal (VOQ = 1, vc_adaptive off), else a mode 1 / 2
           * not built (§7.3), else trigger 3 */
    *a = ASW_REG_ROUTE_CTRL;
    *d = (t->cfg.voq || !t->cfg.vc_adaptive) ? asw_route_ctrl(3, 0, 0xFF, 1)
         : !t->cfg.oblivious                 ? asw_route_ctrl(1, 0, 0xFF, 1)
         : !t->cfg.adaptive                  ? asw_route_ctrl(2, 0, 0xFF, 1)
                                             : asw_route_ctrl(0, 3, 0xFF, 1);
    /* §16.3: QCN_CTRL.en = 1 while mode 3 (illegal: they exclude each other) */
    if (t->opt.vcadapt && t->cfg.qcn &&
        (rd(t, ASW_REG_ROUTE_CTRL) & 3u) == 3u && chance(t, 50)) {
      *a = ASW_REG_QCN_CTRL;
      *d = rd(t, ASW_REG_QCN_CTRL) | 1u;
    }
    break;
  case 1: *a = ASW_REG_ROUTE_CTRL; *d = asw_route_ctrl(0, 0, 0xFF, 0); break;
  case 2: *a = ASW_REG_THRESH; *d = 5u | (2u << 16); break;
  case 3: *a = ASW_REG_DEFAULT_PORT; *d = t->P + rnd_below(t, 8); break;
  case 4: *a = ASW_REG_SL2VC(rnd_below(t, t->P), rnd_below(t, 16)); *d = t->V + rnd_below(t, 3); break;
  case 5: /* an amask bit for a port >= P (§16.3), or reserved bit 6 */
    *a = ASW_REG_FWD(rnd_below(t, t->cfg.table_entries));
    *d = fwd_value(t) | (t->P < 12 ? 1u << (18 + t->P) : 1u << 6);
    break;
  case 6: *a = ASW_REG_COUNTER(rnd_below(t, t->P), rnd_below(t, 8)); *d = 1; break;
  default: *a = ASW_REG_CSET(rnd_below(t, 4), 0); *d = t->P < 32 ? (1u << t->P) : 0; 
    if (t->P >= 32) *a = ASW_REG_ID;
    break;
  }
}

/* The §1 features not built that own registers (ASW_FEAT_* bits; vc_adaptive owns none). */
static unsigned unbuilt_regs(const tb_traffic *t) {
  return ASW_FEAT_ALL & ~asw_config_features(&t->cfg) & ~ASW_FEAT_VC_ADAPTIVE;
}

/* §1: an address of the registers of a feature not built (§16.2 / §17.2 / §17.4 / §17.6 /
 * §17.7 / §18.4 / LFSR_SEED / THRESH / the counters and CNT_CLEAR / OCC and CRED, unmapped:
 * reads 0, every write illegal); drawn only when unbuilt_regs. */
static uint32_t unbuilt_addr(tb_traffic *t) {
  const unsigned m = unbuilt_regs(t);
  unsigned f, n = (unsigned)__builtin_popcount(m), pick = rnd_below(t, n);
  for (f = 0; f < ASW_FEAT_COUNT; f++) /* the pick-th feature of m */
    if ((m >> f & 1u) && pick-- == 0) break;
  unsigned k = rnd_below(t, 4), p = rnd_below(t, t->P);
  switch (1u << f) {
  case ASW_FEAT_BUBBLE: return k < 2 ? ASW_REG_BUBBLE(p) : ASW_REG_BUBBLE_COUNTER(p, k & 1u);
  case ASW_FEAT_PFC:
    return k == 0 ? ASW_REG_PFC_EN(rnd_below(t, 2)) : k == 1 ? ASW_REG_PFC_THRESH
         : k == 2 ? ASW_REG_PFC_COUNTER(p, rnd_below(t, 4)) : ASW_REG_PFC_STATE(p);
  case ASW_FEAT_QCN:
    return k < 2 ? ASW_REG_QCN_CTRL + rnd_below(t, 4) /* QCN_CTRL..QCN_SEED */
         : k == 2 ? ASW_REG_QCN_COUNTER(p, rnd_below(t, 2)) : ASW_REG_QCN_QLEN(p);
  case ASW_FEAT_ROUTE_HASH: return ASW_REG_ROUTE_HASH;
  case ASW_FEAT_PORT_RATE: return ASW_REG_PORT_GAP(rnd_below(t, 8));
  case ASW_FEAT_OBLIVIOUS: return ASW_REG_LFSR_SEED; /* §7.7 */
  case ASW_FEAT_ADAPTIVE: return ASW_REG_THRESH;     /* §7.3 */
  case ASW_FEAT_COUNTERS: /* §12: CNT_CLEAR, a per-port or ARN counter */
    return k == 0 ? ASW_REG_CNT_CLEAR : k == 1 ? ASW_REG_ARN_COUNTER(p, rnd_below(t, 16))
                                               : ASW_REG_COUNTER(p, rnd_below(t, 8));
  case ASW_FEAT_READBACK:
    return k < 2 ? ASW_REG_OCC(p, rnd_below(t, t->V), rnd_below(t, t->NQ))
                 : ASW_REG_CRED(p, rnd_below(t, t->V));
  default: return ASW_REG_LINK_DOWN(0) + rnd_below(t, 8); /* §18.4 */
  }
}


/* ---- the base registers: programming and random accesses ------------------------ */
static int base_program(tb_traffic *t, unsigned cap) {
  const asw_config *cfg = &t->cfg;
  int bad = 0;
  bad |= script_push(t, cap, ASW_REG_ROUTE_CTRL, route_ctrl_value(t, 0));
  bad |= script_push(t, cap, ASW_REG_VC_CTRL, vc_ctrl_value(t) | vca_vc_ctrl_bits(t));
  bad |= script_push(t, cap, ASW_REG_THRESH, thresh_value(t));
  bad |= script_push(t, cap, ASW_REG_LFSR_SEED, (uint32_t)rnd(t) & 0xFFFFu);
  bad |= script_push(t, cap, ASW_REG_DEFAULT_PORT, rnd_below(t, t->P));
  for (unsigned c = 0; c < 4; c++) {
    bad |= script_push(t, cap, ASW_REG_CSET(c, 0), cset_value(t, 0));
    if (t->P > 32) bad |= script_push(t, cap, ASW_REG_CSET(c, 1), cset_value(t, 1));
  }
  if (t->opt.vcmap != TB_VC_ID && !t->directed) /* directed: identity SL2VC (reset value) */
    for (unsigned p = 0; p < t->P; p++)
      for (unsigned s = 0; s < 16; s++) bad |= script_push(t, cap, ASW_REG_SL2VC(p, s), sl2vc_value(t, s));
  for (unsigned d = 0; d < cfg->table_entries; d++) {
    uint32_t e = fwd_value(t);
    if (chance(t, 2)) e = 0;
    bad |= script_push(t, cap, ASW_REG_FWD(d), e);
  }
  return bad;
}

/* A write to the base registers (no feature row took it). */
static void base_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  unsigned k = rnd_below(t, 100);
  if (k < 40) {
    unsigned dst = rnd_below(t, t->cfg.table_entries);
    *a = ASW_REG_FWD(dst);
    *d = fwd_value(t);
  } else if (k < 50) {
    unsigned c = rnd_below(t, 4), w = t->P > 32 ? rnd_below(t, 2) : 0;
    *a = ASW_REG_CSET(c, w);
    *d = cset_value(t, w);
  } else if (k < 60) {
    unsigned o = rnd_below(t, t->P), s = rnd_below(t, 16);
    *a = ASW_REG_SL2VC(o, s);
    *d = sl2vc_value(t, s);
  } else if (k < 70) {
    *a = ASW_REG_THRESH;
    *d = thresh_value(t);
  } else if (k < 78) {
    *a = ASW_REG_ROUTE_CTRL;
    *d = route_ctrl_value(t, 1);
    if (chance(t, 20)) *d |= (uint32_t)rnd(t) << 23; /* bits above the fields: ignored */
    if (t->opt.scenario == TB_SCEN_REWRITE) /* any mode and trigger while traffic flows */
      *d = (*d & ~0xFu) | rnd_below(t, t->opt.vcadapt ? 4 : 3) | (rnd_below(t, 3) << 2);
    t->stage = *d >> 12 & 0xFu;
  } else if (k < 80 && t->opt.scenario == TB_SCEN_REWRITE) {
    *a = ASW_REG_VC_CTRL;
    *d = rnd_below(t, t->V >= 2 ? 4 : 2) | vca_vc_ctrl_bits(t);
  } else if (k < 83) {
    *a = ASW_REG_LFSR_SEED;
    *d = (uint32_t)rnd(t);
  } else if (k < 88) {
    *a = ASW_REG_DEFAULT_PORT;
    *d = rnd_below(t, t->P);
  } else if (k < 90 && !t->lf_downs) { /* §18: link counters stay exact once links fail */
    *a = ASW_REG_CNT_CLEAR;
    *d = (uint32_t)rnd(t);
  } else {
    illegal_write(t, a, d);
  }
}

/* A read of the base registers (no feature row took it). */
static uint32_t base_read(tb_traffic *t) {
  unsigned k = rnd_below(t, 100);
  if (k < 20) return ASW_REG_COUNTER(rnd_below(t, t->P), rnd_below(t, 8));
  if (k < 35) return ASW_REG_OCC(rnd_below(t, t->P), rnd_below(t, t->V), rnd_below(t, t->NQ));
  if (k < 50) return ASW_REG_CRED(rnd_below(t, t->P), rnd_below(t, t->V));
  if (k < 60) return ASW_REG_FWD(rnd_below(t, t->cfg.table_entries));
  if (k < 68) return ASW_REG_SL2VC(rnd_below(t, t->P), rnd_below(t, 16));
  if (k < 74) return ASW_REG_CSET(rnd_below(t, 4), rnd_below(t, 2));
  if (k < 90) {
    static const uint32_t fixed[] = {
        ASW_REG_ID,          ASW_REG_PARAM0,     ASW_REG_PARAM1,       ASW_REG_PARAM2,
        ASW_REG_ROUTE_CTRL,  ASW_REG_VC_CTRL,    ASW_REG_THRESH,       ASW_REG_LFSR_SEED,
        ASW_REG_DEFAULT_PORT, ASW_REG_CNT_CLEAR, ASW_REG_REG_ERRORS};
    return fixed[rnd_below(t, sizeof fixed / sizeof fixed[0])];
  }
  uint32_t a = (uint32_t)rnd(t) & 0xFFFFFu; /* mostly unmapped */
  /* §17.6 ROUTE_HASH exists in the C model only (no RTL yet): read ID */
  if (a == ASW_REG_ROUTE_HASH) a = ASW_REG_ID;
  return a;
}

int tb_program_pool(tb_traffic *t, unsigned cap, unsigned n) {
  const unsigned table = t->cfg.table_entries;
  int bad = 0;
  t->npool = n < table ? n : table;
  if (t->npool > POOL_MAX) t->npool = POOL_MAX;
  for (unsigned k = 0; k < t->npool; k++) {
    t->pool[k] = (uint16_t)rnd_below(t, table);
    bad |= script_push(t, cap, ASW_REG_FWD(t->pool[k]),
                       asw_fwd_entry(rnd_below(t, t->P), rnd_below(t, 64), rnd_below(t, 4),
                                     chance(t, 85)));
  }
  return bad;
}

const tb_feature tb_feat_base = {.name = "base", .program = base_program};

/* ---- §1: the registers of features not built (reads 0, every write illegal) ------- */
static unsigned unbuilt_pct(const tb_traffic *t) { return unbuilt_regs(t) ? 10 : 0; }
static void unbuilt_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  *a = unbuilt_addr(t);
  *d = chance(t, 50) ? 0 : (uint32_t)rnd(t);
}
const tb_feature tb_feat_unbuilt = {.name = "unbuilt", .write_pct = unbuilt_pct,
                                    .write = unbuilt_write, .read_pct = unbuilt_pct,
                                    .read = unbuilt_addr};

/* ---- §16.3 VC-adaptive routing (ROUTE_CTRL mode 3): VC_CTRL's fallback fields ------- */
static unsigned vcadapt_write_pct(const tb_traffic *t) { return t->opt.vcadapt ? 8 : 0; }
static void vcadapt_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  *a = ASW_REG_VC_CTRL;
  *d = vc_ctrl_value(t) | vca_vc_ctrl_bits(t);
}
/* Registers as at the start of this cycle (the C model's): heads arriving in mode 3,
 * adaptive_choices totals across CNT_CLEAR. */
static void vcadapt_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  (void)cycle;
  if (!t->opt.vcadapt) return;
  if (in->reg_en && in->reg_we && in->reg_addr == ASW_REG_CNT_CLEAR)
    for (unsigned p = 0; p < t->P; p++)
      t->vca_adaptive_acc += rd(t, ASW_REG_COUNTER(p, ASW_CNT_ADAPTIVE));
  if ((rd(t, ASW_REG_ROUTE_CTRL) & 3u) == ASW_ROUTE_VCADAPT)
    for (uint64_t m = in->flit_mask; m; m &= m - 1)
      t->vca_heads += in->flit[__builtin_ctzll(m)].head;
}
static uint64_t vca_adaptive_total(const tb_traffic *t) {
  uint64_t s = t->vca_adaptive_acc;
  for (unsigned p = 0; p < t->P; p++) s += rd(t, ASW_REG_COUNTER(p, ASW_CNT_ADAPTIVE));
  return s;
}
void tb_vcadapt_report(const tb_traffic *t, char *buf, size_t len) {
  snprintf(buf, len, "vcadapt heads %llu adaptive_choices %llu fb_vc %llu",
           (unsigned long long)t->vca_heads, (unsigned long long)vca_adaptive_total(t),
           (unsigned long long)t->vca_fb_vc);
}
/* A VCADAPT run of 20 000 cycles or more must route in mode 3, off det_port, and
 * (V >= 2) fall back to a VC outside the candidates. */
static int vcadapt_check(const tb_traffic *t, char *msg, size_t msglen) {
  if (t->opt.vcadapt && t->opt.cycles >= 20000 &&
      (!t->vca_heads || !vca_adaptive_total(t) || (t->V >= 2 && !t->vca_fb_vc))) {
    char r[160];
    tb_vcadapt_report(t, r, sizeof r);
    snprintf(msg, msglen, "VCADAPT=1: mode 3 not exercised (%s)", r);
    return -1;
  }
  return 0;
}
const tb_feature tb_feat_vcadapt = {.name = "vcadapt", .write_pct = vcadapt_write_pct,
                                    .write = vcadapt_write, .observe = vcadapt_observe,
                                    .check = vcadapt_check};

/* ---- the table ------------------------------------------------------------------ *
 * Each order is part of the stimulus (one random stream): programming in
 * program_order; a random write or read goes to the first row of draw_order whose
 * share it falls in, else to the base registers; end checks in check_order. */
static const tb_feature *const program_order[] = {
    &tb_feat_base, &tb_feat_arn, &tb_feat_sar, &tb_feat_bubble, &tb_feat_directed,
    &tb_feat_qcn,  &tb_feat_hash, &tb_feat_gap, &tb_feat_pfc};
static const tb_feature *const draw_order[] = {
    &tb_feat_sar, &tb_feat_unbuilt, &tb_feat_pfc,     &tb_feat_qcn,  &tb_feat_hash,
    &tb_feat_gap, &tb_feat_arn,     &tb_feat_vcadapt, &tb_feat_link, &tb_feat_bubble,
    &tb_feat_directed};
static const tb_feature *const check_order[] = {&tb_feat_arn, &tb_feat_bubble, &tb_feat_vcadapt,
                                                &tb_feat_link};
#define N_OF(a) (sizeof(a) / sizeof(a)[0])

int tb_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  for (size_t i = 0; i < N_OF(program_order); i++)
    if (program_order[i]->program) bad |= program_order[i]->program(t, cap);
  return bad;
}

void tb_random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  for (size_t i = 0; i < N_OF(draw_order); i++) {
    const tb_feature *f = draw_order[i];
    unsigned pct = f->write ? f->write_pct(t) : 0;
    if (pct && chance(t, pct)) {
      f->write(t, a, d);
      return;
    }
  }
  base_write(t, a, d);
}

uint32_t tb_random_read_addr(tb_traffic *t) {
  for (size_t i = 0; i < N_OF(draw_order); i++) {
    const tb_feature *f = draw_order[i];
    unsigned pct = f->read ? f->read_pct(t) : 0;
    if (pct && chance(t, pct)) return f->read(t);
  }
  return base_read(t);
}

void tb_features_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  for (size_t i = 0; i < N_OF(draw_order); i++)
    if (draw_order[i]->observe) draw_order[i]->observe(t, cycle, in);
}

int tb_features_check(const tb_traffic *t, char *msg, size_t msglen) {
  for (size_t i = 0; i < N_OF(check_order); i++)
    if (check_order[i]->check(t, msg, msglen)) return -1;
  return 0;
}
