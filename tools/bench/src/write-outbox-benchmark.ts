import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryRefusalAudit, authorizationRequestName, parseAuthorizationRequestName } from '@pfsense-mcp/coordinator';
import { PinnedAuthoritySet, generateEd25519KeyPair, generateMasterKey, keyIdOf } from '@pfsense-mcp/crypto';
import { startSimulator } from '@pfsense-mcp/pfsense-sim';
import { result } from './bench-result.js';
import { openLibraryWritePath } from './library-write-path.js';
import type { BenchResult } from './bench-result.js';
import type { BenchContext, Benchmark } from './benchmark.js';
import { median } from './stats.js';

const ALIASES_PATH = '/api/v2/firewall/aliases';
const CALLS = 30;
const SIZES = Object.freeze([1, 100, 1000]);

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * One write-tool call (the driver's requestChange, resuming its pending authorization
 * request) with 1, 100 and 1,000 files in the outbox: the server's own signed requests of other aliases,
 * as leftovers pile up — 99 unexpired (under the outbox limit), the rest expired. Since the scan decides by
 * name, the call should stay flat: ratio to the 1-file call ≤ 2.
 */
export const writeOutboxBenchmark: Benchmark = Object.freeze({
  id: 'write-outbox',
  title: 'write call with 1 / 100 / 1,000 outbox files (flat within 2x)',
  async run(ctx: BenchContext): Promise<readonly BenchResult[]> {
    const root = mkdtempSync(join(process.env['PFSENSE_BENCH_DIR'] ?? tmpdir(), 'pfsense-mcp-bench-outbox-'));
    const sim = await startSimulator({
      data: {
        [ALIASES_PATH]: [{ name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1'], detail: ['nas'] }],
        '/api/v2/status/system': { platform: 'Netgate 4200', netgate_id: 'a1b2c3d4e5f60718' },
      },
    });
    const closers: (() => void)[] = [];
    try {
      const server = generateEd25519KeyPair();
      const serverPin = { keyId: keyIdOf(server.publicKey), publicKey: server.publicKey, role: 'server-request' as const, active: true };
      const operator = generateEd25519KeyPair();
      const authorities = PinnedAuthoritySet.of([
        serverPin,
        { keyId: keyIdOf(operator.publicKey), publicKey: operator.publicKey, role: 'plan-authorization', active: true },
      ]);
      const path = await openLibraryWritePath({
        directory: root,
        masterKey: generateMasterKey(),
        sim,
        authorities,
        serverKey: { privateKey: server.privateKey },
        serverAuthorities: PinnedAuthoritySet.of([serverPin]),
        anchors: { contracts: join(root, 'anchor.json') },
        audit: new MemoryRefusalAudit(),
      });
      closers.push(() => path.close());
      const { driver, outbox } = path;
      const input = { alias_name: 'LAN_SERVERS', description: 'benchmarked description' };
      const first = await driver.requestChange('ALIAS_WRITE', input);
      const own = first.pendingRequest?.file ?? null;
      const parts = own === null ? null : parseAuthorizationRequestName(own);
      if (own === null || parts === null) throw new Error('bench: no pending authorization request was written');

      let files = 1;
      const grow = (to: number) => {
        for (; files < to; files += 1) {
          // A genuine server-signed request under another alias's name: 99 unexpired, the rest expired.
          const name = authorizationRequestName({
            aliasKey: `b${hex(files, 15)}`,
            operationId: `op-${hex(files, 64)}`,
            planPrefix: hex(files, 16),
            expiresAt: files < 100 ? parts.expiresAt : 1,
          });
          copyFileSync(join(outbox, own), join(outbox, name));
        }
      };
      const out: BenchResult[] = [];
      let floor: number | null = null;
      for (const size of SIZES) {
        grow(size);
        await driver.requestChange('ALIAS_WRITE', input); // warm-up
        const times: number[] = [];
        for (let i = 0; i < CALLS; i += 1) {
          const t0 = performance.now();
          const r = await driver.requestChange('ALIAS_WRITE', input);
          times.push(performance.now() - t0);
          if (r.pendingRequest?.file !== own) throw new Error('bench: the call did not resume its own request');
        }
        const m = median(times);
        ctx.note(`write-outbox: ${size} files → median ${m.toFixed(2)} ms`);
        if (floor === null) {
          floor = m;
          out.push(result('write call, 1 outbox file (median)', m, 'ms'));
        } else {
          out.push(result(`write call, ${size} outbox files (median, vs 1 file)`, m, 'ms', floor, 2));
        }
      }
      return out;
    } finally {
      for (const close of closers.reverse()) {
        try {
          close();
        } catch {
          // best effort
        }
      }
      await sim.close();
      rmSync(root, { recursive: true, force: true });
    }
  },
});
