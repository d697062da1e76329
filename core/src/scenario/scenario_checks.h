// Scenario checks that involve more than one field: GC watermarks against the
// geometry, spare capacity for garbage collection, flows against the device,
// inline trace text, and the memory guard. Internal to the loader.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "scenario/json_reader.h"
#include "scenario/scenario.h"

namespace ssdp {

// Checks a scenario whose fields each passed their own checks. `doc` is the
// document it came from (to name fields the way the user wrote them). Sets
// *over_memory_limit when the memory guard refused the device.
void CheckScenarioConsistency(const Scenario& scenario, const nlohmann::json& doc,
                              ErrorList* errors, bool* over_memory_limit);

// Checks trace text: every line "time_ns device lba_sectors size_sectors type"
// with unsigned integers, type 0 (write) or 1 (read), the sectors inside the
// device's logical capacity; '#' starts a comment. Problems are reported under
// `path`, with `file` (when not empty) and the line number.
void CheckTraceText(const Scenario& scenario, std::string_view text, const std::string& path,
                    const std::string& file, ErrorList* errors);

// "24.6 GiB", "16.0 MiB", "64.0 KiB".
std::string FormatBytes(uint64_t bytes);

}  // namespace ssdp
