/* islip.c — see islip.h. */
#include "islip.h"

#include <stdlib.h>
#include <string.h>

int asw_islip_init(asw_islip *a, unsigned ports, unsigned vcs, unsigned iters) {
  memset(a, 0, sizeof *a);
  a->ports = ports;
  a->vcs = vcs;
  a->iters = iters;
  a->gp = calloc(ports, 1);
  a->ap = calloc(ports, 1);
  a->vp = calloc(ports, 1);
  a->req_t = calloc(ports, sizeof *a->req_t);
  a->grants = calloc(ports, sizeof *a->grants);
  if (!a->gp || !a->ap || !a->vp || !a->req_t || !a->grants) {
    asw_islip_destroy(a);
    return -1;
  }
  return 0;
}

void asw_islip_destroy(asw_islip *a) {
  free(a->gp);
  free(a->ap);
  free(a->vp);
  free(a->req_t);
  free(a->grants);
  a->gp = a->ap = a->vp = NULL;
  a->req_t = a->grants = NULL;
}

void asw_islip_reset(asw_islip *a) {
  memset(a->gp, 0, a->ports);
  memset(a->ap, 0, a->ports);
  memset(a->vp, 0, a->ports);
}

uint64_t asw_islip_allocate(asw_islip *a, uint64_t in_mask,
                            const uint64_t *req_vc, uint8_t *match_out,
                            uint8_t *match_vc) {
  const unsigned V = a->vcs, P = a->ports;
  uint64_t out_req = 0;
  for (uint64_t m = in_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    uint64_t r = 0;
    for (unsigned v = 0; v < V; v++) r |= req_vc[i * V + v];
    for (uint64_t o = r; o; o &= o - 1) a->req_t[__builtin_ctzll(o)] |= 1ull << i;
    out_req |= r;
  }
  uint64_t matched_in = 0, matched_out = 0;
  for (unsigned it = 0; it < a->iters; it++) {
    uint64_t granted = 0; /* inputs with at least one grant */
    for (uint64_t m = out_req & ~matched_out; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      uint64_t c = a->req_t[o] & ~matched_in;
      if (!c) continue;
      unsigned i = asw_rr_first(c, a->gp[o]);
      a->grants[i] |= 1ull << o;
      granted |= 1ull << i;
    }
    if (!granted) break;
    for (uint64_t m = granted; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      unsigned o = asw_rr_first(a->grants[i], a->ap[i]);
      a->grants[i] = 0;
      match_out[i] = (uint8_t)o;
      matched_in |= 1ull << i;
      matched_out |= 1ull << o;
      if (it == 0) {
        a->gp[o] = (uint8_t)((i + 1) % P);
        a->ap[i] = (uint8_t)((o + 1) % P);
      }
    }
  }
  for (uint64_t m = out_req; m; m &= m - 1) a->req_t[__builtin_ctzll(m)] = 0;
  /* VC choice: first VC requesting the matched output from vp[i]. */
  for (uint64_t m = matched_in; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m), o = match_out[i];
    unsigned vmask = 0;
    for (unsigned v = 0; v < V; v++)
      if (req_vc[i * V + v] >> o & 1u) vmask |= 1u << v;
    unsigned v = asw_rr_first(vmask, a->vp[i]);
    match_vc[i] = (uint8_t)v;
    a->vp[i] = (uint8_t)((v + 1) % V);
  }
  return matched_in;
}
