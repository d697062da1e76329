// Mapping checkpoints and trim.
//
// A checkpoint writes every mapping page dirtied since the previous one to a
// reserved metadata area (die time is modeled; the area's own space is not)
// and records each block's write pointer and erase count. Recovery then needs
// to scan only pages programmed after the checkpoint. Trims since the last
// checkpoint are kept in a persisted trim log.
#include <algorithm>

#include "ftl/ftl.h"

namespace ssdp {

void Ftl::NoteMappingChange(uint32_t lpn) {
  if (ckpt_modified_.empty()) return;
  uint64_t bit = uint64_t(1) << (lpn & 63);
  uint64_t& word = ckpt_modified_[lpn >> 6];
  if (!(word & bit)) {
    word |= bit;
    ckpt_l2p_[lpn] = l2p_[lpn];  // the value the checkpoint holds
  }
  uint32_t map_page = lpn / (geometry_.page_bytes / 4);
  uint64_t mbit = uint64_t(1) << (map_page & 63);
  uint64_t& mword = map_page_dirty_[map_page >> 6];
  if (!(mword & mbit)) {
    mword |= mbit;
    ++dirty_map_pages_;
  }
}

void Ftl::MaybeCheckpoint(SimTime now) {
  const CheckpointConfig& cfg = scenario_.device.ftl.checkpoint;
  if (!cfg.enabled || checkpoint_in_flight_ || writes_since_checkpoint_ < cfg.interval_page_writes) return;
  checkpoint_in_flight_ = true;
  uint32_t pages = uint32_t(std::max<uint64_t>(1, dirty_map_pages_));
  checkpoint_pages_pending_ = pages;
  checkpoint_pages_written_ = pages;
  // Mapping pages dirtied from here on belong to the next checkpoint.
  std::fill(map_page_dirty_.begin(), map_page_dirty_.end(), 0);
  dirty_map_pages_ = 0;
  stats_.checkpoint_pages += pages;
  const uint32_t dies = geometry_.TotalDies();
  for (uint32_t i = 0; i < pages; ++i) {
    uint32_t die = i % dies;
    uint32_t plane = die * geometry_.planes_per_die;
    // The page address only routes the op to its die: the metadata area's
    // space is not modeled.
    uint32_t die_page = address_.FirstPage(plane * geometry_.blocks_per_plane);
    // Background queue: checkpoint pages take turns with host flushes instead
    // of blocking them until the whole checkpoint is written.
    IssueOp({FlashOpKind::kProgram, OpPurpose::kCheckpoint, OpQueue::kGc, die_page, kNoPage, kMetaLpn, i, 0}, now);
  }
}

void Ftl::OnCheckpointPageDone(SimTime now) {
  if (--checkpoint_pages_pending_ == 0) CompleteCheckpoint(now);
  KickFlush(now);  // the die's queues have room again
}

void Ftl::SnapshotCheckpoint() {
  // The snapshot is the mapping and the block write pointers as of now; both
  // are consistent at this instant, which is all recovery needs.
  std::fill(ckpt_modified_.begin(), ckpt_modified_.end(), 0);
  ckpt_programmed_ = oob_.programmed();
  ckpt_erase_count_ = oob_.erase_counts();
  trim_log_.clear();
  writes_since_checkpoint_ = 0;
}

void Ftl::CompleteCheckpoint(SimTime now) {
  if (ckpt_modified_.empty()) return;
  SnapshotCheckpoint();
  checkpoint_in_flight_ = false;
  ++stats_.checkpoints;
  records_->Emit(now, RecordKind::kCheckpoint, 0, 0, checkpoint_pages_written_, next_seq_);
}

uint32_t Ftl::Trim(uint32_t first_lpn, uint32_t count, SimTime now) {
  uint32_t seq = next_seq_++;
  uint32_t end = std::min(logical_pages_, first_lpn + count);
  for (uint32_t lpn = first_lpn; lpn < end; ++lpn) {
    uint32_t s = buffer_.Find(lpn);
    if (s != kNoPage) {
      BufferSlot& slot = buffer_.Slot(s);
      if (slot.state == SlotState::kClean) {
        buffer_.Release(s);
      } else {
        slot.trimmed = true;  // released once it leaves the dirty queue or its flush ends
        slot.redirty = false;
      }
    }
    Unmap(lpn);
  }
  trim_log_.push_back({first_lpn, end - std::min(end, first_lpn), seq});
  ++stats_.trims;
  records_->Emit(now, RecordKind::kTrim, 0, 0, first_lpn, end - std::min(end, first_lpn));
  return seq;
}

}  // namespace ssdp
