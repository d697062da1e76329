// The observation-stream analysis: request stages rebuilt from records, the
// step to blame, the GC breakdown and the run summary, checked against what
// the model is known to do (closed-form flash timings, the always-on
// counters) rather than against the analysis' own output.
#include "obs/analysis.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ssdp
