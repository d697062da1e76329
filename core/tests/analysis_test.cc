// The observation-stream analysis: request stages rebuilt from records, the
// step to blame, the GC breakdown and the run summary, checked against what
// the model is known to do (closed-form flash timings, the always-on
// counters) rather than against the analysis' own output.
#include "obs/analysis.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include <algorithm>
#include <numeric>

#include "flash/flash_op.h"
#include "test_util.h"

namespace ssdp {
namespace {

using testing::MustCreate;
using testing::RandomFlow;
using testing::SmallScenario;

struct Collected {
  Metrics metrics;
  std::vector<Record> records;
};

// Runs the scenario to its end, draining every record; a ring large enough
// that nothing is lost.
Collected RunAndCollect(Scenario s) {
  s.observation.ring_records = 1 << 20;
  auto sim = MustCreate(s);
  Collected c;
  std::vector<Record> buf(4096);
  auto drain = [&] {
    for (size_t n; (n = sim->records().Drain(buf.data(), buf.size())) > 0;)
      c.records.insert(c.records.end(), buf.begin(), buf.begin() + n);
  };
  while (sim->RunEvents(1 << 14)) drain();
  drain();
  EXPECT_EQ(sim->records().Lost(), 0u);
  c.metrics = sim->GetMetrics();
  return c;
}

RecordAnalysis Analyze(const Scenario& s, const Record* records, size_t n) {
  RecordAnalysis a(AnalysisParams::FromScenario(s));
  a.Add(records, n);
  a.Finish();
  return a;
}

uint64_t Sum(const StageArray& a) { return std::accumulate(a.begin(), a.end(), uint64_t(0)); }

// A busy mixed workload on an aged, nearly full device: reads queue behind
// flush programs and GC, writes wait for buffer slots, GC copies and erases.
Scenario MixedScenario() {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.9;
  s.precondition.random_overwrite_passes = 1;
  s.device.ftl.buffer.capacity_bytes = 64 << 10;
  // One late read keeps the run going until every GC run has ended, so the
  // GC records can be compared with the counters exactly.
  FlowConfig late = RandomFlow(1.0, 4096, 1, 1);
  late.name = "late";
  late.start_ns = 2'000'000'000;
  s.workload.flows = {RandomFlow(0.5, 4096, 32, 3000), late};
  return s;
}

// One run shared by the tests below: the model is deterministic.
class MixedRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scenario_ = new Scenario(MixedScenario());
    run_ = new Collected(RunAndCollect(*scenario_));
    analysis_ = new RecordAnalysis(Analyze(*scenario_, run_->records.data(), run_->records.size()));
  }
  static void TearDownTestSuite() {
    delete analysis_;
    delete run_;
    delete scenario_;
  }
  static Scenario* scenario_;
  static Collected* run_;
  static RecordAnalysis* analysis_;
};
Scenario* MixedRunTest::scenario_ = nullptr;
Collected* MixedRunTest::run_ = nullptr;
RecordAnalysis* MixedRunTest::analysis_ = nullptr;

TEST(AnalysisTest, IdleQd1ReadsSpendExactlyTheFlashBaseline) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.5;
  FlowConfig f = RandomFlow(1.0, 4096, 1, 300);
  f.lba_end_fraction = 0.5;  // only written pages: every read goes to flash
  s.workload.flows = {f};
  Collected run = RunAndCollect(s);
  RecordAnalysis a = Analyze(s, run.records.data(), run.records.size());
  const AnalysisParams p = AnalysisParams::FromScenario(s);
  const uint64_t expected = p.command_ns + p.read_ns + p.page_transfer_ns;
  ASSERT_EQ(a.requests().size(), 300u);
  EXPECT_EQ(a.skipped_requests(), 0u);
  for (const RequestTimeline& t : a.requests()) {
    ASSERT_TRUE(t.is_read);
    ASSERT_EQ(t.flash_slices, 1u) << "request " << t.id;
    EXPECT_EQ(t.stage_ns[size_t(Stage::kFlash)], expected) << "request " << t.id;
    EXPECT_EQ(t.critical.start_ns, t.critical.scheduled_ns) << "an idle die starts the read at once";
    Explanation e = a.Explain(t);
    EXPECT_EQ(e.blamed, Stage::kCount) << e.sentence;
    for (size_t i = 0; i < kStageCount; ++i)
      EXPECT_LE(e.stage_ns[i], e.baseline_ns[i] + t.latency_ns / 100) << StageName(Stage(i)) << ": " << e.sentence;
    EXPECT_TRUE(e.die_ops.empty());
  }
}

TEST_F(MixedRunTest, StagesAddUpToTheLatencyTheHostMeasured) {
  const Metrics& m = run_->metrics;
  const auto& reqs = analysis_->requests();
  // Nothing sampled, nothing lost: every completed request is rebuilt.
  ASSERT_EQ(reqs.size(), m.requests);
  EXPECT_EQ(analysis_->skipped_requests(), 0u);
  uint64_t reads = 0, read_ns = 0, waited = 0;
  for (const RequestTimeline& t : reqs) {
    ASSERT_EQ(Sum(t.stage_ns), t.latency_ns) << "request " << t.id;
    ASSERT_EQ(t.stage_ns[size_t(t.is_read ? Stage::kBufferWait : Stage::kFlash)], 0u);
    if (!t.is_read && t.gc_wait_ns > 0) {
      // request_gc_wait measures the same wait from the model's side.
      EXPECT_EQ(t.stage_ns[size_t(Stage::kBufferWait)], t.gc_wait_ns) << "request " << t.id;
      ++waited;
    }
    if (t.is_read) {
      ++reads;
      read_ns += t.latency_ns;
    }
  }
  EXPECT_EQ(reads, m.reads);
  EXPECT_EQ(waited, m.gc_stalls) << "every write that queued for a slot";
  EXPECT_NEAR(double(read_ns) / double(reads) / 1000.0, m.read_lat.mean_us, 0.01);
}

TEST_F(MixedRunTest, BusyReadsAreBlamedOnTheOpsThatHeldTheirDie) {
  const AnalysisParams& p = analysis_->params();
  uint64_t blamed = 0, named_program_or_erase = 0;
  for (const RequestTimeline& t : analysis_->requests()) {
    if (!t.is_read || t.flash_slices == 0) continue;
    Explanation e = analysis_->Explain(t);
    ASSERT_TRUE(e.has_flash);
    // The flash stage is the wait for the die plus the read itself.
    EXPECT_EQ(e.die_wait_ns + e.op_ns, t.stage_ns[size_t(Stage::kFlash)]) << e.sentence;
    EXPECT_GE(e.op_ns, p.ReadBaselineNs()) << "a read cannot beat command + tR + transfer";
    if (e.die_wait_ns > 0) {
      // A die never idles while a read is queued on it: the listed ops must
      // cover the whole wait.
      uint64_t busy = 0;
      for (const OpCount& c : e.die_ops) busy += c.busy_ns;
      EXPECT_GE(busy, e.die_wait_ns) << e.sentence;
    }
    if (e.blamed != Stage::kFlash) continue;
    ++blamed;
    EXPECT_NE(e.sentence.find("die " + std::to_string(t.critical.die)), std::string::npos) << e.sentence;
    bool slow_op = false;
    for (const OpCount& c : e.die_ops) slow_op |= c.kind != uint8_t(FlashOpKind::kRead);
    if (slow_op) {
      ++named_program_or_erase;
      EXPECT_TRUE(e.sentence.find("program") != std::string::npos ||
                  e.sentence.find("erase") != std::string::npos ||
                  e.sentence.find("copyback") != std::string::npos)
          << e.sentence;
    }
  }
  EXPECT_GT(blamed, 20u);
  EXPECT_GT(named_program_or_erase, 10u);
}

TEST_F(MixedRunTest, WritesThatWaitedForABufferSlotSaySo) {
  uint64_t explained = 0;
  for (const RequestTimeline& t : analysis_->requests()) {
    if (t.is_read || t.gc_wait_ns == 0) continue;
    Explanation e = analysis_->Explain(t);
    if (e.blamed != Stage::kBufferWait) continue;
    ++explained;
    EXPECT_EQ(e.buffer_wait_ns, t.gc_wait_ns);
    EXPECT_NE(e.sentence.find("waited"), std::string::npos) << e.sentence;
    EXPECT_NE(e.sentence.find(e.gc_planes_active ? "GC was running" : "no GC ran"), std::string::npos) << e.sentence;
  }
  EXPECT_GT(explained, 0u);
}

TEST_F(MixedRunTest, GcBreakdownMatchesTheCounters) {
  const Metrics& m = run_->metrics;
  GcBreakdown g = analysis_->Gc();
  ASSERT_GT(m.gc_runs, 5u) << "the scenario must exercise GC";
  EXPECT_EQ(g.started, m.gc_runs);
  EXPECT_EQ(g.complete, m.gc_runs);
  EXPECT_EQ(g.open_at_end + g.end_without_start + g.end_lost + g.interrupted, 0u);
  EXPECT_EQ(g.erase_only.runs + g.copy_then_erase.runs + g.no_erase.runs, g.complete);
  EXPECT_EQ(g.erases - g.erase_failures, m.gc_erases);
  EXPECT_EQ(g.page_copies, m.gc_page_copies);
  uint64_t histogram_runs = 0, histogram_copies = 0;
  for (size_t c = 0; c < g.copies_histogram.size(); ++c) {
    histogram_runs += g.copies_histogram[c];
    histogram_copies += c * g.copies_histogram[c];
  }
  EXPECT_EQ(histogram_runs, g.complete);
  EXPECT_EQ(histogram_copies, g.page_copies);
  EXPECT_EQ(g.copies_histogram.empty() ? 0 : g.copies_histogram[0], g.erase_only.runs + g.no_erase.runs);
  // Nothing reclaims a block faster than an erase; copies only add to it.
  if (g.erase_only.runs) EXPECT_GE(g.erase_only.MeanNs(), double(g.erase_baseline_ns));
  if (g.copy_then_erase.runs) EXPECT_GT(g.copy_then_erase.MeanNs(), double(g.erase_baseline_ns));
}

TEST_F(MixedRunTest, RequestsWithLostEarlyRecordsAreSkipped) {
  const std::vector<Record>& recs = run_->records;
  // A read in the middle of the run that went to flash.
  const RequestTimeline* victim = nullptr;
  const auto& all = analysis_->requests();
  for (size_t i = all.size() / 2; i < all.size() && !victim; ++i)
    if (all[i].is_read && all[i].flash_slices > 0) victim = &all[i];
  ASSERT_NE(victim, nullptr);
  auto index_of = [&](RecordKind kind) {
    for (size_t i = 0; i < recs.size(); ++i)
      if (recs[i].kind == kind && recs[i].id == victim->id) return i;
    return recs.size();
  };
  const size_t submit = index_of(RecordKind::kRequestSubmit);
  const size_t translated = index_of(RecordKind::kRequestTranslated);
  ASSERT_LT(translated, recs.size());

  // Same requests, same stages, or not reported at all.
  auto agree_with_full_run = [&](const RecordAnalysis& part) {
    for (const RequestTimeline& t : part.requests()) {
      const RequestTimeline* full = analysis_->Find(t.id);
      ASSERT_NE(full, nullptr);
      ASSERT_EQ(t.stage_ns, full->stage_ns) << "request " << t.id;
      ASSERT_EQ(t.critical.end_ns, full->critical.end_ns) << "request " << t.id;
      ASSERT_EQ(part.Explain(t).blamed, analysis_->Explain(*full).blamed) << "request " << t.id;
    }
  };

  // The stream starts just after its submit (the ring overwrote the rest).
  RecordAnalysis tail = Analyze(*scenario_, recs.data() + submit + 1, recs.size() - submit - 1);
  EXPECT_EQ(tail.Find(victim->id), nullptr);
  EXPECT_GE(tail.skipped_requests(), 1u);
  EXPECT_GT(tail.requests().size(), 0u);
  agree_with_full_run(tail);

  // A gap in the middle that swallows its translation.
  RecordAnalysis gap(AnalysisParams::FromScenario(*scenario_));
  gap.TrackLosses();
  gap.Add(recs.data(), translated);
  gap.NoteGap(50);
  gap.Add(recs.data() + translated + 50, recs.size() - translated - 50);
  gap.Finish();
  EXPECT_EQ(gap.Find(victim->id), nullptr);
  EXPECT_GE(gap.skipped_requests(), 1u);
  EXPECT_EQ(gap.lost_records(), 50u);
  agree_with_full_run(gap);
}

TEST_F(MixedRunTest, ChunkedFeedingGivesTheSameSummary) {
  RecordAnalysis chunked(AnalysisParams::FromScenario(*scenario_));
  const auto& recs = run_->records;
  for (size_t i = 0; i < recs.size(); i += 1000) chunked.Add(recs.data() + i, std::min<size_t>(1000, recs.size() - i));
  chunked.Finish();
  EXPECT_EQ(SummaryToJson(Summarize(chunked, 5)).dump(), SummaryToJson(Summarize(*analysis_, 5)).dump());
}

TEST_F(MixedRunTest, SummaryAccountsForEveryNanosecond) {
  Summary s = Summarize(*analysis_, 8);
  ASSERT_GE(s.groups.size(), 4u);  // all, reads, writes, flow 0
  const GroupSummary& all = s.groups[0];
  EXPECT_EQ(all.name, "all");
  EXPECT_EQ(all.requests, run_->metrics.requests);
  EXPECT_EQ(s.groups[1].requests + s.groups[2].requests, all.requests);
  uint64_t stage_total = 0;
  double share = 0;
  for (const StageStats& st : all.stages) {
    stage_total += st.total_ns;
    share += st.share;
    EXPECT_LE(st.p50_ns, st.p99_ns);
    EXPECT_LE(st.p99_ns, st.max_ns);
  }
  EXPECT_EQ(stage_total, all.latency.total_ns);
  EXPECT_NEAR(share, 1.0, 1e-9);
  uint64_t blamed = 0;
  for (uint64_t n : all.blamed) blamed += n;
  EXPECT_EQ(blamed, all.requests);
  ASSERT_EQ(s.slowest.size(), 8u);
  EXPECT_EQ(s.slowest_requests[0].latency_ns, all.latency.max_ns);
  for (size_t i = 1; i < s.slowest.size(); ++i)
    EXPECT_GE(s.slowest_requests[i - 1].latency_ns, s.slowest_requests[i].latency_ns);
  EXPECT_EQ(s.kind_counts[size_t(RecordKind::kRequestComplete)], run_->metrics.requests);
  EXPECT_EQ(s.records, run_->records.size());
  EXPECT_LE(s.first_ns, s.last_ns);
  nlohmann::json j = SummaryToJson(s);
  EXPECT_EQ(j["groups"][0]["stages"]["flash"]["count"], run_->metrics.reads);
  EXPECT_EQ(j["slowest"].size(), 8u);
  EXPECT_NE(SummaryToText(s).find("where the time went"), std::string::npos);
}

TEST(AnalysisTest, SampledReadsOfHotPagesAreMatchedToTheirOwnOps) {
  // Skewed reads hit the same pages at once; with sampling, an untraced read
  // of a page can be queued right before a traced one.
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.5;
  FlowConfig f = RandomFlow(1.0, 4096, 32, 3000);
  f.pattern = AccessPattern::kZipf;
  f.zipf_theta = 1.4;
  f.lba_end_fraction = 0.5;
  s.workload.flows = {f};
  s.observation.sample_one_in = 3;
  Collected run = RunAndCollect(s);
  RecordAnalysis a = Analyze(s, run.records.data(), run.records.size());
  EXPECT_EQ(a.requests().size(), 1000u);
  EXPECT_EQ(a.skipped_requests(), 0u);
  for (const RequestTimeline& t : a.requests()) {
    ASSERT_EQ(t.id % 3, 0u);
    ASSERT_EQ(Sum(t.stage_ns), t.latency_ns);
    if (t.flash_slices == 0) continue;
    ASSERT_EQ(t.critical.end_ns, t.ready_ns) << "request " << t.id;
    ASSERT_GE(t.critical.start_ns, t.critical.scheduled_ns) << "request " << t.id;
  }
}

TEST(AnalysisTest, FlashOpRecordsNameTheHostReadTheyServe) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.6;
  s.precondition.random_overwrite_passes = 0.5;
  s.workload.flows = {RandomFlow(0.7, 8192, 16, 3000)};
  Collected run = RunAndCollect(s);
  std::map<uint32_t, std::set<uint16_t>> scheduled;  // request id -> dies of its scheduled slices
  size_t host_reads = 0;
  for (const Record& r : run.records) {
    if (r.kind == RecordKind::kRequestScheduled) scheduled[r.id].insert(r.unit);
    if (r.kind != RecordKind::kFlashOpStart && r.kind != RecordKind::kFlashOpEnd) continue;
    const uint64_t request = r.b >> 32;
    const bool host_read = (r.b & 0xff) == uint64_t(OpPurpose::kHostRead);
    ASSERT_EQ(request != 0, host_read) << "only host reads carry a request id";
    if (!host_read || r.kind != RecordKind::kFlashOpStart) continue;
    ++host_reads;
    auto it = scheduled.find(uint32_t(request - 1));
    ASSERT_NE(it, scheduled.end()) << "a host read names a request that scheduled nothing";
    EXPECT_EQ(it->second.count(r.unit), 1u) << "the op runs on a die the request was scheduled to";
  }
  EXPECT_GT(host_reads, 500u);
}

TEST(AnalysisTest, GcRunsStartedUnderPressureAreMarkedForeground) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.9;
  s.precondition.random_overwrite_passes = 1;
  s.workload.flows = {RandomFlow(0.0, 8192, 32, 20000)};
  Collected run = RunAndCollect(s);
  RecordAnalysis a = Analyze(s, run.records.data(), run.records.size());
  GcBreakdown g = a.Gc();
  ASSERT_GT(g.started, 10u);
  EXPECT_GT(g.foreground, 0u);
  EXPECT_LT(g.foreground, g.started);  // background runs come first, at the higher watermark
}

TEST(RecordRingTest, OverwrittenRecordsLeaveAGapMarkerInTheStream) {
  RecordRing ring(1024);
  for (uint32_t i = 0; i < 1500; ++i) ring.Emit(i, RecordKind::kTrim, 0, i, 0, 0);
  std::vector<Record> out(2048);
  size_t n = ring.Drain(out.data(), out.size());
  ASSERT_EQ(n, 1025u);
  EXPECT_EQ(out[0].kind, RecordKind::kRecordGap);
  EXPECT_EQ(out[0].a, 476u);             // records 0..475 were overwritten
  EXPECT_EQ(out[0].time_ns, out[1].time_ns);
  EXPECT_EQ(out[1].id, 476u);
  EXPECT_EQ(ring.Lost(), 476u);
  // Read in time: no marker.
  ring.Emit(2000, RecordKind::kTrim, 0, 2000, 0, 0);
  ASSERT_EQ(ring.Drain(out.data(), out.size()), 1u);
  EXPECT_EQ(out[0].kind, RecordKind::kTrim);
  // The analysis counts the hole from the marker alone.
  for (uint32_t i = 0; i < 1100; ++i) ring.Emit(3000 + i, RecordKind::kTrim, 0, i, 0, 0);
  n = ring.Drain(out.data(), 1);  // even a one-record drain reports the hole first
  ASSERT_EQ(n, 1u);
  RecordAnalysis a(AnalysisParams::FromScenario(SmallScenario()));
  a.Add(out.data(), n);
  EXPECT_EQ(a.lost_records(), 76u);
}

TEST(AnalysisTest, TrimsMoveNoDataAndAreCountedApart) {
  Scenario s = SmallScenario();
  s.precondition.fill_fraction = 0.5;
  FlowConfig f = RandomFlow(0.3, 16384, 8, 800);
  f.trim_fraction = 0.2;
  s.workload.flows = {f};
  Collected run = RunAndCollect(s);
  ASSERT_GT(run.metrics.trims, 0u);
  RecordAnalysis a = Analyze(s, run.records.data(), run.records.size());
  Summary sum = Summarize(a, 3);
  EXPECT_EQ(sum.trims, run.metrics.trims);
  EXPECT_EQ(sum.reads, run.metrics.reads);
  EXPECT_EQ(sum.writes, run.metrics.writes);
  for (const RequestTimeline& t : a.requests()) {
    ASSERT_EQ(Sum(t.stage_ns), t.latency_ns);
    if (!t.is_trim) continue;
    EXPECT_FALSE(t.is_read);
    EXPECT_EQ(t.stage_ns[size_t(Stage::kBufferWait)] + t.stage_ns[size_t(Stage::kTransfer)], 0u);
  }
}

TEST(AnalysisTest, PowerFailureDropsInFlightRequestsAndOps) {
  Scenario s = MixedScenario();
  s.workload.flows = {RandomFlow(0.5, 4096, 16, 1500)};
  s.faults.power_fail_at_ns = {3'000'000};
  Collected run = RunAndCollect(s);
  ASSERT_EQ(run.metrics.power_failures, 1u);
  ASSERT_GT(run.metrics.failed_by_power, 0u);
  RecordAnalysis a = Analyze(s, run.records.data(), run.records.size());
  // Acknowledged requests are all rebuilt; the ones power cut never complete.
  EXPECT_EQ(a.requests().size(), run.metrics.requests);
  EXPECT_EQ(a.unfinished_requests(), run.metrics.failed_by_power);
  EXPECT_EQ(a.skipped_requests(), 0u);
  for (const RequestTimeline& t : a.requests()) ASSERT_EQ(Sum(t.stage_ns), t.latency_ns);
  // No op stays open across the failure (ops still running when the records
  // stop may be open).
  for (uint32_t die = 0; die < a.params().dies; ++die)
    for (uint32_t i : a.DieOpIndexes(die))
      if (a.op(i).start_ns <= s.faults.power_fail_at_ns[0]) ASSERT_NE(a.op(i).end_ns, DieOp::kOpen);
}

// ---- GC delays, per-plane / over-time GC, request schedules -------------------

// A hand-made stream where every number is known: die 0 (planes 0 and 1) has
// a GC run on plane 1 whose copy (a read, then a program) holds the die while
// a write waits for a buffer slot; the flush that frees the slot runs on
// plane 0 of the same die. A run on plane 0 shares only the read's
// multi-plane batch, so it held the die for less time; die 1 runs an
// unrelated GC. Neither may be named.
TEST(AnalysisTest, HandMadeWriteHeldUpByGcNamesTheRunThatHeldItsDie) {
  AnalysisParams p;
  p.program_ns = 800;
  p.erase_ns = 3000;
  p.planes_per_die = 2;
  p.dies_per_channel = 2;
  p.dies = 2;
  p.pages_per_block = 4;
  p.blocks_per_plane = 8;  // plane 1 = blocks 8..15 = pages 32..63
  p.writes_wait_for_program = true;
  auto rec = [](uint64_t t, RecordKind k, uint16_t unit, uint32_t id, uint64_t a, uint64_t b) {
    return Record{t, k, unit, id, a, b};
  };
  const uint64_t flush = uint64_t(OpPurpose::kFlush), gc_read = uint64_t(OpPurpose::kGcRead),
                 gc_write = uint64_t(OpPurpose::kGcWrite), gc_erase = uint64_t(OpPurpose::kGcErase);
  const uint32_t read = uint32_t(FlashOpKind::kRead), program = uint32_t(FlashOpKind::kProgram),
                 erase = uint32_t(FlashOpKind::kErase);
  std::vector<Record> r = {
      rec(0, RecordKind::kGcStart, 1, 9, 2, 0),             // plane 1, victim block 9, 2 valid pages
      rec(0, RecordKind::kGcStart, 2, 17, 5, 0),            // plane 2 (die 1): unrelated
      rec(0, RecordKind::kGcStart, 0, 1, 1, 0),             // plane 0, victim block 1: 1 valid page
      rec(0, RecordKind::kRequestSubmit, 0, 7, 4096, 16384),
      rec(5, RecordKind::kRequestFetched, 0, 7, 0, 0),
      rec(10, RecordKind::kFlashOpStart, 0, read, 36, gc_read),  // page 36: block 9
      rec(10, RecordKind::kFlashOpStart, 0, read, 4, gc_read),   // same batch, plane 0's run
      rec(20, RecordKind::kRequestTranslated, 0, 7, 1, 0),
      rec(30, RecordKind::kFlashOpStart, 1, erase, 68, gc_erase),  // die 1
      rec(50, RecordKind::kFlashOpEnd, 0, read, 4, gc_read),
      rec(60, RecordKind::kFlashOpEnd, 0, read, 36, gc_read),
      rec(60, RecordKind::kFlashOpStart, 0, program, 41, gc_write),  // page 41: block 10, plane 1
      rec(900, RecordKind::kFlashOpEnd, 0, program, 41, gc_write),
      rec(900, RecordKind::kFlashOpStart, 0, program, 0, flush),  // plane 0
      rec(1700, RecordKind::kFlashOpEnd, 0, program, 0, flush),
      rec(1700, RecordKind::kRequestGcWait, 0, 7, 1680, 0),
      rec(1760, RecordKind::kRequestDmaDone, 0, 7, 1700, 0),
      rec(1800, RecordKind::kRequestComplete, 0, 7, 1800, 0),
      rec(3030, RecordKind::kFlashOpEnd, 1, erase, 68, gc_erase),
      rec(3030, RecordKind::kErase, 2, 17, 1, 0),
      rec(3030, RecordKind::kGcEnd, 2, 17, 0, 3030),
      rec(4000, RecordKind::kFlashOpStart, 0, erase, 36, gc_erase),
      rec(7000, RecordKind::kFlashOpEnd, 0, erase, 36, gc_erase),
      rec(7000, RecordKind::kErase, 1, 9, 1, 0),
      rec(7000, RecordKind::kGcEnd, 1, 9, 2, 7000),
      rec(8000, RecordKind::kErase, 0, 1, 1, 0),
      rec(8000, RecordKind::kGcEnd, 0, 1, 1, 8000),
  };
  RecordAnalysis a(p);
  a.Add(r.data(), r.size());
  a.Finish();
  const RequestTimeline* w = a.Find(7);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->stage_ns[size_t(Stage::kBufferWait)], 1680u);

  GcDelay d = a.GcDelayOf(*w);
  ASSERT_TRUE(d.waited);
  EXPECT_EQ(d.die, 0u) << "the flush that freed the slot ran on die 0";
  EXPECT_EQ(d.from_ns, 20u);
  EXPECT_EQ(d.to_ns, 900u) << "the wait for the die ends when the flush starts";
  EXPECT_EQ(d.gc_ops, 3u);
  EXPECT_EQ(d.gc_busy_ns, (60u - 20u) + (900u - 60u))
      << "GC time is die time from the moment the write waited: the batch's two reads count once";
  ASSERT_TRUE(d.delayed());
  EXPECT_EQ(a.gc_runs()[d.run].plane, 1u);
  EXPECT_EQ(a.gc_runs()[d.run].victim, 9u);

  Summary s = Summarize(a, 1);
  ASSERT_EQ(s.gc_delays.delayed, 1u);
  EXPECT_EQ(s.gc_delays.waited, 1u);
  ASSERT_EQ(s.gc_delays.rows.size(), 1u);
  EXPECT_EQ(s.gc_delays.rows[0].valid_pages, 2u);
  EXPECT_EQ(s.gc_delays.rows[0].copies, 2u);
  EXPECT_TRUE(s.gc_delays.rows[0].copies_known);
  ASSERT_EQ(s.gc_delays.by_valid_pages.size(), 3u);
  EXPECT_EQ(s.gc_delays.by_valid_pages[2], 1u);

  // Its schedule: die 0 only, the GC copy on plane 1, the freeing flush on plane 0.
  RequestSchedule sc = a.Schedule(*w);
  ASSERT_TRUE(sc.valid);
  ASSERT_EQ(sc.lanes.size(), 1u);
  EXPECT_EQ(sc.lanes[0].die, 0u);
  ASSERT_EQ(sc.lanes[0].segments.size(), 4u);
  for (const ScheduleSegment& g : sc.lanes[0].segments) {
    if (g.purpose == uint8_t(OpPurpose::kFlush)) {
      EXPECT_EQ(g.role, ScheduleSegment::kFreedSlot);
      EXPECT_EQ(g.plane, 0u);
      EXPECT_EQ(g.end_ns, w->ready_ns);
    } else {
      EXPECT_EQ(g.plane, g.start_ns == 10 && g.end_ns == 50 ? 0u : 1u) << "GC ops on the victim's plane";
      EXPECT_EQ(g.role, ScheduleSegment::kOther);
    }
  }
  ASSERT_EQ(sc.gc_runs.size(), 2u) << "only die 0's GC overlaps the lanes";
  EXPECT_EQ(sc.gc_runs[0].victim + sc.gc_runs[1].victim, 1u + 9u);

  // GC per plane and over time: one copy-then-erase run on plane 1, one
  // erase-only run on plane 2, and every nanosecond of both in the bins.
  GcBreakdown g = a.Gc();
  ASSERT_EQ(g.by_plane.size(), 3u);
  EXPECT_EQ(g.by_plane[0].plane, 0u);
  EXPECT_EQ(g.by_plane[0].copy_then_erase.total_ns, 8000u);
  EXPECT_EQ(g.by_plane[1].plane, 1u);
  EXPECT_EQ(g.by_plane[1].copy_then_erase.runs, 1u);
  EXPECT_EQ(g.by_plane[1].copy_then_erase.total_ns, 7000u);
  EXPECT_EQ(g.by_plane[1].erase_only.runs, 0u);
  EXPECT_EQ(g.by_plane[2].plane, 2u);
  EXPECT_EQ(g.by_plane[2].erase_only.runs, 1u);
  EXPECT_EQ(g.by_plane[2].erase_only.total_ns, 3030u);
  uint64_t eo = 0, cp = 0, eo_runs = 0, cp_runs = 0;
  for (const GcTimeBin& b : g.over_time) {
    eo += b.erase_only_ns;
    cp += b.copy_ns;
    eo_runs += b.erase_only_runs;
    cp_runs += b.copy_runs;
  }
  EXPECT_EQ(eo, 3030u);
  EXPECT_EQ(cp, 7000u + 8000u);
  EXPECT_EQ(eo_runs, 1u);
  EXPECT_EQ(cp_runs, 2u);
  EXPECT_GT(g.over_time.front().copy_ns, 0u);
  EXPECT_EQ(g.over_time.back().erase_only_ns, 0u) << "the erase-only run ended early";
}

TEST_F(MixedRunTest, GcPerPlaneAndOverTimeAccountForEveryRunInTheRecords) {
  // From the raw records: runs and copies per plane, and the plane-time in GC
  // (gc_end.b is each run's duration).
  std::vector<uint64_t> runs_by_plane, copies_by_plane;
  uint64_t gc_ns = 0, starts = 0;
  for (const Record& r : run_->records) {
    if (r.kind == RecordKind::kGcStart) ++starts;
    if (r.kind != RecordKind::kGcEnd) continue;
    if (runs_by_plane.size() <= r.unit) runs_by_plane.resize(r.unit + 1, 0), copies_by_plane.resize(r.unit + 1, 0);
    ++runs_by_plane[r.unit];
    copies_by_plane[r.unit] += r.a;
    gc_ns += r.b;
  }
  GcBreakdown g = analysis_->Gc();
  ASSERT_GT(g.complete, 5u);
  ASSERT_EQ(g.open_at_end, 0u) << "the late read keeps the run going until GC is done";
  uint64_t planes_with_runs = 0;
  for (uint64_t n : runs_by_plane) planes_with_runs += n > 0;
  ASSERT_EQ(g.by_plane.size(), planes_with_runs);
  for (size_t i = 0; i < g.by_plane.size(); ++i) {
    const GcPlaneStats& ps = g.by_plane[i];
    if (i > 0) EXPECT_LT(g.by_plane[i - 1].plane, ps.plane);
    EXPECT_EQ(ps.erase_only.runs + ps.copy_then_erase.runs, runs_by_plane[ps.plane]) << "plane " << ps.plane;
    EXPECT_EQ(ps.copy_then_erase.copies, copies_by_plane[ps.plane]) << "plane " << ps.plane;
    EXPECT_EQ(ps.erase_only.copies, 0u);
  }
  uint64_t binned_ns = 0, binned_runs = 0;
  for (const GcTimeBin& b : g.over_time) {
    binned_ns += b.erase_only_ns + b.copy_ns;
    binned_runs += b.erase_only_runs + b.copy_runs;
    EXPECT_LE(b.erase_only_ns + b.copy_ns, g.bin_ns * analysis_->params().dies * analysis_->params().planes_per_die)
        << "no more plane-time than there are planes";
  }
  EXPECT_EQ(binned_ns, gc_ns);
  EXPECT_EQ(binned_runs, starts);
  EXPECT_EQ(g.over_time.size() * g.bin_ns >= analysis_->last_ns() - g.bins_first_ns, true);
}

TEST_F(MixedRunTest, GcDelaysNameARunOnTheDieTheRequestWaitedFor) {
  // The flush whose end freed a write's last slot, from the raw records.
  std::vector<std::pair<uint64_t, uint16_t>> flush_ends;  // (time, die)
  std::vector<std::pair<uint32_t, uint64_t>> valid_at_start;  // (plane << 20 | victim, valid)
  for (const Record& r : run_->records) {
    if (r.kind == RecordKind::kFlashOpEnd && (r.b & 0xff) == uint64_t(OpPurpose::kFlush))
      flush_ends.push_back({r.time_ns, r.unit});
    if (r.kind == RecordKind::kGcStart) valid_at_start.push_back({uint32_t(r.unit) << 20 | r.id, r.a});
  }
  const AnalysisParams& p = analysis_->params();
  uint64_t waited = 0, delayed = 0, reads = 0, writes = 0;
  for (const RequestTimeline& t : analysis_->requests()) {
    GcDelay d = analysis_->GcDelayOf(t);
    const bool should_wait = (t.is_read && t.flash_slices > 0) || (!t.is_read && t.stage_ns[size_t(Stage::kBufferWait)] > 0);
    ASSERT_EQ(d.waited, should_wait) << "request " << t.id;
    if (!d.waited) continue;
    ++waited;
    if (t.is_read) {
      EXPECT_EQ(d.die, t.critical.die);
      EXPECT_EQ(d.to_ns - d.from_ns, t.critical.start_ns - t.critical.scheduled_ns);
    } else {
      auto f = std::lower_bound(flush_ends.begin(), flush_ends.end(), std::make_pair(t.ready_ns, uint16_t(0)));
      ASSERT_NE(f, flush_ends.end());
      ASSERT_EQ(f->first, t.ready_ns) << "a waiting write gets its slot when a flush ends";
      EXPECT_EQ(d.die, f->second);
      EXPECT_EQ(d.from_ns, t.translated_ns);
    }
    EXPECT_LE(d.gc_busy_ns, d.to_ns - d.from_ns) << "GC cannot hold a die longer than the wait";
    if (!d.delayed()) {
      EXPECT_EQ(d.gc_ops, 0u) << "every GC op belongs to a run on its plane";
      continue;
    }
    ++delayed;
    (t.is_read ? reads : writes)++;
    EXPECT_GT(d.gc_busy_ns, 0u);
    const GcRun& run = analysis_->gc_runs()[d.run];
    EXPECT_EQ(run.plane / p.planes_per_die, d.die) << "GC copies stay on the victim's plane, so on its die";
    EXPECT_TRUE(run.start_ns < d.to_ns && run.end_ns > d.from_ns) << "the run overlaps the wait";
  }
  ASSERT_GT(delayed, 10u) << "the scenario must hold requests up behind GC";
  EXPECT_GT(reads, 0u);
  EXPECT_GT(writes, 0u);

  Summary s = Summarize(*analysis_, 3);
  const GcDelaySummary& gd = s.gc_delays;
  EXPECT_EQ(gd.waited, waited);
  EXPECT_EQ(gd.delayed, delayed);
  uint64_t hist = 0;
  for (uint64_t n : gd.by_valid_pages) hist += n;
  EXPECT_EQ(hist, delayed);
  ASSERT_EQ(gd.rows.size(), std::min<uint64_t>(delayed, GcDelaySummary::kMaxRows));
  for (size_t i = 0; i < gd.rows.size(); ++i) {
    const GcDelayedRequest& x = gd.rows[i];
    if (i > 0) EXPECT_GE(gd.rows[i - 1].latency_ns, x.latency_ns) << "slowest first";
    // The valid pages are the gc_start record's, for that plane and victim.
    auto v = std::find_if(valid_at_start.begin(), valid_at_start.end(),
                          [&](const auto& e) { return e.first == (uint32_t(x.plane) << 20 | x.victim); });
    ASSERT_NE(v, valid_at_start.end());
    EXPECT_EQ(x.valid_pages, v->second);
    EXPECT_LE(x.gc_busy_ns, x.wait_ns);
    const RequestTimeline* t = analysis_->Find(x.id);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(x.latency_ns, t->latency_ns);
  }
  nlohmann::json j = SummaryToJson(s);
  EXPECT_EQ(j["gc_delays"]["delayed"], delayed);
  EXPECT_EQ(j["gc_delays"]["rows"].size(), gd.rows.size());
  EXPECT_EQ(j["gc_delays"]["rows"][0].size(), j["gc_delays"]["columns"].size());
}

TEST_F(MixedRunTest, SchedulesShowEveryOpOnTheDiesARequestDependedOn) {
  uint64_t reads = 0, writes = 0;
  for (const RequestTimeline& t : analysis_->requests()) {
    RequestSchedule sc = analysis_->Schedule(t, 16, 1000);
    const bool flash = t.is_read && t.flash_slices > 0;
    const bool waited = !t.is_read && t.stage_ns[size_t(Stage::kBufferWait)] > 0;
    ASSERT_EQ(sc.valid, flash || waited) << "request " << t.id;
    if (!sc.valid) continue;
    (flash ? reads : writes)++;
    size_t own = 0, freed = 0;
    bool has_critical = false;
    for (const RequestSchedule::Lane& lane : sc.lanes) {
      has_critical |= lane.die == t.critical.die;
      // Unmerged, the lane holds exactly the die's ops in the window, and
      // each plane does one op at a time.
      size_t ops = 0;
      for (uint32_t i : analysis_->DieOpIndexes(lane.die)) {
        const DieOp& op = analysis_->op(i);
        ops += op.start_ns < sc.to_ns && op.end_ns > sc.from_ns;
      }
      ASSERT_EQ(lane.segments.size(), ops) << "request " << t.id << " die " << lane.die;
      std::vector<uint64_t> plane_free(analysis_->params().planes_per_die, 0);
      for (const ScheduleSegment& g : lane.segments) {
        ASSERT_LT(g.plane, plane_free.size());
        EXPECT_GE(g.start_ns, plane_free[g.plane]) << "request " << t.id << ": ops on one plane overlap";
        plane_free[g.plane] = g.end_ns;
        EXPECT_TRUE(g.start_ns < sc.to_ns && g.end_ns > sc.from_ns);
        EXPECT_EQ(g.count, 1u);
        if (g.role == ScheduleSegment::kOwnRead) {
          ++own;
          EXPECT_EQ(g.kind, uint8_t(FlashOpKind::kRead));
        }
        if (g.role == ScheduleSegment::kFreedSlot) {
          ++freed;
          EXPECT_EQ(g.end_ns, t.ready_ns);
          EXPECT_EQ(g.purpose, uint8_t(OpPurpose::kFlush));
        }
      }
    }
    if (flash) {
      EXPECT_TRUE(has_critical);
      EXPECT_EQ(own, t.flash_slices) << "every read slice is drawn as the request's own";
      EXPECT_EQ(freed, 0u);
    } else {
      EXPECT_EQ(own, 0u);
      EXPECT_EQ(freed, 1u) << "request " << t.id;
    }
  }
  EXPECT_GT(reads, 20u);
  EXPECT_GT(writes, 5u);
}

TEST_F(MixedRunTest, SchedulesMergeOpsIntoAFewBarsWithoutLosingAny) {
  // The request whose wait spans the most ops on one die.
  const RequestTimeline* busiest = nullptr;
  size_t most = 0;
  for (const RequestTimeline& t : analysis_->requests()) {
    RequestSchedule sc = analysis_->Schedule(t, 16, 1000);
    for (const RequestSchedule::Lane& lane : sc.lanes)
      if (lane.segments.size() > most) most = lane.segments.size(), busiest = &t;
  }
  ASSERT_NE(busiest, nullptr);
  ASSERT_GT(most, 8u);
  RequestSchedule full = analysis_->Schedule(*busiest, 16, 1000);
  RequestSchedule small = analysis_->Schedule(*busiest, 16, 3);
  ASSERT_EQ(full.lanes.size(), small.lanes.size());
  for (size_t l = 0; l < full.lanes.size(); ++l) {
    uint64_t ops = 0, merged = 0, own_full = 0, own_small = 0;
    std::vector<size_t> per_plane(analysis_->params().planes_per_die, 0);
    for (const ScheduleSegment& g : full.lanes[l].segments) ops += g.count, own_full += g.role != 0;
    for (const ScheduleSegment& g : small.lanes[l].segments) {
      merged += g.count;
      own_small += g.role != 0;
      ++per_plane[g.plane];
    }
    EXPECT_EQ(merged, ops) << "merging keeps count of every op";
    EXPECT_EQ(own_small, own_full) << "the request's own ops are never merged away";
    for (size_t n : per_plane) EXPECT_LE(n, std::max<size_t>(3, own_full)) << "lane " << l;
  }
  // The lane limit keeps the most important die.
  RequestSchedule one = analysis_->Schedule(*busiest, 1, 1000);
  ASSERT_EQ(one.lanes.size(), 1u);
  EXPECT_EQ(one.dies_total, full.dies_total);
  if (busiest->is_read) EXPECT_EQ(one.lanes[0].die, busiest->critical.die);
  else EXPECT_EQ(one.lanes[0].die, analysis_->GcDelayOf(*busiest).die);
}

}  // namespace
}  // namespace ssdp
