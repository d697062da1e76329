// Host: the NVMe host side — workload flows with their own queue pairs, trace
// replay, the PCIe link, and the request table. It issues commands, moves data
// over the link when the FTL says a slice is ready, posts completions, and
// measures latency as the host sees it (submission to completion handled).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/event_queue.h"
#include "engine/rng.h"
#include "ftl/ftl.h"
#include "host/pcie_link.h"
#include "host/request.h"
#include "host/request_generator.h"
#include "host/trace_reader.h"
#include "obs/instrumentation_cache.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"
#include "util/latency_histogram.h"
#include "util/status.h"

namespace ssdp {

struct HostStats {
  uint64_t completed = 0, reads = 0, writes = 0, trims = 0;
  uint64_t bytes_trimmed = 0;
  uint64_t bytes_read = 0, bytes_written = 0;
  uint64_t failed_by_power = 0;   // in flight when power failed: never acknowledged
  uint64_t dropped_arrivals = 0;  // open-loop arrivals beyond the host backlog
  SimTime first_submit = kNever;
  SimTime last_complete = 0;
  LatencyHistogram read_latency;
  LatencyHistogram write_latency;
};

// Per-flow progress, for views and metrics.
struct FlowStatus {
  uint64_t issued = 0;
  uint64_t completed = 0;
  uint32_t outstanding = 0;
  bool ended = false;
};

// Host software that issues its own NVMe commands (not a workload flow).
class HostInternalClient {
 public:
  virtual ~HostInternalClient() = default;
  virtual void OnInternalDone(uint32_t tag, SimTime now) = 0;
};

class Host : public FtlClient {
 public:
  Host(const Scenario& scenario, EventQueue* events, RecordRing* records, Ftl* ftl);

  // Parses the trace, if any; fails with a message naming the line.
  Status Init();
  // Schedules the first arrivals of every flow and of the trace.
  void Start(SimTime now);

  void OnFlowIssue(uint32_t flow, SimTime now);
  void OnTraceIssue(SimTime now);
  void OnCommandReady(uint32_t slot, SimTime now);
  void OnRequestDone(uint32_t slot, SimTime now);
  void OnSliceReady(uint32_t slot, SimTime now) override;

  // The instrumented device: a cache that may freeze on a slow request, and
  // the DRAM port host data shares with it. Either may be null.
  void SetInstrumentation(InstrumentationCache* cache, DramPort* dram) {
    instr_ = cache;
    dram_ = dram;
  }
  // Changes request sampling (1 traced request in `one_in`); a vendor command.
  void SetSampleOneIn(uint32_t one_in) { sample_one_in_ = one_in ? one_in : 1; }
  // Internal NVMe commands: the client hears back with `tag`. False when
  // every internal slot is taken or the host is down.
  void SetInternalClient(HostInternalClient* client) { internal_ = client; }
  bool SubmitInternal(uint64_t offset_bytes, uint32_t bytes, bool is_read, uint32_t tag, SimTime now);
  PcieLink* mutable_link() { return &link_; }
  // Logical bytes the workload flows and the trace may address.
  uint64_t HostLogicalBytes() const { return host_logical_bytes_; }

  // Moves `bytes` of an admin command's data to the host; returns when done.
  SimTime AdminTransfer(uint64_t bytes, SimTime now);

  // Power loss: requests in flight are never acknowledged.
  void PowerFail(SimTime now);
  // The device is ready again: flows continue.
  void Resume(SimTime now);

  // True when every flow and the trace have issued and completed everything.
  bool Finished() const;
  uint32_t Outstanding() const { return outstanding_; }

  // With run.check_invariants: every acknowledged write's version is still
  // visible (or superseded) on the device.
  Status VerifyAcknowledgedWrites(const Ftl& ftl) const;

  const HostStats& stats() const { return stats_; }
  const PcieLink& link() const { return link_; }
  const FlowStatus& Flow(uint32_t i) const { return flow_status_[i]; }
  uint32_t Flows() const { return uint32_t(flow_status_.size()); }
  std::vector<Request>* requests() { return &requests_; }

 private:
  struct FlowState {
    std::unique_ptr<RequestGenerator> generator;
    Rng trim_rng;                  // decides which non-read requests are trims
    double trim_share = 0;         // trim_fraction / (1 - read_fraction)
    std::vector<SimTime> backlog;  // ring of open-loop arrivals waiting for a queue slot
    size_t backlog_head = 0, backlog_size = 0;
    SimTime end_time = kNever;
  };

  bool FlowCanIssue(uint32_t flow, SimTime now) const;
  // Takes the oldest open-loop arrival waiting for a queue slot; returns its time.
  static SimTime PopBacklog(FlowState& fs);
  void IssueFromFlow(uint32_t flow, SimTime submitted, SimTime now);
  void IssueFromTrace(SimTime now);
  uint32_t AllocSlot();
  void Submit(uint32_t slot, SimTime now);
  void AfterCompletion(uint16_t source, SimTime now);

  const Scenario& scenario_;
  EventQueue* events_;
  RecordRing* records_;
  Ftl* ftl_;
  PcieLink link_;
  uint32_t page_bytes_;
  uint64_t completion_ns_;  // interrupt or polling delay after the CQE lands
  std::vector<Request> requests_;
  uint32_t free_slot_ = kNoSlot;
  uint32_t outstanding_ = 0;
  uint64_t next_id_ = 0;
  std::vector<FlowState> flows_;
  std::vector<FlowStatus> flow_status_;
  std::vector<TraceEntry> trace_;
  size_t next_trace_ = 0;
  uint32_t trace_outstanding_ = 0;
  bool powered_ = true;
  uint32_t sample_one_in_;
  InstrumentationCache* instr_ = nullptr;
  DramPort* dram_ = nullptr;
  HostInternalClient* internal_ = nullptr;
  uint32_t internal_outstanding_ = 0;
  uint64_t host_logical_bytes_ = 0;
  std::vector<uint32_t> acked_seq_;  // only with check_invariants
  std::vector<uint32_t> acked_trim_seq_;
  HostStats stats_;
};

}  // namespace ssdp
