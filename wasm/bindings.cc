// The model's browser API: a small, typed surface over Simulation. Everything
// bulky crosses as typed arrays (views into wasm memory that the worker
// copies into transferable buffers); only the metrics summary is JSON, once
// per frame, in exactly the form the CLI prints so the two can be compared.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "obs/record.h"
#include "scenario/scenario_loader.h"
#include "sim/simulation.h"

namespace {

using emscripten::val;

class Model {
 public:
  // Validates and builds a scenario. Returns "" on success, else the message
  // (one problem per line, each naming its JSON path).
  std::string Load(const std::string& scenario_json) {
    sim_.reset();
    ssdp::Scenario scenario;
    ssdp::Status s = ssdp::ParseScenarioText(scenario_json, &scenario);
    if (!s.ok()) return s.message();
    if (scenario.workload.trace.enabled && scenario.workload.trace.text.empty())
      return "workload.trace.path: the browser cannot read files; give the trace inline as workload.trace.text";
    s = ssdp::Simulation::Create(scenario, &sim_);
    if (!s.ok()) {
      sim_.reset();
      return s.message();
    }
    return "";
  }

  bool Loaded() const { return sim_ != nullptr; }
  // Runs up to simulated time t (ns). Returns true while there is more to do.
  bool RunUntil(double t_ns) { return sim_ && sim_->RunUntil(uint64_t(t_ns)); }
  // Runs at most n events. Returns true while there is more to do.
  bool RunEvents(double n) { return sim_ && sim_->RunEvents(uint64_t(n)); }
  double Now() const { return sim_ ? double(sim_->Now()) : 0; }
  double Events() const { return sim_ ? double(sim_->Events()) : 0; }
  bool Finished() const { return !sim_ || sim_->Finished(); }
  bool Recovering() const { return sim_ && sim_->Recovering(); }
  double MaxTimeNs() const { return sim_ ? double(sim_->scenario().run.max_time_ns) : 0; }

  // The CLI's `--format json` object (sim.wall_s is 0: the model has no clock).
  std::string MetricsJson() const { return sim_ ? ssdp::MetricsToJson(sim_->GetMetrics()).dump() : "{}"; }

  // Static facts about the loaded device, for laying out views.
  std::string DeviceJson() const {
    if (!sim_) return "{}";
    const ssdp::Scenario& sc = sim_->scenario();
    const ssdp::GeometryConfig& g = sc.device.geometry;
    const ssdp::FlashTiming& t = sim_->flash().timing();
    nlohmann::json j = {
        {"channels", g.channels},
        {"ways_per_channel", g.DiesPerChannel()},
        {"chips_per_channel", g.chips_per_channel},
        {"dies_per_chip", g.dies_per_chip},
        {"planes_per_die", g.planes_per_die},
        {"blocks_per_plane", g.blocks_per_plane},
        {"pages_per_block", g.pages_per_block},
        {"page_bytes", g.page_bytes},
        {"dies", g.TotalDies()},
        {"planes", g.TotalPlanes()},
        {"blocks", g.TotalBlocks()},
        {"logical_pages", sim_->ftl().LogicalPages()},
        {"cell_type", ssdp::CellTypeName(sc.device.flash.cell_type)},
        {"read_ns", t.read_ns},
        {"program_ns", t.program_ns},
        {"erase_ns", t.erase_ns},
        {"page_transfer_ns", t.page_transfer_ns},
        {"buffer_slots", sim_->ftl().buffer().Capacity()},
        {"flows", nlohmann::json::array()},
        {"title", sc.title},
        {"seed", sc.seed},
    };
    for (const auto& f : sc.workload.flows) j["flows"].push_back({{"name", f.name}, {"queue_depth", f.queue_depth}});
    return j.dump();
  }

  // Copies up to max_records unread records into a staging buffer and returns
  // a Uint8Array view of it (32 bytes per record; layout in docs/model/obs.md).
  // The view is valid until the next call.
  val DrainRecords(uint32_t max_records) {
    if (!sim_) return val::global("Uint8Array").new_(0);
    staging_.resize(max_records);
    size_t n = sim_->records().Drain(staging_.data(), max_records);
    return val(emscripten::typed_memory_view(n * sizeof(ssdp::Record),
                                             reinterpret_cast<const uint8_t*>(staging_.data())));
  }
  double RecordsLost() const { return sim_ ? double(sim_->records().Lost()) : 0; }

  // Live state of the dies, channels and queues. Views valid until the next call.
  // Layout (Uint32Array): [die_state x dies][die_queue x dies][channel_busy x channels]
  // [flow_outstanding x flows][buffer_dirty][buffer_capacity][waiting_writes][recovering]
  val DeviceState() {
    live_.clear();
    if (!sim_) return val(emscripten::typed_memory_view(0, live_.data()));
    const ssdp::FlashArray& f = sim_->flash();
    for (uint32_t d = 0; d < f.Dies(); ++d) live_.push_back(uint32_t(f.StateOf(d)));
    for (uint32_t d = 0; d < f.Dies(); ++d) live_.push_back(f.QueuedOn(d));
    for (uint32_t c = 0; c < f.Channels(); ++c) live_.push_back(f.ChannelBusy(c) ? 1 : 0);
    for (uint32_t i = 0; i < sim_->host().Flows(); ++i) live_.push_back(sim_->host().Flow(i).outstanding);
    live_.push_back(sim_->ftl().buffer().DirtyCount());
    live_.push_back(sim_->ftl().buffer().Capacity());
    live_.push_back(sim_->ftl().WaitingWrites());
    live_.push_back(sim_->Recovering() ? 1 : 0);
    return val(emscripten::typed_memory_view(live_.size(), live_.data()));
  }

  // Per-block state for the block map. Uint32Array of 4 words per block:
  // valid pages, erase count, BlockState, flags (bit0 GC victim, bit1 open).
  val BlockState() {
    blocks_.clear();
    if (!sim_) return val(emscripten::typed_memory_view(0, blocks_.data()));
    const ssdp::Ftl& ftl = sim_->ftl();
    const ssdp::BlockManager& bm = ftl.blocks();
    const uint32_t per_plane = sim_->scenario().device.geometry.blocks_per_plane;
    uint64_t total = sim_->scenario().device.geometry.TotalBlocks();
    blocks_.resize(total * 4);
    for (uint32_t b = 0; b < total; ++b) {
      const ssdp::BlockInfo& info = bm.Block(b);
      uint32_t plane = b / per_plane;
      uint32_t flags = 0;
      if (ftl.GcActive(plane) && ftl.GcVictim(plane) == b) flags |= 1;
      if (bm.OpenBlock(plane, ssdp::Stream::kHost) == b || bm.OpenBlock(plane, ssdp::Stream::kGc) == b) flags |= 2;
      blocks_[4 * b] = info.valid;
      blocks_[4 * b + 1] = ftl.oob().EraseCount(b);
      blocks_[4 * b + 2] = uint32_t(info.state);
      blocks_[4 * b + 3] = flags;
    }
    return val(emscripten::typed_memory_view(blocks_.size(), blocks_.data()));
  }

  // Latency histogram of completed reads (or writes) as a Float64Array of
  // [upper_ns, count] pairs, ascending: an exact CDF without sampling.
  val LatencyBuckets(bool reads) {
    buckets_.clear();
    if (sim_) {
      const ssdp::HostStats& hs = sim_->host().stats();
      const ssdp::LatencyHistogram& h = reads ? hs.read_latency : hs.write_latency;
      h.ForEachBucket([&](uint64_t, uint64_t upper, uint64_t count) {
        buckets_.push_back(double(upper));
        buckets_.push_back(double(count));
      });
    }
    return val(emscripten::typed_memory_view(buckets_.size(), buckets_.data()));
  }

  // Faults.
  void PowerFail() {
    if (sim_) sim_->InjectPowerFail();
  }
  // Retires a block as if a program on it had failed. Returns "" or why not.
  std::string FailBlock(uint32_t block) {
    if (!sim_) return "no scenario loaded";
    return sim_->InjectBlockFailure(block) ? "" : "block out of range or already retired";
  }

 private:
  std::unique_ptr<ssdp::Simulation> sim_;
  std::vector<ssdp::Record> staging_;
  std::vector<uint32_t> live_;
  std::vector<uint32_t> blocks_;
  std::vector<double> buckets_;
};

// Validates a scenario without building it (nor touching a loaded model).
// Returns "" when it would load, else the problems, one per line.
std::string ValidateScenario(const std::string& scenario_json) {
  ssdp::Scenario scenario;
  ssdp::Status s = ssdp::ParseScenarioText(scenario_json, &scenario);
  if (!s.ok()) return s.message();
  if (scenario.workload.trace.enabled && scenario.workload.trace.text.empty())
    return "workload.trace.path: the browser cannot read files; give the trace inline as workload.trace.text";
  return "";
}

// Names the UI shows for the enum values it receives as numbers.
std::string EnumNamesJson() {
  nlohmann::json j;
  for (uint32_t k = 0; k < uint32_t(ssdp::RecordKind::kCount); ++k)
    j["record_kinds"].push_back(ssdp::RecordKindName(ssdp::RecordKind(k)));
  for (uint32_t s = 0; s <= uint32_t(ssdp::RecoveryStep::kReady); ++s)
    j["recovery_steps"].push_back(ssdp::RecoveryStepName(ssdp::RecoveryStep(s)));
  for (uint32_t s = 0; s <= uint32_t(ssdp::DieState::kWaitingBus); ++s)
    j["die_states"].push_back(ssdp::DieStateName(ssdp::DieState(s)));
  j["block_states"] = {"free", "open", "full", "victim", "retiring", "bad"};
  for (uint32_t k = 0; k <= uint32_t(ssdp::FlashOpKind::kCopyback); ++k)
    j["flash_op_kinds"].push_back(ssdp::FlashOpKindName(ssdp::FlashOpKind(k)));
  for (uint32_t p = 0; p <= uint32_t(ssdp::OpPurpose::kCheckpoint); ++p)
    j["op_purposes"].push_back(ssdp::OpPurposeName(ssdp::OpPurpose(p)));
  return j.dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(ssdp) {
  emscripten::class_<Model>("Model")
      .constructor<>()
      .function("load", &Model::Load)
      .function("loaded", &Model::Loaded)
      .function("runUntil", &Model::RunUntil)
      .function("runEvents", &Model::RunEvents)
      .function("now", &Model::Now)
      .function("events", &Model::Events)
      .function("finished", &Model::Finished)
      .function("recovering", &Model::Recovering)
      .function("maxTimeNs", &Model::MaxTimeNs)
      .function("metricsJson", &Model::MetricsJson)
      .function("deviceJson", &Model::DeviceJson)
      .function("drainRecords", &Model::DrainRecords)
      .function("recordsLost", &Model::RecordsLost)
      .function("deviceState", &Model::DeviceState)
      .function("blockState", &Model::BlockState)
      .function("latencyBuckets", &Model::LatencyBuckets)
      .function("powerFail", &Model::PowerFail)
      .function("failBlock", &Model::FailBlock);
  emscripten::function("enumNamesJson", &EnumNamesJson);
  emscripten::function("validateScenario", &ValidateScenario);
}
