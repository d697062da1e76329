// Request: one host I/O in flight, from submission to completion. Requests
// live in a fixed table sized by the total queue depth; the host and the FTL
// refer to them by slot index.
#pragma once

#include <cstdint>

#include "engine/event_queue.h"

namespace ssdp {

inline constexpr uint32_t kNoSlot = 0xFFFFFFFFu;

struct Request {
  uint64_t id;             // global request number
  uint64_t offset_bytes;
  SimTime submitted;       // host wrote the submission queue entry
  SimTime ready;           // command fetched and translated
  SimTime data_done;       // last byte of data moved over PCIe
  SimTime first_wait;      // when a write slice first waited for buffer space, or 0
  uint32_t bytes;
  uint32_t first_lpn;
  uint32_t pages;          // slices (flash pages touched)
  uint32_t next_slice;     // writes: next slice to place in the buffer
  uint32_t pending;        // slices not yet finished
  uint32_t first_seq;      // writes: data version of the first slice
  uint32_t next_free;      // free-list link
  uint32_t tag;            // internal requests: the owner's tag
  uint16_t source;         // flow index, kTraceSource or kInternalSource
  bool is_read;
  bool is_trim;             // deallocate the range (no data moves)
  bool traced;             // stage records emitted for this request (sampling)
};

inline constexpr uint16_t kTraceSource = 0xFFFF;
inline constexpr uint16_t kInternalSource = 0xFFFE;  // the host's own software (X-SSD log writer, tail reader)

}  // namespace ssdp
