// --check-config against the simulator, through the BUILT program (the mode answers on stdout): the pfREST
// version and whether it is in the tested range, key auth and read-only mode — warnings where the server still
// works, failures only where it cannot.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '@pfsense-mcp/pfsense-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt, writeKeyFile, type RawRun } from './support/built-server.js';

const VERSION = '/api/v2/system/restapi/version';
const SETTINGS = '/api/v2/system/restapi/settings';
const settings = (over: Record<string, unknown>) => ({ enabled: true, read_only: false, auth_methods: ['BasicAuth', 'KeyAuth'], ...over });

const cleanups: (() => Promise<void>)[] = [];

async function check(
  options: SimulatorOptions,
  extraEnv: Record<string, string> = {},
  key?: string,
): Promise<RawRun & { sim: RunningSimulator }> {
  const sim = await startSimulator(options);
  const keyFile = writeKeyFile(key ?? sim.apiKey);
  cleanups.push(async () => {
    await sim.close();
    rmSync(dirname(keyFile), { recursive: true, force: true });
  });
  const run = await runBuilt({ PFSENSE_URL: sim.url, PFSENSE_API_KEY_FILE: keyFile, PFSENSE_ALLOW_HTTP_LOOPBACK: 'true', ...extraEnv }, [
    '--check-config',
  ]);
  expect(run.stdout + run.stderr).not.toContain(key ?? sim.apiKey);
  return { ...run, sim };
}

const line = (run: RawRun, label: string) => run.stdout.split('\n').find((l) => l.trimStart().startsWith(label)) ?? '';

beforeAll(() => ensureBuilt(), 120_000);
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('--check-config', () => {
  it('reports the pfREST version in the tested range, key auth and read-only mode, with no warning', async () => {
    const run = await check({ data: { [VERSION]: { current_version: 'v2.10.0' }, [SETTINGS]: settings({}) } });
    expect(run.code).toBe(0);
    expect(line(run, 'pfrest version')).toMatch(/2\.10\.0 \(tested range 2\.0\.0 – 2\.10\.x\)/);
    expect(line(run, 'key auth')).toMatch(/enabled$/);
    expect(line(run, 'read-only mode')).toMatch(/off/);
    expect(line(run, 'toolsets')).toMatch(/all/);
    expect(run.stdout).not.toContain('WARNING');
    expect(line(run, 'result')).toMatch(/ok$/);
    // two GETs, nothing else
    expect(run.sim.control.counters()).toMatchObject({ [`GET ${VERSION}`]: 1, [`GET ${SETTINGS}`]: 1 });
  });

  it.each([
    ['an older tested release', 'v2.0.3', /2\.0\.3 \(tested range/],
    ['a dev build of a tested release', 'v2.5.0-dev-47c972e', /2\.5\.0 \(tested range/],
  ])('%s is in range', async (_why, version, expected) => {
    const run = await check({ data: { [VERSION]: { current_version: version }, [SETTINGS]: settings({}) } });
    expect(run.code).toBe(0);
    expect(line(run, 'pfrest version')).toMatch(expected);
    expect(run.stdout).not.toContain('WARNING');
  });

  it.each([
    ['a newer release', { current_version: 'v2.11.0' }, /WARNING: 2\.11\.0 is outside the tested range 2\.0\.0 – 2\.10\.x/],
    ['v1', { current_version: 'v1.6.0' }, /WARNING: 1\.6\.0 is outside the tested range/],
    ['an unknown version', { current_version: 'unknown' }, /WARNING: not reported in a known form/],
    ['a version of the wrong type', { current_version: 210 }, /WARNING: not reported in a known form/],
  ])('%s is a warning, not a failure', async (_why, data, expected) => {
    const run = await check({ data: { [VERSION]: data, [SETTINGS]: settings({}) } });
    expect(run.code).toBe(0);
    expect(line(run, 'pfrest version')).toMatch(expected);
    expect(line(run, 'result')).toMatch(/ok with 1 warning$/);
  });

  it('key auth missing from the enabled methods and unknown settings are warnings', async () => {
    const run = await check({
      data: { [VERSION]: { current_version: 'v2.10.0' }, [SETTINGS]: { auth_methods: ['BasicAuth'], read_only: 'yes' } },
    });
    expect(run.code).toBe(0);
    expect(line(run, 'key auth')).toMatch(/WARNING: KeyAuth is not among the enabled authentication methods/);
    expect(line(run, 'read-only mode')).toMatch(/WARNING: unknown/);
  });

  it('read-only mode is fine for a reader and a warning for a profile that writes', async () => {
    const data = { [VERSION]: { current_version: 'v2.10.0' }, [SETTINGS]: settings({ read_only: true }) };
    const reader = await check({ data });
    expect(line(reader, 'read-only mode')).toMatch(/^\s*read-only mode\s+on \(pfREST answers GET only/);
    expect(reader.stdout).not.toContain('WARNING');
    // (exit 1 here: no write directory is configured, so the write gate fails — reported on its own line)
    const writer = await check({ data }, { PFSENSE_PROFILE: 'write_protected' });
    expect(line(writer, 'read-only mode')).toMatch(/WARNING: on: pfREST refuses every write/);
  });

  it('a key without the settings privilege still passes, with a warning naming the privilege to add', async () => {
    const privileges = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'docs', 'pfrest-privileges.json'), 'utf8')) as {
      all_privileges: string[];
    };
    const secret = 'check-config-least-privilege-key-0123456789';
    const run = await check(
      {
        credentials: [
          { auth: 'key', secret, privileges: privileges.all_privileges.filter((p) => p !== 'api-v2-system-restapi-settings-get') },
        ],
      },
      {},
      secret,
    );
    expect(run.code).toBe(0);
    expect(line(run, 'reachability')).toMatch(/ok/);
    expect(line(run, 'settings')).toMatch(
      /WARNING: not readable \(GET \/api\/v2\/system\/restapi\/settings: UPSTREAM_AUTH_FAILED, HTTP 403/,
    );
    expect(line(run, 'settings')).toContain('pfsense_get_system_restapi_settings');
  });

  it('an unreachable appliance and a bad configuration still fail', async () => {
    const down = await runBuilt(
      { PFSENSE_URL: 'http://127.0.0.1:9', PFSENSE_API_KEY_FILE: '/nonexistent/key', PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' },
      ['--check-config'],
    );
    expect(down.code).toBe(1);
    const sets = await check({}, { PFSENSE_TOOLSETS: 'firewall,nope' });
    expect(sets.code).toBe(1);
    expect(sets.stdout).toContain('PFSENSE_TOOLSETS: "nope" is not a toolset');
  });

  it('a key-file problem is its own FAILED line, and the one verdict comes last (issue 36 item 7)', async () => {
    const run = await runBuilt(
      { PFSENSE_URL: 'http://127.0.0.1:9', PFSENSE_API_KEY_FILE: '/nonexistent/key', PFSENSE_ALLOW_HTTP_LOOPBACK: 'true' },
      ['--check-config'],
    );
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(line(run, 'configuration')).toMatch(/ok$/);
    expect(line(run, 'api key file')).toMatch(/^ *api key file +FAILED: PFSENSE_API_KEY_FILE /);
    expect(lines.filter((l) => /^ *(configuration|result) /.test(l))).toEqual(['  configuration   ok', '  result          FAILED']);
    expect(lines[lines.length - 1]).toBe('  result          FAILED');
    // A configuration that fails: its line, then the verdict.
    const bad = await runBuilt({ PFSENSE_URL: 'http://127.0.0.1:9', PFSENSE_API_KEY_FILE: '/k', PFSENSE_PROFILE: 'root' }, [
      '--check-config',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      expect.stringMatching(/^ {2}configuration {3}FAILED: PFSENSE_PROFILE/),
      '  result          FAILED',
    ]);
  });

  it('names the selected toolsets and counts their tools', async () => {
    const run = await check({}, { PFSENSE_TOOLSETS: 'firewall,nat,diagnostics' });
    expect(run.code).toBe(0);
    expect(line(run, 'toolsets')).toMatch(/firewall, nat, diagnostics$/);
    // 11 firewall + 4 nat + 4 diagnostics READ tools + pfsense_mcp_info
    expect(line(run, 'profile')).toMatch(/\(20 tools would be registered/);
  });
});
