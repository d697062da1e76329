// BlockManager: the FTL's volatile view of blocks — state, valid-page counts,
// per-plane free lists and the open block of each stream — plus allocation of
// the next page to program. Dynamic wear leveling lives here: with it on, a
// plane hands out its least-worn free block.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/event_queue.h"
#include "flash/address.h"
#include "flash/oob_store.h"

namespace ssdp {

enum class BlockState : uint8_t { kFree, kOpen, kFull, kVictim, kRetiring, kBad };
enum class Stream : uint8_t { kHost = 0, kGc = 1 };
inline constexpr int kStreams = 2;

enum class RetireReason : uint8_t { kNone = 0, kProgramFail = 1, kEraseFail = 2, kWornOut = 3, kFactory = 4 };

struct BlockInfo {
  uint32_t valid = 0;        // pages whose mapping points here
  uint32_t allocated = 0;    // pages handed out for programming
  SimTime last_write = 0;    // for cost-benefit age
  BlockState state = BlockState::kFree;
  Stream stream = Stream::kHost;
  RetireReason retire_reason = RetireReason::kNone;
};

class BlockManager {
 public:
  BlockManager(const AddressMap& address, uint32_t planes, bool dynamic_wear_leveling);

  // Takes the next page of the plane's open block for `stream`, opening a new
  // block when needed. Returns kNoPage when the plane has no free block.
  uint32_t AllocatePage(uint32_t plane, Stream stream, SimTime now);
  // True when the plane can take a page for `stream` without opening a block.
  bool OpenBlockHasRoom(uint32_t plane, Stream stream) const;

  // A block was erased (not failed): back to the free list.
  void MarkErased(uint32_t block);
  // Takes a block out of service; its valid pages stay readable. A block that
  // holds valid data or still has programs in flight is only marked retiring:
  // GC drains it, then it is retired for good.
  void Retire(uint32_t block, RetireReason reason, bool programs_in_flight = false);
  // Marks a factory bad block at initialisation.
  void MarkFactoryBad(uint32_t block);

  // Rebuilds free lists and open blocks from per-block state after recovery:
  // blocks with nothing programmed are free, partly written ones are closed.
  void RebuildAfterRecovery(const OobStore& oob);

  uint32_t FreeCount(uint32_t plane) const { return uint32_t(planes_[plane].free.size()); }
  BlockInfo& Block(uint32_t block) { return blocks_[block]; }
  const BlockInfo& Block(uint32_t block) const { return blocks_[block]; }
  uint32_t OpenBlock(uint32_t plane, Stream stream) const { return planes_[plane].open[int(stream)]; }
  uint32_t Planes() const { return uint32_t(planes_.size()); }
  uint32_t BadBlocks() const { return bad_blocks_; }
  const std::vector<uint32_t>& FreeList(uint32_t plane) const { return planes_[plane].free; }
  void SetEraseCounts(const std::vector<uint32_t>* erase_counts) { erase_counts_ = erase_counts; }

 private:
  struct Plane {
    std::vector<uint32_t> free;
    uint32_t open[kStreams] = {kNoPage, kNoPage};
  };
  uint32_t TakeFreeBlock(uint32_t plane);

  AddressMap address_;
  bool dynamic_wl_;
  std::vector<BlockInfo> blocks_;
  std::vector<Plane> planes_;
  const std::vector<uint32_t>* erase_counts_ = nullptr;
  uint32_t bad_blocks_ = 0;
};

}  // namespace ssdp
