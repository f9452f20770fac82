// server.json is what the MCP Registry publishes about the package: it must validate against the registry's own
// schema (vendored in vendor/mcp-registry) and name the version, package and command that `npm pack` produces.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_ROOT } from './workspace-root.js';

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(WORKSPACE_ROOT, path), 'utf8')) as Record<string, unknown>;
const schema = readJson('vendor/mcp-registry/server.schema.json');
const serverJson = readJson('server.json');
const pkg = readJson('package.json');
// ajv-formats is CommonJS: under NodeNext its default import is module.exports, which carries the plugin as `.default`.
const addFormats = (addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv }).default;

function validator() {
  // strict: false — the registry's schema carries OpenAPI keywords (`example`, `discriminator`) that draft-07
  // does not define; they annotate and do not constrain.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

interface EnvVar {
  readonly name: string;
  readonly description?: string;
  readonly isSecret?: boolean;
  readonly isRequired?: boolean;
  readonly format?: string;
}
interface NpmPackage {
  readonly registryType: string;
  readonly identifier: string;
  readonly version: string;
  readonly transport: { readonly type: string };
  readonly environmentVariables: readonly EnvVar[];
}

describe('server.json (MCP Registry)', () => {
  it('validates against the vendored registry schema', () => {
    const validate = validator();
    expect(validate(serverJson), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the schema is not a rubber stamp: a server.json without a version, or with a range as package version, fails', () => {
    const validate = validator();
    const { version: _dropped, ...noVersion } = serverJson;
    expect(validate(noVersion)).toBe(false);
    const packages = serverJson['packages'] as NpmPackage[];
    expect(validate({ ...serverJson, packages: [{ ...packages[0], version: 'latest' }] })).toBe(false);
    expect(validate({ ...serverJson, name: 'no-slash' })).toBe(false);
  });

  it('names the version, package and registry name package.json has (kept in sync)', () => {
    expect(serverJson['version']).toBe(pkg['version']);
    expect(serverJson['$schema']).toBe(schema['$id']);
    expect(serverJson['name']).toBe(pkg['mcpName']);
    const [npm, ...others] = serverJson['packages'] as NpmPackage[];
    expect(others).toEqual([]);
    expect(npm).toMatchObject({ registryType: 'npm', identifier: pkg['name'], version: pkg['version'], transport: { type: 'stdio' } });
  });

  it('describes every environment variable, and marks the paths of secrets as secret', () => {
    const [npm] = serverJson['packages'] as NpmPackage[];
    const vars = new Map((npm?.environmentVariables ?? []).map((v) => [v.name, v]));
    for (const v of vars.values()) expect(v.description?.length ?? 0, v.name).toBeGreaterThan(10);
    expect([...vars.keys()].sort()).toEqual([
      'PFSENSE_ALLOWED_TOOLS',
      'PFSENSE_API_KEY_FILE',
      'PFSENSE_CA_FILE',
      'PFSENSE_LOG_LEVEL',
      'PFSENSE_PROFILE',
      'PFSENSE_TOOLSETS',
      'PFSENSE_URL',
      'PFSENSE_WRITE_ANCHOR_DIR',
      'PFSENSE_WRITE_API_KEY_FILE',
      'PFSENSE_WRITE_DIR',
    ]);
    const secret = [...vars.values()]
      .filter((v) => v.isSecret === true)
      .map((v) => v.name)
      .sort();
    expect(secret).toEqual(['PFSENSE_API_KEY_FILE', 'PFSENSE_WRITE_API_KEY_FILE', 'PFSENSE_WRITE_DIR']);
    for (const name of secret) expect(vars.get(name)?.format, name).toBe('filepath');
    expect(vars.get('PFSENSE_URL')?.isRequired).toBe(true);
    expect(vars.get('PFSENSE_API_KEY_FILE')?.isRequired).toBe(true);
  });

  it('package.json is the product package: public, its engines the Node versions the README supports', () => {
    expect(pkg['name']).toBe('pfsense-mcp');
    expect(pkg['private']).toBeUndefined();
    const engines = (pkg['engines'] as { node: string }).node;
    expect(engines).toBe('^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0');
    const readme = readFileSync(join(WORKSPACE_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('Node.js 20 (20.19 or later; end of life since April 2026, still tested), 22 (22.12 or later) and 24');
  });
});
