#include "host/host.h"

#include <algorithm>
#include <string>

#include "engine/event_type.h"

namespace ssdp {
namespace {
constexpr size_t kBacklogCapacity = 4096;
constexpr uint64_t kSqeBytes = 64, kCqeBytes = 16, kDoorbellBytes = 4;
constexpr uint32_t kInternalSlots = 8;

// Logical pages at the end of the space that belong to the X-SSD destage
// ring (or the NVMe log area): the workload never touches them.
uint64_t ReservedPages(const Scenario& scenario) {
  const bool nvme_log = scenario.workload.db_log.enabled && scenario.workload.db_log.target == DbLogTarget::kNvme;
  return scenario.device.xssd.enabled || nvme_log ? scenario.device.xssd.destage.ring_pages : 0;
}
}  // namespace

Host::Host(const Scenario& scenario, EventQueue* events, RecordRing* records, Ftl* ftl)
    : scenario_(scenario),
      events_(events),
      records_(records),
      ftl_(ftl),
      link_(scenario.device.host_interface.pcie),
      page_bytes_(scenario.device.geometry.page_bytes),
      sample_one_in_(scenario.observation.sample_one_in) {
  const NvmeConfig& nvme = scenario.device.host_interface.nvme;
  completion_ns_ = nvme.completion == CompletionMode::kInterrupt ? nvme.interrupt_ns : nvme.poll_ns;
  host_logical_bytes_ = (uint64_t(ftl->LogicalPages()) - ReservedPages(scenario)) * page_bytes_;
  const uint64_t logical_bytes = host_logical_bytes_;
  uint32_t slots = kInternalSlots;
  const auto& flows = scenario.workload.flows;
  flows_.resize(flows.size());
  flow_status_.resize(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    flows_[i].generator = std::make_unique<RequestGenerator>(flows[i], logical_bytes, scenario.seed, 1000 + i);
    if (flows[i].arrival_rate_iops > 0) flows_[i].backlog.resize(kBacklogCapacity);
    flows_[i].trim_rng.Seed(scenario.seed, 5000 + i);
    if (flows[i].trim_fraction > 0 && flows[i].read_fraction < 1)
      flows_[i].trim_share = flows[i].trim_fraction / (1.0 - flows[i].read_fraction);
    if (flows[i].duration_ns > 0) flows_[i].end_time = flows[i].start_ns + flows[i].duration_ns;
    slots += flows[i].queue_depth;
  }
  if (scenario.workload.trace.enabled) slots += scenario.workload.trace.queue_depth;
  requests_.resize(std::max<uint32_t>(1, slots));
  for (uint32_t i = uint32_t(requests_.size()); i-- > 0;) {
    requests_[i].next_free = free_slot_;
    free_slot_ = i;
  }
  if (scenario.run.check_invariants) {
    acked_seq_.assign(ftl->LogicalPages(), 0);
    acked_trim_seq_.assign(ftl->LogicalPages(), 0);
  }
}

Status Host::Init() {
  const TraceConfig& trace = scenario_.workload.trace;
  if (!trace.enabled) return Status::Ok();
  Status s = ParseTrace(trace.text, trace.time_scale, &trace_);
  if (!s.ok()) return Status::InvalidArgument("workload.trace: " + s.message());
  const uint64_t logical_bytes = host_logical_bytes_;
  for (size_t i = 0; i < trace_.size(); ++i) {
    if (trace_[i].offset_bytes + trace_[i].bytes > logical_bytes)
      return Status::InvalidArgument("workload.trace: request " + std::to_string(i + 1) + " ends at byte " +
                                     std::to_string(trace_[i].offset_bytes + trace_[i].bytes) +
                                     ", beyond the device's logical capacity of " +
                                     std::to_string(logical_bytes) + " bytes");
  }
  return Status::Ok();
}

void Host::Start(SimTime now) {
  for (uint32_t i = 0; i < flows_.size(); ++i)
    events_->Push(std::max(now, scenario_.workload.flows[i].start_ns), kEvFlowIssue, i);
  if (!trace_.empty()) events_->Push(std::max(now, trace_[0].time_ns), kEvTraceIssue, 0);
}

uint32_t Host::AllocSlot() {
  uint32_t slot = free_slot_;
  free_slot_ = requests_[slot].next_free;
  ++outstanding_;
  return slot;
}

SimTime Host::PopBacklog(FlowState& fs) {
  SimTime arrived = fs.backlog[fs.backlog_head];
  fs.backlog_head = (fs.backlog_head + 1) % fs.backlog.size();
  --fs.backlog_size;
  return arrived;
}

bool Host::FlowCanIssue(uint32_t flow, SimTime now) const {
  const FlowConfig& cfg = scenario_.workload.flows[flow];
  const FlowStatus& st = flow_status_[flow];
  if (cfg.requests > 0 && st.issued >= cfg.requests) return false;
  if (now >= flows_[flow].end_time) return false;
  return true;
}

void Host::OnFlowIssue(uint32_t flow, SimTime now) {
  if (!powered_) return;
  const FlowConfig& cfg = scenario_.workload.flows[flow];
  FlowState& fs = flows_[flow];
  FlowStatus& st = flow_status_[flow];
  if (!FlowCanIssue(flow, now)) {
    st.ended = st.outstanding == 0;
    return;
  }
  if (cfg.arrival_rate_iops <= 0) {
    // Closed loop: keep queue_depth commands outstanding.
    while (st.outstanding < cfg.queue_depth && FlowCanIssue(flow, now)) IssueFromFlow(flow, now, now);
    return;
  }
  // Open loop: one arrival now, the next after an exponential gap. Arrivals
  // that queued while the device was busy (or powered off) go first.
  while (st.outstanding < cfg.queue_depth && fs.backlog_size > 0) IssueFromFlow(flow, PopBacklog(fs), now);
  if (st.outstanding < cfg.queue_depth && fs.backlog_size == 0) {
    IssueFromFlow(flow, now, now);
  } else if (fs.backlog_size < fs.backlog.size()) {
    fs.backlog[(fs.backlog_head + fs.backlog_size++) % fs.backlog.size()] = now;
    ++st.issued;  // counted as issued: it is the application's request
  } else {
    ++stats_.dropped_arrivals;
  }
  events_->Push(now + std::max<uint64_t>(1, fs.generator->NextInterarrivalNs()), kEvFlowIssue, flow);
}

void Host::IssueFromFlow(uint32_t flow, SimTime submitted, SimTime now) {
  GeneratedRequest g;
  flows_[flow].generator->Next(&g);
  uint32_t slot = AllocSlot();
  Request& r = requests_[slot];
  r = Request{};
  r.offset_bytes = g.offset_bytes;
  r.bytes = g.bytes;
  r.is_read = g.is_read;
  FlowState& fs = flows_[flow];
  r.is_trim = !g.is_read && fs.trim_share > 0 && fs.trim_rng.Chance(fs.trim_share);
  r.source = uint16_t(flow);
  r.submitted = submitted;
  FlowStatus& st = flow_status_[flow];
  if (submitted == now) ++st.issued;  // backlogged arrivals were counted on arrival
  ++st.outstanding;
  Submit(slot, now);
}

void Host::OnTraceIssue(SimTime now) {
  if (!powered_) return;
  IssueFromTrace(now);
}

void Host::IssueFromTrace(SimTime now) {
  const uint32_t depth = scenario_.workload.trace.queue_depth;
  while (next_trace_ < trace_.size() && trace_[next_trace_].time_ns <= now && trace_outstanding_ < depth) {
    const TraceEntry& e = trace_[next_trace_++];
    uint32_t slot = AllocSlot();
    Request& r = requests_[slot];
    r = Request{};
    r.offset_bytes = e.offset_bytes;
    r.bytes = e.bytes;
    r.is_read = e.is_read;
    r.source = kTraceSource;
    r.submitted = e.time_ns;  // time spent waiting for a queue slot counts
    ++trace_outstanding_;
    Submit(slot, now);
  }
  if (next_trace_ < trace_.size() && trace_[next_trace_].time_ns > now)
    events_->Push(trace_[next_trace_].time_ns, kEvTraceIssue, 0);
}

void Host::Submit(uint32_t slot, SimTime now) {
  Request& r = requests_[slot];
  r.id = uint32_t(next_id_++);
  r.first_lpn = uint32_t(r.offset_bytes / page_bytes_);
  r.pages = uint32_t((r.offset_bytes + r.bytes - 1) / page_bytes_) - r.first_lpn + 1;
  r.pending = r.pages;
  r.traced = (r.id % sample_one_in_) == 0;
  stats_.first_submit = std::min(stats_.first_submit, r.submitted);
  // Doorbell write, then the controller fetches the 64-byte submission entry.
  SimTime doorbell = link_.Transfer(PcieLink::kDownstream, kDoorbellBytes, now);
  SimTime fetch_request = link_.Transfer(PcieLink::kUpstream, 0, doorbell);
  SimTime fetched = link_.Transfer(PcieLink::kDownstream, kSqeBytes, fetch_request);
  r.ready = fetched + scenario_.device.ftl.translation_ns;
  if (r.traced) {
    records_->Emit(r.submitted, RecordKind::kRequestSubmit, r.source, uint32_t(r.id), r.offset_bytes,
                   uint64_t(r.bytes) | (uint64_t(r.is_read) << 63));
    records_->Emit(fetched, RecordKind::kRequestFetched, r.source, uint32_t(r.id), 0, 0);
  }
  events_->Push(r.ready, kEvCommandReady, slot);
}

void Host::OnCommandReady(uint32_t slot, SimTime now) {
  Request& r = requests_[slot];
  if (r.traced) records_->Emit(now, RecordKind::kRequestTranslated, r.source, uint32_t(r.id), r.pages, 0);
  if (r.is_trim) {
    // Whole pages inside the range are deallocated; partial edge pages stay.
    uint64_t first = (r.offset_bytes + page_bytes_ - 1) / page_bytes_;
    uint64_t end = (r.offset_bytes + r.bytes) / page_bytes_;
    r.first_lpn = uint32_t(first);
    r.pages = end > first ? uint32_t(end - first) : 0;
    r.first_seq = r.pages > 0 ? ftl_->Trim(r.first_lpn, r.pages, now) : 0;
    SimTime cqe = link_.Transfer(PcieLink::kUpstream, kCqeBytes, now);
    events_->Push(cqe + completion_ns_, kEvRequestDone, slot);
  } else if (r.is_read) {
    ftl_->SubmitRead(slot, now);
  } else {
    ftl_->SubmitWrite(slot, now);
  }
}

void Host::OnSliceReady(uint32_t slot, SimTime now) {
  Request& r = requests_[slot];
  uint32_t slice_bytes = (r.bytes + r.pages - 1) / r.pages;
  // Reads: the controller writes the data to host memory. Writes: it reads
  // the data from host memory into the buffer slot it just got.
  SimTime end = r.is_read ? link_.Transfer(PcieLink::kUpstream, slice_bytes, now)
                          : link_.Transfer(PcieLink::kDownstream, slice_bytes, now);
  // The slice also crosses the controller's DRAM, which instrumentation
  // records compete for.
  if (dram_) end = std::max(end, dram_->Access(slice_bytes, now));
  r.data_done = std::max(r.data_done, end);
  if (--r.pending > 0) return;
  if (r.traced) {
    if (r.first_wait != 0)
      records_->Emit(now, RecordKind::kRequestGcWait, r.source, uint32_t(r.id), now - r.first_wait, 0);
    records_->Emit(r.data_done, RecordKind::kRequestDmaDone, r.source, uint32_t(r.id), now, 0);
  }
  SimTime cqe = link_.Transfer(PcieLink::kUpstream, kCqeBytes, r.data_done);
  events_->Push(cqe + completion_ns_, kEvRequestDone, slot);
}

void Host::OnRequestDone(uint32_t slot, SimTime now) {
  Request& r = requests_[slot];
  uint64_t latency = now - r.submitted;
  ++stats_.completed;
  if (r.is_trim) {
    ++stats_.trims;
    stats_.bytes_trimmed += uint64_t(r.pages) * page_bytes_;
    if (!acked_trim_seq_.empty())
      for (uint32_t i = 0; i < r.pages; ++i) acked_trim_seq_[r.first_lpn + i] = r.first_seq;
  } else if (r.is_read) {
    ++stats_.reads;
    stats_.bytes_read += r.bytes;
    stats_.read_latency.Record(latency);
  } else {
    ++stats_.writes;
    stats_.bytes_written += r.bytes;
    stats_.write_latency.Record(latency);
    if (!acked_seq_.empty())
      for (uint32_t i = 0; i < r.pages; ++i)
        acked_seq_[r.first_lpn + i] = std::max(acked_seq_[r.first_lpn + i], r.first_seq + i);
  }
  stats_.last_complete = now;
  if (r.traced)
    records_->Emit(now, RecordKind::kRequestComplete, r.source, uint32_t(r.id), latency, r.is_read ? 1 : 0);
  if (instr_) {
    uint64_t fetch = r.ready - r.submitted;
    uint64_t service = r.data_done > r.ready ? r.data_done - r.ready : 0;
    uint64_t completion = now - std::max(r.data_done, r.ready);
    if (instr_->Triggers(latency, fetch, service, completion, outstanding_)) {
      instr_->MarkTriggered();
      const InstrumentationTrigger& t = scenario_.device.instrumentation.trigger;
      uint64_t value = t.stage == TriggerStage::kFetch ? fetch
                       : t.stage == TriggerStage::kService ? service
                       : t.stage == TriggerStage::kCompletion ? completion : latency;
      records_->Emit(now, RecordKind::kInstrTrigger, r.source, uint32_t(r.id), value, uint64_t(t.stage));
      if (t.post_trigger_ns == 0) {
        instr_->Freeze(now);
      } else {
        events_->Push(now + t.post_trigger_ns, kEvInstrFreeze, 0);
      }
    }
  }
  uint16_t source = r.source;
  uint32_t tag = r.tag;
  r.next_free = free_slot_;
  free_slot_ = slot;
  --outstanding_;
  if (source == kInternalSource) {
    --internal_outstanding_;
    if (internal_) internal_->OnInternalDone(tag, now);
  }
  AfterCompletion(source, now);
}

bool Host::SubmitInternal(uint64_t offset_bytes, uint32_t bytes, bool is_read, uint32_t tag, SimTime now) {
  if (!powered_ || internal_outstanding_ >= kInternalSlots || free_slot_ == kNoSlot) return false;
  uint32_t slot = AllocSlot();
  Request& r = requests_[slot];
  r = Request{};
  r.offset_bytes = offset_bytes;
  r.bytes = bytes;
  r.is_read = is_read;
  r.tag = tag;
  r.source = kInternalSource;
  r.submitted = now;
  ++internal_outstanding_;
  Submit(slot, now);
  return true;
}

void Host::AfterCompletion(uint16_t source, SimTime now) {
  if (source == kInternalSource) return;  // the internal client was told already
  if (source == kTraceSource) {
    --trace_outstanding_;
    IssueFromTrace(now);
    return;
  }
  FlowStatus& st = flow_status_[source];
  FlowState& fs = flows_[source];
  --st.outstanding;
  ++st.completed;
  if (fs.backlog_size > 0) {
    IssueFromFlow(source, PopBacklog(fs), now);
    return;
  }
  const FlowConfig& cfg = scenario_.workload.flows[source];
  if (cfg.arrival_rate_iops <= 0 && FlowCanIssue(source, now)) {
    IssueFromFlow(source, now, now);
  } else if (!FlowCanIssue(source, now) && st.outstanding == 0) {
    st.ended = true;
  }
}

SimTime Host::AdminTransfer(uint64_t bytes, SimTime now) {
  // Doorbell and command fetch, then the data and the completion entry.
  SimTime doorbell = link_.Transfer(PcieLink::kDownstream, kDoorbellBytes, now);
  SimTime fetched = link_.Transfer(PcieLink::kDownstream, kSqeBytes, link_.Transfer(PcieLink::kUpstream, 0, doorbell));
  SimTime data = bytes ? link_.Transfer(PcieLink::kUpstream, bytes, fetched) : fetched;
  return link_.Transfer(PcieLink::kUpstream, kCqeBytes, data) + completion_ns_;
}

void Host::PowerFail(SimTime now) {
  powered_ = false;
  for (uint32_t i = 0; i < requests_.size(); ++i) requests_[i].next_free = kNoSlot;
  stats_.failed_by_power += outstanding_;
  free_slot_ = kNoSlot;
  for (uint32_t i = uint32_t(requests_.size()); i-- > 0;) {
    requests_[i].next_free = free_slot_;
    free_slot_ = i;
  }
  outstanding_ = 0;
  trace_outstanding_ = 0;
  internal_outstanding_ = 0;
  for (auto& st : flow_status_) st.outstanding = 0;
  link_.Reset();
}

void Host::Resume(SimTime now) {
  powered_ = true;
  for (uint32_t i = 0; i < flows_.size(); ++i) events_->Push(now, kEvFlowIssue, i);
  if (next_trace_ < trace_.size()) events_->Push(std::max(now, trace_[next_trace_].time_ns), kEvTraceIssue, 0);
}

bool Host::Finished() const {
  if (outstanding_ > 0) return false;
  if (next_trace_ < trace_.size()) return false;
  for (uint32_t i = 0; i < flows_.size(); ++i) {
    const FlowConfig& cfg = scenario_.workload.flows[i];
    if (flows_[i].backlog_size > 0) return false;
    bool bounded = cfg.requests > 0 || cfg.duration_ns > 0;
    if (!bounded) return false;
    if (!flow_status_[i].ended) return false;
  }
  return true;
}

Status Host::VerifyAcknowledgedWrites(const Ftl& ftl) const {
  for (uint32_t lpn = 0; lpn < acked_seq_.size(); ++lpn) {
    uint32_t visible = ftl.VisibleSeq(lpn);
    if (acked_trim_seq_[lpn] > acked_seq_[lpn]) {
      // The last acknowledged command was a trim: the page must read as
      // deallocated, or hold data newer than the trim.
      if (visible != 0 && visible < acked_trim_seq_[lpn])
        return Status::Internal("logical page " + std::to_string(lpn) + ": trimmed at version " +
                                std::to_string(acked_trim_seq_[lpn]) + " but older version " +
                                std::to_string(visible) + " came back");
      continue;
    }
    if (acked_seq_[lpn] == 0) continue;
    if (visible < acked_seq_[lpn])
      return Status::Internal("logical page " + std::to_string(lpn) + ": acknowledged version " +
                              std::to_string(acked_seq_[lpn]) + " lost; device holds version " +
                              std::to_string(visible));
  }
  return Status::Ok();
}

}  // namespace ssdp
