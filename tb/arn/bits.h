// bits.h — bit-field access to Verilator ports of any width (scalar or VlWide),
// and the mismatch report shared by the tb/arn harnesses.
#ifndef TB_ARN_BITS_H
#define TB_ARN_BITS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "verilated.h"

template <typename T>
static inline void setb(T &s, unsigned lsb, unsigned w, uint64_t v) {
  uint64_t m = w >= 64 ? ~0ull : ((1ull << w) - 1);
  s = (T)(((uint64_t)s & ~(m << lsb)) | ((v & m) << lsb));
}
template <std::size_t N>
static inline void setb(VlWide<N> &s, unsigned lsb, unsigned w, uint64_t v) {
  for (unsigned b = 0; b < w; b++) {
    unsigned k = lsb + b;
    uint32_t bit = (uint32_t)(v >> b & 1u);
    s[k / 32] = (s[k / 32] & ~(1u << (k % 32))) | (bit << (k % 32));
  }
}
template <typename T>
static inline uint64_t getb(const T &s, unsigned lsb, unsigned w) {
  uint64_t m = w >= 64 ? ~0ull : ((1ull << w) - 1);
  return ((uint64_t)s >> lsb) & m;
}
template <std::size_t N>
static inline uint64_t getb(const VlWide<N> &s, unsigned lsb, unsigned w) {
  uint64_t v = 0;
  for (unsigned b = 0; b < w; b++) {
    unsigned k = lsb + b;
    v |= (uint64_t)(s[k / 32] >> (k % 32) & 1u) << b;
  }
  return v;
}

static inline unsigned idx_w(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) w++;
  return n <= 1 ? 1 : w;
}
static inline unsigned cnt_w(unsigned n) { return idx_w(n + 1) < 1 ? 1 : idx_w(n + 1); }

// Small deterministic generator (xorshift64*), independent of libc.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  unsigned below(unsigned n) { return n ? (unsigned)(next() % n) : 0; }
  bool chance(unsigned pct) { return below(100) < pct; }
};

#define CHECK(cyc, what, exp, act)                                                        \
  do {                                                                                    \
    uint64_t e_ = (uint64_t)(exp), a_ = (uint64_t)(act);                                  \
    if (e_ != a_) {                                                                       \
      std::printf("MISMATCH cycle %llu %s: expected (C) %llu, actual (RTL) %llu\n",        \
                  (unsigned long long)(cyc), what, (unsigned long long)e_,                \
                  (unsigned long long)a_);                                                \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

#endif
