#include "host/request_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "host/zipf_sampler.h"

namespace ssdp {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;

FlowConfig Flow(AccessPattern pattern, std::vector<SizeWeight> sizes = {{4096, 1}}) {
  FlowConfig flow;
  flow.pattern = pattern;
  flow.sizes = std::move(sizes);
  return flow;
}

// Binomial proportion check: |observed - p| within `sigmas` standard errors.
void ExpectProportion(uint64_t hits, uint64_t draws, double p, double sigmas = 5) {
  const double observed = double(hits) / double(draws);
  const double bound = sigmas * std::sqrt(p * (1 - p) / double(draws));
  EXPECT_NEAR(observed, p, bound) << hits << " of " << draws;
}

// FNV-1a over a request stream: a fingerprint to compare across platforms.
uint64_t Fingerprint(RequestGenerator& generator, int requests) {
  uint64_t hash = 0xCBF29CE484222325ull;
  auto mix = [&hash](uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      hash ^= (value >> (8 * i)) & 0xFF;
      hash *= 0x100000001B3ull;
    }
  };
  GeneratedRequest request;
  for (int i = 0; i < requests; ++i) {
    generator.Next(&request);
    mix(request.offset_bytes);
    mix(request.bytes);
    mix(request.is_read);
    mix(generator.NextInterarrivalNs());
  }
  return hash;
}

TEST(RequestGeneratorTest, SameSeedAndStreamGiveTheSameRequests) {
  for (AccessPattern pattern : {AccessPattern::kSequential, AccessPattern::kUniform,
                                AccessPattern::kZipf, AccessPattern::kHotCold}) {
    FlowConfig flow = Flow(pattern, {{4096, 3}, {16384, 1}, {1024, 1}});
    flow.read_fraction = 0.4;
    flow.arrival_rate_iops = 50000;
    RequestGenerator a(flow, 8 * kGiB, 42, 3);
    RequestGenerator b(flow, 8 * kGiB, 42, 3);
    RequestGenerator other_stream(flow, 8 * kGiB, 42, 4);
    RequestGenerator other_seed(flow, 8 * kGiB, 43, 3);
    const uint64_t fingerprint = Fingerprint(a, 10000);
    EXPECT_EQ(fingerprint, Fingerprint(b, 10000));
    EXPECT_NE(fingerprint, Fingerprint(other_stream, 10000));
    EXPECT_NE(fingerprint, Fingerprint(other_seed, 10000));
  }
}

// The exact sequences are part of the determinism promise: native and
// WebAssembly builds must produce these same fingerprints. If a deliberate
// change to the generator alters them, update the constants in that change.
TEST(RequestGeneratorTest, SequencesArePinned) {
  FlowConfig flow = Flow(AccessPattern::kZipf, {{4096, 3}, {65536, 1}});
  flow.read_fraction = 0.7;
  flow.arrival_rate_iops = 100000;
  flow.zipf_theta = 0.99;
  RequestGenerator zipf(flow, 512 * kGiB, 7, 1);
  flow.pattern = AccessPattern::kUniform;
  RequestGenerator uniform(flow, 512 * kGiB, 7, 1);
  flow.pattern = AccessPattern::kHotCold;
  RequestGenerator hot_cold(flow, 512 * kGiB, 7, 1);
  EXPECT_EQ(Fingerprint(zipf, 100000), 1553130405535414967u);
  EXPECT_EQ(Fingerprint(uniform, 100000), 991198038182090014u);
  EXPECT_EQ(Fingerprint(hot_cold, 100000), 3645013098913919136u);
}

TEST(RequestGeneratorTest, SequentialWrapsExactlyWhenTheNextRequestWouldNotFit) {
  // Range [25%, 75%) of 400 KiB = [100 KiB, 300 KiB): 200 KiB, six 32 KiB
  // requests fit (192 KiB), the seventh wraps.
  FlowConfig flow = Flow(AccessPattern::kSequential, {{32768, 1}});
  flow.lba_start_fraction = 0.25;
  flow.lba_end_fraction = 0.75;
  RequestGenerator generator(flow, 400 * kKiB, 1, 0);
  ASSERT_EQ(generator.range_start_bytes(), 100 * kKiB);
  ASSERT_EQ(generator.range_end_bytes(), 300 * kKiB);
  GeneratedRequest request;
  for (int lap = 0; lap < 3; ++lap) {
    for (uint64_t i = 0; i < 6; ++i) {
      generator.Next(&request);
      EXPECT_EQ(request.offset_bytes, 100 * kKiB + i * 32 * kKiB) << "lap " << lap << " i " << i;
      EXPECT_EQ(request.bytes, 32 * kKiB);
    }
  }
}

TEST(RequestGeneratorTest, SequentialFillsTheRangeExactlyWhenSizesDivideIt) {
  FlowConfig flow = Flow(AccessPattern::kSequential, {{8192, 1}});
  RequestGenerator generator(flow, 64 * kKiB, 1, 0);
  GeneratedRequest request;
  for (uint64_t i = 0; i < 24; ++i) {
    generator.Next(&request);
    EXPECT_EQ(request.offset_bytes, (i % 8) * 8192);
  }
}

TEST(RequestGeneratorTest, SequentialKeepsAlignmentWithMixedSizes) {
  FlowConfig flow = Flow(AccessPattern::kSequential, {{512, 1}, {4096, 1}, {6144, 1}});
  RequestGenerator generator(flow, 1 * kMiB, 5, 0);
  GeneratedRequest request;
  uint64_t expected_min_offset = 0;
  for (int i = 0; i < 100000; ++i) {
    generator.Next(&request);
    const uint64_t alignment = request.bytes >= 4096 ? 4096 : 512;
    ASSERT_EQ(request.offset_bytes % alignment, 0u);
    ASSERT_LE(request.offset_bytes + request.bytes, 1 * kMiB);
    // Either continues at or after the previous end (gap < alignment) or wraps to 0.
    if (request.offset_bytes != 0) {
      ASSERT_GE(request.offset_bytes, expected_min_offset);
      ASSERT_LT(request.offset_bytes, expected_min_offset + alignment);
    }
    expected_min_offset = request.offset_bytes + request.bytes;
  }
}

TEST(RequestGeneratorTest, EveryPatternStaysAlignedAndInRange) {
  // An odd capacity (not a multiple of 4 KiB) and odd fractions exercise the
  // alignment of the range ends.
  const uint64_t capacity = 3 * kGiB + 7 * 512;
  for (AccessPattern pattern : {AccessPattern::kSequential, AccessPattern::kUniform,
                                AccessPattern::kZipf, AccessPattern::kHotCold}) {
    for (auto [start, end] : {std::pair{0.0, 1.0}, std::pair{0.137, 0.731}, std::pair{0.9999, 1.0}}) {
      FlowConfig flow = Flow(pattern, {{512, 1}, {1536, 1}, {4096, 4}, {6144, 1}, {131072, 1},
                                       {16 * 1024 * 1024, 0.1}});
      flow.lba_start_fraction = start;
      flow.lba_end_fraction = end;
      flow.read_fraction = 0.5;
      RequestGenerator generator(flow, capacity, 11, 2);
      const uint64_t range_start = generator.range_start_bytes();
      const uint64_t range_end = generator.range_end_bytes();
      ASSERT_EQ(range_start % 4096, 0u);
      ASSERT_LE(double(range_start), start * double(capacity));
      ASSERT_GE(double(range_end), std::min(end * double(capacity), double(capacity - 4095)));
      ASSERT_LE(range_end, capacity);
      GeneratedRequest request;
      for (int i = 0; i < 1000000; ++i) {
        generator.Next(&request);
        const uint64_t alignment = request.bytes >= 4096 ? 4096 : 512;
        ASSERT_EQ(request.offset_bytes % alignment, 0u) << int(pattern) << " draw " << i;
        ASSERT_GE(request.offset_bytes, range_start) << int(pattern) << " draw " << i;
        ASSERT_LE(request.offset_bytes + request.bytes, range_end) << int(pattern) << " draw " << i;
        ASSERT_GT(request.bytes, 0u);
        ASSERT_EQ(request.bytes % 512, 0u);
      }
    }
  }
}

TEST(RequestGeneratorTest, SizesLargerThanTheRangeAreCutToTheRange) {
  FlowConfig flow = Flow(AccessPattern::kUniform, {{1024 * 1024, 1}});
  flow.lba_end_fraction = 0.5;
  RequestGenerator generator(flow, 512 * kKiB, 1, 0);
  GeneratedRequest request;
  for (int i = 0; i < 100; ++i) {
    generator.Next(&request);
    EXPECT_EQ(request.offset_bytes, 0u);
    EXPECT_EQ(request.bytes, 256 * kKiB);
  }
}

TEST(RequestGeneratorTest, UniformReachesEveryPositionIncludingTheLast) {
  // 64 KiB range, 8 KiB requests: 4 KiB aligned starts 0..56 KiB, 15 positions.
  FlowConfig flow = Flow(AccessPattern::kUniform, {{8192, 1}});
  RequestGenerator generator(flow, 64 * kKiB, 3, 0);
  std::vector<uint64_t> hits(16, 0);
  GeneratedRequest request;
  const int draws = 150000;
  for (int i = 0; i < draws; ++i) {
    generator.Next(&request);
    ++hits[request.offset_bytes / 4096];
  }
  EXPECT_EQ(hits[15], 0u);
  for (int slot = 0; slot < 15; ++slot) ExpectProportion(hits[slot], draws, 1.0 / 15);
}

TEST(RequestGeneratorTest, ReadFractionIsRespected) {
  for (double read_fraction : {0.0, 0.01, 0.3, 0.5, 0.97, 1.0}) {
    FlowConfig flow = Flow(AccessPattern::kUniform);
    flow.read_fraction = read_fraction;
    RequestGenerator generator(flow, 1 * kGiB, 9, 0);
    GeneratedRequest request;
    uint64_t reads = 0;
    const int draws = 1000000;
    for (int i = 0; i < draws; ++i) {
      generator.Next(&request);
      reads += request.is_read;
    }
    if (read_fraction == 0 || read_fraction == 1) {
      EXPECT_EQ(reads, uint64_t(read_fraction * draws));
    } else {
      ExpectProportion(reads, draws, read_fraction);
    }
  }
}

TEST(RequestGeneratorTest, SizeWeightsAreRespected) {
  FlowConfig flow = Flow(AccessPattern::kUniform,
                         {{4096, 1}, {8192, 2}, {65536, 7}, {512, 0}, {131072, 0.5}});
  RequestGenerator generator(flow, 1 * kGiB, 4, 0);
  GeneratedRequest request;
  std::vector<uint64_t> counts(5, 0);
  const int draws = 1000000;
  for (int i = 0; i < draws; ++i) {
    generator.Next(&request);
    switch (request.bytes) {
      case 4096: ++counts[0]; break;
      case 8192: ++counts[1]; break;
      case 65536: ++counts[2]; break;
      case 512: ++counts[3]; break;
      case 131072: ++counts[4]; break;
      default: FAIL() << request.bytes;
    }
  }
  ExpectProportion(counts[0], draws, 1 / 10.5);
  ExpectProportion(counts[1], draws, 2 / 10.5);
  ExpectProportion(counts[2], draws, 7 / 10.5);
  EXPECT_EQ(counts[3], 0u);  // weight 0 is never chosen
  ExpectProportion(counts[4], draws, 0.5 / 10.5);
}

// Zipf over n 4 KiB slots: returns how often each rank (1-based index) was hit.
std::vector<uint64_t> ZipfRankCounts(uint64_t n, double theta, int draws, uint64_t seed) {
  FlowConfig flow = Flow(AccessPattern::kZipf);
  flow.zipf_theta = theta;
  RequestGenerator generator(flow, n * 4096, seed, 0);
  EXPECT_EQ(generator.slot_count(), n);
  std::vector<uint64_t> rank_of_slot(n);
  for (uint64_t rank = 0; rank < n; ++rank) rank_of_slot[generator.rank_scatter().SlotOf(rank)] = rank;
  std::vector<uint64_t> counts(n + 1, 0);
  GeneratedRequest request;
  for (int i = 0; i < draws; ++i) {
    generator.Next(&request);
    ++counts[rank_of_slot[request.offset_bytes / 4096] + 1];
  }
  return counts;
}

TEST(RequestGeneratorTest, ZipfMatchesTheAnalyticalDistribution) {
  const uint64_t n = 64;
  const int draws = 1000000;
  for (double theta : {0.5, 0.99, 1.0, 1.5}) {
    const std::vector<uint64_t> counts = ZipfRankCounts(n, theta, draws, 100);
    double normaliser = 0;
    for (uint64_t k = 1; k <= n; ++k) normaliser += std::pow(double(k), -theta);
    double chi_square = 0;
    for (uint64_t k = 1; k <= n; ++k) {
      const double expected = draws * std::pow(double(k), -theta) / normaliser;
      const double difference = double(counts[k]) - expected;
      chi_square += difference * difference / expected;
      // Each rank on its own, 5 standard deviations.
      EXPECT_NEAR(double(counts[k]), expected, 5 * std::sqrt(expected) + 1) << "theta " << theta << " rank " << k;
    }
    // 63 degrees of freedom: P(chi^2 > 132) ~ 1e-6.
    EXPECT_LT(chi_square, 132) << "theta " << theta;
  }
}

TEST(RequestGeneratorTest, ZipfRankOneOverRankTwoIsTwoToTheTheta) {
  for (double theta : {0.5, 0.99, 1.0, 1.5}) {
    for (uint64_t n : {uint64_t(64), uint64_t(1) << 20}) {
      const int draws = 2000000;
      FlowConfig flow = Flow(AccessPattern::kZipf);
      flow.zipf_theta = theta;
      RequestGenerator generator(flow, n * 4096, 77, 1);
      const uint64_t first = generator.rank_scatter().SlotOf(0) * 4096;
      const uint64_t second = generator.rank_scatter().SlotOf(1) * 4096;
      uint64_t first_hits = 0, second_hits = 0;
      GeneratedRequest request;
      for (int i = 0; i < draws; ++i) {
        generator.Next(&request);
        first_hits += request.offset_bytes == first;
        second_hits += request.offset_bytes == second;
      }
      const double ratio = double(first_hits) / double(second_hits);
      // Relative standard error of the ratio, 5 sigmas.
      const double tolerance = 5 * std::sqrt(1.0 / first_hits + 1.0 / second_hits);
      EXPECT_NEAR(ratio / std::pow(2.0, theta), 1.0, tolerance) << "theta " << theta << " n " << n;
    }
  }
}

TEST(RequestGeneratorTest, ZipfHandlesHugeRanges) {
  // 2^34 slots (64 TiB): the sampler needs no table, and rank 1 still gets
  // 1 / H(n, theta) of the draws. For theta = 1.5, H is close to zeta(1.5).
  const uint64_t n = uint64_t(1) << 34;
  FlowConfig flow = Flow(AccessPattern::kZipf);
  flow.zipf_theta = 1.5;
  RequestGenerator generator(flow, n * 4096, 5, 0);
  ASSERT_EQ(generator.slot_count(), n);
  const uint64_t hottest = generator.rank_scatter().SlotOf(0) * 4096;
  GeneratedRequest request;
  uint64_t hottest_hits = 0;
  const int draws = 1000000;
  for (int i = 0; i < draws; ++i) {
    generator.Next(&request);
    ASSERT_LE(request.offset_bytes + request.bytes, n * 4096);
    hottest_hits += request.offset_bytes == hottest;
  }
  const double zeta_1_5 = 2.612375348685488;
  // H(n, 1.5) = zeta(1.5) - sum_{k>n} k^-1.5 ~ zeta(1.5) - 2 / sqrt(n).
  ExpectProportion(hottest_hits, draws, 1 / (zeta_1_5 - 2 / std::sqrt(double(n))));
}

TEST(RequestGeneratorTest, HotColdSendsTheHotShareToTheHotRegion) {
  for (auto [hot_fraction, hot_access] : {std::pair{0.2, 0.8}, std::pair{0.01, 0.99},
                                          std::pair{0.5, 0.1}}) {
    FlowConfig flow = Flow(AccessPattern::kHotCold);
    flow.hot_fraction = hot_fraction;
    flow.hot_access_fraction = hot_access;
    flow.lba_start_fraction = 0.5;
    RequestGenerator generator(flow, 4 * kGiB, 8, 0);
    const uint64_t range_bytes = generator.range_end_bytes() - generator.range_start_bytes();
    EXPECT_NEAR(double(generator.hot_end_bytes() - generator.range_start_bytes()),
                hot_fraction * double(range_bytes), 4096);
    GeneratedRequest request;
    uint64_t hot_hits = 0;
    double hot_offset_sum = 0;
    const int draws = 1000000;
    for (int i = 0; i < draws; ++i) {
      generator.Next(&request);
      if (request.offset_bytes < generator.hot_end_bytes()) {
        ++hot_hits;
        hot_offset_sum += double(request.offset_bytes - generator.range_start_bytes());
      }
    }
    ExpectProportion(hot_hits, draws, hot_access);
    // Uniform within the hot region: the mean start is near its middle.
    const double hot_bytes = double(generator.hot_end_bytes() - generator.range_start_bytes());
    EXPECT_NEAR(hot_offset_sum / double(hot_hits), (hot_bytes - 4096) / 2, 0.01 * hot_bytes);
  }
}

TEST(RequestGeneratorTest, ClosedLoopFlowsHaveNoArrivalGaps) {
  RequestGenerator generator(Flow(AccessPattern::kUniform), 1 * kGiB, 1, 0);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(generator.NextInterarrivalNs(), 0u);
}

TEST(RequestGeneratorTest, OpenLoopGapsAreExponentialWithTheConfiguredMean) {
  FlowConfig flow = Flow(AccessPattern::kUniform);
  flow.arrival_rate_iops = 200000;  // mean 5000 ns
  RequestGenerator generator(flow, 1 * kGiB, 1, 0);
  const int draws = 1000000;
  double sum = 0;
  uint64_t above_mean = 0;
  for (int i = 0; i < draws; ++i) {
    const uint64_t gap = generator.NextInterarrivalNs();
    sum += double(gap);
    above_mean += gap > 5000;
  }
  // Exponential: standard deviation equals the mean; P(X > mean) = 1/e.
  EXPECT_NEAR(sum / draws, 5000, 5 * 5000 / std::sqrt(double(draws)));
  ExpectProportion(above_mean, draws, std::exp(-1.0));
}

TEST(RequestGeneratorTest, ArrivalRateDoesNotChangeTheAddressSequence) {
  FlowConfig flow = Flow(AccessPattern::kZipf);
  RequestGenerator closed(flow, 1 * kGiB, 3, 0);
  flow.arrival_rate_iops = 1000;
  RequestGenerator open(flow, 1 * kGiB, 3, 0);
  GeneratedRequest a, b;
  for (int i = 0; i < 1000; ++i) {
    closed.Next(&a);
    open.NextInterarrivalNs();
    open.Next(&b);
    ASSERT_EQ(a.offset_bytes, b.offset_bytes);
  }
}

TEST(RankScatterTest, IsABijection) {
  for (uint64_t n : {1, 2, 3, 5, 64, 1000, 4096, 4097, 65535}) {
    RankScatter scatter(n);
    std::vector<bool> seen(n, false);
    for (uint64_t rank = 0; rank < n; ++rank) {
      const uint64_t slot = scatter.SlotOf(rank);
      ASSERT_LT(slot, n);
      ASSERT_FALSE(seen[slot]) << "n " << n << " rank " << rank;
      seen[slot] = true;
    }
  }
}

TEST(RankScatterTest, SpreadsTheHottestRanks) {
  const uint64_t n = uint64_t(1) << 28;
  RankScatter scatter(n);
  std::vector<uint64_t> slots;
  for (uint64_t rank = 0; rank < 16; ++rank) slots.push_back(scatter.SlotOf(rank));
  std::sort(slots.begin(), slots.end());
  for (size_t i = 1; i < slots.size(); ++i) EXPECT_GT(slots[i] - slots[i - 1], 1u);
  EXPECT_GT(slots.back() - slots.front(), n / 4);
}

TEST(ZipfSamplerTest, SingleRankAlwaysReturnsOne) {
  ZipfSampler sampler(1, 0.99);
  Rng rng(1, 0);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(sampler.Sample(rng), 1u);
}

TEST(ZipfSamplerTest, ExtremeThetasStayInRange) {
  for (double theta : {0.01, 0.2, 1.0 - 1e-9, 1.0 + 1e-9, 3.0}) {
    for (uint64_t n : {uint64_t(2), uint64_t(7), uint64_t(1) << 34}) {
      ZipfSampler sampler(n, theta);
      Rng rng(2, 0);
      for (int i = 0; i < 100000; ++i) {
        const uint64_t rank = sampler.Sample(rng);
        ASSERT_GE(rank, 1u);
        ASSERT_LE(rank, n);
      }
    }
  }
}

}  // namespace
}  // namespace ssdp
