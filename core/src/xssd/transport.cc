#include "xssd/transport.h"

#include <algorithm>

#include "engine/event_type.h"

namespace ssdp {

Transport::Transport(const Scenario& scenario, EventQueue* events, RecordRing* records, PcieLink* primary_link)
    : scenario_(scenario),
      events_(events),
      records_(records),
      link_(primary_link),
      scheme_(scenario.device.xssd.transport.replication),
      page_bytes_(scenario.device.geometry.page_bytes) {
  const XssdConfig& x = scenario.device.xssd;
  const CmbRingParams params = CmbRingParams::From(x.cmb);
  uint64_t hops_latency = 0;
  secondaries_.resize(x.transport.secondaries.size());
  for (size_t i = 0; i < secondaries_.size(); ++i) {
    Secondary& s = secondaries_[i];
    s.config = x.transport.secondaries[i];
    s.memory = std::make_unique<DramPort>(x.cmb.BackingMbps());
    s.ring = std::make_unique<CmbRing>(params, s.memory.get());
    s.link_bytes_per_ns = double(s.config.link_mbps) / 1000.0;
    // Chain: the last secondary's counter travels back through every hop.
    hops_latency = scheme_ == ReplicationScheme::kChain ? hops_latency + s.config.link_latency_ns
                                                        : s.config.link_latency_ns;
    uint64_t update_wire = x.transport.update_bytes + link_->overhead_bytes();
    s.up_latency_ns = hops_latency + uint64_t(double(update_wire) / s.link_bytes_per_ns + 0.5);
  }
}

void Transport::SetPrimary(bool primary, uint64_t stream_pos, SimTime now) {
  primary_ = primary;
  for (uint32_t i = 0; i < secondaries_.size(); ++i) {
    if (primary && secondaries_[i].status.link_up) {
      AddSecondary(i, stream_pos, now);
    } else {
      secondaries_[i].status.active = false;
    }
  }
  UpdateLinkShare();
  EmitStatus(0, now);
}

void Transport::AddSecondary(uint32_t i, uint64_t stream_pos, SimTime now) {
  if (i >= secondaries_.size()) return;
  Secondary& s = secondaries_[i];
  if (!s.status.link_up) return;
  // A secondary holds the stream from the moment it joins.
  s.ring->Reset(stream_pos);
  s.status.active = true;
  s.status.join_pos = stream_pos;
  s.drain_pos = stream_pos;
  s.drain_done_at = kNever;
  s.next_look = kNever;
  s.probes.clear();
  s.probe_head = 0;
  UpdateLinkShare();
  EmitStatus(i, now);
}

void Transport::DropSecondary(uint32_t i, SimTime now) {
  if (i >= secondaries_.size()) return;
  secondaries_[i].status.active = false;
  UpdateLinkShare();
  EmitStatus(i, now);
}

void Transport::LinkDown(uint32_t i, SimTime now) {
  Secondary& s = secondaries_[i];
  if (!s.status.link_up) return;
  // The last update that left before the failure is what the shadow keeps.
  uint64_t period = s.config.update_period_ns;
  s.frozen_shadow = std::max(s.status.join_pos, s.ring->CounterAt(now / period * period));
  s.status.link_up = false;
  s.status.link_down_at = now;
  s.probes.clear();
  s.probe_head = 0;
  UpdateLinkShare();
  EmitStatus(i, now);
}

SimTime Transport::SendOver(Secondary& s, uint32_t bytes, SimTime at) {
  uint64_t wire = bytes + link_->overhead_bytes();
  SimTime start = std::max(at, s.link_free_at);
  SimTime end = start + SimTime(double(wire) / s.link_bytes_per_ns + 0.5);
  s.link_free_at = end;
  return end + s.config.link_latency_ns;
}

void Transport::Mirror(uint64_t begin, uint32_t bytes, SimTime at) {
  if (!primary_) return;
  SimTime forwarded = kNever;  // chain: when the previous secondary got it
  for (uint32_t i = 0; i < secondaries_.size(); ++i) {
    Secondary& s = secondaries_[i];
    if (!s.status.active) continue;
    if (!s.status.link_up || at >= s.status.link_down_at) {
      if (scheme_ == ReplicationScheme::kChain) return;  // the chain is cut here
      continue;
    }
    SimTime arrive;
    if (scheme_ == ReplicationScheme::kChain && forwarded != kNever) {
      arrive = SendOver(s, bytes, forwarded);
    } else {
      // One mirror flow per secondary leaves through the primary's PCIe link.
      arrive = SendOver(s, bytes, link_->Transfer(PcieLink::kUpstream, bytes, at));
    }
    forwarded = arrive;
    if (!s.ring->Arrive(begin, bytes, arrive)) {
      // The secondary cannot take the stream any more: it leaves the set,
      // visibly. The primary never counted these bytes for it.
      s.status.active = false;
      secondary_lost_ = true;
      UpdateLinkShare();
      EmitStatus(i, at);
      if (scheme_ == ReplicationScheme::kChain) return;
      continue;
    }
    s.status.mirrored_bytes += bytes;
  }
}

void Transport::Probe(uint64_t end, SimTime at) {
  if (!primary_) return;
  for (Secondary& s : secondaries_)
    if (s.status.active && s.status.link_up) s.probes.push_back({end, at});
}

uint64_t Transport::Shadow(uint32_t i, SimTime t) const {
  const Secondary& s = secondaries_[i];
  if (t < s.up_latency_ns) return s.status.join_pos;
  SimTime sent_by = t - s.up_latency_ns;
  if (!s.status.link_up && sent_by >= s.status.link_down_at) return s.frozen_shadow;
  uint64_t period = s.config.update_period_ns;
  return std::max(s.status.join_pos, s.ring->CounterAt(sent_by / period * period));
}

uint64_t Transport::HostCounter(uint64_t local, SimTime t) const {
  if (!primary_ || scheme_ == ReplicationScheme::kLazy) return local;
  uint64_t v = local;
  int last = -1;
  for (uint32_t i = 0; i < secondaries_.size(); ++i) {
    if (!secondaries_[i].status.active) continue;
    if (scheme_ == ReplicationScheme::kEager) v = std::min(v, Shadow(i, t));
    last = int(i);
  }
  if (scheme_ == ReplicationScheme::kChain && last >= 0) v = std::min(v, Shadow(uint32_t(last), t));
  return v;
}

uint32_t Transport::StatusBits() const {
  uint32_t bits = primary_ ? kXssdStatusPrimary : 0;
  if (secondary_lost_) bits |= kXssdStatusSecondaryLost;
  for (uint32_t i = 0; i < secondaries_.size(); ++i) {
    if (secondaries_[i].status.link_up) continue;
    bits |= kXssdStatusLinkDown | (kXssdStatusLinkBit0 << i);
  }
  return bits;
}

void Transport::Pump(SimTime now) {
  for (uint32_t i = 0; i < secondaries_.size(); ++i) {
    if (!secondaries_[i].status.active) continue;
    PumpDrain(i, now);
    PumpProbes(i, now);
    secondaries_[i].ring->Prune(now > 1'000'000 ? now - 1'000'000 : 0);
  }
}

void Transport::PumpDrain(uint32_t i, SimTime now) {
  Secondary& s = secondaries_[i];
  if (s.drain_done_at != kNever) return;  // a page is draining; its event pumps again
  const uint64_t threshold = scenario_.device.xssd.destage.latency_threshold_ns;
  const uint64_t counter = s.ring->CounterAt(now);
  const uint64_t avail = counter > s.drain_pos ? counter - s.drain_pos : 0;
  SimTime first = s.ring->TimeCounterReaches(s.drain_pos + 1);
  uint32_t payload = 0;
  if (avail >= page_bytes_) {
    payload = page_bytes_;
  } else if (avail > 0 && first != kNever && now >= first + threshold) {
    payload = uint32_t(avail);
  }
  if (payload > 0) {
    s.drain_payload = payload;
    s.drain_done_at = now + SimTime(double(page_bytes_) * 1000.0 / double(s.config.drain_mbps) + 0.5);
    events_->Push(s.drain_done_at, kEvXssdDrain, i);
    return;
  }
  SimTime next = s.ring->TimeCounterReaches(s.drain_pos + page_bytes_);
  if (first != kNever) next = std::min(next, first + threshold);
  if (next != kNever && next > now && next < s.next_look) {
    s.next_look = next;
    events_->Push(next, kEvXssdDrain, i);
  }
}

void Transport::OnDrainEvent(uint32_t i, SimTime now) {
  Secondary& s = secondaries_[i];
  if (s.drain_done_at == now) {
    s.drain_pos += s.drain_payload;
    s.status.drained_bytes += s.drain_payload;
    s.drain_done_at = kNever;
    s.ring->FreeTo(s.drain_pos, now);
  }
  if (now >= s.next_look) s.next_look = kNever;
  if (s.status.active) PumpDrain(i, now);
}

void Transport::PumpProbes(uint32_t i, SimTime now) {
  Secondary& s = secondaries_[i];
  const uint64_t period = s.config.update_period_ns;
  while (s.probe_head < s.probes.size()) {
    const auto& p = s.probes[s.probe_head];
    SimTime landed = s.ring->TimeCounterReaches(p.end);
    if (landed == kNever) break;
    // The first update at or after the landing carries it to the primary.
    SimTime update = (landed + period - 1) / period * period;
    SimTime seen = update + s.up_latency_ns;
    if (seen > now) break;
    uint64_t delay = seen - p.at;
    s.status.repl_delay.Record(delay);
    records_->Emit(seen, RecordKind::kXssdReplDelay, uint16_t(i), 0, delay, p.end);
    ++s.probe_head;
  }
  if (s.probe_head > 1024 && s.probe_head * 2 > s.probes.size()) {
    s.probes.erase(s.probes.begin(), s.probes.begin() + ptrdiff_t(s.probe_head));
    s.probe_head = 0;
  }
}

double Transport::UpdateShare() const {
  if (!primary_) return 0;
  double share = 0;
  uint64_t wire = scenario_.device.xssd.transport.update_bytes + link_->overhead_bytes();
  for (const Secondary& s : secondaries_)
    if (s.status.active && s.status.link_up)
      share += double(wire) / (double(s.config.update_period_ns) * link_->bytes_per_ns());
  return share;
}

void Transport::UpdateLinkShare() { link_->SetReservedShare(PcieLink::kDownstream, UpdateShare()); }

void Transport::PrimaryPowerLoss(SimTime now) {
  // Mirror traffic the primary had not sent yet is gone; each secondary keeps
  // what reached its ring.
  for (Secondary& s : secondaries_) {
    if (!s.status.active) continue;
    s.ring->Crash(now);
    s.link_free_at = 0;
    s.probes.clear();
    s.probe_head = 0;
    s.drain_done_at = kNever;
    s.next_look = kNever;
    s.drain_pos = std::min(s.drain_pos, s.ring->CounterAt(now));
  }
}

void Transport::Restart(uint64_t stream_pos, SimTime now) {
  for (uint32_t i = 0; i < secondaries_.size(); ++i)
    if (secondaries_[i].status.active) AddSecondary(i, stream_pos, now);
}

void Transport::EmitShadows(SimTime now) {
  if (!primary_) return;
  for (uint32_t i = 0; i < secondaries_.size(); ++i) {
    const Secondary& s = secondaries_[i];
    if (!s.status.active) continue;
    records_->Emit(now, RecordKind::kXssdShadow, uint16_t(i), 0, Shadow(i, now), s.ring->CounterAt(now));
  }
}

void Transport::EmitStatus(uint32_t secondary, SimTime now) {
  records_->Emit(now, RecordKind::kXssdStatus, uint16_t(secondary), StatusBits(), primary_ ? 1 : 0, secondary);
}

}  // namespace ssdp
