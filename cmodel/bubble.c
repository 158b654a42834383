/* bubble.c — see bubble.h. */
#include "bubble.h"

#include <stdio.h>
#include <string.h>

#include "asw_regmap.h"

void asw_bubble_init(asw_bubble *b, unsigned ports, unsigned vcs) {
  memset(b, 0, sizeof *b);
  b->ports = ports;
  b->vcs = vcs;
}

void asw_bubble_clear_counters(asw_bubble *b) {
  memset(b->counters, 0, sizeof b->counters);
}

int asw_bubble_write(asw_bubble *b, uint32_t a, uint32_t d, char *err,
                     size_t errlen) {
  if (a >= ASW_REG_BUBBLE(0) && a < ASW_REG_BUBBLE(b->ports)) {
    unsigned o = a - ASW_REG_BUBBLE(0), ring_in = d & 0x3Fu,
             vcs = d >> 8 & 0xFFu;
    if (d & 0xFFFF0080u) {
      if (err && errlen)
        snprintf(err, errlen, "BUBBLE[%u]: reserved bits set (value 0x%08x)", o, d);
      return -1;
    }
    if (ring_in >= b->ports) {
      if (err && errlen)
        snprintf(err, errlen, "BUBBLE[%u]: ring_in %u >= P = %u", o, ring_in, b->ports);
      return -1;
    }
    if (vcs >> b->vcs) {
      if (err && errlen)
        snprintf(err, errlen, "BUBBLE[%u]: vcs 0x%02x has bits for VCs >= V = %u", o, vcs,
                 b->vcs);
      return -1;
    }
    b->ring_in[o] = (uint8_t)ring_in;
    b->ring_valid[o] = (uint8_t)(d >> 6 & 1u);
    b->vcs_mask[o] = (uint8_t)vcs;
    b->on = (b->on & ~(1ull << o)) | (uint64_t)(vcs != 0) << o;
    return 0;
  }
  if (a >= ASW_REG_BUBBLE_COUNTER(0, 0) && a < ASW_REG_BUBBLE_COUNTER(b->ports, 0)) {
    if (err && errlen) snprintf(err, errlen, "register 0x%05x is read-only", a);
    return -1;
  }
  return 1;
}

int asw_bubble_read(const asw_bubble *b, uint32_t a, uint32_t *d) {
  if (a >= ASW_REG_BUBBLE(0) && a < ASW_REG_BUBBLE(b->ports)) {
    unsigned o = a - ASW_REG_BUBBLE(0);
    *d = b->ring_in[o] | (uint32_t)b->ring_valid[o] << 6 | (uint32_t)b->vcs_mask[o] << 8;
    return 1;
  }
  if (a >= ASW_REG_BUBBLE_COUNTER(0, 0) && a < ASW_REG_BUBBLE_COUNTER(b->ports, 0)) {
    *d = b->counters[a - ASW_REG_BUBBLE_COUNTER(0, 0)];
    return 1;
  }
  return 0;
}
