#include "xssd/fast_side_api.h"

#include <algorithm>

#include "engine/event_type.h"

namespace ssdp {
namespace {
constexpr uint64_t kPreadPollNs = 10'000;  // between looks at the destage progress
// An MMIO read stalls the CPU at least this long, whatever the link's
// settings; a poll loop can then never spin without simulated time passing.
constexpr uint64_t kMinMmioReadNs = 100;
}  // namespace

FastSideApi::FastSideApi(XssdDevice* device, Host* host, EventQueue* events, uint32_t thread, FastSideUser* user)
    : device_(device),
      host_(host),
      events_(events),
      thread_(thread),
      user_(user),
      queue_bytes_(device->ring().params().queue_bytes),
      credits_(queue_bytes_) {}

void FastSideApi::At(SimTime t, Phase phase) {
  phase_ = phase;
  events_->Push(t, kEvXssdApi, thread_);
}

void FastSideApi::Finish(int32_t result, SimTime at) {
  result_ = result;
  At(at, Phase::kDone);
}

void FastSideApi::Pwrite(uint64_t bytes, SimTime now) {
  call_ = FastSideCall::kPwrite;
  ++stats_.pwrites;
  remaining_ = bytes;
  at_area_ = false;
  counter_moved_at_ = now;
  WriteStep(now);
}

void FastSideApi::PwriteAt(uint64_t begin, uint64_t bytes, SimTime now) {
  call_ = FastSideCall::kPwrite;
  ++stats_.pwrites;
  remaining_ = bytes;
  write_pos_ = begin;
  at_area_ = true;
  counter_moved_at_ = now;
  WriteStep(now);
}

void FastSideApi::WriteStep(SimTime now) {
  const bool honor = device_->config().host.honor_credits;
  uint64_t n = honor ? std::min(remaining_, credits_) : remaining_;
  if (n == 0) {
    ++stats_.credit_waits;
    ReadCounterAt(now);
    return;
  }
  uint64_t& tail = device_->host_tail();
  uint64_t begin = at_area_ ? write_pos_ : tail;
  SimTime cpu_done = device_->HostWrite(begin, n, now);
  if (at_area_) {
    write_pos_ += n;
  } else {
    tail += n;
  }
  remaining_ -= n;
  credits_ -= std::min(credits_, n);
  stats_.bytes_written += n;
  if (remaining_ == 0) {
    Finish(kFastSideOk, cpu_done);
  } else {
    ReadCounterAt(cpu_done);
  }
}

void FastSideApi::ReadCounterAt(SimTime at) {
  XssdDevice::Read r = device_->ReadCounter(at, thread_);
  ++stats_.counter_reads;
  read_value_ = r.value;
  At(std::max(r.done, at + kMinMmioReadNs), Phase::kCounter);
}

void FastSideApi::Fsync(SimTime now) {
  call_ = FastSideCall::kFsync;
  ++stats_.fsyncs;
  counter_moved_at_ = now;
  ReadCounterAt(now);
}

void FastSideApi::AfterCounter(SimTime now) {
  device_->NoteAcknowledged(read_value_);
  if (read_value_ != last_counter_) counter_moved_at_ = now;
  last_counter_ = read_value_;
  // Credits: the queue minus what is still in flight.
  const uint64_t tail = device_->host_tail();
  uint64_t in_flight = tail - std::min(tail, read_value_);
  credits_ = queue_bytes_ - std::min(queue_bytes_, in_flight);
  bool satisfied = call_ == FastSideCall::kFsync ? read_value_ >= tail : credits_ > 0;
  if (satisfied) {
    if (call_ == FastSideCall::kFsync) {
      Finish(kFastSideOk, now);
    } else {
      WriteStep(now);
    }
    return;
  }
  if (now - counter_moved_at_ >= device_->config().host.stall_timeout_ns) {
    // The counter is stuck: ask the status register why.
    XssdDevice::Read s = device_->ReadStatus(now);
    ++stats_.status_reads;
    read_value_ = s.value;
    At(std::max(s.done, now + kMinMmioReadNs), Phase::kStatus);
    return;
  }
  ReadCounterAt(now);
}

void FastSideApi::Pread(uint64_t bytes, SimTime now) {
  call_ = FastSideCall::kPread;
  ++stats_.preads;
  read_bytes_ = bytes;
  PreadStep(now);
}

void FastSideApi::PreadStep(SimTime now) {
  XssdDevice::Read r = device_->ReadDestaged(now);
  read_value_ = r.value;
  At(std::max(r.done, now + kMinMmioReadNs), Phase::kDestaged);
}

void FastSideApi::OnEvent(SimTime now) {
  switch (phase_) {
    case Phase::kDone: {
      FastSideCall call = call_;
      call_ = FastSideCall::kNone;
      phase_ = Phase::kIdle;
      user_->OnFastSideDone(thread_, call, result_, now);
      return;
    }
    case Phase::kCounter: AfterCounter(now); return;
    case Phase::kStatus: {
      uint32_t bits = uint32_t(read_value_);
      if (bits & kXssdStatusOverrun) {
        Finish(kFastSideOverrun, now);
      } else if (bits & (kXssdStatusLinkDown | kXssdStatusSecondaryLost)) {
        Finish(kFastSideLinkDown, now);
      } else {
        counter_moved_at_ = now;  // slow, not broken: keep waiting
        ReadCounterAt(now);
      }
      return;
    }
    case Phase::kDestaged: {
      const Destager& d = device_->destager();
      if (read_pos_ < d.OldestReadable()) {
        // The ring wrapped past the reader: those bytes are gone.
        stats_.skipped_bytes += d.OldestReadable() - read_pos_;
        read_pos_ = d.OldestReadable();
      }
      uint64_t durable = read_value_;
      if (durable < read_pos_ + read_bytes_) {
        ++stats_.pread_waits;
        At(now + kPreadPollNs, Phase::kPollWait);
        return;
      }
      // Read the ring pages that hold [read_pos, read_pos + n), up to the
      // ring's wrap point in one command.
      uint64_t first_slot, count;
      d.LpnsFor(read_pos_, read_pos_ + read_bytes_, &first_slot, &count);
      uint64_t ring_pages = d.RingPages();
      uint64_t in_row = std::min<uint64_t>(count, ring_pages - first_slot % ring_pages);
      if (in_row == 0) in_row = 1;
      const uint32_t page = device_->page_bytes();
      uint64_t offset = uint64_t(d.LpnOfSlot(first_slot)) * page;
      phase_ = Phase::kReading;
      if (!host_->SubmitInternal(offset, uint32_t(in_row * page), true, thread_, now)) At(now + kPreadPollNs, Phase::kPollWait);
      return;
    }
    case Phase::kPollWait: PreadStep(now); return;
    default: return;
  }
}

void FastSideApi::OnReadDone(SimTime now) {
  if (call_ != FastSideCall::kPread) return;
  read_pos_ += read_bytes_;
  stats_.bytes_read += read_bytes_;
  Finish(kFastSideOk, now);
}

}  // namespace ssdp
