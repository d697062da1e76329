#include <gtest/gtest.h>

#include <vector>

#include "engine/event_queue.h"
#include "engine/rng.h"

namespace ssdp {
namespace {

TEST(EventQueueTest, PopsInTimeOrderAndSimultaneousEventsInInsertionOrder) {
  EventQueue q;
  Rng rng(7);
  std::vector<std::pair<SimTime, uint32_t>> pushed;
  for (uint32_t i = 0; i < 10000; ++i) {
    SimTime t = rng.Below(100);  // many ties
    q.Push(t, 0, i);
    pushed.push_back({t, i});
  }
  SimTime last_time = 0;
  uint32_t last_arg = 0;
  bool first = true;
  while (!q.Empty()) {
    Event e = q.Pop();
    ASSERT_GE(e.time, last_time);
    if (!first && e.time == last_time) ASSERT_GT(e.arg, last_arg) << "ties must keep insertion order";
    last_time = e.time;
    last_arg = e.arg;
    first = false;
  }
}

TEST(EventQueueTest, InterleavedPushPopStaysOrdered) {
  EventQueue q;
  Rng rng(3);
  SimTime now = 0;
  q.Push(0, 0, 0);
  for (int i = 0; i < 100000 && !q.Empty(); ++i) {
    Event e = q.Pop();
    ASSERT_GE(e.time, now);
    now = e.time;
    for (int k = 0; k < 2 && q.Size() < 64; ++k) q.Push(now + rng.Below(1000), 0, 0);
  }
}

TEST(RngTest, SameSeedSameStreamGivesSameSequence) {
  Rng a(42, 5), b(42, 5), c(42, 6);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    uint64_t x = a.Next();
    ASSERT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs) << "different streams must differ";
}

TEST(RngTest, BelowAndUniformStayInRange) {
  Rng r(1);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    ASSERT_LT(r.Below(17), 17u);
    double u = r.Uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 100000, 0.5, 0.01);
}

TEST(RngTest, ExponentialHasTheRequestedMean) {
  Rng r(9);
  double sum = 0;
  for (int i = 0; i < 200000; ++i) sum += r.Exponential(250.0);
  EXPECT_NEAR(sum / 200000, 250.0, 250.0 * 0.01);
}

}  // namespace
}  // namespace ssdp
