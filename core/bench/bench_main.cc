// ssdplay_bench: how fast the model runs, in simulated host requests per
// wall-clock second, and how much memory it holds. Run through `npm run bench`;
// `--json` prints one JSON object for scripts.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "sim/simulation.h"

namespace {

// (a) the large device of the performance target: 8 channels x 4 chips x
// 2 dies x 2 planes, MLC, 2048 blocks/plane, 256 pages/block, 8 KiB pages,
// 7% OP, preconditioned to 70%; 4 KiB random 70/30 write/read at QD 32.
ssdp::Scenario LargeDevice(uint64_t requests) {
  ssdp::Scenario s;
  s.title = "bench: large MLC device, 4 KiB random 70/30 QD32";
  auto& g = s.device.geometry;
  g.channels = 8;
  g.chips_per_channel = 4;
  g.dies_per_chip = 2;
  g.planes_per_die = 2;
  g.blocks_per_plane = 2048;
  g.pages_per_block = 256;
  g.page_bytes = 8192;
  s.device.flash.cell_type = ssdp::CellType::kMLC;
  s.device.ftl.overprovisioning_fraction = 0.07;
  s.device.ftl.buffer.capacity_bytes = 64ull << 20;
  s.precondition.fill_fraction = 0.7;
  s.precondition.random_overwrite_passes = 0.5;
  ssdp::FlowConfig f;
  f.name = "random-70-30";
  f.pattern = ssdp::AccessPattern::kUniform;
  f.read_fraction = 0.3;
  f.sizes = {{4096, 1}};
  f.queue_depth = 32;
  f.lba_end_fraction = 0.7;
  f.requests = requests;
  s.workload.flows.push_back(f);
  s.run.max_time_ns = uint64_t(1e15);
  s.run.memory_limit_bytes = 8ull << 30;
  return s;
}

// (b) a small device for quick runs.
ssdp::Scenario SmallDevice(uint64_t requests) {
  ssdp::Scenario s;
  s.title = "bench: small MLC device, 4 KiB random 70/30 QD32";
  auto& g = s.device.geometry;
  g.channels = 4;
  g.chips_per_channel = 2;
  g.dies_per_chip = 1;
  g.planes_per_die = 2;
  g.blocks_per_plane = 128;
  g.pages_per_block = 128;
  s.precondition.fill_fraction = 0.7;
  s.precondition.random_overwrite_passes = 1;
  ssdp::FlowConfig f;
  f.name = "random-70-30";
  f.read_fraction = 0.3;
  f.queue_depth = 32;
  f.lba_end_fraction = 0.7;
  f.requests = requests;
  s.workload.flows.push_back(f);
  s.run.max_time_ns = uint64_t(1e15);
  return s;
}

long PeakRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

nlohmann::json RunCase(const std::string& name, const ssdp::Scenario& scenario, bool quiet) {
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  std::unique_ptr<ssdp::Simulation> sim;
  ssdp::Status s = ssdp::Simulation::Create(scenario, &sim);
  if (!s.ok()) {
    std::cerr << "bench " << name << ": " << s.message() << "\n";
    std::exit(1);
  }
  auto t1 = Clock::now();
  sim->RunToEnd();
  auto t2 = Clock::now();
  ssdp::Metrics m = sim->GetMetrics();
  double setup_s = std::chrono::duration<double>(t1 - t0).count();
  double run_s = std::chrono::duration<double>(t2 - t1).count();
  nlohmann::json j = {{"case", name},
                      {"title", scenario.title},
                      {"requests", m.requests},
                      {"events", m.events},
                      {"setup_s", setup_s},
                      {"run_s", run_s},
                      {"requests_per_s", double(m.requests) / run_s},
                      {"events_per_s", double(m.events) / run_s},
                      {"peak_rss_mib", double(PeakRssKiB()) / 1024.0},
                      {"simulated_ms", m.end_ns / 1e6},
                      {"simulated_iops", m.iops},
                      {"waf", m.waf},
                      {"gc_page_copies", m.gc_page_copies}};
  if (!quiet)
    std::fprintf(stderr,
                 "%-6s %-50s %9llu req in %6.2f s = %10.0f req/s (%5.1f M events/s), setup %.2f s, peak RSS %.0f MiB\n",
                 name.c_str(), scenario.title.c_str(), (unsigned long long)m.requests, run_s,
                 double(m.requests) / run_s, double(m.events) / run_s / 1e6, setup_s,
                 double(PeakRssKiB()) / 1024.0);
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ssdplay_bench: model speed in simulated requests per wall-clock second"};
  bool json = false;
  std::string which = "all";
  uint64_t large_requests = 3'000'000, small_requests = 1'000'000;
  app.add_flag("--json", json, "Print the results as one JSON object on stdout");
  app.add_option("--case", which, "Which case to run")->check(CLI::IsMember({"all", "large", "small"}));
  app.add_option("--large-requests", large_requests, "Requests simulated in case (a)")->capture_default_str();
  app.add_option("--small-requests", small_requests, "Requests simulated in case (b)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  nlohmann::json out = nlohmann::json::object();
  // The small case runs first so its peak memory is its own.
  if (which == "all" || which == "small") out["small"] = RunCase("small", SmallDevice(small_requests), json);
  if (which == "all" || which == "large") out["large"] = RunCase("large", LargeDevice(large_requests), json);
  if (json) std::cout << out.dump(2) << "\n";
  return 0;
}
