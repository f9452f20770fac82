import { describe, expect, it } from 'vitest';
import { boundResultSize, MAX_RESULT_BYTES, ToolCallError } from '../src/index.js';

const frameBytes = (structured: object, text: string) =>
  Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text }], structuredContent: structured }));

describe('boundResultSize', () => {
  const page = (n: number, size: number, offset = 0) => ({
    data: Array.from({ length: n }, (_, i) => ({ descr: `"${i}"`.padEnd(size, 'é') })),
    count: n,
    limit: n,
    offset,
    next_offset: offset + n,
    truncated: false,
  });
  const cutOf = (p: ReturnType<typeof page>) => (keep: number) => ({
    ...p,
    data: p.data.slice(0, keep),
    count: keep,
    next_offset: p.offset + keep,
    truncated: true,
  });

  it('passes a small result through untouched, its text being the JSON of structuredContent', () => {
    const p = page(10, 50);
    const out = boundResultSize(p, p.data, cutOf(p));
    expect(out.structured).toBe(p);
    expect(JSON.parse(out.text)).toEqual(p);
  });

  it('cuts a large list to the longest prefix whose whole result (both copies, escapes, multi-byte) fits', () => {
    const p = page(400, 3000, 20);
    const max = 256 * 1024;
    const out = boundResultSize(p, p.data, cutOf(p), max);
    const kept = (out.structured['data'] as unknown[]).length;
    expect(out.structured['truncated']).toBe(true);
    expect(out.structured['next_offset']).toBe(20 + kept);
    expect(frameBytes(out.structured, out.text)).toBeLessThanOrEqual(max);
    const oneMore = cutOf(p)(kept + 1);
    expect(frameBytes(oneMore, JSON.stringify(oneMore))).toBeGreaterThan(max - 200);
  });

  // Both copies as the bound counts them: structuredContent raw, the text block as an escaped JSON string.
  const payloadBytes = (structured: object) => {
    const text = JSON.stringify(structured);
    return Buffer.byteLength(text) + Buffer.byteLength(JSON.stringify(text));
  };
  const FRAME = 512;

  it('keeps exactly the longest prefix that fits, its text being JSON.stringify of the cut result', () => {
    // Every kind of character the two copies count differently: quotes, backslashes, control characters
    // (escaped once, then their backslash again), 2-, 3- and 4-byte UTF-8, U+2028, a lone surrogate.
    const odd = ['"q"', 'back\\slash', 'line\nfeed\t', 'é', '€', '😀', '\u2028', '\ud800', '<>&'];
    const rows = Array.from({ length: 600 }, (_, i) => ({
      id: i,
      descr: `${odd[i % odd.length] as string}${i}`.repeat(1 + (i % 7)),
      list: [i, null, true],
    }));
    const p = { data: rows, count: rows.length, limit: 1000, offset: 7, next_offset: null, truncated: false };
    const cut = (keep: number) => ({ ...p, data: p.data.slice(0, keep), count: keep, next_offset: p.offset + keep, truncated: true });
    for (const max of [8_000, 20_011, 64 * 1024]) {
      const out = boundResultSize(p, p.data, cut, max);
      const kept = (out.structured['data'] as unknown[]).length;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(rows.length);
      expect(out.text).toBe(JSON.stringify(out.structured));
      expect(out.structured).toEqual(cut(kept));
      expect(payloadBytes(out.structured) + FRAME).toBeLessThanOrEqual(max);
      expect(payloadBytes(cut(kept + 1)) + FRAME).toBeGreaterThan(max);
    }
    const whole = boundResultSize(p, p.data, cut);
    expect(whole.structured).toBe(p);
    expect(whole.text).toBe(JSON.stringify(p));
  });

  it('finds the item boundaries of any JSON items: nested values, brackets and commas inside strings, scalars', () => {
    const shapes = [
      (i: number) => ({ s: `],{"x":[${i}],}`, nested: { a: [[i], { b: '\\"]' }], c: null } }),
      (i: number) => `"[${i}]",{}\\`,
      (i: number) => i * 1000.5,
      (i: number) => [i, 'x,y', [], {}, [{ z: '}' }]],
      () => null,
      (i: number) => i % 2 === 0,
    ];
    const rows = Array.from({ length: 300 }, (_, i) => (shapes[i % shapes.length] as (i: number) => unknown)(i));
    const p = { data: rows, count: rows.length, limit: 1000, offset: 0, next_offset: null, truncated: false };
    const cut = (keep: number) => ({ ...p, data: p.data.slice(0, keep), count: keep, next_offset: keep, truncated: true });
    for (const max of [2_000, 9_999, 60_000]) {
      const out = boundResultSize(p, p.data, cut, max);
      const kept = (out.structured['data'] as unknown[]).length;
      expect(out.text).toBe(JSON.stringify(out.structured));
      // The longest prefix, found by brute force over every candidate.
      let longest = payloadBytes(p) + FRAME <= max ? rows.length : 0;
      for (let k = 1; longest === 0 && k < rows.length; k += 1)
        if (payloadBytes(cut(rows.length - k)) + FRAME <= max) longest = rows.length - k;
      expect(kept).toBe(longest);
      expect(kept).toBeGreaterThan(0);
    }
    expect((boundResultSize(p, p.data, cut, 9_999).structured['data'] as unknown[]).length).toBeLessThan(rows.length);
  });

  it('finds the same boundaries in plain ASCII text with no escapes, the usual READ page', () => {
    // No quote or backslash inside a value and nothing beyond ASCII: the text takes the native string-skipping walk.
    const shapes = [
      (i: number) => ({ s: `],{x:[${i}],}`, nested: { a: [[i], { b: ']' }], c: null }, empty: '' }),
      (i: number) => `[${i}],{}:`,
      (i: number) => i * 1000.5,
      (i: number) => [i, 'x,y', [], {}, [{ z: '}' }]],
      () => null,
      (i: number) => ({ descr: `rule ${i}`.repeat(1 + (i % 5)), log: i % 2 === 0 }),
    ];
    const rows = Array.from({ length: 300 }, (_, i) => (shapes[i % shapes.length] as (i: number) => unknown)(i));
    const p = { data: rows, count: rows.length, limit: 1000, offset: 0, next_offset: null, truncated: false };
    expect(JSON.stringify(p)).not.toMatch(/[\\\u0080-\uffff]/);
    const cut = (keep: number) => ({ ...p, data: p.data.slice(0, keep), count: keep, next_offset: keep, truncated: true });
    for (const max of [2_000, 7_777, 15_000]) {
      const out = boundResultSize(p, p.data, cut, max);
      const kept = (out.structured['data'] as unknown[]).length;
      expect(out.text).toBe(JSON.stringify(out.structured));
      let longest = 0;
      for (let k = rows.length - 1; longest === 0 && k >= 1; k -= 1) if (payloadBytes(cut(k)) + FRAME <= max) longest = k;
      expect(kept).toBe(longest);
      expect(kept).toBeGreaterThan(0);
    }
    expect(payloadBytes(p) + FRAME).toBeGreaterThan(15_000);
  });

  it('writes a list element JSON cannot express as null, as JSON.stringify does', () => {
    const p = { data: [1, undefined, 'x'], count: 3 };
    expect(boundResultSize(p, p.data, null).text).toBe(JSON.stringify(p));
  });

  it('refuses a list that is not the result\'s first key "data"', () => {
    const p = page(3, 10);
    expect(() => boundResultSize(p, [...p.data], cutOf(p))).toThrow(TypeError);
    const q = { count: 3, data: p.data };
    expect(() => boundResultSize(q, q.data, null)).toThrow(TypeError);
  });

  it('refuses what cannot be cut: a singular result or a first item over the limit', () => {
    expect(() => boundResultSize({ data: { x: 'a'.repeat(600_000) } }, null, null)).toThrow(ToolCallError);
    const p = page(3, MAX_RESULT_BYTES);
    expect(() => boundResultSize(p, p.data, cutOf(p))).toThrow(ToolCallError);
    const big = page(4, 400_000);
    expect(() => boundResultSize(big, big.data, null)).toThrow(ToolCallError);
  });
});
