// The e2e suite must never test an out-of-date bundle: the staleness rule of test/support/built-server.ts.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleInputs, isStale, workspaceRoot } from './support/built-server.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-stale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureBuilt staleness', () => {
  it('watches the app, every libs/<lib>/src (the bundle inlines them) and, for the simulator, its own src', () => {
    const { server, simulator } = bundleInputs();
    const libs = readdirSync(join(workspaceRoot, 'libs')).map((lib) => join(workspaceRoot, 'libs', lib, 'src'));
    expect(libs.length).toBeGreaterThan(5);
    expect(server).toEqual(expect.arrayContaining([join(workspaceRoot, 'apps', 'mcp-server', 'src'), ...libs]));
    expect(simulator).toEqual([join(workspaceRoot, 'tools', 'pfsense-sim', 'src')]);
  });

  it('is stale when the bundle is missing, or when any file in any watched folder (nested too) is newer', () => {
    const bundle = join(dir, 'main.js');
    const app = join(dir, 'app');
    const lib = join(dir, 'lib', 'deep');
    mkdirSync(app, { recursive: true });
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(app, 'a.ts'), '');
    writeFileSync(join(lib, 'b.ts'), '');
    const t = Date.now() / 1000 - 1000;
    utimesSync(join(app, 'a.ts'), t, t);
    utimesSync(join(lib, 'b.ts'), t, t);
    const dirs = [app, join(dir, 'lib'), join(dir, 'absent')];
    expect(isStale(bundle, dirs)).toBe(true);
    writeFileSync(bundle, '');
    utimesSync(bundle, t + 10, t + 10);
    expect(isStale(bundle, dirs)).toBe(false);
    utimesSync(join(lib, 'b.ts'), t + 20, t + 20);
    expect(isStale(bundle, dirs)).toBe(true);
    expect(isStale(bundle, [app])).toBe(false);
  });
});
