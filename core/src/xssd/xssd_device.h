// XssdDevice: the X-SSD fast side of the device (the VILLARS reference
// design): the CMB module (intake queue, backing ring, credit counter), the
// destage module and the transport module, and the crash protocol that ties
// them to the conventional side's power failure and reboot.
//
// The host reaches it through three doors, each costed on the PCIe link:
// posted writes of stream bytes (TLPs in write-combining or uncached mode),
// non-posted reads of the credit counter and of the status register, and
// the vendor admin commands of the transport module.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/event_queue.h"
#include "engine/rng.h"
#include "flash/timing.h"
#include "ftl/ftl.h"
#include "host/pcie_link.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"
#include "xssd/cmb_ring.h"
#include "xssd/destager.h"
#include "xssd/transport.h"

namespace ssdp {

// What the fast side did, for metrics and tests.
struct XssdCrashReport {
  bool happened = false;
  SimTime at = 0;
  uint64_t host_acknowledged = 0;  // highest counter value any host read returned
  uint64_t counter_at_loss = 0;    // contiguous persisted bytes (the first gap)
  uint64_t queued_lost = 0;        // bytes still in the intake queue
  uint64_t beyond_gap = 0;         // landed after the gap, dropped
  uint64_t destaged_on_capacitors = 0;  // bytes written to flash on capacitor power
  uint64_t capacitor_pages = 0;
  uint64_t capacitor_ns = 0;
  uint64_t durable_after_reboot = 0;    // readable stream end found on reboot
  uint64_t lost_acknowledged = 0;       // acknowledged bytes not readable after reboot (must be 0)
  uint32_t pages_checked = 0;
};

class XssdDevice : public DestageSink {
 public:
  // `shared_dram` is the controller DRAM port (used when the ring is in
  // DRAM); `timing` prices the capacitor-powered destage.
  XssdDevice(const Scenario& scenario, EventQueue* events, RecordRing* records, Ftl* ftl, PcieLink* link,
             DramPort* shared_dram, const FlashTiming& timing, uint32_t first_lpn);

  // Schedules admin commands and link failures; sets the transport's role.
  void Start(SimTime now);

  // Host side. A write of stream bytes [begin, begin + bytes) issued by the
  // CPU from `cpu_at`; returns when the CPU has issued the last store.
  SimTime HostWrite(uint64_t begin, uint64_t bytes, SimTime cpu_at);
  struct Read {
    uint64_t value;
    SimTime done;  // when the value is in a CPU register
  };
  // Non-posted read of the credit counter (ordered behind earlier writes).
  Read ReadCounter(SimTime at, uint32_t thread);
  // The host received counter value v: it is acknowledged from now on.
  void NoteAcknowledged(uint64_t v) { host_acknowledged_ = v > host_acknowledged_ ? v : host_acknowledged_; }
  Read ReadStatus(SimTime at);
  // The device's destage progress (for x_pread): durable stream end.
  Read ReadDestaged(SimTime at);
  // Allocator view: reserves [begin, begin + bytes) at the stream tail; the
  // area is not destaged until freed.
  uint64_t Alloc(uint64_t bytes);
  void Free(uint64_t begin, SimTime now);
  // Stream position the host library writes next (shared by its calls).
  uint64_t& host_tail() { return host_tail_; }

  // Events.
  void OnDestageEvent(SimTime now) { destager_->OnLook(now); }
  void OnDrainEvent(uint32_t secondary, SimTime now);
  void OnAdminCommand(uint32_t index, SimTime now);
  void OnLinkDown(uint32_t secondary, SimTime now);
  // Periodic: ring snapshot records, history pruning.
  void OnPerfTick(SimTime now);

  // DestageSink.
  void OnDestageProgrammed(uint32_t tag, uint32_t lpn, uint32_t seq, SimTime now) override;
  void OnDestageRetried(uint32_t tag) override { destager_->OnRetried(tag); }
  void OnPowerLoss(SimTime now) override;
  // Power is about to fail (before the conventional side reacts).
  void BeforePowerLoss(SimTime now) { durable_before_loss_ = destager_->DurablePos(); (void)now; }
  // The conventional side finished its reboot at `ready`: find the tail.
  void AfterReboot(SimTime ready);

  const XssdConfig& config() const { return config_; }
  uint32_t page_bytes() const { return scenario_.device.geometry.page_bytes; }
  const CmbRing& ring() const { return *ring_; }
  const Destager& destager() const { return *destager_; }
  const Transport& transport() const { return *transport_; }
  const XssdCrashReport& last_crash() const { return crash_; }
  uint64_t HostAcknowledged() const { return host_acknowledged_; }
  uint32_t StatusBits() const;
  uint64_t TlpsSent() const { return tlps_; }
  uint64_t WireBytes() const { return wire_bytes_; }
  uint64_t CounterReads() const { return counter_reads_; }
  // Bytes the host wrote that the device dropped (overrun).
  uint64_t OverrunBytes() const { return ring_->stats().overrun_bytes; }
  // Logical pages of the destage ring: [FirstLpn, FirstLpn + RingPages).
  uint32_t FirstLpn() const { return destager_->FirstLpn(); }

 private:
  void EmitRing(SimTime now);

  const Scenario& scenario_;
  const XssdConfig& config_;
  EventQueue* events_;
  RecordRing* records_;
  Ftl* ftl_;
  PcieLink* link_;
  FlashTiming timing_;
  std::unique_ptr<DramPort> own_memory_;  // SRAM backing (DRAM uses the shared port)
  DramPort* memory_;
  std::unique_ptr<CmbRing> ring_;
  std::unique_ptr<Destager> destager_;
  std::unique_ptr<Transport> transport_;
  Rng reorder_rng_;
  uint64_t host_tail_ = 0;
  uint64_t host_acknowledged_ = 0;
  struct Area {
    uint64_t begin, end;
    bool freed;
  };
  std::vector<Area> areas_;  // x_alloc areas, oldest first
  uint64_t tlps_ = 0, wire_bytes_ = 0, counter_reads_ = 0;
  bool powered_ = true;
  uint64_t durable_before_loss_ = 0;
  XssdCrashReport crash_;
};

}  // namespace ssdp
