/* sysref.c — reference of the whole board system (docs/boards.md "Traffic"): the C model
 * of the switch (cmodel/asw_switch.h) with the end nodes of rtl/system/end_node.sv and the
 * test control of rtl/system/asw_system.sv written again in C, cycle by cycle. The
 * board-simulation test (tb/board/test_board.py) compares the counters the host tool
 * reads from the simulated board with the ones printed here.
 *
 *   sysref P V BUF LMAX PW DW TABLE VOQ ITERS AE CNTW [--table FILE] --test "k=v ..." ...
 *
 * Test keys (docs/boards.md): seed pattern(uniform|permutation|hotspot) port frac len
 * randlen load sink cycles mask hshift. Tests run in order on one switch, as on the board.
 * Prints one JSON object per test, one per line. Exit 2 on a bad argument, 1 on a
 * protocol error of the switch or a test that does not drain.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "asw_table.h"
#include "lfsr.h"

enum { NCNT = 10, NBIN = 8, MAXP = 32, MAXV = 8 };
static const char *const CNT_NAMES[NCNT] = {"tx_pkts", "tx_flits", "tx_stall", "rx_pkts",
                                            "rx_flits", "err_hdr", "err_seq", "err_pay",
                                            "lat_sum", "lat_max"};
static const char *const SW_NAMES[8] = {"flits_in",  "flits_out",    "packets_in",
                                        "packets_out", "credit_stall", "sa_lost",
                                        "route_errors", "adaptive"};

typedef struct {
  unsigned seed, pattern, port, frac, len, randlen, load, sink, hshift;
  uint64_t cycles, mask;
} test_cfg;

typedef struct {
  uint16_t lf_dest, lf_len, lf_inj, lf_snk;
  unsigned cred[MAXV];
  uint16_t seqs[MAXP];
  int have;
  unsigned hdest, hlen;
  uint16_t hseq;
  int sending;
  unsigned k, clen, cvc;
  uint16_t cseq;
  asw_flit fout; /* registered flit on the switch input */
  int act[MAXV];
  unsigned rk[MAXV], rlen[MAXV], rsrc[MAXV];
  uint16_t rseq[MAXV];
  uint8_t rts[MAXV];
  uint16_t expect[MAXP];
  unsigned pend[MAXV];
  int crv;
  unsigned crvc; /* registered credit to the switch output */
  uint64_t cnt[NCNT];
  unsigned lmax;
  int done_q;
  unsigned lat_q;
} node;

/* The system's configuration, passed to every function (no global state). */
typedef struct {
  asw_config c;
  unsigned cntw; /* counter width */
} sysconf;

static uint64_t cmask(const sysconf *g, uint64_t x) {
  return g->cntw >= 64 ? x : x & ((1ull << g->cntw) - 1);
}
static uint8_t pbyte(unsigned src, unsigned seq, unsigned k) {
  return (uint8_t)((((seq & 0xFFu) ^ ((src & 15u) << 4)) + k) & 0xFFu);
}
static uint64_t prep(const sysconf *g, uint8_t b) { /* byte replicated over PW bits */
  uint64_t v = 0;
  for (unsigned i = 0; i < g->c.payload_bits / 8; i++) v |= (uint64_t)b << (8 * i);
  return v;
}

static void node_start(const sysconf *g, node *n, unsigned p, unsigned seed) {
  memset(n, 0, sizeof *n);
  n->lf_dest = asw_lfsr_init((uint16_t)seed, p);
  n->lf_len = asw_lfsr_init((uint16_t)seed, 64 + p);
  n->lf_inj = asw_lfsr_init((uint16_t)seed, 128 + p);
  n->lf_snk = asw_lfsr_init((uint16_t)seed, 192 + p);
  for (unsigned v = 0; v < g->c.vcs; v++) n->cred[v] = g->c.buf_flits;
}

static int node_idle(const sysconf *g, const node *n) {
  if (n->have || n->sending || n->fout.valid || n->crv) return 0;
  for (unsigned v = 0; v < g->c.vcs; v++)
    if (n->pend[v]) return 0;
  return 1;
}

/* One cycle of node p: inputs from the switch's outputs of this cycle. */
static void node_step(const sysconf *g, node *n, unsigned p, const test_cfg *t, int gen_on, unsigned tcyc,
                      int crv_in, unsigned crvc_in, const asw_flit *rx) {
  node o = *n; /* state at the start of the cycle */
  unsigned P = g->c.ports;
  asw_flit f = {0};
  int send_head = 0;
  if (o.sending) {
    f.valid = 1;
    f.tail = o.k == o.clen - 1;
    f.vc = (uint8_t)o.cvc;
    f.payload = prep(g, pbyte(p, o.cseq, o.k));
    n->k = o.k + 1;
    n->sending = !f.tail;
  } else if (o.have) {
    unsigned vc = o.hdest & (g->c.vcs - 1);
    if (o.cred[vc] >= o.hlen) {
      send_head = 1;
      n->cred[vc] -= o.hlen;
      n->have = 0;
      f.valid = f.head = 1;
      f.tail = o.hlen == 1;
      f.vc = (uint8_t)vc;
      f.hdr = asw_hdr_make(o.hdest, p, o.hdest & 15u, o.hlen, 0, 0, o.hseq);
      f.payload = (prep(g, pbyte(p, o.hseq, 0)) & ~0xFFull) | ((tcyc + 1) & 0xFFu);
      n->sending = o.hlen != 1;
      n->k = 1;
      n->clen = o.hlen;
      n->cseq = o.hseq;
      n->cvc = vc;
      n->cnt[0] = cmask(g, o.cnt[0] + 1);
    } else {
      n->cnt[2] = cmask(g, o.cnt[2] + 1);
    }
  }
  if (f.valid) n->cnt[1] = cmask(g, o.cnt[1] + 1);
  if (gen_on && (!o.have || send_head)) {
    uint16_t ri = asw_lfsr_next(o.lf_inj);
    n->lf_inj = ri;
    if ((ri & 0xFFu) < t->load) {
      uint16_t rd = asw_lfsr_next(o.lf_dest), rl = asw_lfsr_next(o.lf_len);
      n->lf_dest = rd;
      n->lf_len = rl;
      unsigned uni = (unsigned)(((uint32_t)rd * P) >> 16), d;
      if (t->pattern == 1) {
        d = p + t->port;
        if (d >= P) d -= P;
      } else if (t->pattern == 2) {
        d = (rd & 0xFFu) < t->frac ? t->port : uni;
      } else {
        d = uni;
      }
      n->have = 1;
      n->hdest = d;
      n->hlen = t->randlen ? (unsigned)(((uint32_t)rl * t->len) >> 16) + 1 : t->len;
      n->hseq = o.seqs[d];
      n->seqs[d] = (uint16_t)(o.seqs[d] + 1);
    }
  }
  if (crv_in) n->cred[crvc_in] += 1;
  n->fout = f;

  /* checker and sink */
  int done = 0, bad = 0;
  unsigned lat = 0;
  if (rx->valid) {
    unsigned v = rx->vc;
    n->cnt[4] = cmask(g, o.cnt[4] + 1);
    if (rx->head) {
      uint64_t h = rx->hdr;
      unsigned src = ASW_HDR_SRC(h), len = ASW_HDR_LEN(h), seq = ASW_HDR_SEQ(h);
      unsigned srci = src & ((1u << (P <= 1 ? 1 : 32 - __builtin_clz(P - 1))) - 1);
      bad = o.act[v] || ASW_HDR_DEST(h) != p || src >= P || len == 0 || len > g->c.max_packet ||
            ((h >> 44) & 15u) != 0 || ASW_HDR_SL(h) != (p & 15u) || rx->tail != (len == 1);
      if (src < P) {
        if (seq != o.expect[src]) n->cnt[6] = cmask(g, o.cnt[6] + 1);
        n->expect[src] = (uint16_t)(seq + 1);
      }
      if (((rx->payload ^ prep(g, pbyte(src, seq, 0))) >> 8) != 0) n->cnt[7] = cmask(g, o.cnt[7] + 1);
      n->act[v] = !rx->tail;
      n->rk[v] = 1;
      n->rlen[v] = len;
      n->rsrc[v] = srci;
      n->rseq[v] = (uint16_t)seq;
      n->rts[v] = (uint8_t)rx->payload;
      if (rx->tail) {
        done = 1;
        lat = (tcyc - (unsigned)(rx->payload & 0xFFu)) & 0xFFu;
      }
    } else if (!o.act[v]) {
      bad = 1;
    } else {
      if (rx->payload != prep(g, pbyte(o.rsrc[v], o.rseq[v], o.rk[v])))
        n->cnt[7] = cmask(g, o.cnt[7] + 1);
      bad = rx->tail != (o.rk[v] == o.rlen[v] - 1);
      n->rk[v] = (o.rk[v] + 1) & 0xFFu;
      if (rx->tail) {
        n->act[v] = 0;
        done = 1;
        lat = (tcyc - o.rts[v]) & 0xFFu;
      }
    }
    if (bad) n->cnt[5] = cmask(g, o.cnt[5] + 1);
  }
  if (done) {
    n->cnt[3] = cmask(g, o.cnt[3] + 1);
    n->cnt[8] = cmask(g, o.cnt[8] + lat);
    if (lat > o.lmax) n->lmax = lat;
  }
  n->cnt[9] = n->lmax;
  int any = 0;
  for (unsigned v = 0; v < g->c.vcs; v++) any |= o.pend[v] != 0;
  n->crv = 0;
  n->crvc = 0;
  if (any) {
    uint16_t rs = asw_lfsr_next(o.lf_snk);
    n->lf_snk = rs;
    if ((rs & 0xFFu) < t->sink) {
      n->crv = 1;
      for (unsigned v = 0; v < g->c.vcs; v++)
        if (o.pend[v]) {
          n->crvc = v;
          break;
        }
    }
  }
  for (unsigned v = 0; v < g->c.vcs; v++)
    n->pend[v] = o.pend[v] + (rx->valid && rx->vc == v) - (n->crv && n->crvc == v);
  n->done_q = done;
  n->lat_q = lat;
}

static int bad_arg(const char *what) {
  fprintf(stderr, "sysref: %s\n", what);
  return 2;
}

static int parse_test(const sysconf *g, const char *s, test_cfg *t) {
  *t = (test_cfg){.seed = 1, .pattern = 0, .port = 0, .frac = 128, .len = g->c.max_packet,
                  .randlen = 1, .load = 256, .sink = 256, .hshift = 0, .cycles = 1u << 20,
                  .mask = (1ull << g->c.ports) - 1};
  char buf[1024];
  if (strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
    char *eq = strchr(tok, '=');
    if (!eq) return -1;
    *eq = 0;
    const char *k = tok, *v = eq + 1;
    if (!strcmp(k, "pattern")) {
      if (!strcmp(v, "uniform")) t->pattern = 0;
      else if (!strcmp(v, "permutation")) t->pattern = 1;
      else if (!strcmp(v, "hotspot")) t->pattern = 2;
      else return -1;
      continue;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (*v == 0 || *end || errno) return -1;
    if (!strcmp(k, "seed") && x < 65536) t->seed = (unsigned)x;
    else if (!strcmp(k, "port") && x < g->c.ports) t->port = (unsigned)x;
    else if (!strcmp(k, "frac") && x < 256) t->frac = (unsigned)x;
    else if (!strcmp(k, "len") && x >= 1 && x <= g->c.max_packet) t->len = (unsigned)x;
    else if (!strcmp(k, "randlen") && x <= 1) t->randlen = (unsigned)x;
    else if (!strcmp(k, "load") && x <= 256) t->load = (unsigned)x;
    else if (!strcmp(k, "sink") && x >= 1 && x <= 256) t->sink = (unsigned)x;
    else if (!strcmp(k, "hshift") && x <= 7) t->hshift = (unsigned)x;
    else if (!strcmp(k, "cycles") && x <= 0xFFFFFFFFull) t->cycles = x;
    else if (!strcmp(k, "mask") && (x >> g->c.ports) == 0) t->mask = x;
    else return -1;
  }
  return 0;
}

static int run_test(const sysconf *g, asw_switch *sw, const test_cfg *t) {
  unsigned P = g->c.ports;
  node nodes[MAXP];
  asw_flit fin[MAXP], fout[MAXP];
  uint8_t cvc_in[MAXP], cvc_out[MAXP];
  uint64_t hist[NBIN] = {0};
  int64_t infl = 0;
  asw_reg_write(sw, ASW_REG_CNT_CLEAR, 1);
  for (unsigned p = 0; p < P; p++) node_start(g, &nodes[p], p, t->seed);
  uint64_t tc = 0;
  for (;; tc++) {
    int all_idle = 1;
    for (unsigned p = 0; p < P; p++) all_idle &= node_idle(g, &nodes[p]);
    int gens_over = tc >= t->cycles;
    if (gens_over && all_idle && infl == 0) break;
    if (tc > t->cycles + (1ull << 24)) {
      fprintf(stderr, "sysref: the test did not drain\n");
      return 1;
    }
    asw_inputs in = {0};
    asw_outputs out = {0};
    in.flit = fin;
    in.credit_vc = cvc_in;
    out.flit = fout;
    out.credit_vc = cvc_out;
    for (unsigned p = 0; p < P; p++) {
      if (nodes[p].fout.valid) {
        in.flit_mask |= 1ull << p;
        fin[p] = nodes[p].fout;
      }
      if (nodes[p].crv) {
        in.credit_mask |= 1ull << p;
        cvc_in[p] = (uint8_t)nodes[p].crvc;
      }
    }
    if (asw_switch_step(sw, &in, &out) != ASW_OK) {
      fprintf(stderr, "sysref: switch protocol error: %s\n", asw_switch_error(sw));
      return 1;
    }
    for (unsigned p = 0; p < P; p++) {
      node *n = &nodes[p];
      infl += (n->fout.valid && n->fout.head) - n->done_q;
      if (n->done_q) {
        unsigned b = n->lat_q >> t->hshift;
        hist[b >= NBIN - 1 ? NBIN - 1 : b]++;
      }
      asw_flit rx = {0};
      if (out.flit_mask >> p & 1) rx = fout[p];
      int gen_on = !gens_over && (t->mask >> p & 1);
      node_step(g, n, p, t, gen_on, (unsigned)(tc & 0xFF), (int)(out.credit_mask >> p & 1),
                cvc_out[p], &rx);
    }
  }
  /* the done cycle: the system freezes CYCLES at tc */
  int errors = 0;
  printf("{\"cycles\": %" PRIu64 ", \"ports\": [", tc);
  for (unsigned p = 0; p < P; p++) {
    printf("%s{", p ? ", " : "");
    for (unsigned k = 0; k < NCNT; k++) printf("\"%s\": %" PRIu64 ", ", CNT_NAMES[k], nodes[p].cnt[k]);
    errors |= nodes[p].cnt[5] || nodes[p].cnt[6] || nodes[p].cnt[7];
    printf("\"switch\": {");
    for (unsigned k = 0; k < 8; k++) {
      uint32_t v = 0;
      asw_reg_read(sw, ASW_REG_COUNTER(p, k), &v);
      printf("%s\"%s\": %u", k ? ", " : "", SW_NAMES[k], v);
    }
    printf("}}");
  }
  printf("], \"hist\": [");
  for (unsigned b = 0; b < NBIN; b++) printf("%s%" PRIu64, b ? ", " : "", cmask(g, hist[b]));
  printf("], \"result\": \"%s\"}\n", errors ? "fail" : "pass");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 12) return bad_arg("usage: sysref P V BUF LMAX PW DW TABLE VOQ ITERS AE CNTW "
                                "[--features MASK] [--table FILE] --test \"k=v ...\" ...");
  unsigned v[11];
  for (int i = 0; i < 11; i++) {
    char *end;
    unsigned long x = strtoul(argv[1 + i], &end, 0);
    if (!*argv[1 + i] || *end || x > 65536) return bad_arg("bad configuration number");
    v[i] = (unsigned)x;
  }
  sysconf conf;
  const sysconf *g = &conf;
  conf.c = (asw_config){.ports = v[0], .vcs = v[1], .buf_flits = v[2], .max_packet = v[3],
                   .payload_bits = v[4], .dest_bits = v[5], .table_entries = v[6], .voq = v[7],
                   .iters = v[8], .arn_entries = v[9]};
  conf.cntw = v[10];
  /* optional --features MASK (contract §1: the features built, ASW_FEAT_* bits) after CNTW */
  int first = 12;
  if (argc > 13 && !strcmp(argv[12], "--features")) {
    char *end;
    unsigned long x = strtoul(argv[13], &end, 0);
    if (!*argv[13] || *end || x > ASW_FEAT_ALL) return bad_arg("bad --features mask");
    asw_config_set_features(&conf.c, (unsigned)x);
    first = 14;
  }
  if (g->c.ports > MAXP || (g->c.vcs & (g->c.vcs - 1)) || g->c.payload_bits < 8 || g->c.payload_bits % 8 ||
      g->cntw < 8 || g->cntw > 32)
    return bad_arg("the board system needs P <= 32, V a power of two, PW a multiple of 8, "
                   "CNTW 8..32");
  char err[256];
  asw_switch *sw = asw_switch_new(&conf.c, err, sizeof err);
  if (!sw) return bad_arg(err);
  /* the host bridge's reset-time programming: FWD[d] = port d */
  for (unsigned d = 0; d < g->c.ports && d < g->c.table_entries; d++)
    asw_reg_write(sw, ASW_REG_FWD(d), 0x80000000u | d);
  int rc = 0, ntests = 0;
  for (int i = first; i < argc && rc == 0; i++) {
    if (!strcmp(argv[i], "--table") && i + 1 < argc) {
      if (asw_table_load(sw, argv[++i], err, sizeof err) != ASW_OK) {
        fprintf(stderr, "sysref: %s\n", err);
        rc = 2;
      }
    } else if (!strcmp(argv[i], "--test") && i + 1 < argc) {
      test_cfg t;
      if (parse_test(g, argv[++i], &t) != 0) {
        fprintf(stderr, "sysref: bad test \"%s\"\n", argv[i]);
        rc = 2;
      } else {
        rc = run_test(g, sw, &t);
        ntests++;
      }
    } else {
      fprintf(stderr, "sysref: unknown argument %s\n", argv[i]);
      rc = 2;
    }
  }
  asw_switch_free(sw);
  if (rc == 0 && ntests == 0) return bad_arg("no --test given");
  return rc;
}
