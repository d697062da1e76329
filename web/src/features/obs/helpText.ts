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
  gc:
    'Garbage collection frees a block by copying its still-valid pages elsewhere and then erasing it. A run whose ' +
    'victim held no valid page only erases (close to the erase baseline, command + tBERS); one with valid pages ' +
    'copies them first and takes longer in proportion.\n\n' +
    'Top: the mean run of each kind, split into its erase and the time before it (copying, and waiting for the die ' +
    'between host operations), with counts and totals. Middle: how many planes were inside each kind of run over ' +
    'time (runs still going when the records end count too). Bottom: complete runs per plane. Hover for numbers.',
  copies:
    'Each dot is a request that waited for a flash operation while garbage collection held the die it needed: a ' +
    'read waiting for its die, or a write waiting for a buffer slot, which frees when a flush program ends. The ' +
    'GC run named is the one whose operations held that die longest during the wait.\n\n' +
    'Across: how many valid pages the GC victim held, that is, how many pages the run had to copy. Up: the ' +
    'request\'s latency as a multiple of the flash program time (the band is the ideal 1 ± 0.3). The bars on top ' +
    'count the requests per valid-page count. Victims with more valid pages make longer GC runs and slower requests.',
  schedule:
    'Where the picked request waited, die by die, as a Gantt chart: one lane per die (channel and way), one row ' +
    'per plane, time relative to when the FTL translated the request. For a read, the lanes are the dies its page ' +
    'reads went to; its own reads are outlined. For a write that waited for a buffer slot, the lanes are the dies ' +
    'whose flush programs ended meanwhile (each freed a slot); the one that freed its last slot is outlined.\n\n' +
    'Bars are the operations that occupied each die: host reads, flushes of buffered writes, GC copies and erases, ' +
    'checkpoints. Shading marks a GC run on the plane. Long stretches of GC before the outlined operation are what ' +
    'held the request up. Hover for details.',
  cdf:
    'The share of each flow\'s requests (up) that finished within a given multiple of the flash program time ' +
    '(across, log scale). A curve that rises steeply near 1 × is a workload the flash serves undisturbed; a long ' +
    'flat stretch before 100 % is a tail of requests held up by the other stream or by garbage collection.\n\n' +
    'Keep these curves stores this run\'s curves for the session; open another workload (for example the (1-0), ' +
    '(1-1) and (M-N) scenarios in obs) and its curves are drawn over the kept ones, dashed, as in the paper\'s ' +
    'comparison. The table gives p50, p99 and their ratio, the tail\'s length.',
} as const;
