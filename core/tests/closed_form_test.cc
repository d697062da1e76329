// Closed-form checks: the model must agree with arithmetic a reader can do by
// hand from the datasheet numbers.
#include <gtest/gtest.h>

#include <algorithm>

#include "flash/timing.h"
#include "host/pcie_link.h"
#include "test_util.h"

namespace ssdp {
namespace {

using testing::MustCreate;
using testing::RunToEnd;
using testing::SmallScenario;

// Sequential 128 KiB writes with GC off, on a fresh device, through a tiny
// buffer so that the buffer's head start is negligible.
double SequentialWriteMBps(uint32_t channel_mtps, uint32_t bus_bits) {
  Scenario s = SmallScenario();
  auto& g = s.device.geometry;
  g.channels = 2;
  g.chips_per_channel = 4;
  g.planes_per_die = 2;
  g.blocks_per_plane = 256;
  g.pages_per_block = 128;
  s.device.flash.channel_mtps = channel_mtps;
  s.device.flash.bus_width_bits = bus_bits;
  s.device.ftl.gc.enabled = false;
  s.device.ftl.checkpoint.enabled = false;
  s.device.ftl.buffer.capacity_bytes = 1 << 20;
  FlowConfig f;
  f.pattern = AccessPattern::kSequential;
  f.sizes = {{128 << 10, 1}};
  f.queue_depth = 8;
  f.requests = 4096;  // 512 MiB
  s.workload.flows = {f};
  Metrics m = RunToEnd(s);
  EXPECT_EQ(m.requests, 4096u);
  EXPECT_EQ(m.gc_runs, 0u);
  return m.mbps;
}

TEST(ClosedFormTest, SequentialWriteIsProgramBoundWhenChannelsAreFast) {
  // 8 dies x 2 planes x 8 KiB per 750 us program = 174.8 MB/s; the channels
  // (2 x 1600 MB/s) are not the limit.
  const double dies = 8, planes = 2, page = 8192, t_prog_s = 750e-6;
  const double channel_mbps = 2 * 800.0 * 2;  // 2 channels x 800 MT/s x 2 bytes
  double expected = std::min(channel_mbps, dies * planes * page / t_prog_s / 1e6);
  double got = SequentialWriteMBps(800, 16);
  EXPECT_NEAR(got, expected, expected * 0.05) << "expected min(channel, dies x page / tPROG)";
}

TEST(ClosedFormTest, SequentialWriteIsChannelBoundWhenChannelsAreSlow) {
  // 2 channels x 50 MT/s x 1 byte = 100 MB/s, below the 174.8 MB/s the dies
  // could program.
  const double channel_mbps = 2 * 50.0;
  double expected = std::min(channel_mbps, 8 * 2 * 8192 / 750e-6 / 1e6);
  double got = SequentialWriteMBps(50, 8);
  EXPECT_NEAR(got, expected, expected * 0.05);
}

TEST(ClosedFormTest, ReadLatencyAtQueueDepthOneIsTheSumOfItsStages) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 1.0;  // every page mapped, buffer empty
  s.workload.flows = {testing::RandomFlow(1.0, 4096, 1, 200)};
  Metrics m = RunToEnd(s);
  ASSERT_EQ(m.reads, 200u);

  const PcieConfig& pcie = s.device.host_interface.pcie;
  const double rate = PcieLink::LaneBytesPerNs(pcie.generation) * pcie.lanes;
  auto wire_ns = [&](double payload) {
    double tlps = std::max(1.0, std::ceil(payload / pcie.max_payload_bytes));
    return (payload + tlps * pcie.tlp_overhead_bytes) / rate + pcie.latency_ns;
  };
  FlashTiming t = FlashTiming::From(s.device.geometry, s.device.flash);
  double expected = wire_ns(4) + wire_ns(0) + wire_ns(64)  // doorbell, fetch request, entry
                    + s.device.ftl.translation_ns            // FTL
                    + t.command_ns + t.read_ns + 8192 / t.channel_bytes_per_ns  // tR + page out
                    + wire_ns(4096)                            // data to the host
                    + wire_ns(16) + s.device.host_interface.nvme.interrupt_ns;  // CQE + interrupt
  EXPECT_NEAR(m.read_lat.mean_us * 1000, expected, expected * 0.01);
  EXPECT_NEAR(m.read_lat.p99_us * 1000, expected, expected * 0.01) << "QD1 reads on idle dies never queue";
}

// A QD1 write of one whole page: with an eager flush it completes at buffer
// speed; on demand, once the buffer is full, it waits for the program of the
// page it displaces (the Cosmos+ "buffered write"), so the program dominates.
Metrics QdOneWrites(FlushPolicy policy) {
  Scenario s = SmallScenario();
  s.device.geometry.page_bytes = 4096;
  s.device.ftl.buffer.capacity_bytes = 64 * 4096;
  s.device.ftl.buffer.flush_policy = policy;
  s.device.ftl.checkpoint.enabled = false;
  s.device.ftl.gc.enabled = false;
  FlowConfig f = testing::RandomFlow(0.0, 4096, 1, 2000);
  f.pattern = AccessPattern::kSequential;
  s.workload.flows = {f};
  return RunToEnd(s);
}

TEST(ClosedFormTest, OnDemandFlushMakesTheProgramPartOfEveryWrite) {
  Metrics eager = QdOneWrites(FlushPolicy::kEager);
  Metrics on_demand = QdOneWrites(FlushPolicy::kOnDemand);
  Scenario s = SmallScenario();
  s.device.geometry.page_bytes = 4096;
  FlashTiming t = FlashTiming::From(s.device.geometry, s.device.flash);
  const double buffered_us = eager.write_lat.p50_us;
  const double expected_us = buffered_us + (t.command_ns + t.page_transfer_ns + t.program_ns) / 1000.0;
  EXPECT_LT(buffered_us, 20.0) << "an eager buffer absorbs QD1 writes";
  EXPECT_NEAR(on_demand.write_lat.p50_us, expected_us, expected_us * 0.02);
  EXPECT_EQ(on_demand.flush_programs + 64, on_demand.host_pages_written) << "one flush per displaced page";
}

TEST(ClosedFormTest, ReadsOfNeverWrittenPagesSkipTheFlash) {
  Scenario s = SmallScenario();
  s.workload.flows = {testing::RandomFlow(1.0, 4096, 4, 500)};
  Metrics m = RunToEnd(s);
  EXPECT_EQ(m.reads, 500u);
  EXPECT_EQ(m.flash_reads, 0u);
}

}  // namespace
}  // namespace ssdp
