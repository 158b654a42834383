/* Input buffer: slots, free list, flit chains, queues/VOQs, occupancy,
 * cut-through rule, link-protocol checks. */
#include <stdlib.h>
#include <string.h>

#include "asw_switch.h"
#include "input_buffer.h"
#include "test.h"

static uint64_t hdr_len(unsigned len) { return asw_hdr_make(0, 0, 0, len, 0, 0, 0); }

void test_ibuf_packet_chain(void) {
  asw_ibuf b;
  CHECK(asw_ibuf_init(&b, 2, 8, 4, NULL) == 0);
  char err[128];
  CHECK(asw_ibuf_check(&b, 1, 1, 0, 3, 8, err, sizeof err) == 0);
  unsigned s0 = asw_ibuf_write(&b, 1, 1, 0, hdr_len(3), 100);
  CHECK(b.vc_last[1] == s0);
  CHECK(!asw_ibuf_sendable(&b, 1, s0)); /* successor not written yet */
  b.slot[s0].oport = 2;
  asw_ibuf_append(&b, 1, 2, s0);
  CHECK(asw_ibuf_occ(&b, 1, 2) == 3);
  CHECK(b.nonempty[1] == 1u << 2 && b.nonempty_vcs == 2u);
  CHECK(asw_ibuf_check(&b, 1, 0, 0, 0, 8, err, sizeof err) == 0);
  unsigned s1 = asw_ibuf_write(&b, 1, 0, 0, 0, 101);
  CHECK(asw_ibuf_sendable(&b, 1, s0));
  CHECK(!asw_ibuf_sendable(&b, 1, s1));
  CHECK(b.slot[s0].flit_next == s1);
  /* a flit on another VC does not make s1 sendable */
  CHECK(asw_ibuf_check(&b, 0, 1, 1, 1, 8, err, sizeof err) == 0);
  unsigned t0 = asw_ibuf_write(&b, 0, 1, 1, hdr_len(1), 7);
  CHECK(!asw_ibuf_sendable(&b, 1, s1));
  CHECK(asw_ibuf_sendable(&b, 0, t0)); /* tail: always sendable */
  CHECK(asw_ibuf_check(&b, 1, 0, 1, 0, 8, err, sizeof err) == 0);
  unsigned s2 = asw_ibuf_write(&b, 1, 0, 1, 0, 102);
  CHECK(asw_ibuf_sendable(&b, 1, s2));
  CHECK(b.slot[s1].flit_next == s2);
  CHECK(b.used == 4 && asw_ibuf_free_slots(&b) == 12);
  CHECK(asw_ibuf_pop(&b, 1, 2) == s0);
  CHECK(b.nonempty[1] == 0 && b.nonempty_vcs == 0);
  CHECK(asw_ibuf_occ(&b, 1, 2) == 3); /* occ falls as flits leave */
  CHECK(asw_ibuf_release(&b, 1, 2, s0) == s1);
  CHECK(asw_ibuf_release(&b, 1, 2, s1) == s2);
  CHECK(asw_ibuf_occ(&b, 1, 2) == 1);
  asw_ibuf_release(&b, 1, 2, s2);
  CHECK(asw_ibuf_occ(&b, 1, 2) == 0);
  CHECK(b.used == 1 && b.vc_held[1] == 0 && b.vc_held[0] == 1);
  /* LIFO free list: the last freed slot is reused first */
  CHECK(asw_ibuf_write(&b, 1, 1, 1, hdr_len(1), 0) == s2);
  asw_ibuf_destroy(&b);
}

void test_ibuf_free_list(void) {
  asw_ibuf b;
  const unsigned V = 3, BUF = 50, B = V * BUF;
  CHECK(asw_ibuf_init(&b, V, BUF, 1, NULL) == 0);
  unsigned *slots = malloc(B * sizeof *slots);
  unsigned char *seen = calloc(B, 1);
  srand(7);
  for (int round = 0; round < 5; round++) {
    memset(seen, 0, B);
    for (unsigned k = 0; k < B; k++) {
      unsigned v = k % V;
      slots[k] = asw_ibuf_write(&b, v, 1, 1, hdr_len(1), k);
      CHECK(slots[k] < B);
      CHECK(!seen[slots[k]]);
      seen[slots[k]] = 1;
      CHECK(b.slot[slots[k]].payload == k);
    }
    CHECK(b.used == B && asw_ibuf_free_slots(&b) == 0);
    for (unsigned k = 0; k < B; k++) CHECK(b.vc_held[k % V] == BUF);
    /* free in random order */
    for (unsigned k = B; k > 1; k--) {
      unsigned j = (unsigned)rand() % k, t = slots[k - 1];
      slots[k - 1] = slots[j];
      slots[j] = t;
    }
    for (unsigned k = 0; k < B; k++) {
      unsigned s = slots[k];
      b.slot[s].len = 1;
      asw_ibuf_append(&b, 0, 0, s); /* give occ something to take from */
      asw_ibuf_pop(&b, 0, 0);
      asw_ibuf_release(&b, (unsigned)b.slot[s].payload % V, 0, s);
    }
    CHECK(b.used == 0 && asw_ibuf_free_slots(&b) == B);
    for (unsigned v = 0; v < V; v++) CHECK(b.vc_held[v] == 0);
  }
  asw_ibuf_reset(&b);
  CHECK(b.used == 0 && b.fresh == 0 && b.free_count == 0);
  free(slots);
  free(seen);
  asw_ibuf_destroy(&b);
}

void test_ibuf_voq_lists(void) {
  enum { V = 2, NQ = 8 };
  asw_ibuf b;
  CHECK(asw_ibuf_init(&b, V, 64, NQ, NULL) == 0);
  /* reference: per-queue FIFOs of slots */
  unsigned ref[V][NQ][64], n[V][NQ];
  memset(n, 0, sizeof n);
  srand(11);
  unsigned live = 0;
  for (int step = 0; step < 20000; step++) {
    unsigned v = (unsigned)rand() % V, q = (unsigned)rand() % NQ;
    if (rand() % 2 && b.vc_held[v] < 64) {
      unsigned s = asw_ibuf_write(&b, v, 1, 1, hdr_len(1), (uint64_t)step);
      asw_ibuf_append(&b, v, q, s);
      ref[v][q][n[v][q]++] = s;
      live++;
    } else if (n[v][q]) {
      unsigned s = asw_ibuf_pop(&b, v, q);
      CHECKF(s == ref[v][q][0], "queue (%u,%u) popped %u, expected %u", v, q, s, ref[v][q][0]);
      memmove(ref[v][q], ref[v][q] + 1, (--n[v][q]) * sizeof(unsigned));
      asw_ibuf_release(&b, v, q, s);
      live--;
    }
    for (unsigned vv = 0; vv < V; vv++)
      for (unsigned qq = 0; qq < NQ; qq++) {
        if (step % 97) break;
        CHECK(asw_ibuf_queue_length(&b, vv, qq) == n[vv][qq]);
        CHECK(((b.nonempty[vv] >> qq) & 1u) == (n[vv][qq] != 0));
        CHECK(asw_ibuf_occ(&b, vv, qq) == n[vv][qq]);
      }
    if (test_failed_checks) break;
  }
  CHECK(b.used == live);
  asw_ibuf_destroy(&b);
}

void test_ibuf_protocol(void) {
  asw_ibuf b;
  char err[160];
  CHECK(asw_ibuf_init(&b, 2, 10, 1, NULL) == 0);
  CHECK(asw_ibuf_check(&b, 2, 1, 1, 1, 8, err, sizeof err) != 0); /* vc >= V */
  CHECK(strstr(err, "vc 2") != NULL);
  CHECK(asw_ibuf_check(&b, 0, 0, 0, 0, 8, err, sizeof err) != 0); /* body first */
  CHECK(asw_ibuf_check(&b, 0, 1, 1, 0, 8, err, sizeof err) != 0); /* len 0 */
  CHECK(asw_ibuf_check(&b, 0, 1, 0, 9, 8, err, sizeof err) != 0); /* len > LMAX */
  CHECK(asw_ibuf_check(&b, 0, 1, 0, 2, 8, err, sizeof err) == 0);
  CHECK(asw_ibuf_check(&b, 0, 1, 1, 2, 8, err, sizeof err) != 0); /* tail on head of 2 */
  CHECK(asw_ibuf_check(&b, 0, 1, 0, 1, 8, err, sizeof err) != 0); /* 1-flit without tail */
  asw_ibuf_write(&b, 0, 1, 0, hdr_len(8), 0);
  CHECK(asw_ibuf_check(&b, 0, 1, 0, 1, 8, err, sizeof err) != 0); /* head inside a packet */
  CHECK(asw_ibuf_check(&b, 0, 0, 1, 0, 8, err, sizeof err) != 0); /* early tail */
  CHECK(asw_ibuf_check(&b, 0, 0, 0, 0, 8, err, sizeof err) == 0);
  CHECK(asw_ibuf_check(&b, 1, 1, 0, 8, 8, err, sizeof err) == 0); /* other VC independent */
  for (int k = 1; k < 7; k++) asw_ibuf_write(&b, 0, 0, 0, 0, 0);
  CHECK(asw_ibuf_check(&b, 0, 0, 0, 0, 8, err, sizeof err) != 0); /* last flit needs tail */
  CHECK(asw_ibuf_check(&b, 0, 0, 1, 0, 8, err, sizeof err) == 0);
  asw_ibuf_write(&b, 0, 0, 1, 0, 0);
  /* 8 of 10 credits held: a 3-flit packet overflows, a 2-flit one fits */
  CHECK(asw_ibuf_check(&b, 0, 1, 0, 3, 8, err, sizeof err) != 0);
  CHECK(strstr(err, "overflow") != NULL);
  CHECK(asw_ibuf_check(&b, 0, 1, 0, 2, 8, err, sizeof err) == 0);
  asw_ibuf_destroy(&b);
}
