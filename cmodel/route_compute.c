/* route_compute.c — see route_compute.h. */
#include "route_compute.h"

#include "lfsr.h"
#include "route_hash.h"

unsigned asw_route_ovc(const asw_regs *r, uint64_t hdr, uint32_t entry,
                       unsigned o) {
  unsigned v = r->cfg.vcs;
  if (r->afi && ASW_HDR_ADAPTED(hdr)) return v - 1;
  if (r->vc_mode) return FWD_LOOKAHEAD(entry) % (v - r->afi);
  return r->sl2vc[o * 16 + ASW_HDR_SL(hdr)];
}

uint64_t asw_route_candidates(const asw_regs *r, uint64_t hdr, uint32_t entry) {
  if (r->route_mode == ASW_ROUTE_DET || !FWD_VALID(entry) ||
      !FWD_MULTIPATH(entry) || (r->afi && ASW_HDR_ADAPTED(hdr)) ||
      !(r->stage_mask >> (r->stage - 1) & 1u))
    return 0;
  return r->cset[FWD_CSET(entry)];  /* K/Δ: software's choice of sets (§7.2) */
}

/* Scan order of §7.2: increasing port number from `start`, wrapping. */
static inline unsigned next_in_scan(uint64_t *hi, uint64_t *lo) {
  uint64_t *m = *hi ? hi : lo;
  unsigned o = (unsigned)__builtin_ctzll(*m);
  *m &= *m - 1;
  return o;
}

asw_route asw_route_compute_vca(const asw_regs *r, const asw_credits *cr, uint32_t entry,
                                unsigned v) {
  asw_route res = {0};
  const unsigned det = FWD_DET(entry), V = r->cfg.vcs;
  uint64_t ports = (uint64_t)(entry >> 18 & 0xFFFu) & ~r->link_down; /* §18.5 */
  if (!ports) ports = 1ull << det;
  const unsigned vlo = FWD_LOOKAHEAD(entry) & 7u, vn = (FWD_LOOKAHEAD(entry) >> 3) + 1;
  unsigned vmask = (((1u << vn) - 1u) << vlo) & ((1u << V) - 1u);
  if (!vmask) vmask = 1u;
  uint64_t hi = ports & (~0ull << det), lo = ports & ~(~0ull << det);
  unsigned oport = det, ovc = 0;
  int best = -1;
  while (hi | lo) {
    unsigned o = next_in_scan(&hi, &lo);
    for (unsigned m = vmask; m; m &= m - 1) {
      unsigned w = (unsigned)__builtin_ctz(m);
      int c = (int)asw_credits_get(cr, o, w);
      if (c > best) {
        best = c;
        oport = o;
        ovc = w;
      }
    }
  }
  res.oport = (uint8_t)oport;
  res.ovc = (uint8_t)ovc;
  res.adaptive_choice = oport != det;
  res.fb = (uint8_t)r->fb;
  res.fport = (uint8_t)det;
  res.fvc = (uint8_t)(r->fb_same ? v : r->esc_vc);
  return res;
}

asw_route asw_route_compute(const asw_regs *r, const asw_credits *cr,
                            uint64_t hdr, uint32_t entry, uint16_t *lfsr) {
  asw_route res = {0};
  if (!FWD_VALID(entry)) {
    res.oport = (uint8_t)r->default_port;
    res.ovc = (uint8_t)asw_route_ovc(r, hdr, 0, r->default_port);
    res.route_error = 1;
    return res;
  }
  unsigned det = FWD_DET(entry), oport = det;
  /* §18.5: outputs whose link is down are no candidates */
  uint64_t cand = asw_route_candidates(r, hdr, entry) & ~r->link_down;
  if (cand && r->route_mode == ASW_ROUTE_OBLIVIOUS) {
    unsigned n = (unsigned)__builtin_popcountll(cand);
    uint32_t v;
    if (r->route_hash) { /* §17.6: from the header; the LFSR does not advance */
      v = asw_route_hash(r->route_hash, hdr);
    } else {
      *lfsr = asw_lfsr_next(*lfsr);
      v = *lfsr;
    }
    unsigned k = (unsigned)((v * n) >> 16);
    while (k--) cand &= cand - 1;
    oport = (unsigned)__builtin_ctzll(cand);
  } else if (cand && r->route_mode == ASW_ROUTE_ADAPTIVE) {
    unsigned det_vc = asw_route_ovc(r, hdr, entry, det);
    unsigned max = 0, search = 1;
    if (r->trigger == ASW_TRIG_TH) {
      search = asw_credits_get(cr, det, det_vc) < r->ltth;
      max = r->ltth;
    } else if (r->trigger == ASW_TRIG_2TH) {
      search = asw_credits_cong(cr, det, det_vc);
      max = r->ltth;
    }
    /* §18.5: a down det_port searches and never wins: the first candidate
     * in scan order is taken whatever its credits */
    int take_first = (int)(r->link_down >> det & 1u);
    if (take_first) search = 1;
    if (search) {
      uint64_t hi = cand & (~0ull << det), lo = cand & ~(~0ull << det);
      while (hi | lo) {
        unsigned o = next_in_scan(&hi, &lo);
        unsigned c = asw_credits_get(cr, o, asw_route_ovc(r, hdr, entry, o));
        if (c > max || take_first) {
          take_first = 0;
          max = c;
          oport = o;
        }
      }
    }
    res.adaptive_choice = oport != det;
  }
  res.oport = (uint8_t)oport;
  res.ovc = (uint8_t)asw_route_ovc(r, hdr, entry, oport);
  return res;
}

asw_route asw_route_compute_sar(const asw_regs *r, uint64_t hdr, uint32_t entry,
                                const uint8_t *lvl, uint64_t lvl_mask) {
  asw_route res = {0};
  if (!FWD_VALID(entry)) return asw_route_compute(r, NULL, hdr, entry, NULL);
  const unsigned det = FWD_DET(entry);
  unsigned oport = det;
  uint64_t cand = 0;
  if (FWD_MULTIPATH(entry) && !(r->afi && ASW_HDR_ADAPTED(hdr)) &&
      (r->stage_mask >> (r->stage - 1) & 1u))
    cand = r->cset[FWD_CSET(entry)] & ~r->link_down; /* §18.5 */
  if (cand) {
#define SAR_M(o) (64u - ((lvl_mask >> (o) & 1u) ? lvl[o] : 0u))
    unsigned max = (r->link_down >> det & 1u) ? 0u : SAR_M(det);
    uint64_t hi = cand & (~0ull << det), lo = cand & ~(~0ull << det);
    while (hi | lo) {
      unsigned o = next_in_scan(&hi, &lo);
      if (SAR_M(o) > max) {
        max = SAR_M(o);
        oport = o;
      }
    }
#undef SAR_M
    res.adaptive_choice = oport != det;
  }
  res.oport = (uint8_t)oport;
  res.ovc = (uint8_t)asw_route_ovc(r, hdr, entry, oport);
  return res;
}
