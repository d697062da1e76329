// Rng: a small, fast, seeded PRNG (xoshiro256**). Each random source in the
// model (a workload flow, fault injection, bad-block placement) owns one,
// seeded from the scenario seed and a stream id, so adding draws to one source
// never perturbs another. Never seeded from the wall clock.
#pragma once

#include <cstdint>

#include "util/portable_math.h"

namespace ssdp {

class Rng {
 public:
  // Seeds the generator from (seed, stream) through SplitMix64.
  explicit Rng(uint64_t seed = 1, uint64_t stream = 0) { Seed(seed, stream); }

  void Seed(uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (auto& word : s_) word = SplitMix(x);
  }

  // Uniform 64-bit value.
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, bound); bound > 0. Lemire's multiply-shift, no modulo bias
  // worth measuring at the bounds the model uses.
  uint64_t Below(uint64_t bound) {
    return uint64_t((static_cast<unsigned __int128>(Next()) * bound) >> 64);
  }

  // Uniform double in [0, 1).
  double Uniform() { return double(Next() >> 11) * 0x1.0p-53; }

  // True with probability p.
  bool Chance(double p) { return p > 0 && Uniform() < p; }

  // Exponential variate with the given mean. Uses the model's own logarithm:
  // the C library's may differ in the last bit between platforms.
  double Exponential(double mean) { return -mean * PortableLog(1.0 - Uniform()); }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace ssdp
