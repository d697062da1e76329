// Physical addressing. Pages are numbered so that a block's pages are
// contiguous and a plane's blocks are contiguous:
//   ppn = (plane * blocks_per_plane + block_in_plane) * pages_per_block + page
//   plane = die * planes_per_die + plane_in_die
//   die   = channel * dies_per_channel + way
// so every per-page or per-block table is one flat array.
#pragma once

#include <cstdint>

#include "scenario/scenario.h"

namespace ssdp {

inline constexpr uint32_t kNoPage = 0xFFFFFFFFu;  // unmapped / not a page
inline constexpr uint32_t kNoLpn = 0xFFFFFFFFu;   // OOB of an unwritten page
inline constexpr uint32_t kTornLpn = 0xFFFFFFFEu; // OOB of a page torn by power loss
inline constexpr uint32_t kMetaLpn = 0xFFFFFFFDu; // page holding FTL metadata

struct AddressMap {
  uint32_t pages_per_block;
  uint32_t blocks_per_plane;
  uint32_t planes_per_die;
  uint32_t dies_per_channel;
  uint32_t channels;

  explicit AddressMap(const GeometryConfig& g)
      : pages_per_block(g.pages_per_block),
        blocks_per_plane(g.blocks_per_plane),
        planes_per_die(g.planes_per_die),
        dies_per_channel(g.DiesPerChannel()),
        channels(g.channels) {}

  uint32_t BlockOf(uint32_t ppn) const { return ppn / pages_per_block; }
  uint32_t PageInBlock(uint32_t ppn) const { return ppn % pages_per_block; }
  uint32_t PlaneOfBlock(uint32_t block) const { return block / blocks_per_plane; }
  uint32_t PlaneOf(uint32_t ppn) const { return PlaneOfBlock(BlockOf(ppn)); }
  uint32_t DieOfPlane(uint32_t plane) const { return plane / planes_per_die; }
  uint32_t DieOf(uint32_t ppn) const { return DieOfPlane(PlaneOf(ppn)); }
  uint32_t ChannelOfDie(uint32_t die) const { return die / dies_per_channel; }
  uint32_t FirstPage(uint32_t block) const { return block * pages_per_block; }
};

}  // namespace ssdp
