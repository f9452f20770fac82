import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
} from '@pfsense-mcp/authorization';
import type { PendingAuthorizationRequest, PendingConfirmationRequest } from '@pfsense-mcp/authorization';
import { PinnedAuthoritySet, generateEd25519KeyPair, generateMasterKey, keyIdOf } from '@pfsense-mcp/crypto';
import { startBuiltSimulator } from './built-simulator.js';
import { openLibraryWritePath } from './library-write-path.js';
import { result, type BenchResult } from './bench-result.js';
import type { Benchmark } from './benchmark.js';
import { median } from './stats.js';
import { simulatorServerEnv } from './simulator-server-env.js';

const LIFECYCLES = 5;
const TOOL = 'pfsense_set_firewall_alias_description';
const run = promisify(execFile);

interface Status {
  readonly status: string;
  readonly pending_request: string | null;
}

/** The program (`node file args`), its last stdout line parsed as JSON. */
async function cli(file: string, args: readonly string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [file, ...args], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', NO_COLOR: '1' } });
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '{}') as Record<string, unknown>;
}

/**
 * One full lifecycle of the one write (requested → authorization → awaiting_confirmation → confirmation →
 * verified) through the product surface — the built server over stdio, the real signer (review + sign
 * --approve with the keyed code, two processes per signature) and `pfsense-mcp admin inbox add` — vs the same lifecycle at library
 * level (operation driver, library signing, files into the inbox), both against one built simulator. The ratio is
 * the surface's overhead: process starts and stdio, not the write itself.
 */
export const writeLifecycleBenchmark: Benchmark = {
  id: 'write-lifecycle',
  title: 'the one write: full lifecycle through MCP + signer vs library level',
  async run(ctx) {
    const root = mkdtempSync(join(tmpdir(), 'bench-write-'));
    chmodSync(root, 0o700);
    const server = join(ctx.workspaceRoot, 'dist', 'apps', 'mcp-server', 'main.js');
    const signer = join(ctx.workspaceRoot, 'dist', 'apps', 'signer-cli', 'main.js');
    const apiKey = randomBytes(24).toString('hex');
    const keyFile = join(root, 'api-key');
    writeFileSync(keyFile, `${apiKey}\n`, { mode: 0o600 });
    const aliases = Array.from({ length: 2 * LIFECYCLES }, (_, i) => ({
      name: `BENCH_${i}`,
      type: 'host',
      descr: 'before',
      address: [`10.9.0.${i + 1}`],
      detail: ['x'],
    }));
    const dataFile = join(root, 'data.json');
    writeFileSync(
      dataFile,
      JSON.stringify({
        '/api/v2/firewall/aliases': aliases,
        '/api/v2/status/system': { platform: 'bench', netgate_id: 'b3nchb3nchb3nch0' },
      }),
    );
    const sim = await startBuiltSimulator(ctx.workspaceRoot, ['--port', '0', '--data', dataFile, '--api-key-file', keyFile]);
    const out: BenchResult[] = [];
    const closers: (() => Promise<void> | void)[] = [() => sim.close(), () => rmSync(root, { recursive: true, force: true })];
    try {
      // ---- the product surface: admin init/trust once, then one signed lifecycle per alias
      const dir = join(root, 'write');
      const init = await cli(server, ['admin', 'init', '--dir', dir, '--json']);
      const serverPub = String(init['server_public_key_file']);
      const operator = join(root, 'operator');
      mkdirSync(join(operator, 'signed'), { recursive: true, mode: 0o700 });
      chmodSync(operator, 0o700);
      const keys: Record<string, string> = {};
      for (const role of ['plan-authorization', 'confirmation']) {
        const k = await cli(signer, ['keygen', '--role', role, '--out', operator, '--json']);
        keys[role] = String(k['private_key_file']);
        // The hex, not the .pub beside its private key (admin trust refuses that file, docs/DESIGN.md §10).
        await cli(server, ['admin', 'trust', '--dir', dir, '--role', role, '--public-key', String(k['public_key']), '--json']);
      }
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [server],
        env: simulatorServerEnv(sim.url, keyFile, { PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: dir }),
        stderr: 'ignore',
      });
      const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(transport);
      closers.push(() => client.close());
      const call = async (args: Record<string, string>): Promise<Status> => {
        const r = await client.request({ method: 'tools/call', params: { name: TOOL, arguments: args } });
        if (r.isError === true) throw new Error('bench: the write tool failed');
        return r.structuredContent as unknown as Status;
      };
      const approve = async (file: string, role: string) => {
        const review = await cli(signer, ['review', file, '--server-key', serverPub, '--key', keys[role] ?? '', '--json']);
        const prefix = String((review['review'] as Record<string, unknown>)['approve_prefix']);
        const signed = await cli(signer, [
          'sign',
          file,
          '--key',
          keys[role] ?? '',
          '--server-key',
          serverPub,
          '--out',
          join(operator, 'signed'),
          '--approve',
          prefix,
          '--json',
        ]);
        await cli(server, ['admin', 'inbox', 'add', '--dir', dir, String(signed['file']), '--json']);
      };
      const viaMcp: number[] = [];
      for (let i = 0; i < LIFECYCLES; i += 1) {
        const args = { alias_name: `BENCH_${i}`, description: `via mcp ${i}` };
        const t = performance.now();
        await approve((await call(args)).pending_request ?? '', 'plan-authorization');
        await approve((await call(args)).pending_request ?? '', 'confirmation');
        const done = await call(args);
        viaMcp.push(performance.now() - t);
        if (done.status !== 'verified') throw new Error(`bench: lifecycle ${i} ended ${done.status}`);
      }

      // ---- library level: the same chain in process, signed with the authorization library
      const lib = join(root, 'library');
      for (const d of [lib, join(lib, 'anchors')]) mkdirSync(d, { mode: 0o700 });
      const masterKey = generateMasterKey();
      const pair = () => {
        const k = generateEd25519KeyPair();
        return { privateKey: k.privateKey, publicKey: k.publicKey, keyId: keyIdOf(k.publicKey) };
      };
      const [auth, conf, srv] = [pair(), pair(), pair()];
      const authorities = PinnedAuthoritySet.of([
        { keyId: auth.keyId, publicKey: auth.publicKey, role: 'plan-authorization', active: true },
        { keyId: conf.keyId, publicKey: conf.publicKey, role: 'confirmation', active: true },
      ]);
      const serverSet = PinnedAuthoritySet.of([{ keyId: srv.keyId, publicKey: srv.publicKey, role: 'server-request', active: true }]);
      const path = await openLibraryWritePath({
        directory: lib,
        masterKey,
        sim: { url: sim.url, apiKey },
        authorities,
        serverKey: { privateKey: srv.privateKey },
        serverAuthorities: serverSet,
        anchors: { contracts: join(lib, 'anchors', 'contracts.anchor'), consumption: join(lib, 'anchors', 'consumption.anchor') },
      });
      closers.push(() => path.close());
      const { driver, inbox, outbox } = path;
      let n = 0;
      const sign = (name: string | null, make: (request: unknown) => unknown) => {
        const request = verifyPendingRequest(parseArtifact(readFileSync(join(outbox, name ?? ''))), {
          serverAuthorities: serverSet,
          nowMs: Date.now(),
        });
        n += 1;
        writeFileSync(join(inbox, `signed-${n}.json`), encodeArtifact(make(request) as Parameters<typeof encodeArtifact>[0]), {
          mode: 0o600,
          flag: 'wx',
        });
      };
      const library: number[] = [];
      for (let i = 0; i < LIFECYCLES; i += 1) {
        const input = { alias_name: `BENCH_${LIFECYCLES + i}`, description: `via library ${i}` };
        const t = performance.now();
        sign((await driver.requestChange('ALIAS_WRITE', input)).pendingRequest?.file ?? null, (r) =>
          createPlanAuthorizationFromRequest(r as PendingAuthorizationRequest, auth, { issuedAt: Date.now() }),
        );
        sign((await driver.requestChange('ALIAS_WRITE', input)).pendingRequest?.file ?? null, (r) =>
          createConfirmationEvidence(r as PendingConfirmationRequest, conf, { issuedAt: Date.now() }),
        );
        const done = await driver.requestChange('ALIAS_WRITE', input);
        library.push(performance.now() - t);
        if (done.status !== 'verified') throw new Error(`bench: library lifecycle ${i} ended ${done.status}`);
      }
      ctx.note(`write lifecycle: ${LIFECYCLES} through MCP + signer + admin, ${LIFECYCLES} at library level`);
      out.push(result('write_lifecycle_mcp_signer_median_ms', median(viaMcp), 'ms', median(library)));
    } finally {
      for (const close of closers.reverse()) {
        try {
          await close();
        } catch {
          // best effort
        }
      }
    }
    return out;
  },
};
