#include "host/trace_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "util/portable_math.h"

SSDP_STRICT_FP_FILE

namespace ssdp {
namespace {

constexpr int kFieldCount = 5;
constexpr const char* kFieldNames[kFieldCount] = {"time_ns", "device", "lba_sectors",
                                                  "size_sectors", "type"};
constexpr const char* kLineFormat = "a line is: time_ns device lba_sectors size_sectors type";
constexpr uint64_t kSectorBytes = 512;
constexpr uint64_t kMaxSectors = kMaxTraceRequestBytes / kSectorBytes;
// Keeps offset + size representable in 64 bits.
constexpr uint64_t kMaxLbaSectors = (~uint64_t(0) - kMaxTraceRequestBytes) / kSectorBytes;

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The offending text as it should appear in a message: quoted, and cut short
// so a runaway line cannot flood the error.
std::string Quoted(std::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string quoted = "'";
  quoted += text.substr(0, kMaxShown);
  if (text.size() > kMaxShown) quoted += "...";
  quoted += "'";
  return quoted;
}

Status LineError(uint64_t line, std::string message) {
  return Status::InvalidArgument("trace line " + std::to_string(line) + ": " + message);
}

Status FieldError(uint64_t line, int field, std::string_view problem, std::string_view text) {
  return LineError(line, std::string("field '") + kFieldNames[field] + "' " + std::string(problem) +
                             ", got " + Quoted(text));
}

// Parses a whole token as an unsigned decimal integer.
Status ParseField(uint64_t line, int field, std::string_view token, uint64_t* value) {
  const char* end = token.data() + token.size();
  const auto [stop, error] = std::from_chars(token.data(), end, *value);
  if (error == std::errc::result_out_of_range) {
    return FieldError(line, field, "is too large for 64 bits", token);
  }
  if (error != std::errc() || stop != end) {
    return FieldError(line, field, "must be an unsigned decimal integer", token);
  }
  return Status::Ok();
}

}  // namespace

Status ParseTrace(std::string_view text, double time_scale, std::vector<TraceEntry>* out) {
  out->clear();
  if (!(time_scale > 0) || !std::isfinite(time_scale)) {
    return Status::InvalidArgument("trace time_scale must be a positive number, got " +
                                   std::to_string(time_scale));
  }
  out->reserve(size_t(std::count(text.begin(), text.end(), '\n')) + 1);

  uint64_t line_number = 0;
  uint64_t previous_time = 0;
  uint64_t previous_line = 0;
  size_t line_start = 0;
  while (line_start < text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    ++line_number;

    std::string_view fields[kFieldCount];
    int field_count = 0;
    size_t i = 0;
    for (;;) {
      while (i < line.size() && IsBlank(line[i])) ++i;
      if (i == line.size() || line[i] == '#') break;
      const size_t token_start = i;
      while (i < line.size() && !IsBlank(line[i])) ++i;
      const std::string_view token = line.substr(token_start, i - token_start);
      if (field_count == kFieldCount) {
        out->clear();
        return LineError(line_number, "unexpected extra field " + Quoted(token) + " after 'type' (" +
                                          kLineFormat + ")");
      }
      fields[field_count++] = token;
    }
    if (field_count == 0) continue;  // blank or comment
    if (field_count < kFieldCount) {
      out->clear();
      return LineError(line_number, std::string("missing field '") + kFieldNames[field_count] +
                                        "' (" + kLineFormat + ")");
    }

    uint64_t values[kFieldCount];
    for (int field = 0; field < kFieldCount; ++field) {
      Status status = ParseField(line_number, field, fields[field], &values[field]);
      if (!status.ok()) {
        out->clear();
        return status;
      }
    }
    const uint64_t time = values[0];
    const uint64_t lba = values[2];
    const uint64_t sectors = values[3];
    const uint64_t type = values[4];
    Status error;
    if (lba > kMaxLbaSectors) {
      error = FieldError(line_number, 2, "addresses beyond 2^64 bytes", fields[2]);
    } else if (sectors == 0 || sectors > kMaxSectors) {
      error = FieldError(line_number, 3,
                         "must be 1.." + std::to_string(kMaxSectors) +
                             " (512-byte sectors, at most 16 MiB)",
                         fields[3]);
    } else if (type > 1) {
      error = FieldError(line_number, 4, "must be 0 (write) or 1 (read)", fields[4]);
    } else if (previous_line != 0 && time < previous_time) {
      error = FieldError(line_number, 0,
                         "goes backwards: earlier than " + std::to_string(previous_time) +
                             " on line " + std::to_string(previous_line),
                         fields[0]);
    }
    if (!error.ok()) {
      out->clear();
      return error;
    }
    previous_time = time;
    previous_line = line_number;

    uint64_t scaled_time = time;
    if (time_scale != 1.0) {
      const double scaled = double(time) * time_scale + 0.5;
      if (!(scaled < 0x1p64)) {
        out->clear();
        return FieldError(line_number, 0, "overflows 64 bits after multiplying by time_scale",
                          fields[0]);
      }
      scaled_time = uint64_t(scaled);
    }
    out->push_back(TraceEntry{scaled_time, lba * kSectorBytes, uint32_t(sectors * kSectorBytes),
                              type == 1});
  }
  return Status::Ok();
}

}  // namespace ssdp
