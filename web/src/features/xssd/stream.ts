// The fast side's observation records (kinds xssd_credit … xssd_commit), picked
// out of the raw 32-byte record stream and sorted by time. Pure: unit-tested.
import { RECORD_BYTES, RecordKind } from '../../bridge/records';

/** The host read the credit counter (xssd_credit). */
export interface CreditRead {
  t: number;
  thread: number;
  /** Counter value the host read. */
  read: number;
  /** Bytes the host thread had written when it read. */
  written: number;
}

/** Fast-side ring state of one device (xssd_ring); unit 0 is the primary, 1+ the secondaries. */
export interface RingSample {
  t: number;
  unit: number;
  /** Bytes waiting in the intake queue. */
  queue: number;
  /** Credit counter: bytes persisted contiguously. */
  counter: number;
  /** Bytes arrived (the ring tail). */
  tail: number;
}

/** A destage page issued to flash (xssd_destage). */
export interface DestageIssue {
  t: number;
  die: number;
  slot: number;
  /** Stream position of the page's first byte. */
  pos: number;
  payload: number;
  page: number;
}

/**
 * The durable stream position advanced (xssd_destage_done): recorded when a
 * programmed page moves it, so one record may cover several pages that
 * finished out of order.
 */
export interface DestageDone {
  t: number;
  /** The slot whose page just finished. */
  slot: number;
  /** Stream position durable on flash now. */
  pos: number;
  /** Low 48 bits of b (issue to programmed, ns, where the model reports it). */
  ns: number;
  retries: number;
}

/** A secondary's counter against its shadow on the primary (xssd_shadow). */
export interface ShadowSample {
  t: number;
  secondary: number;
  shadow: number;
  counter: number;
}

/** A write reached a secondary's shadow counter (xssd_repl_delay). */
export interface ReplDelay {
  t: number;
  secondary: number;
  delayNs: number;
  pos: number;
}

/** The transport status register changed (xssd_status). */
export interface StatusChange {
  t: number;
  bits: number;
  role: number;
  secondary: number;
}

/** One step of the crash protocol (xssd_crash). */
export interface CrashRecord {
  t: number;
  step: number;
  pos: number;
  bytes: number;
}

/** A database group commit (xssd_commit). */
export interface Commit {
  t: number;
  target: number;
  txns: number;
  bytes: number;
  flushNs: number;
}

export interface XssdStream {
  credits: CreditRead[];
  ring: RingSample[];
  destage: DestageIssue[];
  destageDone: DestageDone[];
  shadow: ShadowSample[];
  replDelay: ReplDelay[];
  status: StatusChange[];
  crash: CrashRecord[];
  commits: Commit[];
  /** Time of the newest fast-side record (0 if none). */
  lastNs: number;
}

/** An empty stream (nothing recorded yet). */
export function emptyStream(): XssdStream {
  return {
    credits: [],
    ring: [],
    destage: [],
    destageDone: [],
    shadow: [],
    replDelay: [],
    status: [],
    crash: [],
    commits: [],
    lastNs: 0,
  };
}

const TWO_32 = 4294967296;
const TWO_48 = 281474976710656;
const FIRST = RecordKind.XssdCredit;
const LAST = RecordKind.XssdCommit;

/**
 * Picks the fast-side records out of raw records (32 bytes each, little-endian)
 * and returns them per kind, each list in time order (the model may emit a
 * record stamped slightly in the past; ties keep the emission order).
 */
export function decodeXssd(bytes: Uint8Array): XssdStream {
  const out = emptyStream();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (off: number) => view.getUint32(off, true) + view.getUint32(off + 4, true) * TWO_32;
  for (let off = 0; off + RECORD_BYTES <= bytes.byteLength; off += RECORD_BYTES) {
    const kind = view.getUint16(off + 8, true);
    if (kind < FIRST || kind > LAST) continue;
    const t = u64(off);
    const unit = view.getUint16(off + 10, true);
    const id = view.getUint32(off + 12, true);
    const a = u64(off + 16);
    const b = u64(off + 24);
    if (t > out.lastNs) out.lastNs = t;
    switch (kind) {
      case RecordKind.XssdCredit:
        out.credits.push({ t, thread: unit, read: a, written: b });
        break;
      case RecordKind.XssdRing:
        out.ring.push({ t, unit, queue: id, counter: a, tail: b });
        break;
      case RecordKind.XssdDestage:
        out.destage.push({ t, die: unit, slot: id, pos: a, payload: b % TWO_32, page: Math.floor(b / TWO_32) });
        break;
      case RecordKind.XssdDestageDone:
        out.destageDone.push({ t, slot: id, pos: a, ns: b % TWO_48, retries: Math.floor(b / TWO_48) });
        break;
      case RecordKind.XssdShadow:
        out.shadow.push({ t, secondary: unit, shadow: a, counter: b });
        break;
      case RecordKind.XssdReplDelay:
        out.replDelay.push({ t, secondary: unit, delayNs: a, pos: b });
        break;
      case RecordKind.XssdStatus:
        out.status.push({ t, bits: id, role: a, secondary: b });
        break;
      case RecordKind.XssdCrash:
        out.crash.push({ t, step: id, pos: a, bytes: b });
        break;
      case RecordKind.XssdCommit:
        out.commits.push({ t, target: unit, txns: id, bytes: a, flushNs: b });
        break;
    }
  }
  for (const list of [out.credits, out.ring, out.destage, out.destageDone, out.shadow, out.replDelay, out.status, out.commits]) {
    sortByTime(list);
  }
  // Crash steps of one episode share a time; the step number breaks the tie.
  out.crash.sort((x, y) => x.t - y.t || x.step - y.step);
  return out;
}

function sortByTime(list: { t: number }[]): void {
  for (let i = 1; i < list.length; i++) {
    if (list[i]!.t < list[i - 1]!.t) {
      list.sort((x, y) => x.t - y.t); // stable: ties keep their order
      return;
    }
  }
}

/** The newest ring sample of a device (unit), or null. */
export function lastRing(ring: readonly RingSample[], unit: number): RingSample | null {
  for (let i = ring.length - 1; i >= 0; i--) if (ring[i]!.unit === unit) return ring[i]!;
  return null;
}
