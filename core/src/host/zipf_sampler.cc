#include "host/zipf_sampler.h"

#include <algorithm>
#include <bit>

#include "util/portable_math.h"

SSDP_STRICT_FP_FILE

namespace ssdp {

ZipfSampler::ZipfSampler(uint64_t n, double theta)
    : n_(std::max<uint64_t>(n, 1)), theta_(theta), one_minus_theta_(1.0 - theta) {
  integral_low_ = HatIntegral(1.5) - 1.0;
  integral_high_ = HatIntegral(double(n_) + 0.5);
  quick_accept_ = 2.0 - HatIntegralInverse(HatIntegral(2.5) - Hat(2.0));
}

uint64_t ZipfSampler::Sample(Rng& rng) const {
  const double n = double(n_);
  for (;;) {
    // y is uniform over (H(1.5) - 1, H(n + 0.5)]: the hat's area over
    // [1.5, n + 0.5] plus a strip of area exactly h(1) = 1 for rank 1, which
    // is therefore never rejected.
    const double y = integral_high_ + rng.Uniform() * (integral_low_ - integral_high_);
    const double x = HatIntegralInverse(y);
    uint64_t k;
    if (!(x < n)) {
      k = n_;  // also catches +inf and NaN at the far end
    } else if (x < 1.0) {
      k = 1;
    } else {
      k = uint64_t(x + 0.5);
    }
    // Accept when y falls within rank k's true share h(k) of the hat's strip
    // [k - 0.5, k + 0.5]; the squeeze settles most cases without evaluating H.
    const double kd = double(k);
    if (kd - x <= quick_accept_ || y >= HatIntegral(kd + 0.5) - Hat(kd)) return k;
  }
}

double ZipfSampler::Hat(double x) const { return PortableExp(-theta_ * PortableLog(x)); }

double ZipfSampler::HatIntegral(double x) const {
  // (e^((1-theta) log x) - 1) / (1-theta), written so it stays accurate as
  // theta approaches 1 and is exactly log x at theta == 1.
  const double log_x = PortableLog(x);
  return log_x * PortableExpm1OverX(one_minus_theta_ * log_x);
}

double ZipfSampler::HatIntegralInverse(double y) const {
  // (1 + (1-theta) y)^(1 / (1-theta)), again stable near theta == 1 (where it
  // is e^y). For theta > 1 the base cannot drop below 0; clamping at -1 maps
  // rounding overshoot to +inf, which Sample() clamps to rank n.
  const double t = std::max(-1.0, y * one_minus_theta_);
  return PortableExp(y * PortableLog1pOverX(t));
}

RankScatter::RankScatter(uint64_t n) : n_(std::max<uint64_t>(n, 1)) {
  const int bits = n_ <= 1 ? 0 : int(std::bit_width(n_ - 1));
  mask_ = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  shift_ = std::max(1, (bits + 1) / 2);
}

}  // namespace ssdp
