// Instant preconditioning: results on a fresh device mislead, and simulating
// every aging write in real time is too slow for large devices, so the device
// is filled and aged directly on the FTL's tables, without simulated time.
#include "ftl/ftl.h"

namespace ssdp {

bool Ftl::MoveForInstantGc(uint32_t plane) {
  uint32_t victim = PickVictim(plane, 0);
  if (victim == kNoPage || blocks_.Block(victim).valid >= geometry_.pages_per_block) return false;
  uint32_t first = address_.FirstPage(victim);
  for (uint32_t src = first; src < first + geometry_.pages_per_block; ++src) {
    uint32_t lpn = oob_.Lpn(src);
    if (lpn >= logical_pages_ || l2p_[lpn] != src) continue;
    uint32_t dst = blocks_.AllocatePage(plane, Stream::kGc, 0);
    if (dst == kNoPage) return false;
    oob_.Program(dst, lpn, oob_.Seq(src));
    Remap(lpn, dst);
  }
  oob_.Erase(victim);
  uint32_t endurance = scenario_.device.flash.endurance_cycles;
  if (endurance > 0 && oob_.EraseCount(victim) >= endurance) {
    blocks_.Retire(victim, RetireReason::kWornOut);
  } else {
    blocks_.MarkErased(victim);
  }
  return true;
}

void Ftl::Precondition(const PreconditionConfig& config, uint64_t seed) {
  const uint32_t fill = uint32_t(double(logical_pages_) * config.fill_fraction);
  const uint32_t planes = uint32_t(plane_order_.size());
  const uint32_t low = scenario_.device.ftl.gc.background_free_blocks;
  uint32_t cursor = 0;
  auto write_page = [&](uint32_t lpn) {
    uint32_t plane = plane_order_[cursor];
    cursor = cursor + 1 == planes ? 0 : cursor + 1;
    // Reclaim until the plane is back above the GC watermark; a pass can net
    // zero free blocks while it fills the GC block, so bound by count.
    for (uint32_t guard = 0; blocks_.FreeCount(plane) < low && guard < geometry_.blocks_per_plane; ++guard)
      if (!MoveForInstantGc(plane)) break;
    uint32_t ppn = blocks_.AllocatePage(plane, Stream::kHost, 0);
    if (ppn == kNoPage) return;
    oob_.Program(ppn, lpn, next_seq_++);
    Remap(lpn, ppn);
  };
  for (uint32_t lpn = 0; lpn < fill; ++lpn) write_page(lpn);
  if (fill > 0 && config.random_overwrite_passes > 0) {
    Rng rng(seed, /*stream=*/0xA6E);
    uint64_t overwrites = uint64_t(double(fill) * config.random_overwrite_passes);
    for (uint64_t i = 0; i < overwrites; ++i) write_page(uint32_t(rng.Below(fill)));
  }
  // The aged state is the device's starting point: its mapping counts as
  // checkpointed, as if the drive had been shipped that way.
  if (!ckpt_modified_.empty()) {
    SnapshotCheckpoint();
    std::fill(map_page_dirty_.begin(), map_page_dirty_.end(), 0);
  }
  dirty_map_pages_ = 0;
  stats_ = FtlStats{};
}

}  // namespace ssdp
