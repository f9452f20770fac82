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
  const cutOf = (p: ReturnType<typeof page>) => (keep: number) => ({ ...p, data: p.data.slice(0, keep), count: keep, next_offset: p.offset + keep, truncated: true });

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

  it('refuses what cannot be cut: a singular result or a first item over the limit', () => {
    expect(() => boundResultSize({ data: { x: 'a'.repeat(600_000) } }, null, null)).toThrow(ToolCallError);
    const p = page(3, MAX_RESULT_BYTES);
    expect(() => boundResultSize(p, p.data, cutOf(p))).toThrow(ToolCallError);
  });
});
