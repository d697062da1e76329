#include "sim/simulation.h"

#include <algorithm>

#include "engine/event_type.h"

namespace ssdp {
namespace {

LatencySummary Summarize(const LatencyHistogram& h) {
  LatencySummary s;
  s.count = h.Count();
  if (s.count == 0) return s;
  s.mean_us = h.Mean() / 1000.0;
  s.p50_us = h.Percentile(50) / 1000.0;
  s.p99_us = h.Percentile(99) / 1000.0;
  s.p999_us = h.Percentile(99.9) / 1000.0;
  s.max_us = h.Max() / 1000.0;
  return s;
}

}  // namespace

Simulation::Simulation(const Scenario& scenario) : scenario_(scenario), records_(scenario.observation.ring_records) {}

Status Simulation::Create(const Scenario& scenario, std::unique_ptr<Simulation>* out) {
  std::unique_ptr<Simulation> sim(new Simulation(scenario));
  const Scenario& sc = sim->scenario_;
  for (uint32_t k = 0; k < uint32_t(RecordKind::kCount); ++k)
    if (sc.observation.disabled_points & (1u << k)) sim->records_.SetEnabled(RecordKind(k), false);
  const InstrumentationConfig& instr = sc.device.instrumentation;
  if (instr.enabled) {
    if (instr.dram_contention) sim->dram_ = std::make_unique<DramPort>(instr.dram_mbps);
    sim->instr_ = std::make_unique<InstrumentationCache>(instr, sim->dram_.get());
    sim->records_.AttachCache(sim->instr_.get());
  }
  sim->flash_ = std::make_unique<FlashArray>(sc.device.geometry, sc.device.flash, &sim->events_, &sim->records_,
                                             sc.seed);
  sim->ftl_ = std::make_unique<Ftl>(sc, sim->flash_.get(), &sim->events_, &sim->records_);
  sim->flash_->SetListener(sim->ftl_.get());
  sim->host_ = std::make_unique<Host>(sc, &sim->events_, &sim->records_, sim->ftl_.get());
  sim->ftl_->SetClient(sim->host_.get(), sim->host_->requests());
  sim->host_->SetInstrumentation(sim->instr_.get(), sim->dram_.get());
  Status s = sim->host_->Init();
  if (!s.ok()) return s;
  sim->ftl_->Precondition(sc.precondition, sc.seed);
  sim->ftl_->Resume(0);  // GC starts wherever preconditioning left a plane low
  sim->perf_last_channel_.resize(sim->flash_->Channels());
  sim->host_->Start(0);
  sim->events_.Push(sc.observation.perf_interval_ns, kEvPerfTick, 0);
  if (!sc.faults.power_fail_at_ns.empty()) sim->events_.Push(sc.faults.power_fail_at_ns[0], kEvPowerFail, 0);
  if (sim->instr_)
    for (uint32_t i = 0; i < instr.commands.size(); ++i) sim->events_.Push(instr.commands[i].at_ns, kEvInstrCommand, i);
  sim->UpdateFinished();
  *out = std::move(sim);
  return Status::Ok();
}

void Simulation::UpdateFinished() {
  if (finished_) return;
  if (!recovering_ && next_fault_ >= scenario_.faults.power_fail_at_ns.size() && host_->Finished()) {
    finished_ = true;
  } else if (events_.Empty() && !recovering_) {
    finished_ = true;
  }
}

bool Simulation::RunUntil(SimTime t) {
  const SimTime limit = std::min(t, scenario_.run.max_time_ns);
  while (!finished_ && !events_.Empty() && events_.NextTime() <= limit) {
    Event e = events_.Pop();
    now_ = e.time;
    Dispatch(e);
    ++events_processed_;
    UpdateFinished();
  }
  if (!finished_ && (events_.Empty() || events_.NextTime() > scenario_.run.max_time_ns) &&
      t >= scenario_.run.max_time_ns) {
    finished_ = true;
    time_limited_ = !host_->Finished();
    now_ = std::max(now_, std::min(t, scenario_.run.max_time_ns));
  } else if (!finished_) {
    now_ = std::max(now_, limit);
  }
  return !finished_;
}

bool Simulation::RunEvents(uint64_t n) {
  for (uint64_t i = 0; i < n && !finished_; ++i) {
    if (events_.Empty() || events_.NextTime() > scenario_.run.max_time_ns) {
      finished_ = true;
      time_limited_ = !host_->Finished();
      break;
    }
    Event e = events_.Pop();
    now_ = e.time;
    Dispatch(e);
    ++events_processed_;
    UpdateFinished();
  }
  return !finished_;
}

void Simulation::RunToEnd() {
  while (RunEvents(1 << 20)) {
  }
}

void Simulation::Dispatch(const Event& e) {
  switch (e.type) {
    case kEvFlowIssue: host_->OnFlowIssue(e.arg, e.time); break;
    case kEvTraceIssue: host_->OnTraceIssue(e.time); break;
    case kEvCommandReady: host_->OnCommandReady(e.arg, e.time); break;
    case kEvRequestDone: host_->OnRequestDone(e.arg, e.time); break;
    case kEvDieDone: flash_->OnDieDone(e.arg, e.time); break;
    case kEvChannelDone: flash_->OnChannelDone(e.arg, e.time); break;
    case kEvPerfTick:
      EmitPerf(e.time);
      if (!host_->Finished() || recovering_)
        events_.Push(e.time + scenario_.observation.perf_interval_ns, kEvPerfTick, 0);
      break;
    case kEvPowerFail:
      ++next_fault_;
      HandlePowerFail();
      break;
    case kEvRecoveryDone:
      recovering_ = false;
      ftl_->Resume(e.time);
      host_->Resume(e.time);
      events_.Push(e.time + scenario_.observation.perf_interval_ns, kEvPerfTick, 0);
      if (next_fault_ < scenario_.faults.power_fail_at_ns.size())
        events_.Push(std::max(e.time, scenario_.faults.power_fail_at_ns[next_fault_]), kEvPowerFail, 0);
      break;
    case kEvInstrCommand:
      RunInstrumentationCommand(scenario_.device.instrumentation.commands[e.arg]);
      break;
    case kEvInstrFreeze:
      if (instr_) instr_->Freeze(e.time);
      break;
    default: break;
  }
}

void Simulation::RunInstrumentationCommand(const InstrumentationCommand& command) {
  if (!instr_ || recovering_) return;
  uint64_t value = 0;
  SimTime done = now_;
  switch (command.kind) {
    case InstrCommandKind::kTransfer: {
      instr_->Snapshot(&transferred_);
      value = instr_->BytesHeld();
      done = host_->AdminTransfer(value, now_);
      ++instr_transfers_;
      instr_bytes_transferred_ += value;
      break;
    }
    case InstrCommandKind::kFreeze: instr_->Freeze(now_); break;
    case InstrCommandKind::kResume: instr_->Resume(); break;
    case InstrCommandKind::kClear: instr_->Clear(); break;
    case InstrCommandKind::kSample:
      host_->SetSampleOneIn(command.one_in);
      value = command.one_in;
      break;
    case InstrCommandKind::kEnablePoint:
    case InstrCommandKind::kDisablePoint:
      records_.SetEnabled(RecordKind(command.point), command.kind == InstrCommandKind::kEnablePoint);
      value = command.point;
      break;
  }
  records_.Emit(now_, RecordKind::kInstrCommand, 0, uint32_t(command.kind), value, done - now_);
}

void Simulation::InjectPowerFail() {
  if (recovering_ || finished_) return;
  HandlePowerFail();
}

bool Simulation::InjectBlockFailure(uint32_t block) {
  if (recovering_ || finished_) return false;
  return ftl_->FailBlock(block, now_);
}

void Simulation::HandlePowerFail() {
  // Everything scheduled belongs to the powered device; it is all gone.
  events_.Clear();
  host_->PowerFail(now_);
  if (instr_) instr_->Clear();  // the cache is in DRAM: gone with the power
  if (dram_) dram_->Reset();
  last_power_fail_ = ftl_->PowerFail(now_);
  ++power_failures_;
  lost_pages_ += last_power_fail_.lost_pages;
  saved_pages_ += last_power_fail_.saved_pages;
  torn_pages_ += last_power_fail_.torn_pages;
  SimTime reboot = now_ + last_power_fail_.flush_ns + scenario_.faults.reboot_delay_ns;
  last_recovery_ = ftl_->Recover(reboot);
  if (scenario_.run.check_invariants) {
    invariant_status_ = ftl_->CheckInvariants();
    if (invariant_status_.ok() && last_power_fail_.lost_pages == 0)
      invariant_status_ = host_->VerifyAcknowledgedWrites(*ftl_);
  }
  recovering_ = true;
  events_.Push(last_recovery_.ready_at, kEvRecoveryDone, 0);
  // Power failures scheduled during recovery are deferred until it is done.
  while (next_fault_ < scenario_.faults.power_fail_at_ns.size() &&
         scenario_.faults.power_fail_at_ns[next_fault_] < last_recovery_.ready_at) {
    if (next_fault_ + 1 < scenario_.faults.power_fail_at_ns.size() &&
        scenario_.faults.power_fail_at_ns[next_fault_ + 1] < last_recovery_.ready_at) {
      ++next_fault_;  // two failures inside one outage collapse into one
    } else {
      break;
    }
  }
}

void Simulation::EmitPerf(SimTime now) {
  const HostStats& hs = host_->stats();
#ifdef SSDP_DEBUG_CHECKS
  constexpr bool kDebugChecks = true;
#else
  constexpr bool kDebugChecks = false;
#endif
  // Self-checks while running (not only after recovery): costly, so every
  // 16th interval, and only when asked for or in debug builds.
  if ((kDebugChecks || scenario_.run.check_invariants) && perf_index_ % 16 == 0 && invariant_status_.ok()) {
    invariant_status_ = ftl_->CheckInvariants();
    if (!invariant_status_.ok()) finished_ = true;
  }
  // A device that can make no more progress (no free blocks left for the
  // waiting writes, every die idle) ends the run instead of idling to the
  // time limit.
  if (hs.completed == perf_last_completed_ && host_->Outstanding() > 0 && !recovering_) {
    bool idle = true;
    for (uint32_t d = 0; d < flash_->Dies() && idle; ++d)
      idle = flash_->StateOf(d) == DieState::kIdle && flash_->QueuedOn(d) == 0;
    if (idle) {
      stalled_ = true;
      finished_ = true;
    }
  }
  uint64_t bytes = hs.bytes_read + hs.bytes_written;
  records_.Emit(now, RecordKind::kPerfIndex, 0, uint32_t(perf_index_++), hs.completed - perf_last_completed_,
                bytes - perf_last_bytes_);
  perf_last_completed_ = hs.completed;
  perf_last_bytes_ = bytes;
  for (uint32_t c = 0; c < flash_->Channels(); ++c) {
    const ChannelCounters& cc = flash_->ChannelStats(c);
    records_.Emit(now, RecordKind::kChannelPerf, uint16_t(c), uint32_t(perf_index_ - 1),
                  cc.busy_ns - perf_last_channel_[c].busy_ns, cc.bytes - perf_last_channel_[c].bytes);
    perf_last_channel_[c] = cc;
  }
}

Metrics Simulation::GetMetrics() const {
  Metrics m;
  const HostStats& hs = host_->stats();
  const FtlStats& fs = ftl_->stats();
  m.end_ns = now_;
  m.events = events_processed_;
  m.time_limited = time_limited_;
  m.stalled = stalled_;
  m.requests = hs.completed;
  m.reads = hs.reads;
  m.writes = hs.writes;
  m.trims = hs.trims;
  m.bytes_read = hs.bytes_read;
  m.bytes_written = hs.bytes_written;
  m.failed_by_power = hs.failed_by_power;
  m.dropped_arrivals = hs.dropped_arrivals;
  if (hs.completed > 0 && hs.last_complete > hs.first_submit) {
    double seconds = double(hs.last_complete - hs.first_submit) / 1e9;
    m.iops = double(hs.completed) / seconds;
    m.mbps = double(hs.bytes_read + hs.bytes_written) / 1e6 / seconds;
  }
  m.read_lat = Summarize(hs.read_latency);
  m.write_lat = Summarize(hs.write_latency);
  if (now_ > 0) {
    m.pcie_down_utilization = double(host_->link().BusyNs(PcieLink::kDownstream)) / double(now_);
    m.pcie_up_utilization = double(host_->link().BusyNs(PcieLink::kUpstream)) / double(now_);
    uint64_t ch_busy = 0, die_busy = 0;
    for (uint32_t c = 0; c < flash_->Channels(); ++c) ch_busy += flash_->ChannelStats(c).busy_ns;
    for (uint32_t d = 0; d < flash_->Dies(); ++d) die_busy += flash_->DieStats(d).busy_ns;
    m.channel_utilization = double(ch_busy) / double(now_) / flash_->Channels();
    m.die_utilization = double(die_busy) / double(now_) / flash_->Dies();
  }
  m.flash_reads = flash_->TotalReads();
  m.flash_programs = flash_->TotalPrograms();
  m.flash_erases = flash_->TotalErases();
  m.bad_blocks = ftl_->blocks().BadBlocks();
  m.erase_count_min = ftl_->MinEraseCount();
  m.erase_count_max = ftl_->MaxEraseCount();
  if (hs.bytes_written > 0) {
    uint64_t data_programs = fs.flush_programs + fs.gc_page_copies + fs.gc_stale_copies;
    m.waf = double(data_programs) * scenario_.device.geometry.page_bytes / double(hs.bytes_written);
  }
  m.host_pages_written = fs.host_pages_written;
  m.flush_programs = fs.flush_programs;
  m.rmw_reads = fs.rmw_reads;
  m.buffer_read_hits = fs.buffer_read_hits;
  m.buffer_write_hits = fs.buffer_write_hits;
  m.program_failures = fs.program_failures;
  m.erase_failures = fs.erase_failures;
  m.wear_level_migrations = fs.wear_level_migrations;
  m.checkpoints = fs.checkpoints;
  m.checkpoint_pages = fs.checkpoint_pages;
  m.gc_runs = fs.gc_runs;
  m.gc_page_copies = fs.gc_page_copies;
  m.gc_erases = fs.gc_erases;
  m.gc_stalls = fs.foreground_gc_stalls;
  m.power_failures = power_failures_;
  m.lost_pages = lost_pages_;
  m.saved_pages = saved_pages_;
  m.torn_pages = torn_pages_;
  uint64_t rec = 0;
  for (uint64_t ns : last_recovery_.step_ns) rec += ns;
  m.last_recovery_ns = rec;
  m.recovery_pages_scanned = last_recovery_.pages_scanned;
  if (instr_) {
    m.instr_enabled = true;
    m.instr_capacity_records = instr_->CapacityRecords();
    m.instr_held_records = instr_->Held();
    m.instr_overwritten = instr_->Overwritten();
    m.instr_history_ms = double(instr_->HistorySpanNs()) / 1e6;
    m.instr_records_per_s = instr_->RecordsPerSecond();
    m.instr_capacity_s = instr_->CapacitySeconds();
    m.instr_frozen = instr_->frozen();
    m.instr_frozen_at_ns = instr_->frozen_at();
    m.instr_triggered = instr_->Triggered();
    m.instr_transfers = instr_transfers_;
    m.instr_bytes_transferred = instr_bytes_transferred_;
    if (dram_ && now_ > 0) m.instr_dram_utilization = double(dram_->BusyNs()) / double(now_);
  }
  m.records_written = const_cast<RecordRing&>(records_).Written();
  m.records_lost = const_cast<RecordRing&>(records_).Lost();
  return m;
}

}  // namespace ssdp
