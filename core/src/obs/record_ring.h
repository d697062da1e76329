// RecordRing: a bounded ring of observation records. The model writes; one
// reader (the UI bridge, the CLI, a test) drains. When the reader falls behind
// the oldest records are overwritten and counted as lost, so the model never
// blocks and memory stays fixed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "obs/instrumentation_cache.h"
#include "obs/record.h"

namespace ssdp {

class RecordRing {
 public:
  // capacity is rounded up to a power of two.
  explicit RecordRing(uint32_t capacity = 1 << 16);

  // Enables or disables one record kind (a "point" of the instrumentation).
  void SetEnabled(RecordKind kind, bool enabled);
  bool Enabled(RecordKind kind) const { return (enabled_mask_ >> uint32_t(kind)) & 1; }

  // Appends a record if its kind is enabled.
  void Emit(uint64_t time_ns, RecordKind kind, uint16_t unit, uint32_t id, uint64_t a, uint64_t b) {
    if (!Enabled(kind)) return;
    Record& r = slots_[written_ & mask_];
    r.time_ns = time_ns;
    r.kind = kind;
    r.unit = unit;
    r.id = id;
    r.a = a;
    r.b = b;
    ++written_;
    if (cache_) cache_->Store(r);
  }

  // Every emitted record is also kept by the device's instrumentation cache.
  void AttachCache(InstrumentationCache* cache) { cache_ = cache; }

  // Copies up to max_records unread records, oldest first, into out; returns
  // how many. Records overwritten before they were read add to Lost(), and
  // the first record copied after them is a kRecordGap marker saying how many.
  size_t Drain(Record* out, size_t max_records);
  // Number of unread records still in the ring.
  uint64_t Unread() const;

  uint64_t Written() const { return written_; }
  // Records overwritten before anyone read them (also when nobody reads).
  uint64_t Lost() const {
    uint64_t oldest = written_ > mask_ + 1 ? written_ - (mask_ + 1) : 0;
    return lost_ + (read_ < oldest ? oldest - read_ : 0);
  }
  uint32_t Capacity() const { return mask_ + 1; }
  // Forgets everything (reset of the simulation).
  void Clear() { written_ = read_ = lost_ = 0; }

 private:
  std::vector<Record> slots_;
  uint64_t mask_;
  uint64_t written_ = 0;
  uint64_t read_ = 0;
  uint64_t lost_ = 0;
  uint64_t enabled_mask_ = ~uint64_t(0);
  InstrumentationCache* cache_ = nullptr;
};

}  // namespace ssdp
