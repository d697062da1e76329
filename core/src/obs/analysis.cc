#include "obs/analysis.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "flash/flash_op.h"
#include "flash/timing.h"

namespace ssdp {
namespace {

constexpr uint64_t kReadBit = uint64_t(1) << 63;

uint32_t Bit(RecordKind k) { return 1u << uint32_t(k); }

// Nearest-rank percentile of a sorted vector.
uint64_t Percentile(const std::vector<uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t rank = size_t(p * double(sorted.size()) + 0.999999);
  rank = std::clamp<size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

uint64_t Median(std::vector<uint64_t> v) {
  std::sort(v.begin(), v.end());
  return Percentile(v, 0.5);
}

uint64_t Sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

std::string Fmt(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Fmt(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  return buf;
}

// Durations in sentences: microseconds, or milliseconds once they are long.
std::string Us(uint64_t ns) {
  return ns < 10'000'000 ? Fmt("%.1f us", double(ns) / 1e3) : Fmt("%.2f ms", double(ns) / 1e6);
}

std::string Bytes(uint64_t b) {
  if (b >= (1u << 20) && b % (1u << 20) == 0) return Fmt("%" PRIu64 " MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return Fmt("%" PRIu64 " KiB", b >> 10);
  return Fmt("%" PRIu64 " B", b);
}

const char* KindPlural(uint8_t kind, uint32_t n) {
  static const char* const kOne[] = {"read", "program", "erase", "copyback"};
  static const char* const kMany[] = {"reads", "programs", "erases", "copybacks"};
  if (kind > 3) return n == 1 ? "op" : "ops";
  return n == 1 ? kOne[kind] : kMany[kind];
}

bool Overlaps(uint64_t start, uint64_t end, uint64_t from, uint64_t to) { return start < to && end > from; }

bool IsGcPurpose(uint8_t purpose) {
  return purpose == uint8_t(OpPurpose::kGcRead) || purpose == uint8_t(OpPurpose::kGcWrite) ||
         purpose == uint8_t(OpPurpose::kGcCopy) || purpose == uint8_t(OpPurpose::kGcErase);
}

// Bins of the GC over-time view.
constexpr size_t kGcTimeBins = 48;

// Shrinks one plane row of a schedule to at most max_segments bars. If it
// has more ops than that, touching ops of one kind and purpose (a string of
// flushes, a die kept busy by GC copies) merge first; if that is not enough,
// the window is cut into equal slots and each slot shows what occupied the
// row most (marked mixed when other ops shared it). The request's own ops are
// never merged.
std::vector<ScheduleSegment> ShrinkRow(const std::vector<ScheduleSegment>& ops, uint64_t from, uint64_t to,
                                       size_t max_segments) {
  if (ops.size() <= max_segments) return ops;
  std::vector<ScheduleSegment> merged;
  for (const ScheduleSegment& seg : ops) {
    if (!merged.empty()) {
      ScheduleSegment& m = merged.back();
      if (m.role == ScheduleSegment::kOther && seg.role == ScheduleSegment::kOther && m.kind == seg.kind &&
          m.purpose == seg.purpose && seg.start_ns <= m.end_ns) {
        m.end_ns = std::max(m.end_ns, seg.end_ns);
        m.count += seg.count;
        continue;
      }
    }
    merged.push_back(seg);
  }
  if (merged.size() <= max_segments || to <= from) return merged;

  std::vector<ScheduleSegment> out;
  for (const ScheduleSegment& seg : merged)
    if (seg.role != ScheduleSegment::kOther) out.push_back(seg);
  const size_t slots = std::max<size_t>(1, max_segments - std::min(max_segments - 1, out.size()));
  const uint64_t width = (to - from + slots - 1) / slots;
  size_t next = 0;  // first merged segment that may still reach the current slot
  for (size_t k = 0; k < slots; ++k) {
    const uint64_t lo = from + k * width, hi = std::min(to, lo + width);
    if (lo >= hi) break;
    // Busy time per (kind, purpose) inside the slot; the largest wins.
    std::vector<std::pair<uint16_t, uint64_t>> busy;
    uint64_t first = hi, last = lo;
    uint32_t count = 0;
    while (next < merged.size() && merged[next].end_ns <= lo) ++next;
    for (size_t i = next; i < merged.size() && merged[i].start_ns < hi; ++i) {
      const ScheduleSegment& seg = merged[i];
      if (seg.role != ScheduleSegment::kOther || seg.end_ns <= lo) continue;
      const uint64_t a = std::max(seg.start_ns, lo), b = std::min(seg.end_ns, hi);
      const uint16_t key = uint16_t(seg.kind << 8 | seg.purpose);
      auto c = std::find_if(busy.begin(), busy.end(), [&](const auto& x) { return x.first == key; });
      if (c == busy.end())
        busy.push_back({key, b - a});
      else
        c->second += b - a;
      first = std::min(first, a);
      last = std::max(last, b);
      // A merged segment counts in the slot where it starts (or the first).
      if (seg.start_ns >= lo || k == 0) count += seg.count;
    }
    if (busy.empty()) continue;
    auto top = std::max_element(busy.begin(), busy.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    ScheduleSegment seg;
    seg.start_ns = first;
    seg.end_ns = last;
    seg.kind = uint8_t(top->first >> 8);
    seg.purpose = uint8_t(top->first & 0xff);
    seg.count = count;
    seg.mixed = busy.size() > 1;
    ScheduleSegment* prev = nullptr;
    for (auto it = out.rbegin(); it != out.rend(); ++it)
      if (it->role == ScheduleSegment::kOther) {
        prev = &*it;
        break;
      }
    if (prev && prev->kind == seg.kind && prev->purpose == seg.purpose && prev->end_ns >= seg.start_ns) {
      prev->end_ns = seg.end_ns;
      prev->count += seg.count;
      prev->mixed = prev->mixed || seg.mixed;
    } else {
      out.push_back(seg);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const ScheduleSegment& x, const ScheduleSegment& y) { return x.start_ns < y.start_ns; });
  return out;
}

}  // namespace

const char* StageName(Stage stage) {
  switch (stage) {
    case Stage::kFetch: return "fetch";
    case Stage::kTranslate: return "translate";
    case Stage::kBufferWait: return "buffer_wait";
    case Stage::kFlash: return "flash";
    case Stage::kTransfer: return "transfer";
    case Stage::kCompletion: return "completion";
    case Stage::kCount: break;
  }
  return "none";
}

AnalysisParams AnalysisParams::FromScenario(const Scenario& scenario) {
  const GeometryConfig& g = scenario.device.geometry;
  FlashTiming t = FlashTiming::From(g, scenario.device.flash);
  AnalysisParams p;
  p.read_ns = t.read_ns;
  p.program_ns = t.program_ns;
  p.erase_ns = t.erase_ns;
  p.command_ns = t.command_ns;
  p.page_transfer_ns = t.page_transfer_ns;
  p.buffer_access_ns = scenario.device.ftl.buffer.access_ns;
  p.planes_per_die = g.planes_per_die;
  p.dies_per_channel = g.DiesPerChannel();
  p.dies = g.TotalDies();
  p.page_bytes = g.page_bytes;
  p.pages_per_block = g.pages_per_block;
  p.blocks_per_plane = g.blocks_per_plane;
  p.writes_wait_for_program = scenario.device.ftl.buffer.flush_policy == FlushPolicy::kOnDemand;
  for (const FlowConfig& f : scenario.workload.flows) p.flow_names.push_back(f.name);
  return p;
}

// ---- Building ----------------------------------------------------------------

RecordAnalysis::RecordAnalysis(AnalysisParams params) : params_(std::move(params)) {
  if (params_.planes_per_die == 0) params_.planes_per_die = 1;
  if (params_.dies_per_channel == 0) params_.dies_per_channel = 1;
  EnsureDie(std::max<uint32_t>(1, params_.dies) - 1);
  kind_counts_.assign(size_t(RecordKind::kCount) + 1, 0);
}

void RecordAnalysis::EnsureDie(uint32_t die) {
  if (die < die_ops_.size()) return;
  die_ops_.resize(die + 1);
  die_open_.resize(die + 1);
  die_max_op_ns_.resize(die + 1, 0);
}

void RecordAnalysis::Add(const Record* records, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const Record& r = records[i];
    ++records_;
    first_ns_ = std::min(first_ns_, r.time_ns);
    last_ns_ = std::max(last_ns_, r.time_ns);
    ++kind_counts_[std::min<size_t>(size_t(r.kind), size_t(RecordKind::kCount))];
    switch (r.kind) {
      case RecordKind::kRequestSubmit:
      case RecordKind::kRequestFetched:
      case RecordKind::kRequestTranslated:
      case RecordKind::kRequestGcWait:
      case RecordKind::kRequestScheduled:
      case RecordKind::kRequestDmaDone:
      case RecordKind::kRequestComplete: OnRequestRecord(r); break;
      case RecordKind::kFlashOpStart: OnFlashStart(r); break;
      case RecordKind::kFlashOpEnd: OnFlashEnd(r); break;
      case RecordKind::kGcStart:
      case RecordKind::kGcEnd:
      case RecordKind::kErase: OnGcRecord(r); break;
      case RecordKind::kPowerFail: OnPowerFail(r.time_ns); break;
      case RecordKind::kRecordGap: NoteGap(r.a); break;
      default: break;
    }
  }
}

void RecordAnalysis::NoteGap(uint64_t lost_records) {
  if (lost_records == 0) return;
  lost_ += lost_records;
  // Whatever was in flight may have lost records in the gap: its stages can
  // no longer be trusted, so it is skipped rather than mis-reported.
  for (auto& [id, p] : open_) p.broken = true;
  waiting_slices_.clear();
}

void RecordAnalysis::OnRequestRecord(const Record& r) {
  if (r.kind == RecordKind::kRequestSubmit) {
    // A second submit for an id: the first never completed (power failure)
    // or the 32-bit id wrapped.
    auto old = open_.find(r.id);
    if (old != open_.end()) {
      ++unfinished_;
      open_.erase(old);
    }
    Pending& p = open_[r.id];
    p.t.id = r.id;
    p.t.flow = r.unit;
    p.t.offset_bytes = r.a;
    p.t.bytes = uint32_t(r.b & ~kReadBit);
    p.t.is_read = (r.b & kReadBit) != 0;
    p.t.submit_ns = r.time_ns;
    p.seen = Bit(r.kind);
    return;
  }
  auto it = open_.find(r.id);
  if (it == open_.end()) {
    // Its submit was lost (or came before the records begin): skip it.
    if (r.kind == RecordKind::kRequestComplete) ++skipped_;
    return;
  }
  Pending& p = it->second;
  if (p.seen & Bit(r.kind) && r.kind != RecordKind::kRequestScheduled) p.broken = true;
  p.seen |= Bit(r.kind);
  RequestTimeline& t = p.t;
  switch (r.kind) {
    case RecordKind::kRequestFetched: t.fetched_ns = r.time_ns; break;
    case RecordKind::kRequestTranslated:
      t.translated_ns = r.time_ns;
      t.pages = uint32_t(r.a);
      break;
    case RecordKind::kRequestGcWait: t.gc_wait_ns = r.a; break;
    case RecordKind::kRequestScheduled:
      ++t.flash_slices;
      ++p.slices_open;
      waiting_slices_[uint32_t(r.b)].push_back({r.id, r.time_ns, r.unit});
      break;
    case RecordKind::kRequestDmaDone:
      t.dma_done_ns = r.time_ns;
      t.ready_ns = r.a;
      break;
    case RecordKind::kRequestComplete:
      Complete(p, r);
      open_.erase(it);
      break;
    default: break;
  }
}

void RecordAnalysis::Complete(Pending& p, const Record& r) {
  RequestTimeline t = p.t;
  t.complete_ns = r.time_ns;
  t.latency_ns = r.a;
  const uint32_t need = Bit(RecordKind::kRequestSubmit) | Bit(RecordKind::kRequestFetched) |
                        Bit(RecordKind::kRequestTranslated);
  bool ok = !p.broken && p.slices_open == 0 && (p.seen & need) == need && bool(r.b & 1) == t.is_read;
  const bool has_dma = p.seen & Bit(RecordKind::kRequestDmaDone);
  if (!has_dma) {
    // Only a trim moves no data; a read or a write that waited without a
    // transfer lost its records.
    t.is_trim = true;
    ok = ok && !t.is_read && !(p.seen & Bit(RecordKind::kRequestGcWait));
    t.ready_ns = t.dma_done_ns = t.translated_ns;
  }
  ok = ok && t.submit_ns <= t.fetched_ns && t.fetched_ns <= t.translated_ns && t.translated_ns <= t.ready_ns &&
       t.ready_ns <= t.dma_done_ns && t.dma_done_ns <= t.complete_ns && t.complete_ns - t.submit_ns == t.latency_ns;
  if (ok && t.flash_slices > 0) {
    // The last slice ready is the latest flash read, unless a buffer hit came
    // later; anything else means a flash op was matched to the wrong request.
    auto consistent = [&] {
      return t.critical.end_ns <= t.ready_ns &&
             (t.critical.end_ns == t.ready_ns || t.ready_ns <= t.translated_ns + params_.buffer_access_ns);
    };
    // With sampling, an untraced read of the same page queued just before
    // this one takes its match. For a one-slice read the right op is the host
    // read of that page on that die that ended exactly when the data was ready.
    ok = consistent() || (t.flash_slices == 1 && Rematch(&t.critical, t.ready_ns) && consistent());
    if (ok && t.flash_slices == 1) t.slices.assign(1, t.critical);
  }
  if (!ok) {
    ++skipped_;
    return;
  }
  t.stage_ns[size_t(Stage::kFetch)] = t.fetched_ns - t.submit_ns;
  t.stage_ns[size_t(Stage::kTranslate)] = t.translated_ns - t.fetched_ns;
  t.stage_ns[size_t(t.is_read ? Stage::kFlash : Stage::kBufferWait)] = t.ready_ns - t.translated_ns;
  t.stage_ns[size_t(Stage::kTransfer)] = t.dma_done_ns - t.ready_ns;
  t.stage_ns[size_t(Stage::kCompletion)] = t.complete_ns - t.dma_done_ns;
  done_by_id_[t.id] = uint32_t(done_.size());
  done_.push_back(t);
}

bool RecordAnalysis::Rematch(ReadSlice* slice, uint64_t ready_ns) const {
  if (slice->die >= die_ops_.size()) return false;
  const std::vector<uint32_t>& list = die_ops_[slice->die];
  for (size_t k = list.size(); k-- > 0;) {
    const DieOp& op = ops_[list[k]];
    if (op.start_ns < slice->scheduled_ns) break;
    if (op.ppn == slice->ppn && op.kind == uint8_t(FlashOpKind::kRead) &&
        op.purpose == uint8_t(OpPurpose::kHostRead) && op.end_ns == ready_ns) {
      slice->start_ns = op.start_ns;
      slice->end_ns = op.end_ns;
      slice->op = list[k];
      return true;
    }
  }
  return false;
}

void RecordAnalysis::OnFlashStart(const Record& r) {
  const uint32_t die = r.unit;
  EnsureDie(die);
  // A die starts a batch only after every op of the previous one ended, so
  // an op still open from an earlier batch lost its end record.
  std::vector<uint32_t>& open = die_open_[die];
  size_t keep = 0;
  for (uint32_t i : open) {
    if (ops_[i].start_ns < r.time_ns) {
      ops_[i].end_ns = r.time_ns;
      ops_[i].end_unknown = true;
      op_owner_.erase(i);
    } else {
      open[keep++] = i;
    }
  }
  open.resize(keep);
  uint32_t index = uint32_t(ops_.size());
  DieOp op;
  op.start_ns = r.time_ns;
  op.end_ns = DieOp::kOpen;
  op.ppn = uint32_t(r.a);
  op.kind = uint8_t(r.id);
  op.purpose = uint8_t(r.b & 0xff);
  ops_.push_back(op);
  die_ops_[die].push_back(index);
  open.push_back(index);
  if (op.kind != uint8_t(FlashOpKind::kRead) || op.purpose != uint8_t(OpPurpose::kHostRead)) return;
  auto w = waiting_slices_.find(op.ppn);
  if (w == waiting_slices_.end()) return;
  std::vector<SliceWait>& waiting = w->second;
  size_t pick = 0;
  if (const uint64_t request = r.b >> 32; request != 0) {
    // The op names its request: only that request's slice may take it (an
    // untraced read of the same page is not in the list).
    while (pick < waiting.size() && uint64_t(waiting[pick].request) + 1 != request) ++pick;
    if (pick == waiting.size()) return;
  }
  // Records without request ids: the oldest traced slice waiting for this
  // page (reads of one page are served in order: one die, one plane).
  SliceWait slice = waiting[pick];
  waiting.erase(waiting.begin() + ptrdiff_t(pick));
  if (waiting.empty()) waiting_slices_.erase(w);
  if (slice.die == die) op_owner_[index] = slice;
}

void RecordAnalysis::OnFlashEnd(const Record& r) {
  if (r.unit >= die_open_.size()) return;
  std::vector<uint32_t>& open = die_open_[r.unit];
  auto it = std::find_if(open.begin(), open.end(), [&](uint32_t i) {
    return ops_[i].ppn == uint32_t(r.a) && ops_[i].kind == uint8_t(r.id);
  });
  if (it == open.end()) return;  // its start came before the records (or in a gap)
  uint32_t index = *it;
  open.erase(it);
  DieOp& op = ops_[index];
  op.end_ns = r.time_ns;
  op.failed = (r.b >> 8) & 1;
  die_max_op_ns_[r.unit] = std::max(die_max_op_ns_[r.unit], op.end_ns - op.start_ns);
  auto owner = op_owner_.find(index);
  if (owner == op_owner_.end()) return;
  SliceWait slice = owner->second;
  op_owner_.erase(owner);
  auto req = open_.find(slice.request);
  if (req == open_.end()) return;
  Pending& p = req->second;
  if (p.slices_open > 0) --p.slices_open;
  ReadSlice done;
  done.die = slice.die;
  done.ppn = op.ppn;
  done.op = index;
  done.scheduled_ns = slice.scheduled_ns;
  done.start_ns = op.start_ns;
  done.end_ns = op.end_ns;
  p.t.slices.push_back(done);
  ReadSlice& c = p.t.critical;
  if (c.end_ns == 0 || op.end_ns >= c.end_ns) c = done;
}

void RecordAnalysis::OnGcRecord(const Record& r) {
  auto open = gc_open_.find(r.unit);
  if (r.kind == RecordKind::kGcStart) {
    if (open != gc_open_.end()) {
      // Runs on a plane do not overlap: the previous one's end was lost.
      GcRun& lost = gc_runs_[open->second];
      lost.end_ns = r.time_ns;
      lost.end_lost = true;
      gc_open_.erase(open);
    }
    GcRun run;
    run.plane = r.unit;
    run.victim = r.id;
    run.start_ns = r.time_ns;
    run.valid_pages = r.a;
    run.foreground = ((r.b >> 8) & 1) != 0;
    run.has_start = true;
    gc_open_[r.unit] = uint32_t(gc_runs_.size());
    gc_runs_.push_back(run);
    return;
  }
  if (r.kind == RecordKind::kErase) {
    ++erases_;
    if (r.b) ++erase_failures_;
    if (open != gc_open_.end() && gc_runs_[open->second].victim == r.id) {
      gc_runs_[open->second].erased = true;
      gc_runs_[open->second].erase_failed = r.b != 0;
    }
    return;
  }
  // kGcEnd
  if (open != gc_open_.end() && gc_runs_[open->second].victim == r.id) {
    GcRun& run = gc_runs_[open->second];
    run.end_ns = r.time_ns;
    run.copies = r.a;
    run.has_end = true;
    gc_open_.erase(open);
    return;
  }
  GcRun run;  // started before the records begin: known from its end alone
  run.plane = r.unit;
  run.victim = r.id;
  run.start_ns = Sub(r.time_ns, r.b);
  run.end_ns = r.time_ns;
  run.copies = r.a;
  run.has_end = true;
  gc_runs_.push_back(run);
}

void RecordAnalysis::OnPowerFail(uint64_t now) {
  // The device drops every queued and running op and every GC run without
  // an end record; requests in flight are never acknowledged.
  for (std::vector<uint32_t>& open : die_open_) {
    for (uint32_t i : open) {
      ops_[i].end_ns = std::max(now, ops_[i].start_ns);
      ops_[i].end_unknown = true;
    }
    open.clear();
  }
  op_owner_.clear();
  waiting_slices_.clear();
  for (auto& [plane, index] : gc_open_) {
    gc_runs_[index].interrupted = true;
    gc_runs_[index].end_ns = now;
  }
  gc_open_.clear();
  for (auto& [id, p] : open_) p.broken = true;
}

void RecordAnalysis::Finish() {
  std::vector<uint64_t> fetch, translate, completion, transfer;
  std::unordered_map<uint64_t, std::vector<uint64_t>> by_size;
  for (const RequestTimeline& t : done_) {
    fetch.push_back(t.stage_ns[size_t(Stage::kFetch)]);
    translate.push_back(t.stage_ns[size_t(Stage::kTranslate)]);
    completion.push_back(t.stage_ns[size_t(Stage::kCompletion)]);
    if (t.is_trim) continue;
    uint64_t x = t.stage_ns[size_t(Stage::kTransfer)];
    transfer.push_back(x);
    by_size[(t.is_read ? kReadBit : 0) | t.bytes].push_back(x);
  }
  baselines_.fetch_ns = Median(std::move(fetch));
  baselines_.translate_ns = Median(std::move(translate));
  baselines_.completion_ns = Median(std::move(completion));
  baselines_.transfer_ns = Median(std::move(transfer));
  baselines_.transfer_by_size.clear();
  for (auto& [key, v] : by_size) baselines_.transfer_by_size[key] = Median(std::move(v));
  baselines_.read_flash_ns = params_.ReadBaselineNs();

  flush_ends_.clear();
  for (uint32_t die = 0; die < die_ops_.size(); ++die)
    for (uint32_t i : die_ops_[die]) {
      const DieOp& op = ops_[i];
      if (op.purpose == uint8_t(OpPurpose::kFlush) && op.end_ns != DieOp::kOpen && !op.end_unknown)
        flush_ends_.push_back({op.end_ns, i, uint16_t(die)});
    }
  std::sort(flush_ends_.begin(), flush_ends_.end(), [](const FlushEnd& a, const FlushEnd& b) {
    return a.end_ns != b.end_ns ? a.end_ns < b.end_ns : a.op < b.op;
  });
  plane_runs_.clear();
  for (uint32_t i = 0; i < gc_runs_.size(); ++i) {
    const uint16_t plane = gc_runs_[i].plane;
    if (plane_runs_.size() <= plane) plane_runs_.resize(size_t(plane) + 1);
    plane_runs_[plane].push_back(i);
  }
  for (std::vector<uint32_t>& runs : plane_runs_)
    std::stable_sort(runs.begin(), runs.end(),
                     [&](uint32_t a, uint32_t b) { return gc_runs_[a].start_ns < gc_runs_[b].start_ns; });
}

// ---- Queries -----------------------------------------------------------------

const RequestTimeline* RecordAnalysis::Find(uint32_t id) const {
  auto it = done_by_id_.find(id);
  return it == done_by_id_.end() ? nullptr : &done_[it->second];
}

const std::vector<uint32_t>& RecordAnalysis::DieOpIndexes(uint32_t die) const {
  static const std::vector<uint32_t> kEmpty;
  return die < die_ops_.size() ? die_ops_[die] : kEmpty;
}

GcBreakdown RecordAnalysis::Gc() const {
  GcBreakdown g;
  g.erases = erases_;
  g.erase_failures = erase_failures_;
  g.erase_baseline_ns = params_.command_ns + params_.erase_ns;
  uint64_t copy_extra_ns = 0;
  for (const GcRun& run : gc_runs_) {
    if (run.has_start) ++g.started;
    if (run.has_start && run.foreground) ++g.foreground;
    if (run.interrupted) {
      ++g.interrupted;
      continue;
    }
    if (!run.has_start) {
      ++g.end_without_start;
      continue;
    }
    if (run.end_lost) {
      ++g.end_lost;
      continue;
    }
    if (!run.has_end) {
      ++g.open_at_end;
      continue;
    }
    ++g.complete;
    uint64_t d = run.end_ns - run.start_ns;
    GcClassStats& c = !run.erased ? g.no_erase : run.copies == 0 ? g.erase_only : g.copy_then_erase;
    ++c.runs;
    c.total_ns += d;
    c.max_ns = std::max(c.max_ns, d);
    c.copies += run.copies;
    g.page_copies += run.copies;
    if (g.copies_histogram.size() <= run.copies) g.copies_histogram.resize(run.copies + 1, 0);
    ++g.copies_histogram[run.copies];
    if (run.erased && run.copies > 0) copy_extra_ns += Sub(d, g.erase_baseline_ns);
  }
  if (g.copy_then_erase.copies > 0) g.ns_per_copy = double(copy_extra_ns) / double(g.copy_then_erase.copies);

  // Per plane: complete runs that erased their victim, by class.
  std::vector<int32_t> slot;  // plane -> index in by_plane, or -1
  for (const GcRun& run : gc_runs_) {
    if (!run.has_start || !run.has_end || run.interrupted || run.end_lost || !run.erased) continue;
    if (slot.size() <= run.plane) slot.resize(size_t(run.plane) + 1, -1);
    if (slot[run.plane] < 0) {
      slot[run.plane] = int32_t(g.by_plane.size());
      g.by_plane.push_back({});
      g.by_plane.back().plane = run.plane;
    }
    GcPlaneStats& ps = g.by_plane[size_t(slot[run.plane])];
    GcClassStats& c = run.copies == 0 ? ps.erase_only : ps.copy_then_erase;
    const uint64_t d = run.end_ns - run.start_ns;
    ++c.runs;
    c.total_ns += d;
    c.max_ns = std::max(c.max_ns, d);
    c.copies += run.copies;
  }
  std::sort(g.by_plane.begin(), g.by_plane.end(),
            [](const GcPlaneStats& a, const GcPlaneStats& b) { return a.plane < b.plane; });

  // Over time: plane-time inside runs per bin, whether or not the run ended.
  if (records_ > 0 && !gc_runs_.empty()) {
    uint64_t first = first_ns_, last = last_ns_;
    for (const GcRun& run : gc_runs_) first = std::min(first, run.start_ns);
    const uint64_t span = std::max<uint64_t>(1, last - first);
    g.bins_first_ns = first;
    g.bin_ns = (span + kGcTimeBins - 1) / kGcTimeBins;
    g.over_time.assign(kGcTimeBins, {});
    for (const GcRun& run : gc_runs_) {
      const uint64_t end = std::min(run.end_ns == DieOp::kOpen ? last : run.end_ns, first + g.bin_ns * kGcTimeBins);
      const bool erase_only = (run.has_end ? run.copies : run.valid_pages) == 0;
      const size_t b0 = std::min<size_t>(kGcTimeBins - 1, (run.start_ns - first) / g.bin_ns);
      (erase_only ? g.over_time[b0].erase_only_runs : g.over_time[b0].copy_runs)++;
      for (size_t b = b0; b < kGcTimeBins; ++b) {
        const uint64_t lo = first + b * g.bin_ns, hi = lo + g.bin_ns;
        if (lo >= end) break;
        const uint64_t in = std::min(end, hi) - std::max(run.start_ns, lo);
        (erase_only ? g.over_time[b].erase_only_ns : g.over_time[b].copy_ns) += in;
      }
    }
  }
  return g;
}

uint32_t RecordAnalysis::GcRunAt(uint32_t plane, uint64_t t) const {
  if (plane >= plane_runs_.size()) return GcDelay::kNoRun;
  const std::vector<uint32_t>& runs = plane_runs_[plane];
  // The last run that started at or before t, if it had not ended yet.
  auto it = std::upper_bound(runs.begin(), runs.end(), t,
                             [&](uint64_t x, uint32_t i) { return x < gc_runs_[i].start_ns; });
  if (it == runs.begin()) return GcDelay::kNoRun;
  const GcRun& run = gc_runs_[*(it - 1)];
  return t < run.end_ns || (t == run.start_ns && run.end_ns == run.start_ns) ? *(it - 1) : GcDelay::kNoRun;
}

template <typename Fn>
void RecordAnalysis::ForOpsInWindow(uint32_t die, uint64_t from, uint64_t to, Fn fn) const {
  if (die >= die_ops_.size() || to <= from) return;
  const std::vector<uint32_t>& list = die_ops_[die];
  // Ops are in start order; none lasts longer than the die's longest op, so
  // only those starting after from - longest can reach into the window.
  uint64_t earliest = Sub(from, die_max_op_ns_[die] + 1);
  auto it = std::lower_bound(list.begin(), list.end(), earliest,
                             [&](uint32_t i, uint64_t t) { return ops_[i].start_ns < t; });
  for (; it != list.end() && ops_[*it].start_ns < to; ++it)
    if (Overlaps(ops_[*it].start_ns, ops_[*it].end_ns, from, to)) fn(*it);
}

GcDelay RecordAnalysis::GcDelayOf(const RequestTimeline& r) const {
  GcDelay d;
  if (r.is_read && r.flash_slices > 0 && r.critical.op != ReadSlice::kNoOp) {
    d.die = r.critical.die;
    d.op = r.critical.op;
    d.from_ns = r.critical.scheduled_ns;
    d.to_ns = r.critical.start_ns;
  } else if (const FlushEnd* f = FreeingFlush(r)) {
    d.die = f->die;
    d.op = f->op;
    d.from_ns = r.translated_ns;
    d.to_ns = std::max(r.translated_ns, ops_[f->op].start_ns);
  } else {
    return d;
  }
  d.waited = true;
  // GC time on the die per run; the run that held it longest is named.
  std::vector<std::pair<uint32_t, uint64_t>> per_run;
  uint64_t covered = d.from_ns;  // GC time is die time: a multi-plane batch counts once
  ForOpsInWindow(d.die, d.from_ns, d.to_ns, [&](uint32_t i) {
    const DieOp& op = ops_[i];
    if (!IsGcPurpose(op.purpose)) return;
    const uint64_t end = std::min(op.end_ns, d.to_ns);
    const uint64_t busy = end - std::max(op.start_ns, d.from_ns);
    ++d.gc_ops;
    d.gc_busy_ns += Sub(end, std::max(op.start_ns, covered));
    covered = std::max(covered, end);
    const uint32_t run = GcRunAt(params_.PlaneOfPage(op.ppn), op.start_ns);
    if (run == GcDelay::kNoRun) return;
    auto c = std::find_if(per_run.begin(), per_run.end(), [&](const auto& x) { return x.first == run; });
    if (c == per_run.end())
      per_run.push_back({run, busy});
    else
      c->second += busy;
  });
  uint64_t best = 0;
  for (const auto& [run, busy] : per_run)
    if (busy > best || (busy == best && run < d.run)) {
      best = busy;
      d.run = run;
    }
  return d;
}

RequestSchedule RecordAnalysis::Schedule(const RequestTimeline& r, size_t max_lanes, size_t max_segments) const {
  RequestSchedule s;
  s.from_ns = r.translated_ns;
  s.to_ns = r.ready_ns;
  std::vector<uint16_t> dies;  // wanted lanes, most important first
  std::vector<uint32_t> own;   // its read ops
  uint32_t freed = ReadSlice::kNoOp;
  if (r.is_read && r.flash_slices > 0) {
    dies.push_back(r.critical.die);  // first, so the lane limit never drops it
    for (const ReadSlice& sl : r.slices) {
      own.push_back(sl.op);
      if (std::find(dies.begin(), dies.end(), sl.die) == dies.end()) dies.push_back(sl.die);
    }
  } else if (const FlushEnd* f = FreeingFlush(r)) {
    freed = f->op;
    dies.push_back(f->die);
    // The other flushes that ended while it waited, latest first: each freed
    // a slot (for it or for a write queued before it).
    auto lo = std::upper_bound(flush_ends_.begin(), flush_ends_.end(), r.translated_ns,
                               [](uint64_t t, const FlushEnd& x) { return t < x.end_ns; });
    for (auto it = flush_ends_.begin() + (f - flush_ends_.data()); it != lo;) {
      --it;
      if (std::find(dies.begin(), dies.end(), it->die) == dies.end()) dies.push_back(it->die);
    }
  }
  if (dies.empty() || s.to_ns <= s.from_ns) return s;
  s.valid = true;
  s.dies_total = uint32_t(dies.size());
  if (dies.size() > max_lanes) dies.resize(std::max<size_t>(1, max_lanes));
  std::sort(dies.begin(), dies.end());
  for (uint16_t die : dies) {
    // One row per plane of the die: a multi-plane batch shows as bars stacked in one column.
    const uint32_t ppd = params_.planes_per_die;
    std::vector<std::vector<ScheduleSegment>> rows(ppd);
    ForOpsInWindow(die, s.from_ns, s.to_ns, [&](uint32_t i) {
      const DieOp& op = ops_[i];
      ScheduleSegment seg;
      seg.start_ns = op.start_ns;
      seg.end_ns = op.end_ns == DieOp::kOpen ? std::max(s.to_ns, op.start_ns) : op.end_ns;
      seg.kind = op.kind;
      seg.purpose = op.purpose;
      seg.plane = uint8_t(params_.PlaneOfPage(op.ppn) % ppd);
      if (std::find(own.begin(), own.end(), i) != own.end()) seg.role = ScheduleSegment::kOwnRead;
      if (i == freed) seg.role = ScheduleSegment::kFreedSlot;
      rows[seg.plane].push_back(seg);
    });
    const uint32_t dpc = params_.dies_per_channel;
    RequestSchedule::Lane lane{die, uint16_t(die / dpc), uint16_t(die % dpc), {}};
    for (const std::vector<ScheduleSegment>& row : rows) {
      std::vector<ScheduleSegment> shrunk = ShrinkRow(row, s.from_ns, s.to_ns, max_segments);
      lane.segments.insert(lane.segments.end(), shrunk.begin(), shrunk.end());
    }
    s.lanes.push_back(std::move(lane));
    for (uint32_t plane = uint32_t(die) * ppd; plane < (uint32_t(die) + 1) * ppd && plane < plane_runs_.size(); ++plane)
      for (uint32_t i : plane_runs_[plane]) {
        const GcRun& g = gc_runs_[i];
        if (Overlaps(g.start_ns, g.end_ns, s.from_ns, s.to_ns)) s.gc_runs.push_back(g);
      }
  }
  return s;
}

const RecordAnalysis::FlushEnd* RecordAnalysis::FreeingFlush(const RequestTimeline& r) const {
  if (r.is_read || r.is_trim || r.stage_ns[size_t(Stage::kBufferWait)] == 0) return nullptr;
  // A waiting write gets its last slot the instant a flush program ends.
  auto it = std::lower_bound(flush_ends_.begin(), flush_ends_.end(), r.ready_ns,
                             [](const FlushEnd& f, uint64_t t) { return f.end_ns < t; });
  return it != flush_ends_.end() && it->end_ns == r.ready_ns ? &*it : nullptr;
}

StageArray RecordAnalysis::Baselines(const RequestTimeline& r) const {
  StageArray b{};
  b[size_t(Stage::kFetch)] = baselines_.fetch_ns;
  b[size_t(Stage::kTranslate)] = baselines_.translate_ns;
  // Only a write that actually waited has the displaced page's program as its
  // baseline; one that found a free slot had nothing to wait for.
  const uint64_t wait = r.stage_ns[size_t(Stage::kBufferWait)];
  b[size_t(Stage::kBufferWait)] = wait > 0 ? params_.BufferWaitBaselineNs() : 0;
  if (r.is_read) {
    // A read served from the buffer (or of unwritten pages) never reaches
    // flash: its own time is as good as it gets, up to a buffer access.
    b[size_t(Stage::kFlash)] = r.flash_slices > 0
                                   ? baselines_.read_flash_ns
                                   : std::min(r.stage_ns[size_t(Stage::kFlash)], params_.buffer_access_ns);
  }
  if (!r.is_trim) {
    auto it = baselines_.transfer_by_size.find((r.is_read ? kReadBit : 0) | r.bytes);
    b[size_t(Stage::kTransfer)] = it != baselines_.transfer_by_size.end() ? it->second : baselines_.transfer_ns;
  }
  b[size_t(Stage::kCompletion)] = baselines_.completion_ns;
  return b;
}

Stage RecordAnalysis::Blame(const RequestTimeline& r, uint64_t* excess_ns, const ExplainOptions& opt) const {
  StageArray b = Baselines(r);
  uint64_t best = 0, total_baseline = 0;
  Stage blamed = Stage::kCount;
  for (size_t i = 0; i < kStageCount; ++i) {
    total_baseline += b[i];
    uint64_t x = Sub(r.stage_ns[i], b[i]);
    if (x > best) {
      best = x;
      blamed = Stage(i);
    }
  }
  uint64_t threshold =
      std::max<uint64_t>(opt.min_excess_ns, uint64_t(opt.min_excess_of_baseline * double(total_baseline)));
  if (best <= threshold) blamed = Stage::kCount;
  if (excess_ns) *excess_ns = blamed == Stage::kCount ? 0 : best;
  return blamed;
}

void RecordAnalysis::OpsInWindow(uint32_t die, uint64_t from, uint64_t to, std::vector<OpCount>* out) const {
  if (die >= die_ops_.size() || to <= from) return;
  const std::vector<uint32_t>& list = die_ops_[die];
  // Ops are in start order; none lasts longer than the die's longest op, so
  // only those starting after from - longest can reach into the window.
  uint64_t earliest = Sub(from, die_max_op_ns_[die] + 1);
  auto it = std::lower_bound(list.begin(), list.end(), earliest,
                             [&](uint32_t i, uint64_t t) { return ops_[i].start_ns < t; });
  for (; it != list.end() && ops_[*it].start_ns < to; ++it) {
    const DieOp& op = ops_[*it];
    if (!Overlaps(op.start_ns, op.end_ns, from, to)) continue;
    uint64_t busy = std::min(op.end_ns, to) - std::max(op.start_ns, from);
    auto c = std::find_if(out->begin(), out->end(),
                          [&](const OpCount& x) { return x.kind == op.kind && x.purpose == op.purpose; });
    if (c == out->end()) {
      out->push_back({op.kind, op.purpose, 0, 0});
      c = out->end() - 1;
    }
    ++c->count;
    c->busy_ns += busy;
  }
  // Longest occupation first; ties in a fixed order so reports are stable.
  std::sort(out->begin(), out->end(), [](const OpCount& a, const OpCount& b) {
    if (a.busy_ns != b.busy_ns) return a.busy_ns > b.busy_ns;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.purpose < b.purpose;
  });
}

Explanation RecordAnalysis::Explain(const RequestTimeline& r, const ExplainOptions& opt) const {
  Explanation e;
  e.id = r.id;
  e.stage_ns = r.stage_ns;
  e.baseline_ns = Baselines(r);
  e.blamed = Blame(r, &e.excess_ns, opt);
  const uint32_t ppd = params_.planes_per_die;
  if (r.is_read && r.flash_slices > 0) {
    const ReadSlice& c = r.critical;
    e.has_flash = true;
    e.die = c.die;
    e.die_wait_ns = Sub(c.start_ns, c.scheduled_ns);
    e.op_ns = Sub(c.end_ns, c.start_ns);
    e.op_extra_ns = Sub(e.op_ns, baselines_.read_flash_ns);
    // Ops that held the die between the read's scheduling and its own start
    // (its own batch starts with it and is not counted).
    OpsInWindow(c.die, c.scheduled_ns, c.start_ns, &e.die_ops);
    for (uint32_t i = 0; i < gc_runs_.size(); ++i) {
      const GcRun& g = gc_runs_[i];
      if (g.plane / ppd == c.die && Overlaps(g.start_ns, g.end_ns, c.scheduled_ns, std::max(c.end_ns, c.scheduled_ns + 1)))
        e.gc_runs.push_back(i);
    }
  } else if (!r.is_read && !r.is_trim && r.stage_ns[size_t(Stage::kBufferWait)] > 0) {
    const uint64_t from = r.translated_ns, to = r.ready_ns;
    e.buffer_wait_ns = to - from;
    std::vector<uint16_t> planes;
    for (uint32_t i = 0; i < gc_runs_.size(); ++i) {
      const GcRun& g = gc_runs_[i];
      if (!Overlaps(g.start_ns, g.end_ns, from, to)) continue;
      e.gc_runs.push_back(i);
      if (std::find(planes.begin(), planes.end(), g.plane) == planes.end()) planes.push_back(g.plane);
    }
    e.gc_planes_active = uint32_t(planes.size());
    for (uint32_t die = 0; die < die_ops_.size(); ++die) {
      const std::vector<uint32_t>& list = die_ops_[die];
      uint64_t earliest = Sub(from, die_max_op_ns_[die] + 1);
      auto it = std::lower_bound(list.begin(), list.end(), earliest,
                                 [&](uint32_t i, uint64_t t) { return ops_[i].start_ns < t; });
      for (; it != list.end() && ops_[*it].start_ns <= to; ++it) {
        const DieOp& op = ops_[*it];
        if (op.purpose == uint8_t(OpPurpose::kFlush) && op.end_ns > from && op.end_ns <= to && !op.end_unknown)
          ++e.flushes_during_wait;
      }
    }
  }
  e.sentence = Describe(r, e);
  return e;
}

std::string RecordAnalysis::Describe(const RequestTimeline& r, const Explanation& e) const {
  const char* op = r.is_trim ? "trim" : r.is_read ? "read" : "write";
  std::string flow = r.flow == 0xFFFF ? "trace" : Fmt("flow %u", unsigned(r.flow));
  std::string s = Fmt("%s #%u (%s, %s) took %s", op, r.id, flow.c_str(), Bytes(r.bytes).c_str(),
                      Us(r.TotalNs()).c_str());
  if (e.blamed == Stage::kCount) return s + "; every stage is within its baseline: nothing to blame";
  const size_t b = size_t(e.blamed);
  s += Fmt("; step to blame: %s, %s against a baseline of %s", StageName(e.blamed), Us(e.stage_ns[b]).c_str(),
           Us(e.baseline_ns[b]).c_str());
  switch (e.blamed) {
    case Stage::kFetch:
      return s + ": the command waited to be fetched (an open-loop arrival queued on the host, or the PCIe "
                 "link was busy)";
    case Stage::kTranslate: return s + ": the FTL took longer to translate it";
    case Stage::kTransfer: return s + ": its data waited for the PCIe link, busy with other transfers";
    case Stage::kCompletion: return s + ": its completion entry waited for the upstream PCIe link";
    case Stage::kBufferWait: {
      s += Fmt(": it waited %s for a buffer slot", Us(e.buffer_wait_ns).c_str());
      if (e.gc_planes_active > 0) {
        uint64_t copies = 0;
        for (uint32_t i : e.gc_runs) copies += gc_runs_[i].copies;
        s += Fmt("; GC was running on %u plane%s meanwhile (%zu run%s, %" PRIu64 " page copies)",
                 e.gc_planes_active, e.gc_planes_active == 1 ? "" : "s", e.gc_runs.size(),
                 e.gc_runs.size() == 1 ? "" : "s", copies);
      } else {
        s += "; no GC ran meanwhile: the buffer was full of dirty pages waiting for their programs";
      }
      return s + Fmt("; %u flush program%s finished during the wait", e.flushes_during_wait,
                     e.flushes_during_wait == 1 ? "" : "s");
    }
    case Stage::kFlash: break;
    case Stage::kCount: break;
  }
  if (!e.has_flash) return s + ": it was served from the DRAM buffer";
  s += ":";
  if (r.flash_slices > 1) s += Fmt(" (its slowest of %u flash slices)", r.flash_slices);
  if (e.die_wait_ns > 0) {
    s += Fmt(" die %u was busy for %s before its read started", unsigned(e.die), Us(e.die_wait_ns).c_str());
    if (!e.die_ops.empty()) {
      s += ": ";
      for (size_t i = 0; i < e.die_ops.size(); ++i) {
        const OpCount& c = e.die_ops[i];
        if (i > 0) s += ", ";
        s += Fmt("%u %s (%s)", c.count, KindPlural(c.kind, c.count), OpPurposeName(OpPurpose(c.purpose)));
      }
    }
  } else {
    s += Fmt(" die %u was free when the read was scheduled", unsigned(e.die));
  }
  if (e.op_extra_ns > 0) {
    s += Fmt("; the read itself took %s, %s more than command + tR + transfer (its data-out waited for "
             "channel %u or for another page of its multi-plane read)",
             Us(e.op_ns).c_str(), Us(e.op_extra_ns).c_str(), unsigned(e.die / params_.dies_per_channel));
  }
  if (e.gc_runs.empty()) return s + "; no GC on the die's planes";
  const GcRun& g = gc_runs_[e.gc_runs.front()];
  s += Fmt("; GC was active on the die's planes (plane %u, victim block %u", unsigned(g.plane), g.victim);
  if (g.has_end) s += Fmt(", %" PRIu64 " page copies", g.copies);
  s += ")";
  if (e.gc_runs.size() > 1) s += Fmt(" and %zu more run%s", e.gc_runs.size() - 1, e.gc_runs.size() == 2 ? "" : "s");
  return s;
}

// ---- Summary -----------------------------------------------------------------

namespace {

// Collects one group's samples, then reduces them to StageStats.
struct GroupBuilder {
  GroupSummary g;
  std::vector<uint64_t> latency;
  std::array<std::vector<uint64_t>, kStageCount> stages;

  void Add(const RequestTimeline& t, Stage blamed) {
    ++g.requests;
    latency.push_back(t.TotalNs());
    for (size_t i = 0; i < kStageCount; ++i) {
      Stage s = Stage(i);
      bool applies = s == Stage::kFlash       ? t.is_read
                     : s == Stage::kBufferWait ? !t.is_read && !t.is_trim
                     : s == Stage::kTransfer   ? !t.is_trim
                                               : true;
      if (applies) stages[i].push_back(t.stage_ns[i]);
    }
    ++g.blamed[size_t(blamed)];
  }

  static StageStats Reduce(std::vector<uint64_t>& v, uint64_t group_total) {
    StageStats st;
    st.count = v.size();
    if (v.empty()) return st;
    std::sort(v.begin(), v.end());
    for (uint64_t x : v) st.total_ns += x;
    st.mean_ns = double(st.total_ns) / double(v.size());
    st.p50_ns = Percentile(v, 0.5);
    st.p99_ns = Percentile(v, 0.99);
    st.max_ns = v.back();
    st.share = group_total ? double(st.total_ns) / double(group_total) : 0;
    return st;
  }

  GroupSummary Build() {
    uint64_t total = 0;
    for (uint64_t x : latency) total += x;
    g.latency = Reduce(latency, total);
    for (size_t i = 0; i < kStageCount; ++i) g.stages[i] = Reduce(stages[i], total);
    return g;
  }
};

}  // namespace

Summary Summarize(const RecordAnalysis& a, size_t top_n, const ExplainOptions& opt) {
  Summary s;
  s.records = a.records();
  s.lost_records = a.lost_records();
  s.lost_known = a.gaps_known();
  s.first_ns = a.records() ? a.first_ns() : 0;
  s.last_ns = a.last_ns();
  s.kind_counts = a.kind_counts();
  s.complete_requests = a.requests().size();
  s.skipped_requests = a.skipped_requests();
  s.unfinished_requests = a.unfinished_requests();
  s.baselines = a.baselines();
  s.buffer_wait_baseline_ns = a.params().BufferWaitBaselineNs();
  s.gc = a.Gc();
  s.planes_per_die = a.params().planes_per_die;

  const auto& reqs = a.requests();
  GroupBuilder all, reads, writes, trims;
  all.g.name = "all";
  reads.g.name = "reads";
  writes.g.name = "writes";
  trims.g.name = "trims";
  std::vector<uint16_t> flow_ids;
  std::vector<GroupBuilder> flows;
  for (const RequestTimeline& t : reqs) {
    Stage blamed = a.Blame(t, nullptr, opt);
    if (t.is_trim) {
      ++s.trims;
    } else if (t.is_read) {
      ++s.reads;
      s.reads_from_flash += t.flash_slices > 0;
    } else {
      ++s.writes;
      s.writes_waited += t.stage_ns[size_t(Stage::kBufferWait)] > 0;
    }
    all.Add(t, blamed);
    (t.is_trim ? trims : t.is_read ? reads : writes).Add(t, blamed);
    size_t f = std::find(flow_ids.begin(), flow_ids.end(), t.flow) - flow_ids.begin();
    if (f == flow_ids.size()) {
      flow_ids.push_back(t.flow);
      flows.emplace_back();
      const auto& names = a.params().flow_names;
      flows.back().g.name = t.flow == 0xFFFF ? std::string("trace")
                            : t.flow < names.size() ? Fmt("flow %u: %s", unsigned(t.flow), names[t.flow].c_str())
                                                    : Fmt("flow %u", unsigned(t.flow));
    }
    flows[f].Add(t, blamed);
  }
  s.groups.push_back(all.Build());
  s.groups.push_back(reads.Build());
  s.groups.push_back(writes.Build());
  if (trims.g.requests > 0) s.groups.push_back(trims.Build());
  // Flows in index order (the trace last), whatever order they completed in.
  std::vector<size_t> order(flows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return flow_ids[x] < flow_ids[y]; });
  for (size_t i : order) s.groups.push_back(flows[i].Build());

  std::vector<uint32_t> idx(reqs.size());
  for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
  size_t n = std::min(top_n, idx.size());
  std::partial_sort(idx.begin(), idx.begin() + n, idx.end(), [&](uint32_t x, uint32_t y) {
    if (reqs[x].TotalNs() != reqs[y].TotalNs()) return reqs[x].TotalNs() > reqs[y].TotalNs();
    return x < y;
  });
  for (size_t i = 0; i < n; ++i) {
    s.slowest_requests.push_back(reqs[idx[i]]);
    s.slowest.push_back(a.Explain(reqs[idx[i]], opt));
    s.slowest_schedules.push_back(a.Schedule(reqs[idx[i]]));
  }

  // Requests held up by GC, slowest first.
  GcDelaySummary& gd = s.gc_delays;
  for (const RequestTimeline& t : reqs) {
    GcDelay d = a.GcDelayOf(t);
    if (!d.waited) continue;
    ++gd.waited;
    if (!d.delayed()) continue;
    ++gd.delayed;
    const GcRun& run = a.gc_runs()[d.run];
    GcDelayedRequest x;
    x.id = t.id;
    x.flow = t.flow;
    x.is_read = t.is_read;
    x.latency_ns = t.latency_ns;
    x.wait_ns = t.stage_ns[size_t(t.is_read ? Stage::kFlash : Stage::kBufferWait)];
    x.gc_busy_ns = d.gc_busy_ns;
    x.plane = run.plane;
    x.victim = run.victim;
    x.valid_pages = run.has_start ? run.valid_pages : run.copies;
    x.copies_known = run.has_end;
    x.copies = run.copies;
    if (gd.by_valid_pages.size() <= x.valid_pages) gd.by_valid_pages.resize(x.valid_pages + 1, 0);
    ++gd.by_valid_pages[x.valid_pages];
    gd.rows.push_back(x);
  }
  std::stable_sort(gd.rows.begin(), gd.rows.end(), [](const GcDelayedRequest& x, const GcDelayedRequest& y) {
    return x.latency_ns > y.latency_ns;
  });
  if (gd.rows.size() > GcDelaySummary::kMaxRows) gd.rows.resize(GcDelaySummary::kMaxRows);
  return s;
}

namespace {

nlohmann::json StatsJson(const StageStats& st, bool with_share) {
  nlohmann::json j = {{"count", st.count},   {"total_ns", st.total_ns}, {"mean_ns", st.mean_ns},
                      {"p50_ns", st.p50_ns}, {"p99_ns", st.p99_ns},     {"max_ns", st.max_ns}};
  if (with_share) j["share"] = st.share;
  return j;
}

nlohmann::json StagesJson(const StageArray& a) {
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < kStageCount; ++i) j[StageName(Stage(i))] = a[i];
  return j;
}

nlohmann::json GcClassJson(const GcClassStats& c) {
  return {{"runs", c.runs}, {"total_ns", c.total_ns}, {"mean_ns", c.MeanNs()}, {"max_ns", c.max_ns}, {"copies", c.copies}};
}

nlohmann::json ScheduleJson(const RequestSchedule& sc, uint32_t planes_per_die) {
  nlohmann::json lanes = nlohmann::json::array();
  for (const RequestSchedule::Lane& lane : sc.lanes) {
    nlohmann::json segs = nlohmann::json::array();
    for (const ScheduleSegment& g : lane.segments)
      segs.push_back({g.start_ns, g.end_ns, FlashOpKindName(FlashOpKind(g.kind)), OpPurposeName(OpPurpose(g.purpose)),
                      g.plane, g.count, g.role, g.mixed ? 1 : 0});
    lanes.push_back({{"die", lane.die}, {"channel", lane.channel}, {"way", lane.way}, {"segments", segs}});
  }
  // GC runs as rows: a schedule can overlap dozens of them.
  nlohmann::json gc = nlohmann::json::array();
  for (const GcRun& g : sc.gc_runs)
    gc.push_back({g.plane, g.plane / std::max<uint32_t>(1, planes_per_die), g.victim, g.start_ns,
                  g.end_ns == DieOp::kOpen ? nlohmann::json(nullptr) : nlohmann::json(g.end_ns), g.valid_pages,
                  g.has_end ? nlohmann::json(g.copies) : nlohmann::json(nullptr)});
  return {{"from_ns", sc.from_ns}, {"to_ns", sc.to_ns}, {"dies_total", sc.dies_total}, {"lanes", lanes}, {"gc", gc}};
}

}  // namespace

nlohmann::json SummaryToJson(const Summary& s) {
  nlohmann::json j;
  nlohmann::json kinds = nlohmann::json::object();
  for (size_t k = 0; k < s.kind_counts.size(); ++k) {
    if (s.kind_counts[k] == 0) continue;
    kinds[k < size_t(RecordKind::kCount) ? RecordKindName(RecordKind(k)) : "unknown"] = s.kind_counts[k];
  }
  j["records"] = {{"count", s.records},
                  {"first_ns", s.first_ns},
                  {"last_ns", s.last_ns},
                  {"span_ns", s.last_ns - s.first_ns},
                  {"by_kind", kinds}};
  j["records"]["lost"] = s.lost_known ? nlohmann::json(s.lost_records) : nlohmann::json(nullptr);
  j["requests"] = {{"complete", s.complete_requests},
                   {"skipped", s.skipped_requests},
                   {"unfinished", s.unfinished_requests},
                   {"reads", s.reads},
                   {"reads_from_flash", s.reads_from_flash},
                   {"writes", s.writes},
                   {"writes_waited", s.writes_waited},
                   {"trims", s.trims}};
  nlohmann::json base = {{"fetch", s.baselines.fetch_ns},
                         {"translate", s.baselines.translate_ns},
                         {"buffer_wait", s.buffer_wait_baseline_ns},
                         {"flash_read", s.baselines.read_flash_ns},
                         {"transfer", s.baselines.transfer_ns},
                         {"completion", s.baselines.completion_ns}};
  j["baselines_ns"] = base;
  j["groups"] = nlohmann::json::array();
  for (const GroupSummary& g : s.groups) {
    nlohmann::json stages = nlohmann::json::object();
    for (size_t i = 0; i < kStageCount; ++i) stages[StageName(Stage(i))] = StatsJson(g.stages[i], true);
    nlohmann::json blamed = nlohmann::json::object();
    for (size_t i = 0; i <= kStageCount; ++i) blamed[StageName(Stage(i))] = g.blamed[i];
    j["groups"].push_back({{"name", g.name},
                           {"requests", g.requests},
                           {"latency", StatsJson(g.latency, false)},
                           {"stages", stages},
                           {"blamed", blamed}});
  }
  j["slowest"] = nlohmann::json::array();
  for (size_t i = 0; i < s.slowest.size(); ++i) {
    const RequestTimeline& t = s.slowest_requests[i];
    const Explanation& e = s.slowest[i];
    nlohmann::json x = {{"id", t.id},
                        {"flow", t.flow},
                        {"op", t.is_trim ? "trim" : t.is_read ? "read" : "write"},
                        {"offset_bytes", t.offset_bytes},
                        {"bytes", t.bytes},
                        {"submit_ns", t.submit_ns},
                        {"latency_ns", t.latency_ns},
                        {"stages_ns", StagesJson(e.stage_ns)},
                        {"baselines_ns", StagesJson(e.baseline_ns)},
                        {"blamed", StageName(e.blamed)},
                        {"excess_ns", e.excess_ns},
                        {"explanation", e.sentence}};
    if (e.has_flash) {
      nlohmann::json ops = nlohmann::json::array();
      for (const OpCount& c : e.die_ops)
        ops.push_back({{"kind", FlashOpKindName(FlashOpKind(c.kind))},
                       {"purpose", OpPurposeName(OpPurpose(c.purpose))},
                       {"count", c.count},
                       {"busy_ns", c.busy_ns}});
      x["flash"] = {{"die", e.die},
                    {"ppn", t.critical.ppn},
                    {"die_wait_ns", e.die_wait_ns},
                    {"op_ns", e.op_ns},
                    {"op_extra_ns", e.op_extra_ns},
                    {"die_ops", ops},
                    {"gc_runs", e.gc_runs.size()}};
    }
    if (e.buffer_wait_ns > 0)
      x["buffer_wait"] = {{"wait_ns", e.buffer_wait_ns},
                          {"gc_planes_active", e.gc_planes_active},
                          {"flushes_during_wait", e.flushes_during_wait}};
    if (i < s.slowest_schedules.size() && s.slowest_schedules[i].valid)
      x["schedule"] = ScheduleJson(s.slowest_schedules[i], s.planes_per_die);
    j["slowest"].push_back(x);
  }
  const GcBreakdown& g = s.gc;
  nlohmann::json hist = nlohmann::json::array();
  for (size_t c = 0; c < g.copies_histogram.size(); ++c)
    if (g.copies_histogram[c]) hist.push_back({c, g.copies_histogram[c]});
  j["gc"] = {{"started", g.started},
             {"foreground", g.foreground},
             {"complete", g.complete},
             {"open_at_end", g.open_at_end},
             {"end_without_start", g.end_without_start},
             {"end_lost", g.end_lost},
             {"interrupted", g.interrupted},
             {"erase_only", GcClassJson(g.erase_only)},
             {"copy_then_erase", GcClassJson(g.copy_then_erase)},
             {"no_erase", GcClassJson(g.no_erase)},
             {"page_copies", g.page_copies},
             {"copies_histogram", hist},
             {"erases", g.erases},
             {"erase_failures", g.erase_failures},
             {"erase_baseline_ns", g.erase_baseline_ns},
             {"ns_per_copy", g.ns_per_copy}};
  nlohmann::json planes = nlohmann::json::array();
  for (const GcPlaneStats& ps : g.by_plane)
    planes.push_back({ps.plane, ps.erase_only.runs, ps.erase_only.total_ns, ps.copy_then_erase.runs,
                      ps.copy_then_erase.total_ns, ps.copy_then_erase.copies});
  j["gc"]["by_plane"] = planes;
  nlohmann::json eo_ns = nlohmann::json::array(), cp_ns = nlohmann::json::array();
  nlohmann::json eo_runs = nlohmann::json::array(), cp_runs = nlohmann::json::array();
  for (const GcTimeBin& b : g.over_time) {
    eo_ns.push_back(b.erase_only_ns);
    cp_ns.push_back(b.copy_ns);
    eo_runs.push_back(b.erase_only_runs);
    cp_runs.push_back(b.copy_runs);
  }
  j["gc"]["over_time"] = {{"first_ns", g.bins_first_ns},
                          {"bin_ns", g.bin_ns},
                          {"erase_only_ns", eo_ns},
                          {"copy_then_erase_ns", cp_ns},
                          {"erase_only_runs", eo_runs},
                          {"copy_then_erase_runs", cp_runs}};

  const GcDelaySummary& gd = s.gc_delays;
  nlohmann::json by_valid = nlohmann::json::array();
  for (size_t v = 0; v < gd.by_valid_pages.size(); ++v)
    if (gd.by_valid_pages[v]) by_valid.push_back({v, gd.by_valid_pages[v]});
  nlohmann::json rows = nlohmann::json::array();
  for (const GcDelayedRequest& x : gd.rows)
    rows.push_back({x.id, x.flow, x.is_read ? 1 : 0, x.latency_ns, x.wait_ns, x.gc_busy_ns, x.plane, x.victim,
                    x.valid_pages, x.copies_known ? int64_t(x.copies) : int64_t(-1)});
  j["gc_delays"] = {{"waited", gd.waited},
                    {"delayed", gd.delayed},
                    {"by_valid_pages", by_valid},
                    {"columns", {"id", "flow", "read", "latency_ns", "wait_ns", "gc_busy_ns", "plane", "victim",
                                 "valid_pages", "copies"}},
                    {"rows", rows}};
  return j;
}

std::string SummaryToText(const Summary& s) {
  std::string out;
  out += Fmt("records   %" PRIu64 " over %.3f .. %.3f ms simulated", s.records, double(s.first_ns) / 1e6,
             double(s.last_ns) / 1e6);
  out += s.lost_known ? Fmt(", %" PRIu64 " lost\n", s.lost_records) : std::string(", losses unknown\n");
  out += Fmt("requests  %" PRIu64 " complete, %" PRIu64 " skipped (records lost), %" PRIu64
             " unfinished\n",
             s.complete_requests, s.skipped_requests, s.unfinished_requests);
  out += Fmt("          %" PRIu64 " reads (%" PRIu64 " from flash), %" PRIu64 " writes (%" PRIu64
             " waited for a buffer slot)",
             s.reads, s.reads_from_flash, s.writes, s.writes_waited);
  out += s.trims ? Fmt(", %" PRIu64 " trims\n", s.trims) : std::string("\n");
  out += Fmt("baselines fetch %s, translate %s, flash read %s, completion %s", Us(s.baselines.fetch_ns).c_str(),
             Us(s.baselines.translate_ns).c_str(), Us(s.baselines.read_flash_ns).c_str(),
             Us(s.baselines.completion_ns).c_str());
  out += s.buffer_wait_baseline_ns
             ? Fmt(", buffer wait %s (one displaced page's program)\n", Us(s.buffer_wait_baseline_ns).c_str())
             : std::string("\n");

  bool many_flows = s.groups.size() > 0 && std::count_if(s.groups.begin(), s.groups.end(), [](const GroupSummary& g) {
                                             return g.name.rfind("flow", 0) == 0 || g.name == "trace";
                                           }) > 1;
  out += "\nwhere the time went (us)     count      mean       p50       p99       max   share\n";
  for (const GroupSummary& g : s.groups) {
    bool is_flow = g.name.rfind("flow", 0) == 0 || g.name == "trace";
    if (g.requests == 0 || (is_flow && !many_flows)) continue;
    const StageStats& l = g.latency;
    out += Fmt("%-26.26s %8" PRIu64 " %9.1f %9.1f %9.1f %9.1f\n", g.name.c_str(), l.count, l.mean_ns / 1000,
               double(l.p50_ns) / 1000, double(l.p99_ns) / 1000, double(l.max_ns) / 1000);
    for (size_t i = 0; i < kStageCount; ++i) {
      const StageStats& st = g.stages[i];
      if (st.count == 0) continue;
      out += Fmt("  %-24s %8" PRIu64 " %9.1f %9.1f %9.1f %9.1f %6.1f%%\n", StageName(Stage(i)), st.count,
                 st.mean_ns / 1000, double(st.p50_ns) / 1000, double(st.p99_ns) / 1000, double(st.max_ns) / 1000,
                 st.share * 100);
    }
    std::string blamed;
    for (size_t i = 0; i <= kStageCount; ++i) {
      if (g.blamed[i] == 0) continue;
      blamed += Fmt("%s%s %" PRIu64, blamed.empty() ? "" : ", ", StageName(Stage(i)), g.blamed[i]);
    }
    out += "  blamed: " + blamed + "\n";
  }

  if (!s.slowest.empty()) {
    out += Fmt("\nslowest %zu requests\n", s.slowest.size());
    for (const Explanation& e : s.slowest) out += "  " + e.sentence + "\n";
  }

  const GcBreakdown& g = s.gc;
  out += Fmt("\ngc        %" PRIu64 " runs started (%" PRIu64 " in the foreground), %" PRIu64 " complete", g.started,
             g.foreground, g.complete);
  if (g.open_at_end) out += Fmt(", %" PRIu64 " still running at the end", g.open_at_end);
  if (g.end_without_start) out += Fmt(", %" PRIu64 " ended without a start record", g.end_without_start);
  if (g.end_lost) out += Fmt(", %" PRIu64 " with their end lost", g.end_lost);
  if (g.interrupted) out += Fmt(", %" PRIu64 " cut by power failure", g.interrupted);
  out += Fmt("; %" PRIu64 " erases (%" PRIu64 " failed), %" PRIu64 " page copies\n", g.erases, g.erase_failures,
             g.page_copies);
  auto cls = [&](const char* name, const GcClassStats& c) {
    if (c.runs == 0) return;
    out += Fmt("  %-16s %6" PRIu64 " runs, mean %s, max %s", name, c.runs, Us(uint64_t(c.MeanNs())).c_str(),
               Us(c.max_ns).c_str());
    if (c.copies) out += Fmt(", %.1f copies per run", double(c.copies) / double(c.runs));
    out += "\n";
  };
  cls("erase only", g.erase_only);
  cls("copy then erase", g.copy_then_erase);
  cls("no erase", g.no_erase);
  if (g.complete > 0) {
    out += Fmt("  erase baseline %s", Us(g.erase_baseline_ns).c_str());
    if (g.ns_per_copy > 0) out += Fmt("; each copy adds %s", Us(uint64_t(g.ns_per_copy)).c_str());
    out += "\n  copies per run:";
    // Eight equal-width buckets keep the histogram on one line.
    size_t max_c = g.copies_histogram.size();
    size_t width = std::max<size_t>(1, (max_c + 7) / 8);
    for (size_t lo = 0; lo < max_c; lo += width) {
      uint64_t n = 0;
      for (size_t c = lo; c < std::min(max_c, lo + width); ++c) n += g.copies_histogram[c];
      if (width == 1)
        out += Fmt(" %zu:%" PRIu64, lo, n);
      else
        out += Fmt(" %zu-%zu:%" PRIu64, lo, std::min(max_c, lo + width) - 1, n);
    }
    out += "\n";
  }

  const GcDelaySummary& gd = s.gc_delays;
  if (gd.waited > 0) {
    out += Fmt("  held up by GC: %" PRIu64 " of %" PRIu64 " requests that waited for a flash op", gd.delayed,
               gd.waited);
    if (gd.delayed > 0) {
      uint64_t seen = 0, p50 = 0, max_v = 0;
      for (size_t v = 0; v < gd.by_valid_pages.size(); ++v) {
        if (gd.by_valid_pages[v] == 0) continue;
        if (seen < (gd.delayed + 1) / 2 && seen + gd.by_valid_pages[v] >= (gd.delayed + 1) / 2) p50 = v;
        seen += gd.by_valid_pages[v];
        max_v = v;
      }
      out += Fmt("; valid pages of the run that held them: p50 %" PRIu64 ", max %" PRIu64, p50, max_v);
    }
    out += "\n";
  }

  out += "\nrecords by kind:";
  for (size_t k = 0; k < s.kind_counts.size(); ++k) {
    if (s.kind_counts[k] == 0) continue;
    out += Fmt(" %s %" PRIu64, k < size_t(RecordKind::kCount) ? RecordKindName(RecordKind(k)) : "unknown",
               s.kind_counts[k]);
  }
  out += "\n";
  return out;
}

}  // namespace ssdp
