/* LFSR (§7.7) against two independent references: the bit recurrence of
 * the polynomial and the classic right-shifting form of the same LFSR. */
#include <stdint.h>

#include "lfsr.h"
#include "test.h"

static uint16_t bitrev16(uint16_t x) {
  uint16_t r = 0;
  for (int k = 0; k < 16; k++) r |= (uint16_t)(((x >> k) & 1u) << (15 - k));
  return r;
}

void test_lfsr_recurrence(void) {
  /* Bit stream x: state bit j = x[n-j]; x[n] = x[n-16]^x[n-14]^x[n-13]^x[n-11]. */
  static uint8_t x[70000 + 16];
  uint16_t s = 0xACE1u;
  for (int j = 0; j < 16; j++) x[15 - j] = (uint8_t)(s >> j & 1u);
  for (int n = 16; n < 70000 + 16; n++) {
    x[n] = x[n - 16] ^ x[n - 14] ^ x[n - 13] ^ x[n - 11];
    s = asw_lfsr_next(s);
    uint16_t ref = 0;
    for (int j = 0; j < 16; j++) ref |= (uint16_t)(x[n - j] << j);
    if (s != ref) {
      CHECKF(s == ref, "step %d: 0x%04x vs reference 0x%04x", n - 15, s, ref);
      return;
    }
  }
}

void test_lfsr_mirror_form(void) {
  /* Right-shift form: bit = s0^s2^s3^s5, s = s>>1 | bit<<15 (same taps). */
  uint16_t s = 1, r = bitrev16(1);
  for (int n = 0; n < 100000; n++) {
    s = asw_lfsr_next(s);
    unsigned bit = (r ^ (r >> 2) ^ (r >> 3) ^ (r >> 5)) & 1u;
    r = (uint16_t)((r >> 1) | (bit << 15));
    if (bitrev16(s) != r) {
      CHECKF(bitrev16(s) == r, "step %d", n);
      return;
    }
  }
}

void test_lfsr_period(void) {
  uint16_t s = 1;
  unsigned n = 0;
  do {
    s = asw_lfsr_next(s);
    n++;
    CHECK(s != 0);
  } while (s != 1 && n < 70000);
  CHECKF(n == 65535, "period %u", n);
  CHECK(asw_lfsr_next(0x8000) == 0x0001); /* s15 feeds back into bit 0 */
  CHECK(asw_lfsr_next(0x0001) == 0x0002);
  CHECK(asw_lfsr_next(0x2000) == 0x4001); /* s13 */
}

void test_lfsr_init(void) {
  CHECK(asw_lfsr_init(1, 0) == 1);
  CHECK(asw_lfsr_init(1, 1) == (0x9E37 ^ 1));
  CHECK(asw_lfsr_init(0x1234, 3) == (uint16_t)(0x1234 ^ ((3 * 0x9E37) & 0xFFFF)));
  CHECK(asw_lfsr_init(0, 0) == 0xACE1); /* zero state replaced */
  uint16_t seed = (uint16_t)((5 * 0x9E37) & 0xFFFF);
  CHECK(asw_lfsr_init(seed, 5) == 0xACE1);
  CHECK(asw_lfsr_init(seed, 4) != 0xACE1);
}
