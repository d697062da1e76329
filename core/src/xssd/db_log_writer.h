// DbLogWriter: a main-memory database's transaction log (the X-SSD paper's
// ERMIA setup). N worker threads each run transactions (txn_compute_ns of
// CPU, then a log record of record_bytes); a single flusher thread commits
// the log in groups: once group_commit_bytes are waiting (or the oldest has
// waited group_timeout_ns) it writes the group and makes it durable, then
// every transaction in it commits. A worker may have at most commit_queue
// transactions waiting for their commit; then it waits too.
//
// The group goes to the fast side (x_pwrite + x_fsync), to the conventional
// side (one NVMe write into the log area, queue depth 1), or nowhere.
// After a power failure the database reboots and tail-reads the log past
// what it knew was durable: the extra tail the crash protocol saved.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/event_queue.h"
#include "host/host.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"
#include "util/latency_histogram.h"
#include "xssd/fast_side_api.h"
#include "xssd/xssd_device.h"

namespace ssdp {

struct DbLogStats {
  uint64_t transactions = 0;   // committed
  uint64_t groups = 0;
  uint64_t log_bytes = 0;      // committed log bytes
  uint64_t timeout_groups = 0; // flushed by the timeout, not the size
  uint64_t worker_waits = 0;   // a worker's commit queue was full
  uint64_t fsync_errors = 0;   // the fast side reported a stalled replication
  uint64_t flush_ns_total = 0;
  SimTime first_commit = kNever, last_commit = 0;
  SimTime started = 0;
  LatencyHistogram latency;    // transaction start to commit
  uint64_t tail_read_bytes = 0;  // after a reboot: log read back past the known end
  uint64_t tail_extra_bytes = 0; // ... of which the database had not seen acknowledged
  uint64_t tail_read_ns = 0;
  bool fatal_overrun = false;
};

class DbLogWriter : public FastSideUser, public HostInternalClient {
 public:
  // `device` is null unless device.xssd is enabled; `log_first_lpn` is the
  // first logical page of the log area (the destage ring's pages).
  DbLogWriter(const Scenario& scenario, EventQueue* events, RecordRing* records, Host* host, XssdDevice* device,
              uint32_t log_first_lpn);

  void Start(SimTime now);
  void OnWorkerEvent(uint32_t worker, SimTime now);
  void OnFlusherEvent(SimTime now);
  void OnApiEvent(uint32_t thread, SimTime now);
  void OnFastSideDone(uint32_t thread, FastSideCall call, int32_t result, SimTime now) override;
  void OnInternalDone(uint32_t tag, SimTime now) override;

  void PowerFail(SimTime now);
  void AfterReboot(SimTime now);
  bool Finished() const;
  const DbLogStats& stats() const { return stats_; }
  // Transactions waiting for their commit right now.
  uint64_t Uncommitted() const { return next_txn_ - committed_txn_; }
  const FastSideApi* flusher_api() const { return flusher_api_.get(); }

 private:
  enum : uint32_t { kFlusherThread = 0, kReaderThread = 1 };
  void BeginTxn(uint32_t worker, SimTime now);
  void StartFlush(SimTime now);
  void Commit(SimTime now);
  void ArmTimeout(SimTime now);
  bool MayStartTxn(SimTime now) const;

  const Scenario& scenario_;
  const DbLogConfig& config_;
  EventQueue* events_;
  RecordRing* records_;
  Host* host_;
  XssdDevice* device_;
  uint32_t log_first_lpn_;
  uint64_t log_area_bytes_;
  uint32_t page_bytes_;
  std::unique_ptr<FastSideApi> flusher_api_;
  std::unique_ptr<FastSideApi> reader_api_;
  // Transactions by id in a ring: start time and worker.
  std::vector<SimTime> txn_start_;
  std::vector<uint16_t> txn_worker_;
  uint64_t txn_mask_;
  uint64_t next_txn_ = 0, committed_txn_ = 0, issued_txns_ = 0;
  std::vector<uint32_t> uncommitted_;  // per worker
  std::vector<uint8_t> blocked_;       // per worker: waiting for a commit
  std::vector<uint8_t> stopped_;       // per worker: done with its transactions
  // The group being filled and the one being flushed.
  uint64_t group_first_ = 0, group_bytes_ = 0;
  SimTime group_opened_ = 0;
  uint64_t flush_first_ = 0, flush_end_ = 0, flush_bytes_ = 0;
  SimTime flush_started_ = 0;
  bool flushing_ = false;
  SimTime timeout_armed_ = kNever;
  uint64_t nvme_log_pos_ = 0;
  uint64_t durable_stream_ = 0;  // fast side: stream end the database saw durable
  bool crashed_ = false;
  bool reading_tail_ = false;
  SimTime tail_started_ = 0;
  SimTime end_time_ = kNever;
  DbLogStats stats_;
};

}  // namespace ssdp
