// Simulation: one device plus its host, assembled from a validated scenario,
// advanced in bounded steps so a UI can draw between them. The only way in
// is the scenario and the fault injectors; the only ways out are the metrics
// and the observation records.
#pragma once

#include <cstdint>
#include <memory>

#include "engine/event_queue.h"
#include "flash/flash_array.h"
#include "ftl/ftl.h"
#include "host/host.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"
#include "sim/metrics.h"
#include "util/status.h"
#include "xssd/db_log_writer.h"
#include "xssd/xssd_device.h"

namespace ssdp {

class Simulation {
 public:
  // Builds the device, preconditions it and schedules the workload. Fails
  // with an actionable message (e.g. a bad trace line).
  static Status Create(const Scenario& scenario, std::unique_ptr<Simulation>* out);

  // Runs events up to and including simulated time t (or until finished).
  // Returns true while there is more to do.
  bool RunUntil(SimTime t);
  // Runs at most n events. Returns true while there is more to do.
  bool RunEvents(uint64_t n);
  // Runs to the end (workload done or run.max_time_ns reached).
  void RunToEnd();
  bool Finished() const { return finished_; }
  SimTime Now() const { return now_; }
  uint64_t Events() const { return events_processed_; }

  // Cuts power now; recovery follows as modeled steps.
  void InjectPowerFail();
  // Retires a block now as if a program on it failed. False if not possible.
  bool InjectBlockFailure(uint32_t block);

  Metrics GetMetrics() const;
  // The instrumented device's cache (null unless device.instrumentation.enabled).
  const InstrumentationCache* instrumentation() const { return instr_.get(); }
  // What the last "transfer" vendor command delivered to the host.
  const std::vector<Record>& transferred_records() const { return transferred_; }
  // Runs an instrumentation vendor command now (the UI's buttons).
  void RunInstrumentationCommand(const InstrumentationCommand& command);
  RecordRing& records() { return records_; }
  // The X-SSD fast side and the database log writer (null when off).
  const XssdDevice* xssd() const { return xssd_.get(); }
  XssdDevice* mutable_xssd() { return xssd_.get(); }
  const DbLogWriter* db_log() const { return db_log_.get(); }
  const Ftl& ftl() const { return *ftl_; }
  const FlashArray& flash() const { return *flash_; }
  const Host& host() const { return *host_; }
  const Scenario& scenario() const { return scenario_; }
  // Status of the last self-check (run.check_invariants runs it after every recovery).
  const Status& invariant_status() const { return invariant_status_; }
  // Last power failure / recovery, for tests and views.
  const PowerFailReport& last_power_fail() const { return last_power_fail_; }
  const RecoveryReport& last_recovery() const { return last_recovery_; }
  bool Recovering() const { return recovering_; }

 private:
  explicit Simulation(const Scenario& scenario);
  void Dispatch(const Event& e);
  void HandlePowerFail();
  void EmitPerf(SimTime now);
  void UpdateFinished();
  bool WorkloadFinished() const;
  nlohmann::json XssdMetrics() const;
  nlohmann::json DbLogMetrics() const;

  Scenario scenario_;
  EventQueue events_;
  RecordRing records_;
  std::unique_ptr<FlashArray> flash_;
  std::unique_ptr<Ftl> ftl_;
  std::unique_ptr<Host> host_;
  std::unique_ptr<DramPort> dram_;
  std::unique_ptr<InstrumentationCache> instr_;
  std::unique_ptr<XssdDevice> xssd_;
  std::unique_ptr<DbLogWriter> db_log_;
  std::vector<Record> transferred_;
  uint64_t instr_transfers_ = 0, instr_bytes_transferred_ = 0;
  SimTime now_ = 0;
  uint64_t events_processed_ = 0;
  bool finished_ = false;
  bool time_limited_ = false;
  bool stalled_ = false;
  bool recovering_ = false;
  size_t next_fault_ = 0;
  uint64_t perf_index_ = 0;
  uint64_t perf_last_completed_ = 0, perf_last_bytes_ = 0;
  std::vector<ChannelCounters> perf_last_channel_;
  uint64_t power_failures_ = 0, lost_pages_ = 0, saved_pages_ = 0, torn_pages_ = 0;
  PowerFailReport last_power_fail_;
  RecoveryReport last_recovery_;
  Status invariant_status_;
};

}  // namespace ssdp
