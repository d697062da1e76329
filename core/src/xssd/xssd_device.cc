#include "xssd/xssd_device.h"

#include <algorithm>

#include "engine/event_type.h"

namespace ssdp {
namespace {
// Counter history kept behind the clock: shadow counters look back
// microseconds, the crash protocol not at all.
constexpr SimTime kHistoryNs = 1'000'000;
}  // namespace

XssdDevice::XssdDevice(const Scenario& scenario, EventQueue* events, RecordRing* records, Ftl* ftl, PcieLink* link,
                       DramPort* shared_dram, const FlashTiming& timing, uint32_t first_lpn)
    : scenario_(scenario),
      config_(scenario.device.xssd),
      events_(events),
      records_(records),
      ftl_(ftl),
      link_(link),
      timing_(timing),
      reorder_rng_(scenario.seed, 0x0C3B) {
  if (config_.cmb.backing == CmbBacking::kDram && shared_dram != nullptr) {
    memory_ = shared_dram;  // the data buffer's DRAM: conventional DMA competes
  } else {
    own_memory_ = std::make_unique<DramPort>(config_.cmb.BackingMbps());
    memory_ = own_memory_.get();
  }
  ring_ = std::make_unique<CmbRing>(CmbRingParams::From(config_.cmb), memory_);
  destager_ = std::make_unique<Destager>(scenario, ftl, ring_.get(), memory_, events, records, first_lpn);
  transport_ = std::make_unique<Transport>(scenario, events, records, link);
  ftl_->SetDestageSink(this);
}

void XssdDevice::Start(SimTime now) {
  if (config_.transport.role == TransportRole::kPrimary) transport_->SetPrimary(true, 0, now);
  for (uint32_t i = 0; i < config_.transport.commands.size(); ++i)
    events_->Push(std::max(now, config_.transport.commands[i].at_ns), kEvXssdAdmin, i);
  for (uint32_t i = 0; i < config_.transport.secondaries.size(); ++i)
    if (config_.transport.secondaries[i].fail_at_ns > 0)
      events_->Push(config_.transport.secondaries[i].fail_at_ns, kEvXssdLinkDown, i);
}

SimTime XssdDevice::HostWrite(uint64_t begin, uint64_t bytes, SimTime cpu_at) {
  const CmbHostConfig& h = config_.host;
  const bool wc = h.write_mode == CmbWriteMode::kWriteCombining;
  const uint32_t tlp_max = wc ? h.chunk_bytes : std::min(h.chunk_bytes, h.uc_store_bytes);
  const uint32_t window = std::max<uint32_t>(1, config_.cmb.reorder_window);
  const bool had_overrun = ring_->Overrun();
  struct Tlp {
    uint64_t begin;
    uint32_t bytes;
    SimTime issued;
  };
  Tlp batch[64];
  uint32_t n = 0;
  SimTime cpu = cpu_at, last_arrival = cpu_at;
  auto send = [&]() {
    // Within a window, TLPs may reach the device in any order: the payloads
    // are shuffled over the issue slots.
    for (uint32_t k = n; k > 1; --k) {
      uint32_t j = uint32_t(reorder_rng_.Below(k));
      std::swap(batch[k - 1].begin, batch[j].begin);
      std::swap(batch[k - 1].bytes, batch[j].bytes);
    }
    for (uint32_t k = 0; k < n; ++k) {
      SimTime arrive = link_->Transfer(PcieLink::kDownstream, batch[k].bytes, batch[k].issued);
      ++tlps_;
      wire_bytes_ += batch[k].bytes + link_->overhead_bytes();
      last_arrival = std::max(last_arrival, arrive);
      if (ring_->Arrive(batch[k].begin, batch[k].bytes, arrive)) transport_->Mirror(batch[k].begin, batch[k].bytes, arrive);
    }
    n = 0;
  };
  const uint64_t end = begin + bytes;
  for (uint64_t pos = begin; pos < end;) {
    uint32_t chunk = uint32_t(std::min<uint64_t>(h.chunk_bytes, end - pos));
    for (uint32_t off = 0; off < chunk;) {
      uint32_t part = wc ? chunk : std::min(tlp_max, chunk - off);
      cpu += wc ? h.wc_chunk_ns : h.uc_store_ns;
      batch[n++] = Tlp{pos + off, part, cpu};
      if (n == window) send();
      off += part;
    }
    pos += chunk;
  }
  if (n > 0) send();
  if (!had_overrun && ring_->Overrun())
    records_->Emit(cpu_at, RecordKind::kXssdStatus, 0, StatusBits(), transport_->IsPrimary() ? 1 : 0, 0);
  transport_->Probe(end, last_arrival);
  transport_->Pump(cpu_at);
  destager_->Pump(cpu_at);
  // Keep the counter history short however rarely the perf tick comes.
  ring_->Prune(cpu_at > kHistoryNs ? cpu_at - kHistoryNs : 0);
  EmitRing(cpu_at);
  return cpu;
}

XssdDevice::Read XssdDevice::ReadCounter(SimTime at, uint32_t thread) {
  // A non-posted read may not pass the posted writes before it on the link.
  SimTime request = link_->Transfer(PcieLink::kDownstream, 0, at);
  uint64_t value = transport_->HostCounter(ring_->CounterAt(request), request);
  SimTime done = link_->Transfer(PcieLink::kUpstream, 8, request);
  ++counter_reads_;
  records_->Emit(done, RecordKind::kXssdCredit, uint16_t(thread), 0, value, host_tail_);
  return Read{value, done};
}

XssdDevice::Read XssdDevice::ReadStatus(SimTime at) {
  SimTime request = link_->Transfer(PcieLink::kDownstream, 0, at);
  SimTime done = link_->Transfer(PcieLink::kUpstream, 4, request);
  return Read{StatusBits(), done};
}

XssdDevice::Read XssdDevice::ReadDestaged(SimTime at) {
  SimTime request = link_->Transfer(PcieLink::kDownstream, 0, at);
  SimTime done = link_->Transfer(PcieLink::kUpstream, 8, request);
  return Read{destager_->DurablePos(), done};
}

uint32_t XssdDevice::StatusBits() const {
  return transport_->StatusBits() | (ring_->Overrun() ? kXssdStatusOverrun : 0);
}

uint64_t XssdDevice::Alloc(uint64_t bytes) {
  uint64_t begin = host_tail_;
  host_tail_ += bytes;
  areas_.push_back(Area{begin, begin + bytes, false});
  destager_->SetLimit(areas_.front().begin);
  return begin;
}

void XssdDevice::Free(uint64_t begin, SimTime now) {
  for (Area& a : areas_)
    if (a.begin == begin) a.freed = true;
  size_t k = 0;
  while (k < areas_.size() && areas_[k].freed) ++k;
  areas_.erase(areas_.begin(), areas_.begin() + ptrdiff_t(k));
  destager_->SetLimit(areas_.empty() ? ~uint64_t(0) : areas_.front().begin);
  destager_->Pump(now);
}

void XssdDevice::OnDrainEvent(uint32_t secondary, SimTime now) { transport_->OnDrainEvent(secondary, now); }

void XssdDevice::OnAdminCommand(uint32_t index, SimTime now) {
  if (!powered_) return;
  const TransportCommand& c = config_.transport.commands[index];
  const uint64_t pos = ring_->ArrivedEnd();
  switch (c.kind) {
    case TransportCommandKind::kToStandalone: transport_->SetPrimary(false, pos, now); break;
    case TransportCommandKind::kToPrimary: transport_->SetPrimary(true, pos, now); break;
    case TransportCommandKind::kDropSecondary: transport_->DropSecondary(c.secondary, now); break;
    case TransportCommandKind::kAddSecondary: transport_->AddSecondary(c.secondary, pos, now); break;
  }
}

void XssdDevice::OnLinkDown(uint32_t secondary, SimTime now) { transport_->LinkDown(secondary, now); }

void XssdDevice::OnPerfTick(SimTime now) {
  if (!powered_) return;
  EmitRing(now);
  transport_->EmitShadows(now);
  transport_->Pump(now);
  ring_->Prune(now > kHistoryNs ? now - kHistoryNs : 0);
}

void XssdDevice::EmitRing(SimTime now) {
  records_->Emit(now, RecordKind::kXssdRing, 0, uint32_t(ring_->QueuedAt(now)), ring_->CounterAt(now), host_tail_);
  for (uint32_t i = 0; i < transport_->Secondaries(); ++i) {
    if (!transport_->Status(i).active) continue;
    const CmbRing& r = transport_->Ring(i);
    records_->Emit(now, RecordKind::kXssdRing, uint16_t(i + 1), uint32_t(r.QueuedAt(now)), r.CounterAt(now),
                   r.ArrivedEnd());
  }
}

void XssdDevice::OnDestageProgrammed(uint32_t tag, uint32_t lpn, uint32_t seq, SimTime now) {
  (void)lpn;
  destager_->OnProgrammed(tag, seq, now);
  if (!powered_) return;
  ring_->FreeTo(destager_->DurablePos(), now);
  destager_->Pump(now);
}

void XssdDevice::OnPowerLoss(SimTime now) {
  powered_ = false;
  crash_ = XssdCrashReport{};
  crash_.happened = true;
  crash_.at = now;
  crash_.host_acknowledged = host_acknowledged_;
  crash_.queued_lost = ring_->QueuedAt(now);
  crash_.beyond_gap = ring_->LandedBeyondGapAt(now);
  records_->Emit(now, RecordKind::kXssdCrash, 0, uint32_t(XssdCrashStep::kPowerLoss), host_acknowledged_,
                 crash_.queued_lost);
  // Only the contiguous prefix survives: the ring stops at its first gap.
  const uint64_t counter = ring_->Crash(now);
  crash_.counter_at_loss = counter;
  // The capacitors destage the whole ring, as many pages as their energy buys.
  const uint64_t planes = scenario_.device.geometry.TotalPlanes();
  const uint64_t round = timing_.command_ns + timing_.program_ns;
  const uint64_t rounds = config_.cmb.capacitor_budget_ns / std::max<uint64_t>(1, round);
  // Programs that were running finished on capacitor power too.
  const uint64_t before = std::min(durable_before_loss_, destager_->DurablePos());
  uint64_t pages = 0;
  uint64_t durable = destager_->DestageAllOnPowerLoss(counter, rounds * planes, now, &pages);
  crash_.capacitor_pages = pages;
  crash_.destaged_on_capacitors = durable - std::min(durable, before);
  uint64_t array_ns = (pages + planes - 1) / planes * round;
  uint64_t bus_ns = (pages + scenario_.device.geometry.channels - 1) / scenario_.device.geometry.channels *
                    timing_.page_transfer_ns;
  crash_.capacitor_ns = std::max(array_ns, bus_ns);
  records_->Emit(now, RecordKind::kXssdCrash, 0, uint32_t(XssdCrashStep::kDestageRing), durable,
                 crash_.destaged_on_capacitors);
  records_->Emit(now + crash_.capacitor_ns, RecordKind::kXssdCrash, 0, uint32_t(XssdCrashStep::kStopAtGap), counter,
                 crash_.beyond_gap);
  transport_->PrimaryPowerLoss(now);
  areas_.clear();
  destager_->SetLimit(~uint64_t(0));
}

void XssdDevice::AfterReboot(SimTime ready) {
  uint32_t checked = 0;
  const uint64_t end = destager_->VerifyAfterReboot(&checked);
  crash_.durable_after_reboot = end;
  crash_.pages_checked = checked;
  crash_.lost_acknowledged = crash_.host_acknowledged > end ? crash_.host_acknowledged - end : 0;
  records_->Emit(ready, RecordKind::kXssdCrash, 0, uint32_t(XssdCrashStep::kReboot), end, checked);
  records_->Emit(ready, RecordKind::kXssdCrash, 0, uint32_t(XssdCrashStep::kTailVisible), end,
                 end - std::min(end, crash_.host_acknowledged));
  // The stream goes on where the readable tail ends.
  ring_->Reset(end);
  destager_->Restart(end);
  host_tail_ = end;
  host_acknowledged_ = end;
  transport_->Restart(end, ready);
  powered_ = true;
}

}  // namespace ssdp
