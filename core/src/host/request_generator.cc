#include "host/request_generator.h"

#include <algorithm>
#include <cmath>

#include "util/portable_math.h"

SSDP_STRICT_FP_FILE

namespace ssdp {
namespace {

constexpr uint64_t kSectorBytes = 512;
constexpr double kTwoTo53 = 0x1p53;
// Keeps the arrival generator's sequence apart from the address generator's
// for the same (seed, stream).
constexpr uint64_t kArrivalSeedSalt = 0x6A09E667F3BCC908ull;

uint64_t AlignDown(uint64_t value, uint64_t alignment) { return value - value % alignment; }
uint64_t AlignUp(uint64_t value, uint64_t alignment) { return AlignDown(value + alignment - 1, alignment); }

// A probability as a threshold on 53-bit draws: P(draw < threshold) == p
// exactly for p a multiple of 2^-53.
uint64_t ProbabilityThreshold(double p) {
  if (!(p > 0)) return 0;
  if (p >= 1) return uint64_t(1) << 53;
  return uint64_t(p * kTwoTo53);
}

struct ByteRange {
  uint64_t start;
  uint64_t end;
};

ByteRange FlowRange(const FlowConfig& flow, uint64_t logical_bytes) {
  const double capacity = double(logical_bytes);
  const double start_fraction = std::clamp(flow.lba_start_fraction, 0.0, 1.0);
  const double end_fraction = std::clamp(flow.lba_end_fraction, 0.0, 1.0);
  const double start_exact = start_fraction * capacity;
  const double end_exact = end_fraction * capacity;
  uint64_t end = uint64_t(end_exact);
  if (double(end) < end_exact) ++end;  // ceil before aligning up
  ByteRange range;
  range.start = AlignDown(uint64_t(start_exact), RequestGenerator::kSlotBytes);
  range.end = std::min(AlignUp(end, RequestGenerator::kSlotBytes),
                       AlignDown(logical_bytes, kSectorBytes));
  if (range.end <= range.start) {
    // Only reachable with an invalid flow (start >= end) or a device smaller
    // than a slot: fall back to the last slot so requests stay on the device.
    range.end = std::max(AlignDown(logical_bytes, kSectorBytes), kSectorBytes);
    range.start = AlignDown(range.end - 1, RequestGenerator::kSlotBytes);
  }
  return range;
}

}  // namespace

RequestGenerator::RequestGenerator(const FlowConfig& flow, uint64_t logical_bytes, uint64_t seed,
                                   uint64_t stream)
    : pattern_(flow.pattern),
      rng_(seed, stream),
      arrival_rng_(seed ^ kArrivalSeedSalt, stream),
      range_start_(FlowRange(flow, logical_bytes).start),
      range_end_(FlowRange(flow, logical_bytes).end),
      slot_count_(std::max<uint64_t>((range_end_ - range_start_) / kSlotBytes, 1)),
      zipf_(slot_count_, flow.zipf_theta > 0 ? flow.zipf_theta : 0.01),
      scatter_(slot_count_) {
  const uint64_t range_bytes = range_end_ - range_start_;

  // Size table. Non-positive weights count as zero; if nothing is left every
  // size is equally likely.
  const std::vector<SizeWeight> default_sizes{{4096, 1}};
  const std::vector<SizeWeight>& entries = flow.sizes.empty() ? default_sizes : flow.sizes;
  double total_weight = 0;
  for (const SizeWeight& entry : entries) {
    if (entry.weight > 0 && std::isfinite(entry.weight)) total_weight += entry.weight;
  }
  const bool equal_weights = !(total_weight > 0);
  if (equal_weights) total_weight = double(entries.size());
  double cumulative_weight = 0;
  sizes_.reserve(entries.size());
  for (const SizeWeight& entry : entries) {
    const bool usable = entry.weight > 0 && std::isfinite(entry.weight);
    cumulative_weight += equal_weights ? 1.0 : (usable ? entry.weight : 0.0);
    SizeClass size;
    const uint64_t bytes = AlignUp(std::max<uint64_t>(entry.bytes, kSectorBytes), kSectorBytes);
    size.bytes = uint32_t(std::min(bytes, range_bytes));
    size.alignment = size.bytes >= kSlotBytes ? uint32_t(kSlotBytes) : uint32_t(kSectorBytes);
    size.max_offset = range_start_ + AlignDown(range_bytes - size.bytes, size.alignment);
    size.positions = (size.max_offset - range_start_) / size.alignment + 1;
    size.pick_below = uint64_t(std::min(cumulative_weight / total_weight, 1.0) * kTwoTo53);
    sizes_.push_back(size);
  }
  sizes_.back().pick_below = uint64_t(1) << 53;  // rounding must not leave a gap at the top

  read_below_ = ProbabilityThreshold(flow.read_fraction);
  hot_below_ = ProbabilityThreshold(flow.hot_access_fraction);
  if (slot_count_ < 2) {
    hot_slot_count_ = slot_count_;
  } else {
    const double hot_fraction = std::clamp(flow.hot_fraction, 0.0, 1.0);
    hot_slot_count_ = std::clamp<uint64_t>(uint64_t(hot_fraction * double(slot_count_) + 0.5), 1,
                                           slot_count_ - 1);
  }
  if (flow.arrival_rate_iops > 0) mean_interarrival_ns_ = 1e9 / flow.arrival_rate_iops;
  sequential_cursor_ = range_start_;
}

const RequestGenerator::SizeClass& RequestGenerator::PickSize() {
  if (sizes_.size() == 1) return sizes_[0];
  const uint64_t draw = rng_.Next() >> 11;
  for (const SizeClass& size : sizes_) {
    if (draw < size.pick_below) return size;
  }
  return sizes_.back();
}

uint64_t RequestGenerator::SlotOffset(uint64_t slot, const SizeClass& size) const {
  return std::min(range_start_ + slot * kSlotBytes, size.max_offset);
}

void RequestGenerator::Next(GeneratedRequest* out) {
  const SizeClass& size = PickSize();
  uint64_t offset;
  switch (pattern_) {
    case AccessPattern::kSequential:
      offset = AlignUp(sequential_cursor_, size.alignment);
      if (offset > size.max_offset) offset = range_start_;
      sequential_cursor_ = offset + size.bytes;
      break;
    case AccessPattern::kZipf:
      offset = SlotOffset(scatter_.SlotOf(zipf_.Sample(rng_) - 1), size);
      break;
    case AccessPattern::kHotCold: {
      const bool hot = hot_slot_count_ == slot_count_ || (rng_.Next() >> 11) < hot_below_;
      const uint64_t slot = hot ? rng_.Below(hot_slot_count_)
                                : hot_slot_count_ + rng_.Below(slot_count_ - hot_slot_count_);
      offset = SlotOffset(slot, size);
      break;
    }
    case AccessPattern::kUniform:
    default:
      offset = range_start_ + rng_.Below(size.positions) * size.alignment;
      break;
  }
  out->offset_bytes = offset;
  out->bytes = size.bytes;
  if (read_below_ == 0) {
    out->is_read = false;
  } else if (read_below_ == uint64_t(1) << 53) {
    out->is_read = true;
  } else {
    out->is_read = (rng_.Next() >> 11) < read_below_;
  }
}

uint64_t RequestGenerator::NextInterarrivalNs() {
  if (mean_interarrival_ns_ == 0) return 0;
  // 1 - U is in (0, 1] and exact, so the log is finite: at most ~36.7 means.
  const double gap = -mean_interarrival_ns_ * PortableLog(1.0 - arrival_rng_.Uniform());
  return uint64_t(gap + 0.5);
}

}  // namespace ssdp
