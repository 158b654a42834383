/* route_hash.c — ROUTE_HASH register checks (contract §17.6). */
#include "route_hash.h"

#include <stdio.h>

int asw_route_hash_check(uint32_t d, char *err, size_t errlen) {
  const char *why = NULL;
  if (d & ~0xFF3u) why = "bits 31:12 and 3:2 must be 0";
  else if (ASW_RH_KIND(d) == 3) why = "kind 3 is illegal";
  else if (ASW_RH_KIND(d) == 2 && (ASW_RH_BITS(d) < 1 || ASW_RH_BITS(d) > 8))
    why = "kind 2 (source digit) needs BITS 1..8";
  else if (ASW_RH_KIND(d) == 1 && (ASW_RH_BITS(d) || ASW_RH_SHIFT(d) > 8))
    why = "kind 1 (flow hash) needs BITS 0 and SHIFT 0..8";
  else if (ASW_RH_KIND(d) == 0 && (ASW_RH_BITS(d) || ASW_RH_SHIFT(d)))
    why = "SHIFT and BITS must be 0 with kind 0";
  if (!why) return ASW_OK;
  if (err && errlen) snprintf(err, errlen, "ROUTE_HASH 0x%08x: %s", (unsigned)d, why);
  return ASW_EINVAL;
}
