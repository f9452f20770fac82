#!/usr/bin/env node
// `npm run demo`: the whole product on this laptop, narrated. A real MCP client (the SDK's) spawns the BUILT server
// over stdio against the bundled simulator; `pfsense-mcp admin` sets up the host; the BUILT signer reviews and signs.
// Steps: READ, host setup, the description change, operations, blocking an address (verified in pf, undone by a
// signed rollback: tools/scripts/demo-block.mjs), and with --faults the lost responses.
// Flags: --faults (the lost-response path), --json (one JSON line per step, nothing else on stdout).
// Everything it starts and writes lives under one temp dir and its children; all of it goes on exit and on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { blockStep } from './demo-block.mjs';
import { PROGRAMS, workspaceRoot } from './programs.mjs';

const USAGE = 'usage: npm run demo [-- --faults] [-- --json]';
const args = process.argv.slice(2);
for (const a of args) {
  if (a === '--help' || a === '-h') {
    process.stdout.write(
      `${USAGE}\n  --faults  also lose the PATCH response (of the block, and of a description change) and reconcile it with a signed APPLIED\n  --json    a machine-readable transcript: one JSON line per step\n`,
    );
    process.exit(0);
  }
  if (a !== '--faults' && a !== '--json') {
    process.stderr.write(`demo: unknown argument ${JSON.stringify(a)}\n${USAGE}\n`);
    process.exit(2);
  }
}
const FAULTS = args.includes('--faults');
const JSON_OUT = args.includes('--json');
const TTY = process.stdout.isTTY === true && !JSON_OUT && process.env.NO_COLOR === undefined;
const paint = (code) => (s) => (TTY ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = paint('1');
const dim = paint('2');
const green = paint('32');

const server = join(workspaceRoot, PROGRAMS['mcp-server'].entry);
const signerMain = join(workspaceRoot, PROGRAMS['signer-cli'].entry);
const simMain = join(workspaceRoot, PROGRAMS['pfsense-sim'].entry);
const WRITE_TOOL = 'pfsense_set_firewall_alias_description';
const ALIAS_PATH = '/api/v2/firewall/alias';

// ---- cleanup: one temp dir, the simulator child and the MCP client (which owns the server child) ----
const work = mkdtempSync(join(tmpdir(), 'pfsense-mcp-demo-'));
chmodSync(work, 0o700);
let sim = null;
const clients = [];
let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  for (const c of clients) await c.close().catch(() => {});
  if (sim !== null && sim.child.exitCode === null) {
    sim.child.kill('SIGTERM');
    await new Promise((r) => (sim.child.exitCode !== null ? r() : sim.child.once('exit', r)));
  }
  rmSync(work, { recursive: true, force: true });
}
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    emit({ event: 'interrupted', signal });
    if (!JSON_OUT) process.stdout.write(`\n${bold('interrupted')}: stopping the server and the simulator, removing ${work}\n`);
    void cleanup().then(() => process.exit(130));
  });
}

// ---- transcript ----
const started = Date.now();
let stepStarted = Date.now();
let stepNo = 0;
function emit(obj) {
  if (JSON_OUT) process.stdout.write(`${JSON.stringify(obj)}\n`);
}
function say(line = '') {
  if (!JSON_OUT) process.stdout.write(`${line}\n`);
}
function step(title, why) {
  stepNo += 1;
  stepStarted = Date.now();
  say();
  say(bold(`${stepNo}. ${title}`));
  if (why) say(dim(`   ${why}`));
}
function done(name, details) {
  const ms = Date.now() - stepStarted;
  emit({ step: stepNo, name, ms, ...details });
  say(dim(`   ${green('✔')} ${ms} ms`));
}
const progress = (what) => {
  if (TTY) process.stdout.write(dim(`   … ${what}\r`));
};

// ---- programs ----
/** The command line as an operator would type it (the installed program names; words with spaces quoted). */
function commandLine(main, argv) {
  const name = main === signerMain ? 'pfsense-mcp-signer' : 'pfsense-mcp';
  const words = argv.filter((a) => a !== '--json').map((a) => (/^[\w./@:=,+-]+$/u.test(a) ? a : JSON.stringify(a)));
  return `${name} ${words.join(' ')}`;
}
/** Every command the demo runs is printed first, so the transcript serves as a template. */
function showCommand(line) {
  say(dim(`   $ ${line}`));
  emit({ command: line });
}
function run(main, argv, what, env = {}, allow = [0]) {
  showCommand(commandLine(main, argv));
  progress(what);
  const r = spawnSync(process.execPath, [main, ...argv], {
    encoding: 'utf8',
    input: '',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, NO_COLOR: '1', ...env },
  });
  if (TTY) process.stdout.write('\x1b[2K');
  if (!allow.includes(r.status)) throw new Error(`${what} failed (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  let json = {};
  try {
    json = JSON.parse(last);
  } catch {
    // human output
  }
  return { stdout: r.stdout, json, status: r.status };
}
const admin = (argv, what, env) => run(server, ['admin', ...argv, '--json'], what, env);
/** An admin command that may end with one of the `allow` exit codes (admin rollback of a block: 4, then 0). */
const adminRaw = (argv, what, env, allow) => run(server, ['admin', ...argv, '--json'], what, env, allow);
const signer = (argv, what) => run(signerMain, argv, what);
/** A file copy between the two machines (shown as the command an operator would use). */
function copy(from, to) {
  showCommand(`cp ${from} ${to}`);
  copyFileSync(from, to);
  chmodSync(to, 0o600);
}

/**
 * `pfsense-mcp-signer approve EXCHANGE/requests --keys KEYDIR --server-key PUB` as the operator runs it: the review,
 * then the code typed at its prompt (here written to its stdin when the prompt shows it).
 */
function approveInExchange(h) {
  const argv = ['approve', join(h.exchange, 'requests'), '--keys', h.keysDir, '--server-key', h.serverPub];
  showCommand(commandLine(signerMain, argv));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [signerMain, ...argv], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const typed = [];
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => {
      err += c;
      const prompts = [...err.matchAll(/Type the code ([0-9a-f]{12}): /gu)];
      const next = prompts[typed.length];
      if (next === undefined) return;
      typed.push(next[1]);
      child.stdin.write(`${next[1]}\n`);
    });
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`signer approve failed (exit ${code}): ${err.trim().split('\n').at(-1) ?? ''}`));
      // The decision lines: the alias and its description, an entries change (`+` / `-` lines) and the rules using it.
      const keep = (l) =>
        /^\s+(appliance|alias|description|entries|used by|→|approve with)\b/u.test(l) ||
        /^\s+#\d+\s+(pass|block|reject)\b/u.test(l) ||
        /^\s+(→|[+-] )/u.test(l) ||
        /REQUEST|request —/u.test(l);
      const shown = out.trimEnd().split('\n').filter(keep);
      say(dim("   ┌ the signer's review, on the operator's machine"));
      for (const line of shown) say(`   │ ${line}`);
      say(`   └ the operator types the code ${typed.join(', ')} at the prompt; the answer goes to answers/ beside the request`);
      resolve({ typed, shown });
    });
  });
}

function startSim(dataFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [simMain, '--port', '0', '--api-key-file', join(work, 'sim-api-key'), '--data', dataFile, '--exit-on-stdin-eof'],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, ...JSON.parse(out.slice(0, nl)) });
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before it was ready`)));
  });
}
function simControl(method, path, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${sim.url}${path}`,
      { method, agent: false, headers: { 'X-API-Key': sim.apiKey, ...(payload ? { 'Content-Type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text === '' ? null : JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
const patchCount = async () => (await simControl('GET', '/__sim/counters')).counters?.[`PATCH ${ALIAS_PATH}`] ?? 0;

async function connect(env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [server],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, ...env },
    stderr: 'ignore',
  });
  // The v2 SDK Client in auto mode: it probes with server/discover and lands on revision 2026-07-28.
  const client = new Client({ name: 'pfsense-mcp-demo', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  clients.push(client);
  await client.connect(transport);
  return client;
}
async function call(client, name, argsIn = {}) {
  const r = await client.callTool({ name, arguments: argsIn });
  if (r.isError) throw new Error(`${name} failed: ${r.content?.[0]?.text ?? ''}`);
  return r.structuredContent;
}
/** The write tool's answer, which must be in `status` (else the demo stops and names what came instead). */
async function write(client, argsIn, status) {
  const r = await call(client, WRITE_TOOL, argsIn);
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.next_step ?? ''} ${r.code ?? ''}`);
  return r;
}
async function aliasDescr(client, name) {
  const r = await call(client, 'pfsense_get_firewall_aliases', { limit: 50 });
  return (r.data ?? []).find((a) => a.name === name)?.descr;
}

/**
 * The signer's human review with the operator's key (what the operator reads), then sign --approve with the code
 * the review shows — keyed by that key, so only the operator's machine can show it.
 */
function review(h, requestFile, role, outcome) {
  const human = signer(['review', requestFile, '--server-key', h.serverPub, '--key', h.keys[role]], 'signer review');
  // The operator types the code the review shows; read it from the same text.
  const prefix = /approve with\s+([0-9a-f]{12})/u.exec(human.stdout)?.[1];
  if (prefix === undefined) throw new Error("the signer's review showed no approval code");
  say(dim("   ┌ the signer's review, on the operator's machine"));
  // The lines that carry the decision; `pfsense-mcp-signer review` shows every digest and member on its own.
  const lines = human.stdout.trimEnd().split('\n');
  const keep = (l, i) =>
    i === 0 || /^\s+(appliance|alias|description|→|observed now|origin|contract|approve with|digests)\b/u.test(l) || /^\s+→/u.test(l);
  for (const line of lines.filter(keep)) say(`   │ ${line}`);
  const signArgs = [
    'sign',
    requestFile,
    '--key',
    h.keys[role],
    '--server-key',
    h.serverPub,
    '--out',
    h.signedDir,
    '--approve',
    prefix,
    '--json',
  ];
  if (outcome) signArgs.push('--outcome', outcome);
  const signed = signer(signArgs, `signer sign (${role})`).json.file;
  say(
    `   └ approved: sign --approve ${prefix}${outcome ? ` --outcome ${outcome}` : ''}; the signed file goes into the server's inbox (admin inbox add)`,
  );
  admin(['inbox', 'add', '--dir', h.dir, signed], 'admin inbox add');
  return { prefix, role };
}

const SOURCES = {
  'pfsense-sim': ['tools/pfsense-sim/src'],
  'mcp-server': ['apps/mcp-server/src', 'libs'],
  'signer-cli': ['apps/signer-cli/src', 'libs'],
};
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(path)) if (e !== 'node_modules' && e !== 'test') newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}
function isStale(name) {
  const bundle = join(workspaceRoot, PROGRAMS[name].entry);
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return SOURCES[name].some((s) => newestMtime(join(workspaceRoot, s)) > built);
}

async function main() {
  for (const name of ['pfsense-sim', 'mcp-server', 'signer-cli']) {
    // Only a missing or stale bundle is rebuilt: other programs (and test suites) may be running the current one.
    if (!isStale(name)) continue;
    const r = spawnSync(process.execPath, [join(workspaceRoot, 'tools', 'scripts', 'build-program.mjs'), name], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`building ${name} failed`);
  }
  say(bold('pfsense-mcp — the whole product against a simulated pfSense, on this machine'));
  say(dim("This demo runs the signer on the same machine only because it is a demo: in real use the operator's keys"));
  say(dim('live on another machine the server cannot reach. Its keys are generated fresh and deleted afterwards.'));
  emit({ event: 'start', workdir: work, faults: FAULTS });
  say(dim(`Working in ${work} (removed at the end, also on Ctrl-C).`));

  const dataFile = join(work, 'sim-data.json');
  writeFileSync(
    dataFile,
    JSON.stringify({
      '/api/v2/firewall/aliases': [
        { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1', '10.0.0.2'], detail: ['nas', 'backup'] },
        { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
        // The simulator's first filter rule blocks from BLOCKLIST on WAN: the block step adds an address to it.
        { name: 'BLOCKLIST', type: 'host', descr: 'Blocked hosts', address: ['198.51.100.9'], detail: ['scanner'] },
      ],
      // pf's table for it as the last reload left it (the seed's tables would predate this alias).
      '/api/v2/diagnostics/tables': [{ name: 'BLOCKLIST', entries: ['198.51.100.9'] }],
    }),
  );
  sim = await startSim(dataFile);
  sim.apiKey = readFileSync(sim.apiKeyFile, 'utf8').trim();
  emit({ event: 'simulator', pid: sim.child.pid, url: sim.url });

  // 1. READ
  step(
    'READ: what an AI client sees',
    'the SDK client spawns the built server over stdio; every READ tool is a GET, projected to an allow-list',
  );
  const baseEnv = { PFSENSE_URL: sim.url, PFSENSE_API_KEY_FILE: sim.apiKeyFile, PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' };
  const auditor = await connect(baseEnv);
  const aTools = (await auditor.listTools()).tools;
  const counts = (tools) => ({
    read_only: tools.filter((t) => t.annotations?.readOnlyHint === true).length,
    write: tools.filter((t) => t.annotations?.readOnlyHint !== true).length,
  });
  const auditorCounts = counts(aTools);
  say(`   profile auditor (the default): ${auditorCounts.read_only} read-only tools, ${auditorCounts.write} that write`);
  const info = await call(auditor, 'pfsense_mcp_info');
  say(`   pfsense_mcp_info → ${dim(JSON.stringify(info).slice(0, 110))}…`);
  const aliases = await call(auditor, 'pfsense_get_firewall_aliases', { limit: 5 });
  for (const a of aliases.data ?? [])
    say(`   pfsense_get_firewall_aliases → ${String(a.name).padEnd(12)} ${String(a.type).padEnd(5)} ${JSON.stringify(a.descr)}`);
  const rules = await call(auditor, 'pfsense_get_firewall_rules', { limit: 3 });
  say(`   pfsense_get_firewall_rules {limit: 3} → ${(rules.data ?? []).length} rules`);
  await auditor.close();
  done('read', { profile: 'auditor', ...auditorCounts, aliases: (aliases.data ?? []).map((a) => a.name) });

  // 2. Host setup
  step(
    'Host setup: admin init --exchange, keygen --role operator, admin trust --bundle',
    "the write directory holds the stores, the server's own request key, the pinned operator keys, inbox and outbox; the exchange folder is shared with the operator's machine",
  );
  const dir = join(work, 'write');
  const exchange = join(work, 'exchange');
  const init = admin(['init', '--dir', dir, '--exchange', exchange], 'admin init --exchange').json;
  const operatorDir = join(work, 'operator');
  const keysDir = join(operatorDir, 'keys');
  const signedDir = join(operatorDir, 'signed');
  mkdirSync(keysDir, { recursive: true, mode: 0o700 });
  mkdirSync(signedDir, { recursive: true, mode: 0o700 });
  chmodSync(operatorDir, 0o700);
  const made = signer(['keygen', '--role', 'operator', '--out', keysDir, '--json'], 'signer keygen --role operator').json;
  // Only operator.pub travels to the server host, into a folder of its own: admin trust refuses a bundle with a
  // private key beside it (the operator's keys never live on the server host, docs/DESIGN.md §10).
  const transferDir = join(work, 'transfer');
  mkdirSync(transferDir, { recursive: true, mode: 0o700 });
  copy(made.bundle_file, join(transferDir, 'operator.pub'));
  admin(['trust', '--dir', dir, '--bundle', join(transferDir, 'operator.pub')], 'admin trust --bundle');
  const serverPub = join(operatorDir, 'server-request.pub');
  copy(init.server_public_key_file ?? join(dir, 'keys', 'server-request.pub'), serverPub);
  const keys = {};
  for (const k of made.keys ?? []) {
    keys[k.role] = k.private_key_file;
    say(`   ${k.role.padEnd(18)} key ${k.key_id ?? ''} made by the signer, pinned from operator.pub`);
  }
  const clientEnv = init.environment ?? {};
  say(
    `   client environment: ${Object.entries(clientEnv)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  const h = { dir, exchange, keysDir, serverPub, keys, signedDir };
  done('host_setup', { write_dir: dir, exchange, roles: Object.keys(keys) });

  // 3. The write
  step(
    "The write: change an alias's description, under the operator's signatures",
    'the AI can only ask; the operator approves twice on the signer (authorization, then confirmation) through the exchange folder',
  );
  let writer = await connect({ ...baseEnv, ...clientEnv });
  const wCounts = counts((await writer.listTools()).tools);
  say(
    `   profile write_protected with PFSENSE_WRITE_DIR: ${wCounts.read_only} read-only tools, ${wCounts.write} that writes (${WRITE_TOOL})`,
  );
  const wargs = { alias_name: 'LAN_SERVERS', description: 'Servers (reviewed by the operator)' };
  const patchesBefore = await patchCount();
  const requested = await write(writer, wargs, 'requested');
  say(`   AI → ${WRITE_TOOL} ${JSON.stringify(wargs)} → ${bold(requested.status)}`);
  say(`   the request is in the exchange folder: ${readdirSync(join(exchange, 'requests')).join(', ')}`);
  const codes = [...(await approveInExchange(h)).typed];
  // The AI asks again with a wait: the call picks the authorization up, writes the confirmation request, and waits.
  say(`   AI asks again with wait_seconds: 50 — the call waits for the operator`);
  const waiting = write(writer, { ...wargs, wait_seconds: 50 }, 'verified');
  while (!readdirSync(join(exchange, 'requests')).some((n) => n.startsWith('conf-'))) await new Promise((r) => setTimeout(r, 50));
  codes.push(...(await approveInExchange(h)).typed);
  const verified = await waiting;
  say(`   the waiting call returns → ${bold(verified.status)}: one PATCH sent, verified by re-reading`);
  const after = await aliasDescr(writer, 'LAN_SERVERS');
  say(`   read back through pfsense_get_firewall_aliases: LAN_SERVERS ${JSON.stringify(after)}`);
  const writePatches = (await patchCount()) - patchesBefore;
  done('write', {
    states: [requested.status, verified.status],
    approve_runs: 2,
    typed_codes: codes.length,
    contract_id: verified.contract_id,
    read_back: after,
    patches: writePatches,
  });

  // 4. Operations
  step(
    'Operations: admin status, admin rollback, admin audit verify',
    "the operator's commands on the server host, over the same write directory, safe beside the running server",
  );
  const status = admin(['status', '--dir', dir], 'admin status').json;
  const row = (status.contracts ?? []).find((c) => c.contract_id === verified.contract_id);
  say(
    `   admin status: contract ${verified.contract_id} is ${bold(row?.state ?? '?')} (MCP: ${row?.mcp_status ?? '?'}); the alias only as a digest prefix ${row?.target ?? ''}`,
  );
  const rollbackPatchesBefore = await patchCount();
  // rollback talks to the appliance: the same PFSENSE_* environment as the server, with the write_protected grants.
  const writeEnv = { ...baseEnv, PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: dir };
  const rolled = admin(['rollback', verified.contract_id, '--dir', dir], 'admin rollback', writeEnv).json;
  say(
    `   admin rollback → ${bold(rolled.state)} (${rolled.reason_class}): the old description is written back only because the alias was still exactly as verified`,
  );
  const restored = await aliasDescr(writer, 'LAN_SERVERS');
  say(`   read back through pfsense_get_firewall_aliases: LAN_SERVERS ${JSON.stringify(restored)}`);
  const audit = admin(['audit', 'verify', '--dir', dir], 'admin audit verify').json;
  say(
    `   admin audit verify → every check holds: ${audit.contracts_checked} contract(s), ${audit.audit_rows_checked} audit rows, HMAC chain and anchor`,
  );
  done('operations', {
    status_state: row?.state ?? null,
    rollback: rolled.state,
    read_back: restored,
    audit_rows: audit.audit_rows_checked,
    patches: (await patchCount()) - rollbackPatchesBefore,
  });

  // 5. Block an address (an entries change), verified in pf, undone by a signed rollback
  await writer.close();
  await blockStep({
    step,
    done,
    say,
    bold,
    dim,
    connect,
    call,
    admin,
    adminRaw,
    approveInExchange,
    review,
    simControl,
    patchCount,
    showCommand,
    h,
    env: { ...baseEnv, ...clientEnv },
    faults: FAULTS,
    until: async (ready) => {
      while (!ready()) await new Promise((r) => setTimeout(r, 50));
    },
    exchangeRequests: () => readdirSync(join(exchange, 'requests')),
  });

  // 6. Faults
  if (FAULTS) {
    writer = await connect({ ...baseEnv, ...clientEnv });
    step(
      "--faults: the PATCH's response is lost",
      'a lost answer is never retried: the contract waits for a signed, observed resolution (WEB_PORTS, so no cooldown is in the way)',
    );
    const fargs = { alias_name: 'WEB_PORTS', description: 'Web (answer lost on the way back)' };
    review(h, (await write(writer, fargs, 'requested')).pending_request, 'plan-authorization');
    review(h, (await write(writer, fargs, 'awaiting_confirmation')).pending_request, 'confirmation');
    await simControl('POST', '/__sim/faults', { route: ALIAS_PATH, method: 'PATCH', kind: 'drop-response-after-apply', times: 1 });
    const before = await patchCount();
    const lost = await write(writer, fargs, 'reconciliation_required');
    say(`   the simulator applies the PATCH and closes without answering → ${bold(lost.status)}`);
    const observed = await aliasDescr(writer, 'WEB_PORTS');
    say(`   the operator looks first: WEB_PORTS is observed as ${JSON.stringify(observed)}, so the signed outcome is APPLIED`);
    // The operator's side on the server host: a fresh observation and the server-signed reconciliation request.
    const emitted = admin(['reconcile', 'emit', lost.contract_id, '--dir', dir], 'admin reconcile emit', writeEnv).json;
    say(
      `   admin reconcile emit → ${emitted.already_pending ? 'already pending' : 'wrote'} the reconciliation request (state ${emitted.state})`,
    );
    review(h, emitted.pending_request, 'reconciliation', 'APPLIED');
    const resumed = admin(['reconcile', 'resume', lost.contract_id, '--dir', dir], 'admin reconcile resume', writeEnv).json;
    say(`   admin reconcile resume → ${bold(resumed.state)}: resolved from the signed, observed evidence; nothing was sent`);
    const resolved = await write(writer, fargs, 'verified');
    const faultPatches = (await patchCount()) - before;
    say(`   AI asks again → ${bold(resolved.status)}; PATCHes sent for WEB_PORTS in all: ${faultPatches}`);
    say(dim('   (this step used the manual flow: review, sign --approve, admin inbox add — it works beside the exchange folder)'));
    done('faults', { states: [lost.status, resumed.state, resolved.status], observed, patches: faultPatches });
    await writer.close();
  }
  const total = Date.now() - started;
  say();
  say(bold(`Done in ${(total / 1000).toFixed(1)} s.`) + dim(' The simulator, the server and every key and store are removed now.'));
  emit({ event: 'done', ms: total });
}

try {
  await main();
  await cleanup();
  process.exit(0);
} catch (error) {
  if (interrupted) await new Promise(() => {});
  emit({ event: 'failed', error: error instanceof Error ? error.message : String(error) });
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  await cleanup();
  process.exit(1);
}
