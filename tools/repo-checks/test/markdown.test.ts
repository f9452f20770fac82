// The pages a user reads render as their authors meant: README.md and every docs/*.md (and every other
// markdown page of the repository outside vendor/) parsed with the CommonMark reference parser — no code fence
// left open, no relative link to a missing file or heading. The check itself is proven on pages made to fail.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMarkdown, listRepositoryFiles, markdownAnchors } from '../src/index.js';
import type { MarkdownWorld } from '../src/index.js';
import { WORKSPACE_ROOT } from './workspace-root.js';

const world: MarkdownWorld = {
  exists: (path) => existsSync(join(WORKSPACE_ROOT, path)),
  anchorsOf: (path) => (existsSync(join(WORKSPACE_ROOT, path)) ? markdownAnchors(readFileSync(join(WORKSPACE_ROOT, path), 'utf8')) : null),
};

const pages = listRepositoryFiles(WORKSPACE_ROOT).filter((f) => f.endsWith('.md') && !f.startsWith('vendor/'));

describe('markdown pages render as written', () => {
  it('covers README.md and every docs/*.md', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/DESIGN.md');
    expect(pages).toContain('docs/OPERATIONS.md');
  });

  it.each(pages)('%s: every fence closes, every relative link and anchor resolves', (page) => {
    const problems = checkMarkdown(page, readFileSync(join(WORKSPACE_ROOT, page), 'utf8'), world);
    expect(problems.map((p) => `${page}:${p.line} ${p.kind} ${p.detail}`)).toEqual([]);
  });
});

describe('checkMarkdown finds what a reader would trip over', () => {
  const fake: MarkdownWorld = { exists: (p) => p === 'docs/OTHER.md', anchorsOf: () => new Set(['there']) };

  it('a closing fence with text after it (the block swallows what follows)', () => {
    const text = '# T\n\n```json\n{}\n``` A sentence\n\n## Next\n\n```sh\nx\n```\n';
    expect(checkMarkdown('README.md', text, fake).map((p) => p.kind)).toContain('UNCLOSED_FENCE');
  });

  it('a fence that never closes', () => {
    expect(checkMarkdown('README.md', '# T\n\n```sh\nx\n', fake).map((p) => p.kind)).toEqual(['UNCLOSED_FENCE']);
  });

  it('a link to a missing file, a missing heading of another page and of its own page', () => {
    const text = '# Top\n\n[a](docs/MISSING.md) [b](docs/OTHER.md#nowhere) [c](#nothing) [ok](docs/OTHER.md#there) [ok2](#top)\n';
    expect(checkMarkdown('README.md', text, fake).map((p) => p.kind)).toEqual(['BROKEN_LINK', 'BROKEN_ANCHOR', 'BROKEN_ANCHOR']);
  });

  it('accepts a well-formed page', () => {
    expect(checkMarkdown('README.md', '# T\n\n```sh\nx\n```\n\nText [ok](docs/OTHER.md).\n', fake)).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect([...markdownAnchors('## §1 What the product is\n\n## One call, in code order\n\n## A `code` b\n\n## A `code` b\n')]).toEqual([
      '1-what-the-product-is',
      'one-call-in-code-order',
      'a-code-b',
      'a-code-b-1',
    ]);
  });
});
