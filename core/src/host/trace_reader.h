// Trace replay input: the common ASCII block-trace format, one request per
// line.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace ssdp {

struct TraceEntry {
  uint64_t time_ns;  // arrival time, already multiplied by the time scale
  uint64_t offset_bytes;
  uint32_t bytes;
  bool is_read;
};

// The largest request a trace line may ask for.
constexpr uint64_t kMaxTraceRequestBytes = 16ull << 20;

// Parses lines of "time_ns device lba_sectors size_sectors type": unsigned
// decimal integers separated by spaces or tabs, 512-byte sectors, type 0 for
// a write and 1 for a read; the device number is checked but ignored. Blank
// lines are skipped and '#' starts a comment (whole line or after the
// fields). Timestamps must not decrease. Each time is multiplied by
// time_scale (> 0) and rounded to the nearest ns.
//
// On success *out holds one entry per request line, in order. On failure the
// message names the line number, the field and the offending text, and *out
// is left empty.
Status ParseTrace(std::string_view text, double time_scale, std::vector<TraceEntry>* out);

}  // namespace ssdp
