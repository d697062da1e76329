// Short explanations for the analysis panel (shown by ChartPanel's ⓘ toggle).
export const ObsHelp = {
  obs:
    'The analysis reads the performance records the instrumented SSD keeps for every request and splits each ' +
    'request into six stages: fetch (the command is read from the NVMe queue), translate (the FTL looks up the ' +
    'mapping), buffer wait (waiting for a DRAM buffer slot), flash (the die read or programmed), transfer (data ' +
    'over the channel and host link) and completion.\n\n' +
    'Each stage is compared with what it costs on an idle device (its baseline); the stage that exceeds its ' +
    'baseline the most is the one to blame. Latency is also shown as a multiple of the flash program time ' +
    '(tPROG): a write that takes about 1 × tPROG met an idle device; 5 × tPROG met a queue, a buffer flush or ' +
    'garbage collection. Click a row to see why.',
  instr:
    'The instrumentation cache is a ring of records in the device DRAM. When it is full the oldest records are ' +
    'overwritten, so it holds only the last few seconds of history at the current record rate. Transfer copies ' +
    'the cache to the host (a vendor command), Freeze stops recording so a slow moment is kept, Resume starts ' +
    'again and Clear empties it.',
  dist:
    'How request latency is spread, per flow, as a multiple of the flash program time (bins of 0.1 × tPROG; the ' +
    'last bin collects everything slower than 10 ×). The shaded band is the ideal 1 ± 0.3: requests there met ' +
    'an idle die. Bars far to the right met queues, buffer flushes or garbage collection.',
  lba:
    'Where each request went (its byte offset, vertical) and when it was submitted (horizontal), one colour per ' +
    'flow. A log circles over its own range (diagonal lines that wrap around); a checkpoint rewrites its region ' +
    'from the start each cycle.',
  gc: 'Garbage collection runs from the records: runs that only erased (the victim held no valid page) against runs that copied valid pages first and then erased, with their mean durations.',
} as const;
