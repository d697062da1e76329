#include "scenario/scenario_checks.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "scenario/scenario_loader.h"

namespace ssdp {
namespace {

using nlohmann::json;

constexpr uint64_t kKiB = 1ull << 10;
constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;
constexpr uint64_t kSectorBytes = 512;
constexpr uint64_t kMaxTraceRequestSectors = 16 * kMiB / kSectorBytes;
constexpr uint64_t kMaxTraceTimeNs = 1'000'000'000'000'000;  // as for every other time
// A systematically broken trace would otherwise produce one complaint per line.
constexpr size_t kMaxTraceErrors = 10;

// The parts of EstimateStateBytes, so that the memory guard can say which
// one is large.
struct StateEstimate {
  uint64_t page_state = 0;     // L2P, reverse map, sequence numbers, checkpoint copy, trim bitmap
  uint64_t block_state = 0;    // per-block erase counts, valid counts, lists
  uint64_t buffer = 0;         // per-page bookkeeping of the data buffer
  uint64_t ring = 0;           // observation records
  uint64_t fixed = 16 * kMiB;  // engine, queues, code: independent of the device's size

  uint64_t Total() const { return page_state + block_state + buffer + ring + fixed; }
};

StateEstimate EstimateState(const Scenario& s) {
  const GeometryConfig& g = s.device.geometry;
  const uint64_t physical_pages = g.TotalPages();
  const uint64_t logical_pages = LogicalPageCount(s.device);
  StateEstimate e;
  e.page_state = 4 * logical_pages + 4 * physical_pages + 4 * physical_pages + logical_pages / 8;
  if (s.device.ftl.checkpoint.enabled) e.page_state += 4 * logical_pages;
  e.block_state = 32 * g.TotalBlocks();
  if (g.page_bytes != 0) e.buffer = s.device.ftl.buffer.capacity_bytes / g.page_bytes * 64;
  e.ring = uint64_t(s.observation.ring_records) * 32;
  // The instrumentation cache keeps each record as a 32-byte struct however
  // large a record is in the modeled device's DRAM.
  const InstrumentationConfig& in = s.device.instrumentation;
  if (in.enabled) e.ring += in.cache_bytes / in.record_bytes * 32;
  // The destage ring's slot table (the CMB ring's bytes themselves are not kept).
  if (s.device.xssd.enabled) e.buffer += s.device.xssd.destage.ring_pages * 16;
  return e;
}

// The largest blocks_per_plane (at least the minimum, 8) whose estimate fits
// the memory limit, or 0 when none does.
uint32_t LargestFittingBlocksPerPlane(Scenario s) {
  uint32_t low = 8, high = s.device.geometry.blocks_per_plane;
  s.device.geometry.blocks_per_plane = low;
  if (EstimateStateBytes(s) > s.run.memory_limit_bytes) return 0;
  while (low < high) {
    uint32_t middle = low + (high - low + 1) / 2;
    s.device.geometry.blocks_per_plane = middle;
    if (EstimateStateBytes(s) <= s.run.memory_limit_bytes) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

// Page numbers are 32-bit in the model, with the largest value meaning "no
// page"; flat 32-bit tables are what make big devices affordable.
void CheckAddressableSize(const Scenario& s, ErrorList* errors) {
  constexpr uint64_t kMaxPages = 0xFFFFFFFFull;
  const uint64_t pages = s.device.geometry.TotalPages();
  if (pages <= kMaxPages) return;
  errors->Add("device.geometry", "the device has " + std::to_string(pages) +
                                     " physical pages, but the model must number them in 32 "
                                     "bits (at most " +
                                     std::to_string(kMaxPages) +
                                     "); reduce blocks_per_plane, pages_per_block, channels, "
                                     "chips_per_channel, dies_per_chip or planes_per_die");
}

void CheckMemory(const Scenario& s, ErrorList* errors, bool* over_memory_limit) {
  const StateEstimate e = EstimateState(s);
  const uint64_t limit = s.run.memory_limit_bytes;
  if (e.Total() <= limit) return;
  *over_memory_limit = true;
  std::string problem =
      "the device needs an estimated " + FormatBytes(e.Total()) +
      " of simulator memory (mapping and per-page state " + FormatBytes(e.page_state) +
      ", per-block state " + FormatBytes(e.block_state) + ", buffer bookkeeping " +
      FormatBytes(e.buffer) + ", observation ring " + FormatBytes(e.ring) + ", fixed " +
      FormatBytes(e.fixed) + "), more than run.memory_limit_bytes (" + FormatBytes(limit) + ")";
  const uint32_t blocks_per_plane = LargestFittingBlocksPerPlane(s);
  if (blocks_per_plane != 0) {
    problem += "; reduce device.geometry.blocks_per_plane to at most " +
               std::to_string(blocks_per_plane) +
               " (or reduce channels, chips_per_channel, dies_per_chip, planes_per_die or "
               "pages_per_block), or raise run.memory_limit_bytes (up to 64 GiB)";
  } else {
    problem +=
        "; even 8 blocks per plane do not fit: reduce device.geometry channels, "
        "chips_per_channel, dies_per_chip, planes_per_die or pages_per_block, "
        "observation.ring_records or device.ftl.buffer.capacity_bytes, or raise "
        "run.memory_limit_bytes (up to 64 GiB)";
  }
  errors->Add("device.geometry", problem);
}

void CheckGarbageCollection(const Scenario& s, ErrorList* errors) {
  const GeometryConfig& g = s.device.geometry;
  const GcConfig& gc = s.device.ftl.gc;
  // Below the foreground watermark GC blocks the host; it must start (in the
  // background) before that.
  if (gc.foreground_free_blocks >= gc.background_free_blocks) {
    errors->Add("device.ftl.gc.foreground_free_blocks",
                std::to_string(gc.foreground_free_blocks) +
                    " must be below background_free_blocks (" +
                    std::to_string(gc.background_free_blocks) + ")");
  }
  // A plane that keeps half its blocks free is not a storage device.
  if (uint64_t(gc.background_free_blocks) * 2 >= g.blocks_per_plane) {
    errors->Add("device.ftl.gc.background_free_blocks",
                std::to_string(gc.background_free_blocks) +
                    " must be below half of device.geometry.blocks_per_plane (" +
                    std::to_string(g.blocks_per_plane) + " / 2)");
  }
  if (!gc.enabled) return;
  // GC reclaims space only if, after the foreground reserve, at least one
  // block's worth of pages can be invalid; with less it copies full blocks
  // forever and the device stalls.
  const uint64_t spare_pages = g.TotalPages() - LogicalPageCount(s.device);
  const double spare_blocks = double(spare_pages) / g.TotalPlanes() / g.pages_per_block;
  const uint32_t needed = gc.foreground_free_blocks + 1;
  if (spare_blocks < needed) {
    const double op = s.device.ftl.overprovisioning_fraction;
    const double minimum_op = std::ceil(double(needed) / g.blocks_per_plane * 1000) / 1000;
    char spare_text[32];
    std::snprintf(spare_text, sizeof(spare_text), "%.1f", spare_blocks);
    errors->Add("device.ftl.overprovisioning_fraction",
                FormatNumber(op) + " must leave more spare blocks per plane: it leaves " +
                    spare_text + " of " + std::to_string(g.blocks_per_plane) +
                    ", and garbage collection needs at least foreground_free_blocks + 1 = " +
                    std::to_string(needed) +
                    " (the free blocks it keeps in reserve, plus one block of reclaimable "
                    "space); use at least " +
                    FormatNumber(minimum_op) + ", or lower device.ftl.gc.foreground_free_blocks");
  }
}

void CheckBuffer(const Scenario& s, ErrorList* errors) {
  const uint64_t capacity = s.device.ftl.buffer.capacity_bytes;
  const uint32_t page_bytes = s.device.geometry.page_bytes;
  if (capacity % page_bytes != 0) {
    errors->Add("device.ftl.buffer.capacity_bytes",
                std::to_string(capacity) + " must be a multiple of device.geometry.page_bytes (" +
                    std::to_string(page_bytes) + "): the buffer holds whole pages");
  }
}

// The request sizes of flow `index` as the user wrote them: "request_bytes"
// or "sizes[j].bytes".
std::string SizePath(const json& doc, size_t index, size_t size_index) {
  const std::string flow_path = ElementPath("workload.flows", index);
  auto workload = doc.find("workload");
  if (workload != doc.end() && workload->is_object()) {
    auto flows = workload->find("flows");
    if (flows != workload->end() && flows->is_array() && index < flows->size() &&
        (*flows)[index].is_object() && (*flows)[index].contains("request_bytes")) {
      return flow_path + ".request_bytes";
    }
  }
  return ElementPath(flow_path + ".sizes", size_index) + ".bytes";
}

void CheckFlows(const Scenario& s, const json& doc, ErrorList* errors) {
  const uint32_t max_queue_depth = s.device.host_interface.nvme.max_queue_depth;
  const double logical_bytes = double(LogicalPageCount(s.device)) * s.device.geometry.page_bytes;
  for (size_t i = 0; i < s.workload.flows.size(); ++i) {
    const FlowConfig& flow = s.workload.flows[i];
    const std::string path = ElementPath("workload.flows", i);
    if (flow.queue_depth > max_queue_depth) {
      errors->Add(path + ".queue_depth",
                  std::to_string(flow.queue_depth) +
                      " must be at most device.host_interface.nvme.max_queue_depth (" +
                      std::to_string(max_queue_depth) + ")");
    }
    if (flow.read_fraction + flow.trim_fraction > 1.0 + 1e-12) {
      errors->Add(path + ".trim_fraction", FormatNumber(flow.trim_fraction) +
                                               " plus read_fraction (" + FormatNumber(flow.read_fraction) +
                                               ") exceeds 1; allowed 0.." + FormatNumber(1.0 - flow.read_fraction));
    }
    if (flow.lba_start_fraction >= flow.lba_end_fraction) {
      errors->Add(path + ".lba_end_fraction", FormatNumber(flow.lba_end_fraction) +
                                                  " must be above lba_start_fraction (" +
                                                  FormatNumber(flow.lba_start_fraction) + ")");
      continue;
    }
    const double range_bytes = (flow.lba_end_fraction - flow.lba_start_fraction) * logical_bytes;
    for (size_t j = 0; j < flow.sizes.size(); ++j) {
      if (flow.sizes[j].bytes <= range_bytes) continue;
      errors->Add(SizePath(doc, i, j), std::to_string(flow.sizes[j].bytes) +
                                           " must fit the flow's LBA range (lba_start_fraction " +
                                           FormatNumber(flow.lba_start_fraction) +
                                           " to lba_end_fraction " +
                                           FormatNumber(flow.lba_end_fraction) + " covers " +
                                           std::to_string(uint64_t(range_bytes)) +
                                           " bytes); widen the range or use smaller requests");
    }
  }
}

bool ParseUnsigned(std::string_view text, uint64_t* value) {
  auto result = std::from_chars(text.data(), text.data() + text.size(), *value);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Splits a trace line into at most `max_fields` fields and returns how many
// it has (counting past the maximum). A '#' at the start of a field begins a
// comment, as in the trace replayer (host/trace_reader.h).
size_t SplitFields(std::string_view line, std::string_view* fields, size_t max_fields) {
  size_t count = 0, i = 0;
  while (true) {
    while (i < line.size() && IsBlank(line[i])) ++i;
    if (i == line.size() || line[i] == '#') return count;
    const size_t start = i;
    while (i < line.size() && !IsBlank(line[i])) ++i;
    if (count < max_fields) fields[count] = line.substr(start, i - start);
    ++count;
  }
}

// One request line of a trace.
struct TraceLine {
  uint64_t time_ns, lba, sectors, type;
};

// Reads one non-blank trace line into *request; returns "" or its problem.
std::string ReadTraceLine(size_t field_count, const std::string_view* fields,
                          uint64_t capacity_sectors, TraceLine* request) {
  static constexpr const char* kFieldNames[] = {"time_ns", "device", "lba_sectors", "size_sectors",
                                                "type"};
  if (field_count != 5) {
    return "expected 5 fields (time_ns device lba_sectors size_sectors type), got " +
           std::to_string(field_count);
  }
  uint64_t values[5];
  for (size_t f = 0; f < 5; ++f) {
    if (!ParseUnsigned(fields[f], &values[f])) {
      return std::string(kFieldNames[f]) + " \"" + std::string(fields[f].substr(0, 40)) +
             "\" is not an unsigned integer";
    }
  }
  *request = TraceLine{values[0], values[2], values[3], values[4]};
  if (request->time_ns > kMaxTraceTimeNs) {
    return "time_ns " + std::to_string(request->time_ns) + " is above 1000000000000000";
  }
  if (request->sectors == 0 || request->sectors > kMaxTraceRequestSectors) {
    return "size_sectors " + std::to_string(request->sectors) + " is out of range; allowed 1.." +
           std::to_string(kMaxTraceRequestSectors) + " (16 MiB)";
  }
  if (request->type > 1) {
    return "type " + std::to_string(request->type) + " is not 0 (write) or 1 (read)";
  }
  const uint64_t lba = request->lba, sectors = request->sectors;
  if (lba > capacity_sectors || sectors > capacity_sectors - lba) {
    return "sectors " + std::to_string(lba) + ".." + std::to_string(lba + sectors - 1) +
           " end beyond the device's logical capacity of " + std::to_string(capacity_sectors) +
           " sectors";
  }
  return "";
}

}  // namespace

uint64_t LogicalPageCount(const DeviceConfig& device) {
  const double physical_pages = double(device.geometry.TotalPages());
  return uint64_t(std::floor(physical_pages * (1.0 - device.ftl.overprovisioning_fraction)));
}

uint64_t EstimateStateBytes(const Scenario& scenario) { return EstimateState(scenario).Total(); }

std::string FormatBytes(uint64_t bytes) {
  char text[32];
  if (bytes >= kGiB) {
    std::snprintf(text, sizeof(text), "%.1f GiB", double(bytes) / double(kGiB));
  } else if (bytes >= kMiB) {
    std::snprintf(text, sizeof(text), "%.1f MiB", double(bytes) / double(kMiB));
  } else {
    std::snprintf(text, sizeof(text), "%.1f KiB", double(bytes) / double(kKiB));
  }
  return text;
}

void CheckTraceText(const Scenario& scenario, std::string_view text, const std::string& path,
                    const std::string& file, ErrorList* errors) {
  const uint64_t capacity_sectors =
      LogicalPageCount(scenario.device) * scenario.device.geometry.page_bytes / kSectorBytes;
  const std::string source = file.empty() ? "" : "\"" + file + "\" ";
  size_t line_number = 0, requests = 0, problems = 0;
  uint64_t previous_time = 0;
  size_t previous_line = 0;
  for (size_t start = 0; start < text.size() && problems < kMaxTraceErrors;) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    std::string_view fields[5];
    const size_t field_count = SplitFields(line, fields, 5);
    if (field_count == 0) continue;  // blank or comment
    TraceLine request;
    std::string problem = ReadTraceLine(field_count, fields, capacity_sectors, &request);
    // The replayer issues requests in file order, so time may not go back.
    if (problem.empty() && previous_line != 0 && request.time_ns < previous_time) {
      problem = "time_ns " + std::to_string(request.time_ns) + " is earlier than " +
                std::to_string(previous_time) + " on line " + std::to_string(previous_line) +
                "; timestamps must not decrease";
    }
    if (!problem.empty()) {
      ++problems;
      errors->Add(path, source + "line " + std::to_string(line_number) + ": " + problem);
      continue;
    }
    previous_time = request.time_ns;
    previous_line = line_number;
    ++requests;
  }
  if (problems == 0 && requests == 0) {
    errors->Add(path, source +
                          "contains no requests; each line is "
                          "\"time_ns device lba_sectors size_sectors type\"");
  }
}

// The X-SSD fast side and the database log writer.
void CheckXssd(const Scenario& s, ErrorList* errors) {
  const XssdConfig& x = s.device.xssd;
  const DbLogConfig& log = s.workload.db_log;
  if (log.enabled && log.target == DbLogTarget::kCmb && !x.enabled)
    errors->Add("workload.db_log.target", "\"cmb\" logs to the fast side, but device.xssd.enabled is false; "
                                          "enable it or log to \"nvme\" or \"none\"");
  if (log.enabled && log.target == DbLogTarget::kNone && log.txn_compute_ns == 0)
    errors->Add("workload.db_log.txn_compute_ns",
                "0 with target \"none\" would commit transactions without simulated time passing; allowed "
                "1..1000000000 with this target");
  const bool nvme_log = log.enabled && log.target == DbLogTarget::kNvme;
  if (!x.enabled && !nvme_log) return;
  const uint64_t logical = LogicalPageCount(s.device);
  if (x.destage.ring_pages * 2 > logical)
    errors->Add("device.xssd.destage.ring_pages",
                std::to_string(x.destage.ring_pages) + " is more than half of the device's " +
                    std::to_string(logical) + " logical pages; allowed 16.." + std::to_string(logical / 2));
  if (nvme_log && log.group_commit_bytes + 4096 > x.destage.ring_pages * s.device.geometry.page_bytes)
    errors->Add("workload.db_log.group_commit_bytes",
                std::to_string(log.group_commit_bytes) + " does not fit the log area of device.xssd.destage.ring_pages");
  if (!x.enabled) return;
  const uint64_t ring = x.cmb.RingBytes();
  if (x.cmb.queue_bytes > ring)
    errors->Add("device.xssd.cmb.queue_bytes", std::to_string(x.cmb.queue_bytes) +
                                                   " is larger than the ring (" + std::to_string(ring) +
                                                   " bytes); allowed 64.." + std::to_string(ring));
  if (ring < s.device.geometry.page_bytes)
    errors->Add("device.xssd.cmb.ring_bytes", std::to_string(ring) + " is smaller than one flash page (" +
                                                  std::to_string(s.device.geometry.page_bytes) +
                                                  " bytes): the destage works in pages");
  if (x.transport.role == TransportRole::kPrimary && x.transport.secondaries.empty())
    errors->Add("device.xssd.transport.secondaries", "a primary needs at least one secondary");
  for (const TransportCommand& c : x.transport.commands)
    if (c.kind == TransportCommandKind::kToPrimary && x.transport.secondaries.empty())
      errors->Add("device.xssd.transport.commands", "\"to-primary\" needs at least one secondary");
}

void CheckScenarioConsistency(const Scenario& scenario, const json& doc, ErrorList* errors,
                              bool* over_memory_limit) {
  CheckXssd(scenario, errors);
  CheckGarbageCollection(scenario, errors);
  CheckBuffer(scenario, errors);
  CheckFlows(scenario, doc, errors);
  const TraceConfig& trace = scenario.workload.trace;
  if (trace.enabled && !trace.text.empty()) {
    CheckTraceText(scenario, trace.text, "workload.trace.text", "", errors);
  }
  CheckAddressableSize(scenario, errors);
  CheckMemory(scenario, errors, over_memory_limit);
}

}  // namespace ssdp
