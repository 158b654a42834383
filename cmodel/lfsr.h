/* lfsr.h — per-input 16-bit Fibonacci LFSR of the oblivious router (§7.7).
 * Polynomial x^16+x^14+x^13+x^11+1. */
#ifndef ASW_LFSR_H
#define ASW_LFSR_H

#include <stdint.h>

/* One step: fb = s[15]^s[13]^s[12]^s[10]; s = {s[14:0], fb}. */
uint16_t asw_lfsr_next(uint16_t state);

/* State of input `input` after reset or a write of LFSR_SEED:
 * seed ^ (input * 0x9E37 mod 2^16), replaced by 0xACE1 if that is 0. */
uint16_t asw_lfsr_init(uint16_t seed, unsigned input);

#endif
