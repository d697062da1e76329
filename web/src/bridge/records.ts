// Decoding of the model's 32-byte observation records (layout: docs/model/obs.md).

export const RECORD_BYTES = 32;

/** Mirrors ssdp::RecordKind (core/src/obs/record.h); values are part of the format. */
export const RecordKind = {
  RequestSubmit: 0,
  RequestFetched: 1,
  RequestTranslated: 2,
  RequestGcWait: 3,
  RequestScheduled: 4,
  RequestDmaDone: 5,
  RequestComplete: 6,
  FlashOpStart: 7,
  FlashOpEnd: 8,
  GcStart: 9,
  GcEnd: 10,
  Erase: 11,
  BlockRetired: 12,
  PerfIndex: 13,
  ChannelPerf: 14,
  PowerFail: 15,
  RecoveryStep: 16,
  Checkpoint: 17,
  WearLevel: 18,
  Trim: 19,
  InstrTrigger: 20,
  InstrCommand: 21,
  XssdCredit: 22,
  XssdRing: 23,
  XssdDestage: 24,
  XssdDestageDone: 25,
  XssdShadow: 26,
  XssdReplDelay: 27,
  XssdStatus: 28,
  XssdCrash: 29,
  XssdCommit: 30,
  RecordGap: 31,
  ChannelTransfer: 32,
} as const;

export interface DecodedRecord {
  timeNs: number;
  kind: number;
  unit: number;
  id: number;
  a: number;
  b: number;
}

const TWO_32 = 4294967296;

/**
 * Calls fn for each record in bytes. 64-bit fields become Numbers (exact below
 * 2^53, which covers every time and counter the model produces); the record
 * object is reused between calls.
 */
export function decodeRecords(bytes: Uint8Array, fn: (r: DecodedRecord) => void): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r: DecodedRecord = { timeNs: 0, kind: 0, unit: 0, id: 0, a: 0, b: 0 };
  for (let off = 0; off + RECORD_BYTES <= bytes.byteLength; off += RECORD_BYTES) {
    r.timeNs = view.getUint32(off, true) + view.getUint32(off + 4, true) * TWO_32;
    r.kind = view.getUint16(off + 8, true);
    r.unit = view.getUint16(off + 10, true);
    r.id = view.getUint32(off + 12, true);
    r.a = view.getUint32(off + 16, true) + view.getUint32(off + 20, true) * TWO_32;
    r.b = view.getUint32(off + 24, true) + view.getUint32(off + 28, true) * TWO_32;
    fn(r);
  }
}

/** CSV of raw records with kind names, for the "record stream" export. */
export function recordsToCsv(bytes: Uint8Array, kindNames: string[]): string {
  const lines = ['time_ns,kind,unit,id,a,b'];
  decodeRecords(bytes, (r) => {
    lines.push(`${r.timeNs},${kindNames[r.kind] ?? r.kind},${r.unit},${r.id},${r.a},${r.b}`);
  });
  return lines.join('\n') + '\n';
}
