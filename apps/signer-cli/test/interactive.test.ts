import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactKind, artifactDigestOf, parseArtifact } from '@pfsense-mcp/authorization';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, cleanup, codeFor, ensureBuilt, filesIn, keygen, MAIN, tempDir, writeArtifact } from './harness.js';

/** Runs the built signer under script(1), so stdin and stdout are a real pseudo-terminal; `typed` is the keyboard. */
function onTerminal(args: readonly string[], typed: string, noColor = false): { status: number | null; output: string } {
  const command = [process.execPath, MAIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined };
  if (noColor) env.NO_COLOR = '1';
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', input: typed, timeout: 20_000, env });
  return { status: r.status, output: r.stdout };
}

/** An ANSI SGR escape (colour, bold…). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`);

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!hasScript)('interactive approval on a terminal', () => {
  let dir: string;
  let server: ReturnType<typeof keygen>;
  let plan: ReturnType<typeof keygen>;

  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    server = keygen(dir, 'server-request');
    plan = keygen(dir, 'plan-authorization');
  });
  afterAll(() => cleanup(dir));

  it('signs after the operator types the approval code shown (keyed by the operator key)', () => {
    const req = authorizationRequest(server.key);
    const file = writeArtifact(dir, req);
    const out = tempDir();
    const code = codeFor(plan.keyFile, req);
    const r = onTerminal(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out], `${code}\n`);
    expect(r.status).toBe(0);
    expect(r.output).toContain('Type the code ');
    expect(r.output).toContain(code);
    const files = filesIn(out);
    expect(files).toHaveLength(1);
    expect(parseArtifact(readFileSync(join(out, files[0] as string))).kind).toBe(ArtifactKind.PLAN_AUTHORIZATION);
    cleanup(out);
  });

  it('"yes" and the request digest prefix approve nothing at the prompt', () => {
    const req = authorizationRequest(server.key);
    const file = writeArtifact(dir, req);
    const out = tempDir();
    const yes = onTerminal(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out], 'yes\n', true);
    expect(yes.status).toBe(5);
    expect(yes.output).toContain('(APPROVAL_MISMATCH)');
    const digestPrefix = artifactDigestOf(req).slice(0, 12);
    const prefix = onTerminal(
      ['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out],
      `${digestPrefix}\n`,
      true,
    );
    expect(prefix.status).toBe(5);
    expect(prefix.output).toContain('(DIGEST_PREFIX)');
    expect(filesIn(out)).toEqual([]);
    cleanup(out);
  });

  it('colours a review on a terminal, and not with NO_COLOR=1 or --no-color', () => {
    const file = writeArtifact(dir, authorizationRequest(server.key));
    const coloured = onTerminal(['review', file, '--server-key', server.pubFile], '');
    expect(coloured.status).toBe(0);
    expect(coloured.output).toContain('server signature verified');
    expect(coloured.output).toMatch(ANSI);
    for (const plain of [
      onTerminal(['review', file, '--server-key', server.pubFile], '', true),
      onTerminal(['review', file, '--server-key', server.pubFile, '--no-color'], ''),
    ]) {
      expect(plain.status).toBe(0);
      expect(plain.output).toContain('server signature verified');
      expect(plain.output).not.toMatch(ANSI);
    }
  });

  it('refuses anything else typed and writes nothing', () => {
    const req = authorizationRequest(server.key);
    const file = writeArtifact(dir, req);
    const out = tempDir();
    const r = onTerminal(['sign', file, '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out], 'y\n');
    expect(r.status).toBe(5);
    expect(filesIn(out)).toEqual([]);
    cleanup(out);
  });
});
