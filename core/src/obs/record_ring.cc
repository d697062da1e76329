#include "obs/record_ring.h"

#include <algorithm>
#include <cstring>

namespace ssdp {

RecordRing::RecordRing(uint32_t capacity) {
  uint64_t size = 1;
  while (size < capacity) size <<= 1;
  slots_.resize(size);
  mask_ = size - 1;
}

void RecordRing::SetEnabled(RecordKind kind, bool enabled) {
  uint64_t bit = uint64_t(1) << uint32_t(kind);
  enabled_mask_ = enabled ? (enabled_mask_ | bit) : (enabled_mask_ & ~bit);
}

uint64_t RecordRing::Unread() const {
  uint64_t oldest = written_ > mask_ + 1 ? written_ - (mask_ + 1) : 0;
  return written_ - std::max(read_, oldest);
}

size_t RecordRing::Drain(Record* out, size_t max_records) {
  if (max_records == 0) return 0;
  uint64_t oldest = written_ > mask_ + 1 ? written_ - (mask_ + 1) : 0;
  size_t marker = 0;
  if (read_ < oldest) {
    // Mark the hole in-band, so a file or a consumer downstream sees it too.
    Record& gap = out[0];
    gap = Record{};
    gap.time_ns = slots_[oldest & mask_].time_ns;
    gap.kind = RecordKind::kRecordGap;
    gap.a = oldest - read_;
    lost_ += oldest - read_;
    read_ = oldest;
    marker = 1;
    ++out;
    --max_records;
  }
  size_t n = size_t(std::min<uint64_t>(written_ - read_, max_records));
  for (size_t copied = 0; copied < n;) {
    uint64_t start = (read_ + copied) & mask_;
    size_t chunk = std::min<size_t>(n - copied, size_t(mask_ + 1 - start));
    std::memcpy(out + copied, &slots_[start], chunk * sizeof(Record));
    copied += chunk;
  }
  read_ += n;
  return n + marker;
}

}  // namespace ssdp
