// Zipf sampling for workload generation: ranks drawn with P(k) ~ k^-theta,
// and a fixed permutation that scatters ranks over a flow's slots so that the
// hottest addresses are not neighbours.
#pragma once

#include <cstdint>

#include "engine/rng.h"

namespace ssdp {

// Draws ranks in [1, n] with probability proportional to k^-theta.
//
// Rejection-inversion (Hoermann & Derflinger, "Rejection-inversion to generate
// variates from monotone discrete distributions", 1996): invert the integral
// of a continuous hat x^-theta over [0.5, n + 0.5], round to the nearest rank,
// and accept with a cheap test. Setup is O(1) and memory is constant, so n can
// be 2^34 or more; theta may be any positive value, including exactly 1.
// About one uniform draw, one log and one exp per sample; rejections are rare.
// All arithmetic is IEEE-754 basic operations (see util/portable_math.h), so
// results are identical on every platform.
class ZipfSampler {
 public:
  // n >= 1 ranks; theta > 0.
  ZipfSampler(uint64_t n, double theta);

  // Next rank in [1, n].
  uint64_t Sample(Rng& rng) const;

  uint64_t n() const { return n_; }
  double theta() const { return theta_; }

 private:
  // The hat h(x) = x^-theta, its integral H(x) = (x^(1-theta) - 1) / (1-theta)
  // (log x when theta == 1) and the inverse of H.
  double Hat(double x) const;
  double HatIntegral(double x) const;
  double HatIntegralInverse(double y) const;

  uint64_t n_;
  double theta_;
  double one_minus_theta_;
  double integral_low_;   // H(1.5) - 1: the area of rank 1 is exactly h(1) = 1
  double integral_high_;  // H(n + 0.5)
  // Ranks whose continuous inverse lands this close to k are accepted
  // without evaluating the exact test (the squeeze).
  double quick_accept_;
};

// A fixed bijection of [0, n) used to place zipf ranks on slots: rank 0 (the
// hottest) and its followers land far apart, and the same ranks land on the
// same slots for every seed, so a hot spot is a property of the range, not of
// the run.
//
// Scheme: with k = the number of bits needed for n - 1, apply a bijective
// mixer on k-bit integers (add an odd constant, multiply by an odd constant,
// xor-shift right, multiply, xor-shift; every step is invertible mod 2^k), and
// "cycle-walk": re-apply it while the value is >= n. Walking the permutation's
// cycle until it re-enters [0, n) is a bijection of [0, n); because
// n > 2^(k-1), fewer than two steps are needed on average.
class RankScatter {
 public:
  explicit RankScatter(uint64_t n);

  // The slot of a 0-based rank < n.
  uint64_t SlotOf(uint64_t rank) const {
    uint64_t x = rank;
    do {
      x = Mix(x);
    } while (x >= n_);
    return x;
  }

  uint64_t n() const { return n_; }

 private:
  uint64_t Mix(uint64_t x) const {
    x = ((x + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull) & mask_;
    x ^= x >> shift_;
    x = (x * 0x94D049BB133111EBull) & mask_;
    x ^= x >> shift_;
    return x;
  }

  uint64_t n_;
  uint64_t mask_;  // 2^k - 1
  int shift_;      // ceil(k / 2), at least 1
};

}  // namespace ssdp
