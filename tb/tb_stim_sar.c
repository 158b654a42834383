/* tb_stim_sar.c — §17.8 Switch AR: its registers (programming, rewrites, illegal values,
 * reads), the CNM lane words of every run (a random stream of their own, so the rest of
 * the stimulus is that of a switch without the lane) and the counter totals. */
#include <stdio.h>

#include "tb_stim.h"

/* §17.8 register writes: SAR_CTRL (en mostly 1, steer mostly 1, decay half the time, mostly
 * short periods so levels step down; en = 0 clears the table),
 * SAR_TTL (small TTL and TS: entries expire), SAR_SEED, and illegal ones (bits above the
 * fields, decay > 24, TTL 0, TS > 24, the read-only counters, SAR_ENTRY and PARAM3). */
static uint32_t sar_ttl_value(tb_traffic *t) {
  return asw_sar_ttl(1 + (chance(t, 70) ? rnd_below(t, 24) : rnd_below(t, 300)),
                     chance(t, 40) ? 0 : rnd_below(t, 6));
}
static void sar_random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  switch (rnd_below(t, 14)) {
  case 0: case 1: case 2: case 3:
    *a = ASW_REG_SAR_CTRL;
    *d = asw_sar_ctrl_decay(!chance(t, 12), !chance(t, 20),
                            chance(t, 50) ? 0 : 1 + rnd_below(t, chance(t, 80) ? 4 : 24));
    break;
  case 4: case 5: case 6: *a = ASW_REG_SAR_TTL; *d = sar_ttl_value(t); break;
  case 7: case 8: *a = ASW_REG_SAR_SEED; *d = chance(t, 10) ? 0 : (uint32_t)rnd(t) & 0xFFFFu; break;
  case 9:
    *a = ASW_REG_SAR_CTRL;
    *d = chance(t, 50) ? asw_sar_ctrl(1, 1) | 0x80u << rnd_below(t, 25)
                       : asw_sar_ctrl_decay(1, 1, 25 + rnd_below(t, 7));
    break;
  case 10:
    *a = ASW_REG_SAR_TTL;
    *d = chance(t, 33) ? asw_sar_ttl(0, rnd_below(t, 25))
       : chance(t, 50) ? asw_sar_ttl(1 + rnd_below(t, 100), 25 + rnd_below(t, 7))
                       : sar_ttl_value(t) | 0x20000000u << rnd_below(t, 3);
    break;
  case 11: *a = ASW_REG_SAR_SEED; *d = 0x10000u << rnd_below(t, 16); break;
  case 12:
    *a = chance(t, 50) ? ASW_REG_SAR_COUNTER(rnd_below(t, t->P), rnd_below(t, 8))
                       : ASW_REG_SAR_ENTRY(rnd_below(t, t->cfg.sar_entries), rnd_below(t, 2));
    *d = (uint32_t)rnd(t);
    break;
  default: *a = ASW_REG_PARAM3; *d = rnd_below(t, 33); break;
  }
}

/* ---- §17.8 CNM lane: words from the peers (a random stream of its own) ---------- */
static uint64_t lrnd(tb_traffic *t) {
  t->lrng ^= t->lrng >> 12;
  t->lrng ^= t->lrng << 25;
  t->lrng ^= t->lrng >> 27;
  return t->lrng * 0x2545F4914F6CDD1DULL;
}
static unsigned lrnd_below(tb_traffic *t, unsigned n) { return n ? (unsigned)(lrnd(t) % n) : 0; }

/* A §17.4-format word: culprit source mostly a table index (the pool's often, beyond the
 * table at times: unroutable), destination mostly one of the pool's (the traffic's), q 0,
 * 63 or in between; the other bits random (forwarded as they are). */
static uint64_t lane_word(tb_traffic *t) {
  const unsigned table = t->cfg.table_entries, k = lrnd_below(t, 100), j = lrnd_below(t, 100);
  const unsigned src = (k < 5 && table < 65536) ? table + lrnd_below(t, 65536 - table)
                     : (k < 35 && t->npool) ? t->pool[lrnd_below(t, t->npool)]
                                            : lrnd_below(t, table);
  const unsigned dest = (t->npool && j < 80) ? t->pool[lrnd_below(t, t->npool)]
                                             : lrnd_below(t, 1u << t->cfg.dest_bits);
  const unsigned r = lrnd_below(t, 100);
  const unsigned q = r < 10 ? 0 : r < 30 ? 63 : 1 + lrnd_below(t, 62);
  return (lrnd(t) & ~0x3FFFFFFFFFull) | (uint64_t)q << 32 | (uint64_t)dest << 16 | src;
}

/* Every run drives the lane (a switch without Switch AR, or with SAR_CTRL.en = 0, ignores
 * it): 3 words per mille and port; SAR runs in phases of 0..400 per mille, bursts of
 * several ports filling rx faster than stage A pops it (drops). */
void tb_lane_inputs(tb_traffic *t, asw_inputs *in) {
  static const unsigned rates[] = {0, 5, 30, 150, 400};
  if (t->opt.sar && t->lane_left == 0) {
    t->lane_rate = rates[lrnd_below(t, 5)];
    t->lane_left = 100 + lrnd_below(t, 1400);
  }
  if (t->lane_left) t->lane_left--;
  const unsigned rate = t->opt.sar ? t->lane_rate : 3;
  for (unsigned p = 0; p < t->P; p++) {
    if (lrnd_below(t, 1000) >= rate) continue;
    t->lane[p] = lane_word(t);
    in->cnm_mask |= 1ULL << p;
    t->lane_words++;
  }
  in->cnm = t->lane;
}

/* §17.8 counter totals: every counter and adaptive_choices read each cycle (before the
 * step), a value below the last one was cleared. */
static void sar_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in) {
  (void)cycle;
  (void)in;
  if (!t->opt.sar) return;
  for (unsigned p = 0; p < t->P; p++)
    for (unsigned k = 0; k <= ASW_SCNT_NUM; k++) {
      uint32_t v = rd(t, k < ASW_SCNT_NUM ? ASW_REG_SAR_COUNTER(p, k)
                                          : ASW_REG_COUNTER(p, ASW_CNT_ADAPTIVE));
      uint32_t last = t->sar_last[p][k];
      t->sar_tot[k] += v >= last ? v - last : v;
      t->sar_last[p][k] = v;
    }
}

void tb_sar_report(const tb_traffic *t, char *buf, size_t len) {
  const uint64_t *c = t->sar_tot;
  snprintf(buf, len, "sar rx %llu tx %llu dropped %llu unroutable %llu evicted %llu expired %llu "
           "steered %llu lane %llu", (unsigned long long)c[ASW_SCNT_RX],
           (unsigned long long)c[ASW_SCNT_TX], (unsigned long long)c[ASW_SCNT_DROPPED],
           (unsigned long long)c[ASW_SCNT_UNROUTABLE], (unsigned long long)c[ASW_SCNT_EVICTED],
           (unsigned long long)c[ASW_SCNT_EXPIRED], (unsigned long long)c[ASW_SCNT_NUM],
           (unsigned long long)t->lane_words);
}

/* CNM destinations with multipath entries (the ARN pool's if there is one), then the
 * registers. */
static int sar_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  if (!t->opt.sar) return 0;
  if (!t->npool) bad |= tb_program_pool(t, cap, t->cfg.sar_entries + 4);
  bad |= script_push(t, cap, ASW_REG_SAR_TTL, sar_ttl_value(t));
  bad |= script_push(t, cap, ASW_REG_SAR_SEED, (uint32_t)rnd(t) & 0xFFFFu);
  bad |= script_push(t, cap, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 1));
  return bad;
}
static unsigned sar_write_pct(const tb_traffic *t) { return t->opt.sar ? 12 : 0; }
static unsigned sar_read_pct(const tb_traffic *t) { return t->opt.sar ? 30 : 0; }
/* Registers, counters, entries (one beyond SE). */
static uint32_t sar_read(tb_traffic *t) {
  unsigned k = rnd_below(t, 10);
  return k < 4 ? ASW_REG_SAR_COUNTER(rnd_below(t, t->P), rnd_below(t, 8))
       : k < 8 ? ASW_REG_SAR_ENTRY(rnd_below(t, t->cfg.sar_entries + 1), rnd_below(t, 2))
       : k < 9 ? ASW_REG_SAR_CTRL + rnd_below(t, 3) : ASW_REG_PARAM3;
}
const tb_feature tb_feat_sar = {.name = "sar", .program = sar_program,
                                .write_pct = sar_write_pct, .write = sar_random_write,
                                .read_pct = sar_read_pct, .read = sar_read,
                                .observe = sar_observe};
