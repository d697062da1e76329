// Scenario: the complete, validated description of one simulation run.
//
// A scenario is loaded from JSON (see docs/scenario-format.md and
// scenarios/schema.json). Every field below names its JSON key, its unit and
// its allowed range; the loader rejects anything outside those ranges with a
// message naming the JSON path. Defaults are what an unset key means.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdp {

enum class CellType : uint8_t { kSLC, kMLC, kTLC, kQLC };
enum class AllocationOrder : uint8_t { kChannelFirst, kWayFirst, kPlaneFirst };
enum class GcPolicy : uint8_t { kGreedy, kCostBenefit };
enum class AccessPattern : uint8_t { kSequential, kUniform, kZipf, kHotCold };
enum class CompletionMode : uint8_t { kInterrupt, kPolled };
enum class FlushPolicy : uint8_t { kEager, kOnDemand };

// JSON: device.geometry
struct GeometryConfig {
  uint32_t channels = 2;           // "channels": 1..64
  uint32_t chips_per_channel = 2;  // "chips_per_channel": 1..16 (ways)
  uint32_t dies_per_chip = 1;      // "dies_per_chip": 1..8
  uint32_t planes_per_die = 2;     // "planes_per_die": 1..8
  uint32_t blocks_per_plane = 64;  // "blocks_per_plane": 8..65536
  uint32_t pages_per_block = 64;   // "pages_per_block": 4..4096
  uint32_t page_bytes = 8192;      // "page_bytes": one of 2048,4096,8192,16384,32768
  uint32_t oob_bytes = 448;        // "oob_bytes": 16..4096 (OOB-only reads in the recovery scan)

  uint32_t DiesPerChannel() const { return chips_per_channel * dies_per_chip; }
  uint32_t TotalDies() const { return channels * DiesPerChannel(); }
  uint32_t TotalPlanes() const { return TotalDies() * planes_per_die; }
  uint64_t TotalBlocks() const { return uint64_t(TotalPlanes()) * blocks_per_plane; }
  uint64_t TotalPages() const { return TotalBlocks() * pages_per_block; }
};

// JSON: device.flash. A timing of 0 means "the cell type's default"
// (see CellTimings in flash/timing.h).
struct FlashConfig {
  CellType cell_type = CellType::kMLC;  // "cell_type": "SLC"|"MLC"|"TLC"|"QLC"
  uint64_t read_ns = 0;                 // "read_ns": 0 or 1000..10,000,000
  uint64_t program_ns = 0;              // "program_ns": 0 or 10,000..100,000,000
  uint64_t erase_ns = 0;                // "erase_ns": 0 or 100,000..1,000,000,000
  uint32_t channel_mtps = 400;          // "channel_mtps": 10..10,000 mega-transfers/s
  uint32_t bus_width_bits = 8;          // "bus_width_bits": 8 or 16
  uint64_t command_overhead_ns = 1000;  // "command_overhead_ns": 0..1,000,000 per flash op
  uint32_t endurance_cycles = 3000;     // "endurance_cycles": 0 (unlimited) or 10..10,000,000
  double factory_bad_block_fraction = 0;  // "factory_bad_block_fraction": 0..0.2
  double program_fail_probability = 0;    // "program_fail_probability": 0..0.01 per program
  double erase_fail_probability = 0;      // "erase_fail_probability": 0..0.01 per erase
};

// JSON: device.ftl.buffer
struct BufferConfig {
  uint64_t capacity_bytes = 8 << 20;  // "capacity_bytes": 1 .. 4 GiB, a multiple of page_bytes
  FlushPolicy flush_policy = FlushPolicy::kEager;  // "flush_policy": "eager" (flush dirty pages as soon
                                    // as the flash can take them) | "on-demand" (flush the oldest dirty
                                    // page only when a write needs its slot: the write waits for it)
  bool power_loss_protection = true;  // "power_loss_protection": bool
  uint64_t capacitor_budget_ns = 50'000'000;  // "capacitor_budget_ns": 0..10,000,000,000
  uint64_t access_ns = 200;           // "access_ns": 0..100,000 added to reads served from the buffer
};

// JSON: device.ftl.gc. Watermarks count free blocks per plane.
struct GcConfig {
  bool enabled = true;                   // "enabled"
  GcPolicy policy = GcPolicy::kGreedy;   // "policy": "greedy"|"cost-benefit"
  uint32_t background_free_blocks = 6;   // "background_free_blocks": 2..1024, > foreground
  uint32_t foreground_free_blocks = 3;   // "foreground_free_blocks": 1..1023
  bool copyback = true;                  // "copyback": copy inside the die, no bus transfer
};

// JSON: device.ftl.wear_leveling
struct WearLevelingConfig {
  bool dynamic = true;                 // "dynamic": allocate the least-worn free block
  bool static_enabled = true;          // "static": migrate cold data
  uint32_t static_threshold_erases = 64;  // "static_threshold_erases": 2..1,000,000
};

// JSON: device.ftl.checkpoint
struct CheckpointConfig {
  bool enabled = true;                    // "enabled"
  uint64_t interval_page_writes = 65536;  // "interval_page_writes": 64..1e12
};

// JSON: device.ftl
struct FtlConfig {
  double overprovisioning_fraction = 0.07;  // "overprovisioning_fraction": 0.01..0.5
  AllocationOrder allocation_order = AllocationOrder::kChannelFirst;
  // "allocation_order": "channel-first"|"way-first"|"plane-first"
  uint64_t translation_ns = 1000;  // "translation_ns": 0..1,000,000 FTL work per command
  BufferConfig buffer;             // "buffer"
  GcConfig gc;                     // "gc"
  WearLevelingConfig wear_leveling;  // "wear_leveling"
  CheckpointConfig checkpoint;     // "checkpoint"
};

// JSON: device.host_interface.pcie
struct PcieConfig {
  uint32_t generation = 3;            // "generation": 1..5
  uint32_t lanes = 4;                 // "lanes": 1,2,4,8,16
  uint32_t max_payload_bytes = 256;   // "max_payload_bytes": 128,256,512,1024,2048,4096
  uint32_t tlp_overhead_bytes = 24;   // "tlp_overhead_bytes": 0..128
  uint64_t latency_ns = 500;          // "latency_ns": 0..100,000 one-way
};

// JSON: device.host_interface.nvme
struct NvmeConfig {
  CompletionMode completion = CompletionMode::kInterrupt;  // "completion": "interrupt"|"polled"
  uint64_t interrupt_ns = 5000;  // "interrupt_ns": 0..1,000,000 (interrupt delivery + handler)
  uint64_t poll_ns = 500;        // "poll_ns": 0..1,000,000 (fixed delay until the poll sees a CQE)
  uint32_t max_queue_depth = 1024;  // "max_queue_depth": 1..65535, cap for every flow's depth
};

// JSON: device.host_interface
struct HostInterfaceConfig {
  PcieConfig pcie;
  NvmeConfig nvme;
};

// The instrumented SSD ("It Takes Two"): a device-side cache of performance
// event records in controller DRAM, freezing triggers and vendor commands.
enum class TriggerKind : uint8_t { kNone, kThreshold, kContextual };
enum class TriggerStage : uint8_t { kTotal, kFetch, kService, kCompletion };
enum class InstrCommandKind : uint8_t { kTransfer, kFreeze, kResume, kClear, kSample, kEnablePoint, kDisablePoint };

// JSON: device.instrumentation.trigger
struct InstrumentationTrigger {
  TriggerKind kind = TriggerKind::kNone;  // "kind": "none"|"threshold"|"contextual"
  TriggerStage stage = TriggerStage::kTotal;
  // "stage": "total" (submission to completion) | "fetch" (to the command being translated) |
  //          "service" (translated to the last data byte moved: buffer, flash, DMA) | "completion"
  uint64_t threshold_ns = 5'000'000;  // "threshold_ns": 1..1e12, the stage took longer than this
  uint32_t min_outstanding = 8;       // "min_outstanding": 0..65535; contextual only: and at least this
                                      // many commands were in flight in the device
  uint64_t post_trigger_ns = 0;       // "post_trigger_ns": 0..1e12 keep recording this long, then freeze
};

// JSON: device.instrumentation.commands[i] (vendor admin commands, issued at a time)
struct InstrumentationCommand {
  uint64_t at_ns = 0;                 // "at_ns": 0..1e15, ascending
  InstrCommandKind kind = InstrCommandKind::kTransfer;
  // "command": "transfer" (copy the cache to the host over PCIe) | "freeze" | "resume" | "clear" |
  //            "sample" (trace 1 request in "one_in") | "enable_point" | "disable_point" ("point": a kind)
  uint32_t one_in = 1;                // "one_in": 1..1,000,000 (sample only)
  uint32_t point = 0;                 // "point": record kind name (enable_point / disable_point only)
};

// JSON: device.instrumentation
struct InstrumentationConfig {
  bool enabled = false;               // "enabled"
  uint64_t cache_bytes = 64ull << 20; // "cache_bytes": 64 KiB .. 4 GiB of controller DRAM
  uint32_t record_bytes = 32;         // "record_bytes": 16..256, one record's size in device DRAM
  bool dram_contention = false;       // "dram_contention": records and buffer traffic share the DRAM port
  uint64_t dram_mbps = 3200;          // "dram_mbps": 100..100,000, the DRAM port's bandwidth (MB/s)
  InstrumentationTrigger trigger;     // "trigger"
  std::vector<InstrumentationCommand> commands;  // "commands": 0..64 entries
};


// The X-SSD / VILLARS fast side: a byte-addressable CMB ring next to the
// conventional device, destaged to a ring of logical pages, optionally
// replicated to secondaries over NTB links.
enum class CmbBacking : uint8_t { kSram, kDram };
enum class CmbWriteMode : uint8_t { kWriteCombining, kUncached };
enum class DestagePriority : uint8_t { kNeutral, kDestage, kConventional };
enum class TransportRole : uint8_t { kStandalone, kPrimary };
enum class ReplicationScheme : uint8_t { kEager, kLazy, kChain };
enum class TransportCommandKind : uint8_t { kToStandalone, kToPrimary, kDropSecondary, kAddSecondary };

// JSON: device.xssd.cmb
struct CmbConfig {
  CmbBacking backing = CmbBacking::kSram;  // "backing": "sram" (128 KiB, 4 GB/s) | "dram" (128 MiB,
                                           // 0.8 GB/s sustained of its 2 GB/s path, shared with the
                                           // data buffer's DRAM)
  uint64_t ring_bytes = 0;       // "ring_bytes": 0 (the backing's default) or 4 KiB..1 GiB
  uint64_t backing_mbps = 0;     // "backing_mbps": 0 (default: sram 4000, dram 800) or 100..100,000
  uint32_t bus_bytes = 0;        // "bus_bytes": 0 (default: sram 16, dram 8) or 1..128, one memory beat
  uint64_t access_ns = 0;        // "access_ns": 0..10,000 fixed cost per backing write (default 0)
  uint64_t queue_bytes = 32768;  // "queue_bytes": 64..1 MiB, the intake queue negotiated with the host
  uint32_t reorder_window = 4;   // "reorder_window": 1..64 TLPs that may arrive out of order (1 = in order)
  uint64_t capacitor_budget_ns = 1'000'000'000;  // "capacitor_budget_ns": 0..1e12 to destage the ring on power loss

  // The values in effect once "0 = the backing's default" is resolved.
  bool Dram() const { return backing == CmbBacking::kDram; }
  uint64_t RingBytes() const { return ring_bytes ? ring_bytes : (Dram() ? 128ull << 20 : 128ull << 10); }
  // DRAM: the paper's path is 2 GB/s, but its chunk-size curve flattens from
  // 16-byte TLPs, where the link delivers about 0.8 GB/s: that is the share
  // the CMB sustains next to the firmware's own DRAM traffic.
  uint64_t BackingMbps() const { return backing_mbps ? backing_mbps : (Dram() ? 800 : 4000); }
  uint32_t BusBytes() const { return bus_bytes ? bus_bytes : (Dram() ? 8 : 16); }
};

// JSON: device.xssd.host
struct CmbHostConfig {
  CmbWriteMode write_mode = CmbWriteMode::kWriteCombining;  // "write_mode": "write-combining"|"uncached"
  uint32_t chunk_bytes = 64;     // "chunk_bytes": 1..64, bytes the application stores at once
  uint64_t wc_chunk_ns = 4;      // "wc_chunk_ns": 0..10,000 CPU cost to emit one write-combined chunk
  uint64_t uc_store_ns = 30;     // "uc_store_ns": 0..10,000 CPU cost of one uncached store
  uint32_t uc_store_bytes = 8;   // "uc_store_bytes": 1..64, widest uncached store (one TLP each)
  bool honor_credits = true;     // "honor_credits": false writes without reading the counter (to
                                 // show overrun detection)
  uint64_t stall_timeout_ns = 200'000;  // "stall_timeout_ns": 1,000..1e12 counter unchanged this long: read
                                        // the status register
};

// JSON: device.xssd.destage
struct DestageConfig {
  uint64_t ring_pages = 4096;        // "ring_pages": 16..16,777,216 logical pages at the end of the
                                     // logical space, hidden from the conventional workload
  uint64_t latency_threshold_ns = 50'000;  // "latency_threshold_ns": 1,000..1e12 pad a partial page with
                                           // filler once its oldest byte waited this long
  DestagePriority priority = DestagePriority::kNeutral;  // "priority": "neutral"|"destage"|"conventional"
  uint32_t max_in_flight = 0;        // "max_in_flight": 0 (as many as the buffer flush: two per plane) or
                                     // 1..4096 destage programs at once
};

// JSON: device.xssd.transport.secondaries[i]
struct SecondaryConfig {
  uint64_t link_latency_ns = 1500;   // "link_latency_ns": 0..1,000,000 one way over the NTB link
  uint64_t link_mbps = 4000;         // "link_mbps": 100..100,000
  uint64_t update_period_ns = 400;   // "update_period_ns": 100..1e9 between counter updates to the primary
  uint64_t drain_mbps = 800;         // "drain_mbps": 10..100,000 the secondary destages its ring at this rate
  uint64_t fail_at_ns = 0;           // "fail_at_ns": 0 (never) or 1..1e15 the link goes down
};

// JSON: device.xssd.transport.commands[i] (vendor admin commands)
struct TransportCommand {
  uint64_t at_ns = 0;  // "at_ns": 0..1e15, ascending
  TransportCommandKind kind = TransportCommandKind::kToStandalone;
  // "command": "to-standalone" | "to-primary" | "drop-secondary" | "add-secondary" ("secondary": index)
  uint32_t secondary = 0;  // "secondary": 0..7
};

// JSON: device.xssd.transport
struct TransportConfig {
  TransportRole role = TransportRole::kStandalone;  // "role": "standalone"|"primary"
  ReplicationScheme replication = ReplicationScheme::kEager;  // "replication": "eager"|"lazy"|"chain"
  uint32_t update_bytes = 8;     // "update_bytes": 4..64 payload of one counter update TLP
  std::vector<SecondaryConfig> secondaries;  // "secondaries": 0..8
  std::vector<TransportCommand> commands;    // "commands": 0..64
};

// JSON: device.xssd
struct XssdConfig {
  bool enabled = false;  // "enabled"
  CmbConfig cmb;
  CmbHostConfig host;
  DestageConfig destage;
  TransportConfig transport;
};

// JSON: device
struct DeviceConfig {
  GeometryConfig geometry;
  FlashConfig flash;
  FtlConfig ftl;
  HostInterfaceConfig host_interface;
  InstrumentationConfig instrumentation;  // "instrumentation"
  XssdConfig xssd;                        // "xssd"
};

// JSON: precondition. Applied instantly (no simulated time) before the run.
struct PreconditionConfig {
  double fill_fraction = 0;        // "fill_fraction": 0..1 of the logical capacity, written sequentially
  double random_overwrite_passes = 0;  // "random_overwrite_passes": 0..10, uniform overwrites
                                       // of the filled range, times its size, to age GC state
};

// JSON: workload.flows[i].sizes[j]
struct SizeWeight {
  uint32_t bytes = 4096;  // "bytes": 512..16 MiB, multiple of 512
  double weight = 1;      // "weight": > 0
};

// JSON: workload.flows[i]
struct FlowConfig {
  std::string name = "flow";                 // "name": 1..64 chars
  AccessPattern pattern = AccessPattern::kUniform;
  // "pattern": "sequential"|"uniform"|"zipf"|"hot-cold"
  double read_fraction = 0;                  // "read_fraction": 0..1
  double trim_fraction = 0;                  // "trim_fraction": 0..1, read + trim <= 1; the share of
                                             // requests that deallocate (TRIM) their range
  std::vector<SizeWeight> sizes{{4096, 1}};  // "sizes": 1..16 entries; or "request_bytes": n
  uint32_t queue_depth = 1;     // "queue_depth": 1..max_queue_depth (closed loop)
  double arrival_rate_iops = 0; // "arrival_rate_iops": 0 (closed loop) or 1..1e8 (Poisson
                                // arrivals; queue_depth caps outstanding requests)
  double lba_start_fraction = 0;  // "lba_start_fraction": 0..1
  double lba_end_fraction = 1;    // "lba_end_fraction": > start, ..1
  double zipf_theta = 0.99;       // "zipf_theta": 0.01..3 (zipf only)
  double hot_fraction = 0.2;      // "hot_fraction": 0.001..0.999 of the range (hot-cold only)
  double hot_access_fraction = 0.8;  // "hot_access_fraction": 0..1 (hot-cold only)
  uint64_t requests = 0;          // "requests": 0 (no limit) .. 1e12
  uint64_t duration_ns = 0;       // "duration_ns": 0 (no limit) .. 1e15
  uint64_t start_ns = 0;          // "start_ns": 0..1e15
};

// JSON: workload.trace. Lines: "time_ns device lba_sectors size_sectors type",
// type 0 = write, 1 = read, 512-byte sectors, '#' starts a comment.
struct TraceConfig {
  bool enabled = false;      // true when "path" or "text" is given
  std::string path;          // "path": file, relative to the scenario file
  std::string text;          // "text": the trace inline (used by the browser)
  uint32_t queue_depth = 64; // "queue_depth": 1..65535 outstanding cap
  double time_scale = 1;     // "time_scale": 0.001..1000, multiplies trace timestamps
};


enum class DbLogTarget : uint8_t { kCmb, kNvme, kNone };

// JSON: workload.db_log. A database's log writer: workers produce log records,
// a flusher commits them in groups (the X-SSD paper's ERMIA setup).
struct DbLogConfig {
  bool enabled = false;              // "enabled"
  DbLogTarget target = DbLogTarget::kCmb;  // "target": "cmb" (fast side) | "nvme" (conventional side,
                                     // the destage ring's pages) | "none" (no log)
  uint32_t workers = 4;              // "workers": 1..64
  uint32_t record_bytes = 512;       // "record_bytes": 8..1 MiB per transaction
  uint64_t txn_compute_ns = 25'000;  // "txn_compute_ns": 0..1e9 CPU time per transaction
  uint32_t commit_queue = 32;        // "commit_queue": 1..4096 uncommitted transactions per worker
  uint64_t group_commit_bytes = 16384;  // "group_commit_bytes": 64..64 MiB, flush when the group holds this much
  uint64_t group_timeout_ns = 1'000'000;  // "group_timeout_ns": 1,000..1e12 or flush what there is after this
  uint64_t transactions = 0;         // "transactions": 0 (no limit) .. 1e12 in total
  uint64_t duration_ns = 0;          // "duration_ns": 0 (no limit) .. 1e15
  uint64_t start_ns = 0;             // "start_ns": 0..1e15
};

// JSON: workload
struct WorkloadConfig {
  std::vector<FlowConfig> flows;  // "flows": 0..16 flows
  TraceConfig trace;              // "trace"
  DbLogConfig db_log;             // "db_log"
};

// JSON: observation
struct ObservationConfig {
  uint32_t ring_records = 1 << 16;  // "ring_records": 1024..16,777,216, power of two
  uint32_t sample_one_in = 1;       // "sample_one_in": 1..1,000,000 requests traced
  uint64_t perf_interval_ns = 1'000'000;  // "perf_interval_ns": 1,000..1e12
  // "disabled_points": list of record kind names (bit mask of RecordKind
  // values). By default only channel_transfer is off: one record per page on
  // a bus is many, and only the flash schedule view uses them.
  uint64_t disabled_points = uint64_t(1) << 32;
};

// JSON: faults
struct FaultConfig {
  std::vector<uint64_t> power_fail_at_ns;  // "power_fail_at_ns": ascending, 0..1e15, <= 64 entries
  uint64_t reboot_delay_ns = 1'000'000;    // "reboot_delay_ns": 0..1e12 power-off duration
};

// JSON: run
struct RunConfig {
  uint64_t max_time_ns = 1'000'000'000;  // "max_time_ns": 1,000..1e15 simulated time limit
  uint64_t memory_limit_bytes = 3ull << 30;  // "memory_limit_bytes": 1 MiB..64 GiB
  bool check_invariants = false;         // "check_invariants": costly self-checks
};

struct Scenario {
  std::string title;        // "title": 0..200 chars
  std::string description;  // "description": 0..4000 chars
  uint64_t seed = 1;        // "seed": 0..2^53
  DeviceConfig device;      // "device"
  PreconditionConfig precondition;  // "precondition"
  WorkloadConfig workload;  // "workload"
  ObservationConfig observation;  // "observation"
  FaultConfig faults;       // "faults"
  RunConfig run;            // "run"
  std::string base_dir;     // not JSON: directory trace paths resolve against
};

}  // namespace ssdp
