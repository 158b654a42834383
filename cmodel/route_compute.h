/* route_compute.h — route computation (contract §7): output port by mode
 * (deterministic, oblivious, adaptive with NoTH/TH/2TH triggers), candidate
 * list with the stage restriction, next-hop VC map (SL table, OBQA,
 * adapted-flow channel), invalid entries. Pure: reads registers and credits,
 * changes only the LFSR it is given. Internal to the C model.
 */
#ifndef ASW_ROUTE_COMPUTE_H
#define ASW_ROUTE_COMPUTE_H

#include <stdint.h>

#include "credits.h"
#include "regs.h"

typedef struct {
  uint8_t oport, ovc;
  uint8_t adaptive_choice; /* adaptive mode chose a port other than det_port */
  uint8_t route_error;     /* invalid entry: DEFAULT_PORT used */
  uint8_t fb, fport, fvc;  /* §16.3 fallback route tried in SA (mode 3; fb 0 otherwise) */
} asw_route;

/* Next-hop VC of a packet with header hdr and table entry `entry` leaving
 * on port o (§7.4). */
unsigned asw_route_ovc(const asw_regs *r, uint64_t hdr, uint32_t entry,
                       unsigned o);

/* Candidate ports of the packet (§7.2), or 0 if it routes deterministically
 * (mode det, invalid or single-path entry, adapted under AFI, stage
 * disabled). */
uint64_t asw_route_candidates(const asw_regs *r, uint64_t hdr, uint32_t entry);

/* RC of one packet. entry is FWD[dest] as read at input write (0 if dest >=
 * TABLE). *lfsr is the input's LFSR (advanced for an oblivious choice among
 * n >= 1 candidates). Credits and 2TH flags are those of the cycle start. */
asw_route asw_route_compute(const asw_regs *r, const asw_credits *cr,
                            uint64_t hdr, uint32_t entry, uint16_t *lfsr);

/* RC of one packet in mode 3 (§16.3) from input VC v: the primary (port, VC)
 * with the most credits among FWD.amask x [vlo, vlo + vn), scanned from
 * det_port, and the fallback (det_port, fb_same ? v : esc_vc). */
asw_route asw_route_compute_vca(const asw_regs *r, const asw_credits *cr, uint32_t entry,
                                unsigned v);

/* RC of one packet in mode 0 with Switch AR steering (§17.8): lvl[o] is the
 * level of {dest, o} (lvl_mask: ports with a level); the candidate with the
 * lowest level, det_port first, then scan order. */
asw_route asw_route_compute_sar(const asw_regs *r, uint64_t hdr, uint32_t entry,
                                const uint8_t *lvl, uint64_t lvl_mask);

#endif
