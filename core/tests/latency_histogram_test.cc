#include "util/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "engine/rng.h"

namespace ssdp {
namespace {

// Log-normal latencies (median `median_ns`, log-spread `sigma`) with a share
// of tiny values, so both the exact and the log-linear buckets are used.
std::vector<uint64_t> LatencySamples(int count, double median_ns, double sigma, uint64_t seed) {
  Rng rng(seed, 0);
  std::vector<uint64_t> samples;
  samples.reserve(count);
  for (int i = 0; i < count; ++i) {
    if (rng.Below(20) == 0) {
      samples.push_back(rng.Below(300));
      continue;
    }
    const double u1 = 1.0 - rng.Uniform();
    const double u2 = rng.Uniform();
    const double normal = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    samples.push_back(uint64_t(median_ns * std::exp(sigma * normal)));
  }
  return samples;
}

// The nearest-rank percentile of sorted samples, the definition Percentile() follows.
uint64_t ExactPercentile(const std::vector<uint64_t>& sorted, double p) {
  uint64_t rank = uint64_t(std::ceil(p * double(sorted.size()) / 100));
  rank = std::clamp<uint64_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

TEST(LatencyHistogramTest, EmptyHistogramReportsZeros) {
  LatencyHistogram histogram;
  EXPECT_EQ(histogram.Count(), 0u);
  EXPECT_EQ(histogram.Mean(), 0);
  EXPECT_EQ(histogram.Min(), 0u);
  EXPECT_EQ(histogram.Max(), 0u);
  EXPECT_EQ(histogram.Percentile(50), 0u);
  int buckets = 0;
  histogram.ForEachBucket([&](uint64_t, uint64_t, uint64_t) { ++buckets; });
  EXPECT_EQ(buckets, 0);
}

TEST(LatencyHistogramTest, BucketsTileTheWholeRangeWithBoundedWidth) {
  EXPECT_EQ(LatencyHistogram::BucketLower(0), 0u);
  for (size_t i = 0; i < LatencyHistogram::kBucketCount; ++i) {
    const uint64_t lower = LatencyHistogram::BucketLower(i);
    const uint64_t upper = LatencyHistogram::BucketUpper(i);
    ASSERT_LE(lower, upper);
    ASSERT_EQ(LatencyHistogram::BucketIndex(lower), i);
    ASSERT_EQ(LatencyHistogram::BucketIndex(upper), i);
    // Width at most 1/128 of the lower bound (exact below 256).
    ASSERT_LE(double(upper - lower + 1), std::max(1.0, double(lower) / 128)) << i;
    if (i + 1 < LatencyHistogram::kBucketCount) {
      ASSERT_EQ(LatencyHistogram::BucketLower(i + 1), upper + 1) << i;
    } else {
      ASSERT_EQ(upper, ~uint64_t(0));
    }
  }
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram histogram;
  for (uint64_t ns = 0; ns < 256; ++ns) histogram.Record(ns);
  for (int p = 1; p < 100; ++p) {
    EXPECT_EQ(histogram.Percentile(p), uint64_t(std::ceil(p * 256.0 / 100)) - 1) << p;
  }
  EXPECT_EQ(histogram.Min(), 0u);
  EXPECT_EQ(histogram.Max(), 255u);
  EXPECT_DOUBLE_EQ(histogram.Mean(), 127.5);
}

TEST(LatencyHistogramTest, PercentilesMatchSortedSamplesWithinOnePercent) {
  for (auto [median, sigma] : {std::tuple{100000.0, 1.5}, std::tuple{2000.0, 0.3},
                               std::tuple{5e9, 2.5}}) {
    std::vector<uint64_t> samples = LatencySamples(200000, median, sigma, 17);
    LatencyHistogram histogram;
    unsigned __int128 sum = 0;
    for (uint64_t sample : samples) {
      histogram.Record(sample);
      sum += sample;
    }
    std::sort(samples.begin(), samples.end());
    EXPECT_EQ(histogram.Count(), samples.size());
    EXPECT_EQ(histogram.Min(), samples.front());
    EXPECT_EQ(histogram.Max(), samples.back());
    EXPECT_DOUBLE_EQ(histogram.Mean(), double(sum) / double(samples.size()));
    for (double p : {0.0, 0.001, 1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99,
                     99.999, 100.0}) {
      const uint64_t exact = ExactPercentile(samples, p);
      const uint64_t estimate = histogram.Percentile(p);
      EXPECT_LE(std::fabs(double(estimate) - double(exact)), 0.01 * double(exact))
          << "p" << p << " exact " << exact << " estimate " << estimate;
      EXPECT_LE(estimate, histogram.Max());
      EXPECT_GE(estimate, histogram.Min());
    }
  }
}

TEST(LatencyHistogramTest, PercentileNeverExceedsMax) {
  LatencyHistogram histogram;
  histogram.Record(1000);
  histogram.Record(1000001);  // alone in a wide bucket whose midpoint is above it
  histogram.Record(1000002);
  for (double p : {50.0, 66.0, 67.0, 99.0, 100.0}) EXPECT_LE(histogram.Percentile(p), 1000002u);
  EXPECT_EQ(histogram.Percentile(100), 1000002u);
  EXPECT_EQ(histogram.Percentile(0), 1000u);
}

TEST(LatencyHistogramTest, HandlesTheExtremes) {
  LatencyHistogram histogram;
  histogram.Record(~uint64_t(0));
  histogram.Record(~uint64_t(0));
  histogram.Record(0);
  EXPECT_EQ(histogram.Max(), ~uint64_t(0));
  EXPECT_EQ(histogram.Min(), 0u);
  EXPECT_DOUBLE_EQ(histogram.Mean(), 2.0 * 18446744073709551615.0 / 3);
  // The median is a maximum-valued sample: its bucket's midpoint, within 0.4%.
  EXPECT_GE(double(histogram.Percentile(50)), 0.996 * 18446744073709551615.0);
}

TEST(LatencyHistogramTest, MergeEqualsRecordingEverything) {
  const std::vector<uint64_t> a = LatencySamples(50000, 30000, 1.0, 1);
  const std::vector<uint64_t> b = LatencySamples(70000, 800000, 2.0, 2);
  LatencyHistogram first, second, all;
  for (uint64_t sample : a) first.Record(sample), all.Record(sample);
  for (uint64_t sample : b) second.Record(sample), all.Record(sample);
  first.Merge(second);
  EXPECT_EQ(first.Count(), all.Count());
  EXPECT_EQ(first.Mean(), all.Mean());
  EXPECT_EQ(first.Min(), all.Min());
  EXPECT_EQ(first.Max(), all.Max());
  for (double p = 0; p <= 100; p += 0.5) EXPECT_EQ(first.Percentile(p), all.Percentile(p)) << p;
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> merged_buckets, all_buckets;
  first.ForEachBucket([&](uint64_t lo, uint64_t hi, uint64_t n) { merged_buckets.emplace_back(lo, hi, n); });
  all.ForEachBucket([&](uint64_t lo, uint64_t hi, uint64_t n) { all_buckets.emplace_back(lo, hi, n); });
  EXPECT_EQ(merged_buckets, all_buckets);

  // Merging an empty histogram changes nothing, in either direction.
  LatencyHistogram empty;
  first.Merge(empty);
  EXPECT_EQ(first.Min(), all.Min());
  empty.Merge(all);
  EXPECT_EQ(empty.Min(), all.Min());
  EXPECT_EQ(empty.Count(), all.Count());
}

TEST(LatencyHistogramTest, ForEachBucketVisitsNonEmptyBucketsInOrder) {
  LatencyHistogram histogram;
  for (uint64_t ns : {5u, 5u, 300u, 1000000u, 299u}) histogram.Record(ns);
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> buckets;
  histogram.ForEachBucket([&](uint64_t lo, uint64_t hi, uint64_t n) { buckets.emplace_back(lo, hi, n); });
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(buckets[0], std::make_tuple(5u, 5u, 2u));
  EXPECT_EQ(buckets[1], std::make_tuple(298u, 299u, 1u));
  EXPECT_EQ(buckets[2], std::make_tuple(300u, 301u, 1u));
  EXPECT_LE(std::get<0>(buckets[3]), 1000000u);
  EXPECT_GE(std::get<1>(buckets[3]), 1000000u);
  uint64_t total = 0;
  for (const auto& bucket : buckets) total += std::get<2>(bucket);
  EXPECT_EQ(total, histogram.Count());
}

TEST(LatencyHistogramTest, ResetForgetsEverything) {
  LatencyHistogram histogram;
  for (uint64_t ns : {10u, 20000u, 3000000u}) histogram.Record(ns);
  histogram.Reset();
  EXPECT_EQ(histogram.Count(), 0u);
  EXPECT_EQ(histogram.Max(), 0u);
  EXPECT_EQ(histogram.Min(), 0u);
  EXPECT_EQ(histogram.Percentile(99), 0u);
  histogram.Record(42);
  EXPECT_EQ(histogram.Min(), 42u);
  EXPECT_EQ(histogram.Max(), 42u);
  EXPECT_EQ(histogram.Percentile(50), 42u);
}

}  // namespace
}  // namespace ssdp
