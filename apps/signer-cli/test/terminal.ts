// The operator's screen, for real: the built signer runs inside tmux (a pane exactly 80 columns wide, UTF-8),
// and the test reads back what the terminal shows (capture-pane) — the text as drawn, after the terminal's
// own wrapping — and parses it back into the facts the review claims to show.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN } from './harness.js';

export const hasTmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
export const SCREEN_COLUMNS = 80;

const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;

export interface Screen {
  /** The rows as the terminal shows them (trailing blank rows dropped). */
  readonly rows: readonly string[];
  /** The same output with the terminal's own wraps joined (tmux capture-pane -J): equal to rows iff nothing wrapped. */
  readonly joined: readonly string[];
  readonly status: number;
}

function trimBlank(text: string): string[] {
  const rows = text.split('\n');
  while (rows.length > 0 && (rows[rows.length - 1] as string).trim() === '') rows.pop();
  return rows;
}

/** Runs the signer with `args` in an 80-column tmux pane (`typed`: keys sent to it) and captures the screen once it has exited. */
export function onScreen(args: readonly string[], height = 120, typed = ''): Screen {
  const dir = mkdtempSync(join(tmpdir(), 'signer-tmux-'));
  const socket = join(dir, 's');
  const env = { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', NO_COLOR: undefined, TMUX: undefined };
  const tmux = (...a: string[]) =>
    spawnSync('tmux', ['-u', '-S', socket, '-f', '/dev/null', ...a], { encoding: 'utf8', env, timeout: 30_000 });
  try {
    const program = [process.execPath, MAIN, ...args].map(quote).join(' ');
    // The exit status goes to a tmux option; `wait-for -S` wakes the test (no polling, no sleep).
    const script = `${program}; tmux -S ${quote(socket)} set-option -g @status $?; tmux -S ${quote(socket)} wait-for -S done; sleep 600`;
    const started = tmux('new-session', '-d', '-x', String(SCREEN_COLUMNS), '-y', String(height), '-s', 'review', `sh -c ${quote(script)}`);
    if (started.status !== 0) throw new Error(`tmux new-session failed: ${started.stderr}`);
    if (typed !== '') tmux('send-keys', '-t', 'review', '-l', typed);
    const waited = tmux('wait-for', 'done');
    if (waited.status !== 0) throw new Error('tmux wait-for failed');
    const rows = trimBlank(tmux('capture-pane', '-p', '-t', 'review').stdout);
    const joined = trimBlank(tmux('capture-pane', '-p', '-J', '-t', 'review').stdout);
    const status = Number(tmux('show-options', '-gv', '@status').stdout.trim());
    return { rows, joined, status };
  } finally {
    tmux('kill-server');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The reverse of the signer's escaping (\\ \" \n \t \r \u{…}), refusing anything the signer would never print
 * inside quotes (a bare quote or backslash) — so a screen that could be read two ways fails the test.
 */
export function unescapeShown(shown: string): string {
  let out = '';
  for (let i = 0; i < shown.length; i += 1) {
    const ch = shown[i] as string;
    if (ch === '"') throw new Error(`bare quote on screen at ${i}: ${shown}`);
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = shown[i + 1];
    i += 1;
    if (next === '\\') out += '\\';
    else if (next === '"') out += '"';
    else if (next === 'n') out += '\n';
    else if (next === 't') out += '\t';
    else if (next === 'r') out += '\r';
    else if (next === 'u') {
      const m = /^\{([0-9A-F]{4,6})\}/.exec(shown.slice(i + 1));
      if (m === null) throw new Error(`bad escape on screen at ${i}: ${shown}`);
      out += String.fromCodePoint(parseInt(m[1] as string, 16));
      i += m[0].length;
    } else throw new Error(`bad escape on screen at ${i}: ${shown}`);
  }
  return out;
}

const VALUE_COLUMN = 16;

/** The value of the field whose row `index` starts, with its continuation rows (indented to the value column). */
export function fieldValue(rows: readonly string[], index: number): string {
  let value = (rows[index] as string).slice(VALUE_COLUMN);
  for (let i = index + 1; i < rows.length; i += 1) {
    const row = rows[i] as string;
    if (!row.startsWith(' '.repeat(VALUE_COLUMN))) break;
    value += row.slice(VALUE_COLUMN);
  }
  return value;
}

/** One quoted string shown on screen (`"…"` exactly), decoded. */
export function quotedValue(shown: string): string {
  const m = /^"(.*)"$/.exec(shown);
  if (m === null) throw new Error(`not one quoted value: ${shown}`);
  return unescapeShown(m[1] as string);
}

/** Every row index whose text starts with `prefix`. */
export function rowsStarting(rows: readonly string[], prefix: string | RegExp): number[] {
  return rows.flatMap((r, i) => ((typeof prefix === 'string' ? r.startsWith(prefix) : prefix.test(r)) ? [i] : []));
}

/** The old → new description exactly as the screen states them (one row each, or the test fails). */
export function descriptionsOnScreen(rows: readonly string[]): { old: string; new: string } {
  const olds = rowsStarting(rows, '  description   ');
  const news = rowsStarting(rows, /^ +→ /);
  if (olds.length !== 1 || news.length !== 1)
    throw new Error(`expected one description and one → row, got ${olds.length} and ${news.length}`);
  return { old: quotedValue(fieldValue(rows, olds[0] as number)), new: quotedValue(fieldValue(rows, news[0] as number)) };
}

/** The members as the screen lists them: `#n  "address"  detail "detail"`, one per row (with continuations). */
export function membersOnScreen(rows: readonly string[]): { address: string[]; detail: string[] } {
  const address: string[] = [];
  const detail: string[] = [];
  rowsStarting(rows, /^ {4}#\d+ /).forEach((i, n) => {
    const label = /^ {4}#(\d+) /.exec(rows[i] as string)?.[1];
    if (Number(label) !== n + 1) throw new Error(`member rows out of order at ${label}`);
    const m = /^"((?:[^"\\]|\\.)*)" {2}detail "((?:[^"\\]|\\.)*)"$/.exec(fieldValue(rows, i));
    if (m === null) throw new Error(`member row is not "address"  detail "detail": ${rows[i]}`);
    address.push(unescapeShown(m[1] as string));
    detail.push(unescapeShown(m[2] as string));
  });
  return { address, detail };
}
