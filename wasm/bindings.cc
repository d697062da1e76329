// The model's browser API: a small, typed surface over Simulation. Everything
// bulky crosses as typed arrays (views into wasm memory that the worker
// copies into transferable buffers); only the metrics summary is JSON, once
// per frame, in exactly the form the CLI prints so the two can be compared.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "obs/analysis.h"
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

  // Analysis of a record stream (the worker passes the records it kept):
  // the `ssdplay analyze --format json` summary with the `top_n` slowest
  // requests explained.
  std::string AnalyzeRecords(const val& bytes, uint32_t top_n) {
    if (!sim_) return "{}";
    ssdp::RecordAnalysis analysis = Analyze(bytes);
    return ssdp::SummaryToJson(ssdp::Summarize(analysis, top_n)).dump();
  }

  // One request explained: its stages against their baselines, the step to
  // blame and what caused it. {"found": false} when the records lack it.
  std::string ExplainRequest(const val& bytes, uint32_t id) {
    if (!sim_) return "{\"found\":false}";
    ssdp::RecordAnalysis analysis = Analyze(bytes);
    const ssdp::RequestTimeline* r = analysis.Find(id);
    if (!r) return "{\"found\":false}";
    ssdp::Explanation e = analysis.Explain(*r);
    nlohmann::json stages = nlohmann::json::object(), baselines = nlohmann::json::object();
    for (size_t s = 0; s < ssdp::kStageCount; ++s) {
      stages[ssdp::StageName(ssdp::Stage(s))] = e.stage_ns[s];
      baselines[ssdp::StageName(ssdp::Stage(s))] = e.baseline_ns[s];
    }
    nlohmann::json ops = nlohmann::json::array();
    for (const ssdp::OpCount& op : e.die_ops)
      ops.push_back({{"kind", ssdp::FlashOpKindName(ssdp::FlashOpKind(op.kind))},
                     {"purpose", ssdp::OpPurposeName(ssdp::OpPurpose(op.purpose))},
                     {"count", op.count},
                     {"busy_ns", op.busy_ns}});
    nlohmann::json j = {{"found", true},
                        {"id", r->id},
                        {"flow", r->flow},
                        {"is_read", r->is_read},
                        {"is_trim", r->is_trim},
                        {"offset_bytes", r->offset_bytes},
                        {"bytes", r->bytes},
                        {"submit_ns", r->submit_ns},
                        {"latency_ns", r->latency_ns},
                        {"stages_ns", stages},
                        {"baselines_ns", baselines},
                        {"blamed", e.blamed == ssdp::Stage::kCount ? "" : ssdp::StageName(e.blamed)},
                        {"excess_ns", e.excess_ns},
                        {"has_flash", e.has_flash},
                        {"die", e.die},
                        {"die_wait_ns", e.die_wait_ns},
                        {"op_ns", e.op_ns},
                        {"die_ops", ops},
                        {"buffer_wait_ns", e.buffer_wait_ns},
                        {"gc_planes_active", e.gc_planes_active},
                        {"flushes_during_wait", e.flushes_during_wait},
                        {"sentence", e.sentence}};
    if (r->flash_slices > 0)
      j["critical_slice"] = {{"die", r->critical.die}, {"scheduled_ns", r->critical.scheduled_ns},
                             {"start_ns", r->critical.start_ns}, {"end_ns", r->critical.end_ns}};
    return j.dump();
  }

  // Every complete request of a record stream as a Float64Array of rows:
  // [id, flow, is_read, offset_bytes, bytes, submit_ns, latency_ns, blamed
  // stage (-1 none), then the six stage durations].
  val RequestRows(const val& bytes) {
    rows_.clear();
    if (!sim_) return val(emscripten::typed_memory_view(0, rows_.data()));
    ssdp::RecordAnalysis analysis = Analyze(bytes);
    for (const ssdp::RequestTimeline& r : analysis.requests()) {
      ssdp::Stage blamed = analysis.Blame(r);
      rows_.insert(rows_.end(), {double(r.id), double(r.flow), r.is_read ? 1.0 : 0.0, double(r.offset_bytes),
                                 double(r.bytes), double(r.submit_ns), double(r.latency_ns),
                                 blamed == ssdp::Stage::kCount ? -1.0 : double(blamed)});
      for (size_t s = 0; s < ssdp::kStageCount; ++s) rows_.push_back(double(r.stage_ns[s]));
    }
    return val(emscripten::typed_memory_view(rows_.size(), rows_.data()));
  }

  // Runs an instrumentation vendor command now: kind is the command's index in
  // transfer, freeze, resume, clear, sample, enable_point, disable_point;
  // value is one_in (sample) or the record kind (points). Returns "" or why not.
  std::string InstrumentationCommand(uint32_t kind, uint32_t value) {
    if (!sim_) return "no scenario loaded";
    if (!sim_->instrumentation()) return "the device has no instrumentation cache (device.instrumentation.enabled)";
    if (kind > uint32_t(ssdp::InstrCommandKind::kDisablePoint)) return "unknown command";
    ssdp::InstrumentationCommand c;
    c.kind = ssdp::InstrCommandKind(kind);
    c.one_in = value ? value : 1;
    c.point = value < uint32_t(ssdp::RecordKind::kCount) ? value : 0;
    sim_->RunInstrumentationCommand(c);
    return "";
  }

  // The records the last "transfer" command delivered (32 bytes each); valid
  // until the next call.
  val TransferredRecords() {
    if (!sim_) return val(emscripten::typed_memory_view(0, reinterpret_cast<const uint8_t*>(rows_.data())));
    const std::vector<ssdp::Record>& r = sim_->transferred_records();
    return val(emscripten::typed_memory_view(r.size() * sizeof(ssdp::Record), reinterpret_cast<const uint8_t*>(r.data())));
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
  std::vector<double> rows_;

  ssdp::RecordAnalysis Analyze(const val& bytes) {
    const size_t n = bytes["length"].as<size_t>() / sizeof(ssdp::Record);
    std::vector<ssdp::Record> records(n);
    if (n > 0) {
      // One bulk copy from the JS array into wasm memory.
      val view(emscripten::typed_memory_view(n * sizeof(ssdp::Record), reinterpret_cast<uint8_t*>(records.data())));
      view.call<void>("set", bytes.call<val>("subarray", 0, n * sizeof(ssdp::Record)));
    }
    ssdp::RecordAnalysis analysis(ssdp::AnalysisParams::FromScenario(sim_->scenario()));
    analysis.Add(records.data(), records.size());
    analysis.Finish();
    return analysis;
  }
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
      .function("analyzeRecords", &Model::AnalyzeRecords)
      .function("explainRequest", &Model::ExplainRequest)
      .function("requestRows", &Model::RequestRows)
      .function("instrumentationCommand", &Model::InstrumentationCommand)
      .function("transferredRecords", &Model::TransferredRecords)
      .function("powerFail", &Model::PowerFail)
      .function("failBlock", &Model::FailBlock);
  emscripten::function("enumNamesJson", &EnumNamesJson);
  emscripten::function("validateScenario", &ValidateScenario);
}
