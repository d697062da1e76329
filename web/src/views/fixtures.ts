// Synthetic, deterministic data for the views: a fake device, frames, block
// snapshots, latency buckets, series and timeline events. Used by unit tests
// and handy for trying a view without the wasm model.

import type {
  BlockSnapshot,
  DeviceInfo,
  EnumNames,
  Frame,
  LatencyBuckets,
  Metrics,
  SeriesPoint,
  TimelineEvent,
} from '../bridge/protocol';

/** Small seeded PRNG (mulberry32): returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0 || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const FAKE_NAMES: EnumNames = {
  record_kinds: [
    'request_submit',
    'request_fetched',
    'request_translated',
    'request_gc_wait',
    'request_scheduled',
    'request_dma_done',
    'request_complete',
    'flash_op_start',
    'flash_op_end',
    'gc_start',
    'gc_end',
    'erase',
    'block_retired',
    'perf_index',
    'channel_perf',
    'power_fail',
    'recovery_step',
    'checkpoint',
    'wear_level',
    'trim',
  ],
  recovery_steps: ['capacitor_flush', 'boot', 'load_checkpoint', 'scan_oob', 'replay_trims', 'rebuild_free_lists', 'ready'],
  die_states: ['idle', 'read', 'program', 'erase', 'transfer', 'wait_bus'],
  block_states: ['free', 'open', 'full', 'victim', 'retiring', 'bad'],
  flash_op_kinds: ['read', 'program', 'erase', 'copyback'],
  op_purposes: ['host_read', 'rmw_read', 'flush', 'gc_read', 'gc_write', 'gc_copy', 'gc_erase', 'checkpoint'],
};

export interface FakeDeviceOptions {
  channels?: number;
  chipsPerChannel?: number;
  diesPerChip?: number;
  planesPerDie?: number;
  blocksPerPlane?: number;
  pagesPerBlock?: number;
  pageBytes?: number;
  flows?: { name: string; queue_depth: number }[];
}

export function fakeDevice(o: FakeDeviceOptions = {}): DeviceInfo {
  const channels = o.channels ?? 4;
  const chips = o.chipsPerChannel ?? 2;
  const diesPerChip = o.diesPerChip ?? 1;
  const planesPerDie = o.planesPerDie ?? 2;
  const blocksPerPlane = o.blocksPerPlane ?? 64;
  const pagesPerBlock = o.pagesPerBlock ?? 64;
  const ways = chips * diesPerChip;
  const dies = channels * ways;
  const planes = dies * planesPerDie;
  const blocks = planes * blocksPerPlane;
  return {
    channels,
    ways_per_channel: ways,
    chips_per_channel: chips,
    dies_per_chip: diesPerChip,
    planes_per_die: planesPerDie,
    blocks_per_plane: blocksPerPlane,
    pages_per_block: pagesPerBlock,
    page_bytes: o.pageBytes ?? 8192,
    dies,
    planes,
    blocks,
    logical_pages: Math.floor(blocks * pagesPerBlock * 0.93),
    cell_type: 'MLC',
    read_ns: 50_000,
    program_ns: 600_000,
    erase_ns: 3_000_000,
    page_transfer_ns: 20_480,
    buffer_slots: 1024,
    flows: o.flows ?? [
      { name: 'writer', queue_depth: 32 },
      { name: 'reader', queue_depth: 8 },
    ],
    title: 'Synthetic device',
    seed: 1,
  };
}

export function fakeMetrics(): Metrics {
  const lat = { count: 0, mean: 0, p50: 0, p99: 0, p999: 0, max: 0 };
  return {
    sim: { end_ns: 0, events: 0, wall_s: 0, time_limited: false, stalled: false },
    host: {
      requests: 0,
      reads: 0,
      writes: 0,
      trims: 0,
      bytes_read: 0,
      bytes_written: 0,
      iops: 0,
      mbps: 0,
      failed_by_power: 0,
      dropped_arrivals: 0,
      read: { lat_us: { ...lat } },
      write: { lat_us: { ...lat } },
      pcie: { down_utilization: 0, up_utilization: 0 },
    },
    flash: {
      reads: 0,
      programs: 0,
      erases: 0,
      channel_utilization: 0,
      die_utilization: 0,
      bad_blocks: 0,
      erase_count: { min: 0, max: 0 },
    },
    ftl: {
      waf: 1,
      host_pages_written: 0,
      flush_programs: 0,
      rmw_reads: 0,
      buffer_read_hits: 0,
      buffer_write_hits: 0,
      program_failures: 0,
      erase_failures: 0,
      wear_level_migrations: 0,
      checkpoints: 0,
      checkpoint_pages: 0,
    },
    gc: { runs: 0, page_copies: 0, erases: 0, write_stalls: 0 },
    power: {
      failures: 0,
      lost_pages: 0,
      saved_pages: 0,
      torn_pages: 0,
      last_recovery_ns: 0,
      recovery_pages_scanned: 0,
    },
    records: { written: 0, lost: 0 },
  };
}

/** Frame number `tick` of a busy device: every die and channel doing something plausible. */
export function fakeFrame(device: DeviceInfo, tick: number, seed = 1): Frame {
  const r = rng(seed * 7919 + tick);
  const dies = device.dies;
  const dieState = new Uint8Array(dies);
  const dieQueue = new Uint16Array(dies);
  const dieOps = new Uint32Array(dies * 4);
  for (let d = 0; d < dies; d++) {
    const x = r();
    dieState[d] = x < 0.25 ? 0 : x < 0.45 ? 1 : x < 0.7 ? 2 : x < 0.78 ? 3 : x < 0.9 ? 4 : 5;
    dieQueue[d] = Math.floor(Math.pow(r(), 2) * 40);
    if (r() < 0.6) dieOps[d * 4] = Math.floor(r() * 4);
    if (r() < 0.4) dieOps[d * 4 + 1] = Math.floor(r() * 3);
    if (r() < 0.05) dieOps[d * 4 + 2] = 1;
    if (r() < 0.15) dieOps[d * 4 + 3] = Math.floor(r() * 2);
  }
  const channelBusy = new Uint8Array(device.channels);
  for (let c = 0; c < device.channels; c++) channelBusy[c] = r() < 0.55 ? 1 : 0;
  const flowOutstanding = new Uint16Array(device.flows.length);
  device.flows.forEach((f, i) => {
    flowOutstanding[i] = Math.round(f.queue_depth * (0.3 + 0.7 * r()));
  });
  const nowNs = tick * 1_000_000;
  return {
    nowNs,
    events: tick * 5000,
    finished: false,
    recovering: false,
    maxTimeNs: 1e9,
    metrics: fakeMetrics(),
    dieState,
    dieQueue,
    dieOps,
    channelBusy,
    flowOutstanding,
    bufferDirty: Math.round(device.buffer_slots * (0.5 + 0.5 * r())),
    bufferCapacity: device.buffer_slots,
    waitingWrites: r() < 0.5 ? Math.floor(r() * 12) : 0,
    series: [],
    timeline: [],
    recordsSeen: tick * 1000,
  };
}

/** An aged device: mostly full blocks with varied valid counts, some free, a few bad, one victim and one open block per plane. */
export function fakeBlocks(device: DeviceInfo, seed = 1): BlockSnapshot {
  const r = rng(seed);
  const words = new Uint32Array(device.blocks * 4);
  const ppb = device.pages_per_block;
  for (let p = 0; p < device.planes; p++) {
    const base = p * device.blocks_per_plane;
    const hot = 20 + Math.floor(r() * 30);
    for (let i = 0; i < device.blocks_per_plane; i++) {
      const b = base + i;
      const o = b * 4;
      const x = r();
      let state = 2;
      let valid = Math.floor(ppb * Math.pow(r(), 0.6));
      if (x < 0.12) {
        state = 0;
        valid = 0;
      } else if (x < 0.13) {
        state = 5;
        valid = 0;
      } else if (x < 0.135) {
        state = 4;
      }
      words[o] = valid;
      words[o + 1] = Math.floor(hot + r() * 25 + (i % 7 === 0 ? 40 : 0));
      words[o + 2] = state;
      words[o + 3] = 0;
    }
    const victim = base + Math.floor(r() * device.blocks_per_plane);
    words[victim * 4 + 2] = 3;
    words[victim * 4 + 3] = 1;
    words[victim * 4] = Math.floor(ppb * 0.1);
    const open = base + Math.floor(r() * device.blocks_per_plane);
    if (open !== victim) {
      words[open * 4 + 2] = 1;
      words[open * 4 + 3] = 2;
      words[open * 4] = Math.floor(ppb * 0.4);
    }
  }
  return { words };
}

/** The model's histogram bucket upper bound (ns) for a latency (log-linear, 128 sub-buckets). */
export function bucketUpperNs(ns: number): number {
  const v = Math.max(0, Math.floor(ns));
  if (v < 256) return v;
  const e = Math.floor(Math.log2(v));
  const w = Math.pow(2, e) / 128;
  const lower = Math.pow(2, e) + Math.floor((v - Math.pow(2, e)) / w) * w;
  return lower + w - 1;
}

/** Builds [upper_ns, count] pairs (ascending) from latency samples in ns. */
export function bucketsFromSamples(samples: number[]): Float64Array {
  const m = new Map<number, number>();
  for (const s of samples) {
    const u = bucketUpperNs(s);
    m.set(u, (m.get(u) ?? 0) + 1);
  }
  const keys = [...m.keys()].sort((a, b) => a - b);
  const out = new Float64Array(keys.length * 2);
  keys.forEach((k, i) => {
    out[2 * i] = k;
    out[2 * i + 1] = m.get(k)!;
  });
  return out;
}

/** Log-normal-ish read and write latencies with a slow tail (GC stalls). */
export function fakeBuckets(nRead = 20000, nWrite = 20000, seed = 1): LatencyBuckets {
  const r = rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const reads: number[] = [];
  const writes: number[] = [];
  for (let i = 0; i < nRead; i++) {
    const tail = r() < 0.01 ? 12 : 1;
    reads.push(80_000 * Math.exp(0.35 * gauss()) * tail);
  }
  for (let i = 0; i < nWrite; i++) {
    const tail = r() < 0.02 ? 40 : 1;
    writes.push(14_000 * Math.exp(0.25 * gauss()) * tail);
  }
  return { read: bucketsFromSamples(reads), write: bucketsFromSamples(writes) };
}

/** n perf intervals of intervalNs: steady throughput that dips when GC starts; some intervals without reads. */
export function fakeSeries(n = 400, intervalNs = 1_000_000, seed = 1): SeriesPoint[] {
  const r = rng(seed);
  const out: SeriesPoint[] = [];
  for (let i = 1; i <= n; i++) {
    const gc = i > n * 0.45 ? 0.55 + 0.2 * Math.sin(i / 9) : 1;
    const iops = 90_000 * gc * (0.92 + 0.16 * r());
    out.push({
      tNs: i * intervalNs,
      iops,
      mbps: (iops * 4096) / 1e6,
      readLatUs: r() < 0.08 ? NaN : 95 * (1 / gc) * (0.85 + 0.3 * r()),
      writeLatUs: 18 * (1 / (gc * gc)) * (0.8 + 0.4 * r()) + (r() < 0.02 ? 400 : 0),
    });
  }
  return out;
}

/** GC runs and erases on every plane, wear leveling, checkpoints, then a power failure and its recovery steps. */
export function fakeTimeline(device: DeviceInfo, count = 1500, seed = 1, powerFailAtNs = 80_000_000): TimelineEvent[] {
  const r = rng(seed);
  const out: TimelineEvent[] = [];
  for (let i = 0; i < count; i++) {
    const plane = Math.floor(r() * device.planes);
    const start = Math.floor(r() * powerFailAtNs * 0.98);
    const dur = 150_000 + Math.floor(r() * r() * 4_000_000);
    const victim = plane * device.blocks_per_plane + Math.floor(r() * device.blocks_per_plane);
    out.push({
      kind: 'gc',
      startNs: start,
      endNs: start + dur,
      unit: plane,
      label: `GC plane ${plane}`,
      detail: `victim block ${victim}: ${Math.floor(r() * 30)} valid pages copied`,
    });
    out.push({
      kind: 'erase',
      startNs: start + dur,
      endNs: start + dur,
      unit: plane,
      label: `erase block ${victim}`,
      detail: `erase count now ${Math.floor(20 + r() * 50)}`,
    });
    if (r() < 0.02) {
      const t = Math.floor(r() * powerFailAtNs);
      out.push({
        kind: 'wear_level',
        startNs: t,
        endNs: t,
        unit: plane,
        label: `wear leveling: move block ${victim}`,
        detail: 'erase-count spread 70 above the threshold',
      });
    }
    if (r() < 0.004) {
      const t = Math.floor(r() * powerFailAtNs);
      out.push({ kind: 'block_retired', startNs: t, endNs: t, unit: plane, label: `block ${victim} retired`, detail: 'program failure' });
    }
  }
  for (let t = 10_000_000; t < powerFailAtNs; t += 20_000_000) {
    out.push({ kind: 'checkpoint', startNs: t, endNs: t, unit: -1, label: 'mapping checkpoint', detail: '64 mapping pages written' });
  }
  out.push({
    kind: 'power_fail',
    startNs: powerFailAtNs,
    endNs: powerFailAtNs,
    unit: -1,
    label: 'power failure',
    detail: '312 dirty buffer pages, 312 saved by the capacitors',
  });
  const steps: [string, number][] = [
    ['capacitor flush', 1_800_000],
    ['firmware boot', 20_000_000],
    ['load checkpoint', 3_200_000],
    ['scan OOB', 9_500_000],
    ['replay trims', 40_000],
    ['rebuild free lists', 700_000],
    ['ready', 0],
  ];
  let t = powerFailAtNs;
  for (const [label, dur] of steps) {
    out.push({ kind: 'recovery_step', startNs: t, endNs: t + dur, unit: -1, label, detail: `${(dur / 1e6).toFixed(3)} ms` });
    t += dur;
  }
  return out;
}
