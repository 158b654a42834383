/* congestion_detector.c — see congestion_detector.h. */
#include "congestion_detector.h"

#include <stdlib.h>
#include <string.h>

int asw_cd_init(asw_cd *cd, unsigned P, unsigned V) {
  memset(cd, 0, sizeof *cd);
  cd->P = P;
  cd->V = V;
  cd->words = (P * V + 63) / 64;
  cd->hot = calloc((size_t)P * cd->words, sizeof *cd->hot);
  cd->hot_cnt = calloc(P, sizeof *cd->hot_cnt);
  cd->crt = calloc(P, sizeof *cd->crt);
  cd->root_id = calloc(P, sizeof *cd->root_id);
  if (!cd->hot || !cd->hot_cnt || !cd->crt || !cd->root_id) {
    asw_cd_destroy(cd);
    return -1;
  }
  return 0;
}

void asw_cd_destroy(asw_cd *cd) {
  free(cd->hot);
  free(cd->hot_cnt);
  free(cd->crt);
  free(cd->root_id);
  memset(cd, 0, sizeof *cd);
}

void asw_cd_reset(asw_cd *cd, int keep_id) {
  memset(cd->hot, 0, (size_t)cd->P * cd->words * sizeof *cd->hot);
  memset(cd->hot_cnt, 0, cd->P * sizeof *cd->hot_cnt);
  memset(cd->crt, 0, cd->P * sizeof *cd->crt);
  memset(cd->root_id, 0, cd->P * sizeof *cd->root_id);
  cd->hot_out = cd->root = cd->crt_nz = 0;
  if (!keep_id) cd->next_id = 0;
}

/* Offender of output o (§15.2): first hot (i, v) in i-major order whose
 * queue (v, o) is non-empty. Returns 1 with i, v. */
static int offender(const asw_cd *cd, const asw_ibuf *in, unsigned o,
                    unsigned *oi, unsigned *ov) {
  const uint64_t *w = &cd->hot[o * cd->words];
  for (unsigned k = 0; k < cd->words; k++)
    for (uint64_t m = w[k]; m; m &= m - 1) {
      unsigned bit = k * 64 + (unsigned)__builtin_ctzll(m);
      unsigned i = bit / cd->V, v = bit % cd->V;
      if (in[i].nonempty[v] >> o & 1u) {
        *oi = i;
        *ov = v;
        return 1;
      }
    }
  return 0;
}

int asw_cd_cycle(asw_cd *cd, const asw_ibuf *in, const asw_credits *cr,
                 asw_regs *r, int root_fifo_room, asw_arn_event *ev) {
  /* Roots clear when their output has no hot VOQ (hot at cycle start). */
  uint64_t cleared = cd->root & ~cd->hot_out;
  cd->root &= ~cleared;
  /* No hot VOQ: no offender, the timer restarts. */
  for (uint64_t m = cd->crt_nz & ~cd->hot_out; m; m &= m - 1)
    cd->crt[__builtin_ctzll(m)] = 0;
  cd->crt_nz &= cd->hot_out;
  int declared = 0;
  for (uint64_t m = cd->hot_out; m; m &= m - 1) {
    unsigned o = (unsigned)__builtin_ctzll(m), i, v;
    int cond = 0;
    const asw_slot *h = NULL;
    if (offender(cd, in, o, &i, &v)) {
      h = &in[i].slot[asw_ibuf_queue_head(&in[i], v, o)];
      cond = asw_credits_get(cr, o, h->ovc & 7u) > r->fcth;
    }
    if (!cond) {
      cd->crt[o] = 0;
      cd->crt_nz &= ~(1ull << o);
      continue;
    }
    if (!declared && root_fifo_room && cd->crt[o] + 1 >= r->crt) {
      declared = 1;
      cd->crt[o] = 0;
      cd->crt_nz &= ~(1ull << o);
      unsigned id;
      if (cd->root >> o & 1u) {
        id = cd->root_id[o];
      } else {
        id = cd->next_id;
        cd->next_id = (cd->next_id + 1) & 0x1FFu;
        cd->root |= 1ull << o;
        cd->root_id[o] = (uint16_t)id;
        asw_regs_arn_count(r, o, ASW_ACNT_ROOTS);
      }
      unsigned adapted = ASW_HDR_ADAPTED(h->hdr);
      ev->dest = (uint16_t)ASW_HDR_DEST(h->hdr);
      ev->id = (uint16_t)id;
      ev->port = (uint8_t)o;
      ev->vc = (uint8_t)(adapted ? ASW_HDR_ORIG_VC(h->hdr) : v);
      /* 4-bit stage field: STAGE 0 on a down port wraps to 15, as in the RTL. */
      ev->stage = (uint8_t)(((r->arn_up >> o & 1u) ? r->stage : r->stage - 1u) & 0xFu);
      ev->adapted = (uint8_t)adapted;
    } else {
      cd->crt[o] = cd->crt[o] < r->crt ? cd->crt[o] + 1 : r->crt;
      cd->crt_nz |= 1ull << o;
    }
  }
  return declared;
}
