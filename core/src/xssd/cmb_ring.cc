#include "xssd/cmb_ring.h"

#include <algorithm>

namespace ssdp {

CmbRing::CmbRing(const CmbRingParams& params, DramPort* memory) : params_(params), memory_(memory) {
  chunks_.reserve(1024);
  history_.reserve(1024);
}

bool CmbRing::Arrive(uint64_t begin, uint32_t bytes, SimTime at) {
  ++stats_.chunks;
  stats_.bytes_arrived += bytes;
  // Chunks leave the intake queue in arrival order (land times grow along
  // it), so the queue is the suffix starting at queue_front_.
  while (queue_front_ < pending_ && chunks_[queue_front_].land <= at) queued_bytes_ -= chunks_[queue_front_++].bytes;
  uint64_t queued = queued_bytes_;
  if (queued + bytes > params_.queue_bytes) {
    // The host wrote past its credits: the device cannot hold the chunk.
    ++stats_.overrun_chunks;
    stats_.overrun_bytes += bytes;
    return false;
  }
  stats_.max_queue_bytes = std::max(stats_.max_queue_bytes, queued + bytes);
  arrived_end_ = std::max(arrived_end_, begin + bytes);
  chunks_.push_back(Chunk{begin, bytes, at, kNever});
  queued_bytes_ += bytes;
  LandPending(0);
  return true;
}

void CmbRing::LandPending(SimTime not_before) {
  const uint32_t bus = std::max<uint32_t>(1, params_.bus_bytes);
  while (pending_ < chunks_.size()) {
    Chunk& c = chunks_[pending_];
    if (c.begin + c.bytes > freed_ + params_.ring_bytes) {
      ++stats_.ring_full_waits;
      return;  // FreeTo lands it once the destage made room
    }
    uint64_t beats = (uint64_t(c.bytes) + bus - 1) / bus;
    c.land = memory_->Access(beats * bus, params_.access_ns, std::max(c.arrive, not_before));
    OnLanded(c);
    ++pending_;
  }
}

void CmbRing::OnLanded(const Chunk& c) {
  if (c.begin != contiguous_) {
    beyond_gap_.push_back(c);
    return;
  }
  contiguous_ = c.begin + c.bytes;
  // Chunks that landed earlier beyond the gap now join the prefix.
  for (bool joined = true; joined && !beyond_gap_.empty();) {
    joined = false;
    for (size_t i = 0; i < beyond_gap_.size(); ++i) {
      if (beyond_gap_[i].begin != contiguous_) continue;
      contiguous_ += beyond_gap_[i].bytes;
      beyond_gap_[i] = beyond_gap_.back();
      beyond_gap_.pop_back();
      joined = true;
      break;
    }
  }
  if (history_.size() > history_head_ && history_.back().time == c.land) {
    history_.back().end = contiguous_;
  } else {
    history_.push_back(Step{c.land, contiguous_});
  }
}

void CmbRing::FreeTo(uint64_t pos, SimTime now) {
  if (pos <= freed_) return;
  freed_ = pos;
  LandPending(now);
}

uint64_t CmbRing::CounterAt(SimTime t) const {
  // Last step at or before t.
  auto first = history_.begin() + ptrdiff_t(history_head_);
  auto it = std::upper_bound(first, history_.end(), t, [](SimTime v, const Step& s) { return v < s.time; });
  return it == first ? base_ : (it - 1)->end;
}

SimTime CmbRing::TimeCounterReaches(uint64_t pos) const {
  if (pos <= base_) return 0;
  auto first = history_.begin() + ptrdiff_t(history_head_);
  auto it = std::lower_bound(first, history_.end(), pos, [](const Step& s, uint64_t v) { return s.end < v; });
  return it == history_.end() ? kNever : it->time;
}

uint64_t CmbRing::QueuedAt(SimTime t) const {
  uint64_t queued = 0;
  // Land times grow along the arrival order, so the chunks still queued at t
  // are a suffix: walk back from the newest.
  for (size_t i = chunks_.size(); i-- > chunk_head_;) {
    const Chunk& c = chunks_[i];
    if (c.arrive > t) continue;
    if (c.land <= t) break;
    queued += c.bytes;
  }
  return queued;
}

uint64_t CmbRing::LandedBeyondGapAt(SimTime t) const {
  uint64_t counter = CounterAt(t), bytes = 0;
  for (size_t i = chunk_head_; i < pending_; ++i)
    if (chunks_[i].land <= t && chunks_[i].begin >= counter) bytes += chunks_[i].bytes;
  return bytes;
}

void CmbRing::Prune(SimTime t) {
  while (history_head_ + 1 < history_.size() && history_[history_head_ + 1].time <= t) ++history_head_;
  if (history_head_ < history_.size() && history_[history_head_].time <= t) {
    base_ = history_[history_head_].end;
    ++history_head_;
  }
  const uint64_t counter = base_;
  while (chunk_head_ < pending_ && chunks_[chunk_head_].land <= t &&
         chunks_[chunk_head_].begin + chunks_[chunk_head_].bytes <= counter)
    ++chunk_head_;
  // Pruned chunks landed before t, so they left the queue before any later arrival.
  while (queue_front_ < chunk_head_) queued_bytes_ -= chunks_[queue_front_++].bytes;
  if (history_head_ > 4096 && history_head_ * 2 > history_.size()) {
    history_.erase(history_.begin(), history_.begin() + ptrdiff_t(history_head_));
    history_head_ = 0;
  }
  if (chunk_head_ > 4096 && chunk_head_ * 2 > chunks_.size()) {
    chunks_.erase(chunks_.begin(), chunks_.begin() + ptrdiff_t(chunk_head_));
    pending_ -= chunk_head_;
    queue_front_ -= std::min(queue_front_, chunk_head_);
    chunk_head_ = 0;
  }
}

uint64_t CmbRing::Crash(SimTime t) {
  uint64_t counter = CounterAt(t);
  uint64_t freed = freed_;
  Reset(counter);
  freed_ = std::min(freed, counter);
  return counter;
}

void CmbRing::Reset(uint64_t pos) {
  chunks_.clear();
  history_.clear();
  beyond_gap_.clear();
  chunk_head_ = pending_ = history_head_ = queue_front_ = 0;
  queued_bytes_ = 0;
  base_ = contiguous_ = arrived_end_ = freed_ = pos;
}

}  // namespace ssdp
