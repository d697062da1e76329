// RequestGenerator: turns one workload flow's description into a stream of
// host requests (where, how big, read or write) and, for open-loop flows, the
// gaps between their arrivals. Deterministic for a (seed, stream) pair on
// every platform; no allocation after construction.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/rng.h"
#include "host/zipf_sampler.h"
#include "scenario/scenario.h"

namespace ssdp {

struct GeneratedRequest {
  uint64_t offset_bytes;
  uint32_t bytes;
  bool is_read;
};

// One per workload flow.
//
// Address rules, shared by every pattern: the flow's range is
// [lba_start_fraction, lba_end_fraction) of the logical capacity, start
// aligned down and end aligned up to 4 KiB (the end never passes the device's
// last whole 512-byte sector). A request size larger than the range is cut to
// the range. Offsets are 4 KiB aligned (512-byte aligned for requests below
// 4 KiB) and every request lies entirely inside the range.
//
// Patterns:
//  - sequential: a cursor starts at the range start and advances by each
//    request's size (rounded up to the next request's alignment, so mixed
//    sizes can leave small gaps); when the next request would not fit, the
//    cursor wraps to the range start.
//  - uniform: every aligned start offset that fits is equally likely.
//  - zipf: ranks over the range's 4 KiB slots with P(rank k) ~ k^-zipf_theta,
//    placed on slots by RankScatter (a fixed bijection, so the hottest slots
//    are spread out and are the same for every seed). A request starts at its
//    slot, moved back just enough to fit if the slot is too near the end.
//  - hot-cold: the first hot_fraction of the slots (a contiguous region at
//    the range start) receives hot_access_fraction of the requests; within
//    each region slots are uniform. Placement at the slot as for zipf.
//
// Random draws per request, in order: size (only with two or more sizes),
// then address (not for sequential), then direction (only when 0 <
// read_fraction < 1). Arrival gaps come from a second generator, so changing
// the arrival rate does not change the address sequence.
class RequestGenerator {
 public:
  // logical_bytes: the device's logical capacity (at least 4096 to be
  // meaningful). seed: the scenario seed; stream: distinct for each flow.
  RequestGenerator(const FlowConfig& flow, uint64_t logical_bytes, uint64_t seed, uint64_t stream);

  // Fills *out with the address, size and direction of the next request.
  void Next(GeneratedRequest* out);

  // Open-loop flows: the gap before the next arrival, exponentially
  // distributed with mean 1e9 / arrival_rate_iops, rounded to whole ns.
  // Closed-loop flows (arrival_rate_iops == 0): always 0.
  uint64_t NextInterarrivalNs();

  // The flow's byte range after alignment, [start, end).
  uint64_t range_start_bytes() const { return range_start_; }
  uint64_t range_end_bytes() const { return range_end_; }
  // 4 KiB slots in the range (the units of zipf and hot-cold).
  uint64_t slot_count() const { return slot_count_; }
  // Hot-cold: end of the hot region, [range_start_bytes(), hot_end_bytes()).
  uint64_t hot_end_bytes() const { return range_start_ + hot_slot_count_ * kSlotBytes; }
  // Zipf: where each rank lands (rank 1 is slot rank_scatter().SlotOf(0)).
  const RankScatter& rank_scatter() const { return scatter_; }

  static constexpr uint64_t kSlotBytes = 4096;

 private:
  // One entry of the flow's size distribution, with everything Next() needs
  // precomputed.
  struct SizeClass {
    uint64_t pick_below;  // chosen when a 53-bit draw is below this (cumulative)
    uint64_t max_offset;  // highest start offset that keeps the request in range
    uint64_t positions;   // aligned start offsets in [range start, max_offset]
    uint32_t bytes;
    uint32_t alignment;
  };

  const SizeClass& PickSize();
  uint64_t SlotOffset(uint64_t slot, const SizeClass& size) const;

  AccessPattern pattern_;
  Rng rng_;
  Rng arrival_rng_;
  std::vector<SizeClass> sizes_;
  uint64_t range_start_ = 0;
  uint64_t range_end_ = 0;
  uint64_t slot_count_ = 1;
  uint64_t hot_slot_count_ = 1;
  uint64_t read_below_ = 0;  // read when a 53-bit draw is below this
  uint64_t hot_below_ = 0;   // hot-cold: hot when a 53-bit draw is below this
  double mean_interarrival_ns_ = 0;  // 0 for closed loop
  uint64_t sequential_cursor_ = 0;
  ZipfSampler zipf_;
  RankScatter scatter_;
};

}  // namespace ssdp
