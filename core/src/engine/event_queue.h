// EventQueue: the discrete-event core. A 4-ary min-heap of small POD events,
// ordered by (time, insertion order) so that simultaneous events run in the
// order they were scheduled, on every platform. Storage grows to the peak
// number of pending events and is then reused: no allocation per event in
// steady state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdp {

using SimTime = uint64_t;  // nanoseconds since the start of the run
inline constexpr SimTime kNever = ~SimTime(0);

struct Event {
  SimTime time;
  uint64_t order;  // tie-breaker: insertion sequence
  uint32_t type;   // meaning owned by the dispatcher
  uint32_t arg;    // index of the component or object concerned
};

class EventQueue {
 public:
  EventQueue() { heap_.reserve(1024); }

  // Schedules an event; time must not be in the past of the last popped event.
  void Push(SimTime time, uint32_t type, uint32_t arg) {
    heap_.push_back(Event{time, next_order_++, type, arg});
    SiftUp(heap_.size() - 1);
  }

  bool Empty() const { return heap_.empty(); }
  size_t Size() const { return heap_.size(); }
  // Time of the earliest pending event, or kNever.
  SimTime NextTime() const { return heap_.empty() ? kNever : heap_[0].time; }

  // Removes and returns the earliest event. Precondition: !Empty().
  Event Pop() {
    Event top = heap_[0];
    Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) SiftDown(last);
    return top;
  }

  // Drops every pending event (power failure: volatile work is gone).
  void Clear() { heap_.clear(); }

 private:
  static bool Before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.order < b.order);
  }
  void SiftUp(size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      size_t parent = (i - 1) >> 2;
      if (!Before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  // Places e, which replaces the root, where it belongs.
  void SiftDown(const Event& e) {
    size_t n = heap_.size(), i = 0;
    for (;;) {
      size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      size_t end = first + 4 < n ? first + 4 : n;
      for (size_t c = first + 1; c < end; ++c)
        if (Before(heap_[c], heap_[best])) best = c;
      if (!Before(heap_[best], e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  uint64_t next_order_ = 0;
};

}  // namespace ssdp
