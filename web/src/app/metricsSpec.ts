// What the metrics panel shows: the important numbers of Frame.metrics, each
// with its unit and a one-line explanation (the tooltip). Pure data + lookup.
import type { Metrics } from '../bridge/protocol';
import { formatBytes, formatInt, formatMicros, formatNumber, formatPercent, formatSimTime } from './format';

export interface MetricSpec {
  /** Dotted path into Metrics (as in the CSV export). */
  path: string;
  label: string;
  unit: string;
  format: (v: number) => string;
  /** Glossary term used for the tooltip (see HELP). */
  term: string;
}

export interface MetricGroup {
  title: string;
  metrics: MetricSpec[];
}

/** Plain-language definitions, keyed by term. */
export const HELP: Record<string, string> = {
  iops: 'IOPS: host requests completed per second of simulated time (reads, writes and trims).',
  mbps: 'MB/s: host data moved per second of simulated time (10^6 bytes), reads and writes together.',
  requests: 'Host requests completed so far.',
  latency:
    'Latency: time from the host submitting a request to the host seeing its completion, in microseconds. ' +
    'mean is the average; p50, p99 and p99.9 are percentiles (half, 99% and 99.9% of requests were at least this fast); max is the slowest.',
  waf:
    'Write amplification factor: pages programmed to flash (host flushes, GC copies, checkpoints) per page the host wrote. ' +
    'Below 1 while the DRAM buffer absorbs overwrites; above 1 when garbage collection copies valid pages.',
  gcRuns: 'Garbage collection runs: victim blocks chosen, emptied of their valid pages and erased.',
  gcCopies: 'Valid pages GC had to copy out of victim blocks before erasing them: flash work the host did not ask for.',
  gcStalls: 'Times a host write had to wait for a free buffer slot, typically while foreground GC frees space.',
  flashReads: 'Page reads the flash dies performed (host reads, read-modify-write reads and GC reads).',
  flashPrograms: 'Page programs (writes) the flash dies performed.',
  flashErases: 'Block erases the flash dies performed.',
  channelUtil: 'Share of the time the channel buses were transferring data, averaged over channels.',
  dieUtil: 'Share of the time the dies were busy with an operation, averaged over dies.',
  bufferHits: 'Host reads (r) and writes (w) served or merged in the controller DRAM buffer without touching flash.',
  rmwReads:
    'Read-modify-write reads: a partial-page write whose old page is on flash must read it first, to merge the new bytes in.',
  badBlocks: 'Blocks out of service: factory bad, failed program or erase, worn out, or failed by hand.',
  eraseCount: 'Erase counts of the blocks, least and most worn. Wear leveling keeps the gap small.',
  powerFailures: 'Power failures injected so far.',
  lostPages: 'Acknowledged writes lost to a power failure: dirty buffer pages the capacitors could not flush.',
  recovery: 'Time the last reboot took: firmware boot, loading the mapping checkpoint, scanning the OOB of newer pages, rebuilding free lists.',
  bytesWritten: 'Host data written so far (binary units: 1 MiB = 1,048,576 bytes).',
  pcie: 'Share of the time the PCIe link carried data from host to device (commands and write data).',
  checkpoints: 'Mapping checkpoints written: the logical-to-physical table saved to flash so recovery scans less.',
  savedPages: 'Dirty buffer pages the capacitors managed to flush to flash when the power failed.',
  scanned: 'Pages whose out-of-band area the last recovery read to rebuild the mapping.',
  programFailures: 'Page programs that failed (seeded fault rate): the FTL retires the block and writes the data elsewhere.',
  eraseFailures: 'Block erases that failed: the block is retired.',
  tornPages: 'Pages whose program was cut short by a power failure: recovery must not trust them.',
  failedByPower: 'Host requests in flight when the power failed; the host sees them fail.',
  simTime: 'Simulated time: the model’s clock, in nanoseconds of device time (not wall-clock time).',
  events: 'Discrete events the model has processed.',
};

const us = formatMicros;

/** Two columns of groups, balanced for the panel's width. */
export const METRIC_COLUMNS: MetricGroup[][] = [
  [
    {
      title: 'Host',
      metrics: [
        { path: 'host.iops', label: 'IOPS', unit: '', format: formatNumber, term: 'iops' },
        { path: 'host.mbps', label: 'Throughput', unit: 'MB/s', format: formatNumber, term: 'mbps' },
        { path: 'host.requests', label: 'Requests', unit: '', format: formatInt, term: 'requests' },
        { path: 'host.bytes_written', label: 'Data written', unit: '', format: formatBytes, term: 'bytesWritten' },
        { path: 'host.pcie.down_utilization', label: 'PCIe busy', unit: '', format: formatPercent, term: 'pcie' },
      ],
    },
    {
      title: 'Flash',
      metrics: [
        { path: 'flash.reads', label: 'Reads', unit: 'pages', format: formatInt, term: 'flashReads' },
        { path: 'flash.programs', label: 'Programs', unit: 'pages', format: formatInt, term: 'flashPrograms' },
        { path: 'flash.erases', label: 'Erases', unit: 'blocks', format: formatInt, term: 'flashErases' },
        { path: 'flash.die_utilization', label: 'Dies busy', unit: '', format: formatPercent, term: 'dieUtil' },
        { path: 'flash.channel_utilization', label: 'Channels busy', unit: '', format: formatPercent, term: 'channelUtil' },
      ],
    },
    {
      title: 'Faults',
      metrics: [
        { path: 'ftl.program_failures', label: 'Program failures', unit: '', format: formatInt, term: 'programFailures' },
        { path: 'ftl.erase_failures', label: 'Erase failures', unit: '', format: formatInt, term: 'eraseFailures' },
        { path: 'power.torn_pages', label: 'Torn pages', unit: '', format: formatInt, term: 'tornPages' },
        { path: 'host.failed_by_power', label: 'Failed by power', unit: 'req', format: formatInt, term: 'failedByPower' },
      ],
    },
  ],
  [
    {
      title: 'FTL and GC',
      metrics: [
        { path: 'ftl.waf', label: 'WAF', unit: '×', format: (v) => v.toFixed(2), term: 'waf' },
        { path: 'gc.runs', label: 'GC runs', unit: '', format: formatInt, term: 'gcRuns' },
        { path: 'gc.page_copies', label: 'GC copies', unit: 'pages', format: formatInt, term: 'gcCopies' },
        { path: 'gc.write_stalls', label: 'Write stalls', unit: '', format: formatInt, term: 'gcStalls' },
        { path: 'ftl.buffer_read_hits', label: 'Buffer read hits', unit: '', format: formatInt, term: 'bufferHits' },
        { path: 'ftl.buffer_write_hits', label: 'Buffer write hits', unit: '', format: formatInt, term: 'bufferHits' },
        { path: 'ftl.rmw_reads', label: 'RMW reads', unit: '', format: formatInt, term: 'rmwReads' },
        { path: 'ftl.checkpoints', label: 'Checkpoints', unit: '', format: formatInt, term: 'checkpoints' },
      ],
    },
    {
      title: 'Power',
      metrics: [
        { path: 'power.failures', label: 'Power failures', unit: '', format: formatInt, term: 'powerFailures' },
        { path: 'power.lost_pages', label: 'Lost pages', unit: '', format: formatInt, term: 'lostPages' },
        { path: 'power.saved_pages', label: 'Saved pages', unit: '', format: formatInt, term: 'savedPages' },
        {
          path: 'power.last_recovery_ns',
          label: 'Last recovery',
          unit: '',
          format: (v) => (v ? formatSimTime(v, 2) : '—'),
          term: 'recovery',
        },
        { path: 'power.recovery_pages_scanned', label: 'Pages scanned', unit: '', format: formatInt, term: 'scanned' },
      ],
    },
    {
      title: 'Wear',
      metrics: [
        { path: 'flash.bad_blocks', label: 'Bad blocks', unit: '', format: formatInt, term: 'badBlocks' },
        { path: 'flash.erase_count.min', label: 'Erase count min', unit: '', format: formatInt, term: 'eraseCount' },
        { path: 'flash.erase_count.max', label: 'Erase count max', unit: '', format: formatInt, term: 'eraseCount' },
      ],
    },
  ],
];

/** Every metric the panel shows, in reading order. */
export const METRIC_GROUPS: MetricGroup[] = METRIC_COLUMNS.flat();
export const METRICS: MetricSpec[] = METRIC_GROUPS.flatMap((g) => g.metrics);

/** Latency table columns: key in LatencySummary, header. */
export const LATENCY_COLUMNS: { key: 'mean' | 'p50' | 'p99' | 'p999' | 'max'; label: string }[] = [
  { key: 'mean', label: 'mean' },
  { key: 'p50', label: 'p50' },
  { key: 'p99', label: 'p99' },
  { key: 'p999', label: 'p99.9' },
  { key: 'max', label: 'max' },
];

export const formatLatency = us;

/** The value at a dotted path of the metrics object, or NaN. */
export function metricAt(metrics: Metrics | null | undefined, path: string): number {
  let node: unknown = metrics;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return NaN;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'number' ? node : typeof node === 'boolean' ? Number(node) : NaN;
}
