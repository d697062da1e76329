#include "util/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace ssdp {

LatencyHistogram::LatencyHistogram() : counts_(kBucketCount, 0) {}

double LatencyHistogram::Mean() const {
  if (count_ == 0) return 0;
  return double(sum_) / double(count_);
}

uint64_t LatencyHistogram::BucketLower(size_t index) {
  if (index < 2 * kSubBuckets) return index;
  const uint64_t shift = index / kSubBuckets - 1;
  const uint64_t mantissa = index - shift * kSubBuckets;  // in [128, 256)
  return mantissa << shift;
}

uint64_t LatencyHistogram::BucketUpper(size_t index) {
  if (index < 2 * kSubBuckets) return index;
  const uint64_t shift = index / kSubBuckets - 1;
  return BucketLower(index) + ((uint64_t(1) << shift) - 1);
}

uint64_t LatencyHistogram::Percentile(double p) const {
  if (count_ == 0) return 0;
  if (!(p > 0)) return min_;  // also NaN
  if (p >= 100) return max_;
  uint64_t rank = uint64_t(std::ceil(p * double(count_) / 100));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  if (rank == 1) return min_;
  if (rank == count_) return max_;
  uint64_t seen = 0;
  for (size_t i = 0; i < kBucketCount; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      const uint64_t lower = BucketLower(i);
      const uint64_t midpoint = lower + (BucketUpper(i) - lower) / 2;
      return std::clamp(midpoint, min_, max_);
    }
  }
  return max_;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBucketCount; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

void LatencyHistogram::Reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = 0;
  sum_ = 0;
  min_ = ~uint64_t(0);
  max_ = 0;
}

}  // namespace ssdp
