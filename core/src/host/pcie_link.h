// PcieLink: the host link as two serial pipes (host-to-device and
// device-to-host). Payloads are cut into TLPs of at most max_payload bytes,
// each carrying a fixed header/framing overhead, which is why tiny writes
// waste bandwidth. Transfers in one direction queue behind each other.
#pragma once

#include <algorithm>
#include <cstdint>

#include "engine/event_queue.h"
#include "scenario/scenario.h"

namespace ssdp {

class PcieLink {
 public:
  enum Direction { kDownstream = 0, kUpstream = 1 };  // host->device, device->host

  explicit PcieLink(const PcieConfig& config)
      : max_payload_(config.max_payload_bytes),
        overhead_(config.tlp_overhead_bytes),
        latency_ns_(config.latency_ns),
        bytes_per_ns_(LaneBytesPerNs(config.generation) * config.lanes) {}

  // Raw bandwidth of one direction, bytes per nanosecond (= GB/s).
  static double LaneBytesPerNs(uint32_t generation) {
    switch (generation) {
      case 1: return 0.25;             // 2.5 GT/s, 8b/10b
      case 2: return 0.5;              // 5 GT/s, 8b/10b
      case 3: return 8.0 * 128 / 130 / 8;   // 8 GT/s, 128b/130b
      case 4: return 16.0 * 128 / 130 / 8;
      default: return 32.0 * 128 / 130 / 8;
    }
  }

  // Bytes on the wire for a payload, TLP headers included.
  uint64_t WireBytes(uint64_t payload) const {
    uint64_t tlps = (payload + max_payload_ - 1) / max_payload_;
    if (tlps == 0) tlps = 1;
    return payload + tlps * overhead_;
  }

  // Moves payload bytes starting no earlier than `now`; returns when the last
  // byte has arrived at the other end.
  SimTime Transfer(Direction dir, uint64_t payload, SimTime now) {
    SimTime start = std::max(now, free_at_[dir]);
    SimTime end = start + uint64_t(double(WireBytes(payload)) / (bytes_per_ns_ * (1.0 - reserved_[dir])) + 0.5);
    free_at_[dir] = end;
    busy_ns_[dir] += end - start;
    bytes_[dir] += payload;
    return end + latency_ns_;
  }

  // A share of a direction's bandwidth taken by traffic not modeled packet
  // by packet (the X-SSD's periodic counter updates), 0..0.9.
  void SetReservedShare(Direction dir, double share) { reserved_[dir] = std::min(0.9, std::max(0.0, share)); }
  double ReservedShare(Direction dir) const { return reserved_[dir]; }
  uint64_t overhead_bytes() const { return overhead_; }

  uint64_t latency_ns() const { return latency_ns_; }
  double bytes_per_ns() const { return bytes_per_ns_; }
  uint64_t BusyNs(Direction dir) const { return busy_ns_[dir]; }
  uint64_t Bytes(Direction dir) const { return bytes_[dir]; }
  void Reset() { free_at_[0] = free_at_[1] = 0; }

 private:
  uint64_t max_payload_;
  uint64_t overhead_;
  uint64_t latency_ns_;
  double bytes_per_ns_;
  SimTime free_at_[2] = {0, 0};
  uint64_t busy_ns_[2] = {0, 0};
  uint64_t bytes_[2] = {0, 0};
  double reserved_[2] = {0, 0};
};

}  // namespace ssdp
