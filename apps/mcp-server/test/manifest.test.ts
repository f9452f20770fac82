// The committed tool manifest per profile. Regenerate after an intended change of the public surface with
//   UPDATE_MANIFEST=1 npx vitest run --config apps/mcp-server/vitest.config.ts test/manifest.test.ts
// and review the diff.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILES } from '@pfsense-mcp/policy';
import { describe, expect, it } from 'vitest';
import { buildToolManifest } from '../src/index.js';

const manifestPath = (profile: string) => join(import.meta.dirname, '..', 'manifest', `tools.${profile}.json`);

describe('committed tool manifest', () => {
  for (const profile of PROFILES) {
    it(`matches the tools/list surface of profile ${profile}`, async () => {
      const manifest = await buildToolManifest(profile);
      const text = `${JSON.stringify(manifest, null, 2)}\n`;
      if (process.env['UPDATE_MANIFEST'] === '1') writeFileSync(manifestPath(profile), text);
      expect(
        readFileSync(manifestPath(profile), 'utf8'),
        `manifest/tools.${profile}.json drifted; regenerate with UPDATE_MANIFEST=1 if intended`,
      ).toBe(text);
      // The one WRITE tool appears only where the profile grants ALIAS_WRITE; every other tool only reads.
      const writes = manifest.tools.filter((t) => t.annotations['readOnlyHint'] !== true || t.annotations['destructiveHint'] !== false);
      expect(writes.map((t) => t.name)).toEqual(profile === 'write_protected' ? ['pfsense_set_firewall_alias_description'] : []);
    });
  }
});
