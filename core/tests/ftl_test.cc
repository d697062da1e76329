// FTL behaviour under long workloads: invariants, GC at high occupancy, wear
// leveling, trim, determinism.
#include <gtest/gtest.h>

#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace ssdp {
namespace {

using testing::MustCreate;
using testing::RandomFlow;
using testing::RunToEnd;
using testing::SmallScenario;

TEST(FtlTest, InvariantsHoldAfterALongRandomWorkload) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.8;
  s.precondition.random_overwrite_passes = 1;
  FlowConfig a = RandomFlow(0.3, 4096, 16, 100000);
  FlowConfig b = RandomFlow(0.1, 24576, 4, 20000);
  b.pattern = AccessPattern::kZipf;
  s.workload.flows = {a, b};
  auto sim = MustCreate(s);
  sim->RunToEnd();
  Status st = sim->ftl().CheckInvariants();
  EXPECT_TRUE(st.ok()) << st.message();
  Metrics m = sim->GetMetrics();
  EXPECT_EQ(m.requests, 120000u);
  EXPECT_GT(m.gc_runs, 100u);
  EXPECT_GT(m.rmw_reads, 0u) << "4 KiB writes into 8 KiB pages need read-modify-write";
  EXPECT_GT(m.waf, 1.0);
}

TEST(FtlTest, GarbageCollectionKeepsTheDeviceAliveAt95PercentOccupancy) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.95;
  s.precondition.random_overwrite_passes = 1;
  FlowConfig f = RandomFlow(0.0, 8192, 8, 60000);
  f.lba_end_fraction = 0.95;
  s.workload.flows = {f};
  auto sim = MustCreate(s);
  sim->RunToEnd();
  Metrics m = sim->GetMetrics();
  EXPECT_FALSE(m.time_limited);
  EXPECT_EQ(m.requests, 60000u);
  EXPECT_GT(m.gc_page_copies, 0u);
  EXPECT_GT(m.waf, 2.0) << "at 95% occupancy every reclaimed block costs many copies";
  EXPECT_TRUE(sim->ftl().CheckInvariants().ok());
}

TEST(FtlTest, GcWriteAmplificationGrowsWithOccupancy) {
  auto waf_at = [](double fill) {
    Scenario s = SmallScenario();
    s.precondition.fill_fraction = fill;
    s.precondition.random_overwrite_passes = 1;
    FlowConfig f = RandomFlow(0.0, 8192, 8, 40000);
    f.lba_end_fraction = fill;
    s.workload.flows = {f};
    return RunToEnd(s).waf;
  };
  double low = waf_at(0.5), high = waf_at(0.9);
  EXPECT_LT(low, high);
}

uint64_t EraseSpread(bool static_wl) {
  Scenario s = SmallScenario();
  auto& g = s.device.geometry;
  g.channels = 1;
  g.chips_per_channel = 1;
  g.planes_per_die = 1;
  g.blocks_per_plane = 64;
  g.pages_per_block = 32;
  s.device.flash.endurance_cycles = 0;
  s.device.ftl.wear_leveling.static_enabled = static_wl;
  s.device.ftl.wear_leveling.static_threshold_erases = 16;
  s.precondition.fill_fraction = 0.85;
  FlowConfig f = RandomFlow(0.0, 8192, 4, 150000);
  f.pattern = AccessPattern::kHotCold;
  f.hot_fraction = 0.1;
  f.hot_access_fraction = 0.95;
  f.lba_end_fraction = 0.85;
  s.workload.flows = {f};
  auto sim = MustCreate(s);
  sim->RunToEnd();
  EXPECT_TRUE(sim->ftl().CheckInvariants().ok());
  return sim->ftl().MaxEraseCount() - sim->ftl().MinEraseCount();
}

TEST(FtlTest, StaticWearLevelingNarrowsTheEraseCountSpread) {
  uint64_t without = EraseSpread(false);
  uint64_t with = EraseSpread(true);
  EXPECT_GT(without, 50u) << "cold blocks should sit unerased without static wear leveling";
  EXPECT_LT(with * 2, without);
}

TEST(FtlTest, ProgramAndEraseFailuresAreRetiredAndRetried) {
  Scenario s = SmallScenario();
  // Each failure retires a whole block, so rates are kept to what the spare
  // blocks of this small device can absorb over the run.
  s.device.flash.program_fail_probability = 0.0001;
  s.device.flash.erase_fail_probability = 0.0005;
  s.device.flash.factory_bad_block_fraction = 0.02;
  s.precondition.fill_fraction = 0.7;
  s.run.check_invariants = true;
  FlowConfig f = RandomFlow(0.3, 8192, 8, 50000);
  f.lba_end_fraction = 0.7;  // leave room for the blocks that failures retire
  s.workload.flows = {f};
  auto sim = MustCreate(s);
  sim->RunToEnd();
  Metrics m = sim->GetMetrics();
  EXPECT_EQ(m.requests, 50000u);
  EXPECT_GT(m.program_failures, 0u);
  EXPECT_GT(m.bad_blocks, 0u);
  EXPECT_TRUE(sim->ftl().CheckInvariants().ok()) << sim->ftl().CheckInvariants().message();
}

TEST(FtlTest, FrequentProgramFailuresNeverStrandDataOnBadBlocks) {
  // Programs already queued to a block when it fails must land, be drained by
  // GC, and only then leave the block bad.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Scenario s = SmallScenario();
    s.seed = seed;
    s.device.flash.program_fail_probability = 0.01;
    s.precondition.fill_fraction = 0.5;
    s.run.check_invariants = true;
    FlowConfig f = RandomFlow(0.2, 16384, 16, 3000);
    f.lba_end_fraction = 0.5;
    s.workload.flows = {f};
    auto sim = MustCreate(s);
    sim->RunToEnd();
    Status st = sim->ftl().CheckInvariants();
    ASSERT_TRUE(st.ok()) << "seed " << seed << ": " << st.message();
    ASSERT_TRUE(sim->invariant_status().ok()) << "seed " << seed << ": " << sim->invariant_status().message();
    ASSERT_GT(sim->GetMetrics().program_failures, 0u);
  }
}

TEST(FtlTest, CheckpointsLargerThanTheWriteQueuesStillComplete) {
  // Many small map pages: one checkpoint writes far more pages than the dies'
  // write queues hold, and host flushes must keep flowing around it.
  Scenario s = SmallScenario();
  s.device.geometry.page_bytes = 2048;
  s.device.geometry.blocks_per_plane = 256;
  s.device.geometry.pages_per_block = 64;
  s.device.ftl.buffer.capacity_bytes = 64 << 10;
  s.device.ftl.checkpoint.interval_page_writes = 1024;
  s.precondition.fill_fraction = 0.6;
  FlowConfig f = RandomFlow(0.2, 2048, 16, 40000);
  f.lba_end_fraction = 0.6;
  s.workload.flows = {f};
  Metrics m = RunToEnd(s);
  EXPECT_FALSE(m.stalled);
  EXPECT_EQ(m.requests, 40000u);
  EXPECT_GE(m.checkpoints, 10u);
  EXPECT_GT(double(m.checkpoint_pages) / double(m.checkpoints), 64.0);
}

TEST(FtlTest, RepeatedRunsGiveIdenticalMetrics) {
  Scenario s = SmallScenario();
  s.seed = 99;
  s.precondition.fill_fraction = 0.7;
  s.precondition.random_overwrite_passes = 0.5;
  FlowConfig a = RandomFlow(0.3, 4096, 16, 20000);
  FlowConfig b = RandomFlow(0.5, 16384, 2, 5000);
  b.pattern = AccessPattern::kZipf;
  b.arrival_rate_iops = 2000;
  s.workload.flows = {a, b};
  auto first = MetricsToJson(RunToEnd(s));
  auto second = MetricsToJson(RunToEnd(s));
  first["sim"].erase("wall_s");
  second["sim"].erase("wall_s");
  EXPECT_EQ(first.dump(), second.dump());
  s.seed = 100;
  auto other = MetricsToJson(RunToEnd(s));
  other["sim"].erase("wall_s");
  EXPECT_NE(first.dump(), other.dump()) << "a different seed must give a different run";
}

TEST(FtlTest, TrimDeallocatesAndSurvivesPowerFailure) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.8;
  s.run.check_invariants = true;
  FlowConfig f = RandomFlow(0.2, 16384, 8, 20000);
  f.trim_fraction = 0.3;
  f.lba_end_fraction = 0.8;
  s.workload.flows = {f};
  Metrics plain = RunToEnd(s);
  EXPECT_GT(plain.trims, 4000u);
  EXPECT_EQ(plain.requests, 20000u);
  // Trimmed pages need no GC copies: fewer copies than the same run without trims.
  Scenario no_trim = s;
  no_trim.workload.flows[0].trim_fraction = 0;
  EXPECT_LT(plain.gc_page_copies, RunToEnd(no_trim).gc_page_copies);

  for (SimTime at : {plain.end_ns / 3, plain.end_ns / 2, plain.end_ns * 3 / 4}) {
    s.faults.power_fail_at_ns = {at};
    auto sim = MustCreate(s);
    sim->RunToEnd();
    EXPECT_TRUE(sim->invariant_status().ok()) << sim->invariant_status().message();
    EXPECT_EQ(sim->GetMetrics().power_failures, 1u);
  }
}

TEST(FtlTest, CostBenefitAndGreedyBothReclaimSpace) {
  for (GcPolicy policy : {GcPolicy::kGreedy, GcPolicy::kCostBenefit}) {
    Scenario s = SmallScenario();
    s.device.ftl.gc.policy = policy;
    s.precondition.fill_fraction = 0.85;
    FlowConfig f = RandomFlow(0.0, 8192, 8, 30000);
    f.pattern = AccessPattern::kHotCold;
    f.lba_end_fraction = 0.85;
    s.workload.flows = {f};
    auto sim = MustCreate(s);
    sim->RunToEnd();
    EXPECT_EQ(sim->GetMetrics().requests, 30000u);
    EXPECT_TRUE(sim->ftl().CheckInvariants().ok());
  }
}

}  // namespace
}  // namespace ssdp
