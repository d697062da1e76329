// Scenario loading: JSON text or a file in, a validated Scenario out.
//
// Every value is checked for type and range, unknown keys are refused, and
// the fields that constrain one another are checked together; each problem is
// reported as "<json path>: <what is wrong>; allowed <what is>", one per line,
// first found first. A device too large for run.memory_limit_bytes is refused
// here, from an estimate, before the model allocates anything.
//
// Only LoadScenarioFile touches the filesystem: it reads the scenario and any
// trace file it names, so the model itself never does (and runs unchanged in
// a browser).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"
#include "util/status.h"

namespace ssdp {

// Parses JSON text into a document, without validating it as a scenario.
// Syntax errors and duplicate keys are reported with line and column (or the
// key's path), e.g. "line 3, column 7: invalid JSON: ...".
Status ParseJsonText(std::string_view json_text, nlohmann::json* doc);

// Validates `doc` and fills *out with it, defaults for every absent key.
// On failure *out is left unchanged. A `workload.trace.path` is recorded but
// not read (see LoadScenarioFile): a caller that cannot read files, such as
// the browser, should pass the trace as `workload.trace.text` instead.
Status ParseScenarioJson(const nlohmann::json& doc, Scenario* out);

// ParseJsonText then ParseScenarioJson.
Status ParseScenarioText(std::string_view json_text, Scenario* out);

// Reads the scenario file at `path`, applies `overrides` ("--set" strings, in
// order) to it, validates the result and fills *out. Sets out->base_dir to the
// file's directory and reads a trace named by `workload.trace.path` (relative
// to that directory) into out->workload.trace.text.
Status LoadScenarioFile(const std::string& path, const std::vector<std::string>& overrides,
                        Scenario* out);

// Applies one override "json.path=value" to a document before validation:
//   device.flash.cell_type=TLC   workload.flows[0].queue_depth=8   seed=7
// The value is JSON when it parses as JSON (numbers, true/false, arrays,
// objects, quoted strings) and a bare string otherwise; `null` removes the key
// so that its default applies. Missing objects on the way are created; an
// array index must name an existing element, or equal the array's size to
// append one.
Status ApplyOverride(nlohmann::json* doc, std::string_view assignment);

// Logical pages the host can address: the physical pages less the
// overprovisioned share, floor(total pages * (1 - overprovisioning_fraction)).
uint64_t LogicalPageCount(const DeviceConfig& device);

// Host memory the model will need for `scenario`'s state, in bytes: mapping
// tables, per-page and per-block state, buffer bookkeeping, the observation
// ring and a fixed allowance. Compared with run.memory_limit_bytes before
// anything is allocated.
uint64_t EstimateStateBytes(const Scenario& scenario);

}  // namespace ssdp
