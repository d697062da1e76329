// Metrics: the summary of a run that the CLI prints, the UI shows and the
// tests compare. Computed from the always-on counters, never from records,
// so it is exact whatever the sampling or ring size.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace ssdp {

struct LatencySummary {
  uint64_t count = 0;
  double mean_us = 0, p50_us = 0, p99_us = 0, p999_us = 0, max_us = 0;
};

struct Metrics {
  // sim
  uint64_t end_ns = 0;
  uint64_t events = 0;
  double wall_s = 0;  // filled in by the caller: the model never reads a clock
  bool time_limited = false;
  bool stalled = false;  // writes could not proceed: no free space left
  // host
  uint64_t requests = 0, reads = 0, writes = 0, trims = 0, bytes_read = 0, bytes_written = 0;
  uint64_t failed_by_power = 0, dropped_arrivals = 0;
  double iops = 0, mbps = 0;
  LatencySummary read_lat, write_lat;
  double pcie_down_utilization = 0, pcie_up_utilization = 0;
  // flash
  uint64_t flash_reads = 0, flash_programs = 0, flash_erases = 0;
  double channel_utilization = 0, die_utilization = 0;
  uint64_t bad_blocks = 0;
  uint64_t erase_count_min = 0, erase_count_max = 0;
  // ftl
  double waf = 0;
  uint64_t host_pages_written = 0, flush_programs = 0, rmw_reads = 0;
  uint64_t buffer_read_hits = 0, buffer_write_hits = 0;
  uint64_t program_failures = 0, erase_failures = 0, wear_level_migrations = 0;
  uint64_t checkpoints = 0, checkpoint_pages = 0;
  // gc
  uint64_t gc_runs = 0, gc_page_copies = 0, gc_erases = 0, gc_stalls = 0;
  // power
  uint64_t power_failures = 0, lost_pages = 0, saved_pages = 0, torn_pages = 0;
  uint64_t last_recovery_ns = 0, recovery_pages_scanned = 0;
  // observation
  uint64_t records_written = 0, records_lost = 0;
  // instrumented device (device.instrumentation)
  bool instr_enabled = false, instr_frozen = false, instr_triggered = false;
  uint64_t instr_capacity_records = 0, instr_held_records = 0, instr_overwritten = 0;
  uint64_t instr_frozen_at_ns = 0, instr_transfers = 0, instr_bytes_transferred = 0;
  double instr_history_ms = 0, instr_records_per_s = 0, instr_capacity_s = 0, instr_dram_utilization = 0;
  // X-SSD fast side (device.xssd) and the database log writer (workload.db_log):
  // nested objects, null when off. Their keys are listed in docs/cli.md.
  nlohmann::json xssd;
  nlohmann::json db_log;
};

// The JSON object printed by `ssdplay run --format json` (nested by the dotted
// names documented in docs/cli.md).
nlohmann::json MetricsToJson(const Metrics& m);
// Flat "name,value" lines.
std::string MetricsToCsv(const Metrics& m);
// Human-readable summary.
std::string MetricsToText(const Metrics& m);

}  // namespace ssdp
