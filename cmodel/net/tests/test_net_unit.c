/* test_net_unit.c — network code that needs no switch: topology, the table
 * generator (D-mod-K balance of Table 1 of seed 000, look-ahead, candidate
 * sets), the source SL functions and configuration parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../asw_switch.h"
#include "../cube.h"
#include "../netcfg.h"
#include "../qcn_net.h"
#include "../tables.h"
#include "../topo.h"

/* label of the closing line: run_tests.py sums "word: N passed, N failed" */
#if defined(__SANITIZE_ADDRESS__)
#define SAN_LABEL "_san"
#else
#define SAN_LABEL ""
#endif

#include "net_check.h"

/* Structure: counts, symmetric links, node attachment, port usage. */
static void test_structure(topo *t, unsigned nodes, unsigned switches,
                           const char *name) {
  CHECK(topo_nodes(t) == nodes, "%s: %u nodes, want %u", name, topo_nodes(t), nodes);
  CHECK(topo_switches(t) == switches, "%s: %u switches, want %u", name,
        topo_switches(t), switches);
  unsigned P = topo_ports(t), bad_sym = 0, bad_node = 0, dangling = 0;
  for (unsigned s = 0; s < topo_switches(t); s++)
    for (unsigned p = 0; p < P; p++) {
      topo_peer pe = topo_port_peer(t, s, p);
      if (pe.kind == PEER_SWITCH) {
        topo_peer back = topo_port_peer(t, pe.id, pe.port);
        if (back.kind != PEER_SWITCH || back.id != s || back.port != p) bad_sym++;
        if (topo_level(t, pe.id) != topo_level(t, s) + 1 &&
            topo_level(t, pe.id) + 1 != topo_level(t, s))
          bad_sym++;
      } else if (pe.kind == PEER_NODE) {
        if (topo_node_switch(t, pe.id) != s || topo_node_port(t, pe.id) != p) bad_node++;
      } else {
        /* only the top of a k-ary n-tree leaves ports unconnected */
        if (!(topo_get_kind(t) == TOPO_KARY && topo_level(t, s) == topo_levels(t) &&
              p >= P / 2))
          dangling++;
      }
    }
  CHECK(!bad_sym, "%s: %u asymmetric switch links", name, bad_sym);
  CHECK(!bad_node, "%s: %u wrong node attachments", name, bad_node);
  CHECK(!dangling, "%s: %u unexpected unconnected ports", name, dangling);
  /* the seeds' numbering: K consecutive nodes per leaf */
  unsigned K = topo_down_ports(t, 1);
  CHECK(topo_node_switch(t, 0) == topo_node_switch(t, K - 1) &&
            topo_node_switch(t, K) == topo_node_switch(t, 0) + 1,
        "%s: nodes 0..K-1 share a leaf, node K is on the next", name);
}

/* Follows the forwarding tables (det_port of the generated FWD entries)
 * from src to dst; records, per (switch, out port), the set of
 * destinations routed through it. Returns switches crossed or 0. */
static unsigned trace(const topo *t, unsigned src, unsigned dst, uint8_t *seen) {
  unsigned s = topo_node_switch(t, src), hops = 0, P = topo_ports(t), N = topo_nodes(t);
  for (;;) {
    hops++;
    if (hops > 2 * topo_levels(t)) return 0;
    uint32_t e = tables_fwd_entry(t, s, dst);
    unsigned port = e & 0x3F;
    if (!(e >> 31)) return 0;
    if (seen) seen[((size_t)s * P + port) * N + dst] = 1;
    topo_peer pe = topo_port_peer(t, s, port);
    if (pe.kind == PEER_NODE) return pe.id == dst ? hops : 0;
    if (pe.kind != PEER_SWITCH) return 0;
    /* multipath exactly on the way up */
    unsigned up = port >= topo_down_ports(t, topo_level(t, s));
    if (((e >> 30) & 1) != up) return 0;
    /* look-ahead: the det port of the next switch */
    unsigned la = (e >> 8) & 0x3F;
    if (la != (tables_fwd_entry(t, pe.id, dst) & 0x3F)) return 0;
    s = pe.id;
  }
}

/* Table 1 of seed 000, D-mod-K row: destinations per output port are
 * (N - m_1..m_l) / (w_2..w_{l+1}) on the way up at stage l and 1 on every
 * down port. Checked on every port, so the balance is exact. */
static void test_dmodk_balance(topo *t, const char *name) {
  unsigned N = topo_nodes(t), P = topo_ports(t), S = topo_switches(t);
  uint8_t *seen = calloc((size_t)S * P * N, 1);
  unsigned bad_path = 0;
  for (unsigned a = 0; a < N; a++)
    for (unsigned b = 0; b < N; b++) {
      if (a == b) continue;
      unsigned h = trace(t, a, b, seen);
      if (!h || h != topo_path_switches(t, a, b)) bad_path++;
    }
  CHECK(!bad_path, "%s: %u src/dst pairs with a wrong D-mod-K path", name, bad_path);
  unsigned mprod = 1, wprod = 1;
  for (unsigned l = 1; l <= topo_levels(t); l++) {
    mprod *= topo_down_ports(t, l);
    unsigned wup = topo_up_ports(t, l);
    unsigned want_up = wup ? (N - mprod) / (wprod * wup) : 0;
    unsigned bad_up = 0, bad_down = 0, first = topo_level_first(t, l);
    for (unsigned s = first; s < first + topo_level_count(t, l); s++)
      for (unsigned p = 0; p < P; p++) {
        topo_peer pe = topo_port_peer(t, s, p);
        if (pe.kind == PEER_NONE) continue;
        unsigned cnt = 0;
        for (unsigned d = 0; d < N; d++) cnt += seen[((size_t)s * P + p) * N + d];
        if (p >= topo_down_ports(t, l)) bad_up += cnt != want_up;
        else bad_down += cnt != 1;
      }
    CHECK(!bad_up, "%s stage %u: %u up ports not carrying exactly %u destinations",
          name, l, bad_up, want_up);
    CHECK(!bad_down, "%s stage %u: %u down ports not carrying exactly 1 destination",
          name, l, bad_down);
    wprod *= wup ? wup : 1;
  }
  free(seen);
}

typedef struct {
  unsigned n;
  uint32_t addr[70000];
  uint32_t data[70000];
} reglog;
static int log_write(void *ctx, uint32_t addr, uint32_t data) {
  reglog *l = ctx;
  if (l->n >= 70000) return -1;
  l->addr[l->n] = addr;
  l->data[l->n++] = data;
  return 0;
}

static void test_program(void) {
  char err[256];
  topo *t = topo_new_rlft(12, 3, err, sizeof err);
  static reglog lg;
  route_cfg rc = {.mode = ASW_ROUTE_ADAPTIVE, .trigger = ASW_TRIG_2TH,
                  .stage_mask = 1, .delta = 3, .obqa = 0, .lfsr_seed = 7};
  unsigned leaf = topo_level_first(t, 1), top = topo_level_first(t, 3);
  lg.n = 0;
  CHECK(!tables_program_switch(t, leaf, &rc, log_write, &lg), "program leaf");
  int saw_cset = 0, saw_ctrl = 0, fwd = 0, cset_ok = 1;
  for (unsigned i = 0; i < lg.n; i++) {
    /* K/3 over up ports 6..11 (ranks 0..5): set r holds ranks r and r+3 */
    if (lg.addr[i] == ASW_REG_CSET(0, 0)) saw_cset += lg.data[i] == ((1u << 6) | (1u << 9));
    if (lg.addr[i] == ASW_REG_CSET(1, 0)) saw_cset += lg.data[i] == ((1u << 7) | (1u << 10));
    if (lg.addr[i] == ASW_REG_CSET(2, 0)) saw_cset += lg.data[i] == ((1u << 8) | (1u << 11));
    if (lg.addr[i] == ASW_REG_ROUTE_CTRL)
      saw_ctrl = lg.data[i] == asw_route_ctrl(2, 2, 1, 1);
    if (lg.addr[i] >= ASW_REG_FWD(0) && lg.addr[i] < ASW_REG_FWD(432)) {
      unsigned d = lg.addr[i] - ASW_REG_FWD(0);
      fwd++;
      /* multipath entries (destinations outside the leaf) name set d mod 3 */
      if ((lg.data[i] >> 30 & 1u) && (lg.data[i] >> 16 & 3u) != d % 3) cset_ok = 0;
    }
  }
  CHECK(saw_cset == 3, "leaf CSET[0..2] = up ports 6..11 by rank mod 3");
  CHECK(cset_ok, "FWD[d].cset = d mod 3 on multipath entries");
  CHECK(saw_ctrl, "leaf ROUTE_CTRL: adaptive, 2TH, mask 1, stage 1");
  CHECK(fwd == 432, "432 FWD entries written, got %d", fwd);
  lg.n = 0;
  tables_program_switch(t, top, &rc, log_write, &lg);
  int top_ok = 0;
  for (unsigned i = 0; i < lg.n; i++)
    if (lg.addr[i] == ASW_REG_ROUTE_CTRL) top_ok = ((lg.data[i] >> 12) & 0xF) == 3;
  CHECK(top_ok, "top switch gets STAGE = 3");
  topo_free(t);
}

static void test_sqs(void) {
  /* DBBM: D mod Q */
  CHECK(sqs_sl(SQS_DBBM, 3, 432, 6, 9, 5, 17) == 2, "dbbm 17 mod 3");
  /* vFtree: consecutive destination leaves get different queues */
  unsigned ok = 1;
  for (unsigned d = 0; d + 6 < 432; d++)
    ok &= sqs_sl(SQS_VFTREE, 3, 432, 6, 9, 0, d) == (d / 6) % 3 &&
          sqs_sl(SQS_VFTREE, 3, 432, 6, 9, 0, d) != sqs_sl(SQS_VFTREE, 3, 432, 6, 9, 0, d + 6);
  CHECK(ok, "vftree: floor(D/K) mod Q, neighbours differ");
  /* Flow2SL: same source and destination groups -> same SL; same source
   * group, different destination groups -> different SLs */
  CHECK(sqs_sl(SQS_FLOW2SL, 3, 432, 6, 9, 0, 10) == sqs_sl(SQS_FLOW2SL, 3, 432, 6, 9, 100, 140),
        "flow2sl same groups same SL");
  CHECK(sqs_sl(SQS_FLOW2SL, 3, 432, 6, 9, 0, 10) != sqs_sl(SQS_FLOW2SL, 3, 432, 6, 9, 0, 200) &&
            sqs_sl(SQS_FLOW2SL, 3, 432, 6, 9, 0, 200) != sqs_sl(SQS_FLOW2SL, 3, 432, 6, 9, 0, 400),
        "flow2sl different destination groups differ");
  /* XORDET, Q = 4, 6-bit ids: bit j = XOR of bits j, j+2, j+4 */
  CHECK(sqs_sl(SQS_XORDET, 4, 64, 4, 6, 0, 0x36) == 0, "xordet 0b110110 -> 0");
  CHECK(sqs_sl(SQS_XORDET, 4, 64, 4, 6, 0, 0x01) == 1, "xordet 0b000001 -> 1");
  CHECK(sqs_sl(SQS_XORDET, 4, 64, 4, 6, 0, 0x08) == 2, "xordet 0b001000 -> 2");
  CHECK(sqs_sl(SQS_XORDET, 4, 64, 4, 6, 0, 0x0C) == 3, "xordet 0b001100 -> 3");
  CHECK(sqs_sl(SQS_1Q, 1, 64, 4, 6, 3, 9) == 0, "1q -> 0");
  CHECK(sqs_parse("vftree") == SQS_VFTREE && sqs_parse("nope") == -1, "sqs names");
}

static void test_config(void) {
  net_cfg c;
  char err[512];
  netcfg_default(&c);
  /* the wording of every front end (optval.h): key, value and allowed range */
  CHECK(netcfg_set(&c, "bogus", "1", err, sizeof err) &&
            !strcmp(err, "bogus: unknown key (see asw net --help)"),
        "unknown key named: %s", err);
  CHECK(netcfg_set(&c, "load", "1.5", err, sizeof err) &&
            !strcmp(err, "load: '1.5' is not a number in 0..1"),
        "out-of-range value named: %s", err);
  CHECK(netcfg_set(&c, "vcs", "two", err, sizeof err) &&
            !strcmp(err, "vcs: 'two' is not an integer in 1..8"),
        "non-numeric value named: %s", err);
  CHECK(netcfg_set(&c, "vcs", "9", err, sizeof err) &&
            !strcmp(err, "vcs: '9' is not an integer in 1..8"),
        "out-of-range integer named with its range: %s", err);
  CHECK(netcfg_set(&c, "sqs", "voq", err, sizeof err) && strstr(err, "sqs: 'voq' is not one of "),
        "bad enum named: %s", err);
  CHECK(netcfg_set(&c, "voq", "yes", err, sizeof err) &&
            !strcmp(err, "voq: 'yes' is not one of on, off, 1, 0"),
        "bad switch named: %s", err);
  CHECK(netcfg_set(&c, "vcs", "-1", err, sizeof err) && strstr(err, "vcs"),
        "negative value rejected: %s", err);
  CHECK(netcfg_set_arg(&c, "novalue", err, sizeof err), "missing '=' rejected");
  CHECK(!netcfg_set(&c, "traffic", "hs25-4", err, sizeof err) && c.traffic == TRAFFIC_HOTSPOT &&
            c.hs_count == 4 && c.hs_fraction == 0.25,
        "hs25-4 alias");
  CHECK(!netcfg_set(&c, "routing", "adap-2th-1s-k/3", err, sizeof err) && c.routing == 2 &&
            c.trigger == 2 && c.adaptive_stages == 1 && c.delta == 3,
        "Table 2 routing name");
  CHECK(netcfg_set(&c, "routing", "adap-3th-1s-k", err, sizeof err) && strstr(err, "routing"),
        "bad Table 2 name rejected");
  CHECK(!netcfg_set(&c, "adaptive_stages", "1,2", err, sizeof err) && c.adaptive_stages == 3,
        "stage list");
  CHECK(!netcfg_set(&c, "cycles", "2e5", err, sizeof err) && c.cycles == 200000, "2e5 cycles");
  netcfg_set(&c, "buffer_flits", "32", err, sizeof err);
  netcfg_set(&c, "packet_flits", "64", err, sizeof err);
  CHECK(netcfg_check(&c, err, sizeof err) && strstr(err, "packet_flits"),
        "packet longer than buffer rejected: %s", err);
  netcfg_set(&c, "packet_flits", "16", err, sizeof err);
  netcfg_set(&c, "vcs", "3", err, sizeof err);
  netcfg_set(&c, "sqs", "xordet", err, sizeof err);
  CHECK(netcfg_check(&c, err, sizeof err) && strstr(err, "xordet"),
        "xordet with 3 VCs rejected: %s", err);
  netcfg_set(&c, "sqs", "vftree", err, sizeof err);
  netcfg_set(&c, "hs_nodes", "4,120", err, sizeof err);
  /* echo round trip: the written config loads back to the same JSON */
  char path[] = "/tmp/netcfg_testXXXXXX";
  int fd = mkstemp(path);
  FILE *f = fdopen(fd, "w");
  netcfg_write(&c, f);
  fclose(f);
  net_cfg d;
  netcfg_default(&d);
  CHECK(!netcfg_load(&d, path, err, sizeof err), "reload: %s", err);
  char *a = NULL, *b = NULL;
  size_t al, bl;
  FILE *fa = open_memstream(&a, &al), *fb = open_memstream(&b, &bl);
  netcfg_json(&c, fa);
  netcfg_json(&d, fb);
  fclose(fa);
  fclose(fb);
  CHECK(al == bl && !memcmp(a, b, al), "config echo round trip");
  free(a);
  free(b);
  f = fopen(path, "w");
  fprintf(f, "# comment\nload = 0.5\nfrobnicate = 3\n");
  fclose(f);
  CHECK(netcfg_load(&d, path, err, sizeof err) && strstr(err, "frobnicate") && strstr(err, ":3:"),
        "unknown key in file named with line: %s", err);
  /* fuzz findings (cmodel/fuzz/corpus/netcfg/regress-*): a NUL byte and an
   * over-long line are errors, not silently cut */
  f = fopen(path, "wb");
  fwrite("load = 0.5\0x\nvcs = 2\n", 1, 22, f);
  fclose(f);
  CHECK(netcfg_load(&d, path, err, sizeof err) && strstr(err, "NUL"), "NUL byte rejected: %s", err);
  f = fopen(path, "w");
  fprintf(f, "# %01100d\nvcs = 2\n", 0);
  fclose(f);
  CHECK(netcfg_load(&d, path, err, sizeof err) && strstr(err, ":1: line longer"),
        "long line rejected: %s", err);
  remove(path);
  netcfg_default(&c);
  /* a leading 0 is not octal; no sign, blank, wrap or rounding */
  CHECK(!netcfg_set(&c, "buffer_flits", "032", err, sizeof err) && c.buffer_flits == 32,
        "032 is 32 (got %u)", c.buffer_flits);
  CHECK(!netcfg_set(&c, "seed", "0x10", err, sizeof err) && c.seed == 16, "0x10 is 16");
  CHECK(netcfg_set(&c, "seed", "0x0x10", err, sizeof err) && strstr(err, "seed"),
        "a second 0x prefix rejected: %s", err);
  CHECK(netcfg_set(&c, "seed", " -5", err, sizeof err) && strstr(err, "is not an integer in 0.."),
        "' -5' rejected as not an integer: %s", err);
  CHECK(netcfg_set(&c, "adaptive_stages", "4294967297", err, sizeof err) &&
            strstr(err, "adaptive_stages"), "stage 2^32+1 does not wrap to 1: %s", err);
  CHECK(netcfg_set(&c, "traffic", "hs-4294967295-1", err, sizeof err) &&
            netcfg_set(&c, "traffic", "hs 25-1", err, sizeof err) &&
            netcfg_set(&c, "traffic", "hs25-1x", err, sizeof err) && strstr(err, "traffic"),
        "hsX-Y only with plain numbers: %s", err);
  CHECK(!netcfg_set(&c, "hs_nodes", "1,2", err, sizeof err) &&
            netcfg_set(&c, "hs_count", "5", err, sizeof err) && strstr(err, "hs_nodes") &&
            !netcfg_set(&c, "hs_count", "2", err, sizeof err),
        "hs_count must agree with a hs_nodes list: %s", err);
  CHECK(!netcfg_set(&c, "load", "0.30000000000000004", err, sizeof err), "load 0.3+ulp");
  fa = open_memstream(&a, &al);
  netcfg_write(&c, fa);
  fclose(fa);
  netcfg_default(&d);
  CHECK(!netcfg_parse(&d, a, al, "echo", err, sizeof err) && d.load == c.load &&
            strstr(a, "load = 0.30000000000000004\n"),
        "17-digit echo of a double that 15 digits do not carry");
  free(a);
}

/* Direct networks (cube.h): DOR paths are minimal, in dimension order and
 * end at the destination; seed 003 Tables 1-3 (destinations per VC of node
 * 0's X and Y output ports, 8x8 mesh, 4 VCs, XY routing) exactly. */
static void test_cube(void) {
  char err[200];
  static const struct { const char *dims; int torus; } nets[] = {
      {"8x8", 0}, {"8x8", 1}, {"4x4", 1}, {"3x3", 0}, {"5x4", 1}, {"3x4x5", 1}, {"4x4x4", 0}, {"7", 1}};
  for (unsigned t = 0; t < sizeof nets / sizeof nets[0]; t++) {
    cube c;
    CHECK(!cube_parse(&c, nets[t].dims, nets[t].torus, err, sizeof err), "%s: %s", nets[t].dims, err);
    unsigned bad = 0, maxd = 0;
    for (unsigned a = 0; a < c.nodes; a++) {
      unsigned x[CUBE_MAX_DIMS];
      cube_coords(&c, a, x);
      if (cube_id(&c, x) != a) bad++;
      for (unsigned b = 0; b < c.nodes; b++) {
        unsigned cur = a, hops = 0, lastdim = 0, dist = cube_distance(&c, a, b);
        if (dist > maxd) maxd = dist;
        for (;;) {
          unsigned p = cube_dor_port(&c, cur, b);
          if (p == 2 * c.n) break;
          if (p / 2 < lastdim) bad++; /* dimension order */
          lastdim = p / 2;
          int nx = cube_neighbor(&c, cur, p);
          if (nx < 0 || hops > 3 * 256) { bad++; break; }
          cur = (unsigned)nx;
          hops++;
        }
        if (cur != b || hops != dist) bad++;
      }
    }
    /* diameter: sum of floor(k/2) (torus) or k-1 (mesh) */
    unsigned diam = 0;
    for (unsigned d = 0; d < c.n; d++) diam += nets[t].torus ? c.k[d] / 2 : c.k[d] - 1;
    CHECK(!bad && maxd == diam, "%s %s: %u bad DOR paths, diameter %u (want %u)", nets[t].dims,
          nets[t].torus ? "torus" : "mesh", bad, maxd, diam);
  }
  /* seed 003 Tables 1-3 */
  cube m;
  CHECK(!cube_parse(&m, "8x8", 0, err, sizeof err), "8x8: %s", err);
  static const unsigned want[3][2][4] = {{{8, 16, 16, 16}, {7, 0, 0, 0}},   /* DBBM */
                                         {{8, 16, 16, 16}, {1, 2, 2, 2}},   /* IODET */
                                         {{14, 14, 14, 14}, {1, 2, 2, 2}}}; /* XORDET */
  static const unsigned scheme[3] = {CUBE_VC_DBBM, CUBE_VC_IODET, CUBE_VC_XORDET};
  static const char *const name[3] = {"DBBM (Table 1)", "IODET (Table 2)", "XORDET (Table 3)"};
  for (unsigned s = 0; s < 3; s++) {
    unsigned got[2][4] = {{0}};
    for (unsigned d = 1; d < m.nodes; d++) {
      unsigned p = cube_dor_port(&m, 0, d); /* node 0 is a corner: only + ports */
      got[p / 2][cube_vc(&m, scheme[s], d, p / 2, 4)]++;
    }
    int same = 1;
    for (unsigned dim = 0; dim < 2; dim++)
      for (unsigned v = 0; v < 4; v++) same &= got[dim][v] == want[s][dim][v];
    CHECK(same, "%s: X %u %u %u %u, Y %u %u %u %u", name[s], got[0][0], got[0][1], got[0][2],
          got[0][3], got[1][0], got[1][1], got[1][2], got[1][3]);
  }
  /* BBQ: horizontal bands, one VC per band of 16 nodes (2 rows) */
  for (unsigned d = 0; d < 64; d++)
    if (cube_vc(&m, CUBE_VC_BBQ, d, 0, 4) != d / 16) {
      CHECK(0, "BBQ of %u is %u", d, cube_vc(&m, CUBE_VC_BBQ, d, 0, 4));
      break;
    }
  cube bad;
  CHECK(cube_parse(&bad, "8x1", 1, err, sizeof err) && strstr(err, "radix 1"), "8x1 rejected: %s", err);
  CHECK(cube_parse(&bad, "2x2x2x2", 1, err, sizeof err) && strstr(err, "dimensions"), "4D rejected");
  CHECK(cube_parse(&bad, "8x", 1, err, sizeof err) && strstr(err, "8x"), "8x rejected");
  CHECK(cube_parse(&bad, "", 0, err, sizeof err) && strstr(err, "empty"), "empty rejected");
}

/* QCN 2.2 reaction point (contract §17.5), by hand: decrease, fast
 * recovery, active and hyper-active increase, timer, release, minimum rate
 * and minimum decrease factor; then the CNM transport's order. */
#define NEAR(a, b) ((a) - (b) < 1e-12 && (b) - (a) < 1e-12)
static void test_qcn_rp(void) {
  qcn_rp_params p = {.nodes = 4, .rl = 1, .gd = 0.5, .min_rate = 1e-5, .ai = 5e-4,
                     .hai = 5e-3, .fr = 5, .bc_flits = 2400, .timer = 1000};
  qcn_rp r = {0};
  CHECK(qcn_rp_cnm(&p, &r, 63, 0) == 1 && r.active, "CNM creates the limiter");
  CHECK(NEAR(r.cr, 0.5) && NEAR(r.tr, 1.0), "q 63: CR %g TR %g, want 0.5 1", r.cr, r.tr);
  CHECK(qcn_rp_cnm(&p, &r, 63, 0) == 0 && NEAR(r.cr, 0.25) && NEAR(r.tr, 0.5),
        "second CNM: CR %g TR %g, want 0.25 0.5", r.cr, r.tr);
  CHECK(qcn_rp_sent(&p, &r, 24, 10) == 0 && NEAR(r.next_send, 10 + 24 / 0.25),
        "24 flits at 1/4: next start %g, want 106", r.next_send);
  /* byte counter: 2400 flits per stage; 5 stages of fast recovery, then AI */
  static const double cr_fr[] = {0.375, 0.4375, 0.46875, 0.484375, 0.4921875};
  r.bc = 24;
  for (unsigned k = 0; k < 5; k++) {
    qcn_rp_sent(&p, &r, 2400, 20);
    CHECK(r.bs == k + 1 && NEAR(r.cr, cr_fr[k]) && NEAR(r.tr, 0.5), "FR stage %u: CR %g TR %g",
          k + 1, r.cr, r.tr);
  }
  qcn_rp_sent(&p, &r, 2400, 20);
  CHECK(r.bs == 6 && NEAR(r.tr, 0.5005) && NEAR(r.cr, (0.4921875 + 0.5005) / 2),
        "AI: CR %g TR %g", r.cr, r.tr);
  r.ts = 5; /* timer stages past FR too: hyper-active on the next event */
  r.timer_at = 30;
  qcn_rp_time(&p, &r, 30);
  CHECK(r.ts == 6 && NEAR(r.tr, 0.5005 + 5e-3 * 1), "HAI: TR %g", r.tr);
  /* the timer alone brings a limiter back to line rate and releases it */
  qcn_rp t = {0};
  qcn_rp_cnm(&p, &t, 63, 0); /* CR 0.5, TR 1 */
  CHECK(qcn_rp_time(&p, &t, 999) == 0 && t.ts == 0, "no timer event before 1000");
  CHECK(qcn_rp_time(&p, &t, 1000) == 0 && t.ts == 1 && NEAR(t.cr, 0.75), "timer 1: CR %g", t.cr);
  CHECK(qcn_rp_time(&p, &t, 8999) == 0 && t.active && t.ts == 8, "8 timers: %u, active", t.ts);
  CHECK(NEAR(t.cr, 0.998046875), "8 timers: CR %g", t.cr);
  CHECK(qcn_rp_time(&p, &t, 9000) == 1 && !t.active, "released at the 9th timer (CR >= 0.999)");
  /* floors */
  qcn_rp m = {0};
  for (unsigned k = 0; k < 40; k++) qcn_rp_cnm(&p, &m, 63, 0);
  CHECK(NEAR(m.cr, 1e-5), "minimum rate: CR %g", m.cr);
  qcn_rp_params p1 = p;
  p1.gd = 1.0;
  qcn_rp h = {0};
  qcn_rp_cnm(&p1, &h, 63, 0);
  CHECK(NEAR(h.cr, 0.5), "minimum decrease factor 0.5: CR %g", h.cr);
  CHECK(qcn_rp_cnm(&p, &h, 0, 0) == 0 && NEAR(h.cr, 0.5), "q 0 changes no rate");
  /* transport: CNMs reach their flows in (cycle, send) order */
  char err[128];
  qcn_net *q = qcn_net_new(&p, err, sizeof err);
  CHECK(q != NULL, "qcn_net_new: %s", err);
  if (!q) return;
  qcn_net_send(q, 50, asw_cnm_make(1, 2, 63, 0, 0));
  qcn_net_send(q, 20, asw_cnm_make(3, 0, 63, 0, 0));
  qcn_net_deliver(q, 19);
  qcn_net_stats st;
  qcn_net_get_stats(q, &st);
  CHECK(st.cnm_sent == 2 && st.cnm_delivered == 0 && qcn_net_ready(q, 3, 0, 19), "none due at 19");
  qcn_net_deliver(q, 20);
  qcn_net_get_stats(q, &st);
  CHECK(st.cnm_delivered == 1 && st.rl_created == 1 && st.rl_active == 1, "one due at 20");
  qcn_net_sent(q, 3, 0, 24, 20); /* 24 flits at 1/2: next start 68 */
  CHECK(!qcn_net_ready(q, 3, 0, 67) && qcn_net_ready(q, 3, 0, 68), "rate 1/2 spaces packets");
  CHECK(qcn_net_ready(q, 1, 2, 49), "flow 1->2 not limited yet");
  qcn_net_deliver(q, 1000);
  qcn_net_get_stats(q, &st);
  CHECK(st.cnm_delivered == 2 && st.rl_active == 2 && NEAR(st.rl_min_rate, 0.5), "both delivered");
  qcn_net_free(q);
  p.nodes = 4097;
  CHECK(!qcn_net_new(&p, err, sizeof err) && strstr(err, "4096"), "N > 4096 rejected: %s", err);
}

int main(void) {
  char err[256];
  struct { unsigned p, t, nodes, sw; } rl[] = {{12, 3, 432, 180}, {24, 3, 3456, 720},
                                               {36, 3, 11664, 1620}, {8, 3, 128, 80},
                                               {12, 2, 72, 18}};
  for (unsigned i = 0; i < sizeof rl / sizeof *rl; i++) {
    char name[64];
    snprintf(name, sizeof name, "RLFT P=%u T=%u", rl[i].p, rl[i].t);
    topo *t = topo_new_rlft(rl[i].p, rl[i].t, err, sizeof err);
    CHECK(t != NULL, "%s: %s", name, err);
    if (!t) continue;
    test_structure(t, rl[i].nodes, rl[i].sw, name);
    if (rl[i].nodes <= 432) test_dmodk_balance(t, name);
    topo_free(t);
  }
  struct { unsigned k, n, nodes, sw; } ka[] = {{4, 3, 64, 48}, {4, 4, 256, 256}, {8, 3, 512, 192},
                                               {16, 2, 256, 32}};
  for (unsigned i = 0; i < sizeof ka / sizeof *ka; i++) {
    char name[64];
    snprintf(name, sizeof name, "%u-ary %u-tree", ka[i].k, ka[i].n);
    topo *t = topo_new_kary(ka[i].k, ka[i].n, err, sizeof err);
    CHECK(t != NULL, "%s: %s", name, err);
    if (!t) continue;
    test_structure(t, ka[i].nodes, ka[i].sw, name);
    test_dmodk_balance(t, name);
    topo_free(t);
  }
  CHECK(!topo_new_rlft(13, 3, err, sizeof err) && strstr(err, "ports"), "odd ports rejected");
  CHECK(!topo_new_rlft(64, 4, err, sizeof err) && strstr(err, "65536"), "too many nodes rejected");
  test_program();
  test_sqs();
  test_config();
  test_qcn_rp();
  test_cube();
  printf("net_unit%s: %u passed, %u failed\n", SAN_LABEL, passed, failed);
  return failed != 0;
}
