// FastSideApi: the host library over the fast side, one instance per host
// thread (the paper's drop-in calls). Each call blocks its thread in
// simulated time and reports back through FastSideUser.
//
//  x_pwrite(n): copies n bytes into the CMB in chunks, spending every credit
//    it has before reading the credit counter again;
//  x_fsync(): reads the counter until it covers every byte written;
//  x_pread(n): tail read of the destaged ring on the conventional side:
//    waits until n more bytes are durable there, then reads their pages;
//  x_alloc(n) / x_free(area): the allocator view; an area may be written in
//    any order and is not destaged before it is freed.
// A counter that does not move for stall_timeout_ns makes the call read the
// status register; a link failure or an overrun ends the call with an error.
#pragma once

#include <cstdint>

#include "engine/event_queue.h"
#include "host/host.h"
#include "xssd/xssd_device.h"

namespace ssdp {

enum class FastSideCall : uint8_t { kNone, kPwrite, kFsync, kPread };

// Results of a call.
inline constexpr int32_t kFastSideOk = 0;
inline constexpr int32_t kFastSideLinkDown = -1;  // replication stalled: the status register says why
inline constexpr int32_t kFastSideOverrun = -2;   // the device dropped bytes: the stream has a gap

class FastSideUser {
 public:
  virtual ~FastSideUser() = default;
  virtual void OnFastSideDone(uint32_t thread, FastSideCall call, int32_t result, SimTime now) = 0;
};

struct FastSideStats {
  uint64_t pwrites = 0, fsyncs = 0, preads = 0;
  uint64_t counter_reads = 0, status_reads = 0;
  uint64_t credit_waits = 0;   // reads that found no credit
  uint64_t bytes_written = 0, bytes_read = 0;
  uint64_t pread_waits = 0;    // polls of the destage progress that found too little
  uint64_t skipped_bytes = 0;  // tail reads that lost bytes to the ring wrapping
};

class FastSideApi {
 public:
  FastSideApi(XssdDevice* device, Host* host, EventQueue* events, uint32_t thread, FastSideUser* user);

  void Pwrite(uint64_t bytes, SimTime now);
  // Writes into an x_alloc area: [begin, begin + bytes) must lie inside one.
  void PwriteAt(uint64_t begin, uint64_t bytes, SimTime now);
  void Fsync(SimTime now);
  void Pread(uint64_t bytes, SimTime now);
  uint64_t Alloc(uint64_t bytes) { return device_->Alloc(bytes); }
  void Free(uint64_t begin, SimTime now) { device_->Free(begin, now); }
  // Where the next tail read starts.
  void SeekTail(uint64_t pos) { read_pos_ = pos; }
  uint64_t ReadPos() const { return read_pos_; }

  // kEvXssdApi for this thread.
  void OnEvent(SimTime now);
  // The NVMe read of a tail read finished.
  void OnReadDone(SimTime now);
  // Power loss: the thread is gone mid-call.
  void Abort() { call_ = FastSideCall::kNone; phase_ = Phase::kIdle; }

  bool Busy() const { return call_ != FastSideCall::kNone; }
  uint64_t Credits() const { return credits_; }
  uint64_t LastCounter() const { return last_counter_; }
  const FastSideStats& stats() const { return stats_; }

 private:
  enum class Phase : uint8_t { kIdle, kDone, kCounter, kStatus, kDestaged, kReading, kPollWait };
  void WriteStep(SimTime now);
  void ReadCounterAt(SimTime at);
  void AfterCounter(SimTime now);
  void PreadStep(SimTime now);
  void Finish(int32_t result, SimTime at);
  void At(SimTime t, Phase phase);

  XssdDevice* device_;
  Host* host_;
  EventQueue* events_;
  uint32_t thread_;
  FastSideUser* user_;
  uint64_t queue_bytes_;
  FastSideCall call_ = FastSideCall::kNone;
  Phase phase_ = Phase::kIdle;
  int32_t result_ = kFastSideOk;
  uint64_t credits_;
  uint64_t remaining_ = 0;
  uint64_t write_pos_ = 0;        // PwriteAt: next position to write
  bool at_area_ = false;
  uint64_t read_value_ = 0;       // value of the read in flight
  uint64_t last_counter_ = 0;
  SimTime counter_moved_at_ = 0;  // when the counter last advanced
  uint64_t read_pos_ = 0, read_bytes_ = 0;
  FastSideStats stats_;
};

}  // namespace ssdp
