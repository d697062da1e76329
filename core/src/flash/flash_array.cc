#include "flash/flash_array.h"

#include <cassert>

namespace ssdp {

const char* DieStateName(DieState state) {
  switch (state) {
    case DieState::kIdle: return "idle";
    case DieState::kReading: return "read";
    case DieState::kProgramming: return "program";
    case DieState::kErasing: return "erase";
    case DieState::kTransferring: return "transfer";
    case DieState::kWaitingBus: return "wait_bus";
  }
  return "unknown";
}

const char* FlashOpKindName(FlashOpKind kind) {
  switch (kind) {
    case FlashOpKind::kRead: return "read";
    case FlashOpKind::kProgram: return "program";
    case FlashOpKind::kErase: return "erase";
    case FlashOpKind::kCopyback: return "copyback";
  }
  return "unknown";
}

const char* OpPurposeName(OpPurpose purpose) {
  switch (purpose) {
    case OpPurpose::kHostRead: return "host_read";
    case OpPurpose::kRmwRead: return "rmw_read";
    case OpPurpose::kFlush: return "flush";
    case OpPurpose::kGcRead: return "gc_read";
    case OpPurpose::kGcWrite: return "gc_write";
    case OpPurpose::kGcCopy: return "gc_copy";
    case OpPurpose::kGcErase: return "gc_erase";
    case OpPurpose::kCheckpoint: return "checkpoint";
    case OpPurpose::kDestage: return "destage";
  }
  return "unknown";
}

FlashArray::FlashArray(const GeometryConfig& geometry, const FlashConfig& flash, EventQueue* events,
                       RecordRing* records, uint64_t seed)
    : geometry_(geometry),
      timing_(FlashTiming::From(geometry, flash)),
      address_(geometry),
      program_fail_p_(flash.program_fail_probability),
      erase_fail_p_(flash.erase_fail_probability),
      events_(events),
      records_(records),
      fault_rng_(seed, /*stream=*/0xF1A5) {
  dies_.resize(geometry.TotalDies());
  for (auto& d : dies_) {
    for (int q = 0; q < kOpQueues; ++q) {
      d.head[q] = d.tail[q] = kNoPage;
      d.queue_len[q] = 0;
    }
  }
  channels_.resize(geometry.channels);
  ops_.reserve(1024);
}

uint32_t FlashArray::AllocOp() {
  if (free_op_ != kNoPage) {
    uint32_t i = free_op_;
    free_op_ = ops_[i].next;
    return i;
  }
  ops_.push_back(FlashOp{});
  return uint32_t(ops_.size() - 1);
}

void FlashArray::ReleaseOp(uint32_t index) {
  ops_[index].next = free_op_;
  free_op_ = index;
}

uint32_t FlashArray::QueuedOn(uint32_t die) const {
  const Die& d = dies_[die];
  return d.queue_len[0] + d.queue_len[1] + d.queue_len[2] + d.queue_len[3] + d.queue_len[4];
}

void FlashArray::Submit(uint32_t op_index, SimTime now) {
  FlashOp& op = ops_[op_index];
  op.next = kNoPage;
  op.enqueued = now;
  op.failed = false;
  uint32_t die_index = address_.DieOf(op.ppn);
  Die& d = dies_[die_index];
  int q = int(op.queue);
  if (d.tail[q] == kNoPage) {
    d.head[q] = op_index;
  } else {
    ops_[d.tail[q]].next = op_index;
  }
  d.tail[q] = op_index;
  ++d.queue_len[q];
  if (d.state == DieState::kIdle && d.batch_size == 0) StartNext(die_index, now);
}

int FlashArray::PickQueue(Die& d) {
  if (d.head[int(OpQueue::kRead)] != kNoPage) return int(OpQueue::kRead);
  int conventional = PickConventional(d);
  if (d.head[int(OpQueue::kDestage)] == kNoPage) return conventional;
  if (conventional < 0 || conventional == int(OpQueue::kMeta)) return int(OpQueue::kDestage);
  bool destage;
  switch (destage_mode_) {
    case DestageMode::kDestageFirst: destage = true; break;
    case DestageMode::kConventionalFirst: destage = false; break;
    default: destage = !d.last_served_destage; break;  // neutral: take turns
  }
  d.last_served_destage = destage;
  return destage ? int(OpQueue::kDestage) : conventional;
}

int FlashArray::PickConventional(Die& d) {
  bool has_write = d.head[int(OpQueue::kWrite)] != kNoPage;
  bool has_gc = d.head[int(OpQueue::kGc)] != kNoPage;
  if (has_write && has_gc) {
    // Foreground GC preempts host writes; otherwise they alternate so
    // background GC still makes progress under a steady write stream.
    bool gc = d.gc_urgent || !d.last_served_gc;
    d.last_served_gc = gc;
    return gc ? int(OpQueue::kGc) : int(OpQueue::kWrite);
  }
  if (has_gc) {
    d.last_served_gc = true;
    return int(OpQueue::kGc);
  }
  if (has_write) {
    d.last_served_gc = false;
    return int(OpQueue::kWrite);
  }
  if (d.head[int(OpQueue::kMeta)] != kNoPage) return int(OpQueue::kMeta);
  return -1;
}

void FlashArray::GatherBatch(uint32_t die_index, Die& d, int q) {
  uint32_t first = d.head[q];
  FlashOpKind kind = ops_[first].kind;
  d.batch_kind = kind;
  d.batch_size = 0;
  uint32_t plane_mask = 0;
  bool multi_plane = kind != FlashOpKind::kErase && geometry_.planes_per_die > 1;
  uint32_t limit = multi_plane ? geometry_.planes_per_die : 1;
  // Walk the queue from the head; take ops of the same kind on distinct
  // planes (a multi-plane command). Bounded walk keeps this O(1).
  uint32_t prev = kNoPage, cur = first;
  int scanned = 0;
  while (cur != kNoPage && d.batch_size < limit && scanned < 16) {
    FlashOp& op = ops_[cur];
    uint32_t plane_bit = 1u << (address_.PlaneOf(op.ppn) % geometry_.planes_per_die);
    uint32_t next = op.next;
    if (op.kind == kind && !(plane_mask & plane_bit)) {
      plane_mask |= plane_bit;
      d.batch[d.batch_size++] = cur;
      if (prev == kNoPage) {
        d.head[q] = next;
      } else {
        ops_[prev].next = next;
      }
      if (d.tail[q] == cur) d.tail[q] = prev;
      --d.queue_len[q];
    } else {
      prev = cur;
    }
    cur = next;
    ++scanned;
  }
  (void)die_index;
}

uint64_t FlashArray::ArrayTime(const FlashOp& op) const {
  switch (op.kind) {
    case FlashOpKind::kRead: return timing_.command_ns + timing_.read_ns;
    case FlashOpKind::kProgram: return timing_.command_ns + timing_.program_ns;
    case FlashOpKind::kErase: return timing_.command_ns + timing_.erase_ns;
    case FlashOpKind::kCopyback:
      return 2 * timing_.command_ns + timing_.read_ns + timing_.program_ns;
  }
  return 0;
}

void FlashArray::StartNext(uint32_t die_index, SimTime now) {
  Die& d = dies_[die_index];
  int q = PickQueue(d);
  if (q < 0) {
    d.state = DieState::kIdle;
    d.batch_size = 0;
    return;
  }
  GatherBatch(die_index, d, q);
  for (uint8_t i = 0; i < d.batch_size; ++i) {
    FlashOp& op = ops_[d.batch[i]];
    op.started = now;
    records_->Emit(now, RecordKind::kFlashOpStart, uint16_t(die_index), uint32_t(op.kind), op.ppn,
                   uint64_t(op.purpose) | (uint64_t(op.request) << 32));
  }
  d.transferred = 0;
  if (ops_[d.batch[0]].kind == FlashOpKind::kProgram) {
    RequestBus(die_index, now);  // data in first, then program
  } else {
    StartArray(die_index, d, now);
  }
}

void FlashArray::StartArray(uint32_t die_index, Die& d, SimTime now) {
  const FlashOp& op = ops_[d.batch[0]];
  switch (op.kind) {
    case FlashOpKind::kRead: d.state = DieState::kReading; break;
    case FlashOpKind::kErase: d.state = DieState::kErasing; break;
    default: d.state = DieState::kProgramming; break;
  }
  d.busy_since = now;
  events_->Push(now + ArrayTime(op), kEvDieDone, die_index);
}

void FlashArray::RequestBus(uint32_t die_index, SimTime now) {
  Die& d = dies_[die_index];
  uint32_t ch = address_.ChannelOfDie(die_index);
  Channel& c = channels_[ch];
  if (!c.busy) {
    GrantBus(ch, die_index, now);
    return;
  }
  d.state = DieState::kWaitingBus;
  d.next_waiting = kNoPage;
  if (c.wait_tail == kNoPage) {
    c.wait_head = die_index;
  } else {
    dies_[c.wait_tail].next_waiting = die_index;
  }
  c.wait_tail = die_index;
}

void FlashArray::GrantBus(uint32_t channel, uint32_t die_index, SimTime now) {
  Channel& c = channels_[channel];
  c.busy = true;
  c.current_die = die_index;
  c.busy_since = now;
  dies_[die_index].state = DieState::kTransferring;
  events_->Push(now + timing_.page_transfer_ns, kEvChannelDone, channel);
}

void FlashArray::OnChannelDone(uint32_t channel, SimTime now) {
  Channel& c = channels_[channel];
  uint32_t die_index = c.current_die;
  c.busy = false;
  records_->Emit(now, RecordKind::kChannelTransfer, uint16_t(channel), die_index, now - c.busy_since,
                 uint64_t(geometry_.page_bytes) | (uint64_t(dies_[die_index].batch_kind != FlashOpKind::kRead) << 32));
  c.counters.busy_ns += now - c.busy_since;
  c.counters.bytes += geometry_.page_bytes;
  if (c.wait_head != kNoPage) {
    uint32_t next = c.wait_head;
    c.wait_head = dies_[next].next_waiting;
    if (c.wait_head == kNoPage) c.wait_tail = kNoPage;
    GrantBus(channel, next, now);
  }

  Die& d = dies_[die_index];
  uint32_t op_index = d.batch[d.transferred++];
  if (d.batch_kind == FlashOpKind::kRead) {
    FinishOp(die_index, op_index, now);  // the page reached the controller
    if (d.transferred < d.batch_size) {
      RequestBus(die_index, now);
    } else {
      d.batch_size = 0;
      d.state = DieState::kIdle;
      StartNext(die_index, now);
    }
  } else if (d.transferred < d.batch_size) {
    RequestBus(die_index, now);
  } else {
    StartArray(die_index, d, now);
  }
}

void FlashArray::OnDieDone(uint32_t die_index, SimTime now) {
  Die& d = dies_[die_index];
  d.counters.busy_ns += now - d.busy_since;
  FlashOpKind kind = d.batch_kind;
  if (kind == FlashOpKind::kRead) {
    d.transferred = 0;
    RequestBus(die_index, now);  // data out, one page per plane
    return;
  }
  for (uint8_t i = 0; i < d.batch_size; ++i) {
    FlashOp& op = ops_[d.batch[i]];
    op.failed = kind == FlashOpKind::kErase ? fault_rng_.Chance(erase_fail_p_)
                                            : fault_rng_.Chance(program_fail_p_);
  }
  uint8_t n = d.batch_size;
  uint32_t batch[kMaxBatch];
  for (uint8_t i = 0; i < n; ++i) batch[i] = d.batch[i];
  d.batch_size = 0;
  d.state = DieState::kIdle;
  for (uint8_t i = 0; i < n; ++i) FinishOp(die_index, batch[i], now);
  if (d.state == DieState::kIdle && d.batch_size == 0) StartNext(die_index, now);
}

void FlashArray::FinishOp(uint32_t die_index, uint32_t op_index, SimTime now) {
  FlashOp& op = ops_[op_index];
  Die& d = dies_[die_index];
  switch (op.kind) {
    case FlashOpKind::kRead: ++d.counters.reads; ++total_reads_; break;
    case FlashOpKind::kProgram: ++d.counters.programs; ++total_programs_; break;
    case FlashOpKind::kErase: ++d.counters.erases; ++total_erases_; break;
    case FlashOpKind::kCopyback:
      ++d.counters.reads;
      ++d.counters.programs;
      ++total_reads_;
      ++total_programs_;
      break;
  }
  records_->Emit(now, RecordKind::kFlashOpEnd, uint16_t(die_index), uint32_t(op.kind), op.ppn,
                 uint64_t(op.purpose) | (uint64_t(op.failed) << 8) | (uint64_t(op.request) << 32));
  listener_->OnFlashOpDone(op_index, now);
}

void FlashArray::CollectAndReset(std::vector<uint32_t>* running_programs) {
  running_programs->clear();
  for (auto& d : dies_) {
    bool array_busy = d.state == DieState::kProgramming;
    // Reads hand each op to the listener as its data arrives; those already
    // handed over belong to the listener now.
    bool is_read = d.batch_size > 0 && d.batch_kind == FlashOpKind::kRead;
    for (uint8_t i = is_read ? d.transferred : 0; i < d.batch_size; ++i) {
      uint32_t op_index = d.batch[i];
      FlashOpKind kind = ops_[op_index].kind;
      if (array_busy && (kind == FlashOpKind::kProgram || kind == FlashOpKind::kCopyback)) {
        running_programs->push_back(op_index);
      } else {
        ReleaseOp(op_index);
      }
    }
    for (int q = 0; q < kOpQueues; ++q) {
      for (uint32_t cur = d.head[q]; cur != kNoPage;) {
        uint32_t next = ops_[cur].next;
        ReleaseOp(cur);
        cur = next;
      }
      d.head[q] = d.tail[q] = kNoPage;
      d.queue_len[q] = 0;
    }
    d.batch_size = 0;
    d.transferred = 0;
    d.state = DieState::kIdle;
    d.gc_urgent = false;
    d.next_waiting = kNoPage;
  }
  for (auto& c : channels_) {
    c.busy = false;
    c.wait_head = c.wait_tail = kNoPage;
  }
}

}  // namespace ssdp
