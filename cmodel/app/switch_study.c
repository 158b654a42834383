/* switch_study.c — see switch_study.h. */
#include "switch_study.h"

#include "asw_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers: xoshiro256** seeded by splitmix64 ---- */
typedef struct { uint64_t s[4]; } rng_t;
static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static void rng_seed(rng_t *r, uint64_t seed) {
  for (int k = 0; k < 4; k++) r->s[k] = splitmix(&seed);
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t rng_next(rng_t *r) {
  uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
  s[2] ^= t; s[3] = rotl(s[3], 45);
  return res;
}
static inline double rng_unit(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }
static inline unsigned rng_below(rng_t *r, unsigned n) {
  return (unsigned)(((rng_next(r) >> 32) * n) >> 32);
}

/* ---- payload encoding ---- */
static inline uint64_t hash18(uint64_t hdr, unsigned src, uint32_t gen) {
  uint64_t x = hdr ^ ((uint64_t)src << 58) ^ ((uint64_t)gen * 0x9E3779B97F4A7C15ull);
  x ^= x >> 33; x *= 0xFF51AFD7ED558CCDull; x ^= x >> 33;
  return x & 0x3FFFFu;
}
static inline uint64_t payload_make(unsigned src, unsigned idx, uint32_t gen, uint64_t hdr) {
  return (uint64_t)src << 58 | (uint64_t)(idx & 0xFFu) << 50 | (uint64_t)gen << 18 |
         hash18(hdr, src, gen);
}
#define PL_SRC(x) ((unsigned)((x) >> 58))
#define PL_IDX(x) ((unsigned)((x) >> 50 & 0xFFu))
#define PL_GEN(x) ((uint32_t)((x) >> 18))
#define PL_HASH(x) ((x) & 0x3FFFFu)
#define ADAPT_BITS (0xFull << 44) /* adapted, orig_vc: the switch may set them */

/* ---- growable FIFO of generated packets ---- */
typedef struct { uint32_t gen; uint16_t dest, seq; } pkt_rec;
typedef struct { pkt_rec *buf; size_t cap, head, n; } pkt_fifo;
static int fifo_push(pkt_fifo *f, pkt_rec r) {
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 64;
    pkt_rec *b = malloc(cap * sizeof *b);
    if (!b) return -1;
    for (size_t k = 0; k < f->n; k++) b[k] = f->buf[(f->head + k) % f->cap];
    free(f->buf);
    f->buf = b;
    f->cap = cap;
    f->head = 0;
  }
  f->buf[(f->head + f->n) % f->cap] = r;
  f->n++;
  return 0;
}
static pkt_rec fifo_pop(pkt_fifo *f) {
  pkt_rec r = f->buf[f->head];
  f->head = (f->head + 1) % f->cap;
  f->n--;
  return r;
}

void study_defaults(study_params *sp) {
  memset(sp, 0, sizeof *sp);
  asw_config_default(&sp->sw);
  sp->sw.ports = 16;
  sp->sw.vcs = 1;
  sp->sw.voq = 1;
  sp->sw.iters = 1;
  sp->sw.buf_flits = 64;
  sp->sw.max_packet = 16;
  sp->sw.payload_bits = 64;
  sp->routing = ASW_ROUTE_DET;
  sp->trigger = ASW_TRIG_NOTH;
  sp->load = 0.5;
  sp->packet_flits = 1;
  sp->cycles = 20000;
  sp->warmup = 2000;
  sp->seed = 1;
  sp->credit_delay = 1;
  sp->dest = STUDY_DEST_UNIFORM;
  sp->hot_fraction = 0.0;
}

#define FAIL(...)                                         \
  do {                                                    \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    return -1;                                            \
  } while (0)

int study_check(const study_params *sp, char *err, size_t errlen) {
  asw_config c = sp->sw;
  c.payload_bits = 64;
  if (c.table_entries < c.ports) c.table_entries = c.ports;
  if (asw_config_check(&c, err, errlen)) return -1;
  if (sp->routing > 2) FAIL("routing %u is not det, oblivious or adaptive", sp->routing);
  if (sp->trigger > 2) FAIL("trigger %u is not noth, th or 2th", sp->trigger);
  if (!(sp->load >= 0.0 && sp->load <= 1.0)) FAIL("load %g out of range 0..1", sp->load);
  if (sp->packet_flits < 1 || sp->packet_flits > c.max_packet)
    FAIL("packet length %u out of range 1..LMAX = 1..%u", sp->packet_flits, c.max_packet);
  if (sp->cycles < 1 || sp->cycles > 0xFFFFFFFFull)
    FAIL("cycles %llu out of range 1..2^32-1", (unsigned long long)sp->cycles);
  if (sp->warmup >= sp->cycles)
    FAIL("warmup %llu must be smaller than cycles %llu",
         (unsigned long long)sp->warmup, (unsigned long long)sp->cycles);
  if (sp->credit_delay < 1 || sp->credit_delay > 1000000)
    FAIL("credit delay %u out of range 1..1000000", sp->credit_delay);
  if (sp->dest > 2) FAIL("destination pattern %u unknown", sp->dest);
  if (sp->dest == STUDY_DEST_HOTSPOT) {
    if (sp->hot_port >= c.ports) FAIL("hotspot port %u >= ports %u", sp->hot_port, c.ports);
    if (!(sp->hot_fraction >= 0.0 && sp->hot_fraction <= 1.0))
      FAIL("hotspot fraction %g out of range 0..1", sp->hot_fraction);
  }
  if (sp->cycles + sp->drain > 0xFFFFFFFFull) FAIL("cycles + drain must be < 2^32");
  if (sp->arn > ASW_ARN_AFI) FAIL("arn mode %u is not off, arn or afi", sp->arn);
  if (sp->arn && !c.voq) FAIL("arn needs VOQ on");
  if (sp->arn && !c.arn_entries) FAIL("arn needs an ARN table (AE >= 1)");
  if (sp->arn == ASW_ARN_AFI && c.vcs < 2) FAIL("arn afi needs --vcs >= 2 (the last VC is the AFC)");
  unsigned h = sp->hcdth ? sp->hcdth : c.buf_flits * 81u / 100u,
           l = sp->lcdth ? sp->lcdth : c.buf_flits * 63u / 100u;
  if (h < 1) h = 1;
  if (l < 1) l = 1;
  if (h > c.buf_flits) FAIL("HCDTH %u > BUF %u", h, c.buf_flits);
  if (l > h) FAIL("LCDTH %u > HCDTH %u", l, h);
  if (sp->fcth > c.buf_flits) FAIL("FCTH %u > BUF %u", sp->fcth, c.buf_flits);
  return 0;
}

int study_program_switch(asw_switch *sw, const study_params *sp, char *err,
                         size_t errlen) {
  unsigned P = sp->sw.ports;
  int multipath = sp->routing != ASW_ROUTE_DET;
  if (multipath) {
    uint64_t cset[4] = {0, 0, 0, 0};
    for (unsigned p = 0; p < P; p++) cset[study_group(p, P)] |= 1ull << p;
    for (unsigned c = 0; c < 4; c++)
      for (unsigned w = 0; w < 2; w++)
        if (asw_reg_write(sw, ASW_REG_CSET(c, w), (uint32_t)(cset[c] >> (32 * w))))
          FAIL("programming CSET[%u]: %s", c, asw_switch_error(sw));
  }
  for (unsigned d = 0; d < P; d++)
    if (asw_reg_write(sw, ASW_REG_FWD(d),
                      asw_fwd_entry(d, 0, multipath ? study_group(d, P) : 0,
                                    (unsigned)multipath)))
      FAIL("programming FWD[%u]: %s", d, asw_switch_error(sw));
  if (asw_reg_write(sw, ASW_REG_ROUTE_CTRL,
                    asw_route_ctrl(sp->routing, sp->trigger, 0xFF, 1)))
    FAIL("programming ROUTE_CTRL: %s", asw_switch_error(sw));
  if (sp->arn) {
    uint64_t up = sp->arn_up ? (P == 64 ? ~0ull : (1ull << P) - 1) : 0;
    uint32_t cur;
    asw_reg_read(sw, ASW_REG_CD_THRESH, &cur);
    uint32_t thr = (sp->hcdth ? sp->hcdth : (cur & 0xFFFFu)) |
                   (sp->lcdth ? sp->lcdth : cur >> 16) << 16;
    if ((sp->arn == ASW_ARN_AFI && asw_reg_write(sw, ASW_REG_VC_CTRL, 2)) ||
        asw_reg_write(sw, ASW_REG_ARN_UP(0), (uint32_t)up) ||
        asw_reg_write(sw, ASW_REG_ARN_UP(1), (uint32_t)(up >> 32)) ||
        asw_reg_write(sw, ASW_REG_CD_THRESH, thr) ||
        (sp->fcth && asw_reg_write(sw, ASW_REG_FCTH, sp->fcth)) ||
        (sp->crt && asw_reg_write(sw, ASW_REG_CRT, sp->crt)) ||
        (sp->arn_ttl && asw_reg_write(sw, ASW_REG_ARN_TTL, sp->arn_ttl)) ||
        asw_reg_write(sw, ASW_REG_ARN_CTRL, asw_arn_ctrl(sp->arn, 0)))
      FAIL("programming the ARN registers: %s", asw_switch_error(sw));
  }
  return 0;
}

/* Per output VC: the packet being received. */
typedef struct {
  int active;
  unsigned src, idx, len;
  uint32_t gen;
  uint64_t hash;
} rx_state;

typedef struct {
  const study_params *sp;
  unsigned P, V, L;
  asw_switch *sw;
  rng_t rng;
  unsigned *perm;
  pkt_fifo *q;        /* [P*V] source queues */
  unsigned *credits;  /* [P*V] source credits towards the switch */
  unsigned *tx_vc, *tx_left, *tx_rr; /* [P] packet in progress per source */
  pkt_rec *tx_pkt;    /* [P] */
  uint16_t *seq_next; /* [P*P] next seq per (src, dest) */
  uint16_t *seq_exp;  /* [P*P] expected seq per (src, dest), det mode */
  uint32_t *last_gen; /* [P*P*P] last generation cycle per (src,dest,out) +1 */
  rx_state *rx;       /* [P*V] */
  uint8_t *delay;     /* [P*(D+1)] credit delay line: vc+1 or 0 */
  uint64_t *lat_hist; /* latency histogram */
  size_t lat_cap;
  uint64_t in_flight; /* packets generated, not yet fully delivered */
  char *err;
  size_t errlen;
} study_state;

static int scoreboard_fail(study_state *st, uint64_t cyc, unsigned o, const char *fmt, ...) {
  va_list ap;
  char msg[200];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (st->err && st->errlen)
    snprintf(st->err, st->errlen, "cycle %llu, output %u: %s",
             (unsigned long long)cyc, o, msg);
  return -1;
}

static int record_latency(study_state *st, uint64_t lat) {
  if (lat >= st->lat_cap) {
    size_t cap = st->lat_cap ? st->lat_cap : 256;
    while (cap <= lat) cap *= 2;
    uint64_t *h = realloc(st->lat_hist, cap * sizeof *h);
    if (!h) return -1;
    memset(h + st->lat_cap, 0, (cap - st->lat_cap) * sizeof *h);
    st->lat_hist = h;
    st->lat_cap = cap;
  }
  st->lat_hist[lat]++;
  return 0;
}

/* Checks one delivered flit; returns 0 or -1 (message in st->err). */
static int sink_flit(study_state *st, study_result *res, uint64_t cyc,
                     unsigned o, const asw_flit *f) {
  const study_params *sp = st->sp;
  unsigned P = st->P;
  if (f->vc >= st->V) return scoreboard_fail(st, cyc, o, "flit on vc %u >= V", f->vc);
  rx_state *rx = &st->rx[o * st->V + f->vc];
  uint64_t pl = f->payload;
  if (f->head) {
    if (rx->active) return scoreboard_fail(st, cyc, o, "head while a packet is in progress on vc %u", f->vc);
    unsigned src = ASW_HDR_SRC(f->hdr), dest = ASW_HDR_DEST(f->hdr), len = ASW_HDR_LEN(f->hdr);
    if (src >= P || dest >= P || PL_SRC(pl) != src || PL_IDX(pl) != 0 ||
        PL_HASH(pl) != hash18(f->hdr & ~ADAPT_BITS, src, PL_GEN(pl)) || len != sp->packet_flits)
      return scoreboard_fail(st, cyc, o, "corrupted head flit (hdr 0x%016llx payload 0x%016llx)",
                             (unsigned long long)f->hdr, (unsigned long long)pl);
    if (sp->routing == ASW_ROUTE_DET ? dest != o : study_group(dest, P) != study_group(o, P))
      return scoreboard_fail(st, cyc, o, "packet for destination %u on wrong output", dest);
    /* sources send SL = VC = dest mod V; the switch may mark a packet it
     * routes by a consumed ARN entry as adapted (AFC, original VC kept) */
    unsigned want_vc = ASW_HDR_SL(f->hdr) % st->V;
    if (ASW_HDR_ADAPTED(f->hdr)) {
      if (sp->arn != ASW_ARN_AFI || ASW_HDR_ORIG_VC(f->hdr) != want_vc)
        return scoreboard_fail(st, cyc, o, "unexpected adapted packet (hdr 0x%016llx)",
                               (unsigned long long)f->hdr);
      want_vc = st->V - 1;
    }
    if (f->vc != want_vc)
      return scoreboard_fail(st, cyc, o, "packet with SL %u on vc %u", ASW_HDR_SL(f->hdr), f->vc);
    uint32_t *last = &st->last_gen[(src * P + dest) * P + o];
    uint32_t gen = PL_GEN(pl);
    if (*last && gen + 1 <= *last)
      return scoreboard_fail(st, cyc, o, "packet %u->%u generated at %u after one generated at %u: reordered or duplicated",
                             src, dest, gen, *last - 1);
    *last = gen + 1;
    if (sp->routing == ASW_ROUTE_DET) {
      uint16_t *exp = &st->seq_exp[src * P + dest];
      if (ASW_HDR_SEQ(f->hdr) != *exp)
        return scoreboard_fail(st, cyc, o, "packet %u->%u seq %u, expected %u (lost or reordered)",
                               src, dest, ASW_HDR_SEQ(f->hdr), *exp);
      (*exp)++;
    }
    rx->active = 1;
    rx->src = src;
    rx->idx = 0;
    rx->len = len;
    rx->gen = gen;
    rx->hash = PL_HASH(pl);
  } else {
    if (!rx->active) return scoreboard_fail(st, cyc, o, "body flit with no packet in progress on vc %u", f->vc);
    if (f->hdr) return scoreboard_fail(st, cyc, o, "body flit with non-zero hdr");
    rx->idx++;
    if (PL_SRC(pl) != rx->src || PL_IDX(pl) != (rx->idx & 0xFFu) || PL_GEN(pl) != rx->gen ||
        PL_HASH(pl) != rx->hash)
      return scoreboard_fail(st, cyc, o, "corrupted or foreign body flit (payload 0x%016llx)",
                             (unsigned long long)pl);
  }
  if (!!f->tail != (rx->idx + 1 == rx->len))
    return scoreboard_fail(st, cyc, o, "tail flag %u on flit %u of a %u-flit packet", f->tail, rx->idx, rx->len);
  res->flits_delivered++;
  if (cyc >= sp->warmup && cyc < sp->cycles) res->accepted_throughput += 1.0;
  if (f->tail) {
    rx->active = 0;
    res->packets_delivered++;
    st->in_flight--;
    if (rx->gen >= sp->warmup && rx->gen < sp->cycles) {
      res->window_packets++;
      if (record_latency(st, cyc - rx->gen)) return scoreboard_fail(st, cyc, o, "out of memory");
    }
  }
  return 0;
}

/* Takes the credits the sinks return in cycle cyc out of the delay line
 * (one slot per output, D + 1 cycles deep; 0 = none, else VC + 1) and returns
 * the credit mask of the switch inputs. */
static uint64_t sink_credits_due(study_state *st, unsigned P, unsigned D, uint64_t cyc,
                                 uint8_t *credit_vc) {
  uint64_t mask = 0;
  for (unsigned o = 0; o < P; o++) {
    uint8_t *slot = &st->delay[o * (D + 1) + cyc % (D + 1)];
    if (*slot) {
      credit_vc[o] = (uint8_t)(*slot - 1);
      mask |= 1ull << o;
      *slot = 0;
    }
  }
  return mask;
}

static void state_free(study_state *st) {
  if (st->q)
    for (unsigned k = 0; k < st->P * st->V; k++) free(st->q[k].buf);
  free(st->q);
  free(st->perm);
  free(st->credits);
  free(st->tx_vc);
  free(st->tx_left);
  free(st->tx_rr);
  free(st->tx_pkt);
  free(st->seq_next);
  free(st->seq_exp);
  free(st->last_gen);
  free(st->rx);
  free(st->delay);
  free(st->lat_hist);
  asw_switch_free(st->sw);
}

int study_run(const study_params *sp_in, study_result *res, char *err, size_t errlen) {
  memset(res, 0, sizeof *res);
  if (study_check(sp_in, err, errlen)) return -1;
  study_params spc = *sp_in;
  const study_params *sp = &spc;
  spc.sw.payload_bits = 64;
  /* §1: the study builds the routing mode it programs and the counters and OCC/CRED
   * read-back its statistics read (the same switch as with every feature on) */
  if (spc.routing == ASW_ROUTE_OBLIVIOUS) spc.sw.oblivious = 1;
  if (spc.routing == ASW_ROUTE_ADAPTIVE) spc.sw.adaptive = 1;
  spc.sw.counters = spc.sw.readback = 1;
  if (spc.sw.table_entries < spc.sw.ports) spc.sw.table_entries = spc.sw.ports;
  study_state st_, *st = &st_;
  memset(st, 0, sizeof *st);
  st->sp = sp;
  st->err = err;
  st->errlen = errlen;
  unsigned P = st->P = sp->sw.ports, V = st->V = sp->sw.vcs, L = st->L = sp->packet_flits;
  unsigned D = sp->credit_delay;
  int rc = -1;
  st->sw = asw_switch_new(&sp->sw, err, errlen);
  if (!st->sw) goto out;
  st->perm = calloc(P, sizeof *st->perm);
  st->q = calloc((size_t)P * V, sizeof *st->q);
  st->credits = calloc((size_t)P * V, sizeof *st->credits);
  st->tx_vc = calloc(P, sizeof(unsigned));
  st->tx_left = calloc(P, sizeof(unsigned));
  st->tx_rr = calloc(P, sizeof(unsigned));
  st->tx_pkt = calloc(P, sizeof *st->tx_pkt);
  st->seq_next = calloc((size_t)P * P, sizeof *st->seq_next);
  st->seq_exp = calloc((size_t)P * P, sizeof *st->seq_exp);
  st->last_gen = calloc((size_t)P * P * P, sizeof *st->last_gen);
  st->rx = calloc((size_t)P * V, sizeof *st->rx);
  st->delay = calloc((size_t)P * (D + 1), 1);
  if (!st->perm || !st->q || !st->credits || !st->tx_vc || !st->tx_left || !st->tx_rr ||
      !st->tx_pkt || !st->seq_next || !st->seq_exp || !st->last_gen || !st->rx || !st->delay) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if (study_program_switch(st->sw, sp, err, errlen)) goto out;
  if (sp->table && asw_table_load(st->sw, sp->table, err, errlen)) goto out;
  rng_seed(&st->rng, sp->seed);
  for (unsigned p = 0; p < P; p++) st->perm[p] = p;
  for (unsigned p = P - 1; p > 0; p--) {
    unsigned k = rng_below(&st->rng, p + 1), t = st->perm[p];
    st->perm[p] = st->perm[k];
    st->perm[k] = t;
  }
  for (unsigned k = 0; k < P * V; k++) st->credits[k] = sp->sw.buf_flits;

  asw_flit in_flit[64], out_flit[64];
  uint8_t in_cr_vc[64], out_cr_vc[64];
  uint32_t arn[64];
  asw_inputs in;
  asw_outputs out = {0, out_flit, 0, out_cr_vc, 0, arn, 0, 0, 0, NULL};
  memset(&in, 0, sizeof in);
  in.flit = in_flit;
  in.credit_vc = in_cr_vc;
  double p_gen = sp->load / L;
  uint64_t window_gen_flits = 0, end = sp->cycles + sp->drain;
  uint64_t cyc;
  for (cyc = 0; cyc < end; cyc++) {
    if (cyc >= sp->cycles && st->in_flight == 0) break;
    if (sp->progress && !(cyc & 4095)) sp->progress(sp->progress_ctx, cyc, sp->cycles);
    /* sources: generation */
    if (cyc < sp->cycles && p_gen > 0) {
      for (unsigned p = 0; p < P; p++) {
        if (rng_unit(&st->rng) >= p_gen) continue;
        unsigned dest;
        if (sp->dest == STUDY_DEST_PERMUTATION) dest = st->perm[p];
        else if (sp->dest == STUDY_DEST_HOTSPOT && rng_unit(&st->rng) < sp->hot_fraction) dest = sp->hot_port;
        else dest = rng_below(&st->rng, P);
        pkt_rec r = {(uint32_t)cyc, (uint16_t)dest, st->seq_next[p * P + dest]++};
        if (fifo_push(&st->q[p * V + dest % V], r)) {
          snprintf(err, errlen, "out of memory");
          goto out;
        }
        st->in_flight++;
        res->packets_generated++;
        res->flits_generated += L;
        if (cyc >= sp->warmup) window_gen_flits += L;
      }
    }
    /* sources: send one flit each, whole packets per VC, VCs round robin */
    in.flit_mask = 0;
    for (unsigned p = 0; p < P; p++) {
      if (!st->tx_left[p]) {
        for (unsigned k = 0; k < V; k++) {
          unsigned v = (st->tx_rr[p] + k) % V;
          if (st->q[p * V + v].n && st->credits[p * V + v] >= L) {
            st->tx_pkt[p] = fifo_pop(&st->q[p * V + v]);
            st->tx_vc[p] = v;
            st->tx_left[p] = L;
            st->credits[p * V + v] -= L;
            st->tx_rr[p] = (v + 1) % V;
            break;
          }
        }
        if (!st->tx_left[p]) continue;
      }
      const pkt_rec *r = &st->tx_pkt[p];
      unsigned v = st->tx_vc[p], idx = L - st->tx_left[p];
      uint64_t hdr = asw_hdr_make(r->dest, p, v, L, 0, 0, r->seq);
      asw_flit *f = &in_flit[p];
      f->valid = 1;
      f->head = idx == 0;
      f->tail = idx == L - 1;
      f->vc = (uint8_t)v;
      f->hdr = idx == 0 ? hdr : 0;
      f->payload = payload_make(p, idx, r->gen, hdr);
      in.flit_mask |= 1ull << p;
      st->tx_left[p]--;
    }
    /* sinks: credits due this cycle */
    in.credit_mask = sink_credits_due(st, P, D, cyc, in_cr_vc);
    if (asw_switch_step(st->sw, &in, &out) != ASW_OK) {
      snprintf(err, errlen, "cycle %llu: switch protocol error: %s",
               (unsigned long long)cyc, asw_switch_error(st->sw));
      goto out;
    }
    for (uint64_t m = out.flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      if (sink_flit(st, res, cyc, o, &out_flit[o])) goto out;
      st->delay[o * (D + 1) + (cyc + D) % (D + 1)] = (uint8_t)(out_flit[o].vc + 1);
    }
    for (uint64_t m = out.credit_mask; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      st->credits[i * V + out_cr_vc[i]]++;
    }
  }
  res->cycles_run = cyc;
  if (sp->drain) {
    if (st->in_flight) {
      snprintf(err, errlen, "%llu packets not delivered %llu cycles after generation stopped "
               "(lost or stuck)", (unsigned long long)st->in_flight, (unsigned long long)sp->drain);
      goto out;
    }
    /* let the last credits reach the switch, then it must be empty */
    for (unsigned k = 0; k < D + 8; k++) {
      in.flit_mask = 0;
      in.credit_mask = sink_credits_due(st, P, D, cyc, in_cr_vc);
      if (asw_switch_step(st->sw, &in, &out) != ASW_OK) {
        snprintf(err, errlen, "drain: switch protocol error: %s", asw_switch_error(st->sw));
        goto out;
      }
      if (out.flit_mask) {
        snprintf(err, errlen, "drain: flit on outputs 0x%llx after every packet was delivered (duplicate)",
                 (unsigned long long)out.flit_mask);
        goto out;
      }
      for (uint64_t m = out.credit_mask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        st->credits[i * V + out_cr_vc[i]]++;
      }
      cyc++;
    }
    /* ARN: roots clear, queued messages leave, then only entries age */
    for (unsigned k = 0; k < 64 && asw_switch_idle_in(st->sw) == UINT64_MAX; k++) {
      if (asw_switch_step(st->sw, NULL, &out) != ASW_OK || out.flit_mask) {
        snprintf(err, errlen, "drain: flit or error after every packet was delivered");
        goto out;
      }
    }
    uint64_t ageing = asw_switch_idle_in(st->sw);
    if (ageing != UINT64_MAX && asw_switch_skip_idle(st->sw, ageing)) {
      snprintf(err, errlen, "drain: %s", asw_switch_error(st->sw));
      goto out;
    }
    if (!asw_switch_idle(st->sw)) {
      snprintf(err, errlen, "drain: switch not idle after every packet was delivered");
      goto out;
    }
    for (unsigned o = 0; o < P; o++)
      for (unsigned v = 0; v < V; v++) {
        uint32_t c, occ;
        asw_reg_read(st->sw, ASW_REG_CRED(o, v), &c);
        if (c != sp->sw.buf_flits) {
          snprintf(err, errlen, "drain: CRED[%u][%u] = %u, expected BUF = %u", o, v, c, sp->sw.buf_flits);
          goto out;
        }
        if (st->credits[o * V + v] != sp->sw.buf_flits) {
          snprintf(err, errlen, "drain: source %u holds %u credits on vc %u, expected BUF = %u", o,
                   st->credits[o * V + v], v, sp->sw.buf_flits);
          goto out;
        }
        for (unsigned q = 0; q < (sp->sw.voq ? P : 1); q++) {
          asw_reg_read(st->sw, ASW_REG_OCC(o, v, q), &occ);
          if (occ) {
            snprintf(err, errlen, "drain: OCC[%u][%u][%u] = %u, expected 0", o, v, q, occ);
            goto out;
          }
        }
      }
    res->drained = 1;
  }
  {
    double window = (double)(sp->cycles - sp->warmup) * P;
    res->offered_load = (double)window_gen_flits / window;
    res->accepted_throughput /= window;
    uint64_t n = 0, sum = 0;
    for (size_t l = 0; l < st->lat_cap; l++) {
      n += st->lat_hist[l];
      sum += st->lat_hist[l] * l;
      if (st->lat_hist[l]) res->latency_max = l;
    }
    res->latency_mean = n ? (double)sum / (double)n : 0.0;
    uint64_t acc = 0, target = (uint64_t)ceil(0.99 * (double)n);
    for (size_t l = 0; l < st->lat_cap && n; l++) {
      acc += st->lat_hist[l];
      if (acc >= target) {
        res->latency_p99 = l;
        break;
      }
    }
    for (unsigned p = 0; p < P; p++) {
      uint32_t v;
      asw_reg_read(st->sw, ASW_REG_COUNTER(p, ASW_CNT_ADAPTIVE), &v);
      res->adaptive_choices += v;
      asw_reg_read(st->sw, ASW_REG_COUNTER(p, ASW_CNT_CREDIT_STALL), &v);
      res->credit_stalls += v;
      asw_reg_read(st->sw, ASW_REG_COUNTER(p, ASW_CNT_SA_LOST), &v);
      res->sa_lost += v;
      if (!sp->sw.arn_entries) continue;
      asw_reg_read(st->sw, ASW_REG_ARN_COUNTER(p, ASW_ACNT_ROOTS), &v);
      res->roots_declared += v;
      asw_reg_read(st->sw, ASW_REG_ARN_COUNTER(p, ASW_ACNT_SENT), &v);
      res->arn_sent += v;
      asw_reg_read(st->sw, ASW_REG_ARN_COUNTER(p, ASW_ACNT_CONSUMED), &v);
      res->arn_consumed += v;
      asw_reg_read(st->sw, ASW_REG_ARN_COUNTER(p, ASW_ACNT_ADAPTED), &v);
      res->packets_adapted += v;
      asw_reg_read(st->sw, ASW_REG_ARN_COUNTER(p, ASW_ACNT_EXPIRED), &v);
      res->arn_expired += v;
    }
  }
  rc = 0;
out:
  state_free(st);
  return rc;
}
