// Ftl: the flash translation layer of the conventional device. It turns host
// page slices into buffer updates and flash operations, keeps the page-level
// mapping (flat arrays), runs garbage collection and wear leveling, writes
// mapping checkpoints, and handles power failure and the reboot that follows.
//
// Split across files by concern: ftl.cc (host path, buffer flush, program
// completion), ftl_gc.cc (garbage collection, static wear leveling),
// ftl_checkpoint.cc (checkpoints, trim), ftl_recovery.cc (power fail, reboot,
// invariants), ftl_precondition.cc (instant aging).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/event_queue.h"
#include "engine/rng.h"
#include "flash/flash_array.h"
#include "flash/oob_store.h"
#include "ftl/block_manager.h"
#include "ftl/data_buffer.h"
#include "host/request.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"
#include "util/status.h"

namespace ssdp {

// What the FTL tells the host side about a request's slices.
class FtlClient {
 public:
  virtual ~FtlClient() = default;
  // A read slice's data is in controller memory, or a write slice has a
  // buffer slot and may be transferred from the host.
  virtual void OnSliceReady(uint32_t request_slot, SimTime now) = 0;
};

// The fast side's destage module: told when one of its pages is on flash,
// and, on power loss, given the chance to destage its ring before the
// volatile mapping is dropped.
class DestageSink {
 public:
  virtual ~DestageSink() = default;
  // The destage program tagged `tag` for logical page `lpn` landed with data version `seq`.
  virtual void OnDestageProgrammed(uint32_t tag, uint32_t lpn, uint32_t seq, SimTime now) = 0;
  // The program tagged `tag` hit a bad block; the FTL programs it again elsewhere.
  virtual void OnDestageRetried(uint32_t tag) = 0;
  // Power is failing: capacitors still run. Called after the buffer flush.
  virtual void OnPowerLoss(SimTime now) = 0;
};

struct FtlStats {
  uint64_t host_pages_written = 0;   // slices placed in the buffer
  uint64_t host_sectors_written = 0;
  uint64_t host_pages_read = 0;
  uint64_t buffer_read_hits = 0;
  uint64_t buffer_write_hits = 0;    // overwrites absorbed by the buffer
  uint64_t unmapped_reads = 0;
  uint64_t flush_programs = 0;
  uint64_t rmw_reads = 0;
  uint64_t gc_runs = 0;
  uint64_t gc_page_copies = 0;
  uint64_t gc_stale_copies = 0;
  uint64_t gc_erases = 0;
  uint64_t foreground_gc_stalls = 0; // write requests that waited for a buffer slot
  uint64_t wear_level_migrations = 0;
  uint64_t program_failures = 0;
  uint64_t erase_failures = 0;
  uint64_t checkpoints = 0;
  uint64_t checkpoint_pages = 0;
  uint64_t trims = 0;
  uint64_t destage_programs = 0;
  uint64_t destage_retries = 0;      // destage programs redone on another block
};

struct PowerFailReport {
  uint64_t dirty_pages = 0;       // buffered pages not yet on flash
  uint64_t saved_pages = 0;       // flushed by the capacitors
  uint64_t lost_pages = 0;        // dirty pages that did not make it
  uint64_t torn_pages = 0;        // programs cut by the power loss
  uint64_t flush_ns = 0;          // capacitor flush duration
};

struct RecoveryReport {
  uint64_t step_ns[7] = {};       // by RecoveryStep
  uint64_t checkpoint_pages_read = 0;
  uint64_t pages_scanned = 0;
  uint64_t blocks_scanned = 0;
  uint64_t trims_replayed = 0;
  uint64_t unresolved = 0;        // checkpoint entries with no surviving page
  SimTime ready_at = 0;
};

class Ftl : public FlashListener {
 public:
  Ftl(const Scenario& scenario, FlashArray* flash, EventQueue* events, RecordRing* records);

  void SetClient(FtlClient* client, std::vector<Request>* requests) {
    client_ = client;
    requests_ = requests;
  }

  // Ages the device instantly: sequential fill then uniform overwrites with
  // GC, no simulated time. Takes a checkpoint at the end.
  void Precondition(const PreconditionConfig& config, uint64_t seed);

  // Host path. Slices are reported through FtlClient::OnSliceReady.
  void SubmitRead(uint32_t request_slot, SimTime now);
  void SubmitWrite(uint32_t request_slot, SimTime now);
  // Deallocates logical pages [first, first + count); returns the trim's
  // version number (it orders the trim against writes, also after recovery).
  uint32_t Trim(uint32_t first_lpn, uint32_t count, SimTime now);

  void OnFlashOpDone(uint32_t op_index, SimTime now) override;

  // Fast side (X-SSD): programs one destage page for logical page `lpn`,
  // bypassing the data buffer. The sink hears back with `tag`. False when no
  // plane can take a page right now (retry after a destage completes).
  bool SubmitDestage(uint32_t lpn, uint32_t tag, SimTime now);
  void SetDestageSink(DestageSink* sink) { destage_sink_ = sink; }
  // Power-loss destage (only from DestageSink::OnPowerLoss): programs `lpn`
  // at once and returns its data version, or 0 when no page is left.
  uint32_t PowerLossProgram(uint32_t lpn, SimTime now);

  // Power is cut at `now`: capacitors (if any) finish running programs and
  // flush the buffer within their budget; everything volatile is dropped.
  PowerFailReport PowerFail(SimTime now);
  // Reboots starting at `start`: checkpoint load, OOB scan, trim replay,
  // rebuild. Emits one record per step; returns when the device is ready.
  RecoveryReport Recover(SimTime start);
  // The device is ready again at `now`: background work (GC) may resume.
  void Resume(SimTime now);

  // Fault injection: retires `block` as if a program on it had failed; its
  // valid pages are moved off by GC. False if out of range, already retired,
  // or the current GC victim (which is being emptied anyway).
  bool FailBlock(uint32_t block, SimTime now);

  // Checks the mapping against the flash: every mapped page's OOB names its
  // logical page, valid counts match, free blocks are empty and listed once.
  Status CheckInvariants() const;

  uint32_t LogicalPages() const { return logical_pages_; }
  uint32_t MappedPage(uint32_t lpn) const { return l2p_[lpn]; }
  // Data version currently visible for lpn (buffer first, then flash); 0 if none.
  uint32_t VisibleSeq(uint32_t lpn) const;
  uint32_t SeqCounter() const { return next_seq_; }
  const FtlStats& stats() const { return stats_; }
  const BlockManager& blocks() const { return blocks_; }
  const OobStore& oob() const { return oob_; }
  const DataBuffer& buffer() const { return buffer_; }
  uint32_t WaitingWrites() const { return uint32_t(waiting_writes_.size() - waiting_head_); }
  bool GcActive(uint32_t plane) const { return gc_[plane].active; }
  uint32_t GcVictim(uint32_t plane) const { return gc_[plane].victim; }
  uint64_t MaxEraseCount() const;
  uint64_t MinEraseCount() const;

 private:
  struct PlaneGc {
    bool active = false;
    bool erase_issued = false;
    uint32_t victim = kNoPage;
    uint32_t scan = 0;          // next page of the victim to examine
    uint32_t outstanding = 0;   // copies in flight
    uint32_t copies = 0;
    SimTime started = 0;
    uint32_t wl_victim = kNoPage;  // static wear leveling request
    uint32_t retiring = 0;         // blocks waiting to be drained and retired
  };

  // What the FTL decides about an op; the flash array fills in the rest.
  struct OpRequest {
    FlashOpKind kind;
    OpPurpose purpose;
    OpQueue queue;
    uint32_t ppn, src_ppn, lpn, tag, seq;
    uint32_t request = 0;  // host reads: request id + 1, carried into the op records
  };
  void IssueOp(const OpRequest& request, SimTime now);

  // Host path and flush (ftl.cc).
  bool PlaceWriteSlice(uint32_t request_slot, Request& r, SimTime now);
  void ResumeWaitingWrites(SimTime now);
  void KickFlush(SimTime now);
  // Write slices waiting for a buffer slot (bounded count; used on demand).
  uint32_t WaitingSlices() const;
  uint32_t PickFlushPlane();
  bool IssueFlushProgram(uint32_t slot, SimTime now);
  void OnFlushDone(FlashOp& op, SimTime now);
  void OnDestageDone(FlashOp& op, SimTime now);
  bool IssueDestageProgram(uint32_t lpn, uint32_t tag, uint32_t seq, SimTime now);
  void OnHostReadDone(FlashOp& op, SimTime now);
  void OnRmwReadDone(FlashOp& op, SimTime now);
  void Remap(uint32_t lpn, uint32_t new_ppn);
  void Unmap(uint32_t lpn);
  // A retiring block whose programs have landed and which holds no valid
  // data is retired for good.
  void SettleRetiring(uint32_t block);
  void UpdateUrgency(uint32_t plane);
  bool PlaneAcceptsHostWrite(uint32_t plane) const;

  // Garbage collection and static wear leveling (ftl_gc.cc).
  void MaybeStartGc(uint32_t plane, SimTime now);
  uint32_t PickVictim(uint32_t plane, SimTime now) const;
  void GcPump(uint32_t plane, SimTime now);
  void OnGcOpDone(FlashOp& op, SimTime now);
  void OnEraseDone(FlashOp& op, SimTime now);
  void FinishGc(uint32_t plane, SimTime now);
  void CheckStaticWearLeveling(uint32_t plane, SimTime now);
  void HandleProgramFailure(uint32_t ppn, SimTime now);
  bool MoveForInstantGc(uint32_t plane);  // preconditioning variant; false if nothing to reclaim

  // Checkpoints (ftl_checkpoint.cc).
  void MaybeCheckpoint(SimTime now);
  void OnCheckpointPageDone(SimTime now);
  void CompleteCheckpoint(SimTime now);
  void SnapshotCheckpoint();
  void NoteMappingChange(uint32_t lpn);

  const Scenario& scenario_;
  GeometryConfig geometry_;
  AddressMap address_;
  FlashArray* flash_;
  EventQueue* events_;
  RecordRing* records_;
  FtlClient* client_ = nullptr;
  DestageSink* destage_sink_ = nullptr;
  uint32_t destage_cursor_ = 0;  // destage allocation order, apart from host flushes
  struct DestageRetry {
    uint32_t lpn, tag, seq;
  };
  std::vector<DestageRetry> destage_retry_;  // failed destage programs that found no plane yet
  std::vector<Request>* requests_ = nullptr;

  uint32_t logical_pages_;
  uint32_t sectors_per_page_;
  std::vector<uint32_t> l2p_;
  OobStore oob_;
  BlockManager blocks_;
  DataBuffer buffer_;
  std::vector<PlaneGc> gc_;
  std::vector<uint32_t> plane_order_;  // host allocation order
  uint32_t plane_cursor_ = 0;
  std::vector<uint32_t> flush_ready_;  // slots whose RMW read finished
  std::vector<uint32_t> waiting_writes_;  // request slots waiting for buffer space
  size_t waiting_head_ = 0;
  uint32_t flushes_in_flight_ = 0;
  uint32_t max_flushes_in_flight_;
  uint32_t next_seq_ = 1;
  bool powered_ = true;
  bool on_demand_ = false;  // buffer.flush_policy == on-demand

  // Checkpoint state: the persisted mapping is l2p_ at the last checkpoint,
  // represented lazily: entries changed since are saved in ckpt_l2p_ the first
  // time they change (ckpt_modified_ bit set).
  std::vector<uint32_t> ckpt_l2p_;
  std::vector<uint64_t> ckpt_modified_;
  std::vector<uint64_t> map_page_dirty_;
  uint64_t dirty_map_pages_ = 0;
  std::vector<uint32_t> ckpt_programmed_;
  std::vector<uint32_t> ckpt_erase_count_;
  uint64_t writes_since_checkpoint_ = 0;
  uint32_t checkpoint_pages_pending_ = 0;
  uint32_t checkpoint_pages_written_ = 0;
  bool checkpoint_in_flight_ = false;
  struct TrimEntry {
    uint32_t lpn, count, seq;
  };
  std::vector<TrimEntry> trim_log_;  // persisted trims since the checkpoint

  FtlStats stats_;
};

}  // namespace ssdp
