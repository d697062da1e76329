// ssdplay: the headless simulator. Runs a scenario and prints its metrics, so
// sweeps and CI regressions need no browser.
//
//   ssdplay run scenarios/basics/default.json --format json --set seed=7
//   ssdplay validate my-scenario.json
//   ssdplay analyze scenarios/basics/default.json --top 5
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "obs/analysis.h"
#include "obs/record.h"
#include "scenario/scenario_loader.h"
#include "sim/simulation.h"

namespace {

constexpr int kExitInvalidScenario = 2;
constexpr int kExitModelError = 3;

struct RunOptions {
  std::string scenario_path;
  std::vector<std::string> overrides;
  std::string format = "text";
  std::string records_path;
  std::string records_format = "csv";
  long long seed = -1;
  bool progress = true;
};

// Writes drained records as CSV or raw 32-byte structs.
class RecordSink {
 public:
  bool Open(const std::string& path, const std::string& format) {
    binary_ = format == "binary";
    out_.open(path, binary_ ? std::ios::binary : std::ios::out);
    if (!out_) return false;
    if (!binary_) out_ << "time_ns,kind,unit,id,a,b\n";
    return true;
  }
  bool is_open() const { return out_.is_open(); }
  void Drain(ssdp::RecordRing& ring) {
    std::vector<ssdp::Record> buf(4096);
    for (size_t n; (n = ring.Drain(buf.data(), buf.size())) > 0;) {
      if (binary_) {
        out_.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(n * sizeof(ssdp::Record)));
        continue;
      }
      for (size_t i = 0; i < n; ++i) {
        const ssdp::Record& r = buf[i];
        out_ << r.time_ns << ',' << ssdp::RecordKindName(r.kind) << ',' << r.unit << ',' << r.id << ',' << r.a
             << ',' << r.b << '\n';
      }
    }
  }

 private:
  std::ofstream out_;
  bool binary_ = false;
};

// Loads the scenario with the --set overrides and --seed applied; prints the
// problems and returns false when it is invalid.
bool LoadForCli(const std::string& path, std::vector<std::string> overrides, long long seed,
                ssdp::Scenario* scenario) {
  if (seed >= 0) overrides.push_back("seed=" + std::to_string(seed));
  ssdp::Status s = ssdp::LoadScenarioFile(path, overrides, scenario);
  if (!s.ok()) std::cerr << "ssdplay: invalid scenario " << path << ":\n" << s.message() << "\n";
  return s.ok();
}

int Run(const RunOptions& opt) {
  ssdp::Scenario scenario;
  if (!LoadForCli(opt.scenario_path, opt.overrides, opt.seed, &scenario)) return kExitInvalidScenario;
  ssdp::Status s;
  auto wall_start = std::chrono::steady_clock::now();
  std::unique_ptr<ssdp::Simulation> sim;
  s = ssdp::Simulation::Create(scenario, &sim);
  if (!s.ok()) {
    std::cerr << "ssdplay: " << s.message() << "\n";
    return kExitInvalidScenario;
  }
  RecordSink sink;
  if (!opt.records_path.empty() && !sink.Open(opt.records_path, opt.records_format)) {
    std::cerr << "ssdplay: cannot write records to " << opt.records_path << "\n";
    return 1;
  }
  const bool show_progress = opt.progress && isatty(STDERR_FILENO);
  const uint64_t limit = scenario.run.max_time_ns;
  auto last_report = wall_start;
  while (sim->RunEvents(1 << 16)) {
    if (sink.is_open()) sink.Drain(sim->records());
    if (!show_progress) continue;
    auto now = std::chrono::steady_clock::now();
    if (now - last_report < std::chrono::milliseconds(250)) continue;
    last_report = now;
    std::fprintf(stderr, "\r  simulated %.3f ms (%.1f%% of the time limit), %llu events, %llu requests   ",
                 sim->Now() / 1e6, 100.0 * double(sim->Now()) / double(limit),
                 (unsigned long long)sim->Events(), (unsigned long long)sim->host().stats().completed);
  }
  if (sink.is_open()) sink.Drain(sim->records());
  if (show_progress) std::fprintf(stderr, "\r%100s\r", "");
  ssdp::Metrics m = sim->GetMetrics();
  m.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  if (opt.format == "json") {
    std::cout << ssdp::MetricsToJson(m).dump(2) << "\n";
  } else if (opt.format == "csv") {
    std::cout << ssdp::MetricsToCsv(m);
  } else {
    if (!scenario.title.empty()) std::cout << scenario.title << "\n";
    std::cout << ssdp::MetricsToText(m);
  }
  if (!sim->invariant_status().ok()) {
    std::cerr << "ssdplay: self-check failed: " << sim->invariant_status().message() << "\n";
    return kExitModelError;
  }
  if (m.stalled)
    std::cerr << "ssdplay: note: the device stalled: writes are waiting and no block can be reclaimed ("
              << m.bad_blocks << " bad blocks); the logical data no longer fits the remaining flash\n";
  if (m.time_limited)
    std::cerr << "ssdplay: note: stopped at run.max_time_ns (" << limit << " ns) before the workload finished\n";
  return 0;
}

struct AnalyzeOptions {
  std::string scenario_path;
  std::string records_path;  // analyze this binary records file instead of running
  std::vector<std::string> overrides;
  std::string format = "text";
  long long seed = -1;
  size_t top = 10;
  bool progress = true;
};

// Record kinds the analysis reads; `analyze` turns them on whatever the
// scenario disabled, since a stage with no records cannot be explained.
uint64_t AnalysisKindsMask() {
  using ssdp::RecordKind;
  uint64_t mask = 0;
  for (RecordKind k : {RecordKind::kRequestSubmit, RecordKind::kRequestFetched, RecordKind::kRequestTranslated,
                       RecordKind::kRequestGcWait, RecordKind::kRequestScheduled, RecordKind::kRequestDmaDone,
                       RecordKind::kRequestComplete, RecordKind::kFlashOpStart, RecordKind::kFlashOpEnd,
                       RecordKind::kGcStart, RecordKind::kGcEnd, RecordKind::kErase, RecordKind::kPowerFail})
    mask |= uint64_t(1) << uint32_t(k);
  return mask;
}

// Feeds a binary records file (32-byte records back to back) to the analysis.
bool AnalyzeRecordsFile(const std::string& path, ssdp::RecordAnalysis* analysis) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "ssdplay: cannot read records from " << path << "\n";
    return false;
  }
  std::vector<ssdp::Record> buf(1 << 16);
  while (in) {
    in.read(reinterpret_cast<char*>(buf.data()), std::streamsize(buf.size() * sizeof(ssdp::Record)));
    std::streamsize got = in.gcount();
    if (got % std::streamsize(sizeof(ssdp::Record)) != 0) {
      std::cerr << "ssdplay: " << path << " is not a binary records file (its size is not a multiple of "
                << sizeof(ssdp::Record) << " bytes; write it with --records-format binary)\n";
      return false;
    }
    analysis->Add(buf.data(), size_t(got) / sizeof(ssdp::Record));
  }
  return true;
}

int Analyze(const AnalyzeOptions& opt) {
  ssdp::Scenario scenario;
  if (!LoadForCli(opt.scenario_path, opt.overrides, opt.seed, &scenario)) return kExitInvalidScenario;
  ssdp::Status s;
  ssdp::RecordAnalysis analysis(ssdp::AnalysisParams::FromScenario(scenario));
  if (!opt.records_path.empty()) {
    if (!AnalyzeRecordsFile(opt.records_path, &analysis)) return 1;
  } else {
    scenario.observation.disabled_points &= ~AnalysisKindsMask();
    std::unique_ptr<ssdp::Simulation> sim;
    s = ssdp::Simulation::Create(scenario, &sim);
    if (!s.ok()) {
      std::cerr << "ssdplay: " << s.message() << "\n";
      return kExitInvalidScenario;
    }
    // The ring cannot grow mid-run, so it is drained often enough that it
    // rarely fills: a few records per event, a sixteenth of the ring per
    // step, and shorter steps once a burst has overrun it.
    ssdp::RecordRing& ring = sim->records();
    uint64_t step = std::max<uint64_t>(16, ring.Capacity() / 16);
    std::vector<ssdp::Record> buf(4096);
    uint64_t lost_seen = 0;
    auto drain = [&] {
      // Gaps arrive in-band as record_gap markers; a burst that overran the
      // ring makes the steps shorter.
      for (size_t n; (n = ring.Drain(buf.data(), buf.size())) > 0;) analysis.Add(buf.data(), n);
      if (ring.Lost() > lost_seen) {
        lost_seen = ring.Lost();
        step = std::max<uint64_t>(1, step / 4);
      }
    };
    analysis.TrackLosses();
    const bool show_progress = opt.progress && isatty(STDERR_FILENO);
    const uint64_t limit = scenario.run.max_time_ns;
    auto last_report = std::chrono::steady_clock::now();
    while (sim->RunEvents(step)) {
      drain();
      if (!show_progress) continue;
      auto now = std::chrono::steady_clock::now();
      if (now - last_report < std::chrono::milliseconds(250)) continue;
      last_report = now;
      std::fprintf(stderr, "\r  simulated %.3f ms (%.1f%% of the time limit), %llu events, %llu requests   ",
                   sim->Now() / 1e6, 100.0 * double(sim->Now()) / double(limit),
                   (unsigned long long)sim->Events(), (unsigned long long)sim->host().stats().completed);
    }
    drain();
    if (show_progress) std::fprintf(stderr, "\r%100s\r", "");
    if (lost_seen > 0)
      std::cerr << "ssdplay: note: " << lost_seen
                << " records were overwritten before they could be read; requests across the gaps are skipped "
                   "(raise observation.ring_records)\n";
  }
  analysis.Finish();
  ssdp::Summary summary = ssdp::Summarize(analysis, opt.top);
  if (opt.format == "json") {
    std::cout << ssdp::SummaryToJson(summary).dump(2) << "\n";
  } else {
    if (!scenario.title.empty()) std::cout << scenario.title << "\n";
    std::cout << ssdp::SummaryToText(summary);
  }
  if (scenario.observation.sample_one_in > 1)
    std::cerr << "ssdplay: note: observation.sample_one_in = " << scenario.observation.sample_one_in
              << ": only one request in " << scenario.observation.sample_one_in << " is traced\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ssdplay: SSD Playground's headless simulator"};
  app.require_subcommand(1);

  RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a scenario and print its metrics");
  run_cmd->add_option("scenario", run.scenario_path, "Scenario JSON file")->required()->check(CLI::ExistingFile);
  run_cmd->add_option("--seed", run.seed, "Override the scenario's seed")->check(CLI::Range(0LL, (1LL << 53)));
  run_cmd->add_option("--format", run.format, "Output format")
      ->check(CLI::IsMember({"json", "text", "csv"}))
      ->capture_default_str();
  run_cmd->add_option("--set", run.overrides, "Override a field: json.path=value (repeatable)")
      ->take_all()
      ->allow_extra_args(false);
  run_cmd->add_option("--records", run.records_path, "Write the observation records to this file");
  run_cmd->add_option("--records-format", run.records_format, "Records file format")
      ->check(CLI::IsMember({"csv", "binary"}))
      ->capture_default_str();
  run_cmd->add_flag("!--no-progress", run.progress, "Do not show progress on a terminal");

  std::string validate_path;
  std::vector<std::string> validate_overrides;
  CLI::App* validate_cmd = app.add_subcommand("validate", "Check a scenario and report every problem");
  validate_cmd->add_option("scenario", validate_path, "Scenario JSON file")->required()->check(CLI::ExistingFile);
  validate_cmd->add_option("--set", validate_overrides, "Override a field: json.path=value (repeatable)");

  AnalyzeOptions analyze;
  CLI::App* analyze_cmd = app.add_subcommand(
      "analyze", "Run a scenario (or read a binary records file) and explain where each request's time went");
  auto* analyze_pos = analyze_cmd->add_option("scenario", analyze.scenario_path, "Scenario JSON file")
                          ->check(CLI::ExistingFile);
  auto* analyze_scn = analyze_cmd->add_option("--scenario", analyze.scenario_path,
                                              "Scenario JSON file (timings and geometry for --records)")
                          ->check(CLI::ExistingFile)
                          ->excludes(analyze_pos);
  analyze_cmd->add_option("--records", analyze.records_path,
                          "Analyze this file (written by run --records-format binary) instead of running")
      ->check(CLI::ExistingFile);
  analyze_cmd->add_option("--seed", analyze.seed, "Override the scenario's seed")
      ->check(CLI::Range(0LL, (1LL << 53)));
  analyze_cmd->add_option("--set", analyze.overrides, "Override a field: json.path=value (repeatable)")
      ->take_all()
      ->allow_extra_args(false);
  analyze_cmd->add_option("--top", analyze.top, "Explain the N slowest requests")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  analyze_cmd->add_option("--format", analyze.format, "Output format")
      ->check(CLI::IsMember({"json", "text"}))
      ->capture_default_str();
  analyze_cmd->add_flag("!--no-progress", analyze.progress, "Do not show progress on a terminal");
  (void)analyze_scn;

  CLI11_PARSE(app, argc, argv);

  if (*run_cmd) return Run(run);
  if (*analyze_cmd) {
    if (analyze.scenario_path.empty()) {
      std::cerr << "ssdplay analyze: a scenario is required (positional, or --scenario with --records)\n";
      return 106;  // CLI11's RequiredError code, like every other usage error
    }
    return Analyze(analyze);
  }
  if (*validate_cmd) {
    ssdp::Scenario scenario;
    if (!LoadForCli(validate_path, validate_overrides, -1, &scenario)) return kExitInvalidScenario;
    std::cout << validate_path << ": valid (" << scenario.device.geometry.TotalPages() << " physical pages, "
              << ssdp::EstimateStateBytes(scenario) / (1 << 20) << " MiB of model state)\n";
    return 0;
  }
  return 0;
}
