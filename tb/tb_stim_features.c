/* tb_stim_features.c — the register stimulus of the optional features with registers
 * and nothing else in the stimulus: §16.1 bubble flow control, §17.2 PFC thresholds,
 * §17.4 QCN congestion points, §17.6 ROUTE_HASH and §17.7 PORT_GAP. One section and one
 * tb_feature row each (tb_stim.h); §17.8 Switch AR is in tb_stim_sar.c, §18 link faults
 * in tb_stim_link.c, §15 in tb_stim_arn.c. */
#include <stdio.h>
#include <string.h>

#include "tb_stim.h"

/* ==== §16.1 bubble flow control ===================================================== */

/* §16.1: a random BUBBLE[o] value: mostly a ring input with a VC mask, some
 * without ring_valid, some off. */
static uint32_t bubble_value(tb_traffic *t) {
  if (chance(t, 10)) return 0;
  unsigned vcs = rnd_below(t, 1u << t->V);
  if (!vcs || chance(t, 50)) vcs = (1u << t->V) - 1;
  return asw_bubble_entry(rnd_below(t, t->P), !chance(t, 15), vcs);
}
static uint32_t bubble_illegal(tb_traffic *t) {
  switch (rnd_below(t, 3)) {
  case 0: return t->P < 64 ? asw_bubble_entry(t->P + rnd_below(t, 64 - t->P), 1, 1) : 1u << 7;
  case 1: return t->V < 8 ? asw_bubble_entry(0, 1, 1u << (t->V + rnd_below(t, 8 - t->V))) : 1u << 7;
  default: return 1u << (16 + rnd_below(t, 16));
  }
}
static uint64_t bsum(const tb_traffic *t, unsigned k) {
  uint64_t s = 0;
  for (unsigned p = 0; p < t->P; p++) s += rd(t, ASW_REG_BUBBLE_COUNTER(p, k));
  return s;
}
void tb_bubble_report_append(const tb_traffic *t, char *buf, size_t len) {
  size_t n = strlen(buf);
  if (n + 1 < len)
    snprintf(buf + n, len - n, "\nbubble ring_enter %llu bubble_stall %llu",
             (unsigned long long)(t->bacc[ASW_BCNT_RING_ENTER] + bsum(t, ASW_BCNT_RING_ENTER)),
             (unsigned long long)(t->bacc[ASW_BCNT_BUBBLE_STALL] + bsum(t, ASW_BCNT_BUBBLE_STALL)));
}
/* §16.1: a random run with the rule on must have blocked and admitted heads
 * by it; with BUBBLE left at 0 nothing may count. */
static int bubble_check(const tb_traffic *t, char *msg, size_t msglen) {
  uint64_t e = t->bacc[ASW_BCNT_RING_ENTER] + bsum(t, ASW_BCNT_RING_ENTER);
  uint64_t b = t->bacc[ASW_BCNT_BUBBLE_STALL] + bsum(t, ASW_BCNT_BUBBLE_STALL);
  if (!t->opt.bubble && (e || b)) {
    snprintf(msg, msglen, "BUBBLE=0: ring_enter %llu bubble_stall %llu (must stay 0)",
             (unsigned long long)e, (unsigned long long)b);
    return -1;
  }
  if (t->opt.bubble && t->opt.cycles >= 20000 && t->opt.scenario != TB_SCEN_LEN1 && (!e || !b)) {
    snprintf(msg, msglen, "BUBBLE=1: the rule never %s (ring_enter %llu bubble_stall %llu)",
             !e ? "admitted an entering head" : "held a head", (unsigned long long)e,
             (unsigned long long)b);
    return -1;
  }
  return 0;
}

static int bubble_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  if (t->opt.bubble)
    for (unsigned p = 0; p < t->P; p++) bad |= script_push(t, cap, ASW_REG_BUBBLE(p), bubble_value(t));
  return bad;
}
static unsigned bubble_write_pct(const tb_traffic *t) { return t->opt.bubble ? 10 : 0; }
/* §16.2 rewrites, illegal values too */
static void bubble_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  *a = ASW_REG_BUBBLE(rnd_below(t, t->P));
  *d = chance(t, 15) ? bubble_illegal(t) : bubble_value(t);
  if (chance(t, 5)) *a = ASW_REG_BUBBLE_COUNTER(rnd_below(t, t->P), rnd_below(t, 2)); /* RO */
}
static unsigned bubble_read_pct(const tb_traffic *t) { return t->opt.bubble ? 15 : 0; }
static uint32_t bubble_read(tb_traffic *t) {
  return chance(t, 40) ? ASW_REG_BUBBLE(rnd_below(t, t->P + 1))
                       : ASW_REG_BUBBLE_COUNTER(rnd_below(t, t->P), rnd_below(t, 2));
}
/* Counter totals across CNT_CLEAR (every run: with BUBBLE=0 they must stay 0). */
static void bubble_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  (void)cycle;
  if (in->reg_en && in->reg_we && in->reg_addr == ASW_REG_CNT_CLEAR)
    for (unsigned k = 0; k < ASW_BCNT_NUM; k++) t->bacc[k] += bsum(t, k);
}
const tb_feature tb_feat_bubble = {.name = "bubble", .program = bubble_program,
                                   .write_pct = bubble_write_pct, .write = bubble_write,
                                   .read_pct = bubble_read_pct, .read = bubble_read,
                                   .observe = bubble_observe, .check = bubble_check};

/* ==== §17.1 / §17.2 PFC ports ======================================================== */
/* §17.2 writes while traffic flows: thresholds within the headroom, PFC_EN
 * rewritten unchanged (a mode change needs idle links), and illegal values. */
static void pfc_random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  unsigned xoff = 1 + rnd_below(t, t->pfc_xoff_max);
  *a = ASW_REG_PFC_THRESH;
  *d = asw_pfc_thresh(xoff, rnd_below(t, xoff));
  switch (rnd_below(t, 10)) {
  case 0: *d = asw_pfc_thresh(xoff, xoff + rnd_below(t, 3)); break;         /* XON >= XOFF */
  case 1: *d = asw_pfc_thresh(t->cfg.buf_flits + 1 + rnd_below(t, 9), 0); break; /* > BUF */
  case 2: *a = ASW_REG_PFC_COUNTER(rnd_below(t, t->P), rnd_below(t, 4)); break;  /* RO */
  case 3: *a = ASW_REG_PFC_STATE(rnd_below(t, t->P)); break;                     /* RO */
  case 4:
    *a = ASW_REG_PFC_EN(0);
    *d = (uint32_t)t->opt.pfc;
    if (t->P < 32 && chance(t, 50)) *d |= 1u << (t->P + rnd_below(t, 32 - t->P)); /* port >= P */
    break;
  default: break;
  }
}
static unsigned pfc_write_pct(const tb_traffic *t) { return t->opt.pfc ? 15 : 0; }
static unsigned pfc_read_pct(const tb_traffic *t) { return t->opt.pfc ? 25 : 0; }
static uint32_t pfc_read(tb_traffic *t) {
  unsigned k = rnd_below(t, 10), p = rnd_below(t, t->P);
  return k < 4 ? ASW_REG_PFC_COUNTER(p, rnd_below(t, 4)) : k < 8 ? ASW_REG_PFC_STATE(p)
       : k < 9 ? ASW_REG_PFC_THRESH : ASW_REG_PFC_EN(rnd_below(t, 2));
}
/* Thresholds within the headroom, then the mode. */
static int pfc_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  if (!t->opt.pfc) return 0;
  unsigned xoff = 1 + rnd_below(t, t->pfc_xoff_max);
  bad |= script_push(t, cap, ASW_REG_PFC_THRESH, asw_pfc_thresh(xoff, rnd_below(t, xoff)));
  bad |= script_push(t, cap, ASW_REG_PFC_EN(0), (uint32_t)t->opt.pfc);
  if (t->P > 32) bad |= script_push(t, cap, ASW_REG_PFC_EN(1), (uint32_t)(t->opt.pfc >> 32));
  return bad;
}
const tb_feature tb_feat_pfc = {.name = "pfc", .program = pfc_program,
                                .write_pct = pfc_write_pct, .write = pfc_random_write,
                                .read_pct = pfc_read_pct, .read = pfc_read};

/* ==== §17.4 QCN congestion points ==================================================== */

/* §17.4 QCN values: frequent sampling (S near its minimum 64 flits), a small QEQ so
 * both q = 0 and q > 0 occur, WL and FBSH over their low range so q also saturates. */
static uint32_t qcn_ctrl_value(tb_traffic *t, unsigned en) {
  return asw_qcn_ctrl(en, rnd_below(t, 4), rnd_below(t, 4), (unsigned)rnd(t) & 0xFFFFu);
}
static uint32_t qcn_qeq_value(tb_traffic *t) { return rnd_below(t, 3 * t->cfg.buf_flits / 2 + 2); }
static uint32_t qcn_sample_value(tb_traffic *t) { return 64 + rnd_below(t, 48); }
/* §17.4 writes while traffic flows: legal rewrites (QCN_CTRL keeps en = 1 but for a rare
 * disable/enable, which drops the CNMs and clears the queue counts), illegal values and
 * writes to the read-only counters and QCN_QLEN. */
static void qcn_random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  switch (rnd_below(t, 12)) {
  case 0: case 1: *a = ASW_REG_QCN_QEQ; *d = qcn_qeq_value(t); break;
  case 2: case 3: *a = ASW_REG_QCN_SAMPLE; *d = qcn_sample_value(t); break;
  case 4: *a = ASW_REG_QCN_SEED; *d = (uint32_t)rnd(t) & 0xFFFFu; break;
  case 5: *a = ASW_REG_QCN_CTRL; *d = qcn_ctrl_value(t, !chance(t, 20)); break;
  case 6: *a = ASW_REG_QCN_CTRL; *d = qcn_ctrl_value(t, 1) | (chance(t, 50) ? 8u : 0x100u << rnd_below(t, 8)); break;
  case 7: *a = ASW_REG_QCN_SAMPLE; *d = chance(t, 50) ? rnd_below(t, 64) : 0x10000u + rnd_below(t, 9); break;
  case 8: *a = chance(t, 50) ? ASW_REG_QCN_QEQ : ASW_REG_QCN_SEED; *d = 0x10000u << rnd_below(t, 16); break;
  case 9: *a = ASW_REG_QCN_COUNTER(rnd_below(t, t->P), rnd_below(t, 2)); *d = (uint32_t)rnd(t); break;
  case 10: *a = ASW_REG_QCN_QLEN(rnd_below(t, t->P)); *d = (uint32_t)rnd(t); break;
  default: *a = ASW_REG_QCN_CTRL; *d = qcn_ctrl_value(t, 1); break;
  }
}
static uint32_t qcn_read_addr(tb_traffic *t) {
  unsigned k = rnd_below(t, 10), p = rnd_below(t, t->P);
  return k < 4 ? ASW_REG_QCN_QLEN(p) : k < 8 ? ASW_REG_QCN_COUNTER(p, rnd_below(t, 2))
       : ASW_REG_QCN_CTRL + rnd_below(t, 4);
}
static unsigned qcn_write_pct(const tb_traffic *t) { return t->opt.qcn ? 15 : 0; }
static unsigned qcn_read_pct(const tb_traffic *t) { return t->opt.qcn ? 25 : 0; }
/* Parameters, then the enable. */
static int qcn_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  if (!t->opt.qcn) return 0;
  bad |= script_push(t, cap, ASW_REG_QCN_QEQ, qcn_qeq_value(t));
  bad |= script_push(t, cap, ASW_REG_QCN_SAMPLE, qcn_sample_value(t));
  bad |= script_push(t, cap, ASW_REG_QCN_SEED, (uint32_t)rnd(t) & 0xFFFFu);
  bad |= script_push(t, cap, ASW_REG_QCN_CTRL, qcn_ctrl_value(t, 1));
  return bad;
}
const tb_feature tb_feat_qcn = {.name = "qcn", .program = qcn_program,
                                .write_pct = qcn_write_pct, .write = qcn_random_write,
                                .read_pct = qcn_read_pct, .read = qcn_read_addr};

/* ==== §17.6 ROUTE_HASH =============================================================== */

/* §17.6 ROUTE_HASH values: flow hash (SHIFT 0..8) or source digit (BITS 1..8, SHIFT
 * mostly within the port number's bits: random traffic has src = input port), kind 0
 * now and then; illegal: one of the §17.6 rules broken. */
static uint32_t hash_value(tb_traffic *t) {
  if (chance(t, 10)) return 0;
  if (chance(t, 50)) return asw_route_hash_reg(ASW_RH_FLOW, rnd_below(t, 9), 0);
  return asw_route_hash_reg(ASW_RH_SRC_DIGIT, chance(t, 80) ? rnd_below(t, 3) : rnd_below(t, 16),
                            1 + rnd_below(t, 8));
}
static uint32_t hash_illegal(tb_traffic *t) {
  switch (rnd_below(t, 6)) {
  case 0: return 3u | rnd_below(t, 256) << 4;                               /* kind 3 */
  case 1: return asw_route_hash_reg(ASW_RH_SRC_DIGIT, rnd_below(t, 16), chance(t, 50) ? 0 : 9 + rnd_below(t, 7));
  case 2: return asw_route_hash_reg(ASW_RH_FLOW, 9 + rnd_below(t, 7), rnd_below(t, 16));
  case 3: return asw_route_hash_reg(ASW_RH_FLOW, rnd_below(t, 9), 1 + rnd_below(t, 15));
  case 4: return asw_route_hash_reg(ASW_RH_OFF, 1 + rnd_below(t, 15), rnd_below(t, 16));
  default: return hash_value(t) | (chance(t, 50) ? 4u << rnd_below(t, 2) : 0x1000u << rnd_below(t, 20));
  }
}
void tb_hash_report(const tb_traffic *t, char *buf, size_t len) {
  snprintf(buf, len, "hash flow %llu digit %llu", (unsigned long long)t->rh_heads[0],
           (unsigned long long)t->rh_heads[1]);
}
static int hash_program(tb_traffic *t, unsigned cap) {
  return t->opt.hash ? script_push(t, cap, ASW_REG_ROUTE_HASH, hash_value(t)) : 0;
}
static unsigned hash_pct(const tb_traffic *t) { return t->opt.hash ? 10 : 0; }
/* Rewrites, illegal values too. */
static void hash_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  *a = ASW_REG_ROUTE_HASH;
  *d = chance(t, 20) ? hash_illegal(t) : hash_value(t);
}
static uint32_t hash_read(tb_traffic *t) {
  (void)t;
  return ASW_REG_ROUTE_HASH;
}
/* Which kind the arriving heads are routed with (ROUTE_HASH as last written legally:
 * the probe switch says which writes are). */
static void hash_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  (void)cycle;
  if (!t->opt.hash) return;
  if (in->reg_en && in->reg_we && in->reg_addr == ASW_REG_ROUTE_HASH &&
      asw_reg_write(t->probe, ASW_REG_ROUTE_HASH, in->reg_wdata) == ASW_OK)
    t->rh_cur = in->reg_wdata;
  unsigned kind = ASW_RH_KIND(t->rh_cur);
  if (kind == 1 || kind == 2)
    for (uint64_t m = in->flit_mask; m; m &= m - 1)
      t->rh_heads[kind - 1] += in->flit[__builtin_ctzll(m)].head;
}
const tb_feature tb_feat_hash = {.name = "hash", .program = hash_program, .write_pct = hash_pct,
                                 .write = hash_write, .read_pct = hash_pct, .read = hash_read,
                                 .observe = hash_observe};

/* ==== §17.7 PORT_GAP ================================================================= */

/* §17.7: a legal PORT_GAP[k] value: each port < P of the register GAP 0 (a third),
 * 1..3 (most of the rest) or up to 15. */
static uint32_t gap_value(tb_traffic *t, unsigned k) {
  uint32_t v = 0;
  for (unsigned j = 0; j < 8 && 8 * k + j < t->P; j++) {
    unsigned g = chance(t, 33) ? 0 : chance(t, 80) ? 1 + rnd_below(t, 3) : rnd_below(t, 16);
    v |= asw_port_gap_field(j, g);
  }
  return v;
}

/* §17.7: a PORT_GAP write, to one of the registers with ports < P; illegal: one more
 * non-zero GAP for a port >= P (none exists with P = 64: then a legal value). */
static void gap_write(tb_traffic *t, uint32_t *a, uint32_t *d, int illegal) {
  unsigned k = rnd_below(t, (t->P + 7) / 8);
  if (illegal && t->P < 64) { /* the register of port P, a field from P on */
    k = t->P / 8;
    *d = gap_value(t, k) |
         asw_port_gap_field(t->P % 8 + rnd_below(t, 8 - t->P % 8), 1 + rnd_below(t, 15));
  } else {
    *d = gap_value(t, k);
  }
  *a = ASW_REG_PORT_GAP(k);
}
void tb_gap_report(const tb_traffic *t, char *buf, size_t len) {
  snprintf(buf, len, "gap flits %llu spaced %llu", (unsigned long long)t->gap_flits,
           (unsigned long long)t->gap_spaced);
}
/* Every output's GAP. */
static int gap_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  for (unsigned k = 0; t->opt.gap && k < (t->P + 7) / 8; k++)
    bad |= script_push(t, cap, ASW_REG_PORT_GAP(k), gap_value(t, k));
  return bad;
}
/* Rewrites (illegal values too), none once the drain has set the GAPs back to 0. */
static unsigned gap_write_pct(const tb_traffic *t) { return t->opt.gap && !t->gap_clear ? 5 : 0; }
static void gap_random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  gap_write(t, a, d, chance(t, 20));
}
static unsigned gap_read_pct(const tb_traffic *t) { return t->opt.gap ? 10 : 0; }
static uint32_t gap_read(tb_traffic *t) { return ASW_REG_PORT_GAP(rnd_below(t, 8)); }
/* Each output's GAP as last written legally (the probe switch says which writes are), and
 * since when it holds (tb_outputs checks the spacing once it has held for 32 cycles). */
static void gap_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  if (t->opt.gap && in->reg_en && in->reg_we && in->reg_addr >= ASW_REG_PORT_GAP(0) &&
      in->reg_addr < ASW_REG_PORT_GAP(8) &&
      asw_reg_write(t->probe, in->reg_addr, in->reg_wdata) == ASW_OK)
    for (unsigned j = 0, k = in->reg_addr - ASW_REG_PORT_GAP(0); j < 8; j++) {
      unsigned o = 8 * k + j, g = ASW_PORT_GAP_OF(in->reg_wdata, j);
      if (o < t->P && g != t->gap[o]) t->gap_since[o] = cycle + 1;
      t->gap[o] = (uint8_t)g;
    }
}
const tb_feature tb_feat_gap = {.name = "gap", .program = gap_program,
                                .write_pct = gap_write_pct, .write = gap_random_write,
                                .read_pct = gap_read_pct, .read = gap_read,
                                .observe = gap_observe};
