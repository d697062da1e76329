// Plain-language explanations for the views (shown by ChartPanel's ⓘ toggle)
// and a glossary for the metrics panel. Written for a classroom: short, and
// true to what the model does (docs/architecture.md, docs/scenario-format.md).
// Paragraphs are separated by a blank line.

export interface ViewHelp {
  floorPlan: string;
  blockMap: string;
  throughput: string;
  latency: string;
  latencyCdf: string;
  timeline: string;
}

export const HelpText: ViewHelp & { glossary: Record<GlossaryTerm, string> } = {
  floorPlan:
    'The inside of the SSD. Each row is a channel: a shared bus between the controller and its flash chips. ' +
    'Each box on a row is a die, the smallest part of the flash that works on its own. A die does one ' +
    'operation at a time: reading a page into its register, programming (writing) a page, or erasing a block.\n\n' +
    'Colours show what each die is doing right now. Blue-green "bus transfer" means data is moving over the ' +
    "channel; pink means the die is ready but waiting for the bus, which another die on the same channel is using. " +
    'A channel line lights up while its bus is busy. The small bar and number in a box count the operations ' +
    'queued for that die; the tiny squares flash when the die finished a read, program, erase or copyback since ' +
    'the last screen update.\n\n' +
    'Below: how many commands each workload flow has outstanding in its NVMe queue (out of its queue depth), and ' +
    'how full the DRAM write buffer is. When the buffer is full, new writes wait: that is when the host feels ' +
    'the flash (and garbage collection) directly.',

  blockMap:
    'Every erase block of the device, grouped by plane (one tile per plane). Flash cannot overwrite a page in ' +
    'place: new data goes to a fresh page and the old copy becomes invalid. Space comes back only when a whole ' +
    'block is erased, so garbage collection first copies the still-valid pages elsewhere.\n\n' +
    '"Valid pages" shows how much live data each block holds (yellow: all valid; dark purple: mostly stale, a ' +
    'cheap GC victim; grey: erased and free). "Erase count" shows wear: each block survives a limited number of ' +
    'program/erase cycles, and wear leveling tries to keep this map even. "State" shows free, open (being ' +
    'written), full, GC victim, retiring and bad blocks. The block GC is cleaning right now is outlined; open ' +
    'blocks carry a dot.\n\n' +
    'Hover a block for its numbers. On a very large device one cell may stand for several blocks.',

  throughput:
    'How much work the device completes per interval of simulated time. IOPS counts requests finished per ' +
    'second (left axis); MB/s counts the data they moved (right axis). With one request size the two lines have ' +
    'the same shape.\n\n' +
    'Watch for dips: when free blocks run low, garbage collection competes with the host for the dies, and ' +
    'below the foreground watermark host writes must wait for it. A write-back buffer can hide this for a while, ' +
    'until it fills.',

  latency:
    'The mean time from submitting a request to its completion, per interval, for reads and for writes ' +
    '(microseconds, from sampled requests). Writes are usually fast because they finish once the data is in ' +
    'the DRAM buffer; reads that miss the buffer wait for the flash.\n\n' +
    'Spikes mean requests queued behind something slow: an erase, a garbage-collection burst, or a full write ' +
    'buffer. A gap means no sampled request of that kind finished in the interval.',

  latencyCdf:
    'For each latency on the x axis, the share of all completed requests that took at most that long. A curve ' +
    'that rises steeply and early means consistently fast requests; a long tail to the right means some ' +
    'requests were much slower than most.\n\n' +
    'p50 is the median; p99 means 99 % of requests were at least this fast (1 in 100 was slower); p99.9 is ' +
    '1 in 1,000. Switch to "Tail (nines)" to stretch the top of the curve, where those slow requests live. The ' +
    'x axis is logarithmic: each step is ten times slower. Values are exact counts from the model, grouped in ' +
    'buckets less than 1 % wide.',

  timeline:
    'What the flash-management firmware did and when. Each plane lane shows garbage collection runs (bars, from ' +
    'picking a victim block to erasing it), erases, wear-leveling moves and retired blocks (ticks). The device ' +
    'lane shows mapping checkpoints; the power lane shows power failures and every step of the recovery that ' +
    'follows, with how long it took.\n\n' +
    'Times differ hugely: a flash operation takes microseconds, a recovery step can take milliseconds. Scroll ' +
    'to zoom the time axis, drag to pan, "Zoom to recovery" jumps to the power failure, and "Reset zoom" shows ' +
    'the whole run again. Hover any mark for details.',

  glossary: {
    IOPS: 'Input/output operations per second: how many requests (reads, writes, trims) the device completes each second of simulated time.',
    'MB/s': 'Megabytes per second (1 MB = 1,000,000 bytes) moved between host and device by completed reads and writes.',
    WAF:
      'Write amplification factor: bytes the flash programmed for data (buffer flushes plus pages copied by garbage collection) per byte the host wrote. 1.0 means no extra writes; 3.0 means every host byte cost three bytes of flash writes, and wears the flash three times as fast. It can drop below 1 when the buffer absorbs overwrites before they reach flash.',
    RMW:
      'Read-modify-write: a write smaller than a flash page (say 4 KiB into an 8 KiB page) cannot program half a page, so the FTL first reads the old page, merges in the new data and programs the whole page somewhere new. It costs an extra flash read.',
    GC: 'Garbage collection: picks a victim block with few valid pages, copies those pages into another block of the same plane, then erases the victim so it can be written again. It is why an SSD writes more than the host asks for.',
    'foreground GC':
      'Garbage collection the host waits for: when a plane drops below the foreground watermark of free blocks, new writes stall until GC frees space. This is what causes write latency spikes.',
    'background GC':
      'Garbage collection that runs while the host keeps going: it starts when a plane drops below the background watermark, sharing the dies with host work.',
    watermark:
      'A threshold of free blocks per plane. Below the background watermark GC starts; below the (lower) foreground watermark host writes wait for GC.',
    copyback:
      'A GC copy done inside the die: the page is read into the die register and programmed into another block of the same plane without crossing the channel, which saves bus time.',
    OOB: 'Out-of-band area: spare bytes next to every flash page where the FTL stores which logical page the data belongs to and a version number. After a power failure, recovery reads it to rebuild the mapping.',
    checkpoint:
      'A copy of the mapping table (logical page → physical page) written to flash every so many page writes, so that recovery after a power failure only scans pages written since the last checkpoint.',
    TRIM: 'The host telling the device that a range of addresses no longer holds useful data. Whole pages in the range become invalid at once, so GC does not copy them. Partial pages at the edges are left alone.',
    'wear leveling':
      'Spreading erases evenly so no block wears out early. Dynamic: write new data to the least-worn free block. Static: when the gap between the most and least erased blocks grows too big, move cold (rarely rewritten) data off little-worn blocks so they get used.',
    p99: 'The 99th percentile latency: 99 % of requests finished at least this fast, 1 in 100 took longer. It shows the slow tail that an average hides.',
    'write buffer':
      'DRAM in the controller that holds written data until it is programmed to flash. Writes complete as soon as their data is there; if every slot is dirty, new writes wait. Capacitors can flush it on power loss.',
    'die / plane / block / page':
      'A die runs one flash operation at a time; it has planes that can work in parallel on the same kind of operation; a plane has blocks (the unit of erase); a block has pages (the unit of read and program).',
  },
};

export type GlossaryTerm =
  | 'IOPS'
  | 'MB/s'
  | 'WAF'
  | 'RMW'
  | 'GC'
  | 'foreground GC'
  | 'background GC'
  | 'watermark'
  | 'copyback'
  | 'OOB'
  | 'checkpoint'
  | 'TRIM'
  | 'wear leveling'
  | 'p99'
  | 'write buffer'
  | 'die / plane / block / page';
