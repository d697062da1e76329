#include "sim/metrics.h"

#include <cstdio>
#include <functional>
#include <sstream>

namespace ssdp {
namespace {

nlohmann::json LatencyJson(const LatencySummary& l) {
  return {{"count", l.count}, {"mean", l.mean_us}, {"p50", l.p50_us}, {"p99", l.p99_us},
          {"p999", l.p999_us}, {"max", l.max_us}};
}

void Flatten(const nlohmann::json& j, const std::string& prefix,
             const std::function<void(const std::string&, const nlohmann::json&)>& fn) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      Flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), fn);
  } else if (j.is_array()) {
    // Elements are named as --set names them: xssd.secondaries[0].counter.
    for (size_t i = 0; i < j.size(); ++i) Flatten(j[i], prefix + "[" + std::to_string(i) + "]", fn);
  } else {
    fn(prefix, j);
  }
}

}  // namespace

nlohmann::json MetricsToJson(const Metrics& m) {
  nlohmann::json j;
  j["sim"] = {{"end_ns", m.end_ns}, {"events", m.events}, {"wall_s", m.wall_s}, {"time_limited", m.time_limited}, {"stalled", m.stalled}};
  j["host"] = {{"requests", m.requests},
               {"reads", m.reads},
               {"writes", m.writes},
               {"trims", m.trims},
               {"bytes_read", m.bytes_read},
               {"bytes_written", m.bytes_written},
               {"iops", m.iops},
               {"mbps", m.mbps},
               {"failed_by_power", m.failed_by_power},
               {"dropped_arrivals", m.dropped_arrivals},
               {"read", {{"lat_us", LatencyJson(m.read_lat)}}},
               {"write", {{"lat_us", LatencyJson(m.write_lat)}}},
               {"pcie", {{"down_utilization", m.pcie_down_utilization}, {"up_utilization", m.pcie_up_utilization}}}};
  j["flash"] = {{"reads", m.flash_reads},
                {"programs", m.flash_programs},
                {"erases", m.flash_erases},
                {"channel_utilization", m.channel_utilization},
                {"die_utilization", m.die_utilization},
                {"bad_blocks", m.bad_blocks},
                {"erase_count", {{"min", m.erase_count_min}, {"max", m.erase_count_max}}}};
  j["ftl"] = {{"waf", m.waf},
              {"host_pages_written", m.host_pages_written},
              {"flush_programs", m.flush_programs},
              {"rmw_reads", m.rmw_reads},
              {"buffer_read_hits", m.buffer_read_hits},
              {"buffer_write_hits", m.buffer_write_hits},
              {"program_failures", m.program_failures},
              {"erase_failures", m.erase_failures},
              {"wear_level_migrations", m.wear_level_migrations},
              {"checkpoints", m.checkpoints},
              {"checkpoint_pages", m.checkpoint_pages}};
  j["gc"] = {{"runs", m.gc_runs}, {"page_copies", m.gc_page_copies}, {"erases", m.gc_erases},
             {"write_stalls", m.gc_stalls}};
  j["power"] = {{"failures", m.power_failures},
                {"lost_pages", m.lost_pages},
                {"saved_pages", m.saved_pages},
                {"torn_pages", m.torn_pages},
                {"last_recovery_ns", m.last_recovery_ns},
                {"recovery_pages_scanned", m.recovery_pages_scanned}};
  j["records"] = {{"written", m.records_written}, {"lost", m.records_lost}};
  if (m.instr_enabled) {
    j["instrumentation"] = {{"capacity_records", m.instr_capacity_records},
                            {"held_records", m.instr_held_records},
                            {"overwritten", m.instr_overwritten},
                            {"history_ms", m.instr_history_ms},
                            {"records_per_s", m.instr_records_per_s},
                            {"capacity_s", m.instr_capacity_s},
                            {"triggered", m.instr_triggered},
                            {"frozen", m.instr_frozen},
                            {"frozen_at_ns", m.instr_frozen_at_ns},
                            {"transfers", m.instr_transfers},
                            {"bytes_transferred", m.instr_bytes_transferred},
                            {"dram_utilization", m.instr_dram_utilization}};
  }
  if (!m.xssd.is_null()) j["xssd"] = m.xssd;
  if (!m.db_log.is_null()) j["db_log"] = m.db_log;
  return j;
}

std::string MetricsToCsv(const Metrics& m) {
  std::ostringstream out;
  out << "metric,value\n";
  Flatten(MetricsToJson(m), "", [&](const std::string& name, const nlohmann::json& v) {
    out << name << ',' << v.dump() << '\n';
  });
  return out.str();
}

std::string MetricsToText(const Metrics& m) {
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "simulated %.3f ms in %llu events (%.2f s wall)%s\n"
                "host      %llu requests (%llu reads, %llu writes), %.0f IOPS, %.1f MB/s\n"
                "read  us  mean %.1f  p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f\n"
                "write us  mean %.1f  p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f\n"
                "flash     %llu reads, %llu programs, %llu erases; channels %.0f%% busy, dies %.0f%% busy\n"
                "ftl       WAF %.2f, %llu RMW reads, %llu buffer read hits, %llu checkpoints\n"
                "gc        %llu runs, %llu page copies, %llu write stalls\n"
                "power     %llu failures, %llu pages lost, last recovery %.3f ms\n",
                m.end_ns / 1e6, (unsigned long long)m.events, m.wall_s,
                m.stalled ? " [stalled: no free space]" : (m.time_limited ? " [time limit]" : ""),
                (unsigned long long)m.requests, (unsigned long long)m.reads, (unsigned long long)m.writes, m.iops,
                m.mbps, m.read_lat.mean_us, m.read_lat.p50_us, m.read_lat.p99_us, m.read_lat.p999_us,
                m.read_lat.max_us, m.write_lat.mean_us, m.write_lat.p50_us, m.write_lat.p99_us, m.write_lat.p999_us,
                m.write_lat.max_us, (unsigned long long)m.flash_reads, (unsigned long long)m.flash_programs,
                (unsigned long long)m.flash_erases, m.channel_utilization * 100, m.die_utilization * 100, m.waf,
                (unsigned long long)m.rmw_reads, (unsigned long long)m.buffer_read_hits,
                (unsigned long long)m.checkpoints, (unsigned long long)m.gc_runs,
                (unsigned long long)m.gc_page_copies, (unsigned long long)m.gc_stalls,
                (unsigned long long)m.power_failures, (unsigned long long)m.lost_pages, m.last_recovery_ns / 1e6);
  std::string text = buf;
  if (!m.db_log.is_null()) {
    std::snprintf(buf, sizeof buf, "db log    %s, %llu workers: %.0f txn/s, latency us mean %.1f p99 %.1f, %.1f MB/s\n",
                  m.db_log.value("target", "").c_str(), (unsigned long long)m.db_log.value("workers", 0ull),
                  m.db_log.value("txn_per_s", 0.0), m.db_log.value("latency_mean_us", 0.0),
                  m.db_log.value("latency_p99_us", 0.0), m.db_log.value("log_mbps", 0.0));
    text += buf;
  }
  if (!m.xssd.is_null()) {
    std::snprintf(buf, sizeof buf, "xssd      counter %llu B, %llu TLPs, %llu destage pages (%llu with filler), %llu overrun B\n",
                  (unsigned long long)m.xssd.value("credit_counter", 0ull), (unsigned long long)m.xssd.value("tlps", 0ull),
                  (unsigned long long)m.xssd.value("destage_pages", 0ull),
                  (unsigned long long)m.xssd.value("destage_filler_pages", 0ull),
                  (unsigned long long)m.xssd.value("overrun_bytes", 0ull));
    text += buf;
  }
  return text;
}

}  // namespace ssdp
