import { describe, expect, it } from 'vitest';
import { RECORD_BYTES, RecordKind } from '../../bridge/records';
import { decodeXssd, lastRing } from './stream';

type Row = [t: number, kind: number, unit: number, id: number, a: number, b: number];

/** Raw little-endian records, as the model writes them. */
function encode(rows: Row[]): Uint8Array {
  const out = new Uint8Array(rows.length * RECORD_BYTES);
  const v = new DataView(out.buffer);
  const u64 = (off: number, x: number) => {
    v.setUint32(off, x % 2 ** 32, true);
    v.setUint32(off + 4, Math.floor(x / 2 ** 32), true);
  };
  rows.forEach(([t, kind, unit, id, a, b], i) => {
    const off = i * RECORD_BYTES;
    u64(off, t);
    v.setUint16(off + 8, kind, true);
    v.setUint16(off + 10, unit, true);
    v.setUint32(off + 12, id, true);
    u64(off + 16, a);
    u64(off + 24, b);
  });
  return out;
}

describe('decodeXssd', () => {
  it('keeps only the fast-side kinds and splits packed fields', () => {
    const bytes = encode([
      [100, RecordKind.PerfIndex, 0, 1, 5, 6],
      [200, RecordKind.XssdDestage, 3, 7, 16384, 12000 + 16384 * 2 ** 32],
      [300, RecordKind.XssdDestageDone, 0, 7, 28384, 750_000 + 2 * 2 ** 48],
      [310, RecordKind.XssdCredit, 2, 0, 16064, 16384],
      [320, RecordKind.XssdRing, 1, 512, 4096, 4608],
      [330, RecordKind.XssdCommit, 0, 32, 16384, 12524],
      [340, RecordKind.XssdStatus, 0, 259, 1, 0],
      [350, RecordKind.Erase, 0, 1, 1, 0],
    ]);
    const s = decodeXssd(bytes);
    expect(s.destage).toEqual([{ t: 200, die: 3, slot: 7, pos: 16384, payload: 12000, page: 16384 }]);
    expect(s.destageDone).toEqual([{ t: 300, slot: 7, pos: 28384, ns: 750_000, retries: 2 }]);
    expect(s.credits).toEqual([{ t: 310, thread: 2, read: 16064, written: 16384 }]);
    expect(s.ring).toEqual([{ t: 320, unit: 1, queue: 512, counter: 4096, tail: 4608 }]);
    expect(s.commits).toEqual([{ t: 330, target: 0, txns: 32, bytes: 16384, flushNs: 12524 }]);
    expect(s.status).toEqual([{ t: 340, bits: 259, role: 1, secondary: 0 }]);
    expect(s.lastNs).toBe(340);
  });

  it('sorts records stamped in the past into time order, ties in emission order', () => {
    const s = decodeXssd(
      encode([
        [1_000_000, RecordKind.XssdShadow, 0, 0, 65536, 65536],
        [816_808, RecordKind.XssdReplDelay, 0, 0, 4728, 65536],
        [900_000, RecordKind.XssdShadow, 0, 0, 49152, 49152],
        [1_000_000, RecordKind.XssdShadow, 1, 0, 1, 1],
      ]),
    );
    expect(s.shadow.map((x) => [x.t, x.secondary])).toEqual([
      [900_000, 0],
      [1_000_000, 0],
      [1_000_000, 1],
    ]);
    expect(s.replDelay[0]!.delayNs).toBe(4728);
  });

  it('orders crash steps of one instant by step number', () => {
    const s = decodeXssd(
      encode([
        [7, RecordKind.XssdCrash, 0, 2, 30, 0],
        [7, RecordKind.XssdCrash, 0, 0, 10, 0],
        [9, RecordKind.XssdCrash, 0, 3, 40, 4],
        [7, RecordKind.XssdCrash, 0, 1, 20, 5],
      ]),
    );
    expect(s.crash.map((c) => c.step)).toEqual([0, 1, 2, 3]);
  });

  it('reads 64-bit positions above 2^32 exactly', () => {
    const big = 5 * 2 ** 32 + 123;
    const s = decodeXssd(encode([[big, RecordKind.XssdRing, 0, 0, big, big + 1]]));
    expect(s.ring[0]).toEqual({ t: big, unit: 0, queue: 0, counter: big, tail: big + 1 });
  });

  it('finds the newest ring sample of a unit', () => {
    const s = decodeXssd(
      encode([
        [1, RecordKind.XssdRing, 0, 0, 1, 1],
        [2, RecordKind.XssdRing, 1, 0, 2, 2],
        [3, RecordKind.XssdRing, 0, 64, 3, 4],
      ]),
    );
    expect(lastRing(s.ring, 0)?.t).toBe(3);
    expect(lastRing(s.ring, 1)?.t).toBe(2);
    expect(lastRing(s.ring, 2)).toBeNull();
  });
});
