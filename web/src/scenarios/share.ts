// Share links: the whole scenario, compressed with lz-string
// (compressToEncodedURIComponent), travels in the URL fragment as `#s=...`.
//
// A link is untrusted input. It is data, never code: it is size-capped before
// and *during* decompression (an LZ stream can expand quadratically, so the cap
// is enforced inside the decoder, not after it), parsed as JSON and handed back
// for the same schema and model validation as a file. Nothing here touches the
// DOM; the page shows `ShareDecode.error` in a banner.
import { compressToEncodedURIComponent } from 'lz-string';

/** Largest accepted `s=` payload (compressed, URI-safe characters). */
export const MAX_LINK_CHARS = 64 * 1024;
/** Largest accepted scenario after decompression (UTF-8 bytes). */
export const MAX_SCENARIO_BYTES = 256 * 1024;

/** The alphabet of compressToEncodedURIComponent. */
const URI_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const REVERSE = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < URI_SAFE.length; i++) table[URI_SAFE.charCodeAt(i)] = i;
  return table;
})();

export type DecompressResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'alphabet' | 'corrupt' | 'too_large'; detail: string };

/**
 * lz-string's decompressFromEncodedURIComponent, rewritten with two safety
 * changes: characters outside the alphabet are rejected (lz-string silently
 * reads them as zero bits), and output beyond `maxChars` UTF-16 code units
 * stops the decoder at once. Same bit format, same result for valid input.
 */
export function decompressUriSafe(input: string, maxChars: number): DecompressResult {
  const length = input.length;
  if (length === 0) return { ok: false, reason: 'corrupt', detail: 'the link carries no data' };
  const values = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    let code = input.charCodeAt(i);
    if (code === 32) code = 43; // a '+' that became a space on the way
    const v = code < 128 ? REVERSE[code]! : -1;
    if (v < 0) {
      return {
        ok: false,
        reason: 'alphabet',
        detail: `character ${JSON.stringify(input[i])} at position ${i} is not part of a share link`,
      };
    }
    values[i] = v;
  }

  let val = values[0]!;
  let position = 32;
  let index = 1;
  const readBits = (n: number): number => {
    let bits = 0;
    for (let p = 0; p < n; p++) {
      const resb = val & position;
      position >>= 1;
      if (position === 0) {
        position = 32;
        val = index < length ? values[index]! : 0;
        index++;
      }
      if (resb > 0) bits |= 1 << p;
    }
    return bits;
  };

  const corrupt = (detail: string): DecompressResult => ({ ok: false, reason: 'corrupt', detail });
  const dictionary: string[] = ['', '', ''];
  let enlargeIn = 4;
  let dictSize = 4;
  let numBits = 3;

  let c: string;
  switch (readBits(2)) {
    case 0:
      c = String.fromCharCode(readBits(8));
      break;
    case 1:
      c = String.fromCharCode(readBits(16));
      break;
    case 2:
      return { ok: true, text: '' };
    default:
      return corrupt('the data does not start like a compressed scenario');
  }
  dictionary[3] = c;
  let w = c;
  const result: string[] = [c];
  let outChars = 1;

  for (;;) {
    if (index > length) return corrupt('the data ends too early (was the link cut short?)');
    if (numBits > 24) return corrupt('the data is not a compressed scenario');
    let code = readBits(numBits);
    switch (code) {
      case 0:
        dictionary[dictSize++] = String.fromCharCode(readBits(8));
        code = dictSize - 1;
        enlargeIn--;
        break;
      case 1:
        dictionary[dictSize++] = String.fromCharCode(readBits(16));
        code = dictSize - 1;
        enlargeIn--;
        break;
      case 2:
        return { ok: true, text: result.join('') };
      default:
        break;
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }

    let entry: string;
    const known = dictionary[code];
    if (code >= 3 && known !== undefined) entry = known;
    else if (code === dictSize) entry = w + w.charAt(0);
    else return corrupt('the data is not a compressed scenario');

    outChars += entry.length;
    if (outChars > maxChars) {
      return { ok: false, reason: 'too_large', detail: `it expands to more than ${maxChars} characters` };
    }
    result.push(entry);
    dictionary[dictSize++] = w + entry.charAt(0);
    enlargeIn--;
    w = entry;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  }
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function kib(n: number): string {
  return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KiB`;
}

export type ShareEncode = { ok: true; payload: string } | { ok: false; error: string };

/**
 * The `s=` payload for a scenario. The JSON is re-serialised without
 * whitespace first (links stay short; the receiving editor pretty-prints).
 */
export function encodeScenario(scenarioJson: string): ShareEncode {
  let compact: string;
  try {
    compact = JSON.stringify(JSON.parse(scenarioJson));
  } catch {
    return { ok: false, error: 'the scenario is not valid JSON' };
  }
  const bytes = utf8Bytes(compact);
  if (bytes > MAX_SCENARIO_BYTES) {
    return { ok: false, error: `the scenario is ${kib(bytes)}; a link can carry at most ${kib(MAX_SCENARIO_BYTES)}` };
  }
  const payload = compressToEncodedURIComponent(compact);
  if (payload.length > MAX_LINK_CHARS) {
    return {
      ok: false,
      error: `the compressed scenario is ${kib(payload.length)}; a link can carry at most ${kib(MAX_LINK_CHARS)}`,
    };
  }
  return { ok: true, payload };
}

/** A full share URL: `base` without its fragment, plus `#s=<payload>`. */
export function shareUrl(base: string, payload: string): string {
  const hash = base.indexOf('#');
  return `${hash >= 0 ? base.slice(0, hash) : base}#s=${payload}`;
}

export type ShareDecode =
  | { kind: 'none' }
  | { kind: 'ok'; json: string; value: unknown }
  | { kind: 'error'; error: string };

/** The raw `s=` value of a fragment (`#s=...`, or `s=` among `&`-separated parts), or null. */
export function sharePayload(hash: string): string | null {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (body === '') return null;
  for (const part of body.split('&')) {
    if (part.startsWith('s=')) return part.slice(2);
  }
  return null;
}

/**
 * Decodes a location.hash. `none` when the fragment carries no scenario;
 * otherwise the scenario text and its parsed JSON value (still to be validated
 * against the schema and by the model), or an error that names the problem.
 */
export function decodeShareHash(hash: string): ShareDecode {
  let payload = sharePayload(hash);
  if (payload === null) return { kind: 'none' };
  if (payload.length > MAX_LINK_CHARS * 3) {
    // Checked before any decoding work, with room for percent-encoding.
    return { kind: 'error', error: `the link is too long (${kib(payload.length)}; the limit is ${kib(MAX_LINK_CHARS)})` };
  }
  if (payload.includes('%')) {
    try {
      payload = decodeURIComponent(payload);
    } catch {
      return { kind: 'error', error: 'the link is damaged: it has a broken %-escape' };
    }
  }
  if (payload === '') return { kind: 'error', error: 'the link is empty: nothing follows "#s="' };
  if (payload.length > MAX_LINK_CHARS) {
    return { kind: 'error', error: `the link is too long (${kib(payload.length)}; the limit is ${kib(MAX_LINK_CHARS)})` };
  }
  const out = decompressUriSafe(payload, MAX_SCENARIO_BYTES);
  if (!out.ok) {
    switch (out.reason) {
      case 'too_large':
        return { kind: 'error', error: `the link's scenario is too large: ${out.detail} (the limit is ${kib(MAX_SCENARIO_BYTES)})` };
      case 'alphabet':
        return { kind: 'error', error: `the link is damaged: ${out.detail}` };
      default:
        return { kind: 'error', error: `the link's scenario could not be decompressed: ${out.detail}` };
    }
  }
  const bytes = utf8Bytes(out.text);
  if (bytes > MAX_SCENARIO_BYTES) {
    return { kind: 'error', error: `the link's scenario is too large (${kib(bytes)}; the limit is ${kib(MAX_SCENARIO_BYTES)})` };
  }
  if (out.text.trim() === '') return { kind: 'error', error: "the link's scenario is empty" };
  let value: unknown;
  try {
    value = JSON.parse(out.text);
  } catch (e) {
    return { kind: 'error', error: `the link's scenario is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'error', error: "the link's scenario is not a JSON object" };
  }
  return { kind: 'ok', json: out.text, value };
}
