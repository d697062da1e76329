// Garbage collection and static wear leveling.
//
// GC works per plane: when a plane's free blocks drop below the background
// watermark it picks a victim (greedy: fewest valid pages; cost-benefit:
// best (1-u)/2u x age), copies the still-valid pages into the plane's GC block
// (copyback inside the die, or read out and program back over the channel),
// then erases the victim. Below the foreground watermark host writes stop
// taking pages from the plane and its die serves GC first.
#include <algorithm>

#include "ftl/ftl.h"

namespace ssdp {
namespace {
constexpr uint32_t kGcCopiesInFlight = 4;
}

uint32_t Ftl::PickVictim(uint32_t plane, SimTime now) const {
  const uint32_t first = plane * geometry_.blocks_per_plane;
  const uint32_t ppb = geometry_.pages_per_block;
  // Blocks being retired (program failure) are drained first.
  for (uint32_t b = first; gc_[plane].retiring > 0 && b < first + geometry_.blocks_per_plane; ++b) {
    const BlockInfo& info = blocks_.Block(b);
    if (info.state == BlockState::kRetiring && info.valid > 0 && oob_.Programmed(b) >= info.allocated)
      return b;
  }
  uint32_t wl = gc_[plane].wl_victim;
  if (wl != kNoPage && blocks_.Block(wl).state == BlockState::kFull) return wl;

  uint32_t best = kNoPage;
  double best_score = -1;
  uint32_t best_valid = ~0u;
  bool cost_benefit = scenario_.device.ftl.gc.policy == GcPolicy::kCostBenefit;
  for (uint32_t b = first; b < first + geometry_.blocks_per_plane; ++b) {
    const BlockInfo& info = blocks_.Block(b);
    // A full block may still have programs in flight; erasing it under them
    // would lose their data.
    if (info.state != BlockState::kFull || oob_.Programmed(b) < info.allocated) continue;
    if (!cost_benefit) {
      if (info.valid < best_valid) {
        best_valid = info.valid;
        best = b;
      }
      continue;
    }
    double u = double(info.valid) / ppb;
    double age = double(now - std::min(now, info.last_write)) + 1.0;
    double score = u == 0 ? 1e300 : (1.0 - u) / (2.0 * u) * age;
    if (score > best_score) {
      best_score = score;
      best = b;
    }
  }
  return best;
}

void Ftl::MaybeStartGc(uint32_t plane, SimTime now) {
  const GcConfig& cfg = scenario_.device.ftl.gc;
  PlaneGc& g = gc_[plane];
  if (!cfg.enabled || !powered_ || g.active) return;
  // Cheap test first: this runs on every page allocation.
  if (blocks_.FreeCount(plane) >= cfg.background_free_blocks && g.wl_victim == kNoPage && g.retiring == 0) return;
  uint32_t victim = PickVictim(plane, now);
  if (victim == kNoPage) return;
  const BlockInfo& info = blocks_.Block(victim);
  bool forced = info.state == BlockState::kRetiring || victim == g.wl_victim;
  if (!forced) {
    if (blocks_.FreeCount(plane) >= cfg.background_free_blocks) return;
    if (info.valid >= geometry_.pages_per_block) return;  // nothing to reclaim
  }
  if (victim == g.wl_victim) g.wl_victim = kNoPage;
  if (info.state != BlockState::kRetiring) blocks_.Block(victim).state = BlockState::kVictim;
  g.active = true;
  g.erase_issued = false;
  g.victim = victim;
  g.scan = 0;
  g.outstanding = 0;
  g.copies = 0;
  g.started = now;
  ++stats_.gc_runs;
  // Foreground: the plane is down to its last free blocks, so host writes wait for this run.
  const bool foreground = blocks_.FreeCount(plane) <= cfg.foreground_free_blocks;
  records_->Emit(now, RecordKind::kGcStart, uint16_t(plane), victim, info.valid,
                 uint64_t(cfg.policy) | (uint64_t(foreground) << 8));
  GcPump(plane, now);
}

void Ftl::GcPump(uint32_t plane, SimTime now) {
  PlaneGc& g = gc_[plane];
  if (!g.active || !powered_) return;
  const uint32_t first_page = address_.FirstPage(g.victim);
  const bool copyback = scenario_.device.ftl.gc.copyback;
  while (g.outstanding < kGcCopiesInFlight && g.scan < geometry_.pages_per_block) {
    uint32_t src = first_page + g.scan;
    uint32_t lpn = oob_.Lpn(src);
    if (lpn >= logical_pages_ || l2p_[lpn] != src) {
      ++g.scan;
      continue;
    }
    uint32_t dst = kNoPage;
    if (copyback) {
      dst = blocks_.AllocatePage(plane, Stream::kGc, now);
      if (dst == kNoPage) break;  // no room: wait for a later erase elsewhere
    }
    ++g.scan;
    ++g.outstanding;
    // A copy keeps the data version of what it moves.
    if (copyback) {
      IssueOp({FlashOpKind::kCopyback, OpPurpose::kGcCopy, OpQueue::kGc, dst, src, lpn, plane, oob_.Seq(src)}, now);
    } else {
      IssueOp({FlashOpKind::kRead, OpPurpose::kGcRead, OpQueue::kGc, src, src, lpn, plane, oob_.Seq(src)}, now);
    }
  }
  if (g.scan < geometry_.pages_per_block || g.outstanding > 0 || g.erase_issued) return;

  BlockInfo& info = blocks_.Block(g.victim);
  if (info.state == BlockState::kRetiring) {
    if (info.valid == 0 && oob_.Programmed(g.victim) >= info.allocated) {
      blocks_.Retire(g.victim, info.retire_reason);
      --g.retiring;
    }
    FinishGc(plane, now);
    return;
  }
  g.erase_issued = true;
  IssueOp({FlashOpKind::kErase, OpPurpose::kGcErase, OpQueue::kGc, first_page, kNoPage,
           kNoLpn, plane, 0},
          now);
}

void Ftl::OnGcOpDone(FlashOp& op, SimTime now) {
  uint32_t plane = op.tag;
  PlaneGc& g = gc_[plane];
  if (op.purpose == OpPurpose::kGcRead) {
    // Data is in the controller; program it into the GC block.
    uint32_t dst = blocks_.AllocatePage(plane, Stream::kGc, now);
    if (dst == kNoPage) {
      --g.outstanding;
      // Rescan from this page; copies still in flight for later pages come
      // back as stale duplicates, which is harmless.
      g.scan = std::min(g.scan, address_.PageInBlock(op.src_ppn));
      return;
    }
    IssueOp({FlashOpKind::kProgram, OpPurpose::kGcWrite, OpQueue::kGc, dst, op.src_ppn, op.lpn, plane, op.seq}, now);
    return;
  }
  --g.outstanding;
  if (op.failed) {
    ++stats_.program_failures;
    oob_.Program(op.ppn, kTornLpn, 0);
    HandleProgramFailure(op.ppn, now);
    // Copy the source again if it is still the live version.
    if (l2p_[op.lpn] == op.src_ppn) g.scan = std::min(g.scan, address_.PageInBlock(op.src_ppn));
  } else {
    oob_.Program(op.ppn, op.lpn, op.seq);
    if (l2p_[op.lpn] == op.src_ppn) {
      Remap(op.lpn, op.ppn);
      ++stats_.gc_page_copies;
      ++g.copies;
    } else {
      ++stats_.gc_stale_copies;  // the host rewrote it meanwhile
    }
    // The copy may have landed in a block that failed meanwhile.
    uint32_t landed_in = address_.BlockOf(op.ppn);
    SettleRetiring(landed_in);
  }
  GcPump(plane, now);
}

void Ftl::OnEraseDone(FlashOp& op, SimTime now) {
  uint32_t block = address_.BlockOf(op.ppn);
  uint32_t plane = op.tag;
  if (op.failed) {
    ++stats_.erase_failures;
    blocks_.Retire(block, RetireReason::kEraseFail);
    records_->Emit(now, RecordKind::kBlockRetired, uint16_t(plane), block, uint64_t(RetireReason::kEraseFail), 0);
  } else {
    oob_.Erase(block);
    ++stats_.gc_erases;
    uint32_t endurance = scenario_.device.flash.endurance_cycles;
    if (endurance > 0 && oob_.EraseCount(block) >= endurance) {
      blocks_.Retire(block, RetireReason::kWornOut);
      records_->Emit(now, RecordKind::kBlockRetired, uint16_t(plane), block, uint64_t(RetireReason::kWornOut), 0);
    } else {
      blocks_.MarkErased(block);
    }
  }
  records_->Emit(now, RecordKind::kErase, uint16_t(plane), block, oob_.EraseCount(block), op.failed);
  FinishGc(plane, now);
}

void Ftl::FinishGc(uint32_t plane, SimTime now) {
  PlaneGc& g = gc_[plane];
  records_->Emit(now, RecordKind::kGcEnd, uint16_t(plane), g.victim, g.copies, now - g.started);
  g.active = false;
  g.victim = kNoPage;
  UpdateUrgency(plane);
  CheckStaticWearLeveling(plane, now);
  MaybeStartGc(plane, now);
  ResumeWaitingWrites(now);
  KickFlush(now);
}

void Ftl::CheckStaticWearLeveling(uint32_t plane, SimTime now) {
  const WearLevelingConfig& wl = scenario_.device.ftl.wear_leveling;
  if (!wl.static_enabled || gc_[plane].wl_victim != kNoPage) return;
  const uint32_t first = plane * geometry_.blocks_per_plane;
  uint32_t max_erase = 0, min_erase = ~0u, coldest = kNoPage;
  for (uint32_t b = first; b < first + geometry_.blocks_per_plane; ++b) {
    const BlockInfo& info = blocks_.Block(b);
    if (info.state == BlockState::kBad || info.state == BlockState::kRetiring) continue;
    uint32_t ec = oob_.EraseCount(b);
    max_erase = std::max(max_erase, ec);
    if (info.state == BlockState::kFull && ec < min_erase) {
      min_erase = ec;
      coldest = b;
    }
  }
  if (coldest == kNoPage || max_erase - min_erase <= wl.static_threshold_erases) return;
  // The coldest block holds data nobody rewrites; moving it lets that block
  // take its share of erases.
  gc_[plane].wl_victim = coldest;
  ++stats_.wear_level_migrations;
  records_->Emit(now, RecordKind::kWearLevel, uint16_t(plane), coldest, max_erase - min_erase, 0);
}

bool Ftl::FailBlock(uint32_t block, SimTime now) {
  if (block >= geometry_.TotalBlocks()) return false;
  BlockState state = blocks_.Block(block).state;
  if (state == BlockState::kBad || state == BlockState::kRetiring) return false;
  if (state == BlockState::kVictim) return false;  // GC is already emptying it
  HandleProgramFailure(address_.FirstPage(block), now);
  return true;
}

void Ftl::HandleProgramFailure(uint32_t ppn, SimTime now) {
  uint32_t block = address_.BlockOf(ppn);
  uint32_t plane = address_.PlaneOfBlock(block);
  BlockInfo& info = blocks_.Block(block);
  if (info.state == BlockState::kBad || info.state == BlockState::kRetiring) return;
  blocks_.Retire(block, RetireReason::kProgramFail, oob_.Programmed(block) < info.allocated);
  if (blocks_.Block(block).state == BlockState::kRetiring) ++gc_[plane].retiring;
  records_->Emit(now, RecordKind::kBlockRetired, uint16_t(plane), block, uint64_t(RetireReason::kProgramFail), 0);
  MaybeStartGc(plane, now);
}

}  // namespace ssdp
