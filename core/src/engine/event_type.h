// Every kind of event the simulation schedules. One flat enum so the
// dispatcher is a single switch; feature modules append their own.
#pragma once

#include <cstdint>

namespace ssdp {

enum EventType : uint32_t {
  kEvFlowIssue = 0,      // arg = flow: start of a flow or next open-loop arrival
  kEvCommandReady = 1,   // arg = request slot: fetched and translated
  kEvRequestDone = 2,    // arg = request slot: completion reaches the host
  kEvDieDone = 3,        // arg = die: the array operation finished
  kEvChannelDone = 4,    // arg = channel: a bus transfer finished
  kEvPerfTick = 5,       // periodic performance-index records
  kEvPowerFail = 6,      // arg = index in faults.power_fail_at_ns (or ~0 for injected)
  kEvRecoveryDone = 7,   // device ready again after reboot
  kEvTraceIssue = 8,     // next trace entry is due
  kEvSliceRetry = 9,     // a write slice waiting for a buffer slot may proceed
  kEvInstrCommand = 10,  // arg = index in device.instrumentation.commands
  kEvInstrFreeze = 11,   // a fired trigger's post-trigger window ended
  kEvXssdDestage = 12,   // the fast side's destage module looks at its ring again
  kEvXssdDrain = 13,     // arg = secondary: its drain finished a page
  kEvXssdApi = 14,       // arg = host thread: its fast-side call continues
  kEvXssdWorker = 15,    // arg = database worker: its transaction's work is done
  kEvXssdFlusher = 16,   // the database's log flusher checks its group
  kEvXssdAdmin = 17,     // arg = index in device.xssd.transport.commands
  kEvXssdLinkDown = 18,  // arg = secondary: its NTB link fails
};

}  // namespace ssdp
