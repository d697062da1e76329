// Analysis of the observation stream: rebuilds each traced request's stages
// from its records, names the step to blame when a request is slow, breaks GC
// runs down into "erase only" and "copy then erase" (per plane and over time),
// finds the GC run that held up a request and how many valid pages it had to
// copy, lays out the flash schedule around one request, and summarises a
// whole run ("where the time went").
//
// Everything here is a pure computation over records; nothing reads files or
// clocks, so the CLI, the tests and the browser build share it. Records are
// fed in emission order (the order a RecordRing drains them), in one or more
// chunks. See docs/model/obs.md for what every record field means.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "obs/record.h"
#include "scenario/scenario.h"

namespace ssdp {

// The stages of one request, in the order they happen. Their durations add up
// to the request's latency exactly.
enum class Stage : uint8_t {
  kFetch,       // submission (or arrival) -> command fetched by the controller
  kTranslate,   // fetched -> FTL translation done (slicing, lookups)
  kBufferWait,  // writes: translated -> the last slice got a buffer slot
  kFlash,       // reads: translated -> the last slice's data reached the controller
  kTransfer,    // last slice ready -> last byte moved over PCIe
  kCompletion,  // data moved (trims: translated) -> completion seen by the host
  kCount
};
inline constexpr size_t kStageCount = size_t(Stage::kCount);
using StageArray = std::array<uint64_t, kStageCount>;

// Stage names as used in reports ("fetch", "buffer_wait", ...); "none" for kCount.
const char* StageName(Stage stage);

// What the analysis needs from the scenario: the flash timings that make the
// flash baseline, and the geometry that maps planes and dies to channels.
struct AnalysisParams {
  uint64_t read_ns = 0;
  uint64_t program_ns = 0;
  uint64_t erase_ns = 0;
  uint64_t command_ns = 0;
  uint64_t page_transfer_ns = 0;
  uint64_t buffer_access_ns = 0;  // a read served from the DRAM buffer
  uint32_t planes_per_die = 1;
  uint32_t dies_per_channel = 1;
  uint32_t dies = 1;
  uint32_t page_bytes = 8192;
  // Addressing: a physical page's plane (0: unknown, every page on plane 0).
  uint32_t pages_per_block = 0;
  uint32_t blocks_per_plane = 0;
  // Buffered writes wait for the program of the page they displace (buffer
  // flush_policy on-demand): that program is a write's undisturbed cost.
  bool writes_wait_for_program = false;
  std::vector<std::string> flow_names;  // by flow index, for reports

  // Derives everything from a validated scenario (defaults resolved).
  static AnalysisParams FromScenario(const Scenario& scenario);
  // The plane a physical page is on (docs/model/flash.md addressing).
  uint32_t PlaneOfPage(uint32_t ppn) const {
    return pages_per_block && blocks_per_plane ? ppn / pages_per_block / blocks_per_plane : 0;
  }
  // One undisturbed host read: command, array read and one page over the bus.
  uint64_t ReadBaselineNs() const { return command_ns + read_ns + page_transfer_ns; }
  // A write's undisturbed buffer wait: 0, or one displaced page's program.
  uint64_t BufferWaitBaselineNs() const {
    return writes_wait_for_program ? command_ns + page_transfer_ns + program_ns : 0;
  }
};

// One slice of a read that went to flash, matched to its flash op.
struct ReadSlice {
  static constexpr uint32_t kNoOp = ~uint32_t(0);
  uint16_t die = 0;
  uint32_t ppn = 0;
  uint32_t op = kNoOp;        // index of its op (RecordAnalysis::op)
  uint64_t scheduled_ns = 0;  // request_scheduled: handed to the die's queue
  uint64_t start_ns = 0;      // its flash_op_start (batch start)
  uint64_t end_ns = 0;        // its flash_op_end (data reached the controller)
};

// A traced request rebuilt from its records. Only requests whose every record
// was seen (submit through complete, and each flash read matched) are kept.
struct RequestTimeline {
  uint32_t id = 0;
  uint16_t flow = 0;  // 65535 for trace requests
  bool is_read = false;
  bool is_trim = false;  // a write without a data transfer
  uint64_t offset_bytes = 0;
  uint32_t bytes = 0;
  uint32_t pages = 0;  // page slices (request_translated.a)
  uint64_t submit_ns = 0, fetched_ns = 0, translated_ns = 0;
  uint64_t ready_ns = 0;     // last slice ready (request_dma_done.a; trims: translated)
  uint64_t dma_done_ns = 0;  // trims: translated
  uint64_t complete_ns = 0;
  uint64_t latency_ns = 0;   // request_complete.a
  uint64_t gc_wait_ns = 0;   // request_gc_wait.a; 0 if the write never waited
  uint32_t flash_slices = 0;
  ReadSlice critical;        // the flash slice that finished last (valid if flash_slices > 0)
  std::vector<ReadSlice> slices;  // every flash slice, in the order their ops ended
  StageArray stage_ns{};

  uint64_t TotalNs() const { return complete_ns - submit_ns; }
};

// One flash operation as seen on its die.
struct DieOp {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;  // kOpen while unfinished
  uint32_t ppn = 0;
  uint8_t kind = 0;     // FlashOpKind
  uint8_t purpose = 0;  // OpPurpose
  bool failed = false;
  // Its end record was lost or never came (power failure): end_ns is the
  // latest it can have ended (the die's next batch start, or the failure).
  bool end_unknown = false;
  static constexpr uint64_t kOpen = ~uint64_t(0);
};

// One GC run on a plane.
struct GcRun {
  uint16_t plane = 0;
  uint32_t victim = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = DieOp::kOpen;  // kOpen while running at the end of the records
  uint64_t valid_pages = 0;        // gc_start.a
  uint64_t copies = 0;             // gc_end.a
  bool foreground = false;         // gc_start: the plane was at its last free blocks
  bool has_start = false;          // false: gc_end seen, gc_start lost
  bool has_end = false;
  bool erased = false;             // an erase record for the victim came before gc_end
  bool erase_failed = false;
  bool interrupted = false;        // power failed while it ran
  bool end_lost = false;           // the plane's next gc_start came first: end_ns is that start
};

// Duration statistics of one class of GC runs.
struct GcClassStats {
  uint64_t runs = 0;
  uint64_t total_ns = 0;
  uint64_t max_ns = 0;
  uint64_t copies = 0;
  double MeanNs() const { return runs ? double(total_ns) / double(runs) : 0.0; }
};

// Complete GC runs of one plane, by class.
struct GcPlaneStats {
  uint16_t plane = 0;
  GcClassStats erase_only;
  GcClassStats copy_then_erase;  // (runs that erased nothing are left out, as in no_erase)
};

// GC activity in one slice of time. Every run with a known start counts,
// complete or not (one still running at the end runs to the last record);
// a run is "erase only" when it copied nothing (runs without an end: when
// its victim held no valid page).
struct GcTimeBin {
  uint64_t erase_only_ns = 0;  // plane-time inside erase-only runs during the bin
  uint64_t copy_ns = 0;        // plane-time inside copy-then-erase runs
  uint32_t erase_only_runs = 0;  // runs that started in the bin
  uint32_t copy_runs = 0;
};

// GC runs split the way the instrumented-SSD paper splits them: a victim with
// no valid pages costs about one erase; one with valid pages costs the
// copies first. Only runs whose start and end are both in the records are
// classified.
struct GcBreakdown {
  GcClassStats erase_only;       // 0 copies, then erase
  GcClassStats copy_then_erase;  // >= 1 copy, then erase
  GcClassStats no_erase;         // retiring victim drained, nothing erased
  std::vector<uint64_t> copies_histogram;  // [c] = complete runs with c copies
  uint64_t started = 0;           // gc_start records
  uint64_t foreground = 0;        // ... of which started in the foreground (host writes waiting on the plane)
  uint64_t complete = 0;          // runs with both start and end
  uint64_t open_at_end = 0;       // started, not ended when the records stop
  uint64_t end_without_start = 0; // ended, start lost
  uint64_t end_lost = 0;          // started, end lost (the plane's next run started)
  uint64_t interrupted = 0;       // cut by a power failure
  uint64_t page_copies = 0;       // sum of gc_end.a over complete runs
  uint64_t erases = 0;            // erase records (GC erases), failed included
  uint64_t erase_failures = 0;
  uint64_t erase_baseline_ns = 0; // command + erase: what an erase-only run should cost
  // Cost of one copy, from the copy-then-erase runs: (duration - erase) / copies.
  double ns_per_copy = 0;
  std::vector<GcPlaneStats> by_plane;  // planes with at least one complete run, in plane order
  // Over the span of the records in equal bins: bin k covers
  // [bins_first_ns + k * bin_ns, bins_first_ns + (k + 1) * bin_ns).
  uint64_t bins_first_ns = 0;
  uint64_t bin_ns = 0;
  std::vector<GcTimeBin> over_time;
};

// Per-stage baselines (what an undisturbed request would spend).
struct StageBaselines {
  uint64_t fetch_ns = 0;       // median over complete requests
  uint64_t translate_ns = 0;   // median
  uint64_t completion_ns = 0;  // median
  uint64_t transfer_ns = 0;    // median, all requests with a transfer
  // Median transfer by (is_read, bytes): transfers scale with size.
  std::unordered_map<uint64_t, uint64_t> transfer_by_size;
  uint64_t read_flash_ns = 0;  // command + tR + one page transfer
};

// Thresholds for naming a step to blame.
struct ExplainOptions {
  // A stage is to blame only if it exceeds its baseline by more than both of
  // these: small jitter is not a cause.
  uint64_t min_excess_ns = 1000;
  // Share of the request's total baseline: the instrumented-SSD paper counts
  // 1 +/- 0.3 times the baseline as undisturbed.
  double min_excess_of_baseline = 0.3;
};

// Which (kind, purpose) of op occupied a die, and how often.
struct OpCount {
  uint8_t kind = 0;
  uint8_t purpose = 0;
  uint32_t count = 0;
  uint64_t busy_ns = 0;  // time those ops overlapped the wait window
};

// The GC run that held up a request on flash. A request waits for one flash
// op last: a read for its slowest slice's read, a write that queued for a
// buffer slot for the flush program whose end freed its last slot. GC ops
// that ran on that op's die while the request waited for it delayed it; they
// belong to runs on the die's planes (GC copies stay on the victim's plane),
// and the run whose ops held the die longest is the one to name.
struct GcDelay {
  static constexpr uint32_t kNoRun = ~uint32_t(0);
  bool waited = false;      // the request waited for a flash op (die and window valid)
  uint16_t die = 0;
  uint32_t op = ReadSlice::kNoOp;  // the op it waited for
  uint64_t from_ns = 0;     // read: scheduled; write: translated
  uint64_t to_ns = 0;       // that op's start
  uint32_t gc_ops = 0;      // GC ops on the die during the wait
  uint64_t gc_busy_ns = 0;  // time they held it (within the wait)
  uint32_t run = kNoRun;    // index into RecordAnalysis::gc_runs(); kNoRun if no GC op held the die
  bool delayed() const { return run != kNoRun; }
};

// One bar of a die's schedule: an op, or ops of one plane merged so a lane
// stays small (see RecordAnalysis::Schedule).
struct ScheduleSegment {
  enum Role : uint8_t {
    kOther = 0,
    kOwnRead = 1,    // one of the request's read slices
    kFreedSlot = 2,  // the flush program whose end gave a waiting write its last buffer slot
  };
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint8_t kind = 0;     // FlashOpKind (of most of the time, when merged)
  uint8_t purpose = 0;  // OpPurpose (likewise)
  uint8_t plane = 0;    // plane within the die
  uint8_t role = kOther;
  bool mixed = false;   // merged ops of other kinds or purposes too
  uint32_t count = 1;   // ops in the segment
};

// What the dies a request depended on were doing while it waited: the
// channel/way schedule of the instrumented-SSD paper's request figures.
struct RequestSchedule {
  bool valid = false;  // a read that went to flash, or a write that queued for a buffer slot
  uint64_t from_ns = 0;  // translated
  uint64_t to_ns = 0;    // last slice ready
  // Reads: the dies its slices went to. Writes: the dies whose flush
  // programs ended (freeing buffer slots) while it waited.
  struct Lane {
    uint16_t die = 0;
    uint16_t channel = 0;
    uint16_t way = 0;  // the die's index on its channel
    std::vector<ScheduleSegment> segments;  // ops overlapping the window, plane by plane, each in start order
  };
  std::vector<Lane> lanes;  // by die
  uint32_t dies_total = 0;  // dies that qualified, before the lane limit
  std::vector<GcRun> gc_runs;  // runs on the lanes' planes overlapping the window
};

// Why one request took as long as it did.
struct Explanation {
  uint32_t id = 0;
  StageArray stage_ns{};
  StageArray baseline_ns{};
  Stage blamed = Stage::kCount;  // kCount: nothing to blame
  uint64_t excess_ns = 0;        // of the blamed stage over its baseline
  // Reads: the critical slice's die and what it waited for.
  bool has_flash = false;
  uint16_t die = 0;
  uint64_t die_wait_ns = 0;    // scheduled -> its op started
  uint64_t op_ns = 0;          // its op start -> end
  uint64_t op_extra_ns = 0;    // op time beyond command + tR + transfer (bus or batch wait)
  std::vector<OpCount> die_ops;  // ops that held the die while the read waited
  std::vector<uint32_t> gc_runs;  // indexes into RecordAnalysis::gc_runs() active on the die / during the wait
  // Writes: the buffer-slot wait.
  uint64_t buffer_wait_ns = 0;
  uint32_t gc_planes_active = 0;   // planes with GC running during the wait
  uint32_t flushes_during_wait = 0;  // flush programs that finished during the wait
  std::string sentence;
};

// Builds the analysis incrementally from drained records.
class RecordAnalysis {
 public:
  explicit RecordAnalysis(AnalysisParams params);

  // Feeds records in emission order; may be called with consecutive chunks.
  void Add(const Record* records, size_t n);
  // Records were lost right before the next Add (ring overwrite): requests
  // and flash ops in flight across the gap are dropped instead of guessed.
  void NoteGap(uint64_t lost_records);
  // The feeder reports every gap through NoteGap (a live ring does; a file
  // cannot), so the summary can say "0 lost" rather than "unknown".
  void TrackLosses() { gaps_known_ = true; }
  // Computes the baselines; call once after the last Add.
  void Finish();

  // The timings and geometry it was built with.
  const AnalysisParams& params() const { return params_; }
  // Complete requests, in completion order.
  const std::vector<RequestTimeline>& requests() const { return done_; }
  // The latest complete request with this id, or null.
  const RequestTimeline* Find(uint32_t id) const;
  // Per-stage baselines (valid after Finish).
  const StageBaselines& baselines() const { return baselines_; }
  // Every GC run seen, in start order (a run known only from its end last).
  const std::vector<GcRun>& gc_runs() const { return gc_runs_; }
  // Indexes (for op()) of one die's ops, in start order: its schedule.
  const std::vector<uint32_t>& DieOpIndexes(uint32_t die) const;
  // One flash op by index.
  const DieOp& op(uint32_t index) const { return ops_[index]; }
  // GC runs classified and counted.
  GcBreakdown Gc() const;

  // Baseline per stage for this request.
  StageArray Baselines(const RequestTimeline& r) const;
  // The step to blame (kCount if none) and its excess over the baseline.
  Stage Blame(const RequestTimeline& r, uint64_t* excess_ns = nullptr, const ExplainOptions& opt = {}) const;
  // The full explanation with a human-readable sentence.
  Explanation Explain(const RequestTimeline& r, const ExplainOptions& opt = {}) const;
  // The GC run, if any, that held up the flash op the request waited for
  // (valid after Finish).
  GcDelay GcDelayOf(const RequestTimeline& r) const;
  // The dies around one request and what occupied them (valid after Finish).
  // At most max_lanes dies; ops are merged so each plane row of a lane has
  // at most max_segments bars.
  RequestSchedule Schedule(const RequestTimeline& r, size_t max_lanes = 16, size_t max_segments = 40) const;
  // The GC run on a plane that was running at time t (kNoRun if none).
  uint32_t GcRunAt(uint32_t plane, uint64_t t) const;

  // Records fed, and records reported lost through NoteGap.
  uint64_t records() const { return records_; }
  uint64_t lost_records() const { return lost_; }
  // True after TrackLosses: lost_records() is the whole truth.
  bool gaps_known() const { return gaps_known_; }
  // Earliest and latest time_ns among the records: the span they cover.
  uint64_t first_ns() const { return first_ns_; }
  uint64_t last_ns() const { return last_ns_; }
  // By RecordKind value; the last entry counts kinds this build does not know.
  const std::vector<uint64_t>& kind_counts() const { return kind_counts_; }
  // Completions whose earlier records were lost (or did not fit together).
  uint64_t skipped_requests() const { return skipped_; }
  // Submitted requests with no completion: in flight at the end, or cut by
  // a power failure.
  uint64_t unfinished_requests() const { return open_.size() + unfinished_; }

 private:
  // A request in flight, until its completion record.
  struct Pending {
    RequestTimeline t;
    uint32_t seen = 0;         // bit per RecordKind seen
    uint32_t slices_open = 0;  // scheduled slices whose op has not ended
    bool broken = false;       // something it needs was lost
  };
  // A traced read slice waiting for its flash op.
  struct SliceWait {
    uint32_t request;
    uint64_t scheduled_ns;
    uint16_t die;
  };

  void OnRequestRecord(const Record& r);
  void OnFlashStart(const Record& r);
  void OnFlashEnd(const Record& r);
  void OnGcRecord(const Record& r);
  void OnPowerFail(uint64_t now);
  void Complete(Pending& p, const Record& r);
  void EnsureDie(uint32_t die);
  bool Rematch(ReadSlice* slice, uint64_t ready_ns) const;
  void OpsInWindow(uint32_t die, uint64_t from, uint64_t to, std::vector<OpCount>* out) const;
  // The flush program whose end gave a waiting write its last buffer slot.
  struct FlushEnd;
  const FlushEnd* FreeingFlush(const RequestTimeline& r) const;
  // Calls fn(op index) for every op of the die that overlaps [from, to), in start order.
  template <typename Fn>
  void ForOpsInWindow(uint32_t die, uint64_t from, uint64_t to, Fn fn) const;
  std::string Describe(const RequestTimeline& r, const Explanation& e) const;

  AnalysisParams params_;
  std::unordered_map<uint32_t, Pending> open_;  // by request id
  // Read slices waiting for their op to start, FIFO per physical page.
  std::unordered_map<uint32_t, std::vector<SliceWait>> waiting_slices_;
  // Which request (id) and scheduling time an op serves, by op index.
  std::unordered_map<uint32_t, SliceWait> op_owner_;
  std::vector<DieOp> ops_;
  std::vector<std::vector<uint32_t>> die_ops_;
  // Unfinished ops per die, in start order: at most one batch.
  std::vector<std::vector<uint32_t>> die_open_;
  std::vector<uint64_t> die_max_op_ns_;  // longest op per die: bounds window searches
  std::vector<GcRun> gc_runs_;
  std::unordered_map<uint16_t, uint32_t> gc_open_;  // plane -> index in gc_runs_
  std::vector<RequestTimeline> done_;
  std::unordered_map<uint32_t, uint32_t> done_by_id_;
  StageBaselines baselines_;
  uint64_t records_ = 0, lost_ = 0;
  bool gaps_known_ = false;
  uint64_t first_ns_ = ~uint64_t(0), last_ns_ = 0;
  std::vector<uint64_t> kind_counts_;
  uint64_t skipped_ = 0, unfinished_ = 0;
  uint64_t erases_ = 0, erase_failures_ = 0;
  // Built by Finish: flush programs by end time (what freed buffer slots)...
  struct FlushEnd {
    uint64_t end_ns;
    uint32_t op;
    uint16_t die;
  };
  std::vector<FlushEnd> flush_ends_;
  // ...and each plane's GC runs in start order (runs on a plane never overlap).
  std::vector<std::vector<uint32_t>> plane_runs_;
};

// Distribution of one stage (or the whole latency) over a group of requests.
struct StageStats {
  uint64_t count = 0;  // requests the stage applies to
  uint64_t total_ns = 0;
  double mean_ns = 0;
  uint64_t p50_ns = 0, p99_ns = 0, max_ns = 0;
  double share = 0;  // of the group's total latency
};

// Requests grouped by flow, by direction, or all together.
struct GroupSummary {
  std::string name;  // "all", "reads", "writes", "trims", or "flow N: name"
  uint64_t requests = 0;
  StageStats latency;
  std::array<StageStats, kStageCount> stages;
  std::array<uint64_t, kStageCount + 1> blamed{};  // last entry: nothing to blame
};

// One request that GC held up (see GcDelay), for the valid-copies view.
struct GcDelayedRequest {
  uint32_t id = 0;
  uint16_t flow = 0;
  bool is_read = false;
  uint64_t latency_ns = 0;
  uint64_t wait_ns = 0;      // its flash (reads) or buffer-wait (writes) stage
  uint64_t gc_busy_ns = 0;   // GC ops on the die while it waited
  uint16_t plane = 0;        // of the blocking run
  uint32_t victim = 0;
  uint64_t valid_pages = 0;  // the victim's valid pages when the run started: what it had to copy
  bool copies_known = false; // the run ended within the records
  uint64_t copies = 0;       // pages it actually copied
};

// Requests held up by GC, over every complete request.
struct GcDelaySummary {
  uint64_t waited = 0;   // requests that waited for a flash op
  uint64_t delayed = 0;  // ... with GC ops on that op's die meanwhile
  // [v] = delayed requests whose blocking run's victim had v valid pages (a
  // run whose start was lost counts its copies).
  std::vector<uint64_t> by_valid_pages;
  std::vector<GcDelayedRequest> rows;  // slowest first, at most kMaxRows
  static constexpr size_t kMaxRows = 2000;
};

// Everything `ssdplay analyze` reports.
struct Summary {
  uint64_t records = 0;
  uint64_t lost_records = 0;
  bool lost_known = false;
  uint64_t first_ns = 0, last_ns = 0;
  std::vector<uint64_t> kind_counts;
  uint64_t complete_requests = 0, skipped_requests = 0, unfinished_requests = 0;
  // Complete requests by kind: reads of unwritten pages and buffer hits
  // never reach flash; writes wait only when no buffer slot is free.
  uint64_t reads = 0, reads_from_flash = 0, writes = 0, writes_waited = 0, trims = 0;
  StageBaselines baselines;
  uint64_t buffer_wait_baseline_ns = 0;  // for writes that waited (see AnalysisParams)
  std::vector<GroupSummary> groups;  // all, reads, writes, [trims], then one per flow
  std::vector<Explanation> slowest;  // by latency, slowest first
  std::vector<RequestTimeline> slowest_requests;  // the same requests
  std::vector<RequestSchedule> slowest_schedules;  // the same requests
  uint32_t planes_per_die = 1;  // to name a schedule's GC runs by die
  GcBreakdown gc;
  GcDelaySummary gc_delays;
};

// Summarises a finished analysis, with the top_n slowest requests explained.
Summary Summarize(const RecordAnalysis& analysis, size_t top_n, const ExplainOptions& opt = {});
// The summary as one JSON object (times in ns).
nlohmann::json SummaryToJson(const Summary& s);
// A compact terminal report (times in us).
std::string SummaryToText(const Summary& s);

}  // namespace ssdp
