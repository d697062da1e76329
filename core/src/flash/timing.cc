#include "flash/timing.h"

namespace ssdp {

const char* CellTypeName(CellType type) {
  switch (type) {
    case CellType::kSLC: return "SLC";
    case CellType::kMLC: return "MLC";
    case CellType::kTLC: return "TLC";
    case CellType::kQLC: return "QLC";
  }
  return "unknown";
}

}  // namespace ssdp
