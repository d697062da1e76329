// CmbRing: the fast side's intake queue, backing ring and credit counter.
//
// Data arrives as TLP payloads ("chunks") at stream positions. Each chunk
// waits in the intake queue, then is written to the backing memory (SRAM or
// DRAM, at its bandwidth and beat size) once the ring has room. The credit
// counter is the end of the longest prefix of the stream whose chunks all
// reached the backing ring: a chunk that landed beyond a gap does not count.
//
// Land times are computed when a chunk arrives (or when ring space frees
// up), possibly ahead of the simulation clock, so the counter is a function
// of time: CounterAt(t) answers for any t not older than the kept history.
// A chunk that arrives at a full intake queue is dropped and counted as an
// overrun: the stream then has a gap the counter can never pass.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/event_queue.h"
#include "obs/instrumentation_cache.h"
#include "scenario/scenario.h"

namespace ssdp {

struct CmbRingParams {
  uint64_t ring_bytes = 128 * 1024;
  uint64_t queue_bytes = 32 * 1024;
  uint32_t bus_bytes = 16;
  uint64_t access_ns = 0;

  // The ring a scenario's device.xssd.cmb describes.
  static CmbRingParams From(const CmbConfig& cmb) {
    return CmbRingParams{cmb.RingBytes(), cmb.queue_bytes, cmb.BusBytes(), cmb.access_ns};
  }
};

struct CmbRingStats {
  uint64_t chunks = 0;
  uint64_t bytes_arrived = 0;
  uint64_t overrun_chunks = 0;
  uint64_t overrun_bytes = 0;
  uint64_t ring_full_waits = 0;  // chunks that waited for ring space
  uint64_t max_queue_bytes = 0;  // deepest intake queue seen
};

class CmbRing {
 public:
  // `memory` is the backing memory's port (shared with the data buffer for
  // DRAM); it must outlive the ring.
  CmbRing(const CmbRingParams& params, DramPort* memory);

  // A chunk [begin, begin + bytes) arrives at time `at`. Arrival times must
  // not decrease from one call to the next. Returns false on overrun.
  bool Arrive(uint64_t begin, uint32_t bytes, SimTime at);

  // Ring space up to stream position `pos` is free again (destaged and
  // mirrored) as of `now`; chunks waiting for space may land.
  void FreeTo(uint64_t pos, SimTime now);

  // Contiguous bytes persisted in the backing ring at time t.
  uint64_t CounterAt(SimTime t) const;
  // When the counter reaches `pos`, or kNever if not yet known.
  SimTime TimeCounterReaches(uint64_t pos) const;
  // Highest counter value with a known time (may lie in the future).
  uint64_t KnownCounter() const { return history_.empty() ? base_ : history_.back().end; }
  // Bytes that arrived but had not reached the ring at time t (intake queue).
  uint64_t QueuedAt(SimTime t) const;
  // Bytes that landed at or before t beyond the first gap (lost at a crash).
  uint64_t LandedBeyondGapAt(SimTime t) const;
  // Stream position of the last byte that arrived (or will, as scheduled).
  uint64_t ArrivedEnd() const { return arrived_end_; }
  uint64_t FreedPos() const { return freed_; }
  bool Overrun() const { return stats_.overrun_chunks > 0; }

  // Drops history older than t (keeps what CounterAt(t') for t' >= t needs).
  void Prune(SimTime t);
  // Power loss at t: chunks that had not landed by t are gone; the ring
  // keeps what is persisted. Returns the counter at t.
  uint64_t Crash(SimTime t);
  // Starts an empty ring whose stream continues at `pos` (after a reboot, or
  // when a secondary joins).
  void Reset(uint64_t pos);

  const CmbRingStats& stats() const { return stats_; }
  const CmbRingParams& params() const { return params_; }

 private:
  struct Chunk {
    uint64_t begin;
    uint32_t bytes;
    SimTime arrive;
    SimTime land;  // kNever while waiting for ring space
  };
  struct Step {
    SimTime time;  // the counter reached `end` at this time
    uint64_t end;
  };

  // Lands waiting chunks in arrival order while the ring has room.
  void LandPending(SimTime not_before);
  void OnLanded(const Chunk& c);

  CmbRingParams params_;
  DramPort* memory_;
  std::vector<Chunk> chunks_;  // arrival order, from the oldest still needed
  size_t chunk_head_ = 0;
  size_t pending_ = 0;         // index of the first chunk without a land time
  size_t queue_front_ = 0;     // first chunk still in the intake queue at the last arrival
  uint64_t queued_bytes_ = 0;  // bytes from queue_front_ to the end
  std::vector<Step> history_;  // counter steps, time and end increasing
  size_t history_head_ = 0;
  std::vector<Chunk> beyond_gap_;  // landed chunks not yet contiguous (small)
  uint64_t base_ = 0;          // counter value before the first kept step
  uint64_t contiguous_ = 0;    // counter once every computed land has happened
  uint64_t arrived_end_ = 0;
  uint64_t freed_ = 0;
  CmbRingStats stats_;
};

}  // namespace ssdp
