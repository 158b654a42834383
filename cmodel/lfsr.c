/* lfsr.c — see lfsr.h. */
#include "lfsr.h"

uint16_t asw_lfsr_next(uint16_t s) {
  unsigned fb = ((s >> 15) ^ (s >> 13) ^ (s >> 12) ^ (s >> 10)) & 1u;
  return (uint16_t)((s << 1) | fb);
}

uint16_t asw_lfsr_init(uint16_t seed, unsigned input) {
  uint16_t s = (uint16_t)(seed ^ (uint16_t)((input * 0x9E37u) & 0xFFFFu));
  return s ? s : (uint16_t)0xACE1u;
}
