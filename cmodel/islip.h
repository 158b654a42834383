/* islip.h — switch allocator (contract §8): iSLIP with ITERS iterations,
 * round-robin grant pointers gp[o] and accept pointers ap[i] updated in the
 * first iteration only, and the VC choice pointer vp[i][o] of each (input,
 * output) pair (a pointer per input alone can starve one VC's queue for an
 * output with VOQ = 1: formal/README.md).
 * Requests are 64-bit port masks; work grows with the number of requests.
 * Internal to the C model.
 */
#ifndef ASW_ISLIP_H
#define ASW_ISLIP_H

#include <stdint.h>

typedef struct {
  unsigned ports, vcs, iters;
  uint8_t *gp, *ap;      /* [P] pointers, reset 0 */
  uint8_t *vp;           /* [P*P] VC pointer of (input i, output o) at i*P + o, reset 0 */
  uint64_t *req;         /* [P] scratch: outputs requested by input i */
  uint8_t *req_vcs;      /* [P] scratch: VCs of input i with a request */
  uint64_t *grants;      /* [P] scratch: outputs granting input i */
} asw_islip;

int asw_islip_init(asw_islip *a, unsigned ports, unsigned vcs, unsigned iters);
void asw_islip_destroy(asw_islip *a);
void asw_islip_reset(asw_islip *a);

/* First set bit of mask scanning start, start+1, ... (mask has bits < P
 * only, so this is the modulo-P round-robin scan). mask != 0. */
static inline unsigned asw_rr_first(uint64_t mask, unsigned start) {
  uint64_t hi = mask & (~0ull << start);
  return (unsigned)__builtin_ctzll(hi ? hi : mask);
}

/* One allocation. req_vc[i*V + v] is the mask of outputs requested by the
 * head packet(s) of VC v of input i; only inputs in in_mask are read (they
 * must have at least one request). For each matched input i writes
 * match_out[i] and the chosen VC match_vc[i]; returns the matched inputs.
 * Updates the pointers. */
uint64_t asw_islip_allocate(asw_islip *a, uint64_t in_mask,
                            const uint64_t *req_vc, uint8_t *match_out,
                            uint8_t *match_vc);

/* The same allocation for a caller that already filled, for every input i
 * of in_mask, a->req[i] (the OR of its requests) and a->req_vcs[i] (bit v:
 * VC v requests something): req_vc[i*V + v] is then read only for the VCs
 * in a->req_vcs[i], so the caller need not clear the others. */
uint64_t asw_islip_allocate_req(asw_islip *a, uint64_t in_mask,
                                const uint64_t *req_vc, uint8_t *match_out,
                                uint8_t *match_vc);

/* SAPIPE = 1 (contract §8.1): the grant phase alone. Each input i of in_mask requests
 * the one output sel_out[i] from VC sel_vc[i]; each requested output grants the first
 * requesting input from gp[o]. A grant is the match: match_out[i], match_vc[i] written,
 * gp[o], ap[i] and vp[i][o] updated. Returns the matched inputs. */
uint64_t asw_islip_grant(asw_islip *a, uint64_t in_mask, const uint8_t *sel_out,
                         const uint8_t *sel_vc, uint8_t *match_out, uint8_t *match_vc);

#endif
