/* tb_traffic.c — co-simulation stimulus, see tb_traffic.h. */
#include "tb_traffic.h"


#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const routing_names[TB_ROUTE_N] = {"det", "obl", "ada", "th", "2th"};
static const char *const vcmap_names[TB_VC_N] = {"id", "sl", "obqa", "afi", "obqa-afi"};
static const char *const scen_names[TB_SCEN_N] = {
    "random", "hotspot", "full",   "zerocred", "len1", "lenmax", "rewrite", "proto",
    "refresh", "replace", "adapted", "consume", "evict", "drop", "branch", "hyst",
    "fcth",    "crt",     "root",    "clear"};
static const char *const arn_names[TB_ARN_N] = {"off", "arn", "afi", "adaptive-th-afi"};

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
int tb_arn_from_name(const char *s) { return find_name(arn_names, TB_ARN_N, s); }
const char *tb_arn_name(unsigned a) { return a < TB_ARN_N ? arn_names[a] : "?"; }
const char *tb_scenario_list(void) {
  static char buf[512];
  if (!buf[0])
    for (int i = 0; i < TB_SCEN_N; i++) {
      strcat(buf, scen_names[i]);
      if (i + 1 < TB_SCEN_N) strcat(buf, " ");
    }
  return buf;
}
static int parse_num(const char *s, unsigned long long max, unsigned long long *out) {
  char *end = NULL;
  if (!s || !*s || *s == '-') return -1;
  errno = 0;
  unsigned long long n = strtoull(s, &end, 0);
  if (*end || errno || n > max) return -1; /* errno: beyond 64 bits (ERANGE) */
  *out = n;
  return 0;
}

int tb_parse_opt(tb_opts *o, const char *name, const char *val, char *err, size_t errlen) {
  static const struct { const char *name; size_t off; unsigned long long max; } nums[] = {
      {"--hcdth", offsetof(tb_opts, hcdth), 0xFFFF}, {"--lcdth", offsetof(tb_opts, lcdth), 0xFFFF},
      {"--fcth", offsetof(tb_opts, fcth), 0xFFFF},   {"--crt", offsetof(tb_opts, crt), 0xFFFFFF},
      {"--ttl", offsetof(tb_opts, ttl), 0xFFFFFF},   {"--stage", offsetof(tb_opts, stage), 15},
      {"--arnx", offsetof(tb_opts, arnx), 3}};
  unsigned long long n;
  int idx;
  if (!strcmp(name, "--routing") || !strcmp(name, "--vcmap") || !strcmp(name, "--scen") ||
      !strcmp(name, "--arn")) {
    int r = name[2] == 'r' && name[3] == 'o' ? 0 : name[2] == 'v' ? 1 : name[2] == 's' ? 2 : 3;
    idx = !val ? -1 : r == 0 ? tb_routing_from_name(val) : r == 1 ? tb_vcmap_from_name(val)
        : r == 2 ? tb_scenario_from_name(val) : tb_arn_from_name(val);
    if (idx < 0) {
      static const char *const lists[3] = {"det obl ada th 2th", "id sl obqa afi obqa-afi",
                                           "off arn afi adaptive-th-afi"};
      snprintf(err, errlen, "%s: unknown value '%s' (one of %s)", name, val ? val : "",
               r == 2 ? tb_scenario_list() : lists[r == 3 ? 2 : r]);
      return -1;
    }
    if (r == 0) o->routing = (unsigned)idx;
    else if (r == 1) o->vcmap = (unsigned)idx;
    else if (r == 2) o->scenario = (unsigned)idx;
    else o->arn = (unsigned)idx;
    return 1;
  }
  if (!strcmp(name, "--seed") || !strcmp(name, "--cycles")) {
    if (parse_num(val, ~0ULL, &n)) {
      snprintf(err, errlen, "%s: not a number: '%s'", name, val ? val : "");
      return -1;
    }
    if (name[2] == 's') o->seed = n;
    else o->cycles = n;
    return 1;
  }
  if (!strcmp(name, "--linkfault")) {
    char *end = NULL;
    double r = val && *val ? strtod(val, &end) : -1.0;
    if (!val || !*val || *end || !(r >= 0.0 && r <= 1.0)) {
      snprintf(err, errlen, "--linkfault: a probability per link and cycle in 0..1, not '%s'",
               val ? val : "");
      return -1;
    }
    o->linkfault = r;
    return 1;
  }
  if (!strcmp(name, "--bubble") || !strcmp(name, "--qcn") || !strcmp(name, "--hash") ||
      !strcmp(name, "--gap") || !strcmp(name, "--vcadapt") || !strcmp(name, "--sar")) {
    if (parse_num(val, 1, &n)) {
      snprintf(err, errlen, "%s: 0 or 1, not '%s'", name, val ? val : "");
      return -1;
    }
    if (name[2] == 'b') o->bubble = (unsigned)n;
    else if (name[2] == 'q') o->qcn = (unsigned)n;
    else if (name[2] == 'h') o->hash = (unsigned)n;
    else if (name[2] == 'v') o->vcadapt = (unsigned)n;
    else if (name[2] == 's') o->sar = (unsigned)n;
    else o->gap = (unsigned)n;
    return 1;
  }
  if (!strcmp(name, "--up") || !strcmp(name, "--pfc")) {
    if (parse_num(val, ~0ULL, &n)) {
      snprintf(err, errlen, "%s: not a port mask: '%s'", name, val ? val : "");
      return -1;
    }
    if (name[2] == 'u') o->up = (int64_t)n;
    else o->pfc = n;
    return 1;
  }
  for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
    if (!strcmp(name, nums[k].name)) {
      if (parse_num(val, nums[k].max, &n)) {
        snprintf(err, errlen, "%s: not a number in 0..%llu: '%s'", name, nums[k].max, val ? val : "");
        return -1;
      }
      *(long *)((char *)o + nums[k].off) = (long)n;
      return 1;
    }
  return 0;
}

void tb_opts_default(tb_opts *o) {
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->cycles = 20000;
  o->hcdth = o->lcdth = o->fcth = o->crt = o->ttl = o->stage = o->arnx = -1;
  o->up = -1;
}

/* Phase kinds of the traffic pattern (PH_ARNBURST only with ARN on). */
enum { PH_NORMAL, PH_HOTSPOT, PH_WITHHOLD, PH_LEN1, PH_LENMAX, PH_IDLE, PH_N, PH_ARNBURST = PH_N };

/* §15 constants (contract §15.1) and the directed scenarios' destinations. */
enum { AQ = 4 };
enum { D_MP = 0, D_NOMP = 1, D_ONLY = 2, D_HOT = 3, D_A = 4, D_B = 5, D_C = 6, D_D = 7, D_N = 8 };
#define POOL_MAX 36

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
  unsigned maxd; /* directed scenarios: per-output credit delay */
} receiver;

typedef struct {
  uint16_t dest, id;
  uint8_t vc, port;
} arn_key;

struct tb_traffic {
  asw_config cfg;
  tb_opts opt;
  uint32_t rh_cur;      /* §17.6: ROUTE_HASH as last written legally */
  uint64_t rh_heads[2]; /* heads arriving while it had kind 1 (flow hash), kind 2 (digit) */
  uint8_t gap[64];      /* §17.7: each output's GAP as last written legally */
  asw_switch *probe;    /* §17.6/§17.7 HASH, GAP: a switch of the same parameters that
                           says which ROUTE_HASH / PORT_GAP writes are legal */
  uint64_t gap_since[64]; /* cycle from which output o's GAP holds its value */
  uint64_t gap_last[64];  /* cycle of output o's last flit (0: none yet) */
  uint64_t gap_flits, gap_spaced;
  unsigned gap_clear;     /* §17.7: PORT_GAP registers set back to 0 for the drain (+1) */
  /* §16.3 (opt.vcadapt): heads arriving in mode 3, adaptive_choices totals accumulated at
   * CNT_CLEARs, heads leaving on det_port on a VC outside their entry's candidates */
  uint64_t vca_heads, vca_adaptive_acc, vca_fb_vc;
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
  /* §17.1 PFC ports (opt.pfc): a PFC sender's `credits` is its pause view (BUF
   * resumed, 0 paused); rpaused[o]: priorities the receiver on o holds paused */
  uint8_t *rpaused;
  unsigned pfc_xoff_max;
  uint8_t *was_full;    /* [P*V] */
  uint64_t proto_at;    /* planned / done protocol violation cycle */
  int proto_done;
  uint64_t now;
  /* ---- §15 ---- */
  unsigned AE;
  int arn_on;             /* ARN=arn|afi */
  unsigned arnx;          /* ARN_CTRL [4:3] options of this run */
  uint32_t arn_ctrl_cfg;  /* the configured ARN_CTRL value */
  uint64_t restore_at;    /* restore ARN_CTRL after a mode-0 clear (0: none) */
  unsigned stage;         /* ROUTE_CTRL.stage as last written */
  unsigned npool;
  uint16_t pool[POOL_MAX]; /* destinations of ARN traffic (and much data traffic) */
  unsigned nkeys;
  arn_key keys[POOL_MAX];
  unsigned arn_rate;      /* % of cycles with an ARN message (random) */
  unsigned burst_left;    /* cycles left of a burst of ARN messages */
  unsigned sweep;         /* >0: next register of the §15 read sweep, 1-based */
  const asw_switch *ref;
  uint64_t acc[ASW_ACNT_NUM]; /* counter totals accumulated at CNT_CLEARs */
  uint64_t arn_out_msgs, marked;
  uint8_t *sent_adapted;  /* [P][65536/8]: adapted bit sent, by (src, seq) */
  char fail[320];         /* first failed assertion */
  /* ---- directed scenarios ---- */
  int directed;
  uint64_t s0;            /* first cycle after programming */
  int done;               /* the scenario's script reached its end */
  uint32_t wq[32];        /* register writes to issue, (addr, data) pairs */
  unsigned wq_n, wq_pos;
  uint64_t dsrc;          /* inputs sending */
  uint16_t ddest[64];
  uint8_t dvc[64];
  unsigned dsl, dadapted, dlen_lo, dlen_hi;
  double dload;
  uint64_t v[32];         /* scenario scratch */
  uint32_t arn_in_now[64];
  uint64_t arn_in_mask;
  /* branch scenario tallies */
  uint64_t br_pk[4], br_ok[4], br_msgs;
  /* hysteresis model */
  uint16_t *h_occ;
  uint8_t *h_hot;
  /* own models of the directed scenarios */
  int mkey[32];           /* evict: key in each table entry (-1 none) */
  uint64_t mwr[32];       /* evict: cycle of its last write/refresh */
  uint64_t mev;           /* evict: expected evictions */
  unsigned mq[65], mptr;  /* drop: event FIFO fill, ev_ptr */
  uint64_t mdrop[64];     /* drop: expected drops per output */
  uint64_t mcnt[ASW_ACNT_NUM];
  uint32_t mhist[64];     /* crt: timer history */
  /* ---- §16.1 bubble flow control ---- */
  uint64_t bacc[ASW_BCNT_NUM]; /* counter totals accumulated at CNT_CLEARs */
  /* ---- §18 link faults (opt.linkfault) ---- */
  uint64_t lf_up, lf_rx_up; /* the pins of this cycle */
  uint64_t *lf_until;       /* [2P]: cycle output p (p) / input p (P + p) comes back up */
  uint8_t *rrem;            /* [P*V]: receiver on output o, VC v: flits due of its packet */
  uint64_t lf_downs;        /* links taken down */
  uint64_t lf_in_pad;       /* flits of packets cut on a down input: the switch pads them */
  uint64_t lf_out_pad;      /* flits the receivers padded (cut packets on down outputs) */
  /* ---- §17.8 Switch AR: the CNM lane (its own random stream, so the rest of the stimulus
   * is that of a switch without it) and, with opt.sar, the counter totals ---- */
  uint64_t lrng;
  uint64_t *lane;           /* [P] words on cnm_in this cycle */
  unsigned lane_rate;       /* per mille per port and cycle */
  unsigned lane_left;       /* cycles left at this rate */
  uint64_t lane_words;
  uint32_t sar_last[64][ASW_SCNT_NUM + 1]; /* counters (and adaptive_choices) last seen */
  uint64_t sar_tot[ASW_SCNT_NUM + 1];
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

/* ---- observation of the C model (register reads, no time advance) ---------- */
static void failf(tb_traffic *t, const char *fmt, ...) {
  if (t->fail[0]) return;
  char m[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  snprintf(t->fail, sizeof t->fail, "cycle %llu (scenario cycle %lld): %s",
           (unsigned long long)t->now, (long long)(t->now - t->s0), m);
}
static uint32_t rd(const tb_traffic *t, uint32_t a) {
  uint32_t d = 0;
  if (t->ref) asw_reg_read(t->ref, a, &d);
  return d;
}
static uint64_t cnt(const tb_traffic *t, unsigned p, unsigned k) {
  return rd(t, ASW_REG_ARN_COUNTER(p, k));
}
static uint64_t csum(const tb_traffic *t, unsigned k) {
  uint64_t s = 0;
  for (unsigned p = 0; p < t->P; p++) s += cnt(t, p, k);
  return s;
}
static uint64_t port_mask(const tb_traffic *t) { return t->P >= 64 ? ~0ULL : (1ULL << t->P) - 1; }

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

/* §17.8 register writes: SAR_CTRL (en mostly 1, steer mostly 1; en = 0 clears the table),
 * SAR_TTL (small TTL and TS: entries expire), SAR_SEED, and illegal ones (bits above the
 * fields, TTL 0, TS > 24, the read-only counters, SAR_ENTRY and PARAM3). */
static uint32_t sar_ttl_value(tb_traffic *t) {
  return asw_sar_ttl(1 + (chance(t, 70) ? rnd_below(t, 24) : rnd_below(t, 300)),
                     chance(t, 40) ? 0 : rnd_below(t, 6));
}
static void sar_random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  switch (rnd_below(t, 14)) {
  case 0: case 1: case 2: case 3:
    *a = ASW_REG_SAR_CTRL;
    *d = asw_sar_ctrl(!chance(t, 12), !chance(t, 20));
    break;
  case 4: case 5: case 6: *a = ASW_REG_SAR_TTL; *d = sar_ttl_value(t); break;
  case 7: case 8: *a = ASW_REG_SAR_SEED; *d = chance(t, 10) ? 0 : (uint32_t)rnd(t) & 0xFFFFu; break;
  case 9: *a = ASW_REG_SAR_CTRL; *d = asw_sar_ctrl(1, 1) | 4u << rnd_below(t, 30); break;
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

static void random_write(tb_traffic *t, uint32_t *a, uint32_t *d) {
  if (t->opt.sar && chance(t, 12)) { /* §17.8 */
    sar_random_write(t, a, d);
    return;
  }
  if (unbuilt_regs(t) && chance(t, 10)) { /* §1: writes to unmapped registers */
    *a = unbuilt_addr(t);
    *d = chance(t, 50) ? 0 : (uint32_t)rnd(t);
    return;
  }
  if (t->opt.pfc && chance(t, 15)) {
    pfc_random_write(t, a, d);
    return;
  }
  if (t->opt.qcn && chance(t, 15)) { /* §17.4 */
    qcn_random_write(t, a, d);
    return;
  }
  if (t->opt.hash && chance(t, 10)) { /* §17.6 rewrites, illegal values too */
    *a = ASW_REG_ROUTE_HASH;
    *d = chance(t, 20) ? hash_illegal(t) : hash_value(t);
    return;
  }
  if (t->opt.gap && !t->gap_clear && chance(t, 5)) { /* §17.7 rewrites, illegal values too */
    gap_write(t, a, d, chance(t, 20));
    return;
  }
  if (t->AE && chance(t, t->arn_on ? 25 : 10)) {
    arn_random_write(t, a, d);
    return;
  }
  if (t->opt.vcadapt && chance(t, 8)) { /* §16.3 fallback fields rewritten */
    *a = ASW_REG_VC_CTRL;
    *d = vc_ctrl_value(t) | vca_vc_ctrl_bits(t);
    return;
  }
  if (t->opt.bubble && chance(t, 10)) { /* §16.2 rewrites, illegal values too */
    *a = ASW_REG_BUBBLE(rnd_below(t, t->P));
    *d = chance(t, 15) ? bubble_illegal(t) : bubble_value(t);
    if (chance(t, 5)) *a = ASW_REG_BUBBLE_COUNTER(rnd_below(t, t->P), rnd_below(t, 2)); /* RO */
    return;
  }
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

static uint32_t random_read_addr(tb_traffic *t) {
  if (t->opt.sar && chance(t, 30)) { /* §17.8: registers, counters, entries (one beyond SE) */
    unsigned k = rnd_below(t, 10);
    return k < 4 ? ASW_REG_SAR_COUNTER(rnd_below(t, t->P), rnd_below(t, 8))
         : k < 8 ? ASW_REG_SAR_ENTRY(rnd_below(t, t->cfg.sar_entries + 1), rnd_below(t, 2))
         : k < 9 ? ASW_REG_SAR_CTRL + rnd_below(t, 3) : ASW_REG_PARAM3;
  }
  if (unbuilt_regs(t) && chance(t, 10)) return unbuilt_addr(t); /* §1: read 0 */
  if (t->opt.pfc && chance(t, 25)) { /* §17.2 */
    unsigned k = rnd_below(t, 10), p = rnd_below(t, t->P);
    return k < 4 ? ASW_REG_PFC_COUNTER(p, rnd_below(t, 4)) : k < 8 ? ASW_REG_PFC_STATE(p)
         : k < 9 ? ASW_REG_PFC_THRESH : ASW_REG_PFC_EN(rnd_below(t, 2));
  }
  if (t->opt.qcn && chance(t, 25)) return qcn_read_addr(t); /* §17.4 */
  if (t->opt.hash && chance(t, 10)) return ASW_REG_ROUTE_HASH; /* §17.6 */
  if (t->opt.gap && chance(t, 10)) return ASW_REG_PORT_GAP(rnd_below(t, 8)); /* §17.7 */
  if (t->AE && chance(t, t->directed ? 70 : 30)) return arn_read_addr(t);
  if (t->opt.linkfault > 0 && chance(t, 20)) /* §18.4 LINK_DOWN, LINK_RX_DOWN, counters */
    return ASW_REG_LINK_DOWN(0) + rnd_below(t, 8);
  if (t->opt.bubble && chance(t, 15))
    return chance(t, 40) ? ASW_REG_BUBBLE(rnd_below(t, t->P + 1))
                         : ASW_REG_BUBBLE_COUNTER(rnd_below(t, t->P), rnd_below(t, 2));
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

/* The §15 read sweep: every ARN counter, ARN_ENTRY word and ROOT word once
 * through the register bus, so the RTL's values are compared with the C
 * model's (at the drain of a run and at the end of a directed scenario).
 * Returns 0 past the last address. */
static uint32_t sweep_addr(const tb_traffic *t, unsigned k) {
  unsigned nc = t->P * ASW_ACNT_NUM, ne = t->AE * 3, nr = t->P * 2;
  if (k < nc) return ASW_REG_ARN_COUNTER(k / ASW_ACNT_NUM, k % ASW_ACNT_NUM);
  k -= nc;
  if (k < ne) return ASW_REG_ARN_ENTRY(k / 3, k % 3);
  k -= ne;
  if (k < nr) return ASW_REG_ROOT(k / 2, k % 2);
  return 0;
}

/* ---- setup -------------------------------------------------------------- */
static int script_push(tb_traffic *t, unsigned cap, uint32_t a, uint32_t d) {
  if (t->script_len + 2 > cap) return -1;
  t->script[t->script_len++] = a;
  t->script[t->script_len++] = d;
  return 0;
}

/* ==== directed §15 scenarios ================================================
 * Time e = cycle - s0 (s0: first cycle after the programming script). Each
 * scenario drives flows (inputs -> destination, VC), ARN messages and register
 * writes at fixed e, and checks the C model's counters and state (register
 * reads) against the contract and against its own small models. */
enum { MAXCRT = 0xFFFFFF };

static unsigned dmode(const tb_traffic *t) { return t->opt.arn == TB_ARN_AFI ? 2u : 1u; }
static unsigned davc(const tb_traffic *t) { return dmode(t) == 2 ? t->V - 1 : 0; }
static void dir_write(tb_traffic *t, uint32_t a, uint32_t d) {
  if (t->wq_n + 2 <= sizeof t->wq / sizeof t->wq[0]) {
    t->wq[t->wq_n++] = a;
    t->wq[t->wq_n++] = d;
  }
}
static void dir_msg(tb_traffic *t, asw_inputs *in, unsigned port, uint32_t msg) {
  t->arn[port] = msg;
  in->arn_mask |= 1ULL << port;
}
static void flow(tb_traffic *t, unsigned p, unsigned dest, unsigned vc) {
  t->dsrc |= 1ULL << p;
  t->ddest[p] = (uint16_t)dest;
  t->dvc[p] = (uint8_t)vc;
}
static void fast_receivers(tb_traffic *t, unsigned maxd) {
  for (unsigned o = 0; o < t->P; o++) {
    t->rcv[o].withhold = 0;
    t->rcv[o].maxd = maxd;
  }
}
/* Index of the valid entry {dest, port, vc}, -1 if none. */
static int find_entry(const tb_traffic *t, unsigned dest, unsigned port, unsigned vc) {
  for (unsigned k = 0; k < t->AE; k++) {
    uint32_t w = rd(t, ASW_REG_ARN_ENTRY(k, 0));
    if ((w >> 31) && (w & 0xFFFFu) == dest && (w >> 16 & 0x3Fu) == port && (w >> 22 & 7u) == vc)
      return (int)k;
  }
  return -1;
}
static unsigned valid_entries(const tb_traffic *t) {
  unsigned n = 0;
  for (unsigned k = 0; k < t->AE; k++) n += rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 31;
  return n;
}
/* selectAlternativeOport of §15.3 step 4 from register reads (CSET[0] = all
 * ports): the candidate != port with the most CRED[o][avc], first in the scan
 * order from det_port among equals. *differ: the candidates' credits differ. */
static int expected_alt(const tb_traffic *t, unsigned det, unsigned port, unsigned avc, int *differ) {
  int best = -1;
  uint32_t max = 0, min = UINT32_MAX;
  for (unsigned k = 0; k < t->P; k++) {
    unsigned o = (det + k) % t->P;
    if (o == port) continue;
    uint32_t c = rd(t, ASW_REG_CRED(o, avc));
    if (c < min) min = c;
    if (best < 0 || c > max) {
      best = (int)o;
      max = c;
    }
  }
  if (differ) *differ = min != max;
  return best;
}
static int check_entry(tb_traffic *t, const char *what, unsigned dest, unsigned port, unsigned vc,
                       int consumed) {
  int k = find_entry(t, dest, port, vc);
  if (k < 0) {
    failf(t, "%s: no valid ARN entry {dest %u, port %u, vc %u}", what, dest, port, vc);
    return -1;
  }
  unsigned c = rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 29 & 1u;
  if ((int)c != consumed) failf(t, "%s: entry %d consumed %u, expected %d", what, k, c, consumed);
  return k;
}

static void dir_thresholds(tb_traffic *t, unsigned *up_all, unsigned *h, unsigned *l,
                           unsigned *fc, unsigned *crt, unsigned *ttl) {
  unsigned buf = t->cfg.buf_flits, half = buf / 2 ? buf / 2 : 1;
  *up_all = 0;
  *h = buf;
  *l = buf;
  *fc = 0;
  *crt = MAXCRT;
  *ttl = 200;
  switch (t->opt.scenario) {
  case TB_SCEN_CONSUME: *ttl = 3000; break;
  case TB_SCEN_EVICT: *ttl = 400; break;
  case TB_SCEN_DROP: *ttl = 100; break;
  case TB_SCEN_BRANCH: *ttl = MAXCRT; break;
  case TB_SCEN_ADAPTED: *up_all = 1; *h = half; *l = 1; *crt = 8; break;
  case TB_SCEN_HYST:
    *h = (3 * buf) / 4 > 2 ? (3 * buf) / 4 : 2;
    *l = buf / 4 > 1 ? buf / 4 : 1;
    if (*l >= *h) *l = *h - 1;
    *ttl = 100;
    break;
  case TB_SCEN_FCTH: *h = half; *l = 1; *fc = buf / 4; *crt = 8; *ttl = 100; break;
  case TB_SCEN_CRT: *h = half; *l = 1; *crt = 12; *ttl = 100; break;
  case TB_SCEN_ROOT: *h = half; *l = 1; *crt = 10; *ttl = 60; break;
  case TB_SCEN_CLEAR: *up_all = 1; *h = half; *l = 1; *crt = 10; *ttl = 200; break;
  default: break;
  }
}

static int dir_program(tb_traffic *t, unsigned cap) {
  int bad = 0;
  unsigned P = t->P, up_all, h, l, fc, crt, ttl;
  bad |= script_push(t, cap, ASW_REG_ROUTE_CTRL, asw_route_ctrl(0, 0, 0xFF, t->stage));
  bad |= script_push(t, cap, ASW_REG_VC_CTRL, dmode(t) == 2 ? 2u : 0u);
  uint64_t all = port_mask(t);
  uint64_t cs[4] = {all, 1ULL << 2, 3ULL << 1, all & ~1ULL};
  for (unsigned c = 0; c < 4; c++) {
    bad |= script_push(t, cap, ASW_REG_CSET(c, 0), (uint32_t)cs[c]);
    if (P > 32) bad |= script_push(t, cap, ASW_REG_CSET(c, 1), (uint32_t)(cs[c] >> 32));
  }
  static const struct { unsigned det, cset, mp; } fwd[D_N] = {
      [D_MP] = {3, 0, 1}, [D_NOMP] = {1, 0, 0}, [D_ONLY] = {2, 1, 1}, [D_HOT] = {1, 0, 1},
      [D_A] = {1, 0, 0},  [D_B] = {2, 0, 0},    [D_C] = {3, 0, 0},    [D_D] = {0, 0, 1}};
  for (unsigned d = 0; d < D_N; d++)
    bad |= script_push(t, cap, ASW_REG_FWD(d), asw_fwd_entry(fwd[d].det, 0, fwd[d].cset, fwd[d].mp));
  dir_thresholds(t, &up_all, &h, &l, &fc, &crt, &ttl);
  bad |= script_push(t, cap, ASW_REG_ARN_UP(0), up_all ? (uint32_t)all : 0);
  if (P > 32) bad |= script_push(t, cap, ASW_REG_ARN_UP(1), up_all ? (uint32_t)(all >> 32) : 0);
  bad |= script_push(t, cap, ASW_REG_CD_THRESH, h | l << 16);
  bad |= script_push(t, cap, ASW_REG_FCTH, fc);
  bad |= script_push(t, cap, ASW_REG_CRT, crt);
  bad |= script_push(t, cap, ASW_REG_ARN_TTL, ttl);
  bad |= script_push(t, cap, ASW_REG_ARN_CTRL, dmode(t) | t->arnx << 3);
  t->arn_ctrl_cfg = dmode(t) | t->arnx << 3;
  t->v[10] = h;
  t->v[11] = l;
  t->v[12] = crt;
  t->v[13] = ttl;
  fast_receivers(t, 1);
  t->dsl = 0;
  t->dlen_lo = 1;
  t->dlen_hi = 2;
  t->dload = 1.0;
  for (unsigned k = 0; k < 32; k++) t->mkey[k] = -1;
  return bad;
}

/* evict: the key of message j (distinct for j < 8 V P). */
static uint32_t evict_msg(const tb_traffic *t, unsigned j, unsigned *port) {
  *port = (j / (8 * t->V)) % t->P;
  return asw_arn_msg(j % 8, (j / 8) % t->V, (t->stage + 1) & 0xFu, j & 0x1FFu);
}

static void dir_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in) {
  const int64_t e = (int64_t)(cycle - t->s0);
  const unsigned S = t->stage, S1 = (t->stage + 1) & 0xFu, P = t->P, V = t->V;
  switch (t->opt.scenario) {
  case TB_SCEN_REFRESH:
  case TB_SCEN_REPLACE:
    if (e >= 10 && e <= 460 && (e - 10) % 50 == 0) {
      unsigned k = (unsigned)(e - 10) / 50;
      unsigned id = t->opt.scenario == TB_SCEN_REPLACE && (k & 1) ? 6 : 5;
      dir_msg(t, in, 1, asw_arn_msg(D_MP, 0, S, id));
    }
    /* Two entries of one port expiring in the same cycle: ARN_TTL lowered between them. */
    if (e == 700) dir_write(t, ASW_REG_ARN_TTL, 100);
    if (e == 702) dir_msg(t, in, 2, asw_arn_msg(D_D, 0, S1, 7));
    if (e == 752) dir_write(t, ASW_REG_ARN_TTL, 49);
    if (e == 753) dir_msg(t, in, 2, asw_arn_msg(D_D, 1, S1, 8));
    break;
  case TB_SCEN_CONSUME:
    if (e == 10) {
      t->dsl = davc(t); /* identity SL2VC: the flows use the VC step 4 compares */
      flow(t, 0, D_A, 0);
      flow(t, 1, D_C, 0);
      flow(t, 2, D_D, 0);
      t->rcv[1].withhold = t->rcv[3].withhold = 1;
      t->rcv[0].maxd = 30;
    }
    if (e == 300) dir_msg(t, in, 3, asw_arn_msg(D_MP, 0, S, 11));
    if (e == 310) dir_msg(t, in, 0, asw_arn_msg(D_NOMP, 0, S, 12));
    if (e == 320) dir_msg(t, in, 2, asw_arn_msg(D_ONLY, 0, S, 13));
    if (e == 330) dir_msg(t, in, 1, asw_arn_msg(D_MP, 1, S1, 14));
    if (e == 340 && V < 8) dir_msg(t, in, 0, asw_arn_msg(D_MP, V, S, 15));
    if (e == 350 && t->cfg.table_entries < (1u << t->cfg.dest_bits))
      dir_msg(t, in, 0, asw_arn_msg(t->cfg.table_entries, 0, S, 16));
    if (e == 400) {
      t->dsrc = 0;
      fast_receivers(t, 1);
    }
    break;
  case TB_SCEN_EVICT: {
    unsigned N = t->AE + 3, port;
    if (e >= 10 && e < 10 + 3 * (int64_t)N && (e - 10) % 3 == 0) {
      uint32_t m = evict_msg(t, (unsigned)(e - 10) / 3, &port);
      dir_msg(t, in, port, m);
    }
    if (e == 10 + 3 * (int64_t)N) { /* refresh the oldest entry: it is not the victim next */
      unsigned k = 0;
      for (unsigned j = 1; j < t->AE; j++)
        if (t->mwr[j] < t->mwr[k]) k = j;
      t->v[0] = k;
      uint32_t m = evict_msg(t, (unsigned)t->mkey[k], &port);
      dir_msg(t, in, port, m);
    }
    if (e == 13 + 3 * (int64_t)N) {
      uint32_t m = evict_msg(t, N, &port);
      dir_msg(t, in, port, m);
    }
    break;
  }
  case TB_SCEN_DROP:
    if (e >= 10 && e < 22)
      for (unsigned p = 0; p < P; p++)
        dir_msg(t, in, p, asw_arn_msg((p + (unsigned)e) % 8, 0, S1, ((unsigned)e * P + p) & 0x1FFu));
    break;
  case TB_SCEN_BRANCH:
    if (e == 10) dir_msg(t, in, 3, asw_arn_msg(D_MP, 0, S, 1));
    if (e == 12) dir_msg(t, in, 2, asw_arn_msg(D_NOMP, 0, S1, 2));
    if (e == 30) {
      flow(t, 1, D_MP, 0);   /* branch 1: consumed entry -> alt port */
      flow(t, 2, D_NOMP, 0); /* branch 2: non-consumed entry -> ARN upstream */
      flow(t, 0, D_MP, 1);   /* branch 3: no entry for VC 1 */
      flow(t, 3, D_A, 0);    /* branch 3: no entry for the destination */
      t->dload = 0.5;
      t->dlen_lo = 2; /* >= 2: RCs of one input never in consecutive cycles (no de-dup) */
      t->dlen_hi = t->cfg.max_packet;
    }
    if (e == 2030) t->dsrc = 0;
    break;
  case TB_SCEN_ADAPTED:
    if (e == 10 || e == 1900) {
      for (unsigned p = 0; p < P; p++) flow(t, p, D_HOT, 0);
      t->dadapted = e == 10;
      fast_receivers(t, 0);
    }
    if (e == 1510 || e == 3400) t->dsrc = 0;
    break;
  case TB_SCEN_HYST:
    if (e >= 10 && e < 6010 && (e - 10) % 150 == 0) {
      static const double loads[] = {1.0, 0.5, 0.2, 0.1, 0.0};
      static const unsigned delays[] = {0, 2, 6};
      for (unsigned p = 0; p < P; p++) flow(t, p, D_HOT, 0);
      t->dload = loads[rnd_below(t, 5)];
      fast_receivers(t, delays[rnd_below(t, 3)]);
    }
    if (e == 6010) t->dsrc = 0;
    break;
  case TB_SCEN_FCTH:
    if (e == 10) {
      flow(t, 0, D_A, 0);
      flow(t, 1, D_A, 0);
      flow(t, 2, D_B, 0);
      flow(t, 3, D_B, 0);
      t->dlen_hi = 1;
      fast_receivers(t, 0);
      t->rcv[2].withhold = 1; /* output 2: no credits -> a branch, not a root */
    }
    if (e == 1510) { /* credits flow again: a pause lets them recover, then the same load */
      t->rcv[2].withhold = 0;
      t->dsrc = 0;
    }
    if (e == 1600)
      for (unsigned p = 0; p < 4; p++) flow(t, p, p < 2 ? D_A : D_B, 0);
    if (e == 3010) t->dsrc = 0;
    break;
  case TB_SCEN_CRT:
    if (e >= 10 && e < 4210 && (e - 10) % 600 == 0) {
      for (unsigned p = 0; p < 3; p++) flow(t, p, D_A, 0);
      t->dlen_hi = 1;
      fast_receivers(t, 0);
    }
    if (e >= 310 && (e - 310) % 600 == 0) t->dsrc = 0;
    if (e == 2310) { /* while idle: CRT 12 -> 3 */
      dir_write(t, ASW_REG_CRT, 3);
      t->v[12] = 3;
    }
    break;
  case TB_SCEN_ROOT:
    if (e == 10 || e == 2600) {
      for (unsigned p = 0; p < 3; p++) flow(t, p, D_HOT, 0);
      fast_receivers(t, 0);
    }
    if (e == 2010 || e == 3600) t->dsrc = 0;
    break;
  case TB_SCEN_CLEAR:
    if (e == 10) {
      for (unsigned p = 0; p < 3; p++) flow(t, p, D_HOT, 0);
      fast_receivers(t, 0);
    }
    if (e >= 20 && e < 2000 && e % 50 == 0)
      dir_msg(t, in, 3, asw_arn_msg(D_MP, 0, S, (unsigned)(e / 50) & 0x1FFu));
    if (e == 1000) {
      dir_write(t, ASW_REG_ARN_CTRL, 0);
      t->v[0] = cycle;
    }
    if (e == 1300) {
      dir_write(t, ASW_REG_ARN_CTRL, t->arn_ctrl_cfg);
      t->v[1] = cycle;
    }
    if (e == 2500) t->dsrc = 0;
    break;
  default: break;
  }
}

static void dir_observe(tb_traffic *t, uint64_t cycle) {
  const int64_t e = (int64_t)(cycle - t->s0);
  const unsigned P = t->P, V = t->V;
  switch (t->opt.scenario) {
  case TB_SCEN_REFRESH:
  case TB_SCEN_REPLACE: {
    const int replace = t->opt.scenario == TB_SCEN_REPLACE;
    const int64_t last = 460, ttl = (int64_t)t->v[13];
    if (e >= 12 && e <= 462 && (e - 12) % 50 == 0) { /* written / refreshed in e-1 */
      unsigned k = (unsigned)(e - 12) / 50, id = replace && (k & 1) ? 6 : 5;
      uint32_t w0 = rd(t, ASW_REG_ARN_ENTRY(0, 0)), w1 = rd(t, ASW_REG_ARN_ENTRY(0, 1)),
               w2 = rd(t, ASW_REG_ARN_ENTRY(0, 2));
      if (!(w0 >> 31) || (w0 & 0xFFFFu) != D_MP || (w0 >> 16 & 0x3Fu) != 1 || (w0 >> 29 & 1u) != 1 ||
          (w1 & 0x1FFu) != id || w2 != ttl)
        failf(t, "message %u: entry 0 w0 0x%08x w1 0x%08x w2 %u, expected {dest %u, port 1, "
                 "consumed, id %u, ttl %lld}", k, w0, w1, w2, D_MP, id, (long long)ttl);
      for (unsigned j = 1; j < t->AE; j++)
        if (rd(t, ASW_REG_ARN_ENTRY(j, 0))) failf(t, "entry %u valid: one key, one entry", j);
    }
    if (e >= 12 && e <= last + 1 + ttl && !(rd(t, ASW_REG_ARN_ENTRY(0, 0)) >> 31))
      failf(t, "entry 0 invalid in its lifetime (refresh must extend it)");
    if (e == last + 1 + ttl && csum(t, ASW_ACNT_EXPIRED))
      failf(t, "entry expired before ARN_TTL cycles");
    if (e == last + 2 + ttl && ((rd(t, ASW_REG_ARN_ENTRY(0, 0)) >> 31) || csum(t, ASW_ACNT_EXPIRED) != 1))
      failf(t, "entry not expired exactly ARN_TTL cycles after its last refresh");
    if (e == last + ttl + 10) {
      uint64_t rcv = cnt(t, 1, ASW_ACNT_RECEIVED), con = cnt(t, 1, ASW_ACNT_CONSUMED);
      if (rcv != 10 || con != (replace ? 10u : 1u) || csum(t, ASW_ACNT_EXPIRED) != 1 ||
          csum(t, ASW_ACNT_EVICTED) || csum(t, ASW_ACNT_IN_DROPPED))
        failf(t, "counters: received %llu consumed %llu expired %llu evicted %llu, expected 10 %u 1 0",
              (unsigned long long)rcv, (unsigned long long)con,
              (unsigned long long)csum(t, ASW_ACNT_EXPIRED), (unsigned long long)csum(t, ASW_ACNT_EVICTED),
              replace ? 10u : 1u);
    }
    if (e == 704 && rd(t, ASW_REG_ARN_ENTRY(0, 2)) != 100) failf(t, "entry 0: ttl %u, expected 100",
                                                               rd(t, ASW_REG_ARN_ENTRY(0, 2)));
    if (e == 755 && (rd(t, ASW_REG_ARN_ENTRY(0, 2)) != 49 || rd(t, ASW_REG_ARN_ENTRY(1, 2)) != 49))
      failf(t, "entries 0 / 1: ttl %u / %u, expected 49 / 49 (ARN_TTL applies to new writes)",
            rd(t, ASW_REG_ARN_ENTRY(0, 2)), rd(t, ASW_REG_ARN_ENTRY(1, 2)));
    if (e == 803 && cnt(t, 2, ASW_ACNT_EXPIRED)) failf(t, "entries of port 2 expired early");
    if (e == 804) {
      if (cnt(t, 2, ASW_ACNT_EXPIRED) != 2 || valid_entries(t))
        failf(t, "two entries of port 2 expiring in one cycle: arn_expired[2] %llu, expected 2",
              (unsigned long long)cnt(t, 2, ASW_ACNT_EXPIRED));
      t->done = 1;
    }
    break;
  }
  case TB_SCEN_CONSUME: {
    const unsigned S1 = (t->stage + 1) & 0xFu;
    (void)S1;
    if (e == 301) { /* processing cycle of message a: what step 4 reads */
      int differ = 0;
      t->v[0] = (uint64_t)expected_alt(t, 3, 3, davc(t), &differ);
      if (!differ) failf(t, "the candidates' credits are all equal: the choice is not exercised");
      if (find_entry(t, D_MP, 3, 0) >= 0) failf(t, "entry visible in its processing cycle");
    }
    if (e == 302) {
      int k = check_entry(t, "with candidate", D_MP, 3, 0, 1);
      if (k >= 0 && (rd(t, ASW_REG_ARN_ENTRY(k, 1)) >> 16 & 0x3Fu) != t->v[0])
        failf(t, "alt_port %u, expected %llu (most credits on VC %u)",
              rd(t, ASW_REG_ARN_ENTRY(k, 1)) >> 16 & 0x3Fu, (unsigned long long)t->v[0], davc(t));
      if (cnt(t, 3, ASW_ACNT_CONSUMED) != 1) failf(t, "arn_consumed[3] != 1");
    }
    if (e == 312) check_entry(t, "FWD not multipath", D_NOMP, 0, 0, 0);
    if (e == 322) check_entry(t, "no candidate but the entry port", D_ONLY, 2, 0, 0);
    if (e == 332) check_entry(t, "stage mismatch", D_MP, 1, 1, 0);
    if (e == 342 && V < 8) check_entry(t, "vc >= V", D_MP, 0, V, dmode(t) == 2);
    if (e == 352 && t->cfg.table_entries < (1u << t->cfg.dest_bits))
      check_entry(t, "dest >= TABLE", t->cfg.table_entries, 0, 0, 0);
    if (e == 360) {
      uint64_t want = 1 + (dmode(t) == 2 && V < 8);
      if (csum(t, ASW_ACNT_CONSUMED) != want)
        failf(t, "arn_consumed %llu, expected %llu", (unsigned long long)csum(t, ASW_ACNT_CONSUMED),
              (unsigned long long)want);
      t->done = 1;
    }
    break;
  }
  case TB_SCEN_EVICT: {
    const unsigned N = t->AE + 3, AE = t->AE;
    int64_t j = -1;
    if (e >= 12 && e < 12 + 3 * (int64_t)N && (e - 12) % 3 == 0) j = (e - 12) / 3;
    if (e == 15 + 3 * (int64_t)N) j = N;
    if (j >= 0) { /* own model of step 5: lowest free entry, else the oldest write */
      unsigned k = 0;
      int found = 0;
      for (unsigned x = 0; x < AE && !found; x++)
        if (t->mkey[x] < 0) k = x, found = 1;
      if (!found) {
        for (unsigned x = 1; x < AE; x++)
          if (t->mwr[x] < t->mwr[k]) k = x;
        t->mev++;
      }
      t->mkey[k] = (int)j;
      t->mwr[k] = cycle - 1;
      if ((rd(t, ASW_REG_ARN_ENTRY(k, 1)) & 0x1FFu) != (unsigned)j ||
          !(rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 31))
        failf(t, "message %lld: expected in entry %u, which holds id %u", (long long)j, k,
              rd(t, ASW_REG_ARN_ENTRY(k, 1)) & 0x1FFu);
      if (csum(t, ASW_ACNT_EVICTED) != t->mev)
        failf(t, "arn_evicted %llu, expected %llu", (unsigned long long)csum(t, ASW_ACNT_EVICTED),
              (unsigned long long)t->mev);
    }
    if (e == 12 + 3 * (int64_t)N) { /* the refresh */
      unsigned k = (unsigned)t->v[0];
      t->mwr[k] = cycle - 1;
      if (rd(t, ASW_REG_ARN_ENTRY(k, 2)) != t->v[13] || csum(t, ASW_ACNT_EVICTED) != t->mev)
        failf(t, "refresh of entry %u: ttl %u, evicted %llu", k, rd(t, ASW_REG_ARN_ENTRY(k, 2)),
              (unsigned long long)csum(t, ASW_ACNT_EVICTED));
    }
    if (e == 20 + 3 * (int64_t)N + (int64_t)t->v[13]) {
      if (csum(t, ASW_ACNT_EXPIRED) != AE || csum(t, ASW_ACNT_EVICTED) != N + 1 - AE ||
          csum(t, ASW_ACNT_RECEIVED) != N + 2 || valid_entries(t))
        failf(t, "expired %llu evicted %llu received %llu, expected %u %u %u",
              (unsigned long long)csum(t, ASW_ACNT_EXPIRED), (unsigned long long)csum(t, ASW_ACNT_EVICTED),
              (unsigned long long)csum(t, ASW_ACNT_RECEIVED), AE, N + 1 - AE, N + 2);
      t->done = 1;
    }
    break;
  }
  case TB_SCEN_DROP:
    if (e >= 10 && e < 60) { /* own model of §15.4 (root FIFO 0 stays empty) */
      unsigned n = P + 1, chosen = n;
      for (unsigned k = 0; k < n; k++)
        if (t->mq[(t->mptr + k) % n]) {
          chosen = (t->mptr + k) % n;
          break;
        }
      uint64_t push = 0;
      if (e < 22)
        for (unsigned p = 0; p < P; p++) {
          if (t->mq[1 + p] == AQ) t->mdrop[p]++;
          else push |= 1ULL << p;
        }
      if (chosen < n) {
        t->mq[chosen]--;
        t->mptr = (chosen + 1) % n;
      }
      for (unsigned p = 0; p < P; p++) t->mq[1 + p] += push >> p & 1u;
    }
    if (e == 60) {
      uint64_t tot = 0;
      for (unsigned p = 0; p < P; p++) {
        tot += t->mdrop[p];
        if (cnt(t, p, ASW_ACNT_IN_DROPPED) != t->mdrop[p] || cnt(t, p, ASW_ACNT_RECEIVED) != 12)
          failf(t, "output %u: arn_in_dropped %llu (expected %llu), arn_received %llu (12)", p,
                (unsigned long long)cnt(t, p, ASW_ACNT_IN_DROPPED), (unsigned long long)t->mdrop[p],
                (unsigned long long)cnt(t, p, ASW_ACNT_RECEIVED));
      }
      if (!tot) failf(t, "no drop: the burst does not overflow the event FIFOs");
      t->done = 1;
    }
    break;
  case TB_SCEN_BRANCH:
    if (e == 11) t->v[1] = (uint64_t)expected_alt(t, 3, 3, davc(t), NULL);
    if (e == 14) {
      int k = check_entry(t, "branch 1 entry", D_MP, 3, 0, 1);
      t->v[0] = k >= 0 ? rd(t, ASW_REG_ARN_ENTRY(k, 1)) >> 16 & 0x3Fu : 99;
      if (t->v[0] != t->v[1]) failf(t, "alt_port %llu, expected %llu", (unsigned long long)t->v[0],
                                    (unsigned long long)t->v[1]);
      check_entry(t, "branch 2 entry", D_NOMP, 2, 0, 0);
    }
    if (e == 2400) {
      for (unsigned b = 1; b <= 3; b++)
        if (!t->br_pk[b] || t->br_ok[b] != t->br_pk[b])
          failf(t, "branch %u: %llu packets, %llu routed as expected", b,
                (unsigned long long)t->br_pk[b], (unsigned long long)t->br_ok[b]);
      if (cnt(t, 1, ASW_ACNT_ADAPTED) != t->br_pk[1] || csum(t, ASW_ACNT_ADAPTED) != t->br_pk[1])
        failf(t, "packets_adapted %llu (input 1: %llu), expected %llu",
              (unsigned long long)csum(t, ASW_ACNT_ADAPTED), (unsigned long long)cnt(t, 1, ASW_ACNT_ADAPTED),
              (unsigned long long)t->br_pk[1]);
      if (cnt(t, 2, ASW_ACNT_SENT) != t->br_pk[2] || csum(t, ASW_ACNT_SENT) != t->br_pk[2] ||
          t->br_msgs != t->br_pk[2])
        failf(t, "arn_sent %llu (input 2: %llu), messages seen %llu, expected %llu",
              (unsigned long long)csum(t, ASW_ACNT_SENT), (unsigned long long)cnt(t, 2, ASW_ACNT_SENT),
              (unsigned long long)t->br_msgs, (unsigned long long)t->br_pk[2]);
      t->done = 1;
    }
    break;
  case TB_SCEN_ADAPTED:
    if (e >= 10 && e <= 1510 && valid_entries(t))
      failf(t, "an ARN entry exists although every offender is adapted (step 3)");
    if (e == 1510) {
      if (!cnt(t, 1, ASW_ACNT_ROOTS) || csum(t, ASW_ACNT_CONSUMED) || csum(t, ASW_ACNT_SENT) ||
          csum(t, ASW_ACNT_ADAPTED))
        failf(t, "adapted offenders: roots[1] %llu consumed %llu sent %llu adapted %llu, expected >0 0 0 0",
              (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS), (unsigned long long)csum(t, ASW_ACNT_CONSUMED),
              (unsigned long long)csum(t, ASW_ACNT_SENT), (unsigned long long)csum(t, ASW_ACNT_ADAPTED));
    }
    if (e == 3400) {
      if (!cnt(t, 1, ASW_ACNT_CONSUMED) || !csum(t, ASW_ACNT_ADAPTED))
        failf(t, "non-adapted offenders: consumed[1] %llu adapted %llu, expected > 0",
              (unsigned long long)cnt(t, 1, ASW_ACNT_CONSUMED), (unsigned long long)csum(t, ASW_ACNT_ADAPTED));
      t->done = 1;
    }
    break;
  case TB_SCEN_HYST:
    if (e >= 10 && e <= 6100) {
      const unsigned H = (unsigned)t->v[10], L = (unsigned)t->v[11];
      for (unsigned q = 0; q < P; q++) {
        unsigned hot = 0;
        for (unsigned i = 0; i < P; i++)
          for (unsigned v = 0; v < V; v++) {
            size_t x = ((size_t)i * V + v) * P + q;
            unsigned occ = rd(t, ASW_REG_OCC(i, v, q));
            if (occ != t->h_occ[x]) {
              unsigned nh = occ >= H || (t->h_hot[x] && occ >= L);
              if (nh && !t->h_hot[x]) t->v[3]++;
              if (!nh && t->h_hot[x]) t->v[4]++;
              t->h_hot[x] = (uint8_t)nh;
              t->h_occ[x] = (uint16_t)occ;
            }
            if (occ >= L && occ < H) t->v[t->h_hot[x] ? 1 : 2]++;
            hot += t->h_hot[x];
          }
        unsigned got = rd(t, ASW_REG_ROOT(q, 0)) >> 10 & 0x3FFu;
        if (got != hot) failf(t, "output %u: %u hot VOQs (ROOT), hysteresis model says %u", q, got, hot);
      }
    }
    if (e == 6100) {
      if (!t->v[1] || !t->v[2] || !t->v[3] || !t->v[4])
        failf(t, "hysteresis band not exercised: hot in band %llu, cold in band %llu, rises %llu, falls %llu",
              (unsigned long long)t->v[1], (unsigned long long)t->v[2], (unsigned long long)t->v[3],
              (unsigned long long)t->v[4]);
      t->done = 1;
    }
    break;
  case TB_SCEN_FCTH:
    if (e >= 10 && e < 1510 && (rd(t, ASW_REG_ROOT(2, 0)) >> 10 & 0x3FFu)) t->v[0]++;
    if (e == 1510 && (!cnt(t, 1, ASW_ACNT_ROOTS) || cnt(t, 2, ASW_ACNT_ROOTS) || !t->v[0]))
      failf(t, "credits > FCTH on 1, withheld on 2: roots %llu / %llu, cycles output 2 hot %llu",
            (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS), (unsigned long long)cnt(t, 2, ASW_ACNT_ROOTS),
            (unsigned long long)t->v[0]);
    if (e == 3010) {
      if (!cnt(t, 2, ASW_ACNT_ROOTS)) failf(t, "output 2 not a root once its credits flow");
      t->done = 1;
    }
    break;
  case TB_SCEN_CRT:
    if (e >= 10 && e <= 4300) {
      uint32_t crt = rd(t, ASW_REG_ROOT(1, 1)) & 0xFFFFFFu, lim = (uint32_t)t->v[12];
      uint64_t roots = cnt(t, 1, ASW_ACNT_ROOTS);
      uint32_t prev = t->mhist[(e - 1) % 64];
      if (e > 2310 && lim != 3) lim = 3;
      if (crt > lim) failf(t, "crt %u > CRT %u", crt, lim);
      if (e > 10 && roots != t->v[6]) { /* a new root declared in cycle e-1 */
        for (uint32_t k = 0; k < lim; k++)
          if (t->mhist[(e - 1 - k) % 64] != lim - 1 - k)
            failf(t, "root declared without CRT = %u consecutive cycles of cond (crt %u cycles before: %u)",
                  lim, k, t->mhist[(e - 1 - k) % 64]);
        if (crt != 0 || !(rd(t, ASW_REG_ROOT(1, 0)) & 1u))
          failf(t, "after a declaration: crt %u, root bit %u", crt, rd(t, ASW_REG_ROOT(1, 0)) & 1u);
        t->v[lim == 3 ? 8 : 7]++;
      } else if (e > 10 && crt != 0 && crt != prev + 1 && !(crt == lim && prev == lim)) {
        failf(t, "crt went from %u to %u", prev, crt);
      }
      t->v[6] = roots;
      t->mhist[e % 64] = crt;
    }
    if (e == 4300) {
      if (t->v[7] < 3 || t->v[8] < 2)
        failf(t, "new roots checked: %llu with CRT 12, %llu with CRT 3 (expected >= 3, >= 2)",
              (unsigned long long)t->v[7], (unsigned long long)t->v[8]);
      t->done = 1;
    }
    break;
  case TB_SCEN_ROOT: {
    uint32_t w = rd(t, ASW_REG_ROOT(1, 0));
    unsigned bit = w & 1u, id = w >> 1 & 0x1FFu;
    if (e > 10 && e <= 2010) {
      if (!t->v[0] && bit) {
        t->v[0] = 1;
        t->v[1] = id;
      } else if (t->v[0] && (!bit || id != t->v[1])) {
        failf(t, "root cleared or id changed (%u -> %u) under sustained congestion", (unsigned)t->v[1], id);
      }
      if (t->v[0] && e > 100 && e % 8 == 0) { /* the local entry carries the root's id */
        int k = find_entry(t, D_HOT, 1, 0);
        if (k < 0 || (rd(t, ASW_REG_ARN_ENTRY(k, 1)) & 0x1FFu) != id ||
            (rd(t, ASW_REG_ARN_ENTRY(k, 0)) >> 29 & 1u))
          failf(t, "no non-consumed entry {dest %u, port 1, vc 0} with the root id %u", D_HOT, id);
      }
    }
    if (e == 2010) {
      if (cnt(t, 1, ASW_ACNT_ROOTS) != 1 || csum(t, ASW_ACNT_EXPIRED) || !csum(t, ASW_ACNT_SENT))
        failf(t, "sustained root: roots[1] %llu (1), expired %llu (0: refreshed), sent %llu (> 0)",
              (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS), (unsigned long long)csum(t, ASW_ACNT_EXPIRED),
              (unsigned long long)csum(t, ASW_ACNT_SENT));
      t->v[2] = csum(t, ASW_ACNT_ROOTS);
    }
    if (e == 2600 && (bit || !csum(t, ASW_ACNT_EXPIRED)))
      failf(t, "after the congestion: root bit %u, expired %llu", bit,
            (unsigned long long)csum(t, ASW_ACNT_EXPIRED));
    if (e > 2600 && e <= 3600 && bit && !t->v[3]) {
      t->v[3] = 1;
      if (id != (t->v[2] & 0x1FFu)) failf(t, "new root id %u, expected next_id %llu", id,
                                          (unsigned long long)(t->v[2] & 0x1FFu));
    }
    if (e == 3600) {
      if (cnt(t, 1, ASW_ACNT_ROOTS) != 2 || !t->v[3]) failf(t, "second congestion: roots[1] %llu, expected 2",
                                                           (unsigned long long)cnt(t, 1, ASW_ACNT_ROOTS));
      t->done = 1;
    }
    break;
  }
  case TB_SCEN_CLEAR: {
    const uint64_t wc = t->v[0], rc = t->v[1];
    if (wc && cycle == wc) {
      unsigned live = valid_entries(t);
      for (unsigned o = 0; o < P; o++) live += rd(t, ASW_REG_ROOT(o, 0)) & 1u;
      if (!live) failf(t, "nothing to clear: no root and no entry before the mode-0 write");
      for (unsigned k = 0; k < ASW_ACNT_NUM; k++) t->mcnt[k] = csum(t, k);
    }
    if (wc && cycle > wc && (!rc || cycle <= rc)) {
      for (unsigned o = 0; o < P; o++)
        if (rd(t, ASW_REG_ROOT(o, 0)) || rd(t, ASW_REG_ROOT(o, 1)))
          failf(t, "ROOT[%u] = 0x%x / 0x%x after the mode-0 write", o, rd(t, ASW_REG_ROOT(o, 0)),
                rd(t, ASW_REG_ROOT(o, 1)));
      if (valid_entries(t)) failf(t, "ARN entries valid after the mode-0 write");
      for (unsigned k = 0; k < ASW_ACNT_NUM; k++) {
        uint64_t c = csum(t, k);
        if (cycle == wc + 1) {
          if (c < t->mcnt[k]) failf(t, "counter %u cleared by the mode-0 write", k);
          t->mcnt[k] = c;
        } else if (c != t->mcnt[k]) {
          failf(t, "counter %u changed in mode 0", k);
        }
      }
      t->v[2] = csum(t, ASW_ACNT_ROOTS);
    }
    if (rc && cycle > rc && !t->v[4]) {
      for (unsigned o = 0; o < P; o++) {
        uint32_t w = rd(t, ASW_REG_ROOT(o, 0));
        if (w & 1u) {
          t->v[4] = 1;
          if ((w >> 1 & 0x1FFu) != (t->v[2] & 0x1FFu))
            failf(t, "first root after the clear has id %u, expected next_id %llu (kept)", w >> 1 & 0x1FFu,
                  (unsigned long long)(t->v[2] & 0x1FFu));
        }
      }
    }
    if (e == 2600) {
      if (!t->v[4]) failf(t, "no root declared after ARN_CTRL was restored");
      t->done = 1;
    }
    break;
  }
  default: break;
  }
}

static void dir_output(tb_traffic *t, unsigned o, const asw_flit *f) {
  if (t->opt.scenario != TB_SCEN_BRANCH) return;
  unsigned src = ASW_HDR_SRC(f->hdr), ad = ASW_HDR_ADAPTED(f->hdr);
  if (src == 1) {
    t->br_pk[1]++;
    int afi = dmode(t) == 2;
    t->br_ok[1] += o == t->v[0] && ad == (unsigned)afi &&
                   (afi ? ASW_HDR_ORIG_VC(f->hdr) == 0 && f->vc == t->V - 1 : f->vc == 0);
  } else if (src == 2) {
    t->br_pk[2]++;
    t->br_ok[2] += o == 1 && !ad;
  } else if (src == 0 || src == 3) {
    t->br_pk[3]++;
    t->br_ok[3] += !ad && o == (src == 0 ? 3u : 1u);
  }
}

static void dir_arn_out(tb_traffic *t, unsigned i, uint32_t msg) {
  const int64_t e = (int64_t)(t->now - t->s0);
  switch (t->opt.scenario) {
  case TB_SCEN_BRANCH:
    if (i == 2 && msg == asw_arn_msg(D_NOMP, 0, (t->stage + 1) & 0xFu, 2)) t->br_msgs++;
    else failf(t, "unexpected ARN message 0x%08x on input %u", msg, i);
    break;
  case TB_SCEN_ADAPTED:
    if (e <= 1600) failf(t, "ARN message 0x%08x on input %u with adapted offenders only", msg, i);
    break;
  case TB_SCEN_CLEAR:
    if (t->v[0] && t->now > t->v[0] && (!t->v[1] || t->now <= t->v[1] + 1))
      failf(t, "ARN message 0x%08x on input %u in mode 0", msg, i);
    break;
  case TB_SCEN_REFRESH: case TB_SCEN_REPLACE: case TB_SCEN_EVICT: case TB_SCEN_DROP: case TB_SCEN_CONSUME:
    failf(t, "ARN message 0x%08x on input %u without any non-consumed entry hit", msg, i);
    break;
  default: break;
  }
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
  if (o->arn >= TB_ARN_N) {
    snprintf(err, errlen, "unknown ARN option");
    return NULL;
  }
  /* §17.1 headroom for this stimulus: its senders see a frame in the outputs of
   * cycle x and start no packet from x + 1 (a switch upstream is 2 cycles
   * slower), so heads arrive in at most V + 2 cycles after want rises. */
  if (o->pfc && (o->pfc >> (cfg->ports - 1) >> 1)) {
    snprintf(err, errlen, "PFC=0x%llx has bits for ports >= P = %u",
             (unsigned long long)o->pfc, cfg->ports);
    return NULL;
  }
  if (o->pfc && cfg->buf_flits < cfg->max_packet + cfg->vcs + 1) {
    snprintf(err, errlen, "PFC needs BUF >= PKT + V + 1 = %u for the headroom of contract "
             "17.1 (BUF = %u)", cfg->max_packet + cfg->vcs + 1, cfg->buf_flits);
    return NULL;
  }
  if (o->qcn && !cfg->qcn) {
    snprintf(err, errlen, "QCN=1 needs the QCN hardware (qcn is off: no §17.4 "
             "hardware)");
    return NULL;
  }
  if (o->routing == TB_ROUTE_OBL && !cfg->oblivious) {
    snprintf(err, errlen, "ROUTING=obl needs ROUTE_CTRL mode 1 (oblivious is off: no §7.3 "
             "oblivious hardware)");
    return NULL;
  }
  if ((o->routing == TB_ROUTE_ADA || o->routing == TB_ROUTE_TH || o->routing == TB_ROUTE_2TH) &&
      !cfg->adaptive) {
    snprintf(err, errlen, "ROUTING=%s needs ROUTE_CTRL mode 2 (adaptive is off: no §7.3 "
             "adaptive hardware)", o->routing == TB_ROUTE_ADA ? "ada" : o->routing == TB_ROUTE_TH ? "th" : "2th");
    return NULL;
  }
  if ((o->bubble || o->qcn || o->sar || o->linkfault > 0 || o->vcadapt || o->arn != TB_ARN_OFF) &&
      !cfg->counters) {
    snprintf(err, errlen, "BUBBLE, QCN, SAR, LINKFAULT, VCADAPT and ARN runs check counters "
             "(counters is off: every counter reads 0)");
    return NULL;
  }
  if (o->arn != TB_ARN_OFF && !cfg->readback) {
    snprintf(err, errlen, "ARN runs check OCC and CRED (readback is off: they read 0)");
    return NULL;
  }
  if (o->gap && !cfg->port_rate) {
    snprintf(err, errlen, "GAP=1 needs the PORT_GAP registers (port_rate is off: no "
             "§17.7 hardware)");
    return NULL;
  }
  if (o->hash && !cfg->route_hash) {
    snprintf(err, errlen, "HASH=1 needs the ROUTE_HASH register (route_hash is off: no "
             "§17.6 hardware)");
    return NULL;
  }
  if (o->linkfault > 0 && !cfg->link_faults) {
    snprintf(err, errlen, "LINKFAULT=%g needs the link-fault hardware (link_faults is off: no "
             "§18 hardware)", o->linkfault);
    return NULL;
  }
  if (o->pfc && !cfg->pfc) {
    snprintf(err, errlen, "PFC=0x%llx needs the PFC hardware (pfc is off: no §17.1 "
             "hardware)", (unsigned long long)o->pfc);
    return NULL;
  }
  if (o->bubble && !cfg->bubble) {
    snprintf(err, errlen, "BUBBLE=1 needs the bubble-rule hardware (bubble is off: no "
             "§16.1 hardware)");
    return NULL;
  }
  if (o->sar && (cfg->sar_entries == 0 || !cfg->qcn ||
                 o->scenario >= TB_FIRST_ARN_SCEN || o->scenario == TB_SCEN_PROTO)) {
    snprintf(err, errlen, "SAR=1 (contract 17.8) needs SE >= 1, qcn on and a traffic "
             "scenario");
    return NULL;
  }
  if (o->vcadapt && (cfg->voq || !cfg->vc_adaptive || o->qcn ||
                     o->scenario >= TB_FIRST_ARN_SCEN)) {
    snprintf(err, errlen, "VCADAPT=1 (ROUTE_CTRL mode 3, contract 16.3) needs VOQ=0, "
             "vc_adaptive on, QCN off (they exclude each other) and a traffic scenario");
    return NULL;
  }
  if (o->arn != TB_ARN_OFF && cfg->arn_entries == 0) {
    snprintf(err, errlen, "ARN=%s needs AE >= 1 (ARN-table entries)", arn_names[o->arn]);
    return NULL;
  }
  if ((o->arn == TB_ARN_ARN || o->arn == TB_ARN_AFI) && !cfg->voq) {
    snprintf(err, errlen, "ARN=%s needs VOQ=1 (contract 15.1)", arn_names[o->arn]);
    return NULL;
  }
  if ((o->arn == TB_ARN_AFI || o->arn == TB_ARN_ADTH) && cfg->vcs < 2) {
    snprintf(err, errlen, "ARN=%s needs V >= 2 (contract 15.1)", arn_names[o->arn]);
    return NULL;
  }
  if (o->scenario >= TB_FIRST_ARN_SCEN &&
      (!(o->arn == TB_ARN_ARN || o->arn == TB_ARN_AFI) || cfg->ports < 4 || cfg->vcs < 2 ||
       cfg->table_entries < D_N || cfg->max_packet < 2)) {
    snprintf(err, errlen,
             "SCEN=%s needs ARN=arn or ARN=afi, AE >= 1, P >= 4, V >= 2, TABLE >= %d, PKT >= 2",
             scen_names[o->scenario], D_N);
    return NULL;
  }
  if (o->bubble && (o->scenario >= TB_FIRST_ARN_SCEN || o->scenario == TB_SCEN_PROTO)) {
    snprintf(err, errlen, "BUBBLE=1 runs with the traffic scenarios only, not SCEN=%s",
             scen_names[o->scenario]);
    return NULL;
  }
  if (o->linkfault > 0 && (o->pfc || o->scenario >= TB_FIRST_ARN_SCEN ||
                           o->scenario == TB_SCEN_PROTO)) {
    if (o->pfc)
      snprintf(err, errlen, "LINKFAULT runs with credit ports only, not with PFC=0x%llx",
               (unsigned long long)o->pfc);
    else
      snprintf(err, errlen, "LINKFAULT runs with the traffic scenarios only, not SCEN=%s",
               scen_names[o->scenario]);
    return NULL;
  }
  if (o->bubble && 2 * cfg->max_packet > cfg->buf_flits) {
    snprintf(err, errlen, "BUBBLE=1 needs 2*PKT <= BUF (an LMAX-flit packet entering a ring "
             "needs 2*LMAX credits, contract 16.1): PKT=%u BUF=%u", cfg->max_packet,
             cfg->buf_flits);
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
  t->sent_adapted = calloc((size_t)t->P * 8192, 1);
  t->h_occ = calloc((size_t)t->P * t->V * t->P, sizeof *t->h_occ);
  t->h_hot = calloc((size_t)t->P * t->V * t->P, 1);
  t->rpaused = calloc(t->P, 1);
  t->lf_until = calloc(2 * (size_t)t->P, sizeof *t->lf_until);
  t->rrem = calloc((size_t)t->P * t->V, 1);
  t->lf_up = t->lf_rx_up = port_mask(t);
  t->lrng = o->seed * 0xD1B54A32D192ED03ULL + 0x5A4ULL;
  if (t->lrng == 0) t->lrng = 1;
  t->lane = calloc(t->P, sizeof *t->lane);
  t->pfc_xoff_max = cfg->buf_flits - cfg->max_packet - cfg->vcs; /* >= 1 when PFC is on */
  t->AE = cfg->arn_entries;
  t->arn_on = o->arn == TB_ARN_ARN || o->arn == TB_ARN_AFI;
  t->arn_ctrl_cfg = o->arn == TB_ARN_ARN ? 1u : o->arn == TB_ARN_AFI ? 2u : o->arn == TB_ARN_ADTH ? 4u : 0u;
  t->directed = o->scenario >= TB_FIRST_ARN_SCEN;
  /* ARN_CTRL [4:3] options: drawn from the seed without touching the stimulus stream */
  t->arnx = !t->arn_on ? 0u : o->arnx >= 0 ? (unsigned)o->arnx
          : t->directed ? 0u : (unsigned)((o->seed * 0x9E3779B97F4A7C15ULL) >> 62);
  t->arn_ctrl_cfg |= t->arnx << 3;
  t->stage = o->stage >= 0 ? (unsigned)o->stage : t->AE ? 1 + rnd_below(t, 15) : 1;
  unsigned cap = 2 * (32 + 8 + 8 + t->P * 16 + cfg->table_entries + POOL_MAX);
  t->script = calloc(cap, sizeof *t->script);
  if (!t->flit || !t->credit_vc || !t->arn || !t->snd || !t->seq || !t->rcv || !t->script ||
      !t->was_full || !t->sent_adapted || !t->h_occ || !t->h_hot || !t->rpaused ||
      !t->lf_until || !t->rrem || !t->lane) {
    tb_free(t);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if ((o->gap || o->hash) && !(t->probe = asw_switch_new(cfg, err, errlen))) {
    tb_free(t);
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
  bad |= script_push(t, cap, ASW_REG_VC_CTRL, vc_ctrl_value(t) | vca_vc_ctrl_bits(t));
  bad |= script_push(t, cap, ASW_REG_THRESH, thresh_value(t));
  bad |= script_push(t, cap, ASW_REG_LFSR_SEED, (uint32_t)rnd(t) & 0xFFFFu);
  bad |= script_push(t, cap, ASW_REG_DEFAULT_PORT, rnd_below(t, t->P));
  for (unsigned c = 0; c < 4; c++) {
    bad |= script_push(t, cap, ASW_REG_CSET(c, 0), cset_value(t, 0));
    if (t->P > 32) bad |= script_push(t, cap, ASW_REG_CSET(c, 1), cset_value(t, 1));
  }
  if (o->vcmap != TB_VC_ID && !t->directed) /* directed: identity SL2VC (reset value) */
    for (unsigned p = 0; p < t->P; p++)
      for (unsigned s = 0; s < 16; s++) bad |= script_push(t, cap, ASW_REG_SL2VC(p, s), sl2vc_value(t, s));
  for (unsigned d = 0; d < cfg->table_entries; d++) {
    uint32_t e = fwd_value(t);
    if (chance(t, 2)) e = 0;
    bad |= script_push(t, cap, ASW_REG_FWD(d), e);
  }
  if (t->AE && !t->directed) {
    /* Destinations of the ARN traffic: in the table, mostly multipath. */
    t->npool = t->AE + 4 < cfg->table_entries ? t->AE + 4 : cfg->table_entries;
    if (t->npool > POOL_MAX) t->npool = POOL_MAX;
    for (unsigned k = 0; k < t->npool; k++) {
      t->pool[k] = (uint16_t)rnd_below(t, cfg->table_entries);
      bad |= script_push(t, cap, ASW_REG_FWD(t->pool[k]),
                         asw_fwd_entry(rnd_below(t, t->P), rnd_below(t, 64), rnd_below(t, 4),
                                       chance(t, 85)));
    }
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
  }
  if (o->sar) { /* §17.8: CNM destinations with multipath entries, then the registers */
    if (!t->npool) {
      t->npool = cfg->sar_entries + 4 < cfg->table_entries ? cfg->sar_entries + 4 : cfg->table_entries;
      if (t->npool > POOL_MAX) t->npool = POOL_MAX;
      for (unsigned k = 0; k < t->npool; k++) {
        t->pool[k] = (uint16_t)rnd_below(t, cfg->table_entries);
        bad |= script_push(t, cap, ASW_REG_FWD(t->pool[k]),
                           asw_fwd_entry(rnd_below(t, t->P), rnd_below(t, 64), rnd_below(t, 4),
                                         chance(t, 85)));
      }
    }
    bad |= script_push(t, cap, ASW_REG_SAR_TTL, sar_ttl_value(t));
    bad |= script_push(t, cap, ASW_REG_SAR_SEED, (uint32_t)rnd(t) & 0xFFFFu);
    bad |= script_push(t, cap, ASW_REG_SAR_CTRL, asw_sar_ctrl(1, 1));
  }
  if (o->bubble)
    for (unsigned p = 0; p < t->P; p++) bad |= script_push(t, cap, ASW_REG_BUBBLE(p), bubble_value(t));
  if (t->directed) bad |= dir_program(t, cap);
  if (o->qcn) { /* §17.4: parameters, then the enable */
    bad |= script_push(t, cap, ASW_REG_QCN_QEQ, qcn_qeq_value(t));
    bad |= script_push(t, cap, ASW_REG_QCN_SAMPLE, qcn_sample_value(t));
    bad |= script_push(t, cap, ASW_REG_QCN_SEED, (uint32_t)rnd(t) & 0xFFFFu);
    bad |= script_push(t, cap, ASW_REG_QCN_CTRL, qcn_ctrl_value(t, 1));
  }
  if (o->hash) bad |= script_push(t, cap, ASW_REG_ROUTE_HASH, hash_value(t)); /* §17.6 */
  for (unsigned k = 0; o->gap && k < (t->P + 7) / 8; k++) /* §17.7: every output's GAP */
    bad |= script_push(t, cap, ASW_REG_PORT_GAP(k), gap_value(t, k));
  if (o->pfc) { /* §17.2: thresholds within the headroom, then the mode */
    unsigned xoff = 1 + rnd_below(t, t->pfc_xoff_max);
    bad |= script_push(t, cap, ASW_REG_PFC_THRESH, asw_pfc_thresh(xoff, rnd_below(t, xoff)));
    bad |= script_push(t, cap, ASW_REG_PFC_EN(0), (uint32_t)o->pfc);
    if (t->P > 32) bad |= script_push(t, cap, ASW_REG_PFC_EN(1), (uint32_t)(o->pfc >> 32));
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
  t->reg_rate = o->scenario == TB_SCEN_REWRITE ? 4 : t->directed ? 2 : 16;
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
  free(t->sent_adapted);
  free(t->lane);
  free(t->h_occ);
  free(t->h_hot);
  free(t->rpaused);
  free(t->lf_until);
  free(t->rrem);
  asw_switch_free(t->probe);
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
  default:
    kind = rnd_below(t, PH_N);
    if (t->arn_on && chance(t, 50)) {
      static const unsigned arn_kinds[3] = {PH_HOTSPOT, PH_ARNBURST, PH_IDLE};
      kind = arn_kinds[rnd_below(t, 3)];
    }
    break;
  }
  t->phase = kind;
  t->phase_left = kind == PH_ARNBURST ? 5 + rnd_below(t, 40) : 300 + rnd_below(t, 2000);
  t->load = (double)(30 + rnd_below(t, 71)) / 100.0;
  t->max_delay = rnd_below(t, 12);
  if (t->opt.scenario == TB_SCEN_FULL) {
    t->load = 1.0;
    t->max_delay = 10 + rnd_below(t, 40);
  }
  if (kind == PH_LEN1 || kind == PH_LENMAX || kind == PH_HOTSPOT) t->load = 1.0;
  if (kind == PH_IDLE) t->load = 0.0;
  t->hot_dest = rnd_below(t, t->cfg.table_entries);
  if (t->npool && chance(t, 70)) t->hot_dest = t->pool[rnd_below(t, t->npool)];
  if (t->arn_on && kind == PH_HOTSPOT && chance(t, 70)) t->max_delay = rnd_below(t, 3);
  for (unsigned p = 0; p < t->P; p++) {
    /* withhold: all outputs in ZEROCRED, a random subset in a random run */
    t->rcv[p].withhold =
        kind == PH_WITHHOLD && (t->opt.scenario == TB_SCEN_ZEROCRED || chance(t, 50));
  }
}

static unsigned draw_len(tb_traffic *t) {
  unsigned lmax = t->cfg.max_packet;
  if (t->directed) return t->dlen_lo + rnd_below(t, t->dlen_hi - t->dlen_lo + 1);
  if (t->phase == PH_LEN1) return 1;
  if (t->phase == PH_LENMAX) return lmax;
  if (chance(t, 20)) return chance(t, 50) ? 1 : lmax;
  return 1 + rnd_below(t, lmax);
}

static uint64_t draw_header(tb_traffic *t, unsigned p, unsigned len) {
  unsigned table = t->cfg.table_entries;
  unsigned dest;
  if (t->directed) {
    unsigned seq = t->seq[p]++;
    t->sent_adapted[p * 8192 + seq / 8] &= (uint8_t)~(1u << seq % 8);
    if (t->dadapted) t->sent_adapted[p * 8192 + seq / 8] |= (uint8_t)(1u << seq % 8);
    return asw_hdr_make(t->ddest[p], p, t->dsl, len, t->dadapted, t->dvc[p], seq);
  }
  if (t->phase == PH_HOTSPOT)
    dest = t->hot_dest;
  else if (chance(t, 2) && table < (1u << t->cfg.dest_bits))
    dest = table + rnd_below(t, (1u << t->cfg.dest_bits) - table); /* beyond the table */
  else if (t->npool && chance(t, 40))
    dest = t->pool[rnd_below(t, t->npool)];
  else
    dest = rnd_below(t, table);
  unsigned adapted = (t->opt.vcmap == TB_VC_AFI || t->opt.vcmap == TB_VC_OBQA_AFI) ? chance(t, 15)
                                                                                  : chance(t, 3);
  unsigned seq = t->seq[p]++;
  t->sent_adapted[p * 8192 + seq / 8] &= (uint8_t)~(1u << seq % 8);
  if (adapted) t->sent_adapted[p * 8192 + seq / 8] |= (uint8_t)(1u << seq % 8);
  return asw_hdr_make(dest, p, rnd_below(t, 16), len, adapted, rnd_below(t, 8), seq);
}

/* ---- ARN messages of the random scenarios (§15.6) ------------------------ */
static unsigned other_stage(tb_traffic *t) { return (t->stage + 1 + rnd_below(t, 15)) & 0xFu; }

static void arn_stimulus(tb_traffic *t, asw_inputs *in) {
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

/* ---- per cycle -------------------------------------------------------------- */
/* §18: links go down at random and come back after V*LMAX .. 5*V*LMAX cycles (the
 * network's minimum, contract §18.3, so padding ends first). A down input cuts its
 * sender's packets in progress: the switch pads their remaining flits and returns their
 * credits (reserved with the head). No new fault while programming or draining. */
static void link_update(tb_traffic *t, uint64_t cycle, int quiet) {
  const unsigned span = t->V * t->cfg.max_packet;
  for (unsigned d = 0; d < 2; d++)
    for (unsigned p = 0; p < t->P; p++) {
      uint64_t *pins = d ? &t->lf_rx_up : &t->lf_up, bit = 1ULL << p;
      uint64_t *until = &t->lf_until[d * t->P + p];
      if (!(*pins & bit)) {
        if (cycle >= *until) *pins |= bit;
        continue;
      }
      if (quiet || (double)(rnd(t) >> 11) / 9007199254740992.0 >= t->opt.linkfault) continue;
      *pins &= ~bit;
      *until = cycle + span + rnd_below(t, 4 * span + 1);
      t->lf_downs++;
      if (d)
        for (unsigned v = 0; v < t->V; v++) {
          sender_vc *s = &t->snd[p * t->V + v];
          t->lf_in_pad += s->remaining;
          s->remaining = 0;
        }
    }
}

void tb_link_pins(const tb_traffic *t, uint64_t *up, uint64_t *rx_up) {
  *up = t->lf_up;
  *rx_up = t->lf_rx_up;
}

static uint64_t link_total(const tb_traffic *t, unsigned k) {
  return rd(t, ASW_REG_LINK_COUNTER(k));
}

void tb_link_report(const tb_traffic *t, char *buf, size_t len) {
  uint64_t c[ASW_LCNT_NUM];
  for (unsigned k = 0; k < ASW_LCNT_NUM; k++) c[k] = link_total(t, k);
  snprintf(buf, len,
           "link downs %llu flits_discarded %llu packets_discarded %llu packets_cut %llu "
           "flits_padded %llu self_credits %llu receiver_padded %llu",
           (unsigned long long)t->lf_downs, (unsigned long long)c[ASW_LCNT_FLITS_DISCARDED],
           (unsigned long long)c[ASW_LCNT_PACKETS_DISCARDED],
           (unsigned long long)c[ASW_LCNT_PACKETS_CUT], (unsigned long long)c[ASW_LCNT_FLITS_PADDED],
           (unsigned long long)(c[ASW_LCNT_FLITS_DISCARDED] - t->lf_out_pad),
           (unsigned long long)t->lf_out_pad);
}

/* After the drain, with link faults: every flit that entered the switch (sent, or padded
 * on a down input) left it or was discarded, the switch padded what the senders' cuts
 * left due, and the receivers padded only discarded flits (exact: CNT_CLEAR is not
 * written once a link has gone down). */
static int link_requirements(const tb_traffic *t, char *msg, size_t msglen) {
  if (t->opt.linkfault <= 0) return 0;
  uint64_t disc = link_total(t, ASW_LCNT_FLITS_DISCARDED);
  uint64_t pad = link_total(t, ASW_LCNT_FLITS_PADDED);
  if (t->st.flits_sent + t->lf_in_pad != t->st.flits_recv + disc || pad != t->lf_in_pad ||
      t->lf_out_pad > disc) {
    snprintf(msg, msglen, "link conservation: %llu flits sent + %llu cut on inputs != %llu "
             "received + %llu discarded, or FLITS_PADDED %llu != %llu, or receivers padded "
             "%llu > discarded",
             (unsigned long long)t->st.flits_sent, (unsigned long long)t->lf_in_pad,
             (unsigned long long)t->st.flits_recv, (unsigned long long)disc,
             (unsigned long long)pad, (unsigned long long)t->lf_in_pad,
             (unsigned long long)t->lf_out_pad);
    return -1;
  }
  if (t->opt.cycles >= 20000 && (!t->lf_downs || !disc || !pad)) {
    snprintf(msg, msglen, "LINKFAULT=%g: %llu links down, %llu flits discarded, %llu padded "
             "(a run this long must see all three)", t->opt.linkfault,
             (unsigned long long)t->lf_downs, (unsigned long long)disc, (unsigned long long)pad);
    return -1;
  }
  return 0;
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
static void lane_inputs(tb_traffic *t, asw_inputs *in) {
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
static void sar_account(tb_traffic *t) {
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

void tb_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in) {
  memset(in, 0, sizeof *in);
  in->flit = t->flit;
  in->credit_vc = t->credit_vc;
  in->arn = t->arn;
  int programming = t->script_pos < t->script_len;
  int draining = cycle >= t->drain_from;
  t->now = cycle;
  if (!programming && !t->s0) t->s0 = cycle;
  if (t->AE && !t->sweep && (draining || t->done)) t->sweep = 1;
  if (!programming && t->phase_left == 0 && !t->directed) new_phase(t);
  if (!programming && t->phase_left) t->phase_left--;
  if (t->opt.linkfault > 0) link_update(t, cycle, programming || draining);

  /* senders */
  for (unsigned p = 0; p < t->P && !programming; p++) {
    if (!(t->lf_rx_up >> p & 1u)) continue; /* §18.3: nothing on a down link */
    sender_vc *s = &t->snd[p * t->V];
    unsigned cand[8], n = 0;
    double load = t->directed ? ((t->dsrc >> p & 1u) ? t->dload : 0.0) : t->load;
    int want_new = !draining && load > 0 && (double)(rnd(t) >> 11) / 9007199254740992.0 < load;
    for (unsigned v = 0; v < t->V; v++) {
      if (t->directed && !s[v].remaining && (s[v].next_len < t->dlen_lo || s[v].next_len > t->dlen_hi))
        s[v].next_len = draw_len(t); /* the flow's lengths from its first packet */
      if (s[v].remaining) {
        /* a packet in progress continues, with random gaps */
        if (want_new || draining || chance(t, 50)) cand[n++] = v;
      } else if (want_new && s[v].credits >= s[v].next_len && (!t->directed || v == t->dvc[p])) {
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
      if (!(t->opt.pfc >> p & 1u)) s[v].credits -= len; /* a PFC port reserves nothing */
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
    if (t->opt.pfc >> o & 1u) { /* PFC: pause and resume priorities at random (§17.1) */
      if (programming) continue;
      unsigned v = rnd_below(t, t->V), paused = t->rpaused[o] >> v & 1u;
      int flip = draining ? t->rpaused[o] != 0 : r->withhold ? !paused && chance(t, 5)
                                                              : chance(t, 3);
      if (!flip) continue;
      if (draining) v = (unsigned)__builtin_ctz(t->rpaused[o]); /* resume all at the end */
      t->rpaused[o] ^= (uint8_t)(1u << v);
      t->credit_vc[o] = (uint8_t)v;
      in->credit_mask |= 1ULL << o;
      continue;
    }
    if (!r->count || (r->withhold && !draining)) continue;
    pending_credit *c = &r->ring[r->head];
    if (c->due > cycle) continue;
    t->credit_vc[o] = c->vc;
    in->credit_mask |= 1ULL << o;
    r->head = (r->head + 1) % r->cap;
    r->count--;
  }

  /* ARN inputs: real §15.6 messages with ARN on, else junk (ignored in mode 0). */
  if (t->directed) {
    if (!programming) dir_inputs(t, cycle, in);
  } else if (t->arn_on && !programming && !draining) {
    arn_stimulus(t, in);
  } else if (chance(t, 5)) {
    unsigned o = rnd_below(t, t->P);
    in->arn_mask |= 1ULL << o;
    t->arn[o] = (uint32_t)rnd(t);
  }

  /* register bus */
  if (!programming && t->wq_pos < t->wq_n) { /* directed scenarios' writes */
    in->reg_en = 1;
    in->reg_we = 1;
    in->reg_addr = t->wq[t->wq_pos];
    in->reg_wdata = t->wq[t->wq_pos + 1];
    t->wq_pos += 2;
    if (t->wq_pos == t->wq_n) t->wq_pos = t->wq_n = 0;
    t->st.reg_writes++;
  } else if (!programming && t->restore_at && cycle >= t->restore_at) {
    in->reg_en = 1; /* restore ARN_CTRL after a random mode-0 clear */
    in->reg_we = 1;
    in->reg_addr = ASW_REG_ARN_CTRL;
    in->reg_wdata = t->arn_ctrl_cfg;
    t->restore_at = 0;
    t->st.reg_writes++;
  } else if (!programming && draining && t->opt.gap && t->gap_clear <= (t->P + 7) / 8) {
    /* §17.7: the drain at full speed (slowed outputs would outlast it): every PORT_GAP 0,
     * one register a cycle; gap_clear - 1 registers done (0: not started) */
    if (!t->gap_clear) t->gap_clear = 1;
    unsigned k = t->gap_clear - 1;
    in->reg_en = 1;
    in->reg_we = 1;
    in->reg_addr = ASW_REG_PORT_GAP(k);
    in->reg_wdata = 0;
    t->gap_clear++;
    t->st.reg_writes++;
  } else if (!programming && t->sweep && sweep_addr(t, t->sweep - 1)) {
    in->reg_en = 1;
    in->reg_addr = sweep_addr(t, t->sweep - 1);
    in->reg_wdata = (uint32_t)rnd(t);
    t->sweep++;
    t->st.reg_reads++;
  } else if (programming) {
    in->reg_en = 1;
    in->reg_we = 1;
    in->reg_addr = t->script[t->script_pos];
    in->reg_wdata = t->script[t->script_pos + 1];
    t->script_pos += 2;
    t->st.reg_writes++;
  } else if (rnd_below(t, t->reg_rate) == 0) {
    in->reg_en = 1;
    if (!t->directed && chance(t, t->rewrite_rate)) {
      in->reg_we = 1;
      random_write(t, &in->reg_addr, &in->reg_wdata);
      t->st.reg_writes++;
    } else {
      in->reg_addr = random_read_addr(t);
      in->reg_wdata = (uint32_t)rnd(t); /* ignored on reads */
      t->st.reg_reads++;
    }
  }
  lane_inputs(t, in);
}

/* The receiver on output o returns a credit for VC vc after a random delay. */
static void receiver_credit(tb_traffic *t, unsigned o, unsigned vc, uint64_t cycle) {
  receiver *r = &t->rcv[o];
  uint64_t due = cycle + 1 + rnd_below(t, (t->directed ? r->maxd : t->max_delay) + 1);
  if (r->count) {
    uint64_t last = r->ring[(r->head + r->count - 1) % r->cap].due;
    if (due < last) due = last;
  }
  if (r->count < r->cap) {
    r->ring[(r->head + r->count) % r->cap] = (pending_credit){due, (uint8_t)vc};
    r->count++;
  }
}

void tb_outputs(tb_traffic *t, uint64_t cycle, const asw_outputs *out) {
  for (unsigned o = 0; o < t->P; o++) {
    if (!((out->flit_mask >> o) & 1)) continue;
    if (!(t->opt.pfc >> o & 1u)) /* a PFC receiver returns no credits */
      receiver_credit(t, o, out->flit[o].vc, cycle);
    if (t->opt.linkfault > 0) { /* flits still due of the packet in progress */
      uint8_t *rem = &t->rrem[o * t->V + out->flit[o].vc];
      *rem = out->flit[o].head ? (uint8_t)(ASW_HDR_LEN(out->flit[o].hdr) - 1) : (uint8_t)(*rem - 1);
    }
    t->st.flits_recv++;
    if (--t->outstanding == 0) t->st.drains++;
    if (t->opt.gap) { /* §17.7: at most one flit every GAP + 1 cycles */
      unsigned g = t->gap[o];
      if (g && t->gap_last[o] && t->gap_last[o] >= t->gap_since[o] + 32) {
        uint64_t dt = cycle - t->gap_last[o];
        t->gap_flits++;
        t->gap_spaced += dt == g + 1u;
        if (dt < g + 1u)
          failf(t, "output %u: a flit %llu cycles after the previous one, GAP %u", o,
                (unsigned long long)dt, g);
      }
      t->gap_last[o] = cycle;
    }
    const asw_flit *f = &out->flit[o];
    if (f->head && ASW_HDR_ADAPTED(f->hdr)) {
      unsigned src = ASW_HDR_SRC(f->hdr), seq = ASW_HDR_SEQ(f->hdr);
      if (src < t->P && !(t->sent_adapted[src * 8192 + seq / 8] >> seq % 8 & 1u)) t->marked++;
    }
    if (t->directed && f->head) dir_output(t, o, f);
    if (t->opt.vcadapt && f->head && (rd(t, ASW_REG_ROUTE_CTRL) & 3u) == ASW_ROUTE_VCADAPT) {
      /* §16.3: on det_port, a VC outside the candidates W: the fallback (entry as now) */
      uint32_t e = rd(t, ASW_REG_FWD(ASW_HDR_DEST(f->hdr)));
      unsigned vlo = e >> 8 & 7u, vn = (e >> 11 & 7u) + 1;
      unsigned wm = (((1u << vn) - 1u) << vlo) & ((1u << t->V) - 1u);
      if (!wm) wm = 1;
      if ((e >> 31) && (e & 0x3Fu) == o && !(wm >> f->vc & 1u)) t->vca_fb_vc++;
    }
  }
  /* §18.3 at the far end of a down output: a packet cut after its head is padded there,
   * and the padding's credits come back like the flits' (the switch discards the rest). */
  for (uint64_t m = port_mask(t) & ~t->lf_up; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    for (unsigned v = 0; v < t->V; v++)
      for (; t->rrem[o * t->V + v]; t->rrem[o * t->V + v]--) {
        receiver_credit(t, o, v, cycle);
        t->lf_out_pad++;
      }
  }
  for (uint64_t m = out->arn_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    t->arn_out_msgs++;
    if (t->directed) dir_arn_out(t, i, out->arn[i]);
  }
  for (unsigned p = 0; p < t->P; p++) {
    if (!((out->credit_mask >> p) & 1)) continue;
    sender_vc *s = &t->snd[p * t->V + out->credit_vc[p]];
    if (t->opt.pfc >> p & 1u) s->credits = s->credits ? 0 : t->cfg.buf_flits; /* a PFC frame */
    else s->credits++;
  }
  for (unsigned k = 0; k < t->P * t->V; k++) {
    int full = t->snd[k].credits == 0;
    if (full && !t->was_full[k]) t->st.fills++;
    t->was_full[k] = (uint8_t)full;
  }
}

void tb_observe(tb_traffic *t, const asw_switch *ref, uint64_t cycle, const asw_inputs *in) {
  t->ref = ref;
  t->now = cycle;
  if (in->reg_en && in->reg_we && getenv("TB_TRACE_REGS"))
    fprintf(stderr, "c%llu W 0x%05x 0x%08x errs %u\n", (unsigned long long)cycle, in->reg_addr,
            in->reg_wdata, rd(t, ASW_REG_REG_ERRORS));
  if (t->AE && in->reg_en && in->reg_we && in->reg_addr == ASW_REG_CNT_CLEAR)
    for (unsigned k = 0; k < ASW_ACNT_NUM; k++) t->acc[k] += csum(t, k);
  if (in->reg_en && in->reg_we && in->reg_addr == ASW_REG_CNT_CLEAR)
    for (unsigned k = 0; k < ASW_BCNT_NUM; k++) t->bacc[k] += bsum(t, k);
  if (t->opt.vcadapt) { /* §16.3: registers as at the start of this cycle (the C model's) */
    if (in->reg_en && in->reg_we && in->reg_addr == ASW_REG_CNT_CLEAR)
      for (unsigned p = 0; p < t->P; p++)
        t->vca_adaptive_acc += rd(t, ASW_REG_COUNTER(p, ASW_CNT_ADAPTIVE));
    if ((rd(t, ASW_REG_ROUTE_CTRL) & 3u) == ASW_ROUTE_VCADAPT)
      for (uint64_t m = in->flit_mask; m; m &= m - 1)
        t->vca_heads += in->flit[__builtin_ctzll(m)].head;
  }
  if (t->directed && t->s0 && cycle >= t->s0) dir_observe(t, cycle);
  if (t->opt.sar) sar_account(t); /* §17.8 */
  if (t->opt.gap && in->reg_en && in->reg_we && in->reg_addr >= ASW_REG_PORT_GAP(0) &&
      in->reg_addr < ASW_REG_PORT_GAP(8) && /* §17.7 */
      asw_reg_write(t->probe, in->reg_addr, in->reg_wdata) == ASW_OK)
    for (unsigned j = 0, k = in->reg_addr - ASW_REG_PORT_GAP(0); j < 8; j++) {
      unsigned o = 8 * k + j, g = ASW_PORT_GAP_OF(in->reg_wdata, j);
      if (o < t->P && g != t->gap[o]) t->gap_since[o] = cycle + 1;
      t->gap[o] = (uint8_t)g;
    }
  if (t->opt.hash) { /* §17.6: which kind the arriving heads are routed with */
    if (in->reg_en && in->reg_we && in->reg_addr == ASW_REG_ROUTE_HASH &&
        asw_reg_write(t->probe, ASW_REG_ROUTE_HASH, in->reg_wdata) == ASW_OK)
      t->rh_cur = in->reg_wdata;
    unsigned kind = ASW_RH_KIND(t->rh_cur);
    if (kind == 1 || kind == 2)
      for (uint64_t m = in->flit_mask; m; m &= m - 1)
        t->rh_heads[kind - 1] += in->flit[__builtin_ctzll(m)].head;
  }
}

void tb_gap_report(const tb_traffic *t, char *buf, size_t len) {
  snprintf(buf, len, "gap flits %llu spaced %llu", (unsigned long long)t->gap_flits,
           (unsigned long long)t->gap_spaced);
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

void tb_hash_report(const tb_traffic *t, char *buf, size_t len) {
  snprintf(buf, len, "hash flow %llu digit %llu", (unsigned long long)t->rh_heads[0],
           (unsigned long long)t->rh_heads[1]);
}

void tb_get_arn_totals(const tb_traffic *t, tb_arn_totals *a) {
  memset(a, 0, sizeof *a);
  for (unsigned k = 0; k < ASW_ACNT_NUM; k++) a->cnt[k] = t->acc[k] + (t->AE ? csum(t, k) : 0);
  a->arn_out_msgs = t->arn_out_msgs;
  a->marked = t->marked;
}

static void bubble_report(const tb_traffic *t, char *buf, size_t len) {
  size_t n = strlen(buf);
  if (n + 1 < len)
    snprintf(buf + n, len - n, "\nbubble ring_enter %llu bubble_stall %llu",
             (unsigned long long)(t->bacc[ASW_BCNT_RING_ENTER] + bsum(t, ASW_BCNT_RING_ENTER)),
             (unsigned long long)(t->bacc[ASW_BCNT_BUBBLE_STALL] + bsum(t, ASW_BCNT_BUBBLE_STALL)));
}

void tb_arn_report(const tb_traffic *t, char *buf, size_t len) {
  if (!t->AE) {
    snprintf(buf, len, "arn AE=0 marked %llu", (unsigned long long)t->marked);
    bubble_report(t, buf, len);
    return;
  }
  tb_arn_totals a;
  tb_get_arn_totals(t, &a);
  snprintf(buf, len,
           "arn %s roots %llu sent %llu received %llu consumed %llu expired %llu adapted %llu "
           "in_dropped %llu out_dropped %llu evicted %llu arn_out %llu marked %llu",
           arn_names[t->opt.arn], (unsigned long long)a.cnt[ASW_ACNT_ROOTS],
           (unsigned long long)a.cnt[ASW_ACNT_SENT], (unsigned long long)a.cnt[ASW_ACNT_RECEIVED],
           (unsigned long long)a.cnt[ASW_ACNT_CONSUMED], (unsigned long long)a.cnt[ASW_ACNT_EXPIRED],
           (unsigned long long)a.cnt[ASW_ACNT_ADAPTED], (unsigned long long)a.cnt[ASW_ACNT_IN_DROPPED],
           (unsigned long long)a.cnt[ASW_ACNT_OUT_DROPPED], (unsigned long long)a.cnt[ASW_ACNT_EVICTED],
           (unsigned long long)a.arn_out_msgs, (unsigned long long)t->marked);
  bubble_report(t, buf, len);
}

/* §16.1: a random run with the rule on must have blocked and admitted heads
 * by it; with BUBBLE left at 0 nothing may count. */
static int bubble_requirements(const tb_traffic *t, char *msg, size_t msglen) {
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

/* The §15 events a random run must have seen (fails the run otherwise). */
static int arn_requirements(const tb_traffic *t, char *msg, size_t msglen) {
  tb_arn_totals a;
  tb_get_arn_totals(t, &a);
  if (!t->AE) return 0;
  if (!t->arn_on) { /* mode 0 all along (ARN=off or Adaptive-Th+AFI): nothing of §15 */
    for (unsigned k = 0; k < ASW_ACNT_NUM; k++)
      if (a.cnt[k]) {
        snprintf(msg, msglen, "ARN=%s: ARN counter %u is %llu in mode 0", arn_names[t->opt.arn], k,
                 (unsigned long long)a.cnt[k]);
        return -1;
      }
    if (a.arn_out_msgs) {
      snprintf(msg, msglen, "ARN=%s: %llu ARN messages sent in mode 0", arn_names[t->opt.arn],
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
               scen_names[t->opt.scenario], need[j].name);
      return -1;
    }
  if (n && t->opt.arn == TB_ARN_AFI && !t->marked) {
    snprintf(msg, msglen, "ARN=afi: no packet left adapted after entering non-adapted");
    return -1;
  }
  return 0;
}

int tb_check_end(const tb_traffic *t, char *msg, size_t msglen) {
  if (t->fail[0]) {
    snprintf(msg, msglen, "%s", t->fail);
    return -1;
  }
  if (t->directed && !t->done) {
    snprintf(msg, msglen, "scenario %s did not reach its end (CYCLES too small?)",
             scen_names[t->opt.scenario]);
    return -1;
  }
  if (arn_requirements(t, msg, msglen)) return -1;
  if (bubble_requirements(t, msg, msglen)) return -1;
  /* §16.3: a VCADAPT run of 20 000 cycles or more must route in mode 3, off det_port,
   * and (V >= 2) fall back to a VC outside the candidates */
  if (t->opt.vcadapt && t->opt.cycles >= 20000 &&
      (!t->vca_heads || !vca_adaptive_total(t) || (t->V >= 2 && !t->vca_fb_vc))) {
    char r[160];
    tb_vcadapt_report(t, r, sizeof r);
    snprintf(msg, msglen, "VCADAPT=1: mode 3 not exercised (%s)", r);
    return -1;
  }
  if (link_requirements(t, msg, msglen)) return -1;
  if (t->opt.linkfault <= 0 && t->st.flits_sent != t->st.flits_recv) {
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
