// DataBuffer: the controller's DRAM write-back cache, one slot per flash page.
// Writes land here and are acknowledged; dirty slots are flushed to flash in
// arrival order; flushed (clean) slots stay as a read cache and are evicted
// least-recently-used first. Lookup is an open-addressing hash on the logical
// page, so nothing allocates after construction.
#pragma once

#include <cstdint>
#include <vector>

#include "flash/address.h"

namespace ssdp {

enum class SlotState : uint8_t { kFree, kDirty, kFlushing, kClean };

struct BufferSlot {
  uint32_t lpn = kNoLpn;
  uint32_t seq = 0;            // newest data version held
  uint64_t sector_mask = 0;    // 512-byte sectors present
  uint32_t prev = kNoPage;     // LRU links (clean slots) / free list
  uint32_t next = kNoPage;
  uint32_t dirty_next = kNoPage;
  SlotState state = SlotState::kFree;
  bool redirty = false;        // overwritten while its flush was in flight
  bool trimmed = false;        // deallocated while its flush was in flight
  bool rmw_done = false;       // old page already merged (partial writes)
};

class DataBuffer {
 public:
  DataBuffer(uint32_t slots, uint32_t sectors_per_page);

  // Slot holding lpn, or kNoPage.
  uint32_t Find(uint32_t lpn) const;
  // Takes a free slot, else evicts the least recently used clean slot;
  // returns kNoPage when every slot is dirty or flushing.
  uint32_t Acquire(uint32_t lpn);
  // Returns a slot to the free list (trim, or flush of a trimmed slot).
  void Release(uint32_t slot);

  // Dirty FIFO: slots waiting to be flushed, oldest first.
  void PushDirty(uint32_t slot);
  void PushDirtyFront(uint32_t slot);
  uint32_t PopDirty();
  bool HasDirty() const { return dirty_head_ != kNoPage; }

  // Clean slots are eviction candidates; Touch marks one most recently used.
  void MakeClean(uint32_t slot);
  void RemoveFromClean(uint32_t slot);
  void Touch(uint32_t slot);

  BufferSlot& Slot(uint32_t slot) { return slots_[slot]; }
  const BufferSlot& Slot(uint32_t slot) const { return slots_[slot]; }
  uint32_t Capacity() const { return uint32_t(slots_.size()); }
  uint32_t DirtyCount() const { return dirty_count_; }
  uint64_t FullMask() const { return full_mask_; }
  // Forgets all contents (power loss).
  void Clear();

 private:
  void HashInsert(uint32_t lpn, uint32_t slot);
  void HashErase(uint32_t lpn);
  uint32_t HashIndex(uint32_t lpn) const { return (lpn * 0x9E3779B1u) & hash_mask_; }

  std::vector<BufferSlot> slots_;
  std::vector<uint32_t> hash_;  // slot index or kNoPage
  uint32_t hash_mask_;
  uint64_t full_mask_;
  uint32_t free_head_ = kNoPage;
  uint32_t lru_head_ = kNoPage;  // least recently used clean slot
  uint32_t lru_tail_ = kNoPage;
  uint32_t dirty_head_ = kNoPage;
  uint32_t dirty_tail_ = kNoPage;
  uint32_t dirty_count_ = 0;
};

}  // namespace ssdp
