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

static_assert(uint32_t(RecordKind::kChannelTransfer) == 32,
              "ObservationConfig::disabled_points turns channel_transfer off by default at bit 32");

Status Simulation::Create(const Scenario& scenario, std::unique_ptr<Simulation>* out) {
  std::unique_ptr<Simulation> sim(new Simulation(scenario));
  const Scenario& sc = sim->scenario_;
  for (uint32_t k = 0; k < uint32_t(RecordKind::kCount); ++k)
    if (sc.observation.disabled_points & (uint64_t(1) << k)) sim->records_.SetEnabled(RecordKind(k), false);
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
  const XssdConfig& xssd = sc.device.xssd;
  const DbLogConfig& db_log = sc.workload.db_log;
  const uint32_t log_first_lpn = uint32_t(sim->ftl_->LogicalPages() - xssd.destage.ring_pages);
  if (xssd.enabled) {
    // A DRAM-backed ring shares the controller DRAM with the data buffer.
    if (xssd.cmb.backing == CmbBacking::kDram && !sim->dram_)
      sim->dram_ = std::make_unique<DramPort>(xssd.cmb.BackingMbps());
    sim->flash_->SetDestageMode(xssd.destage.priority == DestagePriority::kDestage ? DestageMode::kDestageFirst
                                : xssd.destage.priority == DestagePriority::kConventional
                                    ? DestageMode::kConventionalFirst
                                    : DestageMode::kNeutral);
    sim->xssd_ = std::make_unique<XssdDevice>(sc, &sim->events_, &sim->records_, sim->ftl_.get(),
                                              sim->host_->mutable_link(), sim->dram_.get(), sim->flash_->timing(),
                                              log_first_lpn);
  }
  sim->host_->SetInstrumentation(sim->instr_.get(), sim->dram_.get());
  if (db_log.enabled) {
    sim->db_log_ = std::make_unique<DbLogWriter>(sc, &sim->events_, &sim->records_, sim->host_.get(),
                                                 sim->xssd_.get(), log_first_lpn);
    sim->host_->SetInternalClient(sim->db_log_.get());
  }
  Status s = sim->host_->Init();
  if (!s.ok()) return s;
  sim->ftl_->Precondition(sc.precondition, sc.seed);
  sim->ftl_->Resume(0);  // GC starts wherever preconditioning left a plane low
  sim->perf_last_channel_.resize(sim->flash_->Channels());
  sim->host_->Start(0);
  if (sim->xssd_) sim->xssd_->Start(0);
  if (sim->db_log_) sim->db_log_->Start(0);
  sim->events_.Push(sc.observation.perf_interval_ns, kEvPerfTick, 0);
  if (!sc.faults.power_fail_at_ns.empty()) sim->events_.Push(sc.faults.power_fail_at_ns[0], kEvPowerFail, 0);
  if (sim->instr_)
    for (uint32_t i = 0; i < instr.commands.size(); ++i) sim->events_.Push(instr.commands[i].at_ns, kEvInstrCommand, i);
  sim->UpdateFinished();
  *out = std::move(sim);
  return Status::Ok();
}

bool Simulation::WorkloadFinished() const { return host_->Finished() && (!db_log_ || db_log_->Finished()); }

void Simulation::UpdateFinished() {
  if (finished_) return;
  if (!recovering_ && next_fault_ >= scenario_.faults.power_fail_at_ns.size() && WorkloadFinished()) {
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
    time_limited_ = !WorkloadFinished();
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
      time_limited_ = !WorkloadFinished();
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
      if (xssd_) xssd_->OnPerfTick(e.time);
      if (!WorkloadFinished() || recovering_)
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
      if (db_log_) db_log_->AfterReboot(e.time);
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
    case kEvXssdDestage:
      if (xssd_) xssd_->OnDestageEvent(e.time);
      break;
    case kEvXssdDrain:
      if (xssd_) xssd_->OnDrainEvent(e.arg, e.time);
      break;
    case kEvXssdAdmin:
      if (xssd_) xssd_->OnAdminCommand(e.arg, e.time);
      break;
    case kEvXssdLinkDown:
      if (xssd_) xssd_->OnLinkDown(e.arg, e.time);
      break;
    case kEvXssdApi:
      if (db_log_) db_log_->OnApiEvent(e.arg, e.time);
      break;
    case kEvXssdWorker:
      if (db_log_) db_log_->OnWorkerEvent(e.arg, e.time);
      break;
    case kEvXssdFlusher:
      if (db_log_) db_log_->OnFlusherEvent(e.time);
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
  if (db_log_) db_log_->PowerFail(now_);
  if (xssd_) xssd_->BeforePowerLoss(now_);
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
  if (xssd_) xssd_->AfterReboot(last_recovery_.ready_at);
  if (scenario_.run.check_invariants) {
    invariant_status_ = ftl_->CheckInvariants();
    if (invariant_status_.ok() && last_power_fail_.lost_pages == 0)
      invariant_status_ = host_->VerifyAcknowledgedWrites(*ftl_);
    if (invariant_status_.ok() && xssd_ && xssd_->last_crash().lost_acknowledged > 0)
      invariant_status_ = Status::Internal(
          "fast side: " + std::to_string(xssd_->last_crash().lost_acknowledged) +
          " acknowledged bytes not readable after reboot (acknowledged up to " +
          std::to_string(xssd_->last_crash().host_acknowledged) + ", readable up to " +
          std::to_string(xssd_->last_crash().durable_after_reboot) + ")");
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
  if (xssd_) m.xssd = XssdMetrics();
  if (db_log_) m.db_log = DbLogMetrics();
  m.records_written = const_cast<RecordRing&>(records_).Written();
  m.records_lost = const_cast<RecordRing&>(records_).Lost();
  return m;
}

nlohmann::json Simulation::XssdMetrics() const {
  const XssdDevice& x = *xssd_;
  const CmbRing& ring = x.ring();
  const DestageStats& ds = x.destager().stats();
  const XssdConfig& c = scenario_.device.xssd;
  nlohmann::json j;
  j["backing"] = c.cmb.backing == CmbBacking::kDram ? "dram" : "sram";
  j["ring_bytes"] = ring.params().ring_bytes;
  j["queue_bytes"] = ring.params().queue_bytes;
  j["write_mode"] = c.host.write_mode == CmbWriteMode::kUncached ? "uncached" : "write-combining";
  j["chunk_bytes"] = c.host.chunk_bytes;
  j["bytes_arrived"] = ring.stats().bytes_arrived;
  j["credit_counter"] = ring.CounterAt(now_);
  j["host_tail"] = const_cast<XssdDevice&>(x).host_tail();
  j["host_acknowledged"] = x.HostAcknowledged();
  j["tlps"] = x.TlpsSent();
  j["wire_bytes"] = x.WireBytes();
  j["counter_reads"] = x.CounterReads();
  j["max_queue_bytes"] = ring.stats().max_queue_bytes;
  j["ring_full_waits"] = ring.stats().ring_full_waits;
  j["overrun_bytes"] = x.OverrunBytes();
  j["status_bits"] = x.StatusBits();
  j["destage_pages"] = ds.pages;
  j["destage_filler_pages"] = ds.filler_pages;
  j["destage_filler_bytes"] = ds.filler_bytes;
  j["destage_payload_bytes"] = ds.payload_bytes;
  j["destage_retries"] = ds.retries;
  j["destage_durable"] = x.destager().DurablePos();
  j["destage_page_us_mean"] = ds.pages ? double(ds.page_ns_total) / 1000.0 / double(ds.pages) : 0.0;
  j["ingest_mbps"] = now_ > 0 ? double(ring.stats().bytes_arrived) * 1000.0 / double(now_) : 0.0;
  const Transport& t = x.transport();
  j["role"] = t.IsPrimary() ? "primary" : "standalone";
  j["update_share"] = t.UpdateShare();
  nlohmann::json secondaries = nlohmann::json::array();
  for (uint32_t i = 0; i < t.Secondaries(); ++i) {
    const SecondaryStatus& st = t.Status(i);
    nlohmann::json s;
    s["active"] = st.active;
    s["link_up"] = st.link_up;
    s["counter"] = t.Ring(i).CounterAt(now_);
    s["shadow"] = t.Shadow(i, now_);
    s["mirrored_bytes"] = st.mirrored_bytes;
    s["drained_bytes"] = st.drained_bytes;
    s["repl_delay_count"] = st.repl_delay.Count();
    s["repl_delay_min_us"] = st.repl_delay.Count() ? double(st.repl_delay.Percentile(0)) / 1000.0 : 0.0;
    s["repl_delay_p50_us"] = st.repl_delay.Count() ? double(st.repl_delay.Percentile(50)) / 1000.0 : 0.0;
    s["repl_delay_p99_us"] = st.repl_delay.Count() ? double(st.repl_delay.Percentile(99)) / 1000.0 : 0.0;
    s["repl_delay_max_us"] = st.repl_delay.Count() ? double(st.repl_delay.Max()) / 1000.0 : 0.0;
    secondaries.push_back(s);
  }
  j["secondaries"] = secondaries;
  const XssdCrashReport& cr = x.last_crash();
  if (cr.happened) {
    j["crash"] = {{"at_ns", cr.at},
                  {"host_acknowledged", cr.host_acknowledged},
                  {"counter_at_loss", cr.counter_at_loss},
                  {"queued_lost", cr.queued_lost},
                  {"beyond_gap", cr.beyond_gap},
                  {"destaged_on_capacitors", cr.destaged_on_capacitors},
                  {"capacitor_ns", cr.capacitor_ns},
                  {"durable_after_reboot", cr.durable_after_reboot},
                  {"extra_tail", cr.durable_after_reboot - std::min(cr.durable_after_reboot, cr.host_acknowledged)},
                  {"lost_acknowledged", cr.lost_acknowledged}};
  }
  return j;
}

nlohmann::json Simulation::DbLogMetrics() const {
  const DbLogStats& s = db_log_->stats();
  const DbLogConfig& c = scenario_.workload.db_log;
  nlohmann::json j;
  j["target"] = c.target == DbLogTarget::kCmb ? "cmb" : c.target == DbLogTarget::kNvme ? "nvme" : "none";
  j["workers"] = c.workers;
  j["transactions"] = s.transactions;
  j["groups"] = s.groups;
  j["log_bytes"] = s.log_bytes;
  double span = s.last_commit > s.started ? double(s.last_commit - s.started) / 1e9 : 0.0;
  j["txn_per_s"] = span > 0 ? double(s.transactions) / span : 0.0;
  j["log_mbps"] = span > 0 ? double(s.log_bytes) / 1e6 / span : 0.0;
  j["latency_mean_us"] = s.latency.Count() ? s.latency.Mean() / 1000.0 : 0.0;
  j["latency_p50_us"] = s.latency.Count() ? double(s.latency.Percentile(50)) / 1000.0 : 0.0;
  j["latency_p99_us"] = s.latency.Count() ? double(s.latency.Percentile(99)) / 1000.0 : 0.0;
  j["group_bytes_mean"] = s.groups ? double(s.log_bytes) / double(s.groups) : 0.0;
  j["flush_us_mean"] = s.groups ? double(s.flush_ns_total) / 1000.0 / double(s.groups) : 0.0;
  j["timeout_groups"] = s.timeout_groups;
  j["worker_waits"] = s.worker_waits;
  j["fsync_errors"] = s.fsync_errors;
  j["fatal_overrun"] = s.fatal_overrun;
  j["tail_read_bytes"] = s.tail_read_bytes;
  j["tail_extra_bytes"] = s.tail_extra_bytes;
  j["tail_read_us"] = double(s.tail_read_ns) / 1000.0;
  return j;
}

}  // namespace ssdp
