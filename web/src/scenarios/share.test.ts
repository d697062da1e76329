import { describe, expect, it } from 'vitest';
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import {
  MAX_LINK_CHARS,
  MAX_SCENARIO_BYTES,
  decodeShareHash,
  decompressUriSafe,
  encodeScenario,
  sharePayload,
  shareUrl,
} from './share';

const scenario = {
  title: 'A small MLC SSD',
  description: 'Ünïcödé — and 😀 emoji survive the trip',
  seed: 7,
  device: { geometry: { channels: 4 } },
};

// A deterministic pseudo-random generator, so failures reproduce.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('decompressUriSafe', () => {
  it('matches lz-string on random text of many sizes', () => {
    const rand = rng(42);
    const alphabet = 'abc{}":, 0123456789\nÜ😀';
    for (let n = 1; n < 3000; n = Math.ceil(n * 1.7)) {
      let text = '';
      for (let i = 0; i < n; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
      const packed = compressToEncodedURIComponent(text);
      const out = decompressUriSafe(packed, 1 << 20);
      expect(out).toEqual({ ok: true, text });
      expect(decompressFromEncodedURIComponent(packed)).toBe(text);
    }
  });

  it('stops a decompression bomb at the cap instead of expanding it', () => {
    const packed = compressToEncodedURIComponent('a'.repeat(300_000));
    expect(packed.length).toBeLessThan(2000); // small link, huge output
    const out = decompressUriSafe(packed, MAX_SCENARIO_BYTES);
    expect(out.ok).toBe(false);
    expect(!out.ok && out.reason).toBe('too_large');
  });

  it('rejects characters outside the link alphabet', () => {
    const out = decompressUriSafe('abc<script>', 1000);
    expect(out.ok).toBe(false);
    expect(!out.ok && out.reason).toBe('alphabet');
    expect(!out.ok && out.detail).toContain('"<"');
  });

  it('reports a truncated stream as corrupt', () => {
    const packed = compressToEncodedURIComponent(JSON.stringify(scenario));
    const out = decompressUriSafe(packed.slice(0, packed.length - 6), 1 << 20);
    expect(out.ok).toBe(false);
  });
});

describe('encodeScenario / decodeShareHash', () => {
  it('round-trips a scenario through a URL fragment', () => {
    const text = JSON.stringify(scenario, null, 2);
    const enc = encodeScenario(text);
    expect(enc.ok).toBe(true);
    if (!enc.ok) return;
    const url = shareUrl('http://127.0.0.1:4173/app/?x=1#old', enc.payload);
    expect(url.startsWith('http://127.0.0.1:4173/app/?x=1#s=')).toBe(true);
    const dec = decodeShareHash(new URL(url).hash);
    expect(dec.kind).toBe('ok');
    expect(dec.kind === 'ok' && dec.value).toEqual(scenario);
    // The payload is compact JSON: whitespace is not worth carrying.
    expect(dec.kind === 'ok' && dec.json).toBe(JSON.stringify(scenario));
  });

  it('survives a "+" turned into a space or percent-encoded characters', () => {
    const enc = encodeScenario(JSON.stringify({ ...scenario, title: '~~~~~~~~~~~~~~~~~~~~~~~~~~~' }));
    if (!enc.ok) throw new Error(enc.error);
    const mangled = encodeURIComponent(enc.payload).replace(/%2B/g, ' ');
    const dec = decodeShareHash(`#s=${mangled}`);
    expect(dec.kind).toBe('ok');
  });

  it('finds s= among other fragment parameters', () => {
    expect(sharePayload('#view=cdf&s=abc')).toBe('abc');
    expect(sharePayload('#view=cdf')).toBeNull();
    expect(sharePayload('')).toBeNull();
    expect(decodeShareHash('#other')).toEqual({ kind: 'none' });
  });

  it.each([
    ['#s=garbage', /could not be decompressed|not valid JSON|not a JSON object|is empty/],
    ['#s=', /empty/],
    ['#s=%E0%A4%A', /broken %-escape/],
    ['#s=abc!def', /damaged/],
  ])('explains what is wrong with %s', (hash, message) => {
    const dec = decodeShareHash(hash);
    expect(dec.kind).toBe('error');
    expect(dec.kind === 'error' && dec.error).toMatch(message);
  });

  it('refuses a payload over the link cap before decoding it', () => {
    const dec = decodeShareHash(`#s=${'A'.repeat(MAX_LINK_CHARS + 1)}`);
    expect(dec.kind === 'error' && dec.error).toMatch(/too long/);
  });

  it('refuses a link whose scenario expands beyond the size cap', () => {
    const huge = JSON.stringify({ title: 'x', description: ' '.repeat(MAX_SCENARIO_BYTES) });
    const dec = decodeShareHash(`#s=${compressToEncodedURIComponent(huge)}`);
    expect(dec.kind === 'error' && dec.error).toMatch(/too large/);
  });

  it('rejects JSON that is not an object', () => {
    const dec = decodeShareHash(`#s=${compressToEncodedURIComponent('[1,2,3]')}`);
    expect(dec.kind === 'error' && dec.error).toMatch(/not a JSON object/);
    const dec2 = decodeShareHash(`#s=${compressToEncodedURIComponent('{"a":')}`);
    expect(dec2.kind === 'error' && dec2.error).toMatch(/not valid JSON/);
  });

  it('refuses to make a link for an oversized or broken scenario', () => {
    const big = encodeScenario(JSON.stringify({ d: 'x'.repeat(MAX_SCENARIO_BYTES) }));
    expect(big.ok).toBe(false);
    expect(!big.ok && big.error).toMatch(/at most 256 KiB/);
    expect(encodeScenario('{').ok).toBe(false);
  });
});
