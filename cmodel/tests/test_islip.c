/* iSLIP allocator: pointer rules, iterations, VC choice, and equivalence
 * with a straightforward array-based reference over random requests. */
#include <stdlib.h>
#include <string.h>

#include "islip.h"
#include "test.h"

void test_islip_single_and_pointers(void) {
  asw_islip a;
  CHECK(asw_islip_init(&a, 4, 1, 1) == 0);
  uint64_t req[4] = {0};
  uint8_t mo[4], mv[4];
  req[2] = 1u << 3;
  CHECK(asw_islip_allocate(&a, 1u << 2, req, mo, mv) == 1u << 2);
  CHECK(mo[2] == 3 && mv[2] == 0);
  CHECK(a.gp[3] == 3 && a.ap[2] == 0); /* (2+1) mod 4, (3+1) mod 4 */
  /* two inputs for output 1: grant from gp[1] = 0 goes to input 0, then
   * gp[1] = 1 so input 1 wins next time, then input 0 again */
  memset(req, 0, sizeof req);
  req[0] = req[1] = 1u << 1;
  CHECK(asw_islip_allocate(&a, 3, req, mo, mv) == 1);
  CHECK(a.gp[1] == 1);
  CHECK(asw_islip_allocate(&a, 3, req, mo, mv) == 2);
  CHECK(a.gp[1] == 2);
  CHECK(asw_islip_allocate(&a, 3, req, mo, mv) == 1); /* scan 2,3,0: input 0 */
  asw_islip_reset(&a);
  CHECK(a.gp[1] == 0 && a.ap[0] == 0);
  asw_islip_destroy(&a);
}

void test_islip_iterations(void) {
  /* inputs 0 and 1 both request outputs 0 and 1; pointers at 0: the first
   * iteration matches only (0,0); the second adds (1,1) without moving the
   * pointers of that match. */
  for (unsigned iters = 1; iters <= 2; iters++) {
    asw_islip a;
    CHECK(asw_islip_init(&a, 4, 1, iters) == 0);
    uint64_t req[4] = {3, 3, 0, 0};
    uint8_t mo[4], mv[4];
    uint64_t m = asw_islip_allocate(&a, 3, req, mo, mv);
    if (iters == 1) {
      CHECK(m == 1 && mo[0] == 0);
    } else {
      CHECK(m == 3 && mo[0] == 0 && mo[1] == 1);
    }
    CHECK(a.gp[0] == 1 && a.ap[0] == 1);
    CHECK(a.gp[1] == 0 && a.ap[1] == 0); /* second-iteration match: no update */
    asw_islip_destroy(&a);
  }
}

void test_islip_desynchronises(void) {
  /* all inputs request all outputs: after at most P cycles of 1-iteration
   * iSLIP the pointers are desynchronised and every cycle is a full match */
  const unsigned P = 16;
  asw_islip a;
  CHECK(asw_islip_init(&a, P, 1, 1) == 0);
  uint64_t req[16];
  uint8_t mo[16], mv[16];
  for (unsigned i = 0; i < P; i++) req[i] = 0xFFFF;
  unsigned full = 0;
  for (unsigned c = 0; c < 3 * P; c++) {
    uint64_t m = asw_islip_allocate(&a, 0xFFFF, req, mo, mv);
    if (c >= P) CHECKF(m == 0xFFFF, "cycle %u: matched 0x%llx", c, (unsigned long long)m);
    full += m == 0xFFFF;
  }
  CHECK(full >= 2 * P);
  asw_islip_destroy(&a);
}

void test_islip_vc_choice(void) {
  asw_islip a;
  CHECK(asw_islip_init(&a, 2, 3, 1) == 0);
  uint64_t req[6] = {1, 1, 1, 0, 0, 0}; /* input 0: VCs 0,1,2 request output 0 */
  uint8_t mo[2], mv[2];
  unsigned expect[] = {0, 1, 2, 0, 1};
  for (unsigned k = 0; k < 5; k++) {
    CHECK(asw_islip_allocate(&a, 1, req, mo, mv) == 1);
    CHECK(mv[0] == expect[k]);
  }
  req[1] = 0; /* vp = 2: VC 2, then VC 0 (skipping VC 1) */
  CHECK(asw_islip_allocate(&a, 1, req, mo, mv) == 1 && mv[0] == 2);
  CHECK(asw_islip_allocate(&a, 1, req, mo, mv) == 1 && mv[0] == 0);
  CHECK(a.vp[0] == 1);
  asw_islip_destroy(&a);
}

/* §8 liveness with VOQs: input 0 of P=3 V=2 alone requests VC0->out2,
 * VC1->out1 and VC1->out2 every cycle (formal/islip_vc_voq.sby). With one VC
 * pointer per input, out1 via VC1 and out2 via VC0 alternated for ever and
 * VC1->out2 was never served; with a pointer per (input, output) every
 * (VC, output) queue is served within a few matches. */
void test_islip_vc_voq_served(void) {
  asw_islip a;
  CHECK(asw_islip_init(&a, 3, 2, 1) == 0);
  uint64_t req[6] = {1u << 2, (1u << 1) | (1u << 2), 0, 0, 0, 0};
  uint8_t mo[3], mv[3];
  unsigned served[2][3] = {{0}};
  for (unsigned k = 0; k < 12; k++) {
    CHECK(asw_islip_allocate(&a, 1, req, mo, mv) == 1);
    served[mv[0]][mo[0]]++;
  }
  CHECKF(served[0][2] >= 2 && served[1][1] >= 2 && served[1][2] >= 2,
         "VC0->2 %u, VC1->1 %u, VC1->2 %u", served[0][2], served[1][1], served[1][2]);
  asw_islip_destroy(&a);
}

/* Reference iSLIP with arrays and explicit loops (contract §8 text). */
typedef struct { unsigned P, V, iters; unsigned gp[64], ap[64], vp[64 * 64]; } ref_islip;
static void ref_allocate(ref_islip *r, const uint64_t *req_vc, int *match, int *mvc) {
  unsigned P = r->P, V = r->V;
  int req[64][64];
  for (unsigned i = 0; i < P; i++)
    for (unsigned o = 0; o < P; o++) {
      req[i][o] = 0;
      for (unsigned v = 0; v < V; v++) req[i][o] |= (int)(req_vc[i * V + v] >> o & 1u);
    }
  int in_m[64], out_m[64];
  for (unsigned k = 0; k < P; k++) in_m[k] = out_m[k] = -1;
  for (unsigned it = 0; it < r->iters; it++) {
    int grant[64]; /* output -> granted input */
    for (unsigned o = 0; o < P; o++) {
      grant[o] = -1;
      if (out_m[o] >= 0) continue;
      for (unsigned k = 0; k < P; k++) {
        unsigned i = (r->gp[o] + k) % P;
        if (in_m[i] < 0 && req[i][o]) { grant[o] = (int)i; break; }
      }
    }
    for (unsigned i = 0; i < P; i++) {
      if (in_m[i] >= 0) continue;
      for (unsigned k = 0; k < P; k++) {
        unsigned o = (r->ap[i] + k) % P;
        if (grant[o] == (int)i) {
          in_m[i] = (int)o;
          out_m[o] = (int)i;
          if (it == 0) { r->gp[o] = (i + 1) % P; r->ap[i] = (o + 1) % P; }
          break;
        }
      }
    }
  }
  for (unsigned i = 0; i < P; i++) {
    match[i] = in_m[i];
    mvc[i] = -1;
    if (in_m[i] < 0) continue;
    for (unsigned k = 0; k < V; k++) {
      unsigned *vp = &r->vp[i * P + (unsigned)in_m[i]]; /* pointer of (i, o) */
      unsigned v = (*vp + k) % V;
      if (req_vc[i * V + v] >> in_m[i] & 1u) { mvc[i] = (int)v; *vp = (v + 1) % V; break; }
    }
  }
}

void test_islip_vs_reference(void) {
  static const unsigned Ps[] = {2, 5, 16, 64};
  srand(3);
  for (unsigned pi = 0; pi < 4; pi++)
    for (unsigned iters = 1; iters <= 4; iters++)
      for (unsigned V = 1; V <= 3; V++) {
        unsigned P = Ps[pi];
        asw_islip a;
        CHECK(asw_islip_init(&a, P, V, iters) == 0);
        ref_islip r;
        memset(&r, 0, sizeof r);
        r.P = P; r.V = V; r.iters = iters;
        uint64_t req[64 * 3];
        uint8_t mo[64], mv[64];
        for (int cyc = 0; cyc < 300; cyc++) {
          uint64_t in_mask = 0;
          int density = rand() % 4;
          for (unsigned i = 0; i < P; i++) {
            uint64_t any = 0;
            for (unsigned v = 0; v < V; v++) {
              uint64_t m = 0;
              for (unsigned o = 0; o < P; o++)
                if (rand() % 8 < density) m |= 1ull << o;
              req[i * V + v] = m;
              any |= m;
            }
            if (any) in_mask |= 1ull << i;
          }
          int match[64], mvc[64];
          ref_allocate(&r, req, match, mvc);
          uint64_t got = asw_islip_allocate(&a, in_mask, req, mo, mv);
          for (unsigned i = 0; i < P; i++) {
            int m = (got >> i & 1u) ? mo[i] : -1;
            CHECKF(m == match[i], "P=%u V=%u iters=%u cycle %d input %u: %d vs ref %d", P, V, iters, cyc, i, m, match[i]);
            if (m >= 0) CHECK(mv[i] == mvc[i]);
          }
          if (test_failed_checks) break;
        }
        asw_islip_destroy(&a);
      }
}
