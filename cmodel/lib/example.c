/* example.c — a program linked against the installed libarnswitch (pkg-config
 * arnswitch): one 4-port switch, its forwarding table programmed from a text
 * table (asw_table.h), random packets on every input sent only with credits,
 * sinks returning every credit the next cycle. Prints a summary and a hash of
 * every output bit; sw/arnswitch_example.py runs the same stimulus through
 * the Python binding and must print the same lines (make test-lib diffs them).
 *
 *   cc example.c $(pkg-config --cflags --libs arnswitch) -o example
 *   ./example [CYCLES]     (default 3000; exit 1 if a flit is lost or reordered)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <asw_switch.h>
#include <asw_table.h>

enum { P = 4, V = 2, LMAX = 4, NDEST = 16, DRAIN = 300 };

static uint32_t rnd(uint64_t *s) { /* xorshift64 */
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)(*s >> 32);
}

static uint64_t fnv(uint64_t h, uint64_t v) { /* FNV-1a over 8 bytes */
  for (int i = 0; i < 8; i++) {
    h ^= (v >> (8 * i)) & 0xFFu;
    h *= 0x100000001B3ull;
  }
  return h;
}

int main(int argc, char **argv) {
  uint64_t cycles = 3000;
  if (argc > 1) {
    char *end;
    cycles = strtoull(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end || cycles <= DRAIN) {
      fprintf(stderr, "example: CYCLES must be a number > %d, not '%s'\n", DRAIN, argv[1]);
      return 2;
    }
  }
  asw_config cfg;
  asw_config_default(&cfg);
  char err[256];
  asw_config bad = cfg; /* an illegal configuration is refused with a message: */
  bad.sa_pipe = 1;      /* pipelined allocation (contract §8.1) has one grant phase */
  bad.iters = 3;
  if (asw_switch_new(&bad, err, sizeof err) == NULL) printf("refused: %s\n", err);
  cfg.ports = P;
  cfg.vcs = V;
  cfg.max_packet = LMAX;
  cfg.counters = 1; /* contract §1: the counters read below are built (off by default) */
  asw_switch *sw = asw_switch_new(&cfg, err, sizeof err);
  if (!sw) {
    fprintf(stderr, "example: %s\n", err);
    return 2;
  }
  char table[1024] = "";
  for (unsigned d = 0; d < NDEST; d++) {
    char line[64];
    snprintf(line, sizeof line, "fwd %u %u\n", d, d % P);
    strcat(table, line);
  }
  if (asw_table_apply(sw, table, "example-table", err, sizeof err) != ASW_OK) {
    fprintf(stderr, "example: %s\n", err);
    return 2;
  }
  uint32_t id = 0;
  asw_reg_read(sw, ASW_REG_ID, &id);
  printf("ID 0x%08" PRIx32 "\n", id);

  uint64_t rng = 0x9E3779B97F4A7C15ull;
  unsigned credits[P][V], left[P] = {0}, len[P] = {0}, vc[P] = {0}, seq[P] = {0};
  uint64_t hdr[P] = {0};
  unsigned expect_seq[P][V][P]; /* next seq per (source, VC, output) */
  for (unsigned p = 0; p < P; p++)
    for (unsigned v = 0; v < V; v++) {
      credits[p][v] = cfg.buf_flits;
      for (unsigned o = 0; o < P; o++) expect_seq[p][v][o] = 0;
    }
  asw_flit fin[P], fout[P];
  uint8_t cin[P], cout[P];
  uint32_t arn[P];
  uint64_t next_credit_mask = 0, h = 0xCBF29CE484222325ull;
  uint8_t next_credit_vc[P] = {0};
  uint64_t sent = 0, received = 0, packets = 0, first_latency = 0, first_sent_at = 0;
  int errors = 0;
  for (uint64_t c = 0; c < cycles; c++) {
    asw_inputs in;
    memset(&in, 0, sizeof in);
    in.flit = fin;
    in.credit_vc = cin;
    for (unsigned p = 0; p < P; p++) {
      if (left[p] == 0 && c < cycles - DRAIN && rnd(&rng) % 4 == 0) {
        const unsigned v = rnd(&rng) % V, l = 1 + rnd(&rng) % LMAX, d = rnd(&rng) % NDEST;
        if (credits[p][v] >= l) {
          credits[p][v] -= l;
          left[p] = len[p] = l;
          vc[p] = v;
          hdr[p] = asw_hdr_make(d, p, v, l, 0, 0, seq[p]++ & 0xFFFFu);
          if (sent == 0) first_sent_at = c;
        }
      }
      if (left[p] > 0) {
        const unsigned i = len[p] - left[p];
        fin[p] = (asw_flit){.valid = 1, .head = i == 0, .tail = left[p] == 1,
                            .vc = (uint8_t)vc[p], .hdr = i == 0 ? hdr[p] : 0,
                            .payload = (uint64_t)p << 24 | (uint64_t)(seq[p] - 1) << 8 | i};
        in.flit_mask |= 1ull << p;
        left[p]--;
        sent++;
      }
    }
    in.credit_mask = next_credit_mask;
    memcpy(cin, next_credit_vc, sizeof cin);
    asw_outputs out = {.flit = fout, .credit_vc = cout, .arn = arn};
    if (asw_switch_step(sw, &in, &out) != ASW_OK) {
      fprintf(stderr, "example: cycle %" PRIu64 ": %s\n", c, asw_switch_error(sw));
      return 1;
    }
    next_credit_mask = 0;
    for (unsigned p = 0; p < P; p++) {
      if (out.credit_mask >> p & 1) credits[p][out.credit_vc[p]]++;
      if (!(out.flit_mask >> p & 1)) continue;
      const asw_flit *f = &fout[p];
      h = fnv(fnv(fnv(h, c), p), (uint64_t)f->head | f->tail << 1 | f->vc << 2);
      h = fnv(fnv(h, f->hdr), f->payload);
      received++;
      next_credit_mask |= 1ull << p;
      next_credit_vc[p] = f->vc;
      if (f->head) {
        const unsigned src = ASW_HDR_SRC(f->hdr), s = ASW_HDR_SEQ(f->hdr);
        packets++;
        if (packets == 1) first_latency = c - first_sent_at;
        /* deterministic routing: dest d leaves on d mod P; a flow (source,
         * VC, output) keeps its order: sequence numbers only grow */
        if (ASW_HDR_DEST(f->hdr) % P != p || s < expect_seq[src][f->vc][p]) errors++;
        expect_seq[src][f->vc][p] = s + 1;
      }
    }
  }
  uint32_t in_cnt = 0, out_cnt = 0;
  for (unsigned p = 0; p < P; p++) {
    uint32_t a = 0, b = 0;
    asw_reg_read(sw, ASW_REG_COUNTER(p, ASW_CNT_FLITS_IN), &a);
    asw_reg_read(sw, ASW_REG_COUNTER(p, ASW_CNT_FLITS_OUT), &b);
    in_cnt += a;
    out_cnt += b;
  }
  printf("flits sent %" PRIu64 " received %" PRIu64 " packets %" PRIu64 "\n", sent, received,
         packets);
  printf("counters flits_in %" PRIu32 " flits_out %" PRIu32 "\n", in_cnt, out_cnt);
  printf("first packet latency %" PRIu64 " cycles\n", first_latency);
  printf("output hash %016" PRIx64 "\n", h);
  printf("idle %d\n", asw_switch_idle(sw));
  asw_switch_free(sw);
  if (errors || sent != received || in_cnt != sent || out_cnt != received) {
    printf("FAIL: %d routing/order errors, %" PRIu64 " flits lost\n", errors, sent - received);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
