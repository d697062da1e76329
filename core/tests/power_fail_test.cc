// Crash consistency: power fails at many seeded random instants; after
// recovery no acknowledged write is lost, the mapping agrees with the flash,
// the device keeps working, and recovery is deterministic.
#include <gtest/gtest.h>

#include "engine/rng.h"
#include "test_util.h"

namespace ssdp {
namespace {

using testing::MustCreate;
using testing::RandomFlow;
using testing::SmallScenario;

Scenario CrashScenario(uint64_t seed) {
  Scenario s = SmallScenario();
  s.seed = seed;
  s.precondition.fill_fraction = 0.6;
  s.precondition.random_overwrite_passes = 0.5;
  s.run.check_invariants = true;
  FlowConfig small = RandomFlow(0.3, 4096, 8, 1500);
  small.lba_end_fraction = 0.8;
  FlowConfig large = RandomFlow(0.2, 32768, 2, 300);
  large.lba_end_fraction = 0.8;
  s.workload.flows = {small, large};
  return s;
}

SimTime UninterruptedEnd(const Scenario& s) {
  auto sim = MustCreate(s);
  sim->RunToEnd();
  return sim->Now();
}

TEST(PowerFailTest, ThousandRandomInstantsLoseNoAcknowledgedWrite) {
  Scenario base = CrashScenario(1);
  const SimTime span = UninterruptedEnd(base);
  ASSERT_GT(span, 0u);
  Rng pick(2024);
  uint64_t recovered = 0, torn_or_saved = 0;
  for (int i = 0; i < 1000; ++i) {
    Scenario s = CrashScenario(1 + i % 7);
    // A third of the runs also fail programs and erases, a tenth fail twice.
    if (i % 3 == 0) {
      s.device.flash.program_fail_probability = 0.0005;
      s.device.flash.erase_fail_probability = 0.0005;
    }
    s.faults.power_fail_at_ns = {pick.Below(span)};
    if (i % 10 == 0) s.faults.power_fail_at_ns.push_back(s.faults.power_fail_at_ns[0] + pick.Below(span));
    auto sim = MustCreate(s);
    sim->RunToEnd();
    Metrics m = sim->GetMetrics();
    ASSERT_TRUE(sim->invariant_status().ok()) << "run " << i << ": " << sim->invariant_status().message();
    ASSERT_GE(m.power_failures, 1u) << "run " << i;
    ASSERT_EQ(m.lost_pages, 0u) << "run " << i << ": capacitors must cover the buffer";
    ASSERT_EQ(sim->last_recovery().unresolved, 0u) << "run " << i << ": a checkpoint entry had no surviving page";
    ASSERT_FALSE(m.time_limited) << "run " << i << ": the device must keep working after recovery";
    Status after = sim->ftl().CheckInvariants();
    ASSERT_TRUE(after.ok()) << "run " << i << " at the end: " << after.message();
    recovered += m.power_failures;
    torn_or_saved += m.saved_pages;
  }
  EXPECT_GE(recovered, 1000u);
  EXPECT_GT(torn_or_saved, 0u) << "some failures must have caught dirty buffer pages";
}

TEST(PowerFailTest, WithoutCapacitorsBufferedWritesAreLostAndReported) {
  uint64_t lost = 0, torn = 0;
  Rng pick(5);
  Scenario base = CrashScenario(3);
  const SimTime span = UninterruptedEnd(base);
  for (int i = 0; i < 100; ++i) {
    Scenario s = CrashScenario(3);
    s.device.ftl.buffer.power_loss_protection = false;
    s.faults.power_fail_at_ns = {pick.Below(span)};
    auto sim = MustCreate(s);
    sim->RunToEnd();
    // The mapping must still be consistent with what reached the flash.
    ASSERT_TRUE(sim->invariant_status().ok()) << sim->invariant_status().message();
    lost += sim->GetMetrics().lost_pages;
    torn += sim->GetMetrics().torn_pages;
  }
  EXPECT_GT(lost, 0u) << "a write-back buffer without capacitors loses acknowledged data";
  EXPECT_GT(torn, 0u) << "programs cut by the power loss are torn";
}

TEST(PowerFailTest, RecoveryIsDeterministic) {
  Rng pick(11);
  Scenario base = CrashScenario(4);
  const SimTime span = UninterruptedEnd(base);
  for (int i = 0; i < 20; ++i) {
    Scenario s = CrashScenario(4);
    s.faults.power_fail_at_ns = {pick.Below(span)};
    auto a = MustCreate(s);
    auto b = MustCreate(s);
    a->RunToEnd();
    b->RunToEnd();
    for (int step = 0; step < 7; ++step)
      ASSERT_EQ(a->last_recovery().step_ns[step], b->last_recovery().step_ns[step]);
    ASSERT_EQ(a->last_recovery().pages_scanned, b->last_recovery().pages_scanned);
    auto ja = MetricsToJson(a->GetMetrics()), jb = MetricsToJson(b->GetMetrics());
    ja["sim"].erase("wall_s");
    jb["sim"].erase("wall_s");
    ASSERT_EQ(ja.dump(), jb.dump());
  }
}

TEST(PowerFailTest, OpenLoopFlowsResumeAfterRecovery) {
  Scenario s = SmallScenario();
  s.run.check_invariants = true;
  FlowConfig f = RandomFlow(0.3, 4096, 4, 4000);
  f.arrival_rate_iops = 200000;  // faster than the device: a backlog builds up
  s.workload.flows = {f};
  s.faults.power_fail_at_ns = {10'000'000};
  auto sim = MustCreate(s);
  sim->RunToEnd();
  Metrics m = sim->GetMetrics();
  EXPECT_FALSE(m.time_limited);
  EXPECT_EQ(m.requests + m.failed_by_power + m.dropped_arrivals, 4000u);
  EXPECT_GT(m.end_ns, 10'000'000u + sim->last_recovery().step_ns[1]);
}

TEST(PowerFailTest, CheckpointsShortenTheRecoveryScan) {
  auto scanned = [](bool checkpoint) {
    Scenario s = CrashScenario(6);
    s.device.ftl.checkpoint.enabled = checkpoint;
    s.faults.power_fail_at_ns = {UninterruptedEnd(s) / 2};
    auto sim = MustCreate(s);
    sim->RunToEnd();
    EXPECT_TRUE(sim->invariant_status().ok()) << sim->invariant_status().message();
    return sim->last_recovery().pages_scanned;
  };
  uint64_t with = scanned(true), without = scanned(false);
  EXPECT_GT(without, 0u);
  EXPECT_LT(with * 2, without) << "a checkpoint leaves only recent pages to scan";
}

TEST(PowerFailTest, RecoveryStepsAreRecordedInOrder) {
  Scenario s = CrashScenario(8);
  s.observation.ring_records = 1 << 21;  // keep every record of the run
  s.faults.power_fail_at_ns = {UninterruptedEnd(s) / 3};
  auto sim = MustCreate(s);
  sim->RunToEnd();
  std::vector<Record> records(sim->records().Unread());
  records.resize(sim->records().Drain(records.data(), records.size()));
  std::vector<uint32_t> steps;
  bool saw_power_fail = false;
  for (const Record& r : records) {
    if (r.kind == RecordKind::kPowerFail) saw_power_fail = true;
    if (r.kind == RecordKind::kRecoveryStep) steps.push_back(r.id);
  }
  EXPECT_TRUE(saw_power_fail);
  std::vector<uint32_t> expected = {0, 1, 2, 3, 4, 5, 6};
  EXPECT_EQ(steps, expected);
}

}  // namespace
}  // namespace ssdp
