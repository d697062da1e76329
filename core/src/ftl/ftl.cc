#include "ftl/ftl.h"

#include <algorithm>

namespace ssdp {
namespace {

std::vector<uint32_t> BuildPlaneOrder(const GeometryConfig& g, AllocationOrder order) {
  std::vector<uint32_t> out;
  uint32_t ways = g.DiesPerChannel(), planes = g.planes_per_die;
  auto plane_id = [&](uint32_t ch, uint32_t way, uint32_t pl) {
    return (ch * ways + way) * planes + pl;
  };
  for (uint32_t a = 0; a < planes * ways * g.channels; ++a) {
    uint32_t ch, way, pl;
    switch (order) {
      case AllocationOrder::kChannelFirst:  // channel varies fastest, then way, then plane
        ch = a % g.channels;
        way = (a / g.channels) % ways;
        pl = a / (g.channels * ways);
        break;
      case AllocationOrder::kWayFirst:
        way = a % ways;
        ch = (a / ways) % g.channels;
        pl = a / (g.channels * ways);
        break;
      default:  // plane-first
        pl = a % planes;
        ch = (a / planes) % g.channels;
        way = a / (planes * g.channels);
        break;
    }
    out.push_back(plane_id(ch, way, pl));
  }
  return out;
}

}  // namespace

Ftl::Ftl(const Scenario& scenario, FlashArray* flash, EventQueue* events, RecordRing* records)
    : scenario_(scenario),
      geometry_(scenario.device.geometry),
      address_(scenario.device.geometry),
      flash_(flash),
      events_(events),
      records_(records),
      logical_pages_(uint32_t(double(geometry_.TotalPages()) *
                              (1.0 - scenario.device.ftl.overprovisioning_fraction))),
      sectors_per_page_(geometry_.page_bytes / 512),
      l2p_(logical_pages_, kNoPage),
      oob_(geometry_.TotalPages(), geometry_.TotalBlocks(), geometry_.pages_per_block),
      blocks_(address_, geometry_.TotalPlanes(), scenario.device.ftl.wear_leveling.dynamic),
      buffer_(uint32_t(std::max<uint64_t>(1, scenario.device.ftl.buffer.capacity_bytes / geometry_.page_bytes)),
              geometry_.page_bytes / 512),
      gc_(geometry_.TotalPlanes()) {
  blocks_.SetEraseCounts(&oob_.erase_counts());
  plane_order_ = BuildPlaneOrder(geometry_, scenario.device.ftl.allocation_order);
  max_flushes_in_flight_ = std::max<uint32_t>(4, geometry_.TotalPlanes() * 2);

  // Factory bad blocks, placed by a seeded draw; every plane keeps enough
  // good blocks for GC to work.
  const auto& flash_cfg = scenario.device.flash;
  if (flash_cfg.factory_bad_block_fraction > 0) {
    Rng rng(scenario.seed, /*stream=*/0xBADB10C);
    uint32_t keep = scenario.device.ftl.gc.background_free_blocks + 4;
    for (uint32_t plane = 0; plane < geometry_.TotalPlanes(); ++plane) {
      for (uint32_t i = 0; i < geometry_.blocks_per_plane; ++i) {
        if (!rng.Chance(flash_cfg.factory_bad_block_fraction)) continue;
        if (blocks_.FreeCount(plane) <= keep) continue;
        blocks_.MarkFactoryBad(plane * geometry_.blocks_per_plane + i);
      }
    }
  }

  if (scenario.device.ftl.checkpoint.enabled) {
    ckpt_l2p_.assign(logical_pages_, kNoPage);
    ckpt_modified_.assign((logical_pages_ + 63) / 64, 0);
    uint32_t entries_per_map_page = geometry_.page_bytes / 4;
    map_page_dirty_.assign((logical_pages_ / entries_per_map_page + 64) / 64, 0);
    ckpt_programmed_.assign(geometry_.TotalBlocks(), 0);
    ckpt_erase_count_.assign(geometry_.TotalBlocks(), 0);
  }
  on_demand_ = scenario.device.ftl.buffer.flush_policy == FlushPolicy::kOnDemand;
  waiting_writes_.reserve(256);
  flush_ready_.reserve(256);
}

uint32_t Ftl::VisibleSeq(uint32_t lpn) const {
  uint32_t s = buffer_.Find(lpn);
  if (s != kNoPage && !buffer_.Slot(s).trimmed) return buffer_.Slot(s).seq;
  uint32_t p = l2p_[lpn];
  return p == kNoPage ? 0 : oob_.Seq(p);
}

uint64_t Ftl::MaxEraseCount() const {
  uint64_t m = 0;
  for (uint32_t b = 0; b < geometry_.TotalBlocks(); ++b)
    if (blocks_.Block(b).state != BlockState::kBad) m = std::max<uint64_t>(m, oob_.EraseCount(b));
  return m;
}

uint64_t Ftl::MinEraseCount() const {
  uint64_t m = ~uint64_t(0);
  for (uint32_t b = 0; b < geometry_.TotalBlocks(); ++b)
    if (blocks_.Block(b).state != BlockState::kBad) m = std::min<uint64_t>(m, oob_.EraseCount(b));
  return m == ~uint64_t(0) ? 0 : m;
}

// ---- Host path --------------------------------------------------------------

void Ftl::SubmitRead(uint32_t request_slot, SimTime now) {
  Request& r = (*requests_)[request_slot];
  const uint64_t access_ns = scenario_.device.ftl.buffer.access_ns;
  for (uint32_t i = 0; i < r.pages; ++i) {
    uint32_t lpn = r.first_lpn + i;
    ++stats_.host_pages_read;
    uint32_t s = buffer_.Find(lpn);
    uint32_t ppn = l2p_[lpn];
    if (s != kNoPage && !buffer_.Slot(s).trimmed &&
        (buffer_.Slot(s).sector_mask == buffer_.FullMask() || ppn == kNoPage)) {
      ++stats_.buffer_read_hits;
      buffer_.Touch(s);
      client_->OnSliceReady(request_slot, now + access_ns);
      continue;
    }
    if (ppn == kNoPage) {
      ++stats_.unmapped_reads;  // never written: the controller returns zeroes
      client_->OnSliceReady(request_slot, now);
      continue;
    }
    if (r.traced)
      records_->Emit(now, RecordKind::kRequestScheduled, uint16_t(address_.DieOf(ppn)), uint32_t(r.id),
                     lpn, ppn);
    IssueOp({FlashOpKind::kRead, OpPurpose::kHostRead, OpQueue::kRead, ppn, ppn,
             lpn, request_slot, 0, uint32_t(r.id) + 1},
            now);
  }
}

void Ftl::SubmitWrite(uint32_t request_slot, SimTime now) {
  Request& r = (*requests_)[request_slot];
  r.next_slice = 0;
  if (waiting_head_ < waiting_writes_.size()) {
    // Writes are placed in arrival order; a newcomer queues behind waiters.
    ++stats_.foreground_gc_stalls;
    if (r.first_wait == 0) r.first_wait = now;
    waiting_writes_.push_back(request_slot);
    return;
  }
  while (r.next_slice < r.pages) {
    if (!PlaceWriteSlice(request_slot, r, now)) {
      ++stats_.foreground_gc_stalls;
      r.first_wait = now;
      waiting_writes_.push_back(request_slot);
      break;
    }
    client_->OnSliceReady(request_slot, now);
  }
  KickFlush(now);
}

bool Ftl::PlaceWriteSlice(uint32_t request_slot, Request& r, SimTime now) {
  uint32_t lpn = r.first_lpn + r.next_slice;
  uint64_t page_start = uint64_t(lpn) * geometry_.page_bytes;
  uint64_t begin = std::max<uint64_t>(r.offset_bytes, page_start);
  uint64_t end = std::min<uint64_t>(r.offset_bytes + r.bytes, page_start + geometry_.page_bytes);
  uint32_t first_sector = uint32_t((begin - page_start) / 512);
  uint32_t sectors = uint32_t((end - begin + 511) / 512);
  uint64_t mask = sectors >= 64 ? ~uint64_t(0) : ((uint64_t(1) << sectors) - 1) << first_sector;
  mask &= buffer_.FullMask();

  uint32_t s = buffer_.Find(lpn);
  if (s != kNoPage) {
    BufferSlot& slot = buffer_.Slot(s);
    ++stats_.buffer_write_hits;
    if (slot.trimmed) {
      slot.trimmed = false;
      slot.sector_mask = 0;
    }
    if (slot.state == SlotState::kClean) {
      buffer_.RemoveFromClean(s);
      slot.state = SlotState::kDirty;
      buffer_.PushDirty(s);
    } else if (slot.state == SlotState::kFlushing) {
      slot.redirty = true;
    }
  } else {
    s = buffer_.Acquire(lpn);
    if (s == kNoPage) return false;
    BufferSlot& slot = buffer_.Slot(s);
    slot.state = SlotState::kDirty;
    buffer_.PushDirty(s);
  }
  BufferSlot& slot = buffer_.Slot(s);
  slot.sector_mask |= mask;
  slot.seq = next_seq_++;
  if (r.next_slice == 0) r.first_seq = slot.seq;
  ++stats_.host_pages_written;
  stats_.host_sectors_written += sectors;
  ++r.next_slice;
  (void)request_slot;
  (void)now;
  return true;
}

void Ftl::ResumeWaitingWrites(SimTime now) {
  while (waiting_head_ < waiting_writes_.size()) {
    uint32_t slot = waiting_writes_[waiting_head_];
    Request& r = (*requests_)[slot];
    while (r.next_slice < r.pages) {
      if (!PlaceWriteSlice(slot, r, now)) return;
      client_->OnSliceReady(slot, now);
    }
    ++waiting_head_;
  }
  waiting_writes_.clear();
  waiting_head_ = 0;
}

uint32_t Ftl::WaitingSlices() const {
  // Only as many flushes as the waiting writes can use are worth starting;
  // the sum stops early because the flusher's own limit is far lower.
  uint32_t slices = 0;
  for (size_t i = waiting_head_; i < waiting_writes_.size() && slices < max_flushes_in_flight_; ++i) {
    const Request& r = (*requests_)[waiting_writes_[i]];
    slices += r.pages - r.next_slice;
  }
  return slices;
}

bool Ftl::PlaneAcceptsHostWrite(uint32_t plane) const {
  if (blocks_.OpenBlockHasRoom(plane, Stream::kHost)) return true;
  uint32_t reserve = scenario_.device.ftl.gc.enabled ? scenario_.device.ftl.gc.foreground_free_blocks : 0;
  return blocks_.FreeCount(plane) > reserve;
}

uint32_t Ftl::PickFlushPlane() {
  const uint32_t n = uint32_t(plane_order_.size());
  const uint32_t die_limit = geometry_.planes_per_die * 2;
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t idx = plane_cursor_ + k;
    if (idx >= n) idx -= n;
    uint32_t plane = plane_order_[idx];
    if (!PlaneAcceptsHostWrite(plane)) continue;
    if (flash_->QueuedOn(address_.DieOfPlane(plane), OpQueue::kWrite) >= die_limit) continue;
    plane_cursor_ = idx + 1 == n ? 0 : idx + 1;
    return plane;
  }
  return kNoPage;
}

void Ftl::KickFlush(SimTime now) {
  if (!powered_) return;
  while (flushes_in_flight_ < max_flushes_in_flight_ || !flush_ready_.empty()) {
    if (!flush_ready_.empty()) {
      uint32_t s = flush_ready_.front();
      if (!IssueFlushProgram(s, now)) return;
      flush_ready_.erase(flush_ready_.begin());
      continue;
    }
    if (!buffer_.HasDirty()) return;
    // On demand, a page is flushed only to make room for a waiting write.
    if (on_demand_ && flushes_in_flight_ >= WaitingSlices()) return;
    uint32_t s = buffer_.PopDirty();
    BufferSlot& slot = buffer_.Slot(s);
    if (slot.trimmed) {
      buffer_.Release(s);
      continue;
    }
    slot.state = SlotState::kFlushing;
    slot.rmw_done = false;
    ++flushes_in_flight_;
    uint32_t old = l2p_[slot.lpn];
    if (slot.sector_mask != buffer_.FullMask() && old != kNoPage) {
      // Partial page: read the old page first and merge (read-modify-write).
      ++stats_.rmw_reads;
      IssueOp({FlashOpKind::kRead, OpPurpose::kRmwRead, OpQueue::kRead, old, old,
               slot.lpn, s, 0},
              now);
      continue;
    }
    if (!IssueFlushProgram(s, now)) {
      slot.state = SlotState::kDirty;
      buffer_.PushDirtyFront(s);
      --flushes_in_flight_;
      return;
    }
  }
}

bool Ftl::IssueFlushProgram(uint32_t s, SimTime now) {
  uint32_t plane = PickFlushPlane();
  if (plane == kNoPage) {
    // Every plane is at its reserve or busy: make sure GC is reclaiming.
    for (uint32_t p = 0; p < geometry_.TotalPlanes(); ++p) MaybeStartGc(p, now);
    return false;
  }
  uint32_t ppn = blocks_.AllocatePage(plane, Stream::kHost, now);
  if (ppn == kNoPage) return false;
  MaybeStartGc(plane, now);
  UpdateUrgency(plane);
  BufferSlot& slot = buffer_.Slot(s);
  IssueOp({FlashOpKind::kProgram, OpPurpose::kFlush, OpQueue::kWrite, ppn, kNoPage,
           slot.lpn, s, slot.seq},
          now);
  return true;
}

void Ftl::IssueOp(const OpRequest& request, SimTime now) {
  uint32_t op_index = flash_->AllocOp();
  FlashOp& op = flash_->Op(op_index);
  op.kind = request.kind;
  op.purpose = request.purpose;
  op.queue = request.queue;
  op.ppn = request.ppn;
  op.src_ppn = request.src_ppn;
  op.lpn = request.lpn;
  op.tag = request.tag;
  op.seq = request.seq;
  op.request = request.request;
  flash_->Submit(op_index, now);
}

void Ftl::OnFlashOpDone(uint32_t op_index, SimTime now) {
  FlashOp op = flash_->Op(op_index);  // copy: handlers may grow the op pool
  flash_->ReleaseOp(op_index);
  switch (op.purpose) {
    case OpPurpose::kHostRead: OnHostReadDone(op, now); break;
    case OpPurpose::kRmwRead: OnRmwReadDone(op, now); break;
    case OpPurpose::kFlush: OnFlushDone(op, now); break;
    case OpPurpose::kGcRead:
    case OpPurpose::kGcWrite:
    case OpPurpose::kGcCopy: OnGcOpDone(op, now); break;
    case OpPurpose::kGcErase: OnEraseDone(op, now); break;
    case OpPurpose::kCheckpoint: OnCheckpointPageDone(now); break;
    case OpPurpose::kDestage: OnDestageDone(op, now); break;
  }
}

void Ftl::OnHostReadDone(FlashOp& op, SimTime now) { client_->OnSliceReady(op.tag, now); }

void Ftl::OnRmwReadDone(FlashOp& op, SimTime now) {
  buffer_.Slot(op.tag).rmw_done = true;
  flush_ready_.push_back(op.tag);
  KickFlush(now);
}

void Ftl::OnFlushDone(FlashOp& op, SimTime now) {
  uint32_t s = op.tag;
  BufferSlot& slot = buffer_.Slot(s);
  if (op.failed) {
    ++stats_.program_failures;
    oob_.Program(op.ppn, kTornLpn, 0);
    HandleProgramFailure(op.ppn, now);
    flush_ready_.push_back(s);  // retry elsewhere; still counted in flight
    KickFlush(now);
    return;
  }
  --flushes_in_flight_;
  oob_.Program(op.ppn, op.lpn, op.seq);
  ++stats_.flush_programs;
  uint32_t landed_in = address_.BlockOf(op.ppn);
  if (slot.trimmed) {
    if (slot.redirty) {
      slot.redirty = false;
      slot.trimmed = false;
      slot.state = SlotState::kDirty;
      buffer_.PushDirty(s);
    } else {
      buffer_.Release(s);
    }
  } else {
    Remap(op.lpn, op.ppn);
    if (slot.redirty) {
      slot.redirty = false;
      slot.state = SlotState::kDirty;
      buffer_.PushDirty(s);
    } else {
      buffer_.MakeClean(s);
    }
  }
  SettleRetiring(landed_in);
  if (blocks_.Block(landed_in).state == BlockState::kRetiring) MaybeStartGc(address_.PlaneOfBlock(landed_in), now);
  ++writes_since_checkpoint_;
  MaybeCheckpoint(now);
  ResumeWaitingWrites(now);
  KickFlush(now);
}

// ---- Fast side destage -------------------------------------------------------

bool Ftl::SubmitDestage(uint32_t lpn, uint32_t tag, SimTime now) {
  if (!powered_) return false;
  return IssueDestageProgram(lpn, tag, next_seq_++, now);
}

bool Ftl::IssueDestageProgram(uint32_t lpn, uint32_t tag, uint32_t seq, SimTime now) {
  const uint32_t n = uint32_t(plane_order_.size());
  const uint32_t die_limit = geometry_.planes_per_die * 2;
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t idx = destage_cursor_ + k;
    if (idx >= n) idx -= n;
    uint32_t plane = plane_order_[idx];
    if (!PlaneAcceptsHostWrite(plane)) continue;
    if (flash_->QueuedOn(address_.DieOfPlane(plane), OpQueue::kDestage) >= die_limit) continue;
    uint32_t ppn = blocks_.AllocatePage(plane, Stream::kHost, now);
    if (ppn == kNoPage) continue;
    destage_cursor_ = idx + 1 == n ? 0 : idx + 1;
    MaybeStartGc(plane, now);
    UpdateUrgency(plane);
    IssueOp({FlashOpKind::kProgram, OpPurpose::kDestage, OpQueue::kDestage, ppn, kNoPage, lpn, tag, seq}, now);
    return true;
  }
  for (uint32_t p = 0; p < geometry_.TotalPlanes(); ++p) MaybeStartGc(p, now);
  return false;
}

void Ftl::OnDestageDone(FlashOp& op, SimTime now) {
  if (op.failed) {
    // A bad block: the page goes to another block, the block retires.
    ++stats_.program_failures;
    ++stats_.destage_retries;
    if (destage_sink_) destage_sink_->OnDestageRetried(op.tag);
    oob_.Program(op.ppn, kTornLpn, 0);
    HandleProgramFailure(op.ppn, now);
    if (!IssueDestageProgram(op.lpn, op.tag, op.seq, now)) destage_retry_.push_back({op.lpn, op.tag, op.seq});
    return;
  }
  oob_.Program(op.ppn, op.lpn, op.seq);
  ++stats_.destage_programs;
  Remap(op.lpn, op.ppn);
  uint32_t landed_in = address_.BlockOf(op.ppn);
  SettleRetiring(landed_in);
  ++writes_since_checkpoint_;
  MaybeCheckpoint(now);
  // Retries that found no plane go first.
  while (!destage_retry_.empty()) {
    const DestageRetry& r = destage_retry_.back();
    if (!IssueDestageProgram(r.lpn, r.tag, r.seq, now)) break;
    destage_retry_.pop_back();
  }
  if (destage_sink_) destage_sink_->OnDestageProgrammed(op.tag, op.lpn, op.seq, now);
  ResumeWaitingWrites(now);
  KickFlush(now);
}

uint32_t Ftl::PowerLossProgram(uint32_t lpn, SimTime now) {
  const uint32_t planes = geometry_.TotalPlanes();
  for (uint32_t tries = 0; tries < planes; ++tries) {
    uint32_t plane = destage_cursor_++ % planes;
    uint32_t ppn = blocks_.AllocatePage(plane, Stream::kHost, now);
    if (ppn == kNoPage) continue;
    uint32_t seq = next_seq_++;
    oob_.Program(ppn, lpn, seq);
    Remap(lpn, ppn);
    return seq;
  }
  return 0;
}

void Ftl::Remap(uint32_t lpn, uint32_t new_ppn) {
  NoteMappingChange(lpn);
  uint32_t old = l2p_[lpn];
  l2p_[lpn] = new_ppn;
  ++blocks_.Block(address_.BlockOf(new_ppn)).valid;
  if (old != kNoPage) {
    uint32_t b = address_.BlockOf(old);
    --blocks_.Block(b).valid;
    SettleRetiring(b);
  }
}

void Ftl::SettleRetiring(uint32_t block) {
  BlockInfo& info = blocks_.Block(block);
  if (info.state != BlockState::kRetiring || oob_.Programmed(block) < info.allocated) return;
  uint32_t plane = address_.PlaneOfBlock(block);
  if (info.valid == 0 && !(gc_[plane].active && gc_[plane].victim == block)) {
    blocks_.Retire(block, info.retire_reason);  // empty and quiet: bad for good
    --gc_[plane].retiring;
  }
}

void Ftl::Unmap(uint32_t lpn) {
  uint32_t old = l2p_[lpn];
  if (old == kNoPage) return;
  NoteMappingChange(lpn);
  --blocks_.Block(address_.BlockOf(old)).valid;
  l2p_[lpn] = kNoPage;
}

void Ftl::UpdateUrgency(uint32_t plane) {
  if (!scenario_.device.ftl.gc.enabled) return;
  uint32_t die = address_.DieOfPlane(plane);
  uint32_t first = die * geometry_.planes_per_die;
  bool urgent = false;
  for (uint32_t p = first; p < first + geometry_.planes_per_die; ++p)
    urgent |= blocks_.FreeCount(p) <= scenario_.device.ftl.gc.foreground_free_blocks;
  flash_->SetGcUrgent(die, urgent);
}

}  // namespace ssdp
