/* tb_traffic.c — co-simulation stimulus, see tb_traffic.h. */
#include "tb_traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const routing_names[TB_ROUTE_N] = {"det", "obl", "ada", "th", "2th"};
static const char *const vcmap_names[TB_VC_N] = {"id", "sl", "obqa", "afi", "obqa-afi"};
static const char *const scen_names[TB_SCEN_N] = {"random", "hotspot", "full",  "zerocred",
                                                  "len1",   "lenmax",  "rewrite", "proto"};

static int find_name(const char *const *names, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], s) == 0) return i;
  return -1;
}
int tb_routing_from_name(const char *s) { return find_name(routing_names, TB_ROUTE_N, s); }
int tb_vcmap_from_name(const char *s) { return find_name(vcmap_names, TB_VC_N, s); }
int tb_scenario_from_name(const char *s) { return find_name(scen_names, TB_SCEN_N, s); }
const char *tb_routing_name(unsigned r) { return r < TB_ROUTE_N ? routing_names[r] : "?"; }
const char *tb_vcmap_name(unsigned v) { return v < TB_VC_N ? vcmap_names[v] : "?"; }
const char *tb_scenario_name(unsigned s) { return s < TB_SCEN_N ? scen_names[s] : "?"; }

/* Phase kinds of the traffic pattern. */
enum { PH_NORMAL, PH_HOTSPOT, PH_WITHHOLD, PH_LEN1, PH_LENMAX, PH_IDLE, PH_N };

typedef struct {
  unsigned credits;   /* credits the sender holds for this VC */
  unsigned remaining; /* flits of the current packet still to send */
  unsigned next_len;  /* length of the next packet */
} sender_vc;

typedef struct {
  uint64_t due;
  uint8_t vc;
} pending_credit;

typedef struct {
  pending_credit *ring; /* FIFO of credits to return, due times non-decreasing */
  unsigned head, count, cap;
  int withhold;
} receiver;

struct tb_traffic {
  asw_config cfg;
  tb_opts opt;
  unsigned P, V, NQ;
  uint64_t rng;
  uint64_t payload_mask;
  /* per-cycle buffers */
  asw_flit *flit;
  uint8_t *credit_vc;
  uint32_t *arn;
  /* traffic state */
  sender_vc *snd; /* [P*V] */
  uint16_t *seq;  /* [P] */
  receiver *rcv;  /* [P] */
  unsigned phase, phase_left;
  double load;
  unsigned max_delay;
  unsigned hot_dest;
  uint64_t drain_from;
  /* register programming script: (addr, data) pairs written one per cycle */
  uint32_t *script;
  unsigned script_len, script_pos;
  unsigned reg_rate;     /* 1 in reg_rate cycles has a random register access */
  unsigned rewrite_rate; /* share of writes among those accesses, in % */
  tb_stats st;
  uint64_t outstanding; /* flits sent and not yet out of the switch */
  uint8_t *was_full;    /* [P*V] */
  uint64_t proto_at;    /* planned / done protocol violation cycle */
  int proto_done;
};

/* ---- random numbers (xorshift64*) --------------------------------------- */
static uint64_t rnd(tb_traffic *t) {
  t->rng ^= t->rng >> 12;
  t->rng ^= t->rng << 25;
  t->rng ^= t->rng >> 27;
  return t->rng * 0x2545F4914F6CDD1DULL;
}
static unsigned rnd_below(tb_traffic *t, unsigned n) { return n ? (unsigned)(rnd(t) % n) : 0; }
static int chance(tb_traffic *t, unsigned percent) { return rnd_below(t, 100) < percent; }

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
  unsigned mask = 0xFF, stage = 1, delta = 1;
  if (vary) {
    if (chance(t, 30)) delta = 1 + rnd_below(t, 4);
    if (chance(t, 5)) delta = 1 + rnd_below(t, 127);
    if (chance(t, 20)) stage = 1 + rnd_below(t, 15);
    if (chance(t, 20)) mask = rnd_below(t, 256);
  }
  return asw_route_ctrl(mode, trig, mask, stage, delta);
}

static uint32_t vc_ctrl_value(const tb_traffic *t) {
  switch (t->opt.vcmap) {
  case TB_VC_OBQA: return 1;
  case TB_VC_AFI: return 2;
  case TB_VC_OBQA_AFI: return 3;
  default: return 0;
  }
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
    return (uint32_t)rnd(t) & (0x3Fu | 0x3Fu << 8 | 3u << 16 | 1u << 30);
  return asw_fwd_entry(rnd_below(t, t->P), rnd_below(t, 64), rnd_below(t, 4), chance(t, 75));
}

static uint32_t sl2vc_value(tb_traffic *t, unsigned s) {
  return t->opt.vcmap == TB_VC_ID ? s % t->V : rnd_below(t, t->V);
}

/* An illegal write (contract §11): must be rejected and counted. */
static void illegal_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  switch (rnd_below(t, 12)) {
  case 8: *a = ASW_REG_VC_CTRL; *d = vc_ctrl_value(t) | 4u; break;
  case 9: *a = ASW_REG_DEFAULT_PORT; *d = 0x40u | rnd_below(t, t->P); break;
  case 10: *a = ASW_REG_CSET(rnd_below(t, 4), 1); *d = t->P <= 32 ? 1u : (t->P < 64 ? 1u << (t->P - 32) : 0);
    if (t->P == 64) *a = ASW_REG_PARAM0;
    break;
  case 11: *a = 0x30000u + rnd_below(t, 0x1000); *d = (uint32_t)rnd(t); break; /* unmapped */
  case 0: *a = ASW_REG_ROUTE_CTRL; *d = asw_route_ctrl(3, 0, 0xFF, 1, 1); break;
  case 1: *a = ASW_REG_ROUTE_CTRL; *d = asw_route_ctrl(0, 0, 0xFF, 0, 1); break;
  case 2: *a = ASW_REG_THRESH; *d = 5u | (2u << 16); break;
  case 3: *a = ASW_REG_DEFAULT_PORT; *d = t->P + rnd_below(t, 8); break;
  case 4: *a = ASW_REG_SL2VC(rnd_below(t, t->P), rnd_below(t, 16)); *d = t->V + rnd_below(t, 3); break;
  case 5: *a = ASW_REG_FWD(rnd_below(t, t->cfg.table_entries)); *d = fwd_value(t) | (1u << 20); break;
  case 6: *a = ASW_REG_COUNTER(rnd_below(t, t->P), rnd_below(t, 8)); *d = 1; break;
  default: *a = ASW_REG_CSET(rnd_below(t, 4), 0); *d = t->P < 32 ? (1u << t->P) : 0; 
    if (t->P >= 32) *a = ASW_REG_ID;
    break;
  }
}

static void random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
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
      *d = (*d & ~0xFu) | rnd_below(t, 3) | (rnd_below(t, 3) << 2);
  } else if (k < 80 && t->opt.scenario == TB_SCEN_REWRITE) {
    *a = ASW_REG_VC_CTRL;
    *d = rnd_below(t, t->V >= 2 ? 4 : 2);
  } else if (k < 83) {
    *a = ASW_REG_LFSR_SEED;
    *d = (uint32_t)rnd(t);
  } else if (k < 88) {
    *a = ASW_REG_DEFAULT_PORT;
    *d = rnd_below(t, t->P);
  } else if (k < 90) {
    *a = ASW_REG_CNT_CLEAR;
    *d = (uint32_t)rnd(t);
  } else {
    illegal_write(t, a, d);
  }
}

static uint32_t random_read_addr(tb_traffic *t) {
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
  return (uint32_t)rnd(t) & 0xFFFFFu; /* mostly unmapped */
}

/* ---- setup -------------------------------------------------------------- */
static int script_push(tb_traffic *t, unsigned cap, uint32_t a, uint32_t d) {
  if (t->script_len + 2 > cap) return -1;
  t->script[t->script_len++] = a;
  t->script[t->script_len++] = d;
  return 0;
}

tb_traffic *tb_new(const asw_config *cfg, const tb_opts *o, char *err, size_t errlen) {
  if (asw_config_check(cfg, err, errlen) != ASW_OK) return NULL;
  if (o->routing >= TB_ROUTE_N || o->vcmap >= TB_VC_N || o->scenario >= TB_SCEN_N) {
    snprintf(err, errlen, "unknown routing/vcmap/scenario option");
    return NULL;
  }
  if ((o->vcmap == TB_VC_AFI || o->vcmap == TB_VC_OBQA_AFI) && cfg->vcs < 2) {
    snprintf(err, errlen, "VCMAP=%s needs V >= 2 (the adapted-flow channel is VC V-1)",
             vcmap_names[o->vcmap]);
    return NULL;
  }
  tb_traffic *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->cfg = *cfg;
  t->opt = *o;
  t->P = cfg->ports;
  t->V = cfg->vcs;
  t->NQ = cfg->voq ? t->P : 1;
  t->rng = o->seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
  if (t->rng == 0) t->rng = 1;
  t->payload_mask = cfg->payload_bits >= 64 ? ~0ULL : ((1ULL << cfg->payload_bits) - 1);
  t->flit = calloc(t->P, sizeof *t->flit);
  t->credit_vc = calloc(t->P, 1);
  t->arn = calloc(t->P, sizeof *t->arn);
  t->snd = calloc((size_t)t->P * t->V, sizeof *t->snd);
  t->seq = calloc(t->P, sizeof *t->seq);
  t->was_full = calloc((size_t)t->P * t->V, 1);
  t->rcv = calloc(t->P, sizeof *t->rcv);
  unsigned cap = 2 * (16 + 8 + t->P * 16 + cfg->table_entries);
  t->script = calloc(cap, sizeof *t->script);
  if (!t->flit || !t->credit_vc || !t->arn || !t->snd || !t->seq || !t->rcv || !t->script ||
      !t->was_full) {
    tb_free(t);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  for (unsigned p = 0; p < t->P; p++) {
    t->rcv[p].cap = t->V * cfg->buf_flits + 1;
    t->rcv[p].ring = calloc(t->rcv[p].cap, sizeof *t->rcv[p].ring);
    if (!t->rcv[p].ring) {
      tb_free(t);
      snprintf(err, errlen, "out of memory");
      return NULL;
    }
    for (unsigned v = 0; v < t->V; v++) {
      t->snd[p * t->V + v].credits = cfg->buf_flits;
      t->snd[p * t->V + v].next_len = 1;
    }
  }
  /* Programming script: everything through the register bus. */
  int bad = 0;
  bad |= script_push(t, cap, ASW_REG_ROUTE_CTRL, route_ctrl_value(t, 0));
  bad |= script_push(t, cap, ASW_REG_VC_CTRL, vc_ctrl_value(t));
  bad |= script_push(t, cap, ASW_REG_THRESH, thresh_value(t));
  bad |= script_push(t, cap, ASW_REG_LFSR_SEED, (uint32_t)rnd(t) & 0xFFFFu);
  bad |= script_push(t, cap, ASW_REG_DEFAULT_PORT, rnd_below(t, t->P));
  for (unsigned c = 0; c < 4; c++) {
    bad |= script_push(t, cap, ASW_REG_CSET(c, 0), cset_value(t, 0));
    if (t->P > 32) bad |= script_push(t, cap, ASW_REG_CSET(c, 1), cset_value(t, 1));
  }
  if (o->vcmap != TB_VC_ID)
    for (unsigned p = 0; p < t->P; p++)
      for (unsigned s = 0; s < 16; s++) bad |= script_push(t, cap, ASW_REG_SL2VC(p, s), sl2vc_value(t, s));
  for (unsigned d = 0; d < cfg->table_entries; d++) {
    uint32_t e = fwd_value(t);
    if (chance(t, 2)) e = 0;
    bad |= script_push(t, cap, ASW_REG_FWD(d), e);
  }
  if (bad) {
    tb_free(t);
    snprintf(err, errlen, "internal: programming script overflow");
    return NULL;
  }
  uint64_t drain = o->cycles / 5;
  if (drain < 200) drain = 200;
  if (drain > 3000) drain = 3000;
  t->drain_from = o->cycles > drain ? o->cycles - drain : 0;
  t->proto_at = t->script_len / 2 + 500 + rnd_below(t, 1000);
  t->reg_rate = o->scenario == TB_SCEN_REWRITE ? 4 : 16;
  t->rewrite_rate = o->scenario == TB_SCEN_REWRITE ? 70 : 25;
  return t;
}

void tb_free(tb_traffic *t) {
  if (!t) return;
  if (t->rcv)
    for (unsigned p = 0; p < t->P; p++) free(t->rcv[p].ring);
  free(t->rcv);
  free(t->flit);
  free(t->credit_vc);
  free(t->arn);
  free(t->snd);
  free(t->seq);
  free(t->was_full);
  free(t->script);
  free(t);
}

/* ---- phases ------------------------------------------------------------ */
static void new_phase(tb_traffic *t) {
  unsigned kind;
  switch (t->opt.scenario) {
  case TB_SCEN_HOTSPOT: kind = PH_HOTSPOT; break;
  case TB_SCEN_FULL: kind = chance(t, 50) ? PH_HOTSPOT : PH_NORMAL; break;
  case TB_SCEN_ZEROCRED: kind = chance(t, 60) ? PH_WITHHOLD : PH_NORMAL; break;
  case TB_SCEN_LEN1: kind = PH_LEN1; break;
  case TB_SCEN_LENMAX: kind = PH_LENMAX; break;
  case TB_SCEN_REWRITE: kind = PH_NORMAL; break;
  default: kind = rnd_below(t, PH_N); break;
  }
  t->phase = kind;
  t->phase_left = 300 + rnd_below(t, 2000);
  t->load = (double)(30 + rnd_below(t, 71)) / 100.0;
  t->max_delay = rnd_below(t, 12);
  if (t->opt.scenario == TB_SCEN_FULL) {
    t->load = 1.0;
    t->max_delay = 10 + rnd_below(t, 40);
  }
  if (kind == PH_LEN1 || kind == PH_LENMAX || kind == PH_HOTSPOT) t->load = 1.0;
  if (kind == PH_IDLE) t->load = 0.0;
  t->hot_dest = rnd_below(t, t->cfg.table_entries);
  for (unsigned p = 0; p < t->P; p++) {
    /* withhold: all outputs in ZEROCRED, a random subset in a random run */
    t->rcv[p].withhold =
        kind == PH_WITHHOLD && (t->opt.scenario == TB_SCEN_ZEROCRED || chance(t, 50));
  }
}

static unsigned draw_len(tb_traffic *t) {
  unsigned lmax = t->cfg.max_packet;
  if (t->phase == PH_LEN1) return 1;
  if (t->phase == PH_LENMAX) return lmax;
  if (chance(t, 20)) return chance(t, 50) ? 1 : lmax;
  return 1 + rnd_below(t, lmax);
}

static uint64_t draw_header(tb_traffic *t, unsigned p, unsigned len) {
  unsigned table = t->cfg.table_entries;
  unsigned dest;
  if (t->phase == PH_HOTSPOT)
    dest = t->hot_dest;
  else if (chance(t, 2) && table < (1u << t->cfg.dest_bits))
    dest = table + rnd_below(t, (1u << t->cfg.dest_bits) - table); /* beyond the table */
  else
    dest = rnd_below(t, table);
  unsigned adapted = (t->opt.vcmap == TB_VC_AFI || t->opt.vcmap == TB_VC_OBQA_AFI) ? chance(t, 15)
                                                                                  : chance(t, 3);
  return asw_hdr_make(dest, p, rnd_below(t, 16), len, adapted, rnd_below(t, 8), t->seq[p]++);
}

/* ---- per cycle -------------------------------------------------------------- */
void tb_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in) {
  memset(in, 0, sizeof *in);
  in->flit = t->flit;
  in->credit_vc = t->credit_vc;
  in->arn = t->arn;
  int programming = t->script_pos < t->script_len;
  int draining = cycle >= t->drain_from;
  if (!programming && t->phase_left == 0) new_phase(t);
  if (!programming && t->phase_left) t->phase_left--;

  /* senders */
  for (unsigned p = 0; p < t->P && !programming; p++) {
    sender_vc *s = &t->snd[p * t->V];
    unsigned cand[8], n = 0;
    int want_new = !draining && t->load > 0 && (double)(rnd(t) >> 11) / 9007199254740992.0 < t->load;
    for (unsigned v = 0; v < t->V; v++) {
      if (s[v].remaining) {
        /* a packet in progress continues, with random gaps */
        if (want_new || draining || chance(t, 50)) cand[n++] = v;
      } else if (want_new && s[v].credits >= s[v].next_len) {
        cand[n++] = v;
      }
    }
    if (!n) continue;
    unsigned v = cand[rnd_below(t, n)];
    asw_flit *f = &t->flit[p];
    memset(f, 0, sizeof *f);
    f->valid = 1;
    f->vc = (uint8_t)v;
    f->payload = rnd(t) & t->payload_mask;
    if (!s[v].remaining) {
      unsigned len = s[v].next_len;
      f->head = 1;
      f->hdr = draw_header(t, p, len);
      s[v].remaining = len;
      s[v].credits -= len;
      s[v].next_len = draw_len(t);
      t->st.packets_sent++;
    } else if (chance(t, 10)) {
      f->hdr = rnd(t); /* junk header on a body flit: the switch must output 0 */
    }
    s[v].remaining--;
    f->tail = s[v].remaining == 0;
    in->flit_mask |= 1ULL << p;
    t->st.flits_sent++;
    t->outstanding++;
  }

  /* negative test: a body flit on a VC with no packet in progress */
  if (t->opt.scenario == TB_SCEN_PROTO && !t->proto_done && !programming && cycle >= t->proto_at) {
    for (unsigned v = 0; v < t->V && !t->proto_done; v++) {
      if (t->snd[v].remaining || ((in->flit_mask & 1) && t->flit[0].vc == v)) continue;
      asw_flit *f = &t->flit[0];
      memset(f, 0, sizeof *f);
      f->valid = 1;
      f->tail = 1;
      f->vc = (uint8_t)v;
      in->flit_mask |= 1;
      t->proto_done = 1;
      t->proto_at = cycle;
    }
  }

  /* receivers return credits */
  for (unsigned o = 0; o < t->P; o++) {
    receiver *r = &t->rcv[o];
    if (!r->count || (r->withhold && !draining)) continue;
    pending_credit *c = &r->ring[r->head];
    if (c->due > cycle) continue;
    t->credit_vc[o] = c->vc;
    in->credit_mask |= 1ULL << o;
    r->head = (r->head + 1) % r->cap;
    r->count--;
  }

  /* ARN inputs are reserved and ignored: drive junk to check that. */
  if (chance(t, 5)) {
    unsigned o = rnd_below(t, t->P);
    in->arn_mask |= 1ULL << o;
    t->arn[o] = (uint32_t)rnd(t);
  }

  /* register bus */
  if (programming) {
    in->reg_en = 1;
    in->reg_we = 1;
    in->reg_addr = t->script[t->script_pos];
    in->reg_wdata = t->script[t->script_pos + 1];
    t->script_pos += 2;
    t->st.reg_writes++;
  } else if (rnd_below(t, t->reg_rate) == 0) {
    in->reg_en = 1;
    if (chance(t, t->rewrite_rate)) {
      in->reg_we = 1;
      random_write(t, &in->reg_addr, &in->reg_wdata);
      t->st.reg_writes++;
    } else {
      in->reg_addr = random_read_addr(t);
      in->reg_wdata = (uint32_t)rnd(t); /* ignored on reads */
      t->st.reg_reads++;
    }
  }
}

void tb_outputs(tb_traffic *t, uint64_t cycle, const asw_outputs *out) {
  for (unsigned o = 0; o < t->P; o++) {
    if (!((out->flit_mask >> o) & 1)) continue;
    receiver *r = &t->rcv[o];
    uint64_t due = cycle + 1 + rnd_below(t, t->max_delay + 1);
    if (r->count) {
      uint64_t last = r->ring[(r->head + r->count - 1) % r->cap].due;
      if (due < last) due = last;
    }
    if (r->count < r->cap) {
      r->ring[(r->head + r->count) % r->cap] = (pending_credit){due, out->flit[o].vc};
      r->count++;
    }
    t->st.flits_recv++;
    if (--t->outstanding == 0) t->st.drains++;
  }
  for (unsigned p = 0; p < t->P; p++)
    if ((out->credit_mask >> p) & 1) t->snd[p * t->V + out->credit_vc[p]].credits++;
  for (unsigned k = 0; k < t->P * t->V; k++) {
    int full = t->snd[k].credits == 0;
    if (full && !t->was_full[k]) t->st.fills++;
    t->was_full[k] = (uint8_t)full;
  }
}

int tb_check_end(const tb_traffic *t, char *msg, size_t msglen) {
  if (t->st.flits_sent != t->st.flits_recv) {
    snprintf(msg, msglen, "conservation: %llu flits sent, %llu received after the drain",
             (unsigned long long)t->st.flits_sent, (unsigned long long)t->st.flits_recv);
    return -1;
  }
  for (unsigned p = 0; p < t->P; p++) {
    for (unsigned v = 0; v < t->V; v++) {
      const sender_vc *s = &t->snd[p * t->V + v];
      if (s->remaining || s->credits != t->cfg.buf_flits) {
        snprintf(msg, msglen, "input %u VC %u: %u credits back of %u (%u flits unsent)", p, v,
                 s->credits, t->cfg.buf_flits, s->remaining);
        return -1;
      }
    }
  }
  return 0;
}

uint64_t tb_proto_cycle(const tb_traffic *t) { return t->proto_done ? t->proto_at : UINT64_MAX; }

void tb_get_stats(const tb_traffic *t, tb_stats *s) { *s = t->st; }
