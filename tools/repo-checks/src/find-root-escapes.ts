// A static scan for paths that leave the workspace root: the repository must build, test and regenerate its data
// with nothing beside it. It is deliberately simple — it evaluates the path expressions scripts and tests really
// write (join/resolve chains from the file's own location or a root variable, `new URL(rel, import.meta.url)`,
// relative string literals) and flags any that lands outside the root, plus any mention of the sibling shared
// folder that once held the vendored data. It is a guard against the common forms, not a proof about every possible expression.
import { posix } from 'node:path';

export type RootEscapeRule = 'sibling-shared-folder' | 'path-escape' | 'relative-literal-escape';

export interface RootEscape {
  readonly file: string;
  readonly line: number;
  readonly rule: RootEscapeRule;
  readonly excerpt: string;
}

// A fake absolute root: evaluated paths are compared against it, never touched on disk.
const ROOT = '/__workspace_root__';
const FILE_LOCATION = /^(?:import\.meta\.dirname|__dirname|(?:path\.)?dirname\((?:fileURLToPath\()?import\.meta\.url\)?\))$/u;
// Identifiers that name the workspace root by convention even when their value is imported (e.g. programs.mjs).
const ROOT_NAME = /^(?:workspace_?root|repo_?root|root)$/iu;
const SHARED_FOLDER = /(?:\.\.\/shared\b|['"`]shared['"`]|\bshared\/(?:pfrest|reference|seeds|ARCHITECTURE)|\/work\/shared)/u;
const CALL = /(?:(?<![\w.$])|\bpath\.)(join|resolve)\(/gu;
const DECLARATION = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*/gu;
// A literal starting with ../ is taken relative to its file: imports, `new URL(rel, import.meta.url)`, configs.
const RELATIVE_LITERAL = /(['"`])(\.\.\/[^'"`\s$]*)\1/gu;

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** The argument text of a call whose opening parenthesis is at `open`, or null when unbalanced. */
function argumentsAt(text: string, open: number): { readonly args: string[]; readonly end: number } | null {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  let quote: string | null = null;
  for (let i = open; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') {
      depth -= 1;
      if (depth === 0) {
        args.push(text.slice(start, i).trim());
        return { args: args.filter((a) => a !== ''), end: i + 1 };
      }
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return null;
}

type Env = ReadonlyMap<string, string>;

/** An argument's absolute value (base arguments) or path segment text; null when it cannot be known. */
function valueOf(arg: string, fileDir: string, env: Env): string | null {
  const literal = /^(['"])([^'"]*)\1$/u.exec(arg);
  if (literal) return literal[2] as string;
  if (FILE_LOCATION.test(arg)) return fileDir;
  const known = env.get(arg);
  if (known !== undefined) return known;
  if (ROOT_NAME.test(arg)) return ROOT;
  const nested = /^(?:path\.)?(?:join|resolve)\(/u.exec(arg);
  if (nested) {
    const call = argumentsAt(arg, arg.indexOf('('));
    return call === null ? null : evaluate(call.args, fileDir, env);
  }
  return null;
}

/** Evaluates join/resolve arguments when the first one is known; later unknown arguments count as plain names. */
function evaluate(args: readonly string[], fileDir: string, env: Env): string | null {
  const [first, ...rest] = args;
  if (first === undefined) return null;
  const base = valueOf(first, fileDir, env);
  if (base === null || !base.startsWith('/')) return null;
  const segments = rest.map((a) => valueOf(a, fileDir, env) ?? 'unknown');
  return posix.join(base, ...segments.map((s) => (s.startsWith('/') ? `.${s}` : s)));
}

const outside = (p: string): boolean => p !== ROOT && !p.startsWith(`${ROOT}/`);

/**
 * The escapes in one file. `file` is the path relative to the workspace root (posix separators), `text` its
 * content. Markdown is only checked for the sibling-folder rule (prose may show `..` legitimately).
 */
export function findRootEscapes(file: string, text: string): readonly RootEscape[] {
  if (typeof file !== 'string' || file.length === 0 || file.startsWith('/') || file.split('/').includes('..')) {
    throw new TypeError('findRootEscapes: file must be a non-empty path relative to the workspace root');
  }
  if (typeof text !== 'string') throw new TypeError('findRootEscapes: text must be a string');
  const found: RootEscape[] = [];
  const report = (index: number, rule: RootEscapeRule, excerpt: string) =>
    found.push({ file, line: lineOf(text, index), rule, excerpt: excerpt.slice(0, 160) });

  for (const [i, line] of text.split('\n').entries()) {
    // The MCP SDK's own module path (`@modelcontextprotocol/sdk/shared/…`) is not a folder of ours.
    if (SHARED_FOLDER.test(line.replaceAll('sdk/shared/', 'sdk/')))
      found.push({ file, line: i + 1, rule: 'sibling-shared-folder', excerpt: line.trim().slice(0, 160) });
  }
  if (file.endsWith('.md')) return found;

  const fileDir = posix.join(ROOT, posix.dirname(file));
  // Declarations first, in order, so later expressions can use earlier names (const ROOT = resolve(here, '..')).
  const env = new Map<string, string>();
  for (const m of text.matchAll(DECLARATION)) {
    const rhs = text.slice(m.index + m[0].length);
    let value: string | null = null;
    const location = /^(import\.meta\.dirname|(?:path\.)?dirname\((?:fileURLToPath\()?import\.meta\.url\)?\))/u.exec(rhs);
    if (location) value = fileDir;
    else if (/^(?:path\.)?(?:join|resolve)\(/u.test(rhs)) {
      const call = argumentsAt(rhs, rhs.indexOf('('));
      value = call === null ? null : evaluate(call.args, fileDir, env);
    }
    if (value !== null) env.set(m[1] as string, value);
  }
  for (const m of text.matchAll(CALL)) {
    const open = m.index + m[0].length - 1;
    const call = argumentsAt(text, open);
    if (call === null) continue;
    const value = evaluate(call.args, fileDir, env);
    if (value !== null && outside(value)) report(m.index, 'path-escape', text.slice(m.index, call.end));
  }
  for (const m of text.matchAll(RELATIVE_LITERAL)) {
    if (outside(posix.join(fileDir, m[2] as string))) report(m.index, 'relative-literal-escape', m[0]);
  }
  return found;
}
