#include "obs/instrumentation_cache.h"

#include <algorithm>

namespace ssdp {

InstrumentationCache::InstrumentationCache(const InstrumentationConfig& config, DramPort* dram)
    : slots_(std::max<uint64_t>(1, config.cache_bytes / config.record_bytes)),
      record_bytes_(config.record_bytes),
      trigger_(config.trigger),
      dram_(dram) {}

void InstrumentationCache::Store(const Record& r) {
  if (frozen_) return;
  slots_[written_ % slots_.size()] = r;
  ++written_;
  if (first_time_ == kNever) first_time_ = r.time_ns;
  if (r.time_ns > last_time_) last_time_ = r.time_ns;
  if (dram_) dram_->Access(record_bytes_, r.time_ns);
}

void InstrumentationCache::Freeze(SimTime now) {
  if (frozen_) return;
  frozen_ = true;
  frozen_at_ = now;
}

void InstrumentationCache::Clear() {
  written_ = 0;
  first_time_ = kNever;
  last_time_ = 0;
  triggered_ = false;
}

bool InstrumentationCache::Triggers(uint64_t total_ns, uint64_t fetch_ns, uint64_t service_ns,
                                    uint64_t completion_ns, uint32_t outstanding) const {
  if (trigger_.kind == TriggerKind::kNone || triggered_) return false;
  uint64_t value = total_ns;
  switch (trigger_.stage) {
    case TriggerStage::kTotal: value = total_ns; break;
    case TriggerStage::kFetch: value = fetch_ns; break;
    case TriggerStage::kService: value = service_ns; break;
    case TriggerStage::kCompletion: value = completion_ns; break;
  }
  if (value <= trigger_.threshold_ns) return false;
  // Contextual: a slow step matters only when the device was busy; long steps
  // on a quiet device are normal variation.
  return trigger_.kind == TriggerKind::kThreshold || outstanding >= trigger_.min_outstanding;
}

void InstrumentationCache::Snapshot(std::vector<Record>* out) const {
  out->clear();
  uint64_t held = Held();
  out->reserve(held);
  for (uint64_t i = written_ - held; i < written_; ++i) out->push_back(slots_[i % slots_.size()]);
}

SimTime InstrumentationCache::HistorySpanNs() const {
  uint64_t held = Held();
  if (held == 0) return 0;
  SimTime oldest = slots_[(written_ - held) % slots_.size()].time_ns;
  return last_time_ > oldest ? last_time_ - oldest : 0;
}

double InstrumentationCache::RecordsPerSecond() const {
  if (written_ < 2 || last_time_ <= first_time_) return 0;
  return double(written_) / (double(last_time_ - first_time_) / 1e9);
}

double InstrumentationCache::CapacitySeconds() const {
  double rate = RecordsPerSecond();
  return rate > 0 ? double(slots_.size()) / rate : 0;
}

}  // namespace ssdp
