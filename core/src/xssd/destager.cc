#include "xssd/destager.h"

#include <algorithm>

#include "engine/event_type.h"

namespace ssdp {

Destager::Destager(const Scenario& scenario, Ftl* ftl, CmbRing* ring, DramPort* memory, EventQueue* events,
                   RecordRing* records, uint32_t first_lpn)
    : ftl_(ftl),
      ring_(ring),
      memory_(memory),
      events_(events),
      records_(records),
      first_lpn_(first_lpn),
      ring_pages_(scenario.device.xssd.destage.ring_pages),
      page_bytes_(scenario.device.geometry.page_bytes),
      threshold_ns_(scenario.device.xssd.destage.latency_threshold_ns),
      max_in_flight_(scenario.device.xssd.destage.max_in_flight ? scenario.device.xssd.destage.max_in_flight
                                                                : std::max<uint32_t>(4, scenario.device.geometry.TotalPlanes() * 2)),
      slots_(ring_pages_) {
  pending_.reserve(256);
}

void Destager::Pump(SimTime now) {
  // Pages that found no plane go first, then new ones.
  while (unissued_ < pending_.size() && in_flight_ < max_in_flight_) {
    size_t before = unissued_;
    Issue(unissued_, now);
    if (unissued_ == before) break;
  }
  while (unissued_ == pending_.size() && in_flight_ < max_in_flight_ && CutPage(now)) {
  }
  if (unissued_ < pending_.size() && in_flight_ == 0) {
    // No program in flight will wake us: look again shortly.
    SimTime retry = now + 10'000;
    if (retry < next_look_) {
      next_look_ = retry;
      events_->Push(retry, kEvXssdDestage, 0);
    }
    return;
  }
  if (in_flight_ >= max_in_flight_) return;  // a completion pumps again
  // When will the next page be ready: a full page persisted, or the
  // threshold on a partial one?
  SimTime next = ring_->TimeCounterReaches(cut_ + page_bytes_);
  SimTime first = ring_->TimeCounterReaches(cut_ + 1);
  if (first != kNever) next = std::min(next, first + threshold_ns_);
  if (limit_ <= cut_) next = kNever;  // an x_alloc area holds it: x_free pumps
  if (next != kNever && next > now && next < next_look_) {
    next_look_ = next;
    events_->Push(next, kEvXssdDestage, 0);
  }
}

bool Destager::CutPage(SimTime now) {
  uint64_t avail_end = std::min(ring_->CounterAt(now), limit_);
  if (avail_end <= cut_) return false;
  uint64_t bytes = avail_end - cut_;
  uint32_t payload;
  if (bytes >= page_bytes_) {
    payload = page_bytes_;
    ++stats_.full_pages;
  } else {
    SimTime first = ring_->TimeCounterReaches(cut_ + 1);
    if (first == kNever || now < first + threshold_ns_) return false;
    payload = uint32_t(bytes);
    ++stats_.filler_pages;
    stats_.filler_bytes += page_bytes_ - payload;
  }
  uint64_t slot = next_slot_++;
  slots_[slot % ring_pages_] = DestageSlot{cut_, payload, 0};
  pending_.push_back(Pending{slot, cut_ + payload, now, 0, false});
  cut_ += payload;
  ++stats_.pages;
  stats_.payload_bytes += payload;
  Issue(pending_.size() - 1, now);
  return true;
}

void Destager::Issue(size_t index, SimTime now) {
  Pending& p = pending_[index];
  uint32_t lpn = LpnOfSlot(p.slot);
  if (!ftl_->SubmitDestage(lpn, uint32_t(p.slot), now)) {
    ++stats_.busy_waits;
    return;  // stays unissued
  }
  p.issued = now;
  ++in_flight_;
  unissued_ = index + 1;
  const DestageSlot& s = slots_[p.slot % ring_pages_];
  memory_->Access(s.payload, 0, now);  // the storage controller reads the ring directly
  records_->Emit(now, RecordKind::kXssdDestage, 0, uint32_t(p.slot % ring_pages_), s.begin,
                 uint64_t(s.payload) | (uint64_t(page_bytes_) << 32));
}

Destager::Pending* Destager::FindInFlight(uint32_t tag) {
  for (size_t i = pending_head_; i < unissued_; ++i)
    if (uint32_t(pending_[i].slot) == tag && !pending_[i].done) return &pending_[i];
  return nullptr;
}

void Destager::OnRetried(uint32_t tag) {
  if (Pending* p = FindInFlight(tag)) ++p->retries;
  ++stats_.retries;
}

void Destager::OnProgrammed(uint32_t tag, uint32_t seq, SimTime now) {
  SimTime issued = now;
  uint32_t retries = 0;
  if (Pending* p = FindInFlight(tag)) {
    p->done = true;
    --in_flight_;
    slots_[p->slot % ring_pages_].seq = seq;
    stats_.page_ns_total += now - p->issued;
    issued = p->issued;
    retries = p->retries;
  }
  while (pending_head_ < unissued_ && pending_[pending_head_].done) durable_ = pending_[pending_head_++].end;
  if (pending_head_ > 128 && pending_head_ * 2 > pending_.size()) {
    pending_.erase(pending_.begin(), pending_.begin() + ptrdiff_t(pending_head_));
    unissued_ -= pending_head_;
    pending_head_ = 0;
  }
  records_->Emit(now, RecordKind::kXssdDestageDone, 0, uint32_t(tag % ring_pages_), durable_,
                 (now - issued) | (uint64_t(retries) << 48));
}

uint64_t Destager::DestageAllOnPowerLoss(uint64_t counter, uint64_t max_pages, SimTime now, uint64_t* pages) {
  *pages = 0;
  // Pages already cut but not on flash are written again, in order, then
  // the rest of the persisted stream, the last page padded with filler.
  for (size_t i = pending_head_; i < pending_.size(); ++i) {
    Pending& p = pending_[i];
    if (p.done) continue;
    if (*pages >= max_pages) return durable_;
    uint32_t seq = ftl_->PowerLossProgram(LpnOfSlot(p.slot), now);
    if (seq == 0) return durable_;
    slots_[p.slot % ring_pages_].seq = seq;
    p.done = true;
    ++*pages;
    EmitPowerLossPage(p.slot, /*issue_record=*/i >= unissued_, now);
  }
  while (pending_head_ < pending_.size() && pending_[pending_head_].done) durable_ = pending_[pending_head_++].end;
  while (cut_ < counter && *pages < max_pages) {
    uint32_t payload = uint32_t(std::min<uint64_t>(page_bytes_, counter - cut_));
    uint64_t slot = next_slot_;
    uint32_t seq = ftl_->PowerLossProgram(LpnOfSlot(slot), now);
    if (seq == 0) break;
    ++next_slot_;
    slots_[slot % ring_pages_] = DestageSlot{cut_, payload, seq};
    if (payload < page_bytes_) {
      ++stats_.filler_pages;
      stats_.filler_bytes += page_bytes_ - payload;
    }
    ++stats_.pages;
    stats_.payload_bytes += payload;
    cut_ += payload;
    durable_ = cut_;
    ++*pages;
    EmitPowerLossPage(slot, /*issue_record=*/true, now);
  }
  pending_.clear();
  pending_head_ = unissued_ = 0;
  in_flight_ = 0;
  return durable_;
}

void Destager::EmitPowerLossPage(uint64_t slot, bool issue_record, SimTime now) {
  const DestageSlot& s = slots_[slot % ring_pages_];
  const uint32_t index = uint32_t(slot % ring_pages_);
  if (issue_record)
    records_->Emit(now, RecordKind::kXssdDestage, 0, index, s.begin, uint64_t(s.payload) | (uint64_t(page_bytes_) << 32));
  records_->Emit(now, RecordKind::kXssdDestageDone, 0, index, s.begin + s.payload, 0);
}

uint64_t Destager::VerifyAfterReboot(uint32_t* pages_checked) const {
  uint64_t first = next_slot_ > ring_pages_ ? next_slot_ - ring_pages_ : 0;
  uint64_t end = first < next_slot_ ? slots_[first % ring_pages_].begin : durable_;
  *pages_checked = 0;
  for (uint64_t s = first; s < next_slot_; ++s) {
    const DestageSlot& slot = slots_[s % ring_pages_];
    ++*pages_checked;
    // The page must still hold this slot's data version, and follow on.
    if (slot.seq == 0 || slot.begin != end || ftl_->VisibleSeq(LpnOfSlot(s)) != slot.seq) break;
    end = slot.begin + slot.payload;
  }
  return end;
}

void Destager::Restart(uint64_t pos) {
  pending_.clear();
  pending_head_ = unissued_ = 0;
  in_flight_ = 0;
  cut_ = durable_ = pos;
  next_look_ = kNever;
}

void Destager::OnLook(SimTime now) {
  if (now >= next_look_) next_look_ = kNever;
  Pump(now);
}

uint64_t Destager::OldestReadable() const {
  uint64_t first = next_slot_ > ring_pages_ ? next_slot_ - ring_pages_ : 0;
  return first < next_slot_ ? slots_[first % ring_pages_].begin : durable_;
}

void Destager::LpnsFor(uint64_t begin, uint64_t end, uint64_t* first_slot, uint64_t* count) const {
  uint64_t lo = next_slot_ > ring_pages_ ? next_slot_ - ring_pages_ : 0, hi = next_slot_;
  // First slot whose payload ends after `begin`.
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    const DestageSlot& s = slots_[mid % ring_pages_];
    if (s.begin + s.payload <= begin) lo = mid + 1; else hi = mid;
  }
  *first_slot = lo;
  uint64_t n = 0;
  for (uint64_t s = lo; s < next_slot_ && slots_[s % ring_pages_].begin < end; ++s) ++n;
  *count = n;
}

}  // namespace ssdp
