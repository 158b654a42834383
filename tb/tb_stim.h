/* tb_stim.h — the stimulus's internal state and the interfaces between its files
 * (tb/README.md, file map): the core (tb_traffic.c: senders, receivers, phases, the
 * cycle), the register stimulus of each feature registered in one table
 * (tb_stim_regs.c and the feature files), and the directed §15 scenarios
 * (tb_directed.c). Not for the harnesses: they use tb_traffic.h.
 *
 * Every file draws from the one random stream of the run (rnd, in the order the
 * core calls them), so the stimulus of a seed is one fixed sequence: a change in the
 * order of the calls changes every run after it.
 */
#ifndef TB_STIM_H
#define TB_STIM_H

#include <stdint.h>

#include "tb_traffic.h"


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
static inline uint64_t rnd(tb_traffic *t) {
  t->rng ^= t->rng >> 12;
  t->rng ^= t->rng << 25;
  t->rng ^= t->rng >> 27;
  return t->rng * 0x2545F4914F6CDD1DULL;
}
static inline unsigned rnd_below(tb_traffic *t, unsigned n) { return n ? (unsigned)(rnd(t) % n) : 0; }
static inline int chance(tb_traffic *t, unsigned percent) { return rnd_below(t, 100) < percent; }

/* ---- observation of the C model (register reads, no time advance) ---------- */
/* Records the first failed assertion of the run ("cycle N (scenario cycle M): ..."). */
void tb_failf(tb_traffic *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline uint32_t rd(const tb_traffic *t, uint32_t a) {
  uint32_t d = 0;
  if (t->ref) asw_reg_read(t->ref, a, &d);
  return d;
}
static inline uint64_t cnt(const tb_traffic *t, unsigned p, unsigned k) {
  return rd(t, ASW_REG_ARN_COUNTER(p, k));
}
static inline uint64_t csum(const tb_traffic *t, unsigned k) {
  uint64_t s = 0;
  for (unsigned p = 0; p < t->P; p++) s += cnt(t, p, k);
  return s;
}
static inline uint64_t port_mask(const tb_traffic *t) { return t->P >= 64 ? ~0ULL : (1ULL << t->P) - 1; }
/* A programming script entry (address, data), written one per cycle; -1 when the
 * script (cap words) is full. */
static inline int script_push(tb_traffic *t, unsigned cap, uint32_t a, uint32_t d) {
  if (t->script_len + 2 > cap) return -1;
  t->script[t->script_len++] = a;
  t->script[t->script_len++] = d;
  return 0;
}

/* ---- the register stimulus of each feature (tb_stim_regs.c holds the table) ----------
 * One row per feature (or concern) with register stimulus; every hook may be NULL.
 * program: its part of the programming script (run in table order; 0, or -1 if the
 *   script overflowed). write_pct / read_pct: the share (%) of the random register
 *   writes / reads the feature takes while traffic flows, 0 when the run does not
 *   exercise it (then no random number is drawn); write / read: one such access.
 * observe: the C model at the start of each cycle (counter totals across CNT_CLEAR, own
 *   models); draws no random number. check: the end-of-run requirements (0, or -1
 *   with a message). */
typedef struct {
  const char *name;
  int (*program)(tb_traffic *t, unsigned cap);
  unsigned (*write_pct)(const tb_traffic *t);
  void (*write)(tb_traffic *t, uint32_t *a, uint32_t *d);
  unsigned (*read_pct)(const tb_traffic *t);
  uint32_t (*read)(tb_traffic *t);
  void (*observe)(tb_traffic *t, uint64_t cycle, const asw_inputs *in);
  int (*check)(const tb_traffic *t, char *msg, size_t msglen);
} tb_feature;

/* The rows, each defined in its feature's file. */
extern const tb_feature tb_feat_base, tb_feat_unbuilt, tb_feat_vcadapt; /* tb_stim_regs.c */
extern const tb_feature tb_feat_arn;                                     /* tb_stim_arn.c */
extern const tb_feature tb_feat_bubble, tb_feat_pfc, tb_feat_qcn, tb_feat_hash,
    tb_feat_gap;                                                         /* tb_stim_features.c */
extern const tb_feature tb_feat_sar;                                     /* tb_stim_sar.c */
extern const tb_feature tb_feat_link;                                    /* tb_stim_link.c */
extern const tb_feature tb_feat_directed;                                /* tb_directed.c */

/* tb_stim_regs.c: the programming script (every row's program, in table order); one
 * random register write / read address while traffic flows (the first row, in draw
 * order, that takes it, else the base registers); the per-cycle observers and the
 * end-of-run checks of every row. */
int tb_program(tb_traffic *t, unsigned cap);
/* The pool of ARN / CNM destinations (min(n, TABLE, POOL_MAX) table entries drawn at
 * random, given multipath FWD entries mostly) and its programming. */
int tb_program_pool(tb_traffic *t, unsigned cap, unsigned n);
void tb_random_write(tb_traffic *t, uint32_t *a, uint32_t *d);
uint32_t tb_random_read_addr(tb_traffic *t);
void tb_features_observe(tb_traffic *t, uint64_t cycle, const asw_inputs *in);
int tb_features_check(const tb_traffic *t, char *msg, size_t msglen);

/* tb_stim_arn.c: the §15 read sweep (0 past the last address); the ARN messages of the
 * random scenarios on arn_in. */
uint32_t tb_sweep_addr(const tb_traffic *t, unsigned k);
void tb_arn_stimulus(tb_traffic *t, asw_inputs *in);

/* tb_stim_features.c: appends the line "bubble ring_enter N bubble_stall N". */
void tb_bubble_report_append(const tb_traffic *t, char *buf, size_t len);

/* tb_stim_link.c: §18 links going down and up (no new fault when quiet). */
void tb_link_update(tb_traffic *t, uint64_t cycle, int quiet);

/* tb_stim_sar.c: the §17.8 CNM lane words of the cycle (a random stream of its own). */
void tb_lane_inputs(tb_traffic *t, asw_inputs *in);

/* tb_directed.c: the directed §15 scenarios' inputs, and what they see leave the
 * switch (flits on output o, ARN messages on output i). */
void tb_dir_inputs(tb_traffic *t, uint64_t cycle, asw_inputs *in);
void tb_dir_output(tb_traffic *t, unsigned o, const asw_flit *f);
void tb_dir_arn_out(tb_traffic *t, unsigned i, uint32_t msg);

#endif
