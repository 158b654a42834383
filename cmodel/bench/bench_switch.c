/* bench_switch.c — single-switch simulation speed (make bench-switch).
 * Saturated sources (100% offered load, uniform destinations, credits
 * respected), sinks returning credits the next cycle; one core. Prints
 * switch-cycles per second for P = 16 (the headline figure), the network
 * switch (36 ports, 4 VCs, BUF 768, LMAX 64), and the cost of an idle step.
 * Times are CPU time of the process (one core). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asw_switch.h"

/* CPU time of this process: the figure is per core-second even when other
 * jobs share the machine (wall time would count their time slices). */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static inline uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Returns switch-cycles per second; *thr gets the delivered flits per
 * output per cycle. */
static double run(unsigned P, unsigned V, unsigned BUF, unsigned LMAX, unsigned len,
                  long cycles, double *thr) {
  asw_config c;
  asw_config_default(&c);
  c.ports = P;
  c.vcs = V;
  c.buf_flits = BUF;
  c.max_packet = LMAX;
  c.table_entries = P;
  char err[200];
  asw_switch *sw = asw_switch_new(&c, err, sizeof err);
  if (!sw) {
    fprintf(stderr, "bench: %s\n", err);
    exit(1);
  }
  for (unsigned d = 0; d < P; d++) asw_reg_write(sw, ASW_REG_FWD(d), asw_fwd_entry(d, 0, 0, 0));
  unsigned cred[64][8], left[64], vc[64], rr[64];
  int back[64]; /* credit owed by each output's sink next cycle (vc or -1) */
  for (unsigned p = 0; p < P; p++) {
    for (unsigned v = 0; v < V; v++) cred[p][v] = BUF;
    left[p] = 0;
    rr[p] = 0;
    back[p] = -1;
  }
  asw_flit inf[64], outf[64];
  uint8_t incr[64], outcr[64];
  uint32_t arn[64];
  asw_inputs in;
  asw_outputs out = {0, outf, 0, outcr, 0, arn, 0, 0, 0, NULL};
  memset(&in, 0, sizeof in);
  in.flit = inf;
  in.credit_vc = incr;
  uint64_t delivered = 0;
  double t0 = now();
  for (long cyc = 0; cyc < cycles; cyc++) {
    in.flit_mask = 0;
    for (unsigned p = 0; p < P; p++) {
      if (!left[p]) {
        unsigned v = rr[p];
        rr[p] = (rr[p] + 1) % V;
        if (cred[p][v] < len) continue;
        cred[p][v] -= len;
        left[p] = len;
        vc[p] = v;
        unsigned dest = (unsigned)(((next() >> 32) * P) >> 32);
        inf[p] = (asw_flit){1, 1, len == 1, (uint8_t)v, asw_hdr_make(dest, p, v, len, 0, 0, 0), cyc};
      } else {
        inf[p] = (asw_flit){1, 0, left[p] == 1, (uint8_t)vc[p], 0, cyc};
      }
      left[p]--;
      in.flit_mask |= 1ull << p;
    }
    in.credit_mask = 0;
    for (unsigned o = 0; o < P; o++)
      if (back[o] >= 0) {
        incr[o] = (uint8_t)back[o];
        in.credit_mask |= 1ull << o;
        back[o] = -1;
      }
    if (asw_switch_step(sw, &in, &out) != ASW_OK) {
      fprintf(stderr, "bench: %s\n", asw_switch_error(sw));
      exit(1);
    }
    for (uint64_t m = out.flit_mask; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      back[o] = outf[o].vc;
      delivered++;
    }
    for (uint64_t m = out.credit_mask; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      cred[i][outcr[i]]++;
    }
  }
  double dt = now() - t0;
  *thr = (double)delivered / ((double)cycles * P);
  asw_switch_free(sw);
  return (double)cycles / dt;
}

/* Many switches in one process, each stepped once per cycle (as a network
 * simulator does): nothing stays in cache between two steps of a switch, so
 * this measures the memory-bound cost. Bernoulli sources at `load`, 16-flit
 * packets, credits back the next cycle; idle switches are skipped. Returns
 * ns per stepped switch-cycle (second half of the run). */
typedef struct {
  asw_switch *sw;
  unsigned cred[36][4], left[36], vc[36];
  int back[36];
} net_node;

static double run_many(int n, double load, int cycles, long *stepped) {
  const unsigned P = 36, V = 4, L = 16;
  asw_config c;
  asw_config_default(&c);
  c.ports = P;
  c.vcs = V;
  c.buf_flits = 768;
  c.max_packet = 64;
  c.table_entries = P;
  net_node *nd = calloc((size_t)n, sizeof *nd);
  if (!nd) exit(1);
  for (int k = 0; k < n; k++) {
    nd[k].sw = asw_switch_new(&c, NULL, 0);
    if (!nd[k].sw) exit(1);
    for (unsigned d = 0; d < P; d++) asw_reg_write(nd[k].sw, ASW_REG_FWD(d), asw_fwd_entry(d, 0, 0, 0));
    for (unsigned p = 0; p < P; p++) {
      for (unsigned v = 0; v < V; v++) nd[k].cred[p][v] = c.buf_flits;
      nd[k].back[p] = -1;
    }
  }
  asw_flit inf[64], outf[64];
  uint8_t incr[64], outcr[64];
  uint32_t arn[64];
  asw_inputs in;
  memset(&in, 0, sizeof in);
  in.flit = inf;
  in.credit_vc = incr;
  asw_outputs out = {0, outf, 0, outcr, 0, arn, 0, 0, 0, NULL};
  uint64_t threshold = (uint64_t)(load / L * 18446744073709551615.0);
  double t0 = now();
  long steps = 0;
  for (int cyc = 0; cyc < cycles; cyc++) {
    if (cyc == cycles / 2) {
      t0 = now();
      steps = 0;
    }
    for (int k = 0; k < n; k++) {
      net_node *q = &nd[k];
      in.flit_mask = 0;
      for (unsigned p = 0; p < P; p++) {
        if (!q->left[p]) {
          if (next() >= threshold) continue;
          unsigned v = (unsigned)(next() % V);
          if (q->cred[p][v] < L) continue;
          q->cred[p][v] -= L;
          q->left[p] = L;
          q->vc[p] = v;
          inf[p] = (asw_flit){1, 1, 0, (uint8_t)v, asw_hdr_make((unsigned)(next() % P), p, v, L, 0, 0, 0), 0};
        } else {
          inf[p] = (asw_flit){1, 0, q->left[p] == 1, (uint8_t)q->vc[p], 0, 0};
        }
        q->left[p]--;
        in.flit_mask |= 1ull << p;
      }
      in.credit_mask = 0;
      for (unsigned o = 0; o < P; o++)
        if (q->back[o] >= 0) {
          incr[o] = (uint8_t)q->back[o];
          in.credit_mask |= 1ull << o;
          q->back[o] = -1;
        }
      if (!in.flit_mask && !in.credit_mask && asw_switch_idle(q->sw)) continue;
      if (asw_switch_step(q->sw, &in, &out) != ASW_OK) exit(1);
      steps++;
      for (uint64_t m = out.flit_mask; m; m &= m - 1) {
        unsigned o = (unsigned)__builtin_ctzll(m);
        q->back[o] = outf[o].vc;
      }
      for (uint64_t m = out.credit_mask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        q->cred[i][outcr[i]]++;
      }
    }
  }
  double dt = now() - t0;
  for (int k = 0; k < n; k++) asw_switch_free(nd[k].sw);
  free(nd);
  *stepped = steps;
  return steps ? dt / (double)steps * 1e9 : 0.0;
}

int main(int argc, char **argv) {
  double thr;
  if (argc == 7) { /* one custom case: P V BUF LMAX len cycles */
    unsigned a[6];
    for (int k = 0; k < 6; k++) a[k] = (unsigned)strtoul(argv[k + 1], NULL, 0);
    double r = run(a[0], a[1], a[2], a[3], a[4], (long)a[5], &thr);
    printf("P=%u V=%u BUF=%u LMAX=%u len=%u: %.0f switch-cycles/s (%.0f ns/cycle, throughput %.3f)\n",
           a[0], a[1], a[2], a[3], a[4], r, 1e9 / r, thr);
    return 0;
  }
  if (argc != 1) {
    fprintf(stderr, "usage: %s [P V BUF LMAX packet_flits cycles]\n", argv[0]);
    return 2;
  }
  printf("single-switch simulation speed (one core, CPU time; 100%% offered load, uniform, VOQ, 1 iSLIP iteration)\n");
  double r16 = run(16, 1, 64, 16, 1, 2000000, &thr);
  printf("  P=16 V=1 BUF=64 1-flit packets:          %10.0f switch-cycles/s (%.0f ns/cycle, throughput %.3f)\n", r16, 1e9 / r16, thr);
  double r16b = run(16, 2, 64, 16, 8, 2000000, &thr);
  printf("  P=16 V=2 BUF=64 8-flit packets:          %10.0f switch-cycles/s (%.0f ns/cycle, throughput %.3f)\n", r16b, 1e9 / r16b, thr);
  double r36 = run(36, 4, 768, 64, 16, 500000, &thr);
  printf("  P=36 V=4 BUF=768 LMAX=64 16-flit packets: %9.0f switch-cycles/s (%.0f ns/cycle, throughput %.3f)\n", r36, 1e9 / r36, thr);
  asw_config c;
  asw_config_default(&c);
  c.ports = 36;
  c.vcs = 4;
  c.buf_flits = 768;
  c.max_packet = 64;
  asw_switch *sw = asw_switch_new(&c, NULL, 0);
  long n = 50000000;
  double t0 = now();
  for (long k = 0; k < n; k++) asw_switch_step(sw, NULL, NULL);
  double idle_ns = (now() - t0) / (double)n * 1e9;
  asw_switch_free(sw);
  printf("  idle step, P=36 V=4:                     %10.1f ns\n", idle_ns);
  for (int k = 0; k < 2; k++) {
    double load = k ? 0.5 : 0.1;
    long stepped;
    double ns = run_many(1620, load, 400, &stepped);
    printf("  1620 switches P=36 V=4 BUF=768 at load %.1f, each stepped per cycle: %.0f ns per active switch-cycle\n",
           load, ns);
  }
  printf("bench-switch: P=16 at 100%% load: %.0f switch-cycles/s\n", r16);
  return 0;
}
