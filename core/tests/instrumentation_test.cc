// The instrumented SSD: a device-side record cache, freezing triggers,
// vendor commands and DRAM contention.
#include <gtest/gtest.h>

#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace ssdp {
namespace {

using testing::MustCreate;
using testing::RandomFlow;
using testing::RunToEnd;
using testing::SmallScenario;

Scenario Instrumented(uint32_t depth, uint64_t requests) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.6;
  s.device.instrumentation.enabled = true;
  s.device.instrumentation.cache_bytes = 256 << 10;  // 8,192 records of 32 bytes
  FlowConfig f = RandomFlow(0.3, 4096, depth, requests);
  f.lba_end_fraction = 0.6;
  s.workload.flows = {f};
  return s;
}

TEST(InstrumentationTest, TheCacheWrapsAndReportsTheHistoryItHolds) {
  Scenario s = Instrumented(8, 20000);
  auto sim = MustCreate(s);
  sim->RunToEnd();
  const InstrumentationCache* cache = sim->instrumentation();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->CapacityRecords(), 8192u);
  EXPECT_EQ(cache->Held(), 8192u);
  EXPECT_GT(cache->Overwritten(), 0u);
  EXPECT_EQ(cache->Written(), sim->GetMetrics().records_written) << "every emitted record reaches the cache";
  // The held records span about capacity / rate of simulated time.
  double expected_s = cache->CapacitySeconds();
  EXPECT_NEAR(double(cache->HistorySpanNs()) / 1e9, expected_s, expected_s * 0.5);
  Metrics m = sim->GetMetrics();
  EXPECT_TRUE(m.instr_enabled);
  EXPECT_GT(m.instr_records_per_s, 0);
}

TEST(InstrumentationTest, AThresholdTriggerFreezesTheCache) {
  Scenario s = Instrumented(16, 20000);
  s.device.instrumentation.trigger.kind = TriggerKind::kThreshold;
  s.device.instrumentation.trigger.threshold_ns = 1'500'000;  // a read queued behind an erase
  auto sim = MustCreate(s);
  sim->RunToEnd();
  const InstrumentationCache* cache = sim->instrumentation();
  ASSERT_TRUE(cache->Triggered());
  ASSERT_TRUE(cache->frozen());
  EXPECT_LT(cache->Written(), sim->GetMetrics().records_written) << "nothing is written once frozen";
  // The trigger record is the last thing the cache kept.
  std::vector<Record> held;
  cache->Snapshot(&held);
  ASSERT_FALSE(held.empty());
  EXPECT_EQ(held.back().kind, RecordKind::kInstrTrigger);
  EXPECT_GT(held.back().a, 1'500'000u);
}

TEST(InstrumentationTest, AContextualTriggerIgnoresSlowStepsOnAQuietDevice) {
  // At queue depth 1 nothing else is in flight, so a contextual trigger that
  // wants 4 commands in flight never fires, where a plain threshold does.
  for (TriggerKind kind : {TriggerKind::kThreshold, TriggerKind::kContextual}) {
    Scenario s = Instrumented(1, 5000);
    s.device.instrumentation.trigger.kind = kind;
    s.device.instrumentation.trigger.threshold_ns = 500'000;
    s.device.instrumentation.trigger.min_outstanding = 4;
    auto sim = MustCreate(s);
    sim->RunToEnd();
    EXPECT_EQ(sim->instrumentation()->Triggered(), kind == TriggerKind::kThreshold);
  }
}

TEST(InstrumentationTest, PostTriggerWindowKeepsRecording) {
  Scenario s = Instrumented(16, 20000);
  s.device.instrumentation.trigger.kind = TriggerKind::kThreshold;
  s.device.instrumentation.trigger.threshold_ns = 1'500'000;
  s.device.instrumentation.trigger.post_trigger_ns = 2'000'000;
  auto sim = MustCreate(s);
  sim->RunToEnd();
  const InstrumentationCache* cache = sim->instrumentation();
  ASSERT_TRUE(cache->frozen());
  std::vector<Record> held;
  cache->Snapshot(&held);
  SimTime trigger_at = 0;
  for (const Record& r : held)
    if (r.kind == RecordKind::kInstrTrigger) trigger_at = r.time_ns;
  ASSERT_GT(trigger_at, 0u);
  EXPECT_EQ(cache->frozen_at(), trigger_at + 2'000'000);
}

TEST(InstrumentationTest, TransferMovesTheCacheOverPcie) {
  Scenario s = Instrumented(8, 10000);
  InstrumentationCommand transfer;
  transfer.at_ns = 20'000'000;
  s.device.instrumentation.commands = {transfer};
  auto sim = MustCreate(s);
  sim->RunToEnd();
  Metrics m = sim->GetMetrics();
  EXPECT_EQ(m.instr_transfers, 1u);
  EXPECT_EQ(m.instr_bytes_transferred, sim->transferred_records().size() * 32);
  EXPECT_GT(sim->transferred_records().size(), 1000u);
  for (const Record& r : sim->transferred_records()) ASSERT_LE(r.time_ns, 20'000'000u);
}

TEST(InstrumentationTest, SamplingAndPointCommandsChangeWhatIsRecorded) {
  Scenario base = Instrumented(8, 10000);
  uint64_t all = RunToEnd(base).records_written;
  Scenario sampled = base;
  InstrumentationCommand sample;
  sample.kind = InstrCommandKind::kSample;
  sample.one_in = 10;
  InstrumentationCommand off;
  off.kind = InstrCommandKind::kDisablePoint;
  off.point = uint32_t(RecordKind::kFlashOpStart);
  sampled.device.instrumentation.commands = {sample, off};
  uint64_t fewer = RunToEnd(sampled).records_written;
  EXPECT_LT(fewer * 2, all);
}

TEST(InstrumentationTest, DramContentionCanCostPerformance) {
  // Large records on a slow DRAM port, under a workload the flash does not
  // limit (reads of never-written pages move data only through the
  // controller): recording competes with the data for DRAM, as the
  // instrumented SSD paper measured.
  auto run = [](bool contention) {
    Scenario s = SmallScenario();
    s.device.instrumentation.enabled = true;
    s.device.instrumentation.record_bytes = 256;
    s.device.instrumentation.dram_contention = contention;
    s.device.instrumentation.dram_mbps = 400;
    s.workload.flows = {RandomFlow(1.0, 4096, 32, 20000)};
    return RunToEnd(s);
  };
  Metrics quiet = run(false), contended = run(true);
  EXPECT_GT(contended.instr_dram_utilization, 0.5);
  EXPECT_LT(contended.iops, quiet.iops * 0.5);
  EXPECT_EQ(contended.flash_reads, 0u);
}

TEST(InstrumentationTest, CommandsAreValidatedWithTheirPath) {
  Scenario s;
  Status st = ParseScenarioText(
      R"({"device": {"instrumentation": {"commands": [{"at_ns": 5, "command": "disable_point", "point": "nope"}]}}})",
      &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("device.instrumentation.commands[0].point"), std::string::npos) << st.message();
  st = ParseScenarioText(
      R"({"device": {"instrumentation": {"commands": [{"at_ns": 9, "command": "sample"}, {"at_ns": 5}]}}})", &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("device.instrumentation.commands[1].at_ns"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace ssdp
