#include "ftl/data_buffer.h"

#include <algorithm>

namespace ssdp {

DataBuffer::DataBuffer(uint32_t slots, uint32_t sectors_per_page) {
  slots_.resize(slots);
  uint32_t size = 16;
  while (size < 2 * slots) size <<= 1;
  hash_.assign(size, kNoPage);
  hash_mask_ = size - 1;
  full_mask_ = sectors_per_page >= 64 ? ~uint64_t(0) : (uint64_t(1) << sectors_per_page) - 1;
  Clear();
}

void DataBuffer::Clear() {
  std::fill(hash_.begin(), hash_.end(), kNoPage);
  free_head_ = kNoPage;
  for (uint32_t i = uint32_t(slots_.size()); i-- > 0;) {
    slots_[i] = BufferSlot{};
    slots_[i].next = free_head_;
    free_head_ = i;
  }
  lru_head_ = lru_tail_ = dirty_head_ = dirty_tail_ = kNoPage;
  dirty_count_ = 0;
}

uint32_t DataBuffer::Find(uint32_t lpn) const {
  for (uint32_t i = HashIndex(lpn);; i = (i + 1) & hash_mask_) {
    uint32_t s = hash_[i];
    if (s == kNoPage) return kNoPage;
    if (slots_[s].lpn == lpn) return s;
  }
}

void DataBuffer::HashInsert(uint32_t lpn, uint32_t slot) {
  uint32_t i = HashIndex(lpn);
  while (hash_[i] != kNoPage) i = (i + 1) & hash_mask_;
  hash_[i] = slot;
}

void DataBuffer::HashErase(uint32_t lpn) {
  uint32_t i = HashIndex(lpn);
  while (slots_[hash_[i]].lpn != lpn) i = (i + 1) & hash_mask_;
  // Backward-shift deletion keeps probe chains intact without tombstones.
  for (uint32_t j = (i + 1) & hash_mask_;; j = (j + 1) & hash_mask_) {
    uint32_t s = hash_[j];
    if (s == kNoPage) break;
    uint32_t home = HashIndex(slots_[s].lpn);
    bool movable = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
    if (movable) {
      hash_[i] = s;
      i = j;
    }
  }
  hash_[i] = kNoPage;
}

uint32_t DataBuffer::Acquire(uint32_t lpn) {
  uint32_t s = free_head_;
  if (s != kNoPage) {
    free_head_ = slots_[s].next;
  } else {
    s = lru_head_;
    if (s == kNoPage) return kNoPage;
    RemoveFromClean(s);
    HashErase(slots_[s].lpn);
  }
  BufferSlot& slot = slots_[s];
  slot = BufferSlot{};
  slot.lpn = lpn;
  HashInsert(lpn, s);
  return s;
}

void DataBuffer::Release(uint32_t s) {
  BufferSlot& slot = slots_[s];
  if (slot.state == SlotState::kClean) RemoveFromClean(s);
  HashErase(slot.lpn);
  slot = BufferSlot{};
  slot.next = free_head_;
  free_head_ = s;
}

void DataBuffer::PushDirty(uint32_t s) {
  slots_[s].dirty_next = kNoPage;
  if (dirty_tail_ == kNoPage) {
    dirty_head_ = s;
  } else {
    slots_[dirty_tail_].dirty_next = s;
  }
  dirty_tail_ = s;
  ++dirty_count_;
}

void DataBuffer::PushDirtyFront(uint32_t s) {
  slots_[s].dirty_next = dirty_head_;
  dirty_head_ = s;
  if (dirty_tail_ == kNoPage) dirty_tail_ = s;
  ++dirty_count_;
}

uint32_t DataBuffer::PopDirty() {
  uint32_t s = dirty_head_;
  if (s == kNoPage) return kNoPage;
  dirty_head_ = slots_[s].dirty_next;
  if (dirty_head_ == kNoPage) dirty_tail_ = kNoPage;
  --dirty_count_;
  return s;
}

void DataBuffer::MakeClean(uint32_t s) {
  BufferSlot& slot = slots_[s];
  slot.state = SlotState::kClean;
  slot.next = kNoPage;
  slot.prev = lru_tail_;
  if (lru_tail_ == kNoPage) {
    lru_head_ = s;
  } else {
    slots_[lru_tail_].next = s;
  }
  lru_tail_ = s;
}

void DataBuffer::RemoveFromClean(uint32_t s) {
  BufferSlot& slot = slots_[s];
  if (slot.prev == kNoPage) {
    lru_head_ = slot.next;
  } else {
    slots_[slot.prev].next = slot.next;
  }
  if (slot.next == kNoPage) {
    lru_tail_ = slot.prev;
  } else {
    slots_[slot.next].prev = slot.prev;
  }
  slot.prev = slot.next = kNoPage;
}

void DataBuffer::Touch(uint32_t s) {
  if (slots_[s].state != SlotState::kClean || lru_tail_ == s) return;
  RemoveFromClean(s);
  MakeClean(s);
}

}  // namespace ssdp
