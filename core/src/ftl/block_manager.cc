#include "ftl/block_manager.h"

namespace ssdp {

BlockManager::BlockManager(const AddressMap& address, uint32_t planes, bool dynamic_wear_leveling)
    : address_(address), dynamic_wl_(dynamic_wear_leveling) {
  blocks_.resize(uint64_t(planes) * address.blocks_per_plane);
  planes_.resize(planes);
  for (uint32_t p = 0; p < planes; ++p) {
    auto& free = planes_[p].free;
    free.reserve(address.blocks_per_plane);
    // Reverse order so that LIFO allocation starts at the lowest block.
    for (uint32_t b = address.blocks_per_plane; b-- > 0;) free.push_back(p * address.blocks_per_plane + b);
  }
}

void BlockManager::MarkFactoryBad(uint32_t block) {
  auto& free = planes_[address_.PlaneOfBlock(block)].free;
  for (size_t i = 0; i < free.size(); ++i) {
    if (free[i] == block) {
      free.erase(free.begin() + i);
      break;
    }
  }
  blocks_[block].state = BlockState::kBad;
  blocks_[block].retire_reason = RetireReason::kFactory;
  ++bad_blocks_;
}

uint32_t BlockManager::TakeFreeBlock(uint32_t plane) {
  auto& free = planes_[plane].free;
  if (free.empty()) return kNoPage;
  size_t pick = free.size() - 1;
  if (dynamic_wl_ && erase_counts_) {
    // Least-worn first; ties go to the lowest block number for determinism.
    const auto& ec = *erase_counts_;
    for (size_t i = 0; i < free.size(); ++i) {
      uint32_t b = free[i], best = free[pick];
      if (ec[b] < ec[best] || (ec[b] == ec[best] && b < best)) pick = i;
    }
  }
  uint32_t block = free[pick];
  free[pick] = free.back();
  free.pop_back();
  return block;
}

bool BlockManager::OpenBlockHasRoom(uint32_t plane, Stream stream) const {
  uint32_t b = planes_[plane].open[int(stream)];
  return b != kNoPage && blocks_[b].allocated < address_.pages_per_block;
}

uint32_t BlockManager::AllocatePage(uint32_t plane, Stream stream, SimTime now) {
  Plane& p = planes_[plane];
  uint32_t b = p.open[int(stream)];
  if (b == kNoPage || blocks_[b].allocated >= address_.pages_per_block) {
    if (b != kNoPage && blocks_[b].state == BlockState::kOpen) blocks_[b].state = BlockState::kFull;
    b = TakeFreeBlock(plane);
    p.open[int(stream)] = b;
    if (b == kNoPage) return kNoPage;
    BlockInfo& info = blocks_[b];
    info.state = BlockState::kOpen;
    info.stream = stream;
    info.allocated = 0;
    info.valid = 0;
  }
  BlockInfo& info = blocks_[b];
  uint32_t ppn = address_.FirstPage(b) + info.allocated++;
  info.last_write = now;
  if (info.allocated == address_.pages_per_block) {
    info.state = BlockState::kFull;
    p.open[int(stream)] = kNoPage;
  }
  return ppn;
}

void BlockManager::MarkErased(uint32_t block) {
  BlockInfo& info = blocks_[block];
  info.state = BlockState::kFree;
  info.allocated = 0;
  info.valid = 0;
  planes_[address_.PlaneOfBlock(block)].free.push_back(block);
}

void BlockManager::Retire(uint32_t block, RetireReason reason, bool programs_in_flight) {
  BlockInfo& info = blocks_[block];
  Plane& p = planes_[address_.PlaneOfBlock(block)];
  for (int s = 0; s < kStreams; ++s)
    if (p.open[s] == block) p.open[s] = kNoPage;
  if (info.state == BlockState::kFree) {
    auto& free = p.free;
    for (size_t i = 0; i < free.size(); ++i)
      if (free[i] == block) {
        free.erase(free.begin() + i);
        break;
      }
  }
  info.retire_reason = reason;
  if (info.valid > 0 || programs_in_flight) {
    info.state = BlockState::kRetiring;
  } else {
    info.state = BlockState::kBad;
    ++bad_blocks_;
  }
}

void BlockManager::RebuildAfterRecovery(const OobStore& oob) {
  for (uint32_t pl = 0; pl < planes_.size(); ++pl) {
    Plane& p = planes_[pl];
    p.free.clear();
    p.open[0] = p.open[1] = kNoPage;
    uint32_t first = pl * address_.blocks_per_plane;
    for (uint32_t b = first + address_.blocks_per_plane; b-- > first;) {
      BlockInfo& info = blocks_[b];
      if (info.state == BlockState::kBad) continue;
      if (info.state == BlockState::kRetiring) {
        if (info.valid == 0) {
          info.state = BlockState::kBad;
          ++bad_blocks_;
        }
        continue;
      }
      info.allocated = oob.Programmed(b);
      if (info.allocated == 0) {
        info.state = BlockState::kFree;
        p.free.push_back(b);
      } else {
        // Partly written blocks are closed: firmware does not append to a
        // block whose last program may have been interrupted.
        info.allocated = address_.pages_per_block;
        info.state = BlockState::kFull;
      }
    }
  }
}

}  // namespace ssdp
