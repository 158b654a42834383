/* route_hash.h — flow-hashed and source-digit oblivious choice (contract
 * §17.6, seed 004's Hashed and S-mod-k routing): with ROUTE_HASH.kind != 0
 * an oblivious route (§7.3) takes its 16-bit value from the header instead
 * of the input's LFSR (which then does not advance). Internal to the C model.
 */
#ifndef ASW_ROUTE_HASH_H
#define ASW_ROUTE_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "asw_regmap.h" /* ASW_REG_ROUTE_HASH, ASW_HDR_* */

/* ROUTE_HASH fields */

/* The 16-bit value replacing the LFSR's for header hdr (kind 1 or 2):
 * kind 1 (flow hash): bits [31-SHIFT:16-SHIFT] of ({src, dest} * 0x9E3779B1
 * mod 2^32) (SHIFT 0..8: each stage of a tree its own bits);
 * kind 2 (source digit): ((src >> SHIFT) mod 2^BITS) << (16 - BITS). */
static inline uint16_t asw_route_hash(uint32_t reg, uint64_t hdr) {
  uint32_t src = ASW_HDR_SRC(hdr), dest = ASW_HDR_DEST(hdr);
  if (ASW_RH_KIND(reg) == 1)
    return (uint16_t)(((src << 16 | dest) * 0x9E3779B1u) >> (16 - ASW_RH_SHIFT(reg)));
  unsigned bits = ASW_RH_BITS(reg);
  return (uint16_t)(((src >> ASW_RH_SHIFT(reg)) & ((1u << bits) - 1u)) << (16 - bits));
}

/* A write of ROUTE_HASH: ASW_OK or ASW_EINVAL with a message. */
int asw_route_hash_check(uint32_t d, char *err, size_t errlen);

#endif
