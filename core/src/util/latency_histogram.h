// LatencyHistogram: a log-linear (HDR-style) histogram of latencies in ns.
//
// Values below 256 ns get a bucket each (exact). Above that, every power of
// two [2^e, 2^(e+1)) is split into 128 equal buckets, so a bucket is at most
// 1/128 of its lower bound wide and a bucket's midpoint is within 0.4% of any
// value in it. The buckets cover the whole uint64_t range: nothing saturates.
// 7424 counters (58 KiB), allocated once at construction; Record() is a few
// instructions and never allocates.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdp {

class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 7;
  static constexpr uint64_t kSubBuckets = uint64_t(1) << kSubBucketBits;  // per power of two
  static constexpr size_t kBucketCount = (65 - kSubBucketBits) * kSubBuckets;

  LatencyHistogram();

  // Adds one sample.
  void Record(uint64_t ns) {
    ++counts_[BucketIndex(ns)];
    ++count_;
    sum_ += ns;
    if (ns < min_) min_ = ns;
    if (ns > max_) max_ = ns;
  }

  // Number of samples recorded.
  uint64_t Count() const { return count_; }
  // Exact arithmetic mean (kept as a 128-bit running sum); 0 when empty.
  double Mean() const;
  // Exact smallest and largest samples; 0 when empty.
  uint64_t Min() const { return count_ == 0 ? 0 : min_; }
  uint64_t Max() const { return max_; }

  // The nearest-rank p-th percentile (p in [0, 100]): the sample of rank
  // ceil(p/100 * Count()), at least rank 1. Exact for p giving the first or
  // last rank and for values below 256 ns, otherwise the midpoint of the
  // sample's bucket (within 0.4%), clamped to [Min(), Max()]. 0 when empty.
  uint64_t Percentile(double p) const;

  // Adds every sample of other, as if each had been recorded here.
  void Merge(const LatencyHistogram& other);

  // Forgets every sample; keeps the storage.
  void Reset();

  // Calls fn(lower_ns, upper_ns, count) for every non-empty bucket in
  // ascending order; the bucket holds the values lower_ns..upper_ns
  // inclusive (inclusive so the last bucket can end at 2^64 - 1).
  template <typename Fn>
  void ForEachBucket(Fn&& fn) const {
    for (size_t i = 0; i < kBucketCount; ++i) {
      if (counts_[i] != 0) fn(BucketLower(i), BucketUpper(i), counts_[i]);
    }
  }

  // The bucket that holds ns, and that bucket's bounds (inclusive).
  static size_t BucketIndex(uint64_t ns) {
    if (ns < 2 * kSubBuckets) return size_t(ns);
    const int shift = int(std::bit_width(ns)) - 1 - kSubBucketBits;  // >= 1
    return size_t(uint64_t(shift) * kSubBuckets + (ns >> shift));
  }
  static uint64_t BucketLower(size_t index);
  static uint64_t BucketUpper(size_t index);

 private:
  std::vector<uint64_t> counts_;  // kBucketCount entries
  uint64_t count_ = 0;
  __extension__ unsigned __int128 sum_ = 0;  // cannot overflow: 2^64 samples of 2^64 ns
  uint64_t min_ = ~uint64_t(0);
  uint64_t max_ = 0;
};

}  // namespace ssdp
