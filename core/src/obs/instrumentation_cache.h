// InstrumentationCache: the instrumented SSD's device-side record store. Every
// performance event record the device produces is also written, circularly,
// into a cache in controller DRAM; a freezing trigger (a request stage over a
// threshold, optionally only under load) stops the writing so the records
// around a problem survive; a vendor command copies the cache to the host.
// Modeled after "It Takes Two: Instrumenting the Interaction between
// In-Memory Databases and Solid-State Drives".
#pragma once

#include <cstdint>
#include <vector>

#include "engine/event_queue.h"
#include "obs/record.h"
#include "scenario/scenario.h"

namespace ssdp {

class DramPort;

class InstrumentationCache {
 public:
  // dram may be null (no contention modeled).
  InstrumentationCache(const InstrumentationConfig& config, DramPort* dram);

  // Writes one record into the cache unless frozen. Called for every record
  // the model emits (the enabled points and sampling already applied).
  void Store(const Record& r);

  void Freeze(SimTime now);
  void Resume() { frozen_ = false; }
  void Clear();

  // Checks a completed request against the trigger; returns true when it
  // fires (the caller then freezes now or after post_trigger_ns).
  bool Triggers(uint64_t total_ns, uint64_t fetch_ns, uint64_t service_ns, uint64_t completion_ns,
                uint32_t outstanding) const;
  bool Triggered() const { return triggered_; }
  void MarkTriggered() { triggered_ = true; }

  // Copies the cached records, oldest first (what a transfer command returns).
  void Snapshot(std::vector<Record>* out) const;

  bool frozen() const { return frozen_; }
  SimTime frozen_at() const { return frozen_at_; }
  uint64_t CapacityRecords() const { return slots_.size(); }
  uint64_t Held() const { return written_ < slots_.size() ? written_ : slots_.size(); }
  uint64_t Written() const { return written_; }
  uint64_t Overwritten() const { return written_ > slots_.size() ? written_ - slots_.size() : 0; }
  uint64_t BytesHeld() const { return Held() * record_bytes_; }
  // Time span the held records cover (ns), newest minus oldest.
  SimTime HistorySpanNs() const;
  // Record production rate since the first record (records per simulated
  // second), and how many seconds of history the whole cache holds at it.
  double RecordsPerSecond() const;
  double CapacitySeconds() const;

 private:
  std::vector<Record> slots_;
  uint32_t record_bytes_;
  const InstrumentationTrigger trigger_;
  DramPort* dram_;
  uint64_t written_ = 0;
  SimTime first_time_ = kNever;
  SimTime last_time_ = 0;
  bool frozen_ = false;
  bool triggered_ = false;
  SimTime frozen_at_ = 0;
};

// DramPort: the controller DRAM's bandwidth as one serial resource, shared by
// host data moving through the buffer and by instrumentation records.
class DramPort {
 public:
  explicit DramPort(uint64_t mbps) : bytes_per_ns_(double(mbps) / 1000.0) {}
  // Moves `bytes` starting no earlier than `now`; returns when done.
  SimTime Access(uint64_t bytes, SimTime now) {
    SimTime start = now > free_at_ ? now : free_at_;
    SimTime end = start + SimTime(double(bytes) / bytes_per_ns_ + 0.5);
    busy_ns_ += end - start;
    free_at_ = end;
    return end;
  }
  // Moves `bytes` plus a fixed per-access cost, starting no earlier than `now`.
  SimTime Access(uint64_t bytes, uint64_t overhead_ns, SimTime now) {
    SimTime start = now > free_at_ ? now : free_at_;
    SimTime end = start + overhead_ns + SimTime(double(bytes) / bytes_per_ns_ + 0.5);
    busy_ns_ += end - start;
    free_at_ = end;
    return end;
  }
  uint64_t BusyNs() const { return busy_ns_; }
  double BytesPerNs() const { return bytes_per_ns_; }
  void Reset() { free_at_ = 0; }

 private:
  double bytes_per_ns_;
  SimTime free_at_ = 0;
  uint64_t busy_ns_ = 0;
};

}  // namespace ssdp
