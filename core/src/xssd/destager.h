// Destager: moves the fast side's ring to a ring of logical pages on the
// conventional side, one flash page at a time, in stream order.
//
// A page is cut when a page's worth of persisted (counted) data waits, or,
// when less is there, once its oldest byte has waited latency_threshold_ns;
// the rest of that page is filler. Pages are programmed through the FTL on
// the destage queue of each die, whose priority against conventional writes
// is the scenario's destage priority. Ring space is freed in stream order
// once the pages covering it are on flash. A failed program (bad block) is
// retried on another block by the FTL.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/event_queue.h"
#include "ftl/ftl.h"
#include "obs/record_ring.h"
#include "scenario/scenario.h"
#include "xssd/cmb_ring.h"

namespace ssdp {

// One logical page of the destage ring: which stream bytes it holds.
struct DestageSlot {
  uint64_t begin = 0;    // stream position of its first byte
  uint32_t payload = 0;  // bytes of stream data; the rest of the page is filler
  uint32_t seq = 0;      // data version the FTL gave it (0: never written)
};

struct DestageStats {
  uint64_t pages = 0;
  uint64_t full_pages = 0;
  uint64_t filler_pages = 0;   // pages cut early by the latency threshold
  uint64_t filler_bytes = 0;
  uint64_t payload_bytes = 0;
  uint64_t retries = 0;        // programs redone after a bad block
  uint64_t busy_waits = 0;     // no plane could take a page at once
  uint64_t page_ns_total = 0;  // issue to programmed, summed
};

class Destager {
 public:
  // `memory` is the ring's backing memory: reading a page out of it costs
  // its bandwidth.
  Destager(const Scenario& scenario, Ftl* ftl, CmbRing* ring, DramPort* memory, EventQueue* events,
           RecordRing* records, uint32_t first_lpn);

  // Looks at the ring now: cuts and issues pages, and schedules the next look.
  void Pump(SimTime now);
  // The FTL programmed slot `tag`.
  void OnProgrammed(uint32_t tag, uint32_t seq, SimTime now);
  // The program of slot `tag` failed on a bad block and is redone elsewhere.
  void OnRetried(uint32_t tag);
  // Positions the destage may not pass (an x_alloc area not yet freed).
  void SetLimit(uint64_t limit) { limit_ = limit; }

  // The kEvXssdDestage event fired.
  void OnLook(SimTime now);
  // Power loss: destages every persisted byte up to `counter` at once on
  // capacitor power, at most `max_pages` pages (*pages says how many).
  // Returns the stream position now durable.
  uint64_t DestageAllOnPowerLoss(uint64_t counter, uint64_t max_pages, SimTime now, uint64_t* pages);
  // After a reboot: which slots survived, and the stream position up to
  // which the destaged ring is readable without a hole.
  uint64_t VerifyAfterReboot(uint32_t* pages_checked) const;
  // Restarts after a reboot with the stream continuing at `pos`.
  void Restart(uint64_t pos);

  // Stream position up to which every byte is on flash.
  uint64_t DurablePos() const { return durable_; }
  // Oldest stream position still readable on the conventional side.
  uint64_t OldestReadable() const;
  uint64_t CutPos() const { return cut_; }
  uint32_t InFlight() const { return in_flight_; }
  uint32_t FirstLpn() const { return first_lpn_; }
  uint64_t RingPages() const { return ring_pages_; }
  uint64_t SlotsUsed() const { return next_slot_; }
  const DestageSlot& Slot(uint64_t index) const { return slots_[index % ring_pages_]; }
  // Logical pages holding stream bytes [begin, end): the first and the count.
  void LpnsFor(uint64_t begin, uint64_t end, uint64_t* first_slot, uint64_t* count) const;
  uint32_t LpnOfSlot(uint64_t slot) const { return first_lpn_ + uint32_t(slot % ring_pages_); }
  const DestageStats& stats() const { return stats_; }

 private:
  struct Pending {
    uint64_t slot;
    uint64_t end;     // stream position after its payload
    SimTime issued;
    uint32_t retries;
    bool done;
  };
  // The in-flight page with this FTL tag, or null.
  Pending* FindInFlight(uint32_t tag);
  bool CutPage(SimTime now);
  // Records a page written on capacitor power: its issue (unless it had one
  // before the loss) and its completion.
  void EmitPowerLossPage(uint64_t slot, bool issue_record, SimTime now);
  void Issue(size_t pending_index, SimTime now);

  Ftl* ftl_;
  CmbRing* ring_;
  DramPort* memory_;
  EventQueue* events_;
  RecordRing* records_;
  uint32_t first_lpn_;
  uint64_t ring_pages_;
  uint32_t page_bytes_;
  uint64_t threshold_ns_;
  uint32_t max_in_flight_;
  std::vector<DestageSlot> slots_;
  std::vector<Pending> pending_;  // in stream order, from the oldest not yet freed
  size_t pending_head_ = 0;
  size_t unissued_ = 0;           // pending entries from here on wait for a plane
  uint64_t next_slot_ = 0;
  uint64_t cut_ = 0;              // stream position up to which pages are cut
  uint64_t durable_ = 0;          // ... and on flash
  uint64_t limit_ = ~uint64_t(0);
  uint32_t in_flight_ = 0;
  SimTime next_look_ = kNever;    // a kEvXssdDestage event is scheduled for then
  DestageStats stats_;
};

}  // namespace ssdp
