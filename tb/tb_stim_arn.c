/* tb_stim_arn.c — the §15 stimulus of the random scenarios (ARN / AFI): the §15
 * registers (values drawn per seed unless fixed by the options, rewrites, illegal values,
 * reads and the read sweep), the pool of ARN destinations, the messages on arn_in, the
 * counter totals and the events a run must have seen. The directed §15 scenarios are in
 * tb_directed.c. */
#include <stdio.h>
#include <string.h>

#include "tb_stim.h"

/* ---- §15 register values (user-fixed values win) ---------------------------- */
static uint32_t cd_thresh_value(tb_traffic *t) {
  unsigned buf = t->cfg.buf_flits, h, l;
  if (t->opt.hcdth >= 0) h = (unsigned)t->opt.hcdth;
  else if (t->opt.lcdth >= 0) h = (unsigned)t->opt.lcdth + rnd_below(t, buf - (unsigned)t->opt.lcdth + 1);
  else h = 1 + rnd_below(t, (3 * buf + 3) / 4);
  l = t->opt.lcdth >= 0 ? (unsigned)t->opt.lcdth : 1 + rnd_below(t, h);
  return h | (uint32_t)l << 16;
}
static uint32_t fcth_value(tb_traffic *t) {
  return t->opt.fcth >= 0 ? (uint32_t)t->opt.fcth : rnd_below(t, t->cfg.buf_flits / 2 + 1);
}
static uint32_t crt_value(tb_traffic *t) {
  return t->opt.crt >= 0 ? (uint32_t)t->opt.crt : 1 + rnd_below(t, 32);
}
static uint32_t ttl_value(tb_traffic *t) {
  return t->opt.ttl >= 0 ? (uint32_t)t->opt.ttl : 16 + rnd_below(t, chance(t, 80) ? 200 : 800);
}
static uint32_t up_value(tb_traffic *t, unsigned w) {
  uint64_t m = t->opt.up >= 0 ? (uint64_t)t->opt.up : rnd(t);
  m &= port_mask(t);
  return (uint32_t)(w ? m >> 32 : m);
}

static void arn_illegal_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  unsigned buf = t->cfg.buf_flits;
  switch (rnd_below(t, 14)) {
  case 0: *a = ASW_REG_ARN_CTRL; *d = 3; break;
  case 1: *a = ASW_REG_ARN_CTRL; *d = t->arn_ctrl_cfg | 32u << rnd_below(t, 27); break;
  case 2: *a = ASW_REG_CD_THRESH; *d = 1u | 2u << 16; break; /* LCDTH > HCDTH */
  case 3: *a = ASW_REG_CD_THRESH; *d = (buf + 1) | 1u << 16; break;
  case 4: *a = ASW_REG_CD_THRESH; *d = 1; break; /* LCDTH 0 */
  case 5: *a = ASW_REG_FCTH; *d = buf + 1 + rnd_below(t, 3); break;
  case 6: *a = ASW_REG_FCTH; *d = 1u << 16; break;
  case 7: *a = chance(t, 50) ? ASW_REG_CRT : ASW_REG_ARN_TTL; *d = 0; break;
  case 8: *a = chance(t, 50) ? ASW_REG_CRT : ASW_REG_ARN_TTL; *d = 1u << 24 | 5u; break;
  case 9: /* ARN_UP bit >= P */
    if (t->P < 32) { *a = ASW_REG_ARN_UP(0); *d = 1u << t->P; }
    else if (t->P < 64) { *a = ASW_REG_ARN_UP(1); *d = 1u << (t->P - 32); }
    else { *a = ASW_REG_ARN_CTRL; *d = 3; }
    break;
  case 10: *a = ASW_REG_ARN_COUNTER(rnd_below(t, t->P), rnd_below(t, 16)); *d = 0; break;
  case 11: *a = ASW_REG_ARN_ENTRY(rnd_below(t, t->AE), rnd_below(t, 4)); *d = 0; break;
  case 12: *a = ASW_REG_ROOT(rnd_below(t, t->P), rnd_below(t, 2)); *d = 0; break;
  default: /* modes the configuration does not allow */
    *a = ASW_REG_ARN_CTRL;
    if (!t->cfg.voq) *d = 1;
    else if (t->V == 1) *d = chance(t, 50) ? 2 : 4 | 1;
    else *d = 3 | 4;
    break;
  }
}

/* A rewrite of a §15 register (AE >= 1), mostly legal. */
static void arn_random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  unsigned k = rnd_below(t, 100);
  if (k < 30) {
    *a = ASW_REG_ARN_CTRL;
    *d = t->arn_ctrl_cfg;
    if (t->arn_on && !t->restore_at && chance(t, 50)) { /* clear (mode 0), restored later */
      *d = t->arn_ctrl_cfg & ~3u;
      t->restore_at = t->now + 20 + rnd_below(t, 600);
    } else if (t->restore_at) {
      *d = t->arn_ctrl_cfg & ~3u; /* stays cleared until the restore */
    }
    if (t->opt.scenario == TB_SCEN_REWRITE && t->V >= 2 && chance(t, 30)) *d ^= 4u;
    if (t->arnx && chance(t, 20)) *d ^= t->arnx << 3; /* options off for a while */
  } else if (k < 45) {
    *a = ASW_REG_CD_THRESH;
    *d = cd_thresh_value(t);
  } else if (k < 55) {
    *a = ASW_REG_FCTH;
    *d = fcth_value(t);
  } else if (k < 65) {
    *a = ASW_REG_CRT;
    *d = crt_value(t);
  } else if (k < 75) {
    *a = ASW_REG_ARN_TTL;
    *d = ttl_value(t);
  } else if (k < 85) {
    unsigned w = t->P > 32 ? rnd_below(t, 2) : 0;
    *a = ASW_REG_ARN_UP(w);
    *d = up_value(t, w);
  } else {
    arn_illegal_write(t, a, d);
  }
}

static uint32_t arn_read_addr(tb_traffic *t) {
  unsigned k = rnd_below(t, 100);
  if (k < 40) return ASW_REG_ARN_COUNTER(rnd_below(t, t->P), rnd_below(t, 16));
  if (k < 65) return ASW_REG_ARN_ENTRY(rnd_below(t, t->AE), rnd_below(t, 4));
  if (k < 85) return ASW_REG_ROOT(rnd_below(t, t->P), rnd_below(t, 2));
  return ASW_REG_ARN_CTRL + rnd_below(t, 7);
}

/* The §15 read sweep: every ARN counter, ARN_ENTRY word and ROOT word once
 * through the register bus, so the RTL's values are compared with the C
 * model's (at the drain of a run and at the end of a directed scenario).
 * Returns 0 past the last address. */
uint32_t tb_sweep_addr(const tb_traffic *t, unsigned k) {
  unsigned nc = t->P * ASW_ACNT_NUM, ne = t->AE * 3, nr = t->P * 2;
  if (k < nc) return ASW_REG_ARN_COUNTER(k / ASW_ACNT_NUM, k % ASW_ACNT_NUM);
  k -= nc;
  if (k < ne) return ASW_REG_ARN_ENTRY(k / 3, k % 3);
  k -= ne;
  if (k < nr) return ASW_REG_ROOT(k / 2, k % 2);
  return 0;
}

/* ---- ARN messages of the random scenarios (§15.6) ------------------------ */
static unsigned other_stage(tb_traffic *t) { return (t->stage + 1 + rnd_below(t, 15)) & 0xFu; }

void tb_arn_stimulus(tb_traffic *t, asw_inputs *in) {
  if (t->phase == PH_IDLE) return; /* quiet: entries expire */
  if (t->burst_left == 0 && rnd_below(t, 1000) < 2) t->burst_left = 5 + rnd_below(t, 20);
  if (t->phase == PH_ARNBURST || t->burst_left) { /* distinct messages on many outputs: drops, evictions */
    if (t->burst_left) t->burst_left--;
    for (unsigned o = 0; o < t->P; o++) {
      if (!chance(t, 70)) continue;
      unsigned dest = chance(t, 70) ? t->pool[rnd_below(t, t->npool)] : rnd_below(t, t->cfg.table_entries);
      t->arn[o] = asw_arn_msg(dest, rnd_below(t, t->V), chance(t, 50) ? t->stage : other_stage(t),
                              rnd_below(t, 512));
      in->arn_mask |= 1ULL << o;
    }
    return;
  }
  if (chance(t, 2)) { /* junk: no field is checked (vc >= V, dest >= TABLE never match) */
    unsigned o = rnd_below(t, t->P);
    t->arn[o] = (uint32_t)rnd(t);
    in->arn_mask |= 1ULL << o;
  }
  if (!chance(t, t->arn_rate)) return;
  arn_key *k = &t->keys[rnd_below(t, t->nkeys)];
  if (chance(t, 25)) k->id = (uint16_t)((k->id + 1) & 0x1FFu); /* the root moved: replace */
  /* alt_refresh: the same message on another output now and then (a consumed
   * entry whose alt_port it is gets refreshed, §15.3 step 1) */
  unsigned port = (t->arnx & 2u) && chance(t, 30) ? rnd_below(t, t->P) : k->port;
  t->arn[port] = asw_arn_msg(k->dest, k->vc, chance(t, 60) ? t->stage : other_stage(t), k->id);
  in->arn_mask |= 1ULL << port;
}
void tb_get_arn_totals(const tb_traffic *t, tb_arn_totals *a) {
  memset(a, 0, sizeof *a);
  for (unsigned k = 0; k < ASW_ACNT_NUM; k++) a->cnt[k] = t->acc[k] + (t->AE ? csum(t, k) : 0);
  a->arn_out_msgs = t->arn_out_msgs;
  a->marked = t->marked;
}
void tb_arn_report(const tb_traffic *t, char *buf, size_t len) {
  if (!t->AE) {
    snprintf(buf, len, "arn AE=0 marked %llu", (unsigned long long)t->marked);
    tb_bubble_report_append(t, buf, len);
    return;
  }
  tb_arn_totals a;
  tb_get_arn_totals(t, &a);
  snprintf(buf, len,
           "arn %s roots %llu sent %llu received %llu consumed %llu expired %llu adapted %llu "
           "in_dropped %llu out_dropped %llu evicted %llu arn_out %llu marked %llu",
           tb_arn_name(t->opt.arn), (unsigned long long)a.cnt[ASW_ACNT_ROOTS],
           (unsigned long long)a.cnt[ASW_ACNT_SENT], (unsigned long long)a.cnt[ASW_ACNT_RECEIVED],
           (unsigned long long)a.cnt[ASW_ACNT_CONSUMED], (unsigned long long)a.cnt[ASW_ACNT_EXPIRED],
           (unsigned long long)a.cnt[ASW_ACNT_ADAPTED], (unsigned long long)a.cnt[ASW_ACNT_IN_DROPPED],
           (unsigned long long)a.cnt[ASW_ACNT_OUT_DROPPED], (unsigned long long)a.cnt[ASW_ACNT_EVICTED],
           (unsigned long long)a.arn_out_msgs, (unsigned long long)t->marked);
  tb_bubble_report_append(t, buf, len);
}
/* The §15 events a random run must have seen (fails the run otherwise). */
static int arn_check(const tb_traffic *t, char *msg, size_t msglen) {
  tb_arn_totals a;
  tb_get_arn_totals(t, &a);
  if (!t->AE) return 0;
  if (!t->arn_on) { /* mode 0 all along (ARN=off or Adaptive-Th+AFI): nothing of §15 */
    for (unsigned k = 0; k < ASW_ACNT_NUM; k++)
      if (a.cnt[k]) {
        snprintf(msg, msglen, "ARN=%s: ARN counter %u is %llu in mode 0", tb_arn_name(t->opt.arn), k,
                 (unsigned long long)a.cnt[k]);
        return -1;
      }
    if (a.arn_out_msgs) {
      snprintf(msg, msglen, "ARN=%s: %llu ARN messages sent in mode 0", tb_arn_name(t->opt.arn),
               (unsigned long long)a.arn_out_msgs);
      return -1;
    }
    if (t->opt.arn == TB_ARN_ADTH && t->opt.routing != TB_ROUTE_DET &&
        t->opt.scenario == TB_SCEN_RANDOM && t->opt.cycles >= 20000 && !t->marked) {
      snprintf(msg, msglen, "ARN=adaptive-th-afi: no packet was marked adapted");
      return -1;
    }
    return 0;
  }
  if (t->opt.cycles < 20000) return 0; /* too short to ask for every event */
  static const struct { unsigned k; const char *name; } need[] = {
      {ASW_ACNT_ROOTS, "roots_declared"}, {ASW_ACNT_SENT, "arn_sent"},
      {ASW_ACNT_RECEIVED, "arn_received"}, {ASW_ACNT_CONSUMED, "arn_consumed"},
      {ASW_ACNT_EXPIRED, "arn_expired"},   {ASW_ACNT_ADAPTED, "packets_adapted"},
      {ASW_ACNT_IN_DROPPED, "arn_in_dropped"}, {ASW_ACNT_EVICTED, "arn_evicted"}};
  unsigned n = t->opt.scenario == TB_SCEN_RANDOM ? sizeof need / sizeof need[0]
             : t->opt.scenario == TB_SCEN_HOTSPOT ? 1 : 0;
  for (unsigned j = 0; j < n; j++)
    if (!a.cnt[need[j].k]) {
      snprintf(msg, msglen, "scenario %s asks for %s events and saw none",
               tb_scenario_name(t->opt.scenario), need[j].name);
      return -1;
    }
  if (n && t->opt.arn == TB_ARN_AFI && !t->marked) {
    snprintf(msg, msglen, "ARN=afi: no packet left adapted after entering non-adapted");
    return -1;
  }
  return 0;
}

/* The destinations of the ARN traffic (in the table, mostly multipath), the keys of its
 * messages, then the §15 registers (ARN_CTRL last). */
static int arn_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  if (!t->AE || t->directed) return 0;
  bad |= tb_program_pool(t, cap, t->AE + 4);
  t->nkeys = t->AE + 2 < POOL_MAX ? t->AE + 2 : POOL_MAX;
  for (unsigned k = 0; k < t->nkeys; k++)
    t->keys[k] = (arn_key){t->pool[rnd_below(t, t->npool)], (uint16_t)rnd_below(t, 512),
                           (uint8_t)rnd_below(t, t->V), (uint8_t)rnd_below(t, t->P)};
  t->arn_rate = 1 + rnd_below(t, 6);
  bad |= script_push(t, cap, ASW_REG_CD_THRESH, cd_thresh_value(t));
  bad |= script_push(t, cap, ASW_REG_FCTH, fcth_value(t));
  bad |= script_push(t, cap, ASW_REG_CRT, crt_value(t));
  bad |= script_push(t, cap, ASW_REG_ARN_TTL, ttl_value(t));
  bad |= script_push(t, cap, ASW_REG_ARN_UP(0), up_value(t, 0));
  if (t->P > 32) bad |= script_push(t, cap, ASW_REG_ARN_UP(1), up_value(t, 1));
  bad |= script_push(t, cap, ASW_REG_ARN_CTRL, t->arn_ctrl_cfg);
  return bad;
}

static unsigned arn_write_pct(const tb_traffic *t) { return t->AE ? (t->arn_on ? 25 : 10) : 0; }
static unsigned arn_read_pct(const tb_traffic *t) { return t->AE ? (t->directed ? 70 : 30) : 0; }

/* Counter totals across CNT_CLEAR (the counters as the clear finds them). */
static void arn_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  (void)cycle;
  if (t->AE && in->reg_en && in->reg_we && in->reg_addr == ASW_REG_CNT_CLEAR)
    for (unsigned k = 0; k < ASW_ACNT_NUM; k++) t->acc[k] += csum(t, k);
}

const tb_feature tb_feat_arn = {.name = "arn", .program = arn_program,
                                .write_pct = arn_write_pct, .write = arn_random_write,
                                .read_pct = arn_read_pct, .read = arn_read_addr,
                                .observe = arn_observe, .check = arn_check};
