// FlashArray: the NAND dies and the channel buses that connect them to the
// controller. Each die runs one operation (or one multi-plane batch) at a
// time; each channel bus carries one page transfer at a time. A die reading
// or programming while another die uses the bus is what gives an SSD its
// internal parallelism, and queueing for the bus is what limits it.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/event_queue.h"
#include "engine/event_type.h"
#include "engine/rng.h"
#include "flash/address.h"
#include "flash/flash_op.h"
#include "flash/timing.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"

namespace ssdp {

enum class DieState : uint8_t { kIdle, kReading, kProgramming, kErasing, kTransferring, kWaitingBus };
const char* DieStateName(DieState state);

// Receives completed operations; the FTL implements it.
class FlashListener {
 public:
  virtual ~FlashListener() = default;
  // Called once per op when it finishes (op.failed says whether it worked).
  // The listener owns the op afterwards and must release it.
  virtual void OnFlashOpDone(uint32_t op_index, SimTime now) = 0;
};

struct DieCounters {
  uint64_t busy_ns = 0;  // array busy (read, program, erase)
  uint64_t reads = 0, programs = 0, erases = 0;
};

struct ChannelCounters {
  uint64_t busy_ns = 0;
  uint64_t bytes = 0;
};

class FlashArray {
 public:
  FlashArray(const GeometryConfig& geometry, const FlashConfig& flash, EventQueue* events,
             RecordRing* records, uint64_t seed);

  void SetListener(FlashListener* listener) { listener_ = listener; }

  // Op pool. Allocate, fill, Submit; the listener releases it when done.
  uint32_t AllocOp();
  FlashOp& Op(uint32_t index) { return ops_[index]; }
  void ReleaseOp(uint32_t index);

  // Queues an op on the die owning op.ppn and starts the die if idle.
  void Submit(uint32_t op_index, SimTime now);

  // Event handlers.
  void OnDieDone(uint32_t die, SimTime now);
  void OnChannelDone(uint32_t channel, SimTime now);

  // When set, the die serves GC work before host writes (foreground GC).
  void SetGcUrgent(uint32_t die, bool urgent) { dies_[die].gc_urgent = urgent; }
  // How dies share time between conventional writes and destage programs.
  void SetDestageMode(DestageMode mode) { destage_mode_ = mode; }

  // Power loss: forgets every queued and running op. Returns the ops that were
  // running or queued so the FTL can decide what they leave behind on flash.
  void CollectAndReset(std::vector<uint32_t>* running_programs);

  const FlashTiming& timing() const { return timing_; }
  const AddressMap& address() const { return address_; }
  uint32_t Dies() const { return uint32_t(dies_.size()); }
  uint32_t Channels() const { return uint32_t(channels_.size()); }
  DieState StateOf(uint32_t die) const { return dies_[die].state; }
  uint32_t QueuedOn(uint32_t die, OpQueue q) const { return dies_[die].queue_len[int(q)]; }
  uint32_t QueuedOn(uint32_t die) const;
  bool ChannelBusy(uint32_t channel) const { return channels_[channel].busy; }
  const DieCounters& DieStats(uint32_t die) const { return dies_[die].counters; }
  const ChannelCounters& ChannelStats(uint32_t channel) const { return channels_[channel].counters; }
  uint64_t TotalReads() const { return total_reads_; }
  uint64_t TotalPrograms() const { return total_programs_; }
  uint64_t TotalErases() const { return total_erases_; }

 private:
  static constexpr int kMaxBatch = 8;
  struct Die {
    uint32_t head[kOpQueues];
    uint32_t tail[kOpQueues];
    uint32_t queue_len[kOpQueues];
    uint32_t batch[kMaxBatch];
    uint8_t batch_size = 0;
    uint8_t transferred = 0;  // transfers finished in the current batch
    // Kind of the current batch. Kept here because a read op is handed back to
    // the listener (and may be reused) before the rest of its batch finishes.
    FlashOpKind batch_kind = FlashOpKind::kRead;
    DieState state = DieState::kIdle;
    bool gc_urgent = false;
    bool last_served_gc = false;
    bool last_served_destage = false;
    uint32_t next_waiting = kNoPage;  // channel wait list link
    SimTime busy_since = 0;
    DieCounters counters;
  };
  struct Channel {
    bool busy = false;
    uint32_t current_die = 0;
    uint32_t wait_head = kNoPage;
    uint32_t wait_tail = kNoPage;
    SimTime busy_since = 0;
    ChannelCounters counters;
  };

  void StartNext(uint32_t die, SimTime now);
  int PickQueue(Die& d);
  int PickConventional(Die& d);  // host writes, GC, metadata
  void GatherBatch(uint32_t die_index, Die& d, int queue);
  void StartArray(uint32_t die_index, Die& d, SimTime now);
  void RequestBus(uint32_t die_index, SimTime now);
  void GrantBus(uint32_t channel, uint32_t die_index, SimTime now);
  void FinishOp(uint32_t die_index, uint32_t op_index, SimTime now);
  uint64_t ArrayTime(const FlashOp& op) const;

  GeometryConfig geometry_;
  FlashTiming timing_;
  AddressMap address_;
  double program_fail_p_;
  double erase_fail_p_;
  EventQueue* events_;
  RecordRing* records_;
  FlashListener* listener_ = nullptr;
  Rng fault_rng_;
  std::vector<FlashOp> ops_;
  uint32_t free_op_ = kNoPage;
  std::vector<Die> dies_;
  std::vector<Channel> channels_;
  DestageMode destage_mode_ = DestageMode::kNeutral;
  uint64_t total_reads_ = 0, total_programs_ = 0, total_erases_ = 0;
};

}  // namespace ssdp
