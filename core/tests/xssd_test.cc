// The X-SSD fast side: credit counter, credit protocol, destage, replication
// and the crash protocol, against the paper's claims and the invariants that
// make the fast side safe to acknowledge.
#include <gtest/gtest.h>

#include <string>

#include "scenario/scenario_loader.h"
#include "test_util.h"
#include "xssd/cmb_ring.h"

namespace ssdp {
namespace {

Scenario Load(const std::string& name, std::vector<std::string> sets = {}) {
  Scenario s;
  Status st = LoadScenarioFile(std::string(SSDP_SCENARIO_DIR) + "/xssd/" + name, sets, &s);
  EXPECT_TRUE(st.ok()) << st.message();
  return s;
}

Metrics RunScenario(const Scenario& s) { return testing::RunToEnd(s); }

TEST(CmbRingTest, CounterAdvancesOnlyOverContiguousBytes) {
  DramPort memory(4000);
  CmbRing ring(CmbRingParams{.ring_bytes = 4096, .queue_bytes = 1024, .bus_bytes = 16, .access_ns = 0}, &memory);
  // Chunk 64..128 arrives first: it lands, but the counter may not pass the gap at 0.
  ASSERT_TRUE(ring.Arrive(64, 64, 100));
  EXPECT_EQ(ring.CounterAt(1000), 0u);
  EXPECT_EQ(ring.LandedBeyondGapAt(1000), 64u);
  ASSERT_TRUE(ring.Arrive(0, 64, 2000));
  EXPECT_EQ(ring.CounterAt(1999), 0u);
  EXPECT_EQ(ring.CounterAt(3000), 128u);  // the gap filled: both count at once
  EXPECT_EQ(ring.TimeCounterReaches(128), ring.TimeCounterReaches(1));
}

TEST(CmbRingTest, AChunkBeyondTheQueueIsAnOverrunAndLeavesAPermanentGap) {
  DramPort memory(100);  // 0.1 GB/s: slower than the arrivals
  CmbRing ring(CmbRingParams{.ring_bytes = 1 << 20, .queue_bytes = 256, .bus_bytes = 16, .access_ns = 0}, &memory);
  uint64_t pos = 0;
  int overruns = 0;
  for (int i = 0; i < 16; ++i, pos += 64) overruns += ring.Arrive(pos, 64, 10 * i) ? 0 : 1;
  EXPECT_GT(overruns, 0);
  EXPECT_TRUE(ring.Overrun());
  EXPECT_LE(ring.stats().max_queue_bytes, 256u);
  // The counter stops at the first dropped chunk for good.
  uint64_t end = ring.CounterAt(kNever - 1);
  EXPECT_LT(end, pos);
  ring.Arrive(pos, 64, 1'000'000);
  EXPECT_EQ(ring.CounterAt(kNever - 1), end);
}

TEST(CmbRingTest, AFullRingHoldsChunksUntilSpaceIsFreed) {
  DramPort memory(4000);
  CmbRing ring(CmbRingParams{.ring_bytes = 256, .queue_bytes = 1024, .bus_bytes = 16, .access_ns = 0}, &memory);
  for (uint64_t pos = 0; pos < 512; pos += 64) ASSERT_TRUE(ring.Arrive(pos, 64, 0));
  EXPECT_EQ(ring.KnownCounter(), 256u);
  EXPECT_GT(ring.stats().ring_full_waits, 0u);
  ring.FreeTo(128, 5000);
  EXPECT_EQ(ring.KnownCounter(), 384u);
  EXPECT_GE(ring.TimeCounterReaches(384), 5000u);
}

TEST(XssdTest, AWellBehavedHostNeverOverrunsTheQueue) {
  Scenario s = Load("log-sram.json", {"device.xssd.cmb.queue_bytes=4096", "workload.db_log.workers=8"});
  auto sim = testing::MustCreate(s);
  sim->RunToEnd();
  Metrics m = sim->GetMetrics();
  EXPECT_EQ(m.xssd["overrun_bytes"], 0u);
  EXPECT_LE(m.xssd["max_queue_bytes"].get<uint64_t>(), 4096u);
  EXPECT_GT(m.db_log["transactions"].get<uint64_t>(), 5000u);
  // Every byte written was persisted and counted.
  EXPECT_EQ(m.xssd["credit_counter"], m.xssd["host_tail"]);
}

TEST(XssdTest, AHostThatIgnoresCreditsIsDetected) {
  // A slow DRAM path: written past the credits, the queue overflows.
  Scenario s = Load("write-combining.json", {"device.xssd.cmb.backing=dram", "device.xssd.cmb.backing_mbps=200",
                                             "device.xssd.cmb.queue_bytes=1024", "device.xssd.host.honor_credits=false"});
  Metrics m = RunScenario(s);
  EXPECT_GT(m.xssd["overrun_bytes"].get<uint64_t>(), 0u);
  EXPECT_TRUE(m.xssd["status_bits"].get<uint32_t>() & kXssdStatusOverrun);
  EXPECT_TRUE(m.db_log["fatal_overrun"].get<bool>());
  // Never silently absorbed: the counter stops short of what was written.
  EXPECT_LT(m.xssd["credit_counter"].get<uint64_t>(), m.xssd["host_tail"].get<uint64_t>());
  // The same host honoring the credits is fine.
  s.device.xssd.host.honor_credits = true;
  Metrics ok = RunScenario(s);
  EXPECT_EQ(ok.xssd["overrun_bytes"], 0u);
}

TEST(XssdTest, NothingAcknowledgedIsLostAtManyPowerFailureInstants) {
  Scenario base = Load("crash.json");
  base.run.check_invariants = true;
  int with_extra_tail = 0, with_gap_drop = 0, with_capacitor_destage = 0;
  for (int i = 0; i < 40; ++i) {
    Scenario s = base;
    s.seed = 100 + i;
    s.faults.power_fail_at_ns = {2'000'000 + uint64_t(i) * 137'731};
    auto sim = testing::MustCreate(s);
    sim->RunToEnd();
    ASSERT_TRUE(sim->invariant_status().ok()) << "instant " << i << ": " << sim->invariant_status().message();
    const XssdCrashReport& c = sim->xssd()->last_crash();
    ASSERT_TRUE(c.happened);
    EXPECT_EQ(c.lost_acknowledged, 0u) << "instant " << i;
    EXPECT_GE(c.durable_after_reboot, c.host_acknowledged);
    // The readable tail is exactly the contiguous prefix: it stops at the first gap.
    EXPECT_EQ(c.durable_after_reboot, c.counter_at_loss) << "instant " << i;
    with_extra_tail += c.durable_after_reboot > c.host_acknowledged;
    with_gap_drop += c.beyond_gap > 0;
    with_capacitor_destage += c.capacitor_pages > 0;
    // The database read the extra tail back through the conventional side.
    const DbLogStats& d = sim->db_log()->stats();
    EXPECT_EQ(d.tail_read_bytes, c.durable_after_reboot - std::min(c.durable_after_reboot, c.host_acknowledged))
        << "instant " << i;
  }
  // The instants must exercise every path of the protocol.
  EXPECT_GT(with_extra_tail, 0);
  EXPECT_GT(with_gap_drop, 0);
  EXPECT_GT(with_capacitor_destage, 0);
}

TEST(XssdTest, WithEagerReplicationTheHostNeverSeesMoreThanTheSecondaryHolds) {
  for (int i = 0; i < 12; ++i) {
    Scenario s = Load("replication.json");
    s.seed = 200 + i;
    s.device.xssd.cmb.reorder_window = 8;
    const SimTime loss = 3'000'000 + uint64_t(i) * 1'111'111;
    s.faults.power_fail_at_ns = {loss};
    s.run.check_invariants = true;
    auto sim = testing::MustCreate(s);
    for (SimTime t = 500'000; t < loss; t += 500'000) {
      sim->RunUntil(t);
      ASSERT_LE(sim->xssd()->HostAcknowledged(), sim->xssd()->transport().Ring(0).CounterAt(t)) << "at " << t;
      ASSERT_LE(sim->xssd()->transport().Shadow(0, t), sim->xssd()->transport().Ring(0).CounterAt(t));
    }
    sim->RunUntil(loss - 1);
    const uint64_t acknowledged = sim->xssd()->HostAcknowledged();
    const uint64_t secondary = sim->xssd()->transport().Ring(0).CounterAt(loss - 1);
    sim->RunToEnd();
    ASSERT_TRUE(sim->invariant_status().ok()) << sim->invariant_status().message();
    const XssdCrashReport& c = sim->xssd()->last_crash();
    // Acknowledged means on both: the primary's readable tail and the secondary's ring cover it.
    EXPECT_EQ(c.lost_acknowledged, 0u);
    EXPECT_GE(c.durable_after_reboot, acknowledged);
    EXPECT_GE(secondary, acknowledged);
  }
}

TEST(XssdTest, ADestageOnABadBlockIsRetriedElsewhere) {
  Scenario s = Load("log-sram.json", {"device.flash.program_fail_probability=0.01"});
  s.faults.power_fail_at_ns = {15'000'000};
  s.run.check_invariants = true;
  auto sim = testing::MustCreate(s);
  sim->RunToEnd();
  EXPECT_TRUE(sim->invariant_status().ok()) << sim->invariant_status().message();
  EXPECT_GT(sim->xssd()->destager().stats().retries, 0u);
  EXPECT_EQ(sim->xssd()->last_crash().lost_acknowledged, 0u);
}

TEST(XssdTest, ALinkFailureStallsTheCounterAndNeverLosesAcknowledgedData) {
  Scenario s = Load("link-failure.json");
  auto sim = testing::MustCreate(s);
  // Before the failure the host's counter follows the secondary's shadow.
  sim->RunUntil(4'900'000);
  uint64_t before = sim->xssd()->HostAcknowledged();
  EXPECT_LE(before, sim->xssd()->transport().Ring(0).CounterAt(4'900'000));
  // After it, and before the drop command, nothing new is acknowledged.
  sim->RunUntil(5'200'000);
  uint64_t stalled = sim->xssd()->HostAcknowledged();
  sim->RunUntil(7'900'000);
  EXPECT_EQ(sim->xssd()->HostAcknowledged(), stalled);
  EXPECT_TRUE(sim->xssd()->StatusBits() & kXssdStatusLinkDown);
  // Dropping the secondary lets the log go on.
  sim->RunToEnd();
  Metrics m = sim->GetMetrics();
  EXPECT_GT(sim->xssd()->HostAcknowledged(), stalled);
  EXPECT_GT(m.db_log["fsync_errors"].get<uint64_t>(), 0u);
}

TEST(XssdTest, SlowerCounterUpdatesWidenTheReplicationDelay) {
  Metrics fast = RunScenario(Load("replication.json"));
  Metrics slow = RunScenario(Load("replication.json", {"device.xssd.transport.secondaries[0].update_period_ns=1600"}));
  const auto& f = fast.xssd["secondaries"][0];
  const auto& l = slow.xssd["secondaries"][0];
  ASSERT_GT(f["repl_delay_count"].get<uint64_t>(), 50u);
  double spread_fast = f["repl_delay_max_us"].get<double>() - f["repl_delay_min_us"].get<double>();
  double spread_slow = l["repl_delay_max_us"].get<double>() - l["repl_delay_min_us"].get<double>();
  EXPECT_GT(spread_slow, spread_fast);
  EXPECT_GT(l["repl_delay_max_us"].get<double>(), f["repl_delay_max_us"].get<double>());
  // The paper's range: a few microseconds.
  EXPECT_GT(f["repl_delay_min_us"].get<double>(), 3.0);
  EXPECT_LT(l["repl_delay_max_us"].get<double>(), 10.0);
  // Four times the updates, four times the bandwidth.
  EXPECT_NEAR(fast.xssd["update_share"].get<double>(), 4 * slow.xssd["update_share"].get<double>(), 1e-9);
}

TEST(XssdTest, EagerReplicationMakesCommitsWaitForTheSecondary) {
  Metrics eager = RunScenario(Load("replication.json"));
  Metrics lazy = RunScenario(Load("replication.json", {"device.xssd.transport.replication=lazy"}));
  Metrics alone = RunScenario(Load("log-sram.json"));
  EXPECT_GT(eager.db_log["flush_us_mean"].get<double>(), lazy.db_log["flush_us_mean"].get<double>());
  EXPECT_NEAR(lazy.db_log["flush_us_mean"].get<double>(), alone.db_log["flush_us_mean"].get<double>(), 1.0);
}

TEST(XssdTest, WriteCombiningBeatsUncachedAndGrowsWithTheChunk) {
  auto throughput = [](const char* mode, int chunk) {
    Metrics m = RunScenario(Load("write-combining.json", {std::string("device.xssd.host.write_mode=") + mode,
                                                  "device.xssd.host.chunk_bytes=" + std::to_string(chunk)}));
    return 32768.0 / m.db_log["flush_us_mean"].get<double>();
  };
  double wc64 = throughput("write-combining", 64), wc16 = throughput("write-combining", 16);
  double wc1 = throughput("write-combining", 1), uc64 = throughput("uncached", 64), uc1 = throughput("uncached", 1);
  EXPECT_GT(wc64, wc16);
  EXPECT_GT(wc16, wc1);
  EXPECT_GT(wc64, uc64);
  EXPECT_GT(wc1, uc1);
}

TEST(XssdTest, OnDramSixteenByteChunksAreEnoughOnSramOnly64Are) {
  auto throughput = [](const char* backing, int chunk) {
    Metrics m = RunScenario(Load("write-combining.json", {std::string("device.xssd.cmb.backing=") + backing,
                                                          "device.xssd.host.chunk_bytes=" + std::to_string(chunk)}));
    return 32768.0 / m.db_log["flush_us_mean"].get<double>();
  };
  double d16 = throughput("dram", 16), d64 = throughput("dram", 64), d8 = throughput("dram", 8);
  EXPECT_NEAR(d16 / d64, 1.0, 0.05);
  EXPECT_LT(d8, 0.8 * d64);
  EXPECT_GT(throughput("sram", 64), 1.5 * throughput("sram", 16));
}

TEST(XssdTest, ConventionalPriorityProtectsTheConventionalWorkload) {
  const std::string fast = "workload.db_log.txn_compute_ns=312000";  // 60% of the flash
  Metrics neutral = RunScenario(Load("destage-neutral.json", {fast}));
  Metrics conventional = RunScenario(Load("destage-conventional-priority.json", {fast}));
  Metrics alone = RunScenario(Load("destage-neutral.json", {"workload.db_log.enabled=false"}));
  // Neutral: both lose once they ask for more than the flash gives.
  EXPECT_LT(neutral.mbps, 0.9 * alone.mbps);
  // Conventional priority: the conventional side keeps its bandwidth...
  EXPECT_GT(conventional.mbps, 0.97 * alone.mbps);
  // ...and the fast side gets less than under neutral.
  EXPECT_LT(conventional.db_log["log_mbps"].get<double>(), neutral.db_log["log_mbps"].get<double>());
}

TEST(XssdTest, LoggingToTheFastSideBeatsTheConventionalSide) {
  Metrics cmb = RunScenario(Load("log-sram.json", {"workload.db_log.workers=8"}));
  Metrics nvme = RunScenario(Load("log-nvme.json", {"workload.db_log.workers=8"}));
  Metrics none = RunScenario(Load("log-none.json", {"workload.db_log.workers=8"}));
  EXPECT_LT(cmb.db_log["latency_mean_us"].get<double>(), nvme.db_log["latency_mean_us"].get<double>() / 4);
  EXPECT_GT(cmb.db_log["txn_per_s"].get<double>(), 1.5 * nvme.db_log["txn_per_s"].get<double>());
  EXPECT_GT(cmb.db_log["txn_per_s"].get<double>(), 0.95 * none.db_log["txn_per_s"].get<double>());
  // More workers fill the 16 KiB group sooner: latency falls.
  Metrics one = RunScenario(Load("log-sram.json", {"workload.db_log.workers=1"}));
  EXPECT_GT(one.db_log["latency_mean_us"].get<double>(), 2 * cmb.db_log["latency_mean_us"].get<double>());
}

TEST(XssdTest, TheAllocatorViewHoldsTheDestageUntilFreed) {
  // The log writer starts late: the test is the host here.
  Scenario s = Load("log-sram.json", {"workload.db_log.start_ns=100000000"});
  auto sim = testing::MustCreate(s);
  XssdDevice* x = sim->mutable_xssd();
  uint64_t area = x->Alloc(65536);
  x->HostWrite(area, 65536, 0);
  sim->RunUntil(3'000'000);
  EXPECT_EQ(x->ring().CounterAt(3'000'000), 65536u);
  EXPECT_EQ(x->destager().DurablePos(), 0u);  // not destaged while allocated
  x->Free(area, 3'000'000);
  sim->RunUntil(6'000'000);
  EXPECT_EQ(x->destager().DurablePos(), 65536u);
}

TEST(XssdTest, APartialPageIsPaddedWithFillerOnceItWaitedTheThreshold) {
  // 2 KiB groups every ~100 us: a page never fills before the threshold.
  Scenario s = Load("log-sram.json", {"workload.db_log.group_commit_bytes=2048"});
  Metrics m = RunScenario(s);
  const uint64_t page = s.device.geometry.page_bytes;
  uint64_t pages = m.xssd["destage_pages"], filler_pages = m.xssd["destage_filler_pages"];
  EXPECT_GT(filler_pages, 0u);
  EXPECT_EQ(pages * page, m.xssd["destage_payload_bytes"].get<uint64_t>() + m.xssd["destage_filler_bytes"].get<uint64_t>());
  // With a threshold longer than the run, only full pages are cut.
  s.device.xssd.destage.latency_threshold_ns = 1'000'000'000;
  Metrics patient = RunScenario(s);
  EXPECT_EQ(patient.xssd["destage_filler_pages"], 0u);
  EXPECT_LT(patient.xssd["destage_pages"].get<uint64_t>(), pages);
}

TEST(XssdTest, ChainReplicationAcknowledgesWhatTheLastSecondaryHas) {
  Scenario s = Load("replication.json", {"device.xssd.transport.replication=chain"});
  s.device.xssd.transport.secondaries.push_back(s.device.xssd.transport.secondaries[0]);
  auto sim = testing::MustCreate(s);
  for (SimTime t = 1'000'000; t <= 20'000'000; t += 1'000'000) {
    sim->RunUntil(t);
    // The host never sees more than the end of the chain holds.
    EXPECT_LE(sim->xssd()->HostAcknowledged(), sim->xssd()->transport().Ring(1).CounterAt(t));
  }
  sim->RunToEnd();
  const Transport& tr = sim->xssd()->transport();
  EXPECT_GT(tr.Status(1).repl_delay.Percentile(50), tr.Status(0).repl_delay.Percentile(50));
}

TEST(XssdTest, AdminCommandsSwitchTheTransportRole) {
  Scenario s = Load("replication.json");
  s.device.xssd.transport.commands = {{.at_ns = 10'000'000, .kind = TransportCommandKind::kToStandalone}};
  auto sim = testing::MustCreate(s);
  sim->RunUntil(9'000'000);
  EXPECT_TRUE(sim->xssd()->transport().IsPrimary());
  EXPECT_GT(sim->xssd()->transport().UpdateShare(), 0.0);
  sim->RunToEnd();
  Metrics m = sim->GetMetrics();
  EXPECT_EQ(m.xssd["role"], "standalone");
  EXPECT_EQ(m.xssd["update_share"].get<double>(), 0.0);
  // Standalone, the secondary stops receiving: it holds about half the log.
  uint64_t mirrored = m.xssd["secondaries"][0]["mirrored_bytes"];
  EXPECT_LT(mirrored, m.xssd["host_tail"].get<uint64_t>() * 6 / 10);
  EXPECT_GT(mirrored, m.xssd["host_tail"].get<uint64_t>() * 4 / 10);
}

TEST(XssdTest, AScenarioThatWouldNeverAdvanceTimeIsRefused) {
  Scenario s;
  Status st = LoadScenarioFile(std::string(SSDP_SCENARIO_DIR) + "/xssd/log-none.json",
                               {"workload.db_log.txn_compute_ns=0"}, &s);
  EXPECT_NE(st.message().find("workload.db_log.txn_compute_ns: 0 with target \"none\""), std::string::npos)
      << st.message();
  st = LoadScenarioFile(std::string(SSDP_SCENARIO_DIR) + "/xssd/log-sram.json",
                        {"workload.db_log.target=cmb", "device.xssd.enabled=false"}, &s);
  EXPECT_NE(st.message().find("workload.db_log.target"), std::string::npos) << st.message();
}

TEST(XssdTest, SameScenarioSameResult) {
  Scenario s = Load("crash.json");
  Metrics a = RunScenario(s), b = RunScenario(s);
  EXPECT_EQ(MetricsToJson(a).dump(), MetricsToJson(b).dump());
}

}  // namespace
}  // namespace ssdp
