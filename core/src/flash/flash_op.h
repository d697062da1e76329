// FlashOp: one operation queued on a die. Ops live in a pool and are linked
// into per-die queues through `next`, so queuing never allocates.
#pragma once

#include <cstdint>

#include "engine/event_queue.h"

namespace ssdp {

enum class FlashOpKind : uint8_t { kRead, kProgram, kErase, kCopyback };

// Why the FTL issued the op; decides what happens when it completes.
enum class OpPurpose : uint8_t {
  kHostRead,    // read for a host request slice
  kRmwRead,     // read of the old page before a partial-page flush
  kFlush,       // program of a buffer page
  kGcRead,      // GC: read a valid page out (no copyback)
  kGcWrite,     // GC: program it into the GC block
  kGcCopy,      // GC: copyback inside the die
  kGcErase,     // GC: erase the victim
  kCheckpoint,  // program of a mapping checkpoint page
  kDestage,     // program of a page of the fast side's ring (X-SSD)
};

// Die queues, in the order the scheduler considers them.
enum class OpQueue : uint8_t { kRead = 0, kWrite = 1, kGc = 2, kMeta = 3, kDestage = 4 };
inline constexpr int kOpQueues = 5;

// How a die shares its time between conventional writes (with GC) and the
// fast side's destage programs. The low-priority stream fills the gaps.
enum class DestageMode : uint8_t { kNeutral, kDestageFirst, kConventionalFirst };

struct FlashOp {
  uint32_t next;      // next op in the same die queue
  uint32_t ppn;       // target page (erase: first page of the block)
  uint32_t src_ppn;   // copy source (GC)
  uint32_t lpn;       // logical page carried, or kNoLpn
  uint32_t tag;       // owner index: request slot, buffer slot, plane
  uint32_t seq;       // data version written
  uint32_t request;   // host reads: the request's id + 1 (0: not a host read)
  SimTime enqueued;
  SimTime started;
  FlashOpKind kind;
  OpPurpose purpose;
  OpQueue queue;
  bool failed;
};

const char* FlashOpKindName(FlashOpKind kind);
const char* OpPurposeName(OpPurpose purpose);

}  // namespace ssdp
