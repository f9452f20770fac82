import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runGenerator } from '@pfsense-mcp/test-support';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES, Capability, READ_CAPABILITIES, WRITE_CAPABILITIES, isCapability } from '../src/index.js';

// The pfrest data is vendored in the repository: <repo>/vendor/pfrest/tool-endpoints.json.
const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const toolEndpointsPath = resolve(repoRoot, 'vendor', 'pfrest', 'tool-endpoints.json');

describe('Capability matches pfrest/tool-endpoints.json (drift test)', () => {
  it('the vendored file is present', () => {
    expect(existsSync(toolEndpointsPath), `missing ${toolEndpointsPath}`).toBe(true);
  });

  it('READ_CAPABILITIES is exactly the set of capabilities named by the tools', () => {
    const tools = JSON.parse(readFileSync(toolEndpointsPath, 'utf8')) as Record<string, { capability: string }>;
    const named = new Set(Object.values(tools).map((t) => t.capability));
    expect(named.size).toBeGreaterThan(0);
    expect([...READ_CAPABILITIES].sort()).toEqual([...named].sort());
    expect([...CAPABILITIES].sort()).toEqual([...named, 'ALIAS_WRITE', 'ALIAS_ENTRIES_WRITE'].sort());
  });

  it('the two alias writes are the write capabilities and every other ends in _READ', () => {
    expect([...WRITE_CAPABILITIES]).toEqual(['ALIAS_WRITE', 'ALIAS_ENTRIES_WRITE']);
    expect(READ_CAPABILITIES.has(Capability.ALIAS_WRITE)).toBe(false);
    expect(READ_CAPABILITIES.has(Capability.ALIAS_ENTRIES_WRITE)).toBe(false);
    for (const c of READ_CAPABILITIES) expect(c).toMatch(/^[A-Z][A-Z0-9_]*_READ$/);
  });

  it('values equal names and the enum is frozen', () => {
    for (const [k, v] of Object.entries(Capability)) expect(v).toBe(k);
    expect(Object.isFrozen(Capability)).toBe(true);
    expect(Object.isFrozen(CAPABILITIES)).toBe(true);
    expect(() => (READ_CAPABILITIES as Set<Capability>).add('X' as Capability)).toThrow(TypeError);
  });

  it('isCapability is exact', () => {
    expect(isCapability('FIREWALL_READ')).toBe(true);
    expect(isCapability('firewall_read')).toBe(false);
    expect(isCapability(' FIREWALL_READ')).toBe(false);
    expect(isCapability('toString')).toBe(false);
    expect(isCapability(undefined)).toBe(false);
  });
});

describe('scripts/generate-capabilities.mjs', () => {
  it('regenerating into a temp dir reproduces the committed file(s) byte for byte', () => {
    for (const [file, generated] of runGenerator(join(import.meta.dirname, '..', 'scripts', 'generate-capabilities.mjs'), [
      'capability.ts',
    ])) {
      expect(generated, `${file} differs from its generator's output: re-run the generator`).toBe(
        readFileSync(join(import.meta.dirname, '..', 'src', file), 'utf8'),
      );
    }
  });
});
