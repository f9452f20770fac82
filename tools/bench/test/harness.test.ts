import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BENCHMARKS,
  benchHelpText,
  estimatedTokens,
  formatTable,
  median,
  modelFacingBytes,
  parseBenchArgs,
  percentile,
  result,
} from '../src/index.js';

describe('bench harness', () => {
  it('computes nearest-rank percentiles', () => {
    const xs = [5, 1, 4, 2, 3];
    expect(median(xs)).toBe(3);
    expect(percentile(xs, 95)).toBe(5);
    expect(percentile(xs, 0)).toBe(1);
    expect(() => median([])).toThrow(RangeError);
    expect(() => percentile(xs, 101)).toThrow(RangeError);
  });

  it('builds results with the JSON-line shape {name, value, unit, floor, ratio, target}', () => {
    expect(result('cold_start_median_ms', 150, 'ms', 200, 0.75)).toEqual({
      name: 'cold_start_median_ms',
      value: 150,
      unit: 'ms',
      floor: 200,
      ratio: 0.75,
      target: 0.75,
    });
    expect(result('server_peak_rss_mib', 80.12345, 'MiB')).toEqual({
      name: 'server_peak_rss_mib',
      value: 80.123,
      unit: 'MiB',
      floor: null,
      ratio: null,
      target: null,
    });
  });

  it('prints a table with a verdict against the target (ratio when there is a floor, else value)', () => {
    const table = formatTable([result('a_ms', 150, 'ms', 200, 0.75), result('b_ms', 3, 'ms', null, 2), result('c_mib', 80, 'MiB')]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[2]).toMatch(/^a_ms .* ok$/);
    expect(lines[3]).toMatch(/^b_ms .* MISSED$/);
    expect(lines[4]).toMatch(/^c_mib/);
  });

  it('judges throughputs (unit per second) as at least their target, times and sizes as at most', () => {
    const [, , slow, fast] = formatTable([result('slow', 30, 'lifecycles/s', 90, 0.5), result('fast', 60, 'rows/s', 90, 0.5)]).split('\n');
    expect(slow).toMatch(/≥ 0.5× +MISSED$/);
    expect(fast).toMatch(/≥ 0.5× +ok$/);
  });

  it('registers the contract store, tool surface and write-outbox benchmarks', () => {
    expect(BENCHMARKS.map((b) => b.id)).toContain('contract-store');
    expect(BENCHMARKS.map((b) => b.id)).toContain('tool-surface');
    expect(BENCHMARKS.map((b) => b.id)).toContain('write-outbox');
  });

  it('measures the model-facing part of a tool list (name, description, input schema) in UTF-8 bytes and estimates tokens', () => {
    const tools = [
      {
        name: 'a',
        description: 'é',
        inputSchema: { type: 'object' },
        title: 'ignored',
        outputSchema: { type: 'object', big: 'x'.repeat(100) },
      },
    ];
    expect(modelFacingBytes(tools)).toBe(Buffer.byteLength('[{"name":"a","description":"é","inputSchema":{"type":"object"}}]'));
    expect(estimatedTokens(0)).toBe(0);
    expect(estimatedTokens(1)).toBe(1);
    expect(estimatedTokens(40_960)).toBe(10_240);
  });

  it('has a registry of uniquely named modules, cold start and READ overhead first', () => {
    const ids = BENCHMARKS.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 2)).toEqual(['cold-start', 'read-overhead']);
  });
});

describe('startup timing', () => {
  const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', name);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const root = join(import.meta.dirname, '..', '..', '..');
  for (const [file, era] of [
    ['bare-v1-server.mjs', 'legacy'],
    ['bare-v2-server.mjs', 'legacy'],
    ['bare-v2-server.mjs', 'modern'],
  ] as const) {
    it(`drives ${era === 'modern' ? 'server/discover' : 'initialize'} then tools/list against ${file} and reports both replies, in order`, async () => {
      const { timeStartup } = await import('../src/mcp-process.js');
      const times = await timeStartup(fixture(file), env, root, era);
      expect(times.initializeMs).toBeGreaterThan(0);
      expect(times.toolsListMs).toBeGreaterThanOrEqual(times.initializeMs);
    }, 30_000);
  }

  it('rejects instead of timing a server that refuses the opening (the v1 server has no server/discover)', async () => {
    const { timeStartup } = await import('../src/mcp-process.js');
    await expect(timeStartup(fixture('bare-v1-server.mjs'), env, root, 'modern')).rejects.toThrow(/refused the modern opening/);
  }, 30_000);
});

describe('bench command line', () => {
  const ids = ['cold-start', 'read-overhead'];
  it('takes --json and --only, and --help before anything runs', () => {
    expect(parseBenchArgs([], ids)).toEqual({ kind: 'run', json: false, only: null });
    expect(parseBenchArgs(['--json', '--only', 'cold-start'], ids)).toEqual({ kind: 'run', json: true, only: new Set(['cold-start']) });
    expect(parseBenchArgs(['--only', 'read-overhead', '--help'], ids)).toEqual({ kind: 'help' });
    const help = benchHelpText([{ id: 'cold-start', title: 'Cold start' }]);
    for (const words of ['--only ID', '--json', 'PFSENSE_BENCH_STORE_CONTRACTS', 'cold-start       Cold start'])
      expect(help).toContain(words);
  });

  it('refuses an unknown flag, a missing or unknown id — never starting the long run — and echoes no value', () => {
    for (const [argv, words] of [
      [['--hepl'], 'unknown argument "--hepl"'],
      [['--only'], '--only needs benchmark ids'],
      [['--only', '--json'], '--only needs benchmark ids'],
      [['--only', 'nope'], 'unknown benchmark id(s) nope; known: cold-start, read-overhead'],
      [['--dir=/secret/path'], 'unknown argument "--dir"'],
    ] as const) {
      const r = parseBenchArgs(argv, ids);
      expect(r, argv.join(' ')).toEqual({ kind: 'usage-error', message: expect.stringContaining(words) });
      expect(JSON.stringify(r)).not.toContain('/secret/path');
    }
  });
});
