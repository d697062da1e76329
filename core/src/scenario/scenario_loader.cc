// Section parsers: one function per JSON object of the scenario format. Each
// reads its keys with their ranges (the same ranges as scenario.h's comments
// and scenarios/schema.json) and rejects keys it does not know. A new device
// feature adds one function here and one call in ParseDevice.
#include "scenario/scenario_loader.h"

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include "obs/record.h"
#include "scenario/json_reader.h"
#include "scenario/scenario_checks.h"

namespace ssdp {
namespace {

using nlohmann::json;

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kKiB = 1ull << 10;
constexpr uint64_t kGiB = 1ull << 30;
// Largest integer a JavaScript number holds exactly: seeds travel through the
// browser unchanged.
constexpr uint64_t kMaxSeed = 1ull << 53;
constexpr uint64_t kMaxTimeNs = 1'000'000'000'000'000;  // 1e15 ns, about 11.6 days
constexpr uint64_t kMaxCount = 1'000'000'000'000;       // 1e12
constexpr size_t kMaxFlows = 16;
constexpr size_t kMaxSizes = 16;
constexpr size_t kMaxPowerFailures = 64;

void ParseGeometry(JsonObjectReader r, GeometryConfig* g) {
  r.Uint("channels", &g->channels, {.min = 1, .max = 64});
  r.Uint("chips_per_channel", &g->chips_per_channel, {.min = 1, .max = 16});
  r.Uint("dies_per_chip", &g->dies_per_chip, {.min = 1, .max = 8});
  r.Uint("planes_per_die", &g->planes_per_die, {.min = 1, .max = 8});
  r.Uint("blocks_per_plane", &g->blocks_per_plane, {.min = 8, .max = 65536});
  r.Uint("pages_per_block", &g->pages_per_block, {.min = 4, .max = 4096});
  r.UintOneOf("page_bytes", &g->page_bytes, {2048, 4096, 8192, 16384, 32768});
  r.Uint("oob_bytes", &g->oob_bytes, {.min = 16, .max = 4096});
  r.RejectUnknownKeys();
}

void ParseFlash(JsonObjectReader r, FlashConfig* f) {
  r.Enum("cell_type", &f->cell_type,
         {{"SLC", CellType::kSLC},
          {"MLC", CellType::kMLC},
          {"TLC", CellType::kTLC},
          {"QLC", CellType::kQLC}});
  // 0 means "the cell type's default timing".
  r.Uint("read_ns", &f->read_ns, {.min = 1000, .max = 10'000'000, .zero_also = true});
  r.Uint("program_ns", &f->program_ns, {.min = 10'000, .max = 100'000'000, .zero_also = true});
  r.Uint("erase_ns", &f->erase_ns, {.min = 100'000, .max = 1'000'000'000, .zero_also = true});
  r.Uint("channel_mtps", &f->channel_mtps, {.min = 10, .max = 10'000});
  r.UintOneOf("bus_width_bits", &f->bus_width_bits, {8, 16});
  r.Uint("command_overhead_ns", &f->command_overhead_ns, {.min = 0, .max = 1'000'000});
  // 0 means "unlimited endurance".
  r.Uint("endurance_cycles", &f->endurance_cycles,
         {.min = 10, .max = 10'000'000, .zero_also = true});
  r.Real("factory_bad_block_fraction", &f->factory_bad_block_fraction, {.min = 0, .max = 0.2});
  r.Real("program_fail_probability", &f->program_fail_probability, {.min = 0, .max = 0.01});
  r.Real("erase_fail_probability", &f->erase_fail_probability, {.min = 0, .max = 0.01});
  r.RejectUnknownKeys();
}

void ParseBuffer(JsonObjectReader r, BufferConfig* b) {
  r.Uint("capacity_bytes", &b->capacity_bytes, {.min = 1, .max = 4 * kGiB});
  r.Enum("flush_policy", &b->flush_policy,
         {{"eager", FlushPolicy::kEager}, {"on-demand", FlushPolicy::kOnDemand}});
  r.Bool("power_loss_protection", &b->power_loss_protection);
  r.Uint("capacitor_budget_ns", &b->capacitor_budget_ns, {.min = 0, .max = 10'000'000'000});
  r.Uint("access_ns", &b->access_ns, {.min = 0, .max = 100'000});
  r.RejectUnknownKeys();
}

void ParseGc(JsonObjectReader r, GcConfig* gc) {
  r.Bool("enabled", &gc->enabled);
  r.Enum("policy", &gc->policy,
         {{"greedy", GcPolicy::kGreedy}, {"cost-benefit", GcPolicy::kCostBenefit}});
  r.Uint("background_free_blocks", &gc->background_free_blocks, {.min = 2, .max = 1024});
  r.Uint("foreground_free_blocks", &gc->foreground_free_blocks, {.min = 1, .max = 1023});
  r.Bool("copyback", &gc->copyback);
  r.RejectUnknownKeys();
}

void ParseWearLeveling(JsonObjectReader r, WearLevelingConfig* wl) {
  r.Bool("dynamic", &wl->dynamic);
  r.Bool("static", &wl->static_enabled);
  r.Uint("static_threshold_erases", &wl->static_threshold_erases, {.min = 2, .max = 1'000'000});
  r.RejectUnknownKeys();
}

void ParseCheckpoint(JsonObjectReader r, CheckpointConfig* c) {
  r.Bool("enabled", &c->enabled);
  r.Uint("interval_page_writes", &c->interval_page_writes, {.min = 64, .max = kMaxCount});
  r.RejectUnknownKeys();
}

void ParseFtl(JsonObjectReader r, FtlConfig* ftl) {
  r.Real("overprovisioning_fraction", &ftl->overprovisioning_fraction, {.min = 0.01, .max = 0.5});
  r.Enum("allocation_order", &ftl->allocation_order,
         {{"channel-first", AllocationOrder::kChannelFirst},
          {"way-first", AllocationOrder::kWayFirst},
          {"plane-first", AllocationOrder::kPlaneFirst}});
  r.Uint("translation_ns", &ftl->translation_ns, {.min = 0, .max = 1'000'000});
  ParseBuffer(r.Object("buffer"), &ftl->buffer);
  ParseGc(r.Object("gc"), &ftl->gc);
  ParseWearLeveling(r.Object("wear_leveling"), &ftl->wear_leveling);
  ParseCheckpoint(r.Object("checkpoint"), &ftl->checkpoint);
  r.RejectUnknownKeys();
}

void ParsePcie(JsonObjectReader r, PcieConfig* p) {
  r.Uint("generation", &p->generation, {.min = 1, .max = 5});
  r.UintOneOf("lanes", &p->lanes, {1, 2, 4, 8, 16});
  r.UintOneOf("max_payload_bytes", &p->max_payload_bytes, {128, 256, 512, 1024, 2048, 4096});
  r.Uint("tlp_overhead_bytes", &p->tlp_overhead_bytes, {.min = 0, .max = 128});
  r.Uint("latency_ns", &p->latency_ns, {.min = 0, .max = 100'000});
  r.RejectUnknownKeys();
}

void ParseNvme(JsonObjectReader r, NvmeConfig* n) {
  r.Enum("completion", &n->completion,
         {{"interrupt", CompletionMode::kInterrupt}, {"polled", CompletionMode::kPolled}});
  r.Uint("interrupt_ns", &n->interrupt_ns, {.min = 0, .max = 1'000'000});
  r.Uint("poll_ns", &n->poll_ns, {.min = 0, .max = 1'000'000});
  r.Uint("max_queue_depth", &n->max_queue_depth, {.min = 1, .max = 65535});
  r.RejectUnknownKeys();
}

void ParseHostInterface(JsonObjectReader r, HostInterfaceConfig* h) {
  ParsePcie(r.Object("pcie"), &h->pcie);
  ParseNvme(r.Object("nvme"), &h->nvme);
  r.RejectUnknownKeys();
}

std::vector<std::string> RecordKindNames();

void ParseInstrumentationTrigger(JsonObjectReader r, InstrumentationTrigger* t) {
  r.Enum("kind", &t->kind,
         {{"none", TriggerKind::kNone}, {"threshold", TriggerKind::kThreshold}, {"contextual", TriggerKind::kContextual}});
  r.Enum("stage", &t->stage,
         {{"total", TriggerStage::kTotal},
          {"fetch", TriggerStage::kFetch},
          {"service", TriggerStage::kService},
          {"completion", TriggerStage::kCompletion}});
  r.Uint("threshold_ns", &t->threshold_ns, {.min = 1, .max = kMaxCount});
  r.Uint("min_outstanding", &t->min_outstanding, {.min = 0, .max = 65535});
  r.Uint("post_trigger_ns", &t->post_trigger_ns, {.min = 0, .max = kMaxCount});
  r.RejectUnknownKeys();
}

void ParseInstrumentationCommand(JsonObjectReader r, InstrumentationCommand* c) {
  r.Uint("at_ns", &c->at_ns, {.min = 0, .max = kMaxTimeNs});
  r.Enum("command", &c->kind,
         {{"transfer", InstrCommandKind::kTransfer},
          {"freeze", InstrCommandKind::kFreeze},
          {"resume", InstrCommandKind::kResume},
          {"clear", InstrCommandKind::kClear},
          {"sample", InstrCommandKind::kSample},
          {"enable_point", InstrCommandKind::kEnablePoint},
          {"disable_point", InstrCommandKind::kDisablePoint}});
  r.Uint("one_in", &c->one_in, {.min = 1, .max = 1'000'000});
  std::string point;
  r.String("point", &point, 0, 64);
  size_t kind;
  if (r.Has("point") && ReadName(json(point), r.PathOf("point"), RecordKindNames(), r.errors(), &kind))
    c->point = uint32_t(kind);
  bool needs_point = c->kind == InstrCommandKind::kEnablePoint || c->kind == InstrCommandKind::kDisablePoint;
  if (needs_point && !r.Has("point"))
    r.errors()->Add(r.PathOf("point"), "missing; enable_point and disable_point name a record kind");
  r.RejectUnknownKeys();
}

void ParseInstrumentation(JsonObjectReader r, InstrumentationConfig* in) {
  r.Bool("enabled", &in->enabled);
  r.Uint("cache_bytes", &in->cache_bytes, {.min = 64 * kKiB, .max = 4 * kGiB});
  r.Uint("record_bytes", &in->record_bytes, {.min = 16, .max = 256});
  r.Bool("dram_contention", &in->dram_contention);
  r.Uint("dram_mbps", &in->dram_mbps, {.min = 100, .max = 100'000});
  ParseInstrumentationTrigger(r.Object("trigger"), &in->trigger);
  if (const json* commands = r.Array("commands", 0, 64)) {
    in->commands.assign(commands->size(), InstrumentationCommand{});
    for (size_t i = 0; i < commands->size(); ++i) {
      const std::string path = ElementPath(r.PathOf("commands"), i);
      ParseInstrumentationCommand(JsonObjectReader::ForValue((*commands)[i], path, r.errors()), &in->commands[i]);
      if (i > 0 && in->commands[i].at_ns < in->commands[i - 1].at_ns)
        r.errors()->Add(path + ".at_ns", std::to_string(in->commands[i].at_ns) +
                                             " is before the previous command's; commands are listed in time order");
    }
  }
  r.RejectUnknownKeys();
}

void ParseCmb(JsonObjectReader r, CmbConfig* c) {
  r.Enum("backing", &c->backing, {{"sram", CmbBacking::kSram}, {"dram", CmbBacking::kDram}});
  r.Uint("ring_bytes", &c->ring_bytes, {.min = 4 * kKiB, .max = kGiB, .zero_also = true});
  r.Uint("backing_mbps", &c->backing_mbps, {.min = 100, .max = 100'000, .zero_also = true});
  r.Uint("bus_bytes", &c->bus_bytes, {.min = 1, .max = 128, .zero_also = true});
  r.Uint("access_ns", &c->access_ns, {.min = 0, .max = 10'000});
  r.Uint("queue_bytes", &c->queue_bytes, {.min = 64, .max = kMiB});
  r.Uint("reorder_window", &c->reorder_window, {.min = 1, .max = 64});
  r.Uint("capacitor_budget_ns", &c->capacitor_budget_ns, {.min = 0, .max = kMaxCount});
  r.RejectUnknownKeys();
}

void ParseCmbHost(JsonObjectReader r, CmbHostConfig* h) {
  r.Enum("write_mode", &h->write_mode,
         {{"write-combining", CmbWriteMode::kWriteCombining}, {"uncached", CmbWriteMode::kUncached}});
  r.Uint("chunk_bytes", &h->chunk_bytes, {.min = 1, .max = 64});
  r.Uint("wc_chunk_ns", &h->wc_chunk_ns, {.min = 0, .max = 10'000});
  r.Uint("uc_store_ns", &h->uc_store_ns, {.min = 0, .max = 10'000});
  r.Uint("uc_store_bytes", &h->uc_store_bytes, {.min = 1, .max = 64});
  r.Bool("honor_credits", &h->honor_credits);
  r.Uint("stall_timeout_ns", &h->stall_timeout_ns, {.min = 1000, .max = kMaxCount});
  r.RejectUnknownKeys();
}

void ParseDestage(JsonObjectReader r, DestageConfig* d) {
  r.Uint("ring_pages", &d->ring_pages, {.min = 16, .max = 16 * kMiB});
  r.Uint("latency_threshold_ns", &d->latency_threshold_ns, {.min = 1000, .max = kMaxCount});
  r.Enum("priority", &d->priority,
         {{"neutral", DestagePriority::kNeutral},
          {"destage", DestagePriority::kDestage},
          {"conventional", DestagePriority::kConventional}});
  r.Uint("max_in_flight", &d->max_in_flight, {.min = 1, .max = 4096, .zero_also = true});
  r.RejectUnknownKeys();
}

void ParseSecondary(JsonObjectReader r, SecondaryConfig* s) {
  r.Uint("link_latency_ns", &s->link_latency_ns, {.min = 0, .max = 1'000'000});
  r.Uint("link_mbps", &s->link_mbps, {.min = 100, .max = 100'000});
  r.Uint("update_period_ns", &s->update_period_ns, {.min = 100, .max = 1'000'000'000});
  r.Uint("drain_mbps", &s->drain_mbps, {.min = 10, .max = 100'000});
  r.Uint("fail_at_ns", &s->fail_at_ns, {.min = 1, .max = kMaxTimeNs, .zero_also = true});
  r.RejectUnknownKeys();
}

void ParseTransportCommand(JsonObjectReader r, TransportCommand* c) {
  r.Uint("at_ns", &c->at_ns, {.min = 0, .max = kMaxTimeNs});
  r.Enum("command", &c->kind,
         {{"to-standalone", TransportCommandKind::kToStandalone},
          {"to-primary", TransportCommandKind::kToPrimary},
          {"drop-secondary", TransportCommandKind::kDropSecondary},
          {"add-secondary", TransportCommandKind::kAddSecondary}});
  r.Uint("secondary", &c->secondary, {.min = 0, .max = 7});
  r.RejectUnknownKeys();
}

void ParseTransport(JsonObjectReader r, TransportConfig* t) {
  r.Enum("role", &t->role, {{"standalone", TransportRole::kStandalone}, {"primary", TransportRole::kPrimary}});
  r.Enum("replication", &t->replication,
         {{"eager", ReplicationScheme::kEager}, {"lazy", ReplicationScheme::kLazy}, {"chain", ReplicationScheme::kChain}});
  r.Uint("update_bytes", &t->update_bytes, {.min = 4, .max = 64});
  if (const json* secondaries = r.Array("secondaries", 0, 8)) {
    t->secondaries.assign(secondaries->size(), SecondaryConfig{});
    for (size_t i = 0; i < secondaries->size(); ++i) {
      const std::string path = ElementPath(r.PathOf("secondaries"), i);
      ParseSecondary(JsonObjectReader::ForValue((*secondaries)[i], path, r.errors()), &t->secondaries[i]);
    }
  }
  if (const json* commands = r.Array("commands", 0, 64)) {
    t->commands.assign(commands->size(), TransportCommand{});
    for (size_t i = 0; i < commands->size(); ++i) {
      const std::string path = ElementPath(r.PathOf("commands"), i);
      ParseTransportCommand(JsonObjectReader::ForValue((*commands)[i], path, r.errors()), &t->commands[i]);
      if (i > 0 && t->commands[i].at_ns < t->commands[i - 1].at_ns)
        r.errors()->Add(path + ".at_ns", std::to_string(t->commands[i].at_ns) +
                                             " is before the previous command's; commands are listed in time order");
      if (t->commands[i].secondary >= t->secondaries.size() &&
          (t->commands[i].kind == TransportCommandKind::kDropSecondary ||
           t->commands[i].kind == TransportCommandKind::kAddSecondary))
        r.errors()->Add(path + ".secondary", std::to_string(t->commands[i].secondary) + " names no secondary; " +
                                                 std::to_string(t->secondaries.size()) + " are configured");
    }
  }
  r.RejectUnknownKeys();
}

void ParseXssd(JsonObjectReader r, XssdConfig* x) {
  r.Bool("enabled", &x->enabled);
  ParseCmb(r.Object("cmb"), &x->cmb);
  ParseCmbHost(r.Object("host"), &x->host);
  ParseDestage(r.Object("destage"), &x->destage);
  ParseTransport(r.Object("transport"), &x->transport);
  r.RejectUnknownKeys();
}

void ParseDevice(JsonObjectReader r, DeviceConfig* d) {
  ParseGeometry(r.Object("geometry"), &d->geometry);
  ParseFlash(r.Object("flash"), &d->flash);
  ParseFtl(r.Object("ftl"), &d->ftl);
  ParseHostInterface(r.Object("host_interface"), &d->host_interface);
  ParseInstrumentation(r.Object("instrumentation"), &d->instrumentation);
  ParseXssd(r.Object("xssd"), &d->xssd);
  r.RejectUnknownKeys();
}

void ParsePrecondition(JsonObjectReader r, PreconditionConfig* p) {
  r.Real("fill_fraction", &p->fill_fraction, {.min = 0, .max = 1});
  r.Real("random_overwrite_passes", &p->random_overwrite_passes, {.min = 0, .max = 10});
  r.RejectUnknownKeys();
}

constexpr UintRange kRequestBytesRange = {.min = 512, .max = 16 * kMiB, .multiple_of = 512};

void ParseSizeWeight(JsonObjectReader r, SizeWeight* s) {
  r.Uint("bytes", &s->bytes, kRequestBytesRange);
  r.Real("weight", &s->weight, {.min = 0, .min_exclusive = true});
  r.RejectUnknownKeys();
}

// A flow gives its request sizes either as "sizes" (a weighted list) or as
// the shorthand "request_bytes" (one size), never both.
void ParseRequestSizes(JsonObjectReader& r, FlowConfig* f) {
  const bool has_sizes = r.Has("sizes");
  const bool has_request_bytes = r.Has("request_bytes");
  const json* sizes = r.Array("sizes", 1, kMaxSizes);
  uint32_t request_bytes = 0;
  r.Uint("request_bytes", &request_bytes, kRequestBytesRange);
  if (has_sizes && has_request_bytes) {
    r.errors()->Add(r.PathOf("request_bytes"),
                    "give either \"sizes\" or \"request_bytes\", not both");
    return;
  }
  if (request_bytes != 0) f->sizes = {SizeWeight{request_bytes, 1}};
  if (sizes == nullptr) return;
  f->sizes.assign(sizes->size(), SizeWeight{});
  for (size_t i = 0; i < sizes->size(); ++i) {
    const std::string path = ElementPath(r.PathOf("sizes"), i);
    ParseSizeWeight(JsonObjectReader::ForValue((*sizes)[i], path, r.errors()), &f->sizes[i]);
  }
}

void ParseFlow(JsonObjectReader r, FlowConfig* f) {
  r.String("name", &f->name, 1, 64);
  r.Enum("pattern", &f->pattern,
         {{"sequential", AccessPattern::kSequential},
          {"uniform", AccessPattern::kUniform},
          {"zipf", AccessPattern::kZipf},
          {"hot-cold", AccessPattern::kHotCold}});
  r.Real("read_fraction", &f->read_fraction, {.min = 0, .max = 1});
  r.Real("trim_fraction", &f->trim_fraction, {.min = 0, .max = 1});
  ParseRequestSizes(r, f);
  r.Uint("queue_depth", &f->queue_depth, {.min = 1, .max = 65535});
  // 0 means a closed loop: a new request as soon as one completes.
  r.Real("arrival_rate_iops", &f->arrival_rate_iops, {.min = 1, .max = 1e8, .zero_also = true});
  r.Real("lba_start_fraction", &f->lba_start_fraction, {.min = 0, .max = 1});
  r.Real("lba_end_fraction", &f->lba_end_fraction, {.min = 0, .max = 1, .min_exclusive = true});
  r.Real("zipf_theta", &f->zipf_theta, {.min = 0.01, .max = 3});
  r.Real("hot_fraction", &f->hot_fraction, {.min = 0.001, .max = 0.999});
  r.Real("hot_access_fraction", &f->hot_access_fraction, {.min = 0, .max = 1});
  r.Uint("requests", &f->requests, {.min = 0, .max = kMaxCount});
  r.Uint("duration_ns", &f->duration_ns, {.min = 0, .max = kMaxTimeNs});
  r.Uint("start_ns", &f->start_ns, {.min = 0, .max = kMaxTimeNs});
  r.RejectUnknownKeys();
}

void ParseTrace(JsonObjectReader r, TraceConfig* t) {
  r.String("path", &t->path, 1, 4096);
  r.String("text", &t->text, 1, std::numeric_limits<size_t>::max());
  r.Uint("queue_depth", &t->queue_depth, {.min = 1, .max = 65535});
  r.Real("time_scale", &t->time_scale, {.min = 0.001, .max = 1000});
  if (r.Has("path") && r.Has("text")) {
    r.errors()->Add(r.PathOf("text"), "give either \"path\" or \"text\", not both");
  }
  t->enabled = r.Has("path") || r.Has("text");
  r.RejectUnknownKeys();
}

void ParseDbLog(JsonObjectReader r, DbLogConfig* d) {
  r.Bool("enabled", &d->enabled);
  r.Enum("target", &d->target, {{"cmb", DbLogTarget::kCmb}, {"nvme", DbLogTarget::kNvme}, {"none", DbLogTarget::kNone}});
  r.Uint("workers", &d->workers, {.min = 1, .max = 64});
  r.Uint("record_bytes", &d->record_bytes, {.min = 8, .max = kMiB});
  r.Uint("txn_compute_ns", &d->txn_compute_ns, {.min = 0, .max = 1'000'000'000});
  r.Uint("commit_queue", &d->commit_queue, {.min = 1, .max = 4096});
  r.Uint("group_commit_bytes", &d->group_commit_bytes, {.min = 64, .max = 64 * kMiB});
  r.Uint("group_timeout_ns", &d->group_timeout_ns, {.min = 1000, .max = kMaxCount});
  r.Uint("transactions", &d->transactions, {.min = 0, .max = kMaxCount});
  r.Uint("duration_ns", &d->duration_ns, {.min = 0, .max = kMaxTimeNs});
  r.Uint("start_ns", &d->start_ns, {.min = 0, .max = kMaxTimeNs});
  r.RejectUnknownKeys();
}

void ParseWorkload(JsonObjectReader r, WorkloadConfig* w) {
  if (const json* flows = r.Array("flows", 0, kMaxFlows)) {
    w->flows.assign(flows->size(), FlowConfig{});
    for (size_t i = 0; i < flows->size(); ++i) {
      const std::string path = ElementPath(r.PathOf("flows"), i);
      ParseFlow(JsonObjectReader::ForValue((*flows)[i], path, r.errors()), &w->flows[i]);
    }
  }
  ParseTrace(r.Object("trace"), &w->trace);
  ParseDbLog(r.Object("db_log"), &w->db_log);
  r.RejectUnknownKeys();
}

std::vector<std::string> RecordKindNames() {
  std::vector<std::string> names;
  for (size_t i = 0; i < size_t(RecordKind::kCount); ++i)
    names.push_back(RecordKindName(RecordKind(i)));
  return names;
}

void ParseObservation(JsonObjectReader r, ObservationConfig* o) {
  uint32_t ring_records = o->ring_records;
  r.Uint("ring_records", &ring_records, {.min = 1024, .max = 16 * kMiB});
  // A power of two lets the ring wrap with a mask instead of a division.
  if ((ring_records & (ring_records - 1)) != 0) {
    r.errors()->Add(r.PathOf("ring_records"), std::to_string(ring_records) +
                                                  " is not a power of two; allowed 1024..16777216, "
                                                  "a power of two");
  } else {
    o->ring_records = ring_records;
  }
  r.Uint("sample_one_in", &o->sample_one_in, {.min = 1, .max = 1'000'000});
  r.Uint("perf_interval_ns", &o->perf_interval_ns, {.min = 1000, .max = kMaxCount});
  static_assert(size_t(RecordKind::kCount) <= 64, "disabled_points is a 64-bit mask");
  if (const json* points = r.Array("disabled_points", 0, size_t(RecordKind::kCount))) {
    const std::vector<std::string> names = RecordKindNames();
    uint64_t mask = 0;
    for (size_t i = 0; i < points->size(); ++i) {
      size_t kind;
      if (ReadName((*points)[i], ElementPath(r.PathOf("disabled_points"), i), names, r.errors(),
                   &kind)) {
        mask |= uint64_t(1) << kind;
      }
    }
    o->disabled_points = mask;
  }
  r.RejectUnknownKeys();
}

void ParseFaults(JsonObjectReader r, FaultConfig* f) {
  if (const json* times = r.Array("power_fail_at_ns", 0, kMaxPowerFailures)) {
    const std::string array_path = r.PathOf("power_fail_at_ns");
    f->power_fail_at_ns.clear();
    for (size_t i = 0; i < times->size(); ++i) {
      uint64_t at_ns;
      if (!ReadUint((*times)[i], ElementPath(array_path, i), {.min = 0, .max = kMaxTimeNs},
                    r.errors(), &at_ns)) {
        continue;
      }
      // Failures happen in the order listed; a repeat would fail a device
      // that is already off.
      if (!f->power_fail_at_ns.empty() && at_ns <= f->power_fail_at_ns.back()) {
        r.errors()->Add(ElementPath(array_path, i),
                        std::to_string(at_ns) + " must be above the previous entry (" +
                            std::to_string(f->power_fail_at_ns.back()) +
                            "); power failures are listed in strictly ascending time");
      }
      f->power_fail_at_ns.push_back(at_ns);
    }
  }
  r.Uint("reboot_delay_ns", &f->reboot_delay_ns, {.min = 0, .max = kMaxCount});
  r.RejectUnknownKeys();
}

void ParseRun(JsonObjectReader r, RunConfig* run) {
  r.Uint("max_time_ns", &run->max_time_ns, {.min = 1000, .max = kMaxTimeNs});
  r.Uint("memory_limit_bytes", &run->memory_limit_bytes, {.min = kMiB, .max = 64 * kGiB});
  r.Bool("check_invariants", &run->check_invariants);
  r.RejectUnknownKeys();
}

void ParseTopLevel(JsonObjectReader r, Scenario* s) {
  // "$schema" lets an editor find scenarios/schema.json; the model ignores it.
  std::string schema_reference;
  r.String("$schema", &schema_reference, 0, 4096);
  r.String("title", &s->title, 0, 200);
  r.String("description", &s->description, 0, 4000);
  r.Uint("seed", &s->seed, {.min = 0, .max = kMaxSeed});
  ParseDevice(r.Object("device"), &s->device);
  ParsePrecondition(r.Object("precondition"), &s->precondition);
  ParseWorkload(r.Object("workload"), &s->workload);
  ParseObservation(r.Object("observation"), &s->observation);
  ParseFaults(r.Object("faults"), &s->faults);
  ParseRun(r.Object("run"), &s->run);
  r.RejectUnknownKeys();
}

bool ReadWholeFile(const std::string& path, std::string* contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return false;
  *contents = std::move(buffer).str();
  return true;
}

// Reads the trace file a scenario names into its trace text, so that the
// model never opens files itself.
Status ReadTraceFile(Scenario* s) {
  TraceConfig& trace = s->workload.trace;
  std::filesystem::path file(trace.path);
  if (file.is_relative()) file = std::filesystem::path(s->base_dir) / file;
  const std::string shown = file.lexically_normal().string();

  std::error_code error;
  const uint64_t file_bytes = std::filesystem::file_size(file, error);
  if (error) {
    return Status::NotFound("workload.trace.path: cannot read trace file \"" + shown +
                            "\": " + error.message());
  }
  // The trace text stays in memory for the whole run, next to the device.
  const uint64_t state_bytes = EstimateStateBytes(*s);
  if (file_bytes > s->run.memory_limit_bytes ||
      state_bytes > s->run.memory_limit_bytes - file_bytes) {
    return Status::ResourceExhausted(
        "workload.trace.path: the trace file \"" + shown + "\" is " + FormatBytes(file_bytes) +
        "; with the device's estimated " + FormatBytes(state_bytes) +
        " it exceeds run.memory_limit_bytes (" + FormatBytes(s->run.memory_limit_bytes) +
        "); use a shorter trace or raise run.memory_limit_bytes");
  }
  if (!ReadWholeFile(file.string(), &trace.text)) {
    return Status::NotFound("workload.trace.path: cannot read trace file \"" + shown + "\"");
  }
  ErrorList errors;
  CheckTraceText(*s, trace.text, "workload.trace.path", trace.path, &errors);
  if (!errors.empty()) return Status::InvalidArgument(errors.Joined());
  return Status::Ok();
}

}  // namespace

Status ParseScenarioJson(const json& doc, Scenario* out) {
  if (!doc.is_object()) {
    return Status::InvalidArgument("(top level): expected a JSON object, got " +
                                   DescribeValue(doc));
  }
  ErrorList errors;
  Scenario scenario;
  ParseTopLevel(JsonObjectReader(&doc, "", &errors), &scenario);
  // Checks across fields only make sense once every field is acceptable.
  if (!errors.empty()) return Status::InvalidArgument(errors.Joined());

  bool over_memory_limit = false;
  CheckScenarioConsistency(scenario, doc, &errors, &over_memory_limit);
  if (!errors.empty()) {
    if (over_memory_limit && errors.size() == 1) {
      return Status::ResourceExhausted(errors.Joined());
    }
    return Status::InvalidArgument(errors.Joined());
  }
  *out = std::move(scenario);
  return Status::Ok();
}

Status ParseScenarioText(std::string_view json_text, Scenario* out) {
  json doc;
  Status status = ParseJsonText(json_text, &doc);
  if (!status.ok()) return status;
  return ParseScenarioJson(doc, out);
}

Status LoadScenarioFile(const std::string& path, const std::vector<std::string>& overrides,
                        Scenario* out) {
  std::string text;
  if (!ReadWholeFile(path, &text)) {
    return Status::NotFound("cannot read scenario file \"" + path + "\"");
  }
  json doc;
  Status status = ParseJsonText(text, &doc);
  if (!status.ok()) return Status::InvalidArgument(path + ": " + status.message());
  for (const std::string& assignment : overrides) {
    status = ApplyOverride(&doc, assignment);
    if (!status.ok()) return status;
  }
  Scenario scenario;
  status = ParseScenarioJson(doc, &scenario);
  if (!status.ok()) return status;

  std::string base_dir = std::filesystem::path(path).parent_path().string();
  scenario.base_dir = base_dir.empty() ? "." : base_dir;
  if (scenario.workload.trace.enabled && !scenario.workload.trace.path.empty()) {
    status = ReadTraceFile(&scenario);
    if (!status.ok()) return status;
  }
  *out = std::move(scenario);
  return Status::Ok();
}

}  // namespace ssdp
