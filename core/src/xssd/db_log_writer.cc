#include "xssd/db_log_writer.h"

#include <algorithm>

#include "engine/event_type.h"

namespace ssdp {
namespace {
constexpr uint32_t kNvmeFlushTag = 0x10000;
constexpr uint64_t kFsyncRetryNs = 100'000;  // a database retries a failed commit after this
}  // namespace

DbLogWriter::DbLogWriter(const Scenario& scenario, EventQueue* events, RecordRing* records, Host* host,
                         XssdDevice* device, uint32_t log_first_lpn)
    : scenario_(scenario),
      config_(scenario.workload.db_log),
      events_(events),
      records_(records),
      host_(host),
      device_(device),
      log_first_lpn_(log_first_lpn),
      log_area_bytes_(scenario.device.xssd.destage.ring_pages * scenario.device.geometry.page_bytes),
      page_bytes_(scenario.device.geometry.page_bytes) {
  if (device_ != nullptr) {
    flusher_api_ = std::make_unique<FastSideApi>(device_, host_, events_, kFlusherThread, this);
    reader_api_ = std::make_unique<FastSideApi>(device_, host_, events_, kReaderThread, this);
  }
  uint64_t capacity = 1;
  while (capacity < uint64_t(config_.workers) * config_.commit_queue + 1) capacity <<= 1;
  txn_start_.assign(capacity, 0);
  txn_worker_.assign(capacity, 0);
  txn_mask_ = capacity - 1;
  uncommitted_.assign(config_.workers, 0);
  blocked_.assign(config_.workers, 0);
  stopped_.assign(config_.workers, 0);
  if (config_.duration_ns > 0) end_time_ = config_.start_ns + config_.duration_ns;
}

void DbLogWriter::Start(SimTime now) {
  SimTime start = std::max(now, config_.start_ns);
  stats_.started = start;
  for (uint32_t w = 0; w < config_.workers; ++w) BeginTxn(w, start);
}

bool DbLogWriter::MayStartTxn(SimTime now) const {
  if (crashed_ || stats_.fatal_overrun) return false;
  if (config_.transactions > 0 && issued_txns_ >= config_.transactions) return false;
  return now < end_time_;
}

void DbLogWriter::BeginTxn(uint32_t worker, SimTime now) {
  if (!MayStartTxn(now)) {
    stopped_[worker] = 1;
    // The last partial group still commits.
    if (!flushing_ && group_bytes_ > 0) StartFlush(now);
    return;
  }
  ++issued_txns_;
  events_->Push(now + config_.txn_compute_ns, kEvXssdWorker, worker);
}

void DbLogWriter::OnWorkerEvent(uint32_t worker, SimTime now) {
  if (crashed_) return;
  // The transaction's log record joins the open group.
  uint64_t id = next_txn_++;
  txn_start_[id & txn_mask_] = now - config_.txn_compute_ns;
  txn_worker_[id & txn_mask_] = uint16_t(worker);
  if (group_bytes_ == 0) {
    group_first_ = id;
    group_opened_ = now;
  }
  group_bytes_ += config_.record_bytes;
  ++uncommitted_[worker];
  if (!flushing_) {
    if (group_bytes_ >= config_.group_commit_bytes) {
      StartFlush(now);
    } else {
      ArmTimeout(now);
    }
  }
  if (uncommitted_[worker] < config_.commit_queue) {
    BeginTxn(worker, now);
  } else {
    blocked_[worker] = 1;
    ++stats_.worker_waits;
  }
}

void DbLogWriter::ArmTimeout(SimTime now) {
  if (group_bytes_ == 0) return;
  SimTime due = std::max(now, group_opened_ + config_.group_timeout_ns);
  if (timeout_armed_ != kNever && timeout_armed_ <= due) return;
  timeout_armed_ = due;
  events_->Push(due, kEvXssdFlusher, 0);
}

void DbLogWriter::OnFlusherEvent(SimTime now) {
  if (now >= timeout_armed_) timeout_armed_ = kNever;
  if (crashed_ || flushing_ || group_bytes_ == 0) return;
  if (now >= group_opened_ + config_.group_timeout_ns) {
    ++stats_.timeout_groups;
    StartFlush(now);
  } else {
    ArmTimeout(now);
  }
}

void DbLogWriter::StartFlush(SimTime now) {
  flushing_ = true;
  flush_first_ = group_first_;
  flush_end_ = next_txn_;
  flush_bytes_ = group_bytes_;
  flush_started_ = now;
  group_bytes_ = 0;
  switch (config_.target) {
    case DbLogTarget::kCmb: flusher_api_->Pwrite(flush_bytes_, now); break;
    case DbLogTarget::kNvme: {
      // One write of whole sectors at the log's head, wrapping in the area.
      uint32_t bytes = uint32_t((flush_bytes_ + 4095) / 4096 * 4096);
      if (nvme_log_pos_ + bytes > log_area_bytes_) nvme_log_pos_ = 0;
      uint64_t offset = uint64_t(log_first_lpn_) * page_bytes_ + nvme_log_pos_;
      nvme_log_pos_ += bytes;
      if (!host_->SubmitInternal(offset, bytes, false, kNvmeFlushTag, now)) Commit(now);
      break;
    }
    case DbLogTarget::kNone: Commit(now); break;
  }
}

void DbLogWriter::OnApiEvent(uint32_t thread, SimTime now) {
  if (thread == kFlusherThread && flusher_api_) flusher_api_->OnEvent(now);
  if (thread == kReaderThread && reader_api_) reader_api_->OnEvent(now);
}

void DbLogWriter::OnFastSideDone(uint32_t thread, FastSideCall call, int32_t result, SimTime now) {
  if (thread == kReaderThread) {
    stats_.tail_read_ns = now - tail_started_;
    reading_tail_ = false;
    return;
  }
  if (result == kFastSideOverrun) {
    stats_.fatal_overrun = true;  // the stream has a hole: the log cannot go on
    flushing_ = false;
    return;
  }
  if (result == kFastSideLinkDown) {
    // Replication is stuck: the commit waits and is retried.
    ++stats_.fsync_errors;
    flusher_api_->Fsync(now + kFsyncRetryNs);
    return;
  }
  if (call == FastSideCall::kPwrite) {
    flusher_api_->Fsync(now);
  } else {
    durable_stream_ = device_->host_tail();
    Commit(now);
  }
}

void DbLogWriter::OnInternalDone(uint32_t tag, SimTime now) {
  if (tag == kNvmeFlushTag) {
    Commit(now);
  } else if (tag == kReaderThread && reader_api_) {
    reader_api_->OnReadDone(now);
  }
}

void DbLogWriter::Commit(SimTime now) {
  for (uint64_t id = flush_first_; id < flush_end_; ++id) {
    stats_.latency.Record(now - txn_start_[id & txn_mask_]);
    uint32_t w = txn_worker_[id & txn_mask_];
    --uncommitted_[w];
  }
  uint64_t count = flush_end_ - flush_first_;
  committed_txn_ = flush_end_;
  stats_.transactions += count;
  stats_.groups += 1;
  stats_.log_bytes += flush_bytes_;
  stats_.flush_ns_total += now - flush_started_;
  stats_.first_commit = std::min(stats_.first_commit, now);
  stats_.last_commit = now;
  records_->Emit(now, RecordKind::kXssdCommit, uint16_t(config_.target), uint32_t(count), flush_bytes_,
                 now - flush_started_);
  flushing_ = false;
  for (uint32_t w = 0; w < config_.workers; ++w) {
    if (blocked_[w] && uncommitted_[w] < config_.commit_queue) {
      blocked_[w] = 0;
      BeginTxn(w, now);
    }
  }
  bool all_stopped = std::all_of(stopped_.begin(), stopped_.end(), [](uint8_t s) { return s != 0; });
  if (group_bytes_ >= config_.group_commit_bytes || (all_stopped && group_bytes_ > 0)) {
    StartFlush(now);
  } else {
    ArmTimeout(now);
  }
}

void DbLogWriter::PowerFail(SimTime now) {
  (void)now;
  crashed_ = true;
  flushing_ = false;
  if (flusher_api_) flusher_api_->Abort();
  if (reader_api_) reader_api_->Abort();
}

void DbLogWriter::AfterReboot(SimTime now) {
  if (device_ == nullptr || config_.target != DbLogTarget::kCmb) return;
  // The database reads the log past the last commit it saw: whatever the
  // crash protocol saved beyond it is the extra tail.
  const XssdCrashReport& crash = device_->last_crash();
  uint64_t from = std::min(durable_stream_, crash.durable_after_reboot);
  uint64_t bytes = crash.durable_after_reboot - from;
  stats_.tail_extra_bytes = crash.durable_after_reboot - std::min(crash.durable_after_reboot, durable_stream_);
  if (bytes == 0) return;
  stats_.tail_read_bytes = bytes;
  reading_tail_ = true;
  tail_started_ = now;
  reader_api_->SeekTail(from);
  reader_api_->Pread(bytes, now);
}

bool DbLogWriter::Finished() const {
  if (reading_tail_) return false;
  if (crashed_ || stats_.fatal_overrun) return true;
  if (flushing_ || group_bytes_ > 0) return false;
  if (config_.transactions == 0 && config_.duration_ns == 0) return false;
  return std::all_of(stopped_.begin(), stopped_.end(), [](uint8_t s) { return s != 0; }) &&
         committed_txn_ == next_txn_;
}

}  // namespace ssdp
