// Tests of the scenario loader: every kind of bad value is refused with its
// JSON path, defaults apply, overrides edit documents, files and traces load,
// every shipped scenario validates, and scenarios/schema.json describes the
// same format as the loader (keys, ranges, enums, defaults).
#include "scenario/scenario_loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "obs/record.h"

namespace ssdp {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// ---------------------------------------------------------------- helpers

// Every field of a scenario as text, so that two scenarios compare field by
// field and a mismatch shows which field differs.
std::string Describe(const Scenario& s) {
  std::ostringstream o;
  const auto& g = s.device.geometry;
  o << "title=" << s.title << "\ndescription=" << s.description << "\nseed=" << s.seed
    << "\ngeometry=" << g.channels << "," << g.chips_per_channel << "," << g.dies_per_chip << ","
    << g.planes_per_die << "," << g.blocks_per_plane << "," << g.pages_per_block << ","
    << g.page_bytes << "," << g.oob_bytes;
  const auto& f = s.device.flash;
  o << "\nflash=" << int(f.cell_type) << "," << f.read_ns << "," << f.program_ns << ","
    << f.erase_ns << "," << f.channel_mtps << "," << f.bus_width_bits << ","
    << f.command_overhead_ns << "," << f.endurance_cycles << "," << f.factory_bad_block_fraction
    << "," << f.program_fail_probability << "," << f.erase_fail_probability;
  const auto& t = s.device.ftl;
  o << "\nftl=" << t.overprovisioning_fraction << "," << int(t.allocation_order) << ","
    << t.translation_ns << "\nbuffer=" << t.buffer.capacity_bytes << ","
    << t.buffer.power_loss_protection << "," << t.buffer.capacitor_budget_ns << ","
    << t.buffer.access_ns << "\ngc=" << t.gc.enabled << "," << int(t.gc.policy) << ","
    << t.gc.background_free_blocks << "," << t.gc.foreground_free_blocks << "," << t.gc.copyback
    << "\nwear=" << t.wear_leveling.dynamic << "," << t.wear_leveling.static_enabled << ","
    << t.wear_leveling.static_threshold_erases << "\ncheckpoint=" << t.checkpoint.enabled << ","
    << t.checkpoint.interval_page_writes;
  const auto& h = s.device.host_interface;
  o << "\npcie=" << h.pcie.generation << "," << h.pcie.lanes << "," << h.pcie.max_payload_bytes
    << "," << h.pcie.tlp_overhead_bytes << "," << h.pcie.latency_ns
    << "\nnvme=" << int(h.nvme.completion) << "," << h.nvme.interrupt_ns << "," << h.nvme.poll_ns
    << "," << h.nvme.max_queue_depth;
  o << "\nprecondition=" << s.precondition.fill_fraction << ","
    << s.precondition.random_overwrite_passes;
  for (const FlowConfig& flow : s.workload.flows) {
    o << "\nflow=" << flow.name << "," << int(flow.pattern) << "," << flow.read_fraction << ",";
    for (const SizeWeight& size : flow.sizes) o << size.bytes << "x" << size.weight << ";";
    o << "," << flow.queue_depth << "," << flow.arrival_rate_iops << "," << flow.lba_start_fraction
      << "," << flow.lba_end_fraction << "," << flow.zipf_theta << "," << flow.hot_fraction << ","
      << flow.hot_access_fraction << "," << flow.requests << "," << flow.duration_ns << ","
      << flow.start_ns;
  }
  const auto& trace = s.workload.trace;
  o << "\ntrace=" << trace.enabled << "," << trace.path << "," << trace.text.size() << ","
    << trace.queue_depth << "," << trace.time_scale;
  const auto& obs = s.observation;
  o << "\nobservation=" << obs.ring_records << "," << obs.sample_one_in << ","
    << obs.perf_interval_ns << "," << obs.disabled_points << "\nfaults=";
  for (uint64_t at : s.faults.power_fail_at_ns) o << at << ";";
  o << "," << s.faults.reboot_delay_ns << "\nrun=" << s.run.max_time_ns << ","
    << s.run.memory_limit_bytes << "," << s.run.check_invariants;
  return o.str();
}

json Doc(const std::string& text) {
  json doc;
  Status status = ParseJsonText(text, &doc);
  EXPECT_TRUE(status.ok()) << status.message();
  return doc;
}

// The loader's verdict on a document: "" when accepted, else its message.
std::string ErrorOf(const json& doc, Scenario* out = nullptr) {
  Scenario scenario;
  Status status = ParseScenarioJson(doc, out ? out : &scenario);
  return status.ok() ? "" : status.message();
}

std::string ErrorOfText(const std::string& text) {
  Scenario scenario;
  Status status = ParseScenarioText(text, &scenario);
  return status.ok() ? "" : status.message();
}

Scenario Parsed(const json& doc) {
  Scenario scenario;
  Status status = ParseScenarioJson(doc, &scenario);
  EXPECT_TRUE(status.ok()) << status.message();
  return scenario;
}

// `doc` with one override applied (the override must be well formed).
json With(json doc, const std::string& assignment) {
  Status status = ApplyOverride(&doc, assignment);
  EXPECT_TRUE(status.ok()) << assignment << ": " << status.message();
  return doc;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A directory of its own for one test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("ssdp_loader_" + std::to_string(::getpid()) + "_" + info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string Write(const std::string& name, const std::string& contents) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << contents;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// ---------------------------------------------------------------- defaults

TEST(ScenarioDefaults, EmptyDocumentGivesTheDefaultsOfScenarioH) {
  Scenario parsed = Parsed(json::object());
  EXPECT_EQ(Describe(parsed), Describe(Scenario{}));
  EXPECT_TRUE(parsed.workload.flows.empty());
  EXPECT_FALSE(parsed.workload.trace.enabled);
}

TEST(ScenarioDefaults, AbsentKeysOfAFlowTakeFlowDefaults) {
  Scenario parsed = Parsed(Doc(R"({"workload": {"flows": [{"queue_depth": 4}]}})"));
  ASSERT_EQ(parsed.workload.flows.size(), 1u);
  FlowConfig expected;
  expected.queue_depth = 4;
  Scenario reference;
  reference.workload.flows.push_back(expected);
  EXPECT_EQ(Describe(parsed), Describe(reference));
  EXPECT_EQ(parsed.workload.flows[0].sizes.size(), 1u);
  EXPECT_EQ(parsed.workload.flows[0].sizes[0].bytes, 4096u);
}

TEST(ScenarioDefaults, GivenValuesReplaceDefaults) {
  Scenario parsed = Parsed(Doc(R"({
    "seed": 7,
    "device": {"geometry": {"channels": 8, "page_bytes": 16384},
               "flash": {"cell_type": "TLC", "read_ns": 0},
               "ftl": {"allocation_order": "plane-first", "gc": {"policy": "cost-benefit"}},
               "host_interface": {"nvme": {"completion": "polled"}}},
    "workload": {"flows": [{"pattern": "hot-cold", "sizes": [{"bytes": 8192, "weight": 3},
                                                            {"bytes": 65536}]}]},
    "observation": {"disabled_points": ["gc_start", "trim"]},
    "faults": {"power_fail_at_ns": [1000, 2000]}
  })"));
  EXPECT_EQ(parsed.seed, 7u);
  EXPECT_EQ(parsed.device.geometry.channels, 8u);
  EXPECT_EQ(parsed.device.geometry.page_bytes, 16384u);
  EXPECT_EQ(parsed.device.flash.cell_type, CellType::kTLC);
  EXPECT_EQ(parsed.device.ftl.allocation_order, AllocationOrder::kPlaneFirst);
  EXPECT_EQ(parsed.device.ftl.gc.policy, GcPolicy::kCostBenefit);
  EXPECT_EQ(parsed.device.host_interface.nvme.completion, CompletionMode::kPolled);
  ASSERT_EQ(parsed.workload.flows[0].sizes.size(), 2u);
  EXPECT_EQ(parsed.workload.flows[0].pattern, AccessPattern::kHotCold);
  EXPECT_EQ(parsed.workload.flows[0].sizes[0].bytes, 8192u);
  EXPECT_EQ(parsed.workload.flows[0].sizes[0].weight, 3);
  EXPECT_EQ(parsed.workload.flows[0].sizes[1].weight, 1);
  EXPECT_EQ(parsed.observation.disabled_points,
            (1u << uint32_t(RecordKind::kGcStart)) | (1u << uint32_t(RecordKind::kTrim)));
  EXPECT_EQ(parsed.faults.power_fail_at_ns, (std::vector<uint64_t>{1000, 2000}));
}

TEST(ScenarioDefaults, RequestBytesIsShorthandForOneSize) {
  Scenario parsed = Parsed(Doc(R"({"workload": {"flows": [{"request_bytes": 131072}]}})"));
  ASSERT_EQ(parsed.workload.flows[0].sizes.size(), 1u);
  EXPECT_EQ(parsed.workload.flows[0].sizes[0].bytes, 131072u);
  EXPECT_EQ(parsed.workload.flows[0].sizes[0].weight, 1);
}

TEST(ScenarioDefaults, IntegersMayBeWrittenWithAnExponent) {
  Scenario parsed = Parsed(Doc(R"({"run": {"max_time_ns": 2e9}, "seed": 4.0})"));
  EXPECT_EQ(parsed.run.max_time_ns, 2'000'000'000u);
  EXPECT_EQ(parsed.seed, 4u);
}

TEST(ScenarioDefaults, ATraceIsEnabledByItsText) {
  Scenario parsed = Parsed(Doc(R"({"workload": {"trace": {"text": "0 0 0 8 1\n"}}})"));
  EXPECT_TRUE(parsed.workload.trace.enabled);
  EXPECT_EQ(parsed.workload.trace.text, "0 0 0 8 1\n");
}

TEST(ScenarioDefaults, OnFailureTheOutputIsLeftAlone) {
  Scenario scenario;
  scenario.title = "kept";
  EXPECT_FALSE(ParseScenarioText(R"({"seed": -1})", &scenario).ok());
  EXPECT_EQ(scenario.title, "kept");
}

// ---------------------------------------------------------------- field errors

TEST(ScenarioFieldErrors, OutOfRangeIntegerNamesPathValueAndRange) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"geometry": {"channels": 0}}})"),
            "device.geometry.channels: 0 is out of range; allowed 1..64");
  EXPECT_EQ(ErrorOfText(R"({"device": {"geometry": {"channels": 65}}})"),
            "device.geometry.channels: 65 is out of range; allowed 1..64");
}

TEST(ScenarioFieldErrors, WrongTypeNamesTheValue) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"geometry": {"channels": "abc"}}})"),
            "device.geometry.channels: expected an integer, got \"abc\"");
  EXPECT_EQ(ErrorOfText(R"({"precondition": {"fill_fraction": "half"}})"),
            "precondition.fill_fraction: expected a number, got \"half\"");
  EXPECT_EQ(ErrorOfText(R"({"device": {"ftl": {"gc": {"enabled": 1}}}})"),
            "device.ftl.gc.enabled: expected true or false, got 1");
  EXPECT_EQ(ErrorOfText(R"({"title": 5})"), "title: expected a string, got 5");
  EXPECT_EQ(ErrorOfText(R"({"device": 5})"), "device: expected an object, got 5");
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": {}}})"),
            "workload.flows: expected an array, got {}");
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": [3]}})"),
            "workload.flows[0]: expected an object, got 3");
  EXPECT_EQ(ErrorOfText("[1, 2]"), "(top level): expected a JSON object, got [1,2]");
}

TEST(ScenarioFieldErrors, NonIntegersAndNegativesAreRefusedForIntegerFields) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"geometry": {"blocks_per_plane": 64.5}}})"),
            "device.geometry.blocks_per_plane: expected an integer, got 64.5");
  EXPECT_EQ(ErrorOfText(R"({"seed": -1})"),
            "seed: -1 is out of range; allowed 0..9007199254740992");
  EXPECT_EQ(ErrorOfText(R"({"run": {"max_time_ns": -5e9}})"),
            "run.max_time_ns: -5000000000 is out of range; allowed 1000..1000000000000000");
}

TEST(ScenarioFieldErrors, NanAndInfinityAreRefused) {
  json doc = json::object();
  doc["precondition"]["fill_fraction"] = std::nan("");
  EXPECT_EQ(ErrorOf(doc), "precondition.fill_fraction: expected a finite number, got NaN");
  doc = json::object();
  doc["device"]["geometry"]["channels"] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ErrorOf(doc), "device.geometry.channels: expected an integer, got Infinity");
  // In text, a number too large for a double is a syntax error.
  EXPECT_THAT(ErrorOfText(R"({"precondition": {"fill_fraction": 1e999}})"),
              HasSubstr("invalid JSON: number overflow"));
}

TEST(ScenarioFieldErrors, UnknownKeysListTheAllowedKeys) {
  const std::string error = ErrorOfText(R"({"device": {"flash": {"cell": "TLC"}}})");
  EXPECT_THAT(error, StartsWith("device.flash.cell: unknown key; allowed keys: cell_type, read_ns, "
                                "program_ns, erase_ns, channel_mtps,"));
  EXPECT_THAT(error, HasSubstr("did you mean \"cell_type\"?"));
  EXPECT_THAT(ErrorOfText(R"({"sed": 1})"),
              StartsWith("sed: unknown key; allowed keys: $schema, title,"));
  EXPECT_THAT(ErrorOfText(R"({"workload": {"flows": [{}, {"qd": 4}]}})"),
              StartsWith("workload.flows[1].qd: unknown key; allowed keys: name, pattern,"));
}

TEST(ScenarioFieldErrors, BadEnumStringsListTheAllowedSet) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"flash": {"cell_type": "penta"}}})"),
            "device.flash.cell_type: \"penta\" is not allowed; allowed: \"SLC\", \"MLC\", \"TLC\", "
            "\"QLC\"");
  EXPECT_THAT(ErrorOfText(R"({"device": {"flash": {"cell_type": "tlc"}}})"),
              HasSubstr("did you mean \"TLC\"?"));
  EXPECT_THAT(
      ErrorOfText(R"({"device": {"ftl": {"gc": {"policy": 1}}}})"),
      StartsWith("device.ftl.gc.policy: expected one of \"greedy\", \"cost-benefit\", got 1"));
  EXPECT_THAT(ErrorOfText(R"({"observation": {"disabled_points": ["gc_start", "gc"]}})"),
              StartsWith("observation.disabled_points[1]: \"gc\" is not allowed; allowed: "
                         "\"request_submit\""));
}

TEST(ScenarioFieldErrors, SpecialRangesAreExplained) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"flash": {"read_ns": 500}}})"),
            "device.flash.read_ns: 500 is out of range; allowed 0 or 1000..10000000");
  EXPECT_EQ(ErrorOfText(R"({"device": {"geometry": {"page_bytes": 5000}}})"),
            "device.geometry.page_bytes: 5000 is not allowed; allowed values: 2048, 4096, 8192, "
            "16384, 32768");
  EXPECT_EQ(ErrorOfText(R"({"observation": {"ring_records": 3000}})"),
            "observation.ring_records: 3000 is not a power of two; allowed 1024..16777216, a power "
            "of two");
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": [{"request_bytes": 1000}]}})"),
            "workload.flows[0].request_bytes: 1000 is not a multiple of 512; allowed "
            "512..16777216, a multiple of 512");
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": [{"sizes": [{"weight": 0}]}]}})"),
            "workload.flows[0].sizes[0].weight: 0 is out of range; allowed above 0");
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": [{"arrival_rate_iops": 0.5}]}})"),
            "workload.flows[0].arrival_rate_iops: 0.5 is out of range; allowed 0 or 1..100000000");
}

TEST(ScenarioFieldErrors, NestedArrayElementsAreNamedByIndex) {
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": [{}, {"sizes": [{"bytes": 100}]}]}})"),
            "workload.flows[1].sizes[0].bytes: 100 is out of range; allowed 512..16777216, a "
            "multiple of 512");
  EXPECT_EQ(ErrorOfText(R"({"faults": {"power_fail_at_ns": [10, "soon"]}})"),
            "faults.power_fail_at_ns[1]: expected an integer, got \"soon\"");
}

TEST(ScenarioFieldErrors, StringAndArrayLengthsAreChecked) {
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": [{"name": ""}]}})"),
            "workload.flows[0].name: a string of 0 characters is out of range; allowed 1..64 "
            "characters");
  EXPECT_EQ(
      ErrorOfText(R"({"workload": {"flows": [{"sizes": []}]}})"),
      "workload.flows[0].sizes: an array of 0 entries is out of range; allowed 1..16 entries");
  json flows = json::array();
  for (int i = 0; i < 17; ++i) flows.push_back(json::object());
  EXPECT_EQ(ErrorOf(json{{"workload", {{"flows", flows}}}}),
            "workload.flows: an array of 17 entries is out of range; allowed 0..16 entries");
  // Lengths count characters, not bytes: 64 two-byte characters fit.
  std::string name;
  for (int i = 0; i < 64; ++i) name += "\xC3\xA9";
  EXPECT_EQ(ErrorOf(json{{"workload", {{"flows", {{{"name", name}}}}}}}), "");
}

TEST(ScenarioFieldErrors, SizesAndRequestBytesExcludeEachOther) {
  EXPECT_EQ(
      ErrorOfText(R"({"workload": {"flows": [{"sizes": [{}], "request_bytes": 4096}]}})"),
      "workload.flows[0].request_bytes: give either \"sizes\" or \"request_bytes\", not both");
  EXPECT_EQ(ErrorOfText(R"({"workload": {"trace": {"path": "a.trace", "text": "0 0 0 8 1"}}})"),
            "workload.trace.text: give either \"path\" or \"text\", not both");
}

TEST(ScenarioFieldErrors, AllProblemsAreReportedFirstFoundFirst) {
  const std::string error = ErrorOfText(R"({
    "seed": "x",
    "device": {"geometry": {"channels": 0, "pages": 4}},
    "run": {"check_invariants": "yes"}
  })");
  const std::vector<std::string> lines = Lines(error);
  ASSERT_EQ(lines.size(), 4u) << error;
  EXPECT_THAT(lines[0], StartsWith("seed: expected an integer"));
  EXPECT_THAT(lines[1], StartsWith("device.geometry.channels: 0 is out of range"));
  EXPECT_THAT(lines[2], StartsWith("device.geometry.pages: unknown key"));
  EXPECT_THAT(lines[3], StartsWith("run.check_invariants: expected true or false"));
}

// ---------------------------------------------------------------- cross-field checks

TEST(ScenarioCrossChecks, ForegroundWatermarkMustBeBelowBackground) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"ftl": {
                 "overprovisioning_fraction": 0.2,
                 "gc": {"foreground_free_blocks": 6, "background_free_blocks": 6}}}})"),
            "device.ftl.gc.foreground_free_blocks: 6 must be below background_free_blocks (6)");
}

TEST(ScenarioCrossChecks, BackgroundWatermarkMustBeBelowHalfThePlane) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"geometry": {"blocks_per_plane": 12},
                                       "ftl": {"overprovisioning_fraction": 0.4}}})"),
            "device.ftl.gc.background_free_blocks: 6 must be below half of "
            "device.geometry.blocks_per_plane (12 / 2)");
}

TEST(ScenarioCrossChecks, OverprovisioningMustLeaveRoomForGarbageCollection) {
  const std::string error =
      ErrorOfText(R"({"device": {"ftl": {"overprovisioning_fraction": 0.03}}})");
  EXPECT_THAT(error, StartsWith("device.ftl.overprovisioning_fraction: 0.03 must leave more spare "
                                "blocks per plane: it leaves 1.9 of 64"));
  EXPECT_THAT(error, HasSubstr("foreground_free_blocks + 1 = 4"));
  EXPECT_THAT(error, HasSubstr("use at least 0.063"));
  // The suggested value works.
  EXPECT_EQ(ErrorOfText(R"({"device": {"ftl": {"overprovisioning_fraction": 0.063}}})"), "");
  // Without garbage collection spare blocks do not matter.
  EXPECT_EQ(ErrorOfText(R"({"device": {"ftl": {"overprovisioning_fraction": 0.03,
                                               "gc": {"enabled": false}}}})"),
            "");
}

TEST(ScenarioCrossChecks, BufferHoldsWholePages) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"ftl": {"buffer": {"capacity_bytes": 1000000}}}})"),
            "device.ftl.buffer.capacity_bytes: 1000000 must be a multiple of "
            "device.geometry.page_bytes (8192): the buffer holds whole pages");
  EXPECT_EQ(ErrorOfText(R"({"device": {"ftl": {"buffer": {"capacity_bytes": 0}}}})"),
            "device.ftl.buffer.capacity_bytes: 0 is out of range; allowed 1..4294967296");
  EXPECT_EQ(ErrorOfText(R"({"device": {"ftl": {"buffer": {"capacity_bytes": 8192}}}})"), "");
}

TEST(ScenarioCrossChecks, FlowRangeMustBeOrderedAndHoldItsRequests) {
  EXPECT_EQ(ErrorOfText(R"({"workload": {"flows": [{"lba_start_fraction": 0.5,
                                                     "lba_end_fraction": 0.5}]}})"),
            "workload.flows[0].lba_end_fraction: 0.5 must be above lba_start_fraction (0.5)");
  // Logical capacity: floor(32768 * 0.93) = 30474 pages of 8 KiB; 0.0001 of
  // it is 24964 bytes.
  EXPECT_THAT(ErrorOfText(R"({"workload": {"flows": [{"lba_end_fraction": 0.0001,
                                                        "sizes": [{}, {"bytes": 32768}]}]}})"),
              StartsWith("workload.flows[0].sizes[1].bytes: 32768 must fit the flow's LBA range "
                         "(lba_start_fraction 0 to lba_end_fraction 0.0001 covers 24964 bytes)"));
  EXPECT_THAT(ErrorOfText(R"({"workload": {"flows": [{"lba_end_fraction": 0.0001,
                                                        "request_bytes": 32768}]}})"),
              StartsWith("workload.flows[0].request_bytes: 32768 must fit"));
}

TEST(ScenarioCrossChecks, FlowQueueDepthIsCappedByTheDevice) {
  EXPECT_EQ(ErrorOfText(R"({"device": {"host_interface": {"nvme": {"max_queue_depth": 32}}},
                           "workload": {"flows": [{"queue_depth": 64}]}})"),
            "workload.flows[0].queue_depth: 64 must be at most "
            "device.host_interface.nvme.max_queue_depth (32)");
}

TEST(ScenarioCrossChecks, PowerFailuresAreStrictlyAscending) {
  EXPECT_EQ(ErrorOfText(R"({"faults": {"power_fail_at_ns": [1000, 5000, 5000]}})"),
            "faults.power_fail_at_ns[2]: 5000 must be above the previous entry (5000); power "
            "failures are listed in strictly ascending time");
  EXPECT_THAT(ErrorOfText(R"({"faults": {"power_fail_at_ns": [9000, 5000]}})"),
              StartsWith("faults.power_fail_at_ns[1]: 5000 must be above the previous entry"));
}

TEST(ScenarioCrossChecks, CrossChecksWaitForFieldErrorsToBeFixed) {
  // The watermarks clash, but the unknown key is reported alone: a clash
  // between values that are themselves wrong would only confuse.
  EXPECT_THAT(ErrorOfText(R"({"device": {"ftl": {"gc": {"foreground_free_blocks": 9, "x": 1}}}})"),
              StartsWith("device.ftl.gc.x: unknown key"));
  EXPECT_EQ(
      Lines(ErrorOfText(R"({"device": {"ftl": {"gc": {"foreground_free_blocks": 9, "x": 1}}}})"))
          .size(),
      1u);
}

// ---------------------------------------------------------------- memory guard

TEST(ScenarioMemoryGuard, EstimateFollowsTheDocumentedFormula) {
  Scenario s;  // 2x2x1x2 planes of 64 blocks of 64 pages: P = 32768, B = 512
  const uint64_t pages = 32768, blocks = 512, logical = 30474;  // floor(P * 0.93)
  EXPECT_EQ(LogicalPageCount(s.device), logical);
  const uint64_t expected = 4 * logical + 4 * pages + 4 * pages + 4 * logical + 32 * blocks +
                            logical / 8 + (8u << 20) / 8192 * 64 + 65536 * 32 + (16u << 20);
  EXPECT_EQ(EstimateStateBytes(s), expected);
  s.device.ftl.checkpoint.enabled = false;
  EXPECT_EQ(EstimateStateBytes(s), expected - 4 * logical);
}

TEST(ScenarioMemoryGuard, TooBigDeviceIsRefusedWithTheEstimate) {
  Scenario scenario;
  Status status = ParseScenarioText(R"({"device": {"geometry": {
      "channels": 16, "chips_per_channel": 8, "planes_per_die": 4,
      "blocks_per_plane": 4096, "pages_per_block": 256}}})",
                                    &scenario);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), Status::Code::kResourceExhausted);
  EXPECT_THAT(status.message(), StartsWith("device.geometry: the device needs an estimated 7.9 "
                                           "GiB of simulator memory"));
  EXPECT_THAT(status.message(), HasSubstr("more than run.memory_limit_bytes (3.0 GiB)"));
  EXPECT_THAT(status.message(), HasSubstr("reduce device.geometry.blocks_per_plane to at most"));
}

TEST(ScenarioMemoryGuard, SuggestedBlocksPerPlaneFits) {
  const json big = Doc(R"({"device": {"geometry": {
                                  "channels": 8, "chips_per_channel": 8,
                                  "blocks_per_plane": 16384, "pages_per_block": 256}}})");
  const std::string error = ErrorOf(big);
  const std::string marker = "blocks_per_plane to at most ";
  const size_t at = error.find(marker);
  ASSERT_NE(at, std::string::npos) << error;
  const uint64_t suggested = std::stoull(error.substr(at + marker.size()));
  EXPECT_EQ(ErrorOf(With(big, "device.geometry.blocks_per_plane=" + std::to_string(suggested))),
            "");
  EXPECT_NE(ErrorOf(With(big, "device.geometry.blocks_per_plane=" + std::to_string(suggested + 1))),
            "");
  // A higher limit admits the original device.
  EXPECT_EQ(ErrorOf(With(big, "run.memory_limit_bytes=" + std::to_string(64ull << 30))), "");
}

TEST(ScenarioMemoryGuard, PageNumbersMustFitIn32Bits) {
  // 2^32 pages fit in 64 GiB without checkpoints, but not in 32-bit numbers.
  EXPECT_THAT(ErrorOfText(R"({"device": {
      "geometry": {"channels": 16, "chips_per_channel": 16, "planes_per_die": 1,
                   "blocks_per_plane": 4096, "pages_per_block": 4096},
      "ftl": {"overprovisioning_fraction": 0.01, "checkpoint": {"enabled": false}}},
    "run": {"memory_limit_bytes": 68719476736}})"),
              StartsWith("device.geometry: the device has 4294967296 physical pages, but the "
                         "model must number them in 32 bits (at most 4294967295)"));
}

TEST(ScenarioMemoryGuard, WhenNoGeometryFitsTheMessageSaysSo) {
  EXPECT_THAT(ErrorOfText(R"({"run": {"memory_limit_bytes": 2097152}})"),
              HasSubstr("even 8 blocks per plane do not fit"));
}

// ---------------------------------------------------------------- trace text

TEST(ScenarioTrace, GoodTraceTextIsAccepted) {
  EXPECT_EQ(ErrorOfText(R"({"workload": {"trace": {"text":
      "# comment line\n0 0 0 8 0\r\n\n  100\t1 8 8 1   # trailing comment\n"}}})"),
            "");
}

TEST(ScenarioTrace, BadLinesAreReportedWithTheirNumbers) {
  const std::string error = ErrorOfText(R"({"workload": {"trace": {"text":
      "0 0 0 8 0\n10 0 x 8 1\n20 0 8 8\n30 0 8 0 1\n40 0 8 8 2\n50 0 487580 8 1\n"}}})");
  const std::vector<std::string> lines = Lines(error);
  ASSERT_EQ(lines.size(), 5u) << error;
  EXPECT_EQ(lines[0], "workload.trace.text: line 2: lba_sectors \"x\" is not an unsigned integer");
  EXPECT_EQ(lines[1],
            "workload.trace.text: line 3: expected 5 fields (time_ns device lba_sectors "
            "size_sectors type), got 4");
  EXPECT_EQ(
      lines[2],
      "workload.trace.text: line 4: size_sectors 0 is out of range; allowed 1..32768 (16 MiB)");
  EXPECT_EQ(lines[3], "workload.trace.text: line 5: type 2 is not 0 (write) or 1 (read)");
  // 30474 logical pages of 16 sectors = 487584 sectors.
  EXPECT_EQ(lines[4],
            "workload.trace.text: line 6: sectors 487580..487587 end beyond the device's logical "
            "capacity of 487584 sectors");
}

TEST(ScenarioTrace, TimestampsMustNotDecrease) {
  EXPECT_EQ(ErrorOfText(R"({"workload": {"trace": {"text":
      "100 0 0 8 0\n100 0 8 8 0\n# gap\n50 0 16 8 0\n"}}})"),
            "workload.trace.text: line 4: time_ns 50 is earlier than 100 on line 2; timestamps "
            "must not decrease");
}

TEST(ScenarioTrace, TraceWithoutRequestsIsRefused) {
  EXPECT_THAT(ErrorOfText(R"({"workload": {"trace": {"text": "# nothing\n\n"}}})"),
              StartsWith("workload.trace.text: contains no requests"));
}

// ---------------------------------------------------------------- JSON text

TEST(ScenarioJsonText, SyntaxErrorsGiveLineAndColumn) {
  EXPECT_THAT(ErrorOfText("{\n  \"seed\": 1,\n  \"title\": x\n}"),
              StartsWith("line 3, column 12: invalid JSON: syntax error"));
  EXPECT_THAT(ErrorOfText("{\"seed\": 1,}"), StartsWith("line 1, column 12: invalid JSON:"));
  EXPECT_THAT(ErrorOfText(""), StartsWith("line 1, column 1: invalid JSON:"));
}

TEST(ScenarioJsonText, DuplicateKeysAreRefusedWithTheirPath) {
  EXPECT_EQ(
      ErrorOfText(R"({"workload": {"flows": [{}, {"queue_depth": 1, "queue_depth": 2}]}})"),
      "workload.flows[1].queue_depth: duplicate key; a key may appear only once in an object");
}

TEST(ScenarioJsonText, DeepNestingIsRefusedWithoutCrashing) {
  const std::string deep =
      "{\"seed\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_THAT(ErrorOfText(deep), HasSubstr("nesting deeper than 64 levels"));
}

// ---------------------------------------------------------------- overrides

TEST(ScenarioOverrides, ValuesAreJsonOrBareStrings) {
  json doc = json::object();
  ASSERT_TRUE(ApplyOverride(&doc, "device.flash.cell_type=TLC").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "seed=7").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "device.ftl.gc.copyback=false").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "faults.power_fail_at_ns=[1000, 2000]").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "title=\"42\"").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "description= two words ").ok());
  EXPECT_EQ(doc,
            Doc(R"({"device": {"flash": {"cell_type": "TLC"}, "ftl": {"gc": {"copyback": false}}},
                        "seed": 7, "faults": {"power_fail_at_ns": [1000, 2000]},
                        "title": "42", "description": "two words"})"));
  Scenario parsed = Parsed(doc);
  EXPECT_EQ(parsed.device.flash.cell_type, CellType::kTLC);
  EXPECT_EQ(parsed.seed, 7u);
}

TEST(ScenarioOverrides, ArrayElementsAreAddressedByIndexAndAppended) {
  json doc = Doc(R"({"workload": {"flows": [{"queue_depth": 1}]}})");
  ASSERT_TRUE(ApplyOverride(&doc, "workload.flows[0].queue_depth=8").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "workload.flows[1].name=second").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "workload.flows[1].sizes[0].bytes=8192").ok());
  EXPECT_EQ(doc, Doc(R"({"workload": {"flows": [{"queue_depth": 8},
                        {"name": "second", "sizes": [{"bytes": 8192}]}]}})"));
  Status status = ApplyOverride(&doc, "workload.flows[3].queue_depth=8");
  EXPECT_EQ(status.message(),
            "override \"workload.flows[3].queue_depth=8\": workload.flows[3]: index 3 is out of "
            "range; the array has 2 elements (index 2 appends one)");
}

TEST(ScenarioOverrides, NullRemovesAKeySoItsDefaultApplies) {
  json doc = Doc(R"({"seed": 9, "workload": {"flows": [{"queue_depth": 4}, {}]}})");
  ASSERT_TRUE(ApplyOverride(&doc, "seed=null").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "workload.flows[1]=null").ok());
  ASSERT_TRUE(ApplyOverride(&doc, "device.geometry.channels=null").ok());  // absent: no-op
  EXPECT_EQ(doc, Doc(R"({"workload": {"flows": [{"queue_depth": 4}]}})"));
}

TEST(ScenarioOverrides, OverriddenValuesAreValidatedLikeFileValues) {
  json doc = With(json::object(), "workload.flows[0].queue_depth=\"8\"");
  EXPECT_EQ(ErrorOf(doc), "workload.flows[0].queue_depth: expected an integer, got \"8\"");
  doc = With(json::object(), "device.geometry.channels=0x10");
  EXPECT_EQ(ErrorOf(doc), "device.geometry.channels: expected an integer, got \"0x10\"");
}

TEST(ScenarioOverrides, BadSyntaxIsRefusedWithTheAssignment) {
  json doc = Doc(R"({"seed": 1, "workload": {"flows": []}})");
  const json original = doc;
  EXPECT_EQ(ApplyOverride(&doc, "seed").message(),
            "override \"seed\": expected <path>=<value>, e.g. device.geometry.channels=8");
  EXPECT_EQ(ApplyOverride(&doc, "=7").message(), "override \"=7\": the path before '=' is empty");
  EXPECT_THAT(ApplyOverride(&doc, "device..channels=2").message(),
              StartsWith("override \"device..channels=2\": bad path \"device..channels\": "
                         "unexpected '.' at position 8; expected a key"));
  EXPECT_THAT(ApplyOverride(&doc, "workload.flows[x]=2").message(),
              HasSubstr("expected [index] with a non-negative integer index at position 16"));
  EXPECT_THAT(ApplyOverride(&doc, "workload.flows[0=2").message(), HasSubstr("bad path"));
  EXPECT_EQ(ApplyOverride(&doc, "seed.value=2").message(),
            "override \"seed.value=2\": seed is a number, not an object");
  EXPECT_EQ(ApplyOverride(&doc, "faults.power_fail_at_ns[2]=5").message(),
            "override \"faults.power_fail_at_ns[2]=5\": faults.power_fail_at_ns does not exist; "
            "index 0 creates it, index 2 cannot");
  EXPECT_EQ(ApplyOverride(&doc, "workload[0]=2").message(),
            "override \"workload[0]=2\": workload is an object, not an array");
  EXPECT_THAT(ApplyOverride(&doc, "faults.power_fail_at_ns=[1000,").message(),
              StartsWith("override \"faults.power_fail_at_ns=[1000,\": value: line 1, column"));
  EXPECT_EQ(doc, original);  // a refused override changes nothing
}

// ---------------------------------------------------------------- files

TEST(ScenarioFiles, LoadReadsTheTraceFileRelativeToTheScenario) {
  TempDir dir;
  dir.Write("traces/small.trace", "# t dev lba size type\n0 0 0 8 0\n1000 0 0 8 1\n");
  const std::string file =
      dir.Write("lab/../s.json", R"({"workload": {"trace": {"path": "traces/small.trace"}}})");
  Scenario scenario;
  Status status = LoadScenarioFile(file, {}, &scenario);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(std::filesystem::canonical(scenario.base_dir), std::filesystem::canonical(dir.path()));
  EXPECT_TRUE(scenario.workload.trace.enabled);
  EXPECT_EQ(scenario.workload.trace.text, "# t dev lba size type\n0 0 0 8 0\n1000 0 0 8 1\n");
}

TEST(ScenarioFiles, OverridesApplyBeforeValidation) {
  TempDir dir;
  const std::string file = dir.Write("s.json", R"({"device": {"geometry": {"channels": 0}}})");
  Scenario scenario;
  EXPECT_EQ(LoadScenarioFile(file, {}, &scenario).message(),
            "device.geometry.channels: 0 is out of range; allowed 1..64");
  Status status = LoadScenarioFile(file, {"device.geometry.channels=4", "seed=3"}, &scenario);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(scenario.device.geometry.channels, 4u);
  EXPECT_EQ(scenario.seed, 3u);
  EXPECT_EQ(LoadScenarioFile(file, {"device.geometry.channels=4", "seed=-3"}, &scenario).message(),
            "seed: -3 is out of range; allowed 0..9007199254740992");
  EXPECT_THAT(LoadScenarioFile(file, {"nonsense"}, &scenario).message(),
              StartsWith("override \"nonsense\""));
}

TEST(ScenarioFiles, FileProblemsNameTheFile) {
  TempDir dir;
  Scenario scenario;
  Status status = LoadScenarioFile(dir.path() + "/missing.json", {}, &scenario);
  EXPECT_EQ(status.code(), Status::Code::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("missing.json"));

  const std::string broken = dir.Write("broken.json", "{\n  \"seed\": ,\n}");
  EXPECT_EQ(LoadScenarioFile(broken, {}, &scenario).message().find(broken + ": line 2, column"),
            0u);

  const std::string no_trace =
      dir.Write("no_trace.json", R"({"workload": {"trace": {"path": "absent.trace"}}})");
  status = LoadScenarioFile(no_trace, {}, &scenario);
  EXPECT_EQ(status.code(), Status::Code::kNotFound);
  EXPECT_THAT(status.message(), StartsWith("workload.trace.path: cannot read trace file"));

  dir.Write("bad.trace", "0 0 0 8 0\n5 0 0 8 read\n");
  const std::string bad_trace =
      dir.Write("bad_trace.json", R"({"workload": {"trace": {"path": "bad.trace"}}})");
  EXPECT_EQ(LoadScenarioFile(bad_trace, {}, &scenario).message(),
            "workload.trace.path: \"bad.trace\" line 2: type \"read\" is not an unsigned integer");
}

TEST(ScenarioFiles, TraceFileCountsAgainstTheMemoryLimit) {
  TempDir dir;
  std::string trace;
  while (trace.size() < (4u << 20)) trace += "0 0 0 8 0\n";
  dir.Write("big.trace", trace);
  const std::string file = dir.Write(
      "s.json",
      R"({"workload": {"trace": {"path": "big.trace"}}, "run": {"memory_limit_bytes": 23068672}})");
  Scenario scenario;
  Status status = LoadScenarioFile(file, {}, &scenario);
  EXPECT_EQ(status.code(), Status::Code::kResourceExhausted);
  EXPECT_THAT(status.message(), StartsWith("workload.trace.path: the trace file"));
}

// Every scenario shipped with the project loads and validates.
TEST(ScenarioFiles, EveryShippedScenarioValidates) {
  const std::filesystem::path root(SSDP_SCENARIO_DIR);
  size_t loaded = 0;
  std::set<std::string> basics;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    if (entry.path().filename() == "schema.json") continue;
    Scenario scenario;
    Status status = LoadScenarioFile(entry.path().string(), {}, &scenario);
    EXPECT_TRUE(status.ok()) << entry.path() << ":\n" << status.message();
    EXPECT_FALSE(scenario.title.empty()) << entry.path() << " has no title";
    EXPECT_FALSE(scenario.description.empty()) << entry.path() << " has no description";
    if (entry.path().parent_path().filename() == "basics") basics.insert(entry.path().stem());
    ++loaded;
  }
  EXPECT_GE(loaded, 6u);
  for (const char* name : {"default", "sequential-write", "random-read-qd1", "gc-under-pressure",
                           "mixed-flows", "trace-replay"}) {
    EXPECT_TRUE(basics.count(name)) << "scenarios/basics/" << name << ".json is missing";
  }
}

// ---------------------------------------------------------------- schema.json agrees

// One property of scenarios/schema.json, with the path the loader names it by
// (array elements as [0]).
struct SchemaField {
  std::string path;
  json schema;
};

struct SchemaObject {
  std::string path;
  std::set<std::string> keys;
};

void CollectSchema(const json& schema, const std::string& path, std::vector<SchemaField>* fields,
                   std::vector<SchemaObject>* objects) {
  SchemaObject object{path, {}};
  for (const auto& [key, property] : schema.at("properties").items()) {
    object.keys.insert(key);
    const std::string child = path.empty() ? key : path + "." + key;
    const std::string type = property.value("type", "");
    if (type == "object") {
      CollectSchema(property, child, fields, objects);
    } else if (type == "array" && property.at("items").value("type", "") == "object") {
      fields->push_back({child, property});
      CollectSchema(property.at("items"), child + "[0]", fields, objects);
    } else {
      fields->push_back({child, property});
    }
  }
  objects->push_back(object);
}

class SchemaAgreement : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ifstream in(std::string(SSDP_SCENARIO_DIR) + "/schema.json");
    ASSERT_TRUE(in) << "scenarios/schema.json is missing";
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_TRUE(ParseJsonText(text.str(), &schema_).ok());
    CollectSchema(schema_, "", &fields_, &objects_);
  }

  // A document with one flow, so that flow fields have somewhere to go.
  static json Base() { return Doc(R"({"workload": {"flows": [{}]}})"); }

  static json Set(const std::string& path, const json& value) {
    return With(Base(), path + "=" + value.dump());
  }

  // True when the loader reports a problem with the field itself at `path`
  // (cross-field messages say "must" and are not about the value's range).
  static bool FieldRefused(const std::string& path, const json& value) {
    for (const std::string& line : Lines(ErrorOf(Set(path, value)))) {
      if (line.rfind(path + ": ", 0) == 0 && line.find(" must ") == std::string::npos) return true;
    }
    return false;
  }

  json schema_;
  std::vector<SchemaField> fields_;
  std::vector<SchemaObject> objects_;
};

TEST_F(SchemaAgreement, EveryObjectHasTheSameKeys) {
  EXPECT_GE(objects_.size(), 18u);
  for (const SchemaObject& object : objects_) {
    const std::string key_path = object.path.empty() ? "zz_unknown" : object.path + ".zz_unknown";
    const std::string error = ErrorOf(Set(key_path, 1));
    const std::string marker = key_path + ": unknown key; allowed keys: ";
    ASSERT_EQ(error.find(marker), 0u) << error;
    std::string list = error.substr(marker.size());
    list = list.substr(0, list.find(';'));
    list = list.substr(0, list.find('\n'));
    std::set<std::string> loader_keys;
    std::stringstream items(list);
    for (std::string key; std::getline(items, key, ',');)
      loader_keys.insert(key.substr(key.find_first_not_of(' ')));
    EXPECT_EQ(loader_keys, object.keys)
        << "keys of " << (object.path.empty() ? "(top level)" : object.path);
  }
}

// The quoted names after "allowed: " in a loader message about `path`.
std::set<std::string> AllowedNames(const std::string& error, const std::string& path) {
  std::set<std::string> names;
  for (const std::string& line : Lines(error)) {
    if (line.rfind(path + ": ", 0) != 0) continue;
    const size_t start = line.find("allowed: ");
    if (start == std::string::npos) continue;
    const std::string list = line.substr(start, line.find(';', start) - start);
    for (size_t open = list.find('"'); open != std::string::npos;) {
      const size_t close = list.find('"', open + 1);
      names.insert(list.substr(open + 1, close - open - 1));
      open = list.find('"', close + 1);
    }
  }
  return names;
}

TEST_F(SchemaAgreement, EnumsMatch) {
  size_t checked = 0;
  for (const SchemaField& field : fields_) {
    const json& s = field.schema;
    if (!s.contains("enum")) continue;
    const std::string& p = field.path;
    SCOPED_TRACE(p);
    std::set<std::string> schema_names;
    for (const json& value : s.at("enum")) {
      EXPECT_FALSE(FieldRefused(p, value)) << value;
      if (value.is_string()) schema_names.insert(value.get<std::string>());
    }
    if (s.value("type", "") == "string") {
      EXPECT_TRUE(FieldRefused(p, "no-such-value"));
      EXPECT_EQ(AllowedNames(ErrorOf(Set(p, "no-such-value")), p), schema_names);
    } else {
      // Every integer next to an allowed one, and beyond the largest, is refused.
      std::set<uint64_t> allowed;
      for (const json& value : s.at("enum")) allowed.insert(value.get<uint64_t>());
      for (uint64_t value : allowed) {
        for (uint64_t neighbour : {value / 2, value - 1, value + 1, value * 2}) {
          if (!allowed.count(neighbour)) {
            EXPECT_TRUE(FieldRefused(p, neighbour)) << neighbour;
          }
        }
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

TEST_F(SchemaAgreement, RangesMatch) {
  size_t checked = 0;
  for (const SchemaField& field : fields_) {
    const json& s = field.schema;
    const std::string type = s.value("type", "");
    if (s.contains("enum") || (type != "integer" && type != "number")) continue;
    const std::string& p = field.path;
    SCOPED_TRACE(p);
    const bool integer = type == "integer";
    const json& range = s.contains("anyOf") ? s.at("anyOf").at(1) : s;  // "0 or min..max"
    if (s.contains("anyOf")) {
      EXPECT_FALSE(FieldRefused(p, 0));
    }
    const double max = range.value("maximum", 1e300);
    const double step = integer ? 1 : std::max(1e-3, std::fabs(max) * 1e-3);
    double min;
    if (range.contains("minimum")) {
      min = range.at("minimum").get<double>();
      EXPECT_FALSE(FieldRefused(p, range.at("minimum")));
    } else {
      min = s.at("exclusiveMinimum").get<double>();
      EXPECT_TRUE(FieldRefused(p, min));
      EXPECT_FALSE(FieldRefused(p, min + 1e-6));
    }
    if (range.contains("maximum")) {
      EXPECT_FALSE(FieldRefused(p, range.at("maximum")));
      EXPECT_TRUE(FieldRefused(
          p, integer ? json(range.at("maximum").get<uint64_t>() + 1) : json(max + step)));
    }
    // Just below the minimum; when 0 is allowed on its own, halfway to it.
    const double below = s.contains("anyOf") && min - step <= 0 ? min / 2 : min - step;
    EXPECT_TRUE(FieldRefused(p, integer ? json(int64_t(below)) : json(below)));
    if (integer) {
      const bool multiple = s.contains("multipleOf");
      if (min + 1 <= max) {
        EXPECT_EQ(FieldRefused(p, uint64_t(min) + 1), multiple);
      }
      EXPECT_TRUE(FieldRefused(p, min + 0.5));
    } else if (range.contains("maximum")) {
      EXPECT_FALSE(FieldRefused(p, min + (max - min) / 3));  // not a whole number
    }
    EXPECT_TRUE(FieldRefused(p, "text"));
    ++checked;
  }
  EXPECT_GE(checked, 55u);
}

TEST_F(SchemaAgreement, StringsBooleansAndArraysMatch) {
  size_t checked = 0;
  for (const SchemaField& field : fields_) {
    const json& s = field.schema;
    const std::string type = s.value("type", "");
    const std::string& p = field.path;
    SCOPED_TRACE(p);
    if (s.contains("enum")) continue;
    if (type == "string") {
      if (s.contains("maxLength")) {
        const size_t max = s.at("maxLength").get<size_t>();
        EXPECT_FALSE(FieldRefused(p, std::string(max, 'a')));
        EXPECT_TRUE(FieldRefused(p, std::string(max + 1, 'a')));
      }
      EXPECT_EQ(FieldRefused(p, ""), s.value("minLength", 0) > 0);
      EXPECT_TRUE(FieldRefused(p, 12));
    } else if (type == "boolean") {
      EXPECT_FALSE(FieldRefused(p, true));
      EXPECT_FALSE(FieldRefused(p, false));
      EXPECT_TRUE(FieldRefused(p, "yes"));
    } else if (type == "array") {
      const json& items = s.at("items");
      auto make = [&](size_t count) {
        json array = json::array();
        for (size_t i = 0; i < count; ++i) {
          if (items.contains("enum")) {
            array.push_back(items.at("enum").at(0));
          } else if (items.value("type", "") == "object") {
            array.push_back(json::object());
          } else {
            array.push_back(json((i + 1) * 1000));  // ascending times
          }
        }
        return array;
      };
      const size_t max_items = s.at("maxItems").get<size_t>();
      const size_t min_items = s.value("minItems", size_t(0));
      EXPECT_FALSE(FieldRefused(p, make(max_items)));
      EXPECT_TRUE(FieldRefused(p, make(max_items + 1)));
      EXPECT_FALSE(FieldRefused(p, make(min_items)));
      if (min_items > 0) {
        EXPECT_TRUE(FieldRefused(p, make(min_items - 1)));
      }
      EXPECT_TRUE(FieldRefused(p, json::object()));
      if (items.contains("enum")) {
        std::set<std::string> schema_names;
        for (const json& name : items.at("enum")) schema_names.insert(name.get<std::string>());
        EXPECT_EQ(AllowedNames(ErrorOf(Set(p, json::array({"no-such-value"}))), p + "[0]"),
                  schema_names);
      }
    } else {
      continue;
    }
    ++checked;
  }
  EXPECT_GE(checked, 17u);
}

TEST_F(SchemaAgreement, DefaultsMatchTheModel) {
  const std::string reference = Describe(Parsed(Base()));
  size_t checked = 0;
  for (const SchemaField& field : fields_) {
    // The base document has a flow of its own, so the empty default differs.
    if (!field.schema.contains("default") || field.path == "workload.flows") continue;
    EXPECT_EQ(Describe(Parsed(Set(field.path, field.schema.at("default")))), reference)
        << field.path << " default " << field.schema.at("default");
    ++checked;
  }
  EXPECT_GE(checked, 75u);
}

// True when `name` appears as a whole word inside a `code span` of `text`.
bool NamedInCode(const std::string& text, const std::string& name) {
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t open = text.find('`'); open != std::string::npos;) {
    const size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string span = text.substr(open + 1, close - open - 1);
    for (size_t at = span.find(name); at != std::string::npos; at = span.find(name, at + 1)) {
      const bool starts = at == 0 || !is_word(span[at - 1]);
      const bool ends = at + name.size() == span.size() || !is_word(span[at + name.size()]);
      if (starts && ends) return true;
    }
    open = text.find('`', close + 1);
  }
  return false;
}

TEST_F(SchemaAgreement, TheFormatDocumentNamesEveryKey) {
  std::ifstream in(std::string(SSDP_SOURCE_ROOT) + "/docs/scenario-format.md");
  ASSERT_TRUE(in) << "docs/scenario-format.md is missing";
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // Every value has a table row; every section is named.
  for (const SchemaField& field : fields_) {
    const std::string key = field.path.substr(field.path.rfind('.') + 1);
    EXPECT_NE(text.find("| `" + key + "` |"), std::string::npos)
        << "no table row for " << field.path;
  }
  for (const SchemaObject& object : objects_) {
    if (object.path.empty()) continue;
    std::string key = object.path.substr(object.path.rfind('.') + 1);
    key = key.substr(0, key.find('['));
    EXPECT_TRUE(NamedInCode(text, key)) << "section " << object.path << " is not named";
  }
}

}  // namespace
}  // namespace ssdp
