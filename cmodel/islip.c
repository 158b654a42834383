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
  a->vp = calloc((size_t)ports * ports, 1);
  a->req = calloc(ports, sizeof *a->req);
  a->req_vcs = calloc(ports, 1);
  a->grants = calloc(ports, sizeof *a->grants);
  if (!a->gp || !a->ap || !a->vp || !a->req || !a->req_vcs || !a->grants) {
    asw_islip_destroy(a);
    return -1;
  }
  return 0;
}

void asw_islip_destroy(asw_islip *a) {
  free(a->gp);
  free(a->ap);
  free(a->vp);
  free(a->req);
  free(a->req_vcs);
  free(a->grants);
  a->gp = a->ap = a->vp = NULL;
  a->req = a->grants = NULL;
  a->req_vcs = NULL;
}

void asw_islip_reset(asw_islip *a) {
  memset(a->gp, 0, a->ports);
  memset(a->ap, 0, a->ports);
  memset(a->vp, 0, (size_t)a->ports * a->ports);
}

uint64_t asw_islip_allocate(asw_islip *a, uint64_t in_mask,
                            const uint64_t *req_vc, uint8_t *match_out,
                            uint8_t *match_vc) {
  const unsigned V = a->vcs;
  for (uint64_t m = in_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    uint64_t r = 0;
    unsigned vcs = 0;
    for (unsigned v = 0; v < V; v++) {
      r |= req_vc[i * V + v];
      if (req_vc[i * V + v]) vcs |= 1u << v;
    }
    a->req[i] = r;
    a->req_vcs[i] = (uint8_t)vcs;
  }
  return asw_islip_allocate_req(a, in_mask, req_vc, match_out, match_vc);
}

uint64_t asw_islip_allocate_req(asw_islip *a, uint64_t in_mask,
                                const uint64_t *req_vc, uint8_t *match_out,
                                uint8_t *match_vc) {
  const unsigned V = a->vcs, P = a->ports;
  uint64_t out_req = 0;
  for (uint64_t m = in_mask; m; m &= m - 1)
    out_req |= a->req[__builtin_ctzll(m)];
  uint64_t matched_in = 0, matched_out = 0;
  for (unsigned it = 0; it < a->iters; it++) {
    /* grant: each unmatched requested output scans the unmatched inputs
     * from gp[o] for the first that requests it (no transposed matrix:
     * with dense requests the first candidates usually hit) */
    uint64_t granted = 0, cand = in_mask & ~matched_in;
    for (uint64_t m = out_req & ~matched_out; m; m &= m - 1) {
      unsigned o = (unsigned)__builtin_ctzll(m);
      uint64_t hi = cand & (~0ull << a->gp[o]), lo = cand & ~hi;
      for (uint64_t c = hi ? hi : lo; c;) {
        unsigned i = (unsigned)__builtin_ctzll(c);
        if (a->req[i] >> o & 1u) {
          a->grants[i] |= 1ull << o;
          granted |= 1ull << i;
          break;
        }
        c &= c - 1;
        if (!c && hi) {
          c = lo;
          hi = 0;
        }
      }
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
        a->gp[o] = (uint8_t)(i + 1 == P ? 0 : i + 1); /* (i+1) mod P */
        a->ap[i] = (uint8_t)(o + 1 == P ? 0 : o + 1);
      }
    }
  }
  /* VC choice: first VC requesting the matched output o from vp[i][o] (only the
   * VCs in req_vcs[i] have a request; the other req_vc entries are stale). */
  for (uint64_t m = matched_in; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m), o = match_out[i];
    unsigned v = 0;
    if (V > 1) {
      unsigned vmask = 0;
      for (unsigned vm = a->req_vcs[i]; vm; vm &= vm - 1) {
        unsigned k = (unsigned)__builtin_ctz(vm);
        if (req_vc[i * V + k] >> o & 1u) vmask |= 1u << k;
      }
      v = asw_rr_first(vmask, a->vp[i * P + o]);
    }
    match_vc[i] = (uint8_t)v;
    a->vp[i * P + o] = (uint8_t)(v + 1 == V ? 0 : v + 1);
  }
  return matched_in;
}

uint64_t asw_islip_grant(asw_islip *a, uint64_t in_mask, const uint8_t *sel_out,
                         const uint8_t *sel_vc, uint8_t *match_out, uint8_t *match_vc) {
  const unsigned V = a->vcs, P = a->ports;
  uint64_t by_out[64] = {0}, outs = 0, matched = 0;
  for (uint64_t m = in_mask; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    by_out[sel_out[i]] |= 1ull << i;
    outs |= 1ull << sel_out[i];
  }
  for (; outs; outs &= outs - 1) {
    unsigned o = (unsigned)__builtin_ctzll(outs);
    unsigned i = asw_rr_first(by_out[o], a->gp[o]);
    unsigned v = sel_vc[i];
    match_out[i] = (uint8_t)o;
    match_vc[i] = (uint8_t)v;
    matched |= 1ull << i;
    a->gp[o] = (uint8_t)(i + 1 == P ? 0 : i + 1); /* (i+1) mod P */
    a->ap[i] = (uint8_t)(o + 1 == P ? 0 : o + 1);
    a->vp[i * P + o] = (uint8_t)(v + 1 == V ? 0 : v + 1);
  }
  return matched;
}
