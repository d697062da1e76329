// Power failure, reboot and the self-checks that prove both right.
//
// On power loss the volatile state (buffer, mapping table, free lists, GC
// progress) is gone. With power-loss protection the capacitors finish the
// programs already running and flush dirty buffer pages for as long as their
// energy lasts. On reboot the mapping is rebuilt the way firmware does it:
// load the last checkpoint, scan the OOB of every page programmed after it
// (newest data version wins), replay the persisted trim log, rebuild block
// state, and write a fresh checkpoint. Each step's duration is computed from
// the flash timing and recorded.
#include <algorithm>
#include <string>

#include "ftl/ftl.h"

namespace ssdp {
namespace {
constexpr uint64_t kBootNs = 5'000'000;           // controller firmware start
constexpr uint64_t kCpuNsPerBlock = 50;            // rebuilding per-block state
constexpr uint64_t kCpuNsPerMappingEntry = 2;      // validating one table entry
constexpr uint64_t kCpuNsPerTrimEntry = 200;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
}  // namespace

PowerFailReport Ftl::PowerFail(SimTime now) {
  PowerFailReport report;
  powered_ = false;
  const BufferConfig& buf = scenario_.device.ftl.buffer;
  const bool plp = buf.power_loss_protection;
  const FlashTiming& t = flash_->timing();

  std::vector<uint32_t> running;
  flash_->CollectAndReset(&running);
  for (uint32_t op_index : running) {
    FlashOp op = flash_->Op(op_index);
    flash_->ReleaseOp(op_index);
    if (!plp) {
      oob_.Program(op.ppn, kTornLpn, 0);  // cut mid-program: unreadable
      ++report.torn_pages;
      continue;
    }
    if (op.purpose == OpPurpose::kFlush) {
      oob_.Program(op.ppn, op.lpn, op.seq);
      BufferSlot& slot = buffer_.Slot(op.tag);
      if (!slot.trimmed) Remap(op.lpn, op.ppn);
      if (!slot.redirty) slot.state = SlotState::kClean;
    } else if (op.purpose == OpPurpose::kGcCopy || op.purpose == OpPurpose::kGcWrite) {
      oob_.Program(op.ppn, op.lpn, op.seq);
      if (l2p_[op.lpn] == op.src_ppn) Remap(op.lpn, op.ppn);
    } else if (op.purpose == OpPurpose::kDestage) {
      oob_.Program(op.ppn, op.lpn, op.seq);
      Remap(op.lpn, op.ppn);
      if (destage_sink_) destage_sink_->OnDestageProgrammed(op.tag, op.lpn, op.seq, now);
    }
  }

  // Buffer pages whose newest version is not on flash, in slot order.
  std::vector<uint32_t> dirty;
  for (uint32_t s = 0; s < buffer_.Capacity(); ++s) {
    const BufferSlot& slot = buffer_.Slot(s);
    if (slot.trimmed) continue;
    if (slot.state == SlotState::kDirty || slot.state == SlotState::kFlushing) dirty.push_back(s);
  }
  report.dirty_pages = dirty.size();
  if (plp && !dirty.empty()) {
    // Emergency flush: all planes program in parallel, channels carry the data.
    const uint64_t planes = geometry_.TotalPlanes();
    auto flush_time = [&](uint64_t pages) {
      uint64_t array = CeilDiv(pages, planes) * (t.command_ns + t.program_ns);
      uint64_t bus = CeilDiv(pages, geometry_.channels) * t.page_transfer_ns;
      return std::max(array, bus);
    };
    uint64_t can_save = dirty.size();
    while (can_save > 0 && flush_time(can_save) > buf.capacitor_budget_ns) {
      // Shrink by whole rounds of planes: the budget buys rounds of programs.
      uint64_t rounds = buf.capacitor_budget_ns / std::max<uint64_t>(1, t.command_ns + t.program_ns);
      can_save = std::min<uint64_t>(can_save - 1, rounds * planes);
    }
    uint32_t plane = 0;
    for (uint64_t i = 0; i < can_save; ++i) {
      const BufferSlot& slot = buffer_.Slot(dirty[i]);
      uint32_t ppn = kNoPage;
      for (uint32_t tries = 0; tries < planes && ppn == kNoPage; ++tries) {
        ppn = blocks_.AllocatePage(plane, Stream::kHost, now);
        plane = (plane + 1) % uint32_t(planes);
      }
      if (ppn == kNoPage) break;
      oob_.Program(ppn, slot.lpn, slot.seq);
      Remap(slot.lpn, ppn);
      ++report.saved_pages;
    }
    report.flush_ns = flush_time(report.saved_pages);
  }
  report.lost_pages = report.dirty_pages - report.saved_pages;

  // The fast side destages its ring on the same capacitors.
  if (destage_sink_) destage_sink_->OnPowerLoss(now);
  destage_retry_.clear();

  records_->Emit(now, RecordKind::kPowerFail, 0, 0, report.dirty_pages, report.saved_pages);
  records_->Emit(now, RecordKind::kRecoveryStep, 0, uint32_t(RecoveryStep::kCapacitorFlush), now, report.flush_ns);

  // What survives on flash as "the mapping" is the last checkpoint.
  if (!ckpt_modified_.empty()) {
    for (size_t w = 0; w < ckpt_modified_.size(); ++w) {
      for (uint64_t bits = ckpt_modified_[w]; bits; bits &= bits - 1) {
        uint32_t lpn = uint32_t(w * 64 + __builtin_ctzll(bits));
        l2p_[lpn] = ckpt_l2p_[lpn];
      }
    }
  } else {
    std::fill(l2p_.begin(), l2p_.end(), kNoPage);
  }

  buffer_.Clear();
  for (auto& g : gc_) g = PlaneGc{};
  flush_ready_.clear();
  waiting_writes_.clear();
  waiting_head_ = 0;
  flushes_in_flight_ = 0;
  checkpoint_in_flight_ = false;
  checkpoint_pages_pending_ = 0;
  return report;
}

RecoveryReport Ftl::Recover(SimTime start) {
  RecoveryReport report;
  const FlashTiming& t = flash_->timing();
  const uint64_t units = uint64_t(geometry_.TotalPlanes());
  const bool have_ckpt = !ckpt_modified_.empty();
  auto parallel_read_ns = [&](uint64_t pages, uint64_t transfer_ns) -> uint64_t {
    if (pages == 0) return 0;
    uint64_t array = CeilDiv(pages, units) * (t.command_ns + t.read_ns);
    uint64_t bus = CeilDiv(pages, geometry_.channels) * transfer_ns;
    return std::max(array, bus);
  };
  SimTime now = start;
  auto step = [&](RecoveryStep s, uint64_t duration) {
    report.step_ns[int(s)] = duration;
    records_->Emit(now + duration, RecordKind::kRecoveryStep, 0, uint32_t(s), now, duration);
    now += duration;
  };

  step(RecoveryStep::kBoot, kBootNs);

  const uint64_t map_pages = CeilDiv(uint64_t(logical_pages_) * 4, geometry_.page_bytes);
  report.checkpoint_pages_read = have_ckpt ? map_pages : 0;
  step(RecoveryStep::kLoadCheckpoint, parallel_read_ns(report.checkpoint_pages_read, t.page_transfer_ns));

  // OOB scan of everything programmed after the checkpoint. A page beats the
  // current entry when it carries a newer version of the same logical page;
  // an entry whose page no longer holds that logical page always loses.
  for (uint32_t b = 0; b < geometry_.TotalBlocks(); ++b) {
    // Bad blocks are skipped: a retired block was drained (or erased) before
    // it went bad, so anything it still shows is an older copy.
    if (blocks_.Block(b).state == BlockState::kBad) continue;
    uint32_t programmed = oob_.Programmed(b);
    uint32_t from = 0;
    if (have_ckpt && oob_.EraseCount(b) == ckpt_erase_count_[b]) from = std::min(programmed, ckpt_programmed_[b]);
    if (from >= programmed) continue;
    ++report.blocks_scanned;
    uint32_t first = address_.FirstPage(b);
    for (uint32_t p = first + from; p < first + programmed; ++p) {
      ++report.pages_scanned;
      uint32_t lpn = oob_.Lpn(p);
      if (lpn >= logical_pages_) continue;
      uint32_t cur = l2p_[lpn];
      if (cur == kNoPage || oob_.Lpn(cur) != lpn || oob_.Seq(p) > oob_.Seq(cur) ||
          blocks_.Block(address_.BlockOf(cur)).state == BlockState::kBad)
        l2p_[lpn] = p;
    }
  }
  step(RecoveryStep::kScanOob, parallel_read_ns(report.pages_scanned, t.oob_transfer_ns));

  for (uint32_t lpn = 0; lpn < logical_pages_; ++lpn) {
    uint32_t cur = l2p_[lpn];
    if (cur != kNoPage && (oob_.Lpn(cur) != lpn || blocks_.Block(address_.BlockOf(cur)).state == BlockState::kBad)) {
      l2p_[lpn] = kNoPage;
      ++report.unresolved;
    }
  }
  uint64_t trimmed_pages = 0;
  for (const TrimEntry& e : trim_log_) {
    for (uint32_t lpn = e.lpn; lpn < e.lpn + e.count; ++lpn) {
      uint32_t cur = l2p_[lpn];
      if (cur != kNoPage && oob_.Seq(cur) < e.seq) l2p_[lpn] = kNoPage;
    }
    trimmed_pages += e.count;
  }
  report.trims_replayed = trim_log_.size();
  step(RecoveryStep::kReplayTrims, trim_log_.size() * kCpuNsPerTrimEntry + trimmed_pages * kCpuNsPerMappingEntry);

  // Rebuild valid counts and block lists, then persist a fresh checkpoint.
  for (uint32_t b = 0; b < geometry_.TotalBlocks(); ++b) blocks_.Block(b).valid = 0;
  for (uint32_t lpn = 0; lpn < logical_pages_; ++lpn)
    if (l2p_[lpn] != kNoPage) ++blocks_.Block(address_.BlockOf(l2p_[lpn])).valid;
  blocks_.RebuildAfterRecovery(oob_);
  for (uint32_t b = 0; b < geometry_.TotalBlocks(); ++b)
    if (blocks_.Block(b).state == BlockState::kRetiring) ++gc_[address_.PlaneOfBlock(b)].retiring;
  uint32_t seq = next_seq_;
  for (uint32_t p = 0; p < geometry_.TotalPages(); ++p)
    if (oob_.Lpn(p) < logical_pages_) seq = std::max(seq, oob_.Seq(p) + 1);
  next_seq_ = seq;
  uint64_t rebuild_ns = geometry_.TotalBlocks() * kCpuNsPerBlock + uint64_t(logical_pages_) * kCpuNsPerMappingEntry;
  if (have_ckpt) {
    checkpoint_pages_written_ = uint32_t(map_pages);
    std::fill(map_page_dirty_.begin(), map_page_dirty_.end(), 0);
    dirty_map_pages_ = 0;
    CompleteCheckpoint(now);
    rebuild_ns += CeilDiv(map_pages, units) * (t.command_ns + t.program_ns);
  }
  writes_since_checkpoint_ = 0;
  step(RecoveryStep::kRebuildFreeLists, rebuild_ns);
  step(RecoveryStep::kReady, 0);
  report.ready_at = now;
  return report;
}

void Ftl::Resume(SimTime now) {
  powered_ = true;
  for (uint32_t plane = 0; plane < geometry_.TotalPlanes(); ++plane) {
    UpdateUrgency(plane);
    MaybeStartGc(plane, now);
  }
}

Status Ftl::CheckInvariants() const {
  const uint64_t blocks = geometry_.TotalBlocks();
  std::vector<uint32_t> valid(blocks, 0);
  for (uint32_t lpn = 0; lpn < logical_pages_; ++lpn) {
    uint32_t p = l2p_[lpn];
    if (p == kNoPage) continue;
    if (p >= geometry_.TotalPages())
      return Status::Internal("lpn " + std::to_string(lpn) + " maps outside the device");
    if (oob_.Lpn(p) != lpn)
      return Status::Internal("lpn " + std::to_string(lpn) + " maps to page " + std::to_string(p) +
                              " whose OOB names lpn " + std::to_string(oob_.Lpn(p)));
    ++valid[address_.BlockOf(p)];
  }
  std::vector<uint8_t> listed(blocks, 0);
  for (uint32_t plane = 0; plane < geometry_.TotalPlanes(); ++plane) {
    for (uint32_t b : blocks_.FreeList(plane)) {
      if (listed[b]) return Status::Internal("block " + std::to_string(b) + " is on a free list twice");
      listed[b] = 1;
      const BlockInfo& info = blocks_.Block(b);
      if (info.state != BlockState::kFree || oob_.Programmed(b) != 0)
        return Status::Internal("free-listed block " + std::to_string(b) + " is not empty");
    }
  }
  for (uint32_t b = 0; b < blocks; ++b) {
    const BlockInfo& info = blocks_.Block(b);
    if (info.valid != valid[b])
      return Status::Internal("block " + std::to_string(b) + " counts " + std::to_string(info.valid) +
                              " valid pages but " + std::to_string(valid[b]) + " are mapped there");
    if (info.state == BlockState::kFree && !listed[b])
      return Status::Internal("free block " + std::to_string(b) + " is on no free list");
    if (info.state == BlockState::kBad && valid[b] > 0)
      return Status::Internal("retired block " + std::to_string(b) + " still holds " + std::to_string(valid[b]) +
                              " valid pages");
  }
  return Status::Ok();
}

}  // namespace ssdp
