// Helpers shared by the model tests: small scenarios built in code.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "scenario/scenario.h"
#include "sim/simulation.h"

namespace ssdp::testing {

// A small device that runs fast: 2 channels x 2 chips x 1 die x 2 planes,
// 64 blocks x 32 pages of 8 KiB, 12% over-provisioning (enough spare blocks
// per plane for GC at this small block count).
inline Scenario SmallScenario() {
  Scenario s;
  auto& g = s.device.geometry;
  g.channels = 2;
  g.chips_per_channel = 2;
  g.dies_per_chip = 1;
  g.planes_per_die = 2;
  g.blocks_per_plane = 64;
  g.pages_per_block = 32;
  g.page_bytes = 8192;
  s.device.ftl.overprovisioning_fraction = 0.12;
  s.device.ftl.buffer.capacity_bytes = 256 << 10;
  s.device.ftl.checkpoint.interval_page_writes = 512;
  s.run.max_time_ns = uint64_t(1e13);
  return s;
}

inline FlowConfig RandomFlow(double read_fraction, uint32_t bytes, uint32_t depth, uint64_t requests) {
  FlowConfig f;
  f.name = "random";
  f.pattern = AccessPattern::kUniform;
  f.read_fraction = read_fraction;
  f.sizes = {{bytes, 1}};
  f.queue_depth = depth;
  f.requests = requests;
  return f;
}

inline std::unique_ptr<Simulation> MustCreate(const Scenario& s) {
  std::unique_ptr<Simulation> sim;
  Status st = Simulation::Create(s, &sim);
  EXPECT_TRUE(st.ok()) << st.message();
  return sim;
}

inline Metrics RunToEnd(const Scenario& s) {
  auto sim = MustCreate(s);
  sim->RunToEnd();
  return sim->GetMetrics();
}

}  // namespace ssdp::testing
