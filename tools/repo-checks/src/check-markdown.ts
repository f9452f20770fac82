// What a reader of a rendered page would trip over, found with the CommonMark reference parser (commonmark.js):
// a code fence that does not close where its author meant (it swallows the prose and headings after it: a
// closing fence may carry no text, so "``` text" leaves the block open), and a relative link to a file or an
// anchor that does not exist. Anchors are the slugs GitHub gives headings (lower case, punctuation dropped,
// spaces to hyphens, "-1", "-2" for repeats).
import { Parser } from 'commonmark';
import type { Node } from 'commonmark';

export interface MarkdownProblem {
  readonly line: number;
  readonly kind: 'UNCLOSED_FENCE' | 'BROKEN_LINK' | 'BROKEN_ANCHOR';
  readonly detail: string;
}

/** How the check reaches other files: whether a repository path exists, and the anchors of a markdown file. */
export interface MarkdownWorld {
  exists(path: string): boolean;
  anchorsOf(path: string): ReadonlySet<string> | null;
}

const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,})/u;

function walk(root: Node, visit: (node: Node) => void): void {
  const walker = root.walker();
  for (let event = walker.next(); event !== null; event = walker.next()) if (event.entering) visit(event.node);
}

function textOf(node: Node): string {
  let out = '';
  walk(node, (n) => {
    if (n.type === 'text' || n.type === 'code') out += n.literal ?? '';
  });
  return out;
}

/** GitHub's heading slug. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/gu, '-');
}

const HTML_ANCHOR = /<a\s+(?:id|name)="([^"]+)"/gu;

/** The anchors a markdown text's headings get, and those its HTML sets with `<a id="…">`. */
export function markdownAnchors(text: string): ReadonlySet<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  walk(new Parser().parse(text), (n) => {
    if (n.type === 'html_inline' || n.type === 'html_block')
      for (const m of (n.literal ?? '').matchAll(HTML_ANCHOR)) anchors.add(m[1] as string);
    if (n.type !== 'heading') return;
    const base = headingSlug(textOf(n));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  return anchors;
}

function resolvePath(fromFile: string, target: string): string {
  const parts = fromFile.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return parts.join('/');
}

/** Every problem of one markdown file (`file`: its repository path, posix separators). */
export function checkMarkdown(file: string, text: string, world: MarkdownWorld): readonly MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  const lines = text.split('\n');
  const doc = new Parser().parse(text);
  const fenceEnds = new Set<number>();
  const inside = new Set<number>();
  walk(doc, (n) => {
    // commonmark.js keeps whether a code block is fenced in `_isFenced` (no public getter in 0.31).
    if (n.type !== 'code_block' || (n as Node & { _isFenced?: boolean })._isFenced !== true) return;
    const [[start], [end]] = n.sourcepos;
    fenceEnds.add(start);
    // A fence left open runs to the end of its container: its last line is then no closing fence.
    if (end === start || !FENCE_LINE.test(lines[end - 1] ?? '')) {
      problems.push({ line: start, kind: 'UNCLOSED_FENCE', detail: 'the code fence opened here never closes' });
    } else fenceEnds.add(end);
    for (let l = start + 1; l < end; l += 1) inside.add(l);
  });
  lines.forEach((line, i) => {
    const n = i + 1;
    if (FENCE_LINE.test(line) && !fenceEnds.has(n) && inside.has(n)) {
      problems.push({ line: n, kind: 'UNCLOSED_FENCE', detail: 'a fence line inside a code block: the block above did not close' });
    }
  });
  const ownAnchors = markdownAnchors(text);
  walk(doc, (n) => {
    if (n.type !== 'link' || n.destination === null) return;
    const dest = n.destination;
    if (/^[a-z][a-z0-9+.-]*:/iu.test(dest)) return;
    const line = n.sourcepos?.[0]?.[0] ?? 0;
    const hash = dest.indexOf('#');
    const pathPart = decodeURIComponent(hash < 0 ? dest : dest.slice(0, hash));
    const anchor = hash < 0 ? null : dest.slice(hash + 1);
    const target = pathPart === '' ? file : resolvePath(file, pathPart);
    if (pathPart !== '' && !world.exists(target)) {
      problems.push({ line, kind: 'BROKEN_LINK', detail: `${dest}: no such file` });
      return;
    }
    if (anchor === null || anchor === '') return;
    const anchors = pathPart === '' ? ownAnchors : target.endsWith('.md') ? world.anchorsOf(target) : null;
    if (anchors !== null && !anchors.has(anchor)) problems.push({ line, kind: 'BROKEN_ANCHOR', detail: `${dest}: no such heading` });
  });
  return problems;
}
