#include "obs/record.h"

#include <cstring>

namespace ssdp {
namespace {
constexpr const char* kKindNames[] = {
    "request_submit", "request_fetched", "request_translated", "request_gc_wait",
    "request_scheduled", "request_dma_done", "request_complete", "flash_op_start",
    "flash_op_end", "gc_start", "gc_end", "erase", "block_retired", "perf_index",
    "channel_perf", "power_fail", "recovery_step", "checkpoint", "wear_level", "trim",
    "instr_trigger", "instr_command", "xssd_credit", "xssd_ring", "xssd_destage",
    "xssd_destage_done", "xssd_shadow", "xssd_repl_delay", "xssd_status", "xssd_crash",
    "xssd_commit", "record_gap", "channel_transfer"};
static_assert(sizeof(kKindNames) / sizeof(kKindNames[0]) == size_t(RecordKind::kCount));

constexpr const char* kStepNames[] = {"capacitor_flush", "boot", "load_checkpoint", "scan_oob",
                                      "replay_trims", "rebuild_free_lists", "ready"};
}  // namespace

const char* RecordKindName(RecordKind kind) {
  auto i = size_t(kind);
  return i < size_t(RecordKind::kCount) ? kKindNames[i] : "unknown";
}

bool RecordKindFromName(const char* name, RecordKind* kind) {
  for (size_t i = 0; i < size_t(RecordKind::kCount); ++i) {
    if (std::strcmp(name, kKindNames[i]) == 0) {
      *kind = RecordKind(i);
      return true;
    }
  }
  return false;
}

const char* XssdCrashStepName(XssdCrashStep step) {
  static constexpr const char* kNames[] = {"power_loss", "destage_ring", "stop_at_gap", "reboot", "tail_visible"};
  auto i = size_t(step);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "unknown";
}

const char* RecoveryStepName(RecoveryStep step) {
  auto i = size_t(step);
  return i < sizeof(kStepNames) / sizeof(kStepNames[0]) ? kStepNames[i] : "unknown";
}

}  // namespace ssdp
