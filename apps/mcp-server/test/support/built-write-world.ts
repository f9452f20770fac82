// One world for the suites that drive the write path through BUILT programs: the server (spawned by the v2 SDK
// Client over stdio), `pfsense-mcp admin` and the real signer, against one simulator per file on loopback. The
// hooks are registered by `useBuiltWriteWorld` at collection time; everything a test opens is closed after the file.
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';
import { connectBuilt, ensureBuilt, writeKeyFile, type ConnectedServer } from './built-server.js';
import { approve, setUpHost, type HostRole, type HostSetup } from './host-setup.js';
import { ensureSignerBuilt } from './signer-program.js';
import { until } from './until.js';
import { callWrite, type WriteResult } from './write-result.js';

export const ALIASES_PATH = '/api/v2/firewall/aliases';
export const ALIAS_PATH = '/api/v2/firewall/alias';
export const STATUS_PATH = '/api/v2/status/system';
// Many process starts per call on a loaded machine: the SDK's request timeout gets more than its default.
const CALL_TIMEOUT_MS = 120_000;

export interface SimAlias {
  readonly name: string;
  readonly type: string;
  readonly descr: string;
  readonly address: readonly string[];
  readonly detail: readonly string[];
}

export interface BuiltWriteWorld {
  /** The file's simulator (from `beforeAll` on). */
  readonly sim: RunningSimulator;
  /** An owner-only file holding the simulator's API key. */
  readonly apiKeyFile: string;
  /** What reaches the appliance: URL, key file, plain HTTP on loopback allowed. */
  applianceEnv(): Record<string, string>;
  /** The appliance, PFSENSE_PROFILE=write_protected and (when `host` is given) PFSENSE_WRITE_DIR, then `extra`. */
  env(host: HostSetup | null, extra?: Record<string, string>): Record<string, string>;
  /** A fresh host setup (removed after the file); `pinned` roles are trusted. */
  host(pinned?: readonly HostRole[]): HostSetup;
  /** The built server on `env(host, extra)`, closed after the file. */
  serve(host: HostSetup | null, extra?: Record<string, string>): Promise<ConnectedServer>;
  /** The built server on exactly `env`, closed after the file. */
  connect(env: Record<string, string>): Promise<ConnectedServer>;
  /** Closes `server` and waits until it is gone and has withdrawn its presence file from `host`'s DIR. */
  stop(server: ConnectedServer, host: HostSetup): Promise<void>;
  /** The write tool through `server` (throws on an error result); the structured result alone. */
  call(server: ConnectedServer, args: Record<string, unknown>): Promise<WriteResult>;
  /** requested → signed authorization → awaiting_confirmation → signed confirmation; the next call runs the executor. */
  confirm(host: HostSetup, server: ConnectedServer, args: Record<string, unknown>): Promise<WriteResult>;
  /** PATCHes the simulator has seen on the alias route. */
  patches(): number;
  /** Runs `cleanup` after the file (before the simulator closes). */
  defer(cleanup: () => Promise<void> | void): void;
  /** One host setup for the whole file, made in `beforeAll` (call at collection time, at the file's top level). */
  sharedHost(): SharedHost;
}

export interface SharedHost {
  /** The file's host setup (from `beforeAll` on). */
  readonly host: HostSetup;
  /** The built server on the file's host, closed after the file. */
  serve(): Promise<ConnectedServer>;
  /** Closes `server` and waits until it is gone and has withdrawn its presence file. */
  stop(server: ConnectedServer): Promise<void>;
}

export function useBuiltWriteWorld(aliases: readonly SimAlias[]): BuiltWriteWorld {
  if (!Array.isArray(aliases) || aliases.length === 0) throw new TypeError('aliases must be a non-empty array');
  let sim: RunningSimulator | undefined;
  let apiKeyFile: string | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    ensureBuilt();
    await ensureSignerBuilt();
    sim = await startSimulator({
      data: { [ALIASES_PATH]: aliases, [STATUS_PATH]: { platform: 'Netgate 4200', netgate_id: 'a1b2c3d4e5f60718' } },
    });
    apiKeyFile = writeKeyFile(sim.apiKey);
  }, 180_000);

  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    await sim?.close();
    if (apiKeyFile !== undefined) rmSync(dirname(apiKeyFile), { recursive: true, force: true });
  });

  const running = (): RunningSimulator => {
    if (sim === undefined) throw new Error('the simulator is not started (outside the suite hooks)');
    return sim;
  };
  const keyFile = (): string => {
    if (apiKeyFile === undefined) throw new Error('the API key file is not written (outside the suite hooks)');
    return apiKeyFile;
  };
  const applianceEnv = (): Record<string, string> => ({
    PFSENSE_URL: running().url,
    PFSENSE_API_KEY_FILE: keyFile(),
    PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
  });
  const env = (host: HostSetup | null, extra: Record<string, string> = {}): Record<string, string> => ({
    ...applianceEnv(),
    PFSENSE_PROFILE: 'write_protected',
    ...(host === null ? {} : { PFSENSE_WRITE_DIR: host.dir }),
    ...extra,
  });
  const connect = async (e: Record<string, string>): Promise<ConnectedServer> => {
    const s = await connectBuilt(e);
    cleanups.push(() => s.close());
    return s;
  };
  const host = (pinned?: readonly HostRole[]): HostSetup => {
    const h = setUpHost(pinned);
    cleanups.push(() => h.cleanup());
    return h;
  };
  const serve = (h: HostSetup | null, extra: Record<string, string> = {}): Promise<ConnectedServer> => connect(env(h, extra));
  const stop = async (server: ConnectedServer, h: HostSetup): Promise<void> => {
    await server.close();
    if (!(await server.gone())) throw new Error(`the server ${server.pid} did not exit`);
    await until(() => !existsSync(join(h.dir, `.server-${server.pid}.lock`)));
  };
  const call = async (server: ConnectedServer, args: Record<string, unknown>): Promise<WriteResult> => {
    const { raw: _raw, ...result } = await callWrite(server.client, args, { timeoutMs: CALL_TIMEOUT_MS });
    return result;
  };

  return Object.freeze({
    get sim(): RunningSimulator {
      return running();
    },
    get apiKeyFile(): string {
      return keyFile();
    },
    applianceEnv,
    env,
    host,
    serve,
    connect,
    stop,
    call,
    confirm: async (host: HostSetup, server: ConnectedServer, args: Record<string, unknown>): Promise<WriteResult> => {
      approve(host, (await call(server, args)).pending_request ?? '', 'plan-authorization');
      const awaiting = await call(server, args);
      expect(awaiting.status).toBe('awaiting_confirmation');
      approve(host, awaiting.pending_request ?? '', 'confirmation');
      return awaiting;
    },
    patches: () => running().control.count(ALIAS_PATH, 'PATCH'),
    defer: (cleanup: () => Promise<void> | void): void => {
      if (typeof cleanup !== 'function') throw new TypeError('cleanup must be a function');
      cleanups.push(cleanup);
    },
    sharedHost: (): SharedHost => {
      let h: HostSetup | undefined;
      // The host setup runs seven programs (init, three keygens, three trusts): seconds on a loaded machine.
      beforeAll(() => {
        h = host();
      }, 180_000);
      const made = (): HostSetup => {
        if (h === undefined) throw new Error('the shared host is not set up (outside the suite hooks)');
        return h;
      };
      return Object.freeze({
        get host(): HostSetup {
          return made();
        },
        serve: () => serve(made()),
        stop: (server: ConnectedServer) => stop(server, made()),
      });
    },
  });
}
