// The pfsense-sim command line: parse flags, start the simulator, print one JSON ready line on stdout,
// log to stderr, stop cleanly on SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { CodedError, PRODUCT_VERSION } from '@pfsense-mcp/foundation';
import { parseArgs } from 'node:util';
import { AUTH_MODES, credentialsFileSchema, type AuthMode, type Credential } from './auth.js';
import { FAULT_KINDS, FAULT_KIND_NAMES, parseFaultArg, type FaultSpec } from './fault-injection.js';
import { isLoopbackHost, startSimulator, type RunningSimulator, type SimulatorOptions } from './start-simulator.js';

export const HELP_TEXT = `pfsense-sim — a loopback simulator of the pfSense REST API v2 (pfrest 2.10)

Usage:
  pfsense-sim --version | --help
  pfsense-sim [--port N] [--host 127.0.0.1] [--allow-remote] [--api-key-file F]
              [--credentials F] [--auth key,basic,jwt] [--data F] [--state-file
              F] [--seed S] [--tls-cert F --tls-key F] [--fault
              ROUTE:METHOD:KIND[:ARG]]...

Options:
  --port N            TCP port; 0 (default) picks a free one.
  --host H            Bind address (default 127.0.0.1). A non-loopback address
                      is refused unless --allow-remote is also given.
  --allow-remote      Permit a non-loopback --host (the /__sim/ control endpoint
                      stays loopback-only).
  --api-key-file F    Admin API key (privilege page-all). Read from F if it
                      exists (a regular file you own, mode 0600 or 0400;
                      anything else is refused), else a new key is generated and
                      written to F (mode 0600). Without this flag a key is
                      generated into a private temporary directory (0700, file
                      0600) that is removed on exit. The same key also works as
                      Basic auth for user "admin" (admin:<key>).
  --credentials F     JSON list of extra credentials for least-privilege tests:
                        [{"auth":"key"|"basic"|"jwt","secret":"…",
                          "privileges":["api-v2-…-get", …]}]
                      basic secrets are "user:password"; a jwt secret is a
                      literal bearer token. Privilege names are pfrest's
                      ("api-v2-firewall-aliases-get"); "page-all" grants all.
                      Missing privilege → 403 AUTH_AUTHORIZATION_FAILED.
  --auth LIST         Enabled auth methods, comma-separated from key,basic,jwt
                      (default all three). POST /api/v2/auth/jwt always takes
                      Basic auth and returns {"token": "…"}.
  --data F            JSON object mapping API paths to the pfrest "data" payload
                      to serve instead of the demo data, e.g.
                      {"/api/v2/firewall/aliases": [...]} (arrays for plural
                      endpoints, objects for singular ones). Served verbatim
                      after filters and pagination, hidden fields included.
  --state-file F      Keep alias mutations and pending subsystems in F across
                      restarts.
  --seed S            Demo data seed (default "pfsense-sim"); the same seed
                      gives the same appliance.
  --tls-cert F        PEM certificate: serve HTTPS (needs --tls-key).
  --tls-key F         PEM private key for --tls-cert.
  --fault SPEC        Install a fault at start; repeatable. SPEC is
                      ROUTE:METHOD:KIND[:ARG], e.g.
                      /api/v2/firewall/alias:PATCH:reset-after-apply or
                      /api/v2/status/system:GET:latency:500. ARG is ms
                      (latency), bytes (oversized-body) or the status
                      (5xx-after-apply, redirect-3xx, other-2xx).
  --exit-on-stdin-eof Stop when stdin closes: a parent that spawns the simulator
                      keeps stdin open as a lifeline, so the simulator never
                      outlives it (pfsense-mcp --demo uses this).
  --version           Print the version (on stdout).
  --help              Show this text (on stdout).

Fault kinds (applied = a write reaching the fault is committed before the
connection is touched):
${FAULT_KIND_NAMES.map(
  (k) => `  ${k.padEnd(26)}
                                 applied=${FAULT_KINDS[k].applied ? 'yes' : 'no'}\n${wrapAt80(FAULT_KINDS[k].description, 6)}`,
).join('\n')}

Routes: the 94 GET paths of the read catalogue, GET /api/v2/firewall/aliases,
GET/POST/PATCH/DELETE /api/v2/firewall/alias, GET/POST /api/v2/firewall/apply,
POST /api/v2/auth/jwt. Unknown paths get nginx's HTML 404.

Control endpoint (loopback peers with the admin X-API-Key only), JSON in and
out:
  GET /__sim/faults
  POST /__sim/faults {route,method,kind,ms?,bytes?,status?,times?}
  DELETE /__sim/faults[?route=&method=]
  GET /__sim/counters · DELETE /__sim/counters
  GET /__sim/kinds · GET /__sim/pending · POST /__sim/reset

Output: this help and --version print on stdout. Running: one line on stdout
when ready, {"ready":true,"url":"http://127.0.0.1:PORT","apiKeyFile":"…"};
request logs go to stderr as JSON lines. SIGINT/SIGTERM stop the server and exit
0.
`;

/** This simulator's own version (the workspace package's; pfrest's version is in the help's first line). */
export const SIMULATOR_VERSION = PRODUCT_VERSION;
export const VERSION_TEXT = `pfsense-sim ${SIMULATOR_VERSION} (simulates pfrest 2.10.0)`;

/** Words of `text` on lines of at most 80 columns, each indented by `indent` (the help's fault kinds). */
function wrapAt80(text: string, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > 80) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n');
}

export class CliUsageError extends CodedError<'USAGE'> {
  override readonly name = 'CliUsageError';
  constructor(message: string) {
    super('USAGE', message);
  }
}

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly options: SimulatorOptions; readonly exitOnStdinEof: boolean };

function readJsonFile(flag: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new CliUsageError(`${flag}: file is unreadable or not JSON`);
  }
}

function readPem(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    throw new CliUsageError(`${flag}: file is unreadable`);
  }
}

export function parseCli(argv: readonly string[]): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'allow-remote': { type: 'boolean' },
        'api-key-file': { type: 'string' },
        credentials: { type: 'string' },
        auth: { type: 'string' },
        data: { type: 'string' },
        'state-file': { type: 'string' },
        seed: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        fault: { type: 'string', multiple: true },
        'exit-on-stdin-eof': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const port = values.port === undefined ? 0 : /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) throw new CliUsageError('--port must be an integer 0–65535');
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !values['allow-remote'])
    throw new CliUsageError('--host must be a loopback address unless --allow-remote is given');

  let auth: AuthMode[] | undefined;
  if (values.auth !== undefined) {
    const modes = values.auth
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== '');
    if (modes.length === 0 || modes.some((m) => !(AUTH_MODES as readonly string[]).includes(m)))
      throw new CliUsageError('--auth takes a comma-separated list of key, basic, jwt');
    auth = modes as AuthMode[];
  }
  let credentials: Credential[] | undefined;
  if (values.credentials !== undefined) {
    const parsed = credentialsFileSchema.safeParse(readJsonFile('--credentials', values.credentials));
    if (!parsed.success) throw new CliUsageError('--credentials must be a JSON list of {auth, secret, privileges}');
    credentials = parsed.data;
  }
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new CliUsageError('--tls-cert and --tls-key go together');
  const tls =
    values['tls-cert'] !== undefined && values['tls-key'] !== undefined
      ? { cert: readPem('--tls-cert', values['tls-cert']), key: readPem('--tls-key', values['tls-key']) }
      : undefined;
  let faults: FaultSpec[];
  try {
    faults = (values.fault ?? []).map(parseFaultArg);
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.seed !== undefined && (values.seed.length === 0 || values.seed.length > 200))
    throw new CliUsageError('--seed must be 1–200 characters');

  return {
    kind: 'run',
    exitOnStdinEof: values['exit-on-stdin-eof'] === true,
    options: {
      port,
      host,
      allowRemote: values['allow-remote'] === true,
      ...(values['api-key-file'] !== undefined ? { apiKeyFile: values['api-key-file'] } : { writeApiKeyFile: true }),
      ...(credentials ? { credentials } : {}),
      ...(auth ? { auth } : {}),
      ...(values.data !== undefined ? { dataFile: values.data } : {}),
      ...(values['state-file'] !== undefined ? { stateFile: values['state-file'] } : {}),
      ...(values.seed !== undefined ? { seed: values.seed } : {}),
      ...(tls ? { tls } : {}),
      faults,
    },
  };
}

export interface CliIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  /** Readable whose end stops the simulator when --exit-on-stdin-eof is given (process.stdin in main.ts). */
  readonly stdin?: NodeJS.ReadableStream;
}

/** Runs the CLI; resolves with the exit code once the simulator has stopped (or failed to start). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCli(argv);
  } catch (error) {
    io.stderr(`pfsense-sim: ${(error as Error).message}\nRun pfsense-sim --help for usage.`);
    return 2;
  }
  if (command.kind === 'help') {
    io.stdout(HELP_TEXT);
    return 0;
  }
  if (command.kind === 'version') {
    io.stdout(VERSION_TEXT);
    return 0;
  }
  let sim: RunningSimulator;
  try {
    sim = await startSimulator({ ...command.options, log: (line) => io.stderr(line) });
  } catch (error) {
    const e = error as Error & { path?: string };
    io.stderr(`pfsense-sim: ${e.name}: ${e.message}${e.path ? ` (${e.path})` : ''}`);
    return 1;
  }
  return new Promise<number>((resolve) => {
    let stopping = false;
    // The handlers stay installed until close() resolves: `npm run sim` forwards Ctrl-C, so the process
    // usually gets SIGINT twice, and a second signal without a handler would kill it before the key
    // directory is removed. Repeats are ignored (close() already removed the key file synchronously).
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      io.stderr(JSON.stringify({ event: 'stopping', signal }));
      io.stdin?.off('end', onEof);
      void sim.close().then(() => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
        resolve(0);
      });
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    const onEof = (): void => stop('stdin-eof');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    if (command.exitOnStdinEof && io.stdin !== undefined) {
      io.stdin.once('end', onEof);
      io.stdin.resume();
    }
    // Ready only once the handlers are in place: a parent may signal the moment it reads this line.
    io.stdout(JSON.stringify({ ready: true, url: sim.url, apiKeyFile: sim.apiKeyFile }));
  });
}
