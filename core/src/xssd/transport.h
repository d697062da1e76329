// Transport: the primary's replication of the fast side's stream.
//
// Each secondary gets one mirror flow: every chunk that reaches the
// primary's CMB is sent again, over the primary's PCIe link and the
// secondary's NTB link, into the secondary's own CMB ring (eager and lazy);
// in chain replication each secondary forwards to the next. A secondary
// reports its credit counter every update_period_ns into a shadow counter on
// the primary. The counter the host reads is the primary's own (lazy), the
// slowest shadow (eager), or the last of the chain (chain). A secondary's
// conventional side is not simulated: it drains its ring at drain_mbps.
//
// A link that fails stops the mirror flow and the updates; the shadow
// counter stalls at its last value and the status register says so. Data the
// host saw acknowledged is never taken back.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/event_queue.h"
#include "host/pcie_link.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"
#include "util/latency_histogram.h"
#include "xssd/cmb_ring.h"

namespace ssdp {

// Status register bits.
inline constexpr uint32_t kXssdStatusPrimary = 1u << 0;      // transport on, role primary
inline constexpr uint32_t kXssdStatusLinkDown = 1u << 1;     // a secondary's link is down
inline constexpr uint32_t kXssdStatusOverrun = 1u << 2;      // the host wrote past its credits
inline constexpr uint32_t kXssdStatusSecondaryLost = 1u << 3;  // a secondary could not keep up
inline constexpr uint32_t kXssdStatusLinkBit0 = 1u << 8;     // bit 8+i: secondary i's link is down

struct SecondaryStatus {
  bool active = false;     // part of the replication set
  bool link_up = true;
  SimTime link_down_at = kNever;
  uint64_t join_pos = 0;   // stream position from which it holds data
  uint64_t mirrored_bytes = 0;
  uint64_t drained_bytes = 0;
  uint64_t update_count = 0;
  LatencyHistogram repl_delay;  // write at the primary -> shadow counter covers it
};

class Transport {
 public:
  Transport(const Scenario& scenario, EventQueue* events, RecordRing* records, PcieLink* primary_link);

  bool IsPrimary() const { return primary_; }
  // Admin commands (the vendor NVMe commands).
  void SetPrimary(bool primary, uint64_t stream_pos, SimTime now);
  void AddSecondary(uint32_t i, uint64_t stream_pos, SimTime now);
  void DropSecondary(uint32_t i, SimTime now);
  void LinkDown(uint32_t i, SimTime now);

  // A chunk reached the primary's CMB at `at`: mirror it.
  void Mirror(uint64_t begin, uint32_t bytes, SimTime at);
  // One write burst ended at `end` on the primary at `at` (a delay probe).
  void Probe(uint64_t end, SimTime at);
  // The counter the host reads at t, given the primary's own.
  uint64_t HostCounter(uint64_t local, SimTime t) const;
  // Shadow counter for secondary i on the primary at time t.
  uint64_t Shadow(uint32_t i, SimTime t) const;
  uint32_t StatusBits() const;

  // Moves drains and delay probes forward to now.
  void Pump(SimTime now);
  void OnDrainEvent(uint32_t i, SimTime now);
  // Power loss at the primary: mirror flows stop mid-way; secondaries keep
  // what reached their rings.
  void PrimaryPowerLoss(SimTime now);
  void Restart(uint64_t stream_pos, SimTime now);

  uint32_t Secondaries() const { return uint32_t(secondaries_.size()); }
  const SecondaryStatus& Status(uint32_t i) const { return secondaries_[i].status; }
  const CmbRing& Ring(uint32_t i) const { return *secondaries_[i].ring; }
  // Share of the primary's PCIe downstream bandwidth the counter updates take.
  double UpdateShare() const;
  // Emits one shadow record per active secondary.
  void EmitShadows(SimTime now);

 private:
  struct Secondary {
    SecondaryConfig config;
    std::unique_ptr<DramPort> memory;
    std::unique_ptr<CmbRing> ring;
    double link_bytes_per_ns = 0;
    SimTime link_free_at = 0;
    uint64_t up_latency_ns = 0;  // update TLP from this secondary to the primary
    uint64_t frozen_shadow = 0;  // after a link failure: the last update that made it
    uint64_t drain_pos = 0;
    SimTime drain_done_at = kNever;  // a page drain in progress ends then
    uint32_t drain_payload = 0;
    SimTime next_look = kNever;
    struct Probe {
      uint64_t end;
      SimTime at;
    };
    std::vector<Probe> probes;
    size_t probe_head = 0;
    SecondaryStatus status;
  };
  SimTime SendOver(Secondary& s, uint32_t bytes, SimTime at);
  void PumpDrain(uint32_t i, SimTime now);
  void PumpProbes(uint32_t i, SimTime now);
  void UpdateLinkShare();
  void EmitStatus(uint32_t secondary, SimTime now);

  const Scenario& scenario_;
  EventQueue* events_;
  RecordRing* records_;
  PcieLink* link_;
  ReplicationScheme scheme_;
  bool primary_ = false;
  bool secondary_lost_ = false;
  uint32_t page_bytes_;
  std::vector<Secondary> secondaries_;
};

}  // namespace ssdp
