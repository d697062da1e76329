// Observation records: the model's only data feed to the UI, the CLI and the
// tests. Every record is a fixed-size 32-byte struct so that a ring of them can
// be handed to JavaScript as a typed-array view. The byte layout is stable and
// documented in docs/model/obs.md.
#pragma once

#include <cstdint>
#include <type_traits>

namespace ssdp {

// What a record describes. Values are part of the binary format: append only.
enum class RecordKind : uint16_t {
  kRequestSubmit = 0,    // unit=flow, id=request, a=lba_bytes, b=bytes | (is_read << 63)
  kRequestFetched = 1,   // command fetched from the submission queue
  kRequestTranslated = 2,  // FTL translated (sliced into pages, looked up), a=pages
  kRequestGcWait = 3,    // write waited for a buffer slot (behind other writes or foreground GC), a=wait_ns
  kRequestScheduled = 4, // slice handed to a die, unit=die, a=lpn, b=ppn
  kRequestDmaDone = 5,   // host DMA of the data finished, a=time the last slice was ready
  kRequestComplete = 6,  // completion seen by the host, a=latency_ns, b=flags(bit0 read)
  kFlashOpStart = 7,     // unit=die, id=op kind (FlashOpKind), a=ppn, b=purpose | (request id + 1) << 32
                         // (host reads; 0 for other ops)
  kFlashOpEnd = 8,       // unit=die, id=op kind, a=ppn, b=purpose | (failed << 8) | (request id + 1) << 32
  kGcStart = 9,          // unit=plane, id=victim block, a=valid pages, b=policy | (foreground << 8)
  kGcEnd = 10,           // unit=plane, id=victim block, a=page copies, b=duration_ns
  kErase = 11,           // unit=plane, id=block, a=erase count after, b=failed
  kBlockRetired = 12,    // unit=plane, id=block, a=reason (1 program, 2 erase, 3 worn out)
  kPerfIndex = 13,       // id=interval index, a=completed requests, b=bytes moved by host
  kChannelPerf = 14,     // unit=channel, id=interval index, a=busy_ns in the interval, b=bytes transferred
  kPowerFail = 15,       // a=dirty buffer pages, b=pages saved by capacitors
  kRecoveryStep = 16,    // id=RecoveryStep, a=start_ns, b=duration_ns
  kCheckpoint = 17,      // a=mapping pages written, b=first data version not covered
  kWearLevel = 18,       // unit=plane, id=block migrated, a=erase gap
  kTrim = 19,            // a=first lpn, b=pages
  kInstrTrigger = 20,    // instrumentation freezing trigger fired: id=request, a=stage duration ns,
                         // b=TriggerStage
  kInstrCommand = 21,    // instrumentation vendor command done: id=InstrCommandKind, a=bytes moved
                         // (transfer) or the value set, b=duration ns
  kXssdCredit = 22,      // host read the credit counter: unit=host thread, a=value read, b=bytes the
                         // thread had written
  kXssdRing = 23,        // fast-side ring state: unit=device (0 primary, 1+ secondary), id=intake queue
                         // bytes, a=credit counter, b=bytes arrived (ring tail)
  kXssdDestage = 24,     // destage page issued: unit=die, id=ring slot, a=stream position, b=payload
                         // bytes | (page bytes << 32)
  kXssdDestageDone = 25, // destage page on flash (one per page): id=ring slot, a=stream position up to
                         // which every byte is durable, b=ns from issue to programmed | (retries << 48)
  kXssdShadow = 26,      // replication: unit=secondary, a=shadow counter on the primary, b=the
                         // secondary's own counter
  kXssdReplDelay = 27,   // a write reached a secondary's shadow counter: unit=secondary, a=delay ns,
                         // b=stream position
  kXssdStatus = 28,      // transport status register changed: id=status bits, a=role, b=secondary
  kXssdCrash = 29,       // fast-side crash protocol step: id=XssdCrashStep, a=stream position, b=bytes
  kXssdCommit = 30,      // database group commit: unit=target, id=transactions, a=bytes, b=flush ns
  kRecordGap = 31,       // not emitted by the model: the ring's reader puts it where records were
                         // overwritten before they were read; a=records lost
  kChannelTransfer = 32, // a page crossed a channel bus: unit=channel, id=die, a=ns on the bus,
                         // b=bytes | (into the die << 32) (program data in; else read data out)
  kCount
};

// Steps of the conventional FTL's reboot, in order.
enum class RecoveryStep : uint32_t {
  kCapacitorFlush = 0,  // before power is gone: flush dirty buffer pages
  kBoot = 1,            // controller firmware boot
  kLoadCheckpoint = 2,  // read the mapping checkpoint from flash
  kScanOob = 3,         // read the OOB of every page written after the checkpoint
  kReplayTrims = 4,     // apply the persisted trim log
  kRebuildFreeLists = 5,  // rebuild valid counts and free lists (partly written blocks are
                          // closed), then write a fresh checkpoint
  kReady = 6,           // device accepts commands again
};

// Steps of the fast side's crash protocol, in order.
enum class XssdCrashStep : uint32_t {
  kPowerLoss = 0,       // a=credit counter the host last saw, b=bytes in the intake queue (lost)
  kDestageRing = 1,     // a=stream position destaged up to, b=bytes destaged on capacitor power
  kStopAtGap = 2,       // a=first gap (the counter), b=bytes that had landed beyond it (dropped)
  kReboot = 3,          // a=durable stream end found on the conventional side, b=ring pages checked
  kTailVisible = 4,     // a=end of the readable tail, b=bytes beyond what the host had seen acknowledged
};

// A single observation. 32 bytes, trivially copyable, little-endian on the
// only targets we build (x86-64, wasm32).
struct Record {
  uint64_t time_ns;
  RecordKind kind;
  uint16_t unit;  // die, channel, plane or flow index, by kind
  uint32_t id;    // request id, block index, step, by kind
  uint64_t a;
  uint64_t b;
};
static_assert(sizeof(Record) == 32, "Record layout is part of the binary format");
static_assert(std::is_trivially_copyable_v<Record>);

// Names used in scenario files ("observation.disabled_points") and exports.
const char* RecordKindName(RecordKind kind);
// Returns true and sets *kind when name is a known record kind name.
bool RecordKindFromName(const char* name, RecordKind* kind);
const char* RecoveryStepName(RecoveryStep step);
const char* XssdCrashStepName(XssdCrashStep step);

}  // namespace ssdp
