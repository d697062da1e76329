// Flash timing: per-cell-type defaults and the derived durations the die and
// channel state machines use.
#pragma once

#include <cstdint>

#include "scenario/scenario.h"

namespace ssdp {

struct CellTimings {
  uint64_t read_ns;
  uint64_t program_ns;
  uint64_t erase_ns;
};

// Typical datasheet-class figures per cell type (array time only, no transfer).
// MLC matches the defaults of widely used SSD simulators (75 us / 750 us / 3.8 ms).
inline CellTimings DefaultCellTimings(CellType type) {
  switch (type) {
    case CellType::kSLC: return {25'000, 200'000, 1'500'000};
    case CellType::kMLC: return {75'000, 750'000, 3'800'000};
    case CellType::kTLC: return {90'000, 1'800'000, 5'000'000};
    case CellType::kQLC: return {140'000, 3'500'000, 10'000'000};
  }
  return {75'000, 750'000, 3'800'000};
}

const char* CellTypeName(CellType type);

// Durations derived once from the scenario.
struct FlashTiming {
  uint64_t read_ns;
  uint64_t program_ns;
  uint64_t erase_ns;
  uint64_t command_ns;        // command + address cycles, per operation
  uint64_t page_transfer_ns;  // one page over the channel bus
  uint64_t oob_transfer_ns;   // the OOB area alone (recovery scan)
  double channel_bytes_per_ns;

  static FlashTiming From(const GeometryConfig& geometry, const FlashConfig& flash) {
    CellTimings defaults = DefaultCellTimings(flash.cell_type);
    FlashTiming t;
    t.read_ns = flash.read_ns ? flash.read_ns : defaults.read_ns;
    t.program_ns = flash.program_ns ? flash.program_ns : defaults.program_ns;
    t.erase_ns = flash.erase_ns ? flash.erase_ns : defaults.erase_ns;
    t.command_ns = flash.command_overhead_ns;
    // MT/s x bytes per transfer = MB/s = bytes per microsecond.
    t.channel_bytes_per_ns = double(flash.channel_mtps) * (flash.bus_width_bits / 8) / 1000.0;
    t.page_transfer_ns = TransferNs(geometry.page_bytes, t.channel_bytes_per_ns);
    t.oob_transfer_ns = TransferNs(geometry.oob_bytes, t.channel_bytes_per_ns);
    return t;
  }

  static uint64_t TransferNs(uint64_t bytes, double bytes_per_ns) {
    return uint64_t(double(bytes) / bytes_per_ns + 0.5);
  }
};

}  // namespace ssdp
