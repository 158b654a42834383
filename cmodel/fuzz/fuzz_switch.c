/* fuzz_switch.c — libFuzzer target: the switch step (cmodel/asw_switch.c and
 * its blocks) fed arbitrary input bytes.
 *
 * The bytes choose a configuration (P 2..5 or 64, V 1..4, LMAX 1..8,
 * BUF LMAX..LMAX+7, PW 0..64, DW 1..16, TABLE 1..32, VOQ, ITERS, AE 0..4),
 * or an arbitrary one that is only checked (asw_config_check and
 * asw_switch_new must agree), a routing preset (FWD[d] = d mod P, multipath
 * or not, over CSET 0 = all ports; det, oblivious or adaptive routing with
 * a trigger; ARN off, ARN or ARN+AFI), then a sequence of cycles: flits (legal ones
 * from a per-VC packet generator, or corrupted: any VC, head/tail flags,
 * len, dest, payload), credit returns (for flits received, or for any VC),
 * ARN messages, register reads and writes (in the step and outside it),
 * input masks with bits for ports >= P or NULL arrays, idle steps and
 * asw_switch_skip_idle. Two switches of the same configuration run side by
 * side: A gets every input, B (the twin) only the steps A accepted.
 *
 * Checked (a failure aborts, so libFuzzer keeps the input):
 *   - no crash, leak or undefined behaviour (ASan + UBSan);
 *   - asw_config_check and asw_switch_new agree on arbitrary configurations;
 *   - the step returns ASW_EPROTO exactly for link-protocol violations as the
 *     contract lists them (§2, §9; predicted here independently) and then
 *     changes nothing: the outputs are not written, every register reads as
 *     on the twin, and the twin, which never saw the step, produces the
 *     same outputs on every later cycle and the same registers at the end;
 *   - register writes and reads return the same on both;
 *   - the outputs obey the link protocol towards downstream: VC < V, one
 *     packet at a time per output, head with len 1..LMAX, tail on the
 *     len-th flit, header 0 on body flits, payload within PW bits, never
 *     more flits outstanding on an output VC than BUF;
 *   - credits: 0 <= CRED(o,v) and CRED(o,v) + flits outstanding
 *     downstream <= BUF on every cycle; the switch returns at most one
 *     credit per flit it received; OCC(i,v,q) and their sum per input VC
 *     never exceed BUF;
 *   - packets: a packet the harness built (its header's seq is the index
 *     of its head flit) leaves with its src and len, the payloads it was
 *     sent with in order, once, and in order per (input, input VC, output);
 *   - counters: FLITS_IN/PACKETS_IN of each input and FLITS_OUT/PACKETS_OUT
 *     of each output equal what was sent and received (since CNT_CLEAR);
 *   - conservation and liveness: once the inputs stop (the generator
 *     finishes its packets, every credit is returned) the switch drains
 *     within a bound: flits out = flits in, every OCC is 0, every CRED is
 *     BUF, every credit is back upstream.
 * asw_switch_skip_idle(A, n) must equal n idle steps of B.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"

#define FAIL(...)                                                    \
  do {                                                               \
    fprintf(stderr, "fuzz_switch: cycle %u: ", cyc);                 \
    fprintf(stderr, __VA_ARGS__);                                    \
    fputc('\n', stderr);                                             \
    fprintf(stderr, "  config P=%u V=%u BUF=%u LMAX=%u PW=%u DW=%u TABLE=%u VOQ=%u ITERS=%u AE=%u\n", \
            cfg.ports, cfg.vcs, cfg.buf_flits, cfg.max_packet, cfg.payload_bits, \
            cfg.dest_bits, cfg.table_entries, cfg.voq, cfg.iters, cfg.arn_entries); \
    abort();                                                         \
  } while (0)

enum { MAXP = 64, MAXV = 8 };

/* ---- input bytes ---- */
static const uint8_t *in_d;
static size_t in_n, in_i;
static unsigned u8(void) { return in_i < in_n ? in_d[in_i++] : 0; }
static unsigned u16(void) { unsigned a = u8(); return a | u8() << 8; }
static uint32_t u32(void) { uint32_t a = u16(); return a | (uint32_t)u16() << 16; }
static uint64_t u64(void) { uint64_t a = u32(); return a | (uint64_t)u32() << 32; }

/* ---- state of the harness ---- */
static asw_config cfg;
static asw_switch *A, *B;
static asw_config cached; /* configuration of A and B (kept between inputs) */
static unsigned P, V, BUF, LMAX, NQ, cyc;
static uint64_t port_mask;
/* upstream side of each input (the harness sends into the switch) */
static unsigned up_due[MAXP][MAXV];  /* flits still due of the packet in progress */
static int up_held[MAXP][MAXV];      /* flits sent (and due) not yet credited back */
/* downstream side of each output (the harness receives from the switch) */
static unsigned dn_due[MAXP][MAXV];  /* flits still due of the packet on (o, vc) */
static int dn_out[MAXP][MAXV];       /* flits received, not yet credited */
/* traffic totals, and the counters' baselines (since CNT_CLEAR) */
static uint64_t sent_f[MAXP], sent_p[MAXP], recv_f[MAXP], recv_p[MAXP];
static uint64_t base_sf[MAXP], base_sp[MAXP], base_rf[MAXP], base_rp[MAXP];
static int clear_pending; /* a clear happened: out baseline at the next outputs */
static uint64_t payload_seq;
/* packet integrity: a packet whose header carries its generation index
 * (seq = index of its head flit, unique below 2^16) is followed from input
 * to output: same src and len, the same payloads in order, delivered once,
 * and in order per (input, input VC, output). Packets with any other
 * header (corrupted, or colliding with one) are not followed. */
enum { NSEQ = 1 << 16, REC_UNTRUSTED = -1 };
static uint32_t gen_epoch = 1;
static uint32_t rec_epoch[NSEQ], poison_epoch[NSEQ];
static uint8_t rec_src[NSEQ], rec_vc[NSEQ], rec_len[NSEQ], rec_nin[NSEQ], rec_nout[NSEQ], rec_done[NSEQ];
static uint64_t rec_pay[NSEQ][8];
static int up_rec[MAXP][MAXV];   /* record of the packet in progress on (p, vc) */
static int out_rec[MAXP];        /* record of the packet in progress on output o */
static int last_seq[MAXP][MAXV][MAXP]; /* order per (src, input VC, output) */
static uint64_t gen_of[MAXP];    /* generation index of the flit built for port p */
static int live(unsigned k) { return rec_epoch[k] == gen_epoch; }

static asw_flit inf[MAXP], outA_f[MAXP], outB_f[MAXP];
static uint8_t in_cvc[MAXP], outA_cvc[MAXP], outB_cvc[MAXP];
static uint32_t in_arn[MAXP], outA_arn[MAXP], outB_arn[MAXP];

static uint32_t rd(const asw_switch *sw, uint32_t a) {
  uint32_t v;
  asw_reg_read(sw, a, &v);
  return v;
}

/* The active ports a mask byte names: ports 0..7, and for P = 64 also the
 * top ones (bit k -> port 56 + k for k >= 4). */
static unsigned port_of(unsigned k) { return P == 64 && k >= 4 ? 56 + k : k; }

/* ---- register snapshot: every mapped register (of the ports in use) ---- */
static uint32_t *snapA, *snapB;
static size_t snap_cap;
static size_t snapshot(const asw_switch *sw, uint32_t *v, int full) {
  size_t n = 0;
#define R(a) (v[n++] = rd(sw, (a)))
  for (uint32_t a = 0; a <= 3; a++) R(a);
  for (uint32_t a = ASW_REG_ROUTE_CTRL; a <= ASW_REG_REG_ERRORS; a++) R(a);
  if (cfg.arn_entries)
    for (uint32_t a = ASW_REG_ARN_CTRL; a <= ASW_REG_ARN_TTL; a++) R(a);
  for (unsigned i = 0; i < 8; i++) R(ASW_REG_CSET(i / 2, i % 2));
  for (unsigned j = 0; j < 8; j++) { /* the ports traffic uses (all for P <= 8) */
    unsigned p = port_of(j);
    if (p >= P) break;
    for (unsigned k = 0; k < 8; k++) R(ASW_REG_COUNTER(p, k));
    for (unsigned w = 0; w < V; w++) R(ASW_REG_CRED(p, w));
    for (unsigned w = 0; w < V; w++)
      for (unsigned q = 0; q < NQ; q++) R(ASW_REG_OCC(p, w, q));
    if (cfg.arn_entries) {
      for (unsigned k = 0; k < ASW_ACNT_NUM; k++) R(ASW_REG_ARN_COUNTER(p, k));
      R(ASW_REG_ROOT(p, 0));
      R(ASW_REG_ROOT(p, 1));
    }
    if (full)
      for (unsigned s = 0; s < 16; s++) R(ASW_REG_SL2VC(p, s));
  }
  if (full) {
    for (unsigned e = 0; e < cfg.arn_entries * 4; e++) R(ASW_REG_ARN_ENTRY(e / 4, e % 4));
    for (unsigned d = 0; d < cfg.table_entries; d++) R(ASW_REG_FWD(d));
  }
#undef R
  return n;
}

static void compare_twins(const char *when, int full) {
  size_t na = snapshot(A, snapA, full), nb = snapshot(B, snapB, full);
  if (na != nb) FAIL("%s: snapshot sizes differ", when);
  for (size_t i = 0; i < na; i++)
    if (snapA[i] != snapB[i]) FAIL("%s: register #%zu differs: A 0x%x, twin 0x%x", when, i, snapA[i], snapB[i]);
  if (asw_switch_idle(A) != asw_switch_idle(B)) FAIL("%s: idle differs", when);
  if (asw_switch_idle_in(A) != asw_switch_idle_in(B)) FAIL("%s: idle_in differs", when);
}

/* ---- configuration ---- */
static int make_config(void) {
  unsigned b0 = u8(), b1 = u8(), b2 = u8(), b3 = u8();
  if (b0 >= 0xF8) { /* an arbitrary configuration: only checked */
    asw_config c; /* one field at a time: the bytes in a fixed order */
    c.ports = u16();
    c.vcs = u8();
    c.buf_flits = u16();
    c.max_packet = u16();
    c.payload_bits = u8();
    c.dest_bits = u8();
    c.table_entries = u32();
    c.voq = u8();
    c.iters = u8();
    c.arn_entries = u8();
    { /* §1 features: the low 8 bits (features 0..7); from 0xF0 an illegal setting (> 1) */
      unsigned fb = u8();
      asw_config_set_features(&c, fb);
      if (fb >= 0xF0) c.qcn = fb;
    }
    c.sar_entries = u8();
    c.sa_pipe = b1 & 3; /* §8.1: 0, 1 or an illegal setting (no byte of its own: the corpus holds) */
    if (b0 & 1) c.ports &= 127, c.buf_flits &= 63, c.table_entries &= 255, c.max_packet &= 15;
    char e[200] = "";
    int ok = asw_config_check(&c, e, sizeof e) == ASW_OK;
    if (!ok && !e[0]) FAIL("asw_config_check: rejected without a message");
    /* build only small ones */
    if ((uint64_t)c.ports * c.vcs * c.buf_flits <= 8192 && c.table_entries <= 4096) {
      e[0] = 0;
      asw_switch *s = asw_switch_new(&c, e, sizeof e);
      if (!!s != ok) FAIL("asw_switch_new (%s) disagrees with asw_config_check (%d): %s", s ? "built" : "NULL", ok, e);
      asw_switch_free(s);
    }
    return 0;
  }
  static const unsigned ports[8] = {2, 3, 4, 5, 2, 3, 4, 64};
  asw_config c;
  c.ports = ports[b0 & 7];
  c.vcs = 1 + (b0 >> 3 & 3);
  c.max_packet = 1 + (b1 & 7);
  c.buf_flits = c.max_packet + (b1 >> 3 & 7);
  c.payload_bits = b2 % 65;
  c.dest_bits = 1 + (b3 & 15);
  unsigned t = 1 + (b3 >> 4) * 2 + (b0 >> 7);
  c.table_entries = t > (1u << c.dest_bits) ? 1u << c.dest_bits : t;
  c.voq = b0 >> 5 & 1;
  c.iters = 1 + (b1 >> 6);
  c.arn_entries = (b0 >> 6 & 1) ? (c.voq ? 1 + (b2 >> 7) * 3 : 2) : 0;
  asw_config_set_features(&c, ASW_FEAT_ALL); /* every block built (§1 features: cmodel/tests/test_features.c, make test-cosim) */
  c.sar_entries = 0; /* §17.8 Switch AR: cmodel/tests/test_sar.c, make test-cosim SAR=1 */
  c.sa_pipe = 0; /* §8.1 excludes vc_adaptive, built here: make test-cosim (p, q), cosim-random */
  char e[200];
  if (asw_config_check(&c, e, sizeof e)) FAIL("harness config illegal: %s", e);
  cfg = c;
  if (A && !memcmp(&c, &cached, sizeof c)) {
    asw_switch_reset(A);
    asw_switch_reset(B);
  } else {
    asw_switch_free(A);
    asw_switch_free(B);
    A = asw_switch_new(&c, e, sizeof e);
    B = asw_switch_new(&c, e, sizeof e);
    if (!A || !B) FAIL("asw_switch_new: %s", e);
    cached = c;
  }
  P = c.ports, V = c.vcs, BUF = c.buf_flits, LMAX = c.max_packet, NQ = c.voq ? P : 1;
  port_mask = P == 64 ? ~0ull : (1ull << P) - 1;
  size_t need = 64 + (size_t)P * (8 + 2 * V + V * NQ + 11 + 16) + 4 * c.arn_entries + c.table_entries;
  if (need > snap_cap) {
    free(snapA);
    free(snapB);
    snapA = malloc(need * sizeof *snapA);
    snapB = malloc(need * sizeof *snapB);
    if (!snapA || !snapB) abort();
    snap_cap = need;
  }
  return 1;
}


/* ---- legality of one step's inputs, predicted here (contract §2, §9) ----
 * held: flits held or due on (p, vc) as this side knows them; the step's
 * own output credits (released last cycle) are not known before the step,
 * so `cred_in` gives them when known (after an accepted step), else NULL. */
static int predict_legal(const asw_inputs *in, const uint8_t *credit_in_mask_vc, uint64_t cred_in_mask,
                         const uint32_t *credA) {
  if ((in->flit_mask | in->credit_mask | in->arn_mask) & ~port_mask) return 0;
  if (in->flit_mask && !in->flit) return 0;
  if (in->arn_mask && !in->arn) return 0;
  if (in->credit_mask && !in->credit_vc) return 0;
  for (uint64_t m = in->flit_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    const asw_flit *f = &in->flit[p];
    unsigned vc = f->vc, len = ASW_HDR_LEN(f->hdr);
    if (vc >= V) return 0;
    int held = up_held[p][vc];
    if (cred_in_mask >> p & 1u && credit_in_mask_vc[p] == vc) held--;
    unsigned due = up_due[p][vc];
    if (f->head) {
      if (due || len < 1 || len > LMAX || held + (int)len > (int)BUF) return 0;
      if (ASW_HDR_DEST(f->hdr) >> cfg.dest_bits) return 0;
      due = len;
    } else if (!due) {
      return 0;
    }
    if (!!f->tail != (due == 1)) return 0;
  }
  for (uint64_t m = in->credit_mask; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m), vc = in->credit_vc[o];
    if (vc >= V || credA[o * MAXV + vc] + 1 > BUF) return 0;
  }
  if (in->reg_en && in->reg_addr >> 20) return 0;
  return 1;
}

/* ---- register address and data generators ---- */
static uint32_t gen_addr(void) {
  unsigned s = u8(), i = u8();
  switch (s % 22) {
  case 0: return i & 3;                                  /* ID, PARAM */
  case 1: case 2: return ASW_REG_ROUTE_CTRL + i % 7;     /* control */
  case 3: return ASW_REG_ARN_CTRL + i % 7;               /* ARN control */
  case 4: return ASW_REG_CSET(i % 4, i >> 2 & 1);
  case 5: return ASW_REG_SL2VC(i % P, i >> 4);
  case 6: case 7: return ASW_REG_FWD(i % (cfg.table_entries + 1));
  case 8: return ASW_REG_COUNTER(i % P, i >> 5);
  case 9: return ASW_REG_ARN_COUNTER(i % P, i >> 4);
  case 10: return ASW_REG_OCC(i % P, i >> 6 & 3, i & 7);
  case 11: return ASW_REG_CRED(i % P, i & 7);
  case 12: return ASW_REG_ARN_ENTRY(i % 5, i >> 3 & 3);
  case 13: return ASW_REG_ROOT(i % P, i >> 7);
  case 14: return ASW_REG_CNT_CLEAR;
  case 15: return ASW_REG_THRESH;
  case 16: return ASW_REG_LFSR_SEED;
  case 17: return ASW_REG_PORT_GAP(i & 7);                /* §17.7 output port rates */
  default: return u32() & 0xFFFFFu;                       /* anywhere */
  }
}
static uint32_t gen_data(void) {
  unsigned m = u8();
  switch (m & 7) {
  case 0: return u32();
  case 1: return u8();
  case 2: {
    unsigned port = u8() % P, look = u8() % P, cs = u8() & 3;
    return asw_fwd_entry(port, look, cs, m >> 3 & 1) & (m & 16 ? ~0u : 0x7FFFFFFFu);
  }
  case 3: {
    unsigned mode = u8() % 3, trig = u8() % 3, mask = u8(), stage = 1 + u8() % 15;
    return asw_route_ctrl(mode, trig, mask, stage);
  }
  case 4: {
    unsigned mode = u8() % 3, mark = u8() & 1;
    return asw_arn_ctrl(mode, mark);
  }
  case 5: {
    unsigned lo = u8() % (BUF + 1), hi = lo + u8() % (BUF + 1 - lo);
    return lo | hi << 16;
  }
  case 6: return (uint32_t)(port_mask & u32());
  default: return u16();
  }
}

/* Register access outside the cycle loop: same result on both. */
/* The harness speaks the credit protocol of §9 only: it never puts a port in
 * PFC mode (§17.1, where the backward channel carries pause frames and CRED
 * is a pause view), so a write of PFC_EN keeps only its bits for ports >= P
 * (still an illegal write, checked as such) and a write of 0. Nor does it ask
 * for a bubble rule (§16.1) that no packet can meet: a packet entering a ring
 * needs 2·len credits, so with BUF < 2·LMAX a BUBBLE write keeps no VC bit
 * (a legal write software must not make: the switch would hold such a packet
 * for good, and the drain check would fail). */
static uint32_t no_pfc_mode(uint32_t a, uint32_t d) {
  if (a == ASW_REG_PFC_EN(0)) return P >= 32 ? 0 : d & ~((1u << P) - 1u);
  if (a == ASW_REG_PFC_EN(1)) return P > 32 ? d & ~(uint32_t)(((1ull << (P - 32)) - 1u)) : d;
  if (a >= ASW_REG_BUBBLE(0) && a < ASW_REG_BUBBLE(P) && BUF < 2 * LMAX) return d & ~0xFF00u;
  return d;
}

static void reg_access(uint32_t a, uint32_t d, int write) {
  if (write) {
    d = no_pfc_mode(a, d);
    int ra = asw_reg_write(A, a, d), rb = asw_reg_write(B, a, d);
    if (ra != rb) FAIL("asw_reg_write(0x%x, 0x%x): %d vs twin %d", a, d, ra, rb);
    if (ra != ASW_OK && ra != ASW_EINVAL) FAIL("asw_reg_write returned %d", ra);
    if (ra == ASW_OK && a == ASW_REG_CNT_CLEAR) {
      memcpy(base_sf, sent_f, sizeof sent_f);
      memcpy(base_sp, sent_p, sizeof sent_p);
      clear_pending = 1;
    }
  } else {
    uint32_t va, vb;
    int ra = asw_reg_read(A, a, &va), rb = asw_reg_read(B, a, &vb);
    if (ra != rb || va != vb) FAIL("asw_reg_read(0x%x): %d/0x%x vs twin %d/0x%x", a, ra, va, rb, vb);
  }
}

/* ---- one step of A (and of B if A accepts) ---- */
static int step(const asw_inputs *in_or_null, int must_accept) {
  static const asw_inputs zero;
  const asw_inputs *in = in_or_null ? in_or_null : &zero;
  uint32_t credA[MAXP * MAXV];
  for (uint64_t m = in->credit_mask & port_mask; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    for (unsigned v = 0; v < V; v++) credA[o * MAXV + v] = rd(A, ASW_REG_CRED(o, v));
  }
  const int legal_old = predict_legal(in, NULL, 0, credA);
  asw_outputs oa = {0}, ob = {0};
  oa.flit = outA_f, oa.credit_vc = outA_cvc, oa.arn = outA_arn;
  ob.flit = outB_f, ob.credit_vc = outB_cvc, ob.arn = outB_arn;
  oa.flit_mask = oa.credit_mask = oa.arn_mask = 0xDEADBEEFDEADBEEFull;
  oa.reg_rvalid = 0xA5;
  oa.reg_rdata = 0xDEADBEEF;
  int rc = asw_switch_step(A, in_or_null, &oa);
  if (rc == ASW_EPROTO) {
    if (must_accept) FAIL("step rejected a legal input: %s", asw_switch_error(A));
    if (legal_old) FAIL("ASW_EPROTO on a legal input: %s", asw_switch_error(A));
    if (!asw_switch_error(A)[0]) FAIL("ASW_EPROTO without a message");
    if (oa.flit_mask != 0xDEADBEEFDEADBEEFull || oa.credit_mask != 0xDEADBEEFDEADBEEFull ||
        oa.arn_mask != 0xDEADBEEFDEADBEEFull || oa.reg_rvalid != 0xA5 || oa.reg_rdata != 0xDEADBEEF)
      FAIL("ASW_EPROTO but the outputs were written");
    /* what the step would have touched first reads as on the twin (the
     * twin, never stepped with this input, is compared in full later) */
    if (rd(A, ASW_REG_REG_ERRORS) != rd(B, ASW_REG_REG_ERRORS)) FAIL("ASW_EPROTO changed REG_ERRORS");
    for (uint64_t m = (in->flit_mask | in->credit_mask) & port_mask; m; m &= m - 1) {
      unsigned p = (unsigned)__builtin_ctzll(m);
      if (rd(A, ASW_REG_COUNTER(p, ASW_CNT_FLITS_IN)) != rd(B, ASW_REG_COUNTER(p, ASW_CNT_FLITS_IN)))
        FAIL("ASW_EPROTO changed FLITS_IN of input %u", p);
      for (unsigned v = 0; v < V; v++)
        if (rd(A, ASW_REG_CRED(p, v)) != rd(B, ASW_REG_CRED(p, v)))
          FAIL("ASW_EPROTO changed CRED(%u,%u)", p, v);
    }
    if (asw_switch_idle(A) != asw_switch_idle(B)) FAIL("ASW_EPROTO changed idle");
    return 0;
  }
  if (rc != ASW_OK) FAIL("step returned %d", rc);
  int rcb = asw_switch_step(B, in_or_null, &ob);
  if (rcb != ASW_OK) FAIL("twin rejected what A accepted (%d): %s", rcb, asw_switch_error(B));
  /* same outputs */
  if (oa.flit_mask != ob.flit_mask || oa.credit_mask != ob.credit_mask || oa.arn_mask != ob.arn_mask ||
      oa.reg_rvalid != ob.reg_rvalid || oa.reg_rdata != ob.reg_rdata)
    FAIL("outputs differ from the twin's: flits %llx/%llx credits %llx/%llx arn %llx/%llx rdata %u:%x/%u:%x",
         (unsigned long long)oa.flit_mask, (unsigned long long)ob.flit_mask,
         (unsigned long long)oa.credit_mask, (unsigned long long)ob.credit_mask,
         (unsigned long long)oa.arn_mask, (unsigned long long)ob.arn_mask, oa.reg_rvalid,
         oa.reg_rdata, ob.reg_rvalid, ob.reg_rdata);
  if ((oa.flit_mask | oa.credit_mask | oa.arn_mask) & ~port_mask) FAIL("output mask bits >= P");
  for (uint64_t m = oa.flit_mask; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    if (memcmp(&outA_f[o], &outB_f[o], sizeof outA_f[o])) FAIL("output flit %u differs from the twin's", o);
  }
  for (uint64_t m = oa.credit_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    if (outA_cvc[i] != outB_cvc[i]) FAIL("output credit %u differs from the twin's", i);
  }
  for (uint64_t m = oa.arn_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    if (outA_arn[i] != outB_arn[i]) FAIL("output ARN %u differs from the twin's", i);
  }
  /* accepted: it must be legal once this step's credits are known */
  if (!predict_legal(in, outA_cvc, oa.credit_mask, credA))
    FAIL("accepted an input that violates the link protocol");
  /* upstream: inputs taken, credits back */
  for (uint64_t m = in->flit_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m);
    const asw_flit *f = &in->flit[p];
    if (f->head) {
      up_due[p][f->vc] = ASW_HDR_LEN(f->hdr);
      up_held[p][f->vc] += (int)ASW_HDR_LEN(f->hdr);
      sent_p[p]++;
      unsigned k = ASW_HDR_SEQ(f->hdr);
      int trusted = gen_of[p] < NSEQ && k == gen_of[p] && ASW_HDR_SRC(f->hdr) == p &&
                    poison_epoch[k] != gen_epoch;
      if (!trusted) {
        poison_epoch[k] = gen_epoch; /* a later packet with this seq is not followed */
        if (live(k) && !rec_done[k]) rec_done[k] = 2; /* nor an earlier one */
        up_rec[p][f->vc] = REC_UNTRUSTED;
      } else {
        rec_epoch[k] = gen_epoch;
        rec_src[k] = (uint8_t)p, rec_vc[k] = f->vc, rec_len[k] = (uint8_t)ASW_HDR_LEN(f->hdr);
        rec_nin[k] = rec_nout[k] = rec_done[k] = 0;
        up_rec[p][f->vc] = (int)k;
      }
    }
    if (up_rec[p][f->vc] >= 0) {
      unsigned k = (unsigned)up_rec[p][f->vc];
      rec_pay[k][rec_nin[k]++ & 7] = cfg.payload_bits < 64 ? f->payload & ((1ull << cfg.payload_bits) - 1) : f->payload;
    }
    gen_of[p] = UINT64_MAX;
    up_due[p][f->vc]--;
    sent_f[p]++;
  }
  for (uint64_t m = oa.credit_mask; m; m &= m - 1) {
    unsigned p = (unsigned)__builtin_ctzll(m), v = outA_cvc[p];
    if (v >= V) FAIL("credit upstream on input %u for VC %u >= V", p, v);
    /* a credit frees a slot: never more than flits received */
    if (--up_held[p][v] < (int)up_due[p][v]) FAIL("input %u VC %u: more credits returned than flits received", p, v);
  }
  /* downstream: the flits out obey the link protocol */
  for (uint64_t m = oa.flit_mask; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    const asw_flit *f = &outA_f[o];
    if (!f->valid || f->vc >= V) FAIL("output %u: flit valid %u vc %u", o, f->valid, f->vc);
    if (cfg.payload_bits < 64 && f->payload >> cfg.payload_bits) FAIL("output %u: payload above PW", o);
    if (f->head) {
      unsigned len = ASW_HDR_LEN(f->hdr);
      for (unsigned v = 0; v < V; v++)
        if (dn_due[o][v]) FAIL("output %u: head while a packet on VC %u is unfinished", o, v);
      if (len < 1 || len > LMAX) FAIL("output %u: head with len %u", o, len);
      if (ASW_HDR_DEST(f->hdr) >> cfg.dest_bits) FAIL("output %u: dest above DW", o);
      dn_due[o][f->vc] = len;
      recv_p[o]++;
      unsigned k = ASW_HDR_SEQ(f->hdr);
      out_rec[o] = REC_UNTRUSTED;
      if (live(k) && rec_done[k] != 2 && poison_epoch[k] != gen_epoch) {
        if (rec_done[k] || rec_nout[k]) FAIL("output %u: packet seq %u delivered twice", o, k);
        if (ASW_HDR_SRC(f->hdr) != rec_src[k] || len != rec_len[k])
          FAIL("output %u: packet seq %u arrives with src %u len %u, sent with src %u len %u", o, k,
               ASW_HDR_SRC(f->hdr), len, rec_src[k], rec_len[k]);
        int *last = &last_seq[rec_src[k]][rec_vc[k]][o];
        if ((int)k <= *last)
          FAIL("output %u: packet seq %u of input %u VC %u after seq %d (reordered)", o, k, rec_src[k], rec_vc[k], *last);
        *last = (int)k;
        out_rec[o] = (int)k;
      }
    } else {
      if (!dn_due[o][f->vc]) FAIL("output %u: body flit on VC %u without a head", o, f->vc);
      if (f->hdr) FAIL("output %u: body flit with a header", o);
    }
    if (!!f->tail != (dn_due[o][f->vc] == 1)) FAIL("output %u: tail flag %u with %u flits due", o, f->tail, dn_due[o][f->vc]);
    if (out_rec[o] >= 0) {
      unsigned k = (unsigned)out_rec[o], i = rec_nout[k]++;
      if (i >= rec_nin[k]) FAIL("output %u: flit %u of packet seq %u left before it arrived", o, i, k);
      if (f->payload != rec_pay[k][i & 7])
        FAIL("output %u: flit %u of packet seq %u: payload 0x%llx, sent 0x%llx", o, i, k,
             (unsigned long long)f->payload, (unsigned long long)rec_pay[k][i & 7]);
      if (f->tail) rec_done[k] = 1, out_rec[o] = REC_UNTRUSTED;
    }
    dn_due[o][f->vc]--;
    if (++dn_out[o][f->vc] > (int)BUF) FAIL("output %u VC %u: %d flits outstanding > BUF", o, f->vc, dn_out[o][f->vc]);
    recv_f[o]++;
  }
  if (clear_pending) { /* flits out this cycle left before the clear */
    memcpy(base_rf, recv_f, sizeof recv_f);
    memcpy(base_rp, recv_p, sizeof recv_p);
    clear_pending = 0;
  }
  for (uint64_t m = in->credit_mask; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m);
    dn_out[o][in->credit_vc[o]]--; /* may go below 0: a credit for a reserved flit */
  }
  if (in->reg_en && in->reg_we && in->reg_addr == ASW_REG_CNT_CLEAR) {
    memcpy(base_sf, sent_f, sizeof sent_f);
    memcpy(base_sp, sent_p, sizeof sent_p);
    clear_pending = 1;
  }
  return 1;
}

/* Per-cycle invariants read through the registers (small P only). */
static void check_invariants(int occ) {
  for (unsigned k = 0; k < 8; k++) {
    unsigned p = port_of(k);
    if (p >= P) break;
    for (unsigned v = 0; v < V; v++) {
      uint32_t cr = rd(A, ASW_REG_CRED(p, v));
      if (cr > BUF) FAIL("CRED(%u,%u) = %u > BUF", p, v, cr);
      if ((int)cr + dn_out[p][v] > (int)BUF)
        FAIL("CRED(%u,%u) = %u with %d flits outstanding > BUF", p, v, cr, dn_out[p][v]);
      uint32_t sum = 0;
      for (unsigned q = 0; q < (occ ? NQ : 0); q++) {
        uint32_t occ = rd(A, ASW_REG_OCC(p, v, q));
        if (occ > BUF) FAIL("OCC(%u,%u,%u) = %u > BUF", p, v, q, occ);
        sum += occ;
      }
      if (sum > BUF) FAIL("OCC(%u,%u,*) sums to %u > BUF", p, v, sum);
    }
    if (!clear_pending) {
      uint32_t fi = rd(A, ASW_REG_COUNTER(p, ASW_CNT_FLITS_IN)), pi = rd(A, ASW_REG_COUNTER(p, ASW_CNT_PACKETS_IN));
      if (fi != (uint32_t)(sent_f[p] - base_sf[p]) || pi != (uint32_t)(sent_p[p] - base_sp[p]))
        FAIL("input %u: FLITS_IN %u PACKETS_IN %u, sent %llu/%llu", p, fi, pi,
             (unsigned long long)(sent_f[p] - base_sf[p]), (unsigned long long)(sent_p[p] - base_sp[p]));
    }
  }
}

/* ---- building a cycle's inputs ---- */
static void gen_flit(unsigned p, unsigned fb, int corrupt, asw_flit *f) {
  memset(f, 0, sizeof *f);
  f->valid = 1;
  unsigned vc = V, start = fb % V;
  for (unsigned k = 0; k < V; k++) /* continue a packet in progress */
    if (up_due[p][(start + k) % V]) { vc = (start + k) % V; break; }
  if (vc < V && !(fb & 0x80)) {
    f->vc = (uint8_t)vc;
    f->tail = up_due[p][vc] == 1;
  } else { /* a new packet on a free VC (or, with fb bit 7, anywhere) */
    vc = fb % V;
    unsigned len = 1 + u8() % LMAX;
    unsigned dest = u8() % cfg.table_entries;
    f->vc = (uint8_t)vc;
    f->head = 1;
    f->tail = len == 1;
    f->hdr = asw_hdr_make(dest, p, fb >> 3 & 15, len, 0, 0, (unsigned)payload_seq);
  }
  gen_of[p] = payload_seq;
  f->payload = payload_seq++ * 0x9E3779B97F4A7C15ull;
  if (!corrupt) return;
  unsigned c = u8();
  switch (c & 7) {
  case 0: f->vc = (uint8_t)(c >> 3); break;
  case 1:
    f->head = (uint8_t)(f->head ? 0 : 1 + (c >> 3));
    if (f->head) {
      unsigned dest = u8() % cfg.table_entries, len = 1 + u8() % LMAX;
      f->hdr = asw_hdr_make(dest, 0, 0, len, 0, 0, 0);
    }
    break;
  case 2: f->tail = (uint8_t)(f->tail ? 0 : 1 + (c >> 3)); break;
  case 3: f->hdr = (f->hdr & ~(0xFFull << 36)) | (uint64_t)(c >> 3) << 36; break;
  case 4: f->hdr = u64(); break;
  case 5: f->payload = u64(); break;
  case 6: f->hdr ^= (uint64_t)u16() ; break;
  default: f->valid = (uint8_t)(c >> 3); break; /* valid is ignored on inputs */
  }
}

static void cycle(void) {
  unsigned op = u8();
  unsigned kind = op & 7;
  asw_inputs in = {0};
  in.flit = inf;
  in.credit_vc = in_cvc;
  in.arn = in_arn;
  switch (kind) {
  case 0: case 1: case 2: { /* traffic */
    unsigned fm = u8(), cm = u8();
    for (unsigned k = 0; k < 8; k++) {
      unsigned p = port_of(k);
      if (p >= P) break;
      if (fm >> k & 1u) {
        gen_flit(p, u8(), op >> 7, &inf[p]);
        in.flit_mask |= 1ull << p;
      }
      if (cm >> k & 1u) {
        unsigned b = u8(), vc = V;
        for (unsigned j = 0; j < V; j++)
          if (dn_out[p][(b + j) % V] > 0) { vc = (b + j) % V; break; }
        if (vc == V || (op & 0x40)) vc = (op & 0x40) ? b >> 2 : b % V; /* any VC */
        in_cvc[p] = (uint8_t)vc;
        in.credit_mask |= 1ull << p;
      }
    }
    if (op & 0x20) {
      in.arn_mask = u8() & port_mask;
      for (uint64_t m = in.arn_mask; m; m &= m - 1) in_arn[__builtin_ctzll(m)] = u32();
    }
    step(&in, 0);
    break;
  }
  case 3: /* idle */
    step(op & 8 ? NULL : &in, 1);
    break;
  case 4: /* register access in the step */
    in.reg_en = 1;
    in.reg_we = op >> 3 & 1;
    in.reg_addr = gen_addr();
    if (op & 0x10) in.reg_addr |= u8() << 20 | 1u << 31; /* too wide */
    in.reg_wdata = no_pfc_mode(in.reg_addr, gen_data());
    if (!(op & 0x20)) in.reg_en = (uint8_t)(1 + (op >> 6)); /* any non-zero */
    step(&in, 0);
    break;
  case 5: { /* register access outside the cycle */
    uint32_t a = gen_addr();
    reg_access(a, gen_data(), op >> 3 & 1);
    break;
  }
  case 6: { /* masks for ports >= P, NULL arrays */
    unsigned b = u8();
    uint64_t bad = P < 64 ? 1ull << (P + b % (64 - P)) : 0;
    if (b & 0x40) in.flit_mask |= bad;
    else if (b & 0x80) in.credit_mask |= bad;
    else in.arn_mask |= bad;
    if (op & 0x08) in.flit = NULL, in.flit_mask |= 1;
    if (op & 0x10) in.credit_vc = NULL, in.credit_mask |= 1;
    if (op & 0x20) in.arn = NULL, in.arn_mask |= 1;
    inf[0] = (asw_flit){0};
    in_cvc[0] = (uint8_t)V; /* if the mask bit 0 is read: an illegal VC */
    step(&in, 0);
    break;
  }
  default: { /* skip_idle on A against idle steps of B */
    unsigned n = 1 + (op >> 3);
    uint64_t ia = asw_switch_idle_in(A);
    if (ia == UINT64_MAX) {
      if (asw_switch_skip_idle(A, n) != ASW_EINVAL) FAIL("skip_idle accepted with live state");
    } else {
      if (asw_switch_skip_idle(A, n) != ASW_OK) FAIL("skip_idle refused with idle_in %llu", (unsigned long long)ia);
      for (unsigned k = 0; k < n; k++)
        if (asw_switch_step(B, NULL, NULL) != ASW_OK) FAIL("idle step refused");
      compare_twins("after skip_idle", 0);
    }
    break;
  }
  }
}

/* Stops the inputs: finishes the packets in progress, returns every credit,
 * and steps until everything is out; then checks conservation. */
static void drain(void) {
  /* x16: a §17.7 GAP of 15 slows an output to one flit every 16 cycles */
  const unsigned limit = 16 * (64 + 8 * (P <= 8 ? P : 8) * V * BUF + 4 * LMAX * P);
  unsigned quiet = 0;
  for (unsigned k = 0; k < limit; k++) {
    asw_inputs in = {0};
    in.flit = inf, in.credit_vc = in_cvc, in.arn = in_arn;
    int busy = 0;
    for (unsigned p = 0; p < P; p++) {
      for (unsigned v = 0; v < V; v++)
        if (up_due[p][v]) {
          memset(&inf[p], 0, sizeof inf[p]);
          inf[p].valid = 1;
          inf[p].vc = (uint8_t)v;
          inf[p].tail = up_due[p][v] == 1;
          inf[p].payload = payload_seq++;
          in.flit_mask |= 1ull << p;
          busy = 1;
          break;
        }
      for (unsigned v = 0; v < V; v++)
        if (dn_out[p][v] > 0) {
          in_cvc[p] = (uint8_t)v;
          in.credit_mask |= 1ull << p;
          busy = 1;
          break;
        }
    }
    uint64_t in_total = 0, out_total = 0;
    for (unsigned p = 0; p < P; p++) in_total += sent_f[p], out_total += recv_f[p];
    if (!busy && in_total == out_total) {
      if (++quiet >= 3) break; /* last credits in, registers settled */
    } else {
      quiet = 0;
    }
    step(&in, 1);
    cyc++;
  }
  if (quiet < 3) {
    uint64_t in_total = 0, out_total = 0;
    for (unsigned p = 0; p < P; p++) in_total += sent_f[p], out_total += recv_f[p];
    FAIL("does not drain in %u cycles: %llu flits in, %llu out", limit,
         (unsigned long long)in_total, (unsigned long long)out_total);
  }
  for (unsigned p = 0; p < P; p++) {
    for (unsigned v = 0; v < V; v++) {
      if (up_held[p][v]) FAIL("input %u VC %u: %d credits never returned upstream", p, v, up_held[p][v]);
      if (dn_out[p][v] || dn_due[p][v]) FAIL("output %u VC %u: %d outstanding, %u due", p, v, dn_out[p][v], dn_due[p][v]);
      if (rd(A, ASW_REG_CRED(p, v)) != BUF) FAIL("drained, but CRED(%u,%u) = %u != BUF", p, v, rd(A, ASW_REG_CRED(p, v)));
      for (unsigned q = 0; q < NQ; q++)
        if (rd(A, ASW_REG_OCC(p, v, q))) FAIL("drained, but OCC(%u,%u,%u) = %u", p, v, q, rd(A, ASW_REG_OCC(p, v, q)));
    }
    uint32_t c[4];
    for (unsigned k = 0; k < 4; k++) c[k] = rd(A, ASW_REG_COUNTER(p, k));
    if (c[ASW_CNT_FLITS_IN] != (uint32_t)(sent_f[p] - base_sf[p]) ||
        c[ASW_CNT_PACKETS_IN] != (uint32_t)(sent_p[p] - base_sp[p]) ||
        c[ASW_CNT_FLITS_OUT] != (uint32_t)(recv_f[p] - base_rf[p]) ||
        c[ASW_CNT_PACKETS_OUT] != (uint32_t)(recv_p[p] - base_rp[p]))
      FAIL("port %u counters in %u/%u out %u/%u, traffic in %llu/%llu out %llu/%llu", p, c[0], c[2], c[1], c[3],
           (unsigned long long)(sent_f[p] - base_sf[p]), (unsigned long long)(sent_p[p] - base_sp[p]),
           (unsigned long long)(recv_f[p] - base_rf[p]), (unsigned long long)(recv_p[p] - base_rp[p]));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  in_d = data, in_n = size, in_i = 0, cyc = 0;
  if (!make_config()) return 0;
  memset(up_due, 0, sizeof up_due);
  memset(up_held, 0, sizeof up_held);
  memset(dn_due, 0, sizeof dn_due);
  memset(dn_out, 0, sizeof dn_out);
  memset(sent_f, 0, sizeof sent_f), memset(sent_p, 0, sizeof sent_p);
  memset(recv_f, 0, sizeof recv_f), memset(recv_p, 0, sizeof recv_p);
  memset(base_sf, 0, sizeof base_sf), memset(base_sp, 0, sizeof base_sp);
  memset(base_rf, 0, sizeof base_rf), memset(base_rp, 0, sizeof base_rp);
  clear_pending = 0;
  payload_seq = 1;
  gen_epoch++;
  for (unsigned p = 0; p < MAXP; p++) {
    out_rec[p] = REC_UNTRUSTED;
    gen_of[p] = UINT64_MAX;
    for (unsigned v = 0; v < MAXV; v++) up_rec[p][v] = REC_UNTRUSTED;
  }
  for (unsigned j = 0; j < 8 && port_of(j) < P; j++) /* the ports that send */
    memset(last_seq[port_of(j)], 0, sizeof last_seq[0]);
  /* a usable routing table: destination d to port d mod P, all ports in
   * CSET 0, multipath or not; routing mode, trigger and ARN mode from a byte */
  const unsigned rp = u8();
  for (unsigned d = 0; d < cfg.table_entries; d++)
    reg_access(ASW_REG_FWD(d), asw_fwd_entry(d % P, (d + 1) % P, 0, rp >> 2 & 1), 1);
  reg_access(ASW_REG_CSET(0, 0), (uint32_t)port_mask, 1);
  if (P > 32) reg_access(ASW_REG_CSET(0, 1), (uint32_t)(port_mask >> 32), 1);
  reg_access(ASW_REG_ROUTE_CTRL, asw_route_ctrl(rp % 3, (rp >> 3) % 3, 0xFF, 1), 1);
  if (cfg.arn_entries) reg_access(ASW_REG_ARN_CTRL, asw_arn_ctrl((rp >> 5) % 3, rp >> 7), 1);
  while (in_i < in_n && cyc < 4096) {
    cycle();
    if (P <= 8) check_invariants(cyc % 4 == 0);
    cyc++;
  }
  drain();
  compare_twins("at the end", 1);
  return 0;
}
