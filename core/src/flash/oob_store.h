// OobStore: what the flash itself remembers about every physical page — the
// out-of-band record written with the data (logical page and data version)
// and per-block facts that survive power loss (pages programmed, erase count).
// Recovery reads only this; everything else in the FTL is volatile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "flash/address.h"

namespace ssdp {

class OobStore {
 public:
  OobStore(uint64_t pages, uint64_t blocks, uint32_t pages_per_block)
      : lpn_(pages, kNoLpn), seq_(pages, 0), programmed_(blocks, 0), erase_count_(blocks, 0),
        pages_per_block_(pages_per_block) {}

  // Records a completed program of `ppn`. The block's write pointer is the
  // highest page programmed plus one (pages below it that were never
  // programmed read back as unwritten).
  void Program(uint32_t ppn, uint32_t lpn, uint32_t seq) {
    lpn_[ppn] = lpn;
    seq_[ppn] = seq;
    uint32_t& pointer = programmed_[ppn / pages_per_block_];
    pointer = std::max(pointer, ppn % pages_per_block_ + 1);
  }
  // Records an erase of `block`: its pages read back as unwritten.
  void Erase(uint32_t block) {
    uint64_t first = uint64_t(block) * pages_per_block_;
    std::fill(lpn_.begin() + first, lpn_.begin() + first + pages_per_block_, kNoLpn);
    programmed_[block] = 0;
    ++erase_count_[block];
  }

  uint32_t Lpn(uint32_t ppn) const { return lpn_[ppn]; }
  uint32_t Seq(uint32_t ppn) const { return seq_[ppn]; }
  uint32_t Programmed(uint32_t block) const { return programmed_[block]; }
  uint32_t EraseCount(uint32_t block) const { return erase_count_[block]; }
  void SetEraseCount(uint32_t block, uint32_t count) { erase_count_[block] = count; }

  const std::vector<uint32_t>& programmed() const { return programmed_; }
  const std::vector<uint32_t>& erase_counts() const { return erase_count_; }

 private:
  std::vector<uint32_t> lpn_;
  std::vector<uint32_t> seq_;
  std::vector<uint32_t> programmed_;
  std::vector<uint32_t> erase_count_;
  uint32_t pages_per_block_;
};

}  // namespace ssdp
