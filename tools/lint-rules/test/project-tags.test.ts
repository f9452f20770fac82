// The Nx half of the layering law reads each project's `layer:` tag; a missing or wrong tag would weaken it
// silently. This holds project.json files and tools/layers/layers.mjs together.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface Layer {
  readonly name: string;
  readonly root: string;
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// The plain-ESM table eslint.config.mjs reads, loaded the same way (it is workspace tooling, not a project).
const table = (await import(pathToFileURL(join(root, 'tools', 'layers', 'layers.mjs')).href)) as {
  LAYERS: readonly Layer[];
  layerTag: (name: string) => string;
};
const layers = table.LAYERS;
const tag = table.layerTag;

function projectJsons(): { dir: string; tags: string[]; name: string }[] {
  return ['apps', 'libs', 'tools'].flatMap((top) =>
    readdirSync(join(root, top), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, top, d.name, 'project.json')))
      .map((d) => {
        const pj = JSON.parse(readFileSync(join(root, top, d.name, 'project.json'), 'utf8')) as { name: string; tags?: string[] };
        return { dir: `${top}/${d.name}`, tags: pj.tags ?? [], name: pj.name };
      }),
  );
}

describe('project tags follow the layering table', () => {
  it('every layer has a project.json at its root, named after it and tagged with its layer', () => {
    for (const l of layers) {
      const pj = JSON.parse(readFileSync(join(root, l.root, 'project.json'), 'utf8')) as { name: string; tags: string[] };
      expect([l.root, pj.name, pj.tags.filter((t) => t.startsWith('layer:'))]).toEqual([l.root, l.name, [tag(l.name)]]);
    }
  });

  it('every project is in the table (lint-rules only holds the tests of the law itself)', () => {
    const known = new Set([...layers.map((l) => l.root), 'tools/lint-rules']);
    for (const p of projectJsons()) expect(known.has(p.dir), p.dir).toBe(true);
  });
});
