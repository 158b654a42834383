/* fuzz_trace.c — libFuzzer target: the packet-trace readers and the replay
 * (cmodel/net/trace.c).
 *
 * Input: a trace file's bytes, text or netrace (trace_parse tells them apart by
 * the netrace magic number).
 * Properties checked (a failure aborts, so libFuzzer keeps the input):
 *   - no crash, leak or undefined behaviour (ASan + UBSan);
 *   - a rejected trace gets a message that names the place: "fuzz:LINE: ..." for
 *     text, "fuzz: netrace ..." for netrace;
 *   - an accepted trace written as text reads back to the same text (nothing
 *     accepted is lost, truncated or reordered);
 *   - written as netrace (when it fits: <= 255 nodes, <= 255 dependent packets,
 *     no compute delay) it reads back with one message per netrace packet;
 *   - its replay on an ideal network (a node sends one flit a cycle and receives
 *     one flit a cycle, nothing else delays a flit) delivers every message once and
 *     completes no earlier than the lower bound for that network (path 0).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define FAIL(...)                                  \
  do {                                             \
    fprintf(stderr, "fuzz_trace: " __VA_ARGS__);   \
    fputc('\n', stderr);                           \
    abort();                                       \
  } while (0)

static char *to_text(const trace *t, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  char err[256];
  if (!f) abort();
  if (trace_write_file(t, f, TRACE_TEXT, err, sizeof err)) FAIL("text write failed: %s", err);
  fclose(f);
  return buf;
}

/* path latency of the ideal network: 0 (a message of F flits takes F cycles) */
static uint64_t no_path(void *ctx, unsigned s, unsigned d) {
  (void)ctx; (void)s; (void)d;
  return 0;
}

static void replay(const trace *t) {
  char err[256];
  unsigned nodes = trace_nodes(t);
  trace_replay *r = trace_replay_new(t, nodes, 4, 64, "fuzz", err, sizeof err);
  if (!r) FAIL("replay of an accepted trace refused: %s", err);
  uint64_t lb = trace_replay_lower_bound(r, no_path, NULL);
  trace_stats s0;
  trace_replay_stats(r, &s0);
  if (s0.flits * nodes > 4000000) { /* big messages on many nodes: too slow to step through */
    trace_replay_free(r);
    return;
  }
  uint32_t pkt = 0, n = trace_count(t);
  uint32_t *pending = malloc(sizeof *pending * 4096), *pflits = malloc(sizeof *pflits * 4096);
  if (!pending || !pflits) abort();
  uint64_t cycle = 0;
  /* each node queues one flit a cycle: a packet of F flits occupies F cycles */
  uint64_t *busy = calloc(nodes, sizeof *busy), *rx = calloc(nodes, sizeof *rx);
  if (!busy || !rx) abort();
  while (!trace_replay_done(r)) {
    if (cycle > (1ull << 41)) FAIL("replay does not complete");
    uint32_t np = 0;
    for (unsigned v = 0; v < nodes && np < 4096; v++) {
      unsigned dst, flits;
      if (busy[v] > cycle) continue;
      if (trace_replay_peek(r, v, cycle, &dst, &flits)) {
        if (dst >= nodes || dst == v || flits < 2 || flits > 4) FAIL("bad packet %u -> %u, %u flits", v, dst, flits);
        if (trace_replay_take(r, v, pkt)) FAIL("take failed");
        busy[v] = cycle + flits;
        uint64_t fin = (rx[dst] > cycle ? rx[dst] : cycle) + flits - 1; /* last flit received */
        rx[dst] = fin + 1;
        pflits[np] = (uint32_t)(fin - cycle + 1);
        pending[np++] = pkt++;
      }
    }
    /* the last flit arrives in the cycle it is sent */
    uint64_t next = cycle + 1;
    for (uint32_t k = 0; k < np; k++) {
      if (trace_replay_delivered(r, pending[k], cycle + pflits[k] - 1)) FAIL("delivery refused");
      if (!trace_replay_delivered(r, pending[k], cycle + pflits[k] - 1)) FAIL("second delivery accepted");
    }
    if (!np) { /* jump to the next time something can happen */
      uint64_t best = UINT64_MAX;
      trace_msg m;
      for (uint32_t i = 0; trace_get(t, i, &m); i++)
        if (m.time > cycle && m.time < best) best = m.time;
      for (unsigned v = 0; v < nodes; v++) {
        if (busy[v] > cycle && busy[v] < best) best = busy[v];
        if (rx[v] > cycle && rx[v] < best) best = rx[v]; /* a delivery's dependents */
      }
      uint64_t rd = trace_replay_next_ready(r); /* after a compute delay (+DELAY) */
      if (rd > cycle && rd < best) best = rd;
      if (best != UINT64_MAX && best > next) next = best;
    }
    cycle = next;
  }
  trace_stats s;
  trace_replay_stats(r, &s);
  if (s.messages != n || s.messages_delivered != n || s.packets_delivered != pkt || s.packets != pkt)
    FAIL("replay delivered %llu of %u messages, %llu of %u packets", (unsigned long long)s.messages_delivered,
         n, (unsigned long long)s.packets_delivered, pkt);
  if (s.completion < lb) FAIL("completion %llu below the lower bound %llu", (unsigned long long)s.completion,
                              (unsigned long long)lb);
  if (trace_replay_delivered(r, pkt + 5, cycle) == 0) FAIL("unknown packet accepted");
  free(busy);
  free(rx);
  free(pending);
  free(pflits);
  trace_replay_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[512] = "";
  trace *t = trace_parse(data, size, "fuzz", err, sizeof err);
  if (!t) {
    if (strncmp(err, "fuzz:", 5) && strncmp(err, "fuzz: ", 6)) FAIL("message does not name the file: %s", err);
    return 0;
  }
  size_t l1, l2;
  char *t1 = to_text(t, &l1);
  trace *u = trace_parse(t1, l1, "echo", err, sizeof err);
  if (!u) FAIL("the text of an accepted trace does not read back: %s\n%s", err, t1);
  char *t2 = to_text(u, &l2);
  if (l1 != l2 || memcmp(t1, t2, l1)) FAIL("text round trip differs:\n%s\n---\n%s", t1, t2);
  trace_free(u);
  free(t1);
  free(t2);
  /* netrace, when it fits (and is small enough to write quickly) */
  uint64_t want = 0, links = 0; /* netrace packets, and dependency links between them */
  trace_msg m, dm;
  for (uint32_t i = 0; trace_get(t, i, &m); i++) {
    uint64_t np = m.bytes <= 8 ? 1 : (m.bytes + 71) / 72;
    want += np;
    for (uint32_t k = 0; k < m.ndeps && trace_get(t, m.deps[k], &dm); k++)
      links += np * (dm.bytes <= 8 ? 1 : (dm.bytes + 71) / 72);
  }
  if (want > 100000 || links > 200000) {
    trace_free(t);
    return 0;
  }
  char *nb = NULL;
  size_t nl = 0;
  FILE *f = open_memstream(&nb, &nl);
  if (!f) abort();
  int wrc = trace_write_file(t, f, TRACE_NETRACE, err, sizeof err);
  fclose(f);
  if (!wrc) {
    trace *v = trace_parse(nb, nl, "netrace", err, sizeof err);
    if (!v) FAIL("netrace written from an accepted trace does not read back: %s", err);
    if (trace_count(v) != want) FAIL("netrace holds %u packets, want %llu", trace_count(v), (unsigned long long)want);
    trace_free(v);
  } else if (trace_nodes(t) <= 255 && !strstr(err, "dependent packets") &&
             !strstr(err, "no compute delay")) { /* netrace has no +DELAY */
    FAIL("netrace write refused a trace that fits: %s", err);
  }
  free(nb);
  if (trace_count(t) <= 2000) replay(t);
  trace_free(t);
  return 0;
}
