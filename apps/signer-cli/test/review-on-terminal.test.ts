// Hostile requests rendered by the built signer in a real terminal (tmux, 80 columns, UTF-8): what the
// operator's screen says must be exactly what the artifact says — every value read back from the screen
// (quotes, escapes and the review's own line structure) equals the value in the request, no line is wrapped
// by the terminal, and nothing invisible or look-alike is drawn raw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactDigestOf } from '@pfsense-mcp/authorization';
import {
  PRE_STATE,
  authorizationRequest,
  cleanup,
  codeFor,
  ensureBuilt,
  filesIn,
  json,
  keygen,
  reconciliationRequest,
  signer,
  tempDir,
  writeArtifact,
} from './harness.js';
import { SCREEN_COLUMNS, descriptionsOnScreen, hasTmux, membersOnScreen, onScreen, rowsStarting } from './terminal.js';
import type { Screen } from './terminal.js';

if (!hasTmux) {
  console.warn('review-on-terminal.test.ts SKIPPED: tmux is not installed (apt-get install -y tmux); these tests need a real terminal');
}

let dir: string;
let server: ReturnType<typeof keygen>;

beforeAll(() => {
  if (!hasTmux) return;
  ensureBuilt();
  dir = tempDir();
  server = keygen(dir, 'server-request');
});
afterAll(() => {
  if (hasTmux) cleanup(dir);
});

function review(req: Parameters<typeof writeArtifact>[1], ...flags: string[]): Screen {
  return onScreen(['review', writeArtifact(dir, req), '--server-key', server.pubFile, ...flags]);
}

/** Nothing the terminal wrapped: every row the program wrote is one row on screen, none wider than 80. */
function expectNoTerminalWrap(screen: Screen): void {
  expect(screen.status).toBe(0);
  expect(screen.rows).toEqual(screen.joined);
  for (const row of screen.rows) expect([...row].length).toBeLessThanOrEqual(SCREEN_COLUMNS);
}

/** Code points a terminal may draw as nothing or as something else: never on screen raw. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]|\p{M}\p{M}/u;

// Each test runs several real processes (the signer, tmux): more time than the default, on a shared machine.
describe.skipIf(!hasTmux)('the review on a real 80-column terminal', { timeout: 90_000 }, () => {
  it.each([
    ['a combining grapheme joiner (U+034F) inside a word', 'Ser\u034Fvers'],
    ['a variation selector (U+FE0F)', 'Servers\uFE0F'],
    ['a Hangul filler (U+3164)', 'Servers\u3164'],
    ['a braille blank (U+2800)', 'Serv\u2800ers'],
    ['a stack of combining marks', 'Ser\u0336\u0336\u0336vers'],
    ['a zero-width space and a word joiner', 'Ser\u200Bver\u2060s'],
  ])('shows %s escaped, so it never looks like "Servers"', (_what, hostile) => {
    const pre = { ...PRE_STATE, descr: 'Servers' };
    const screen = review(authorizationRequest(server.key, { pre, desc: hostile }));
    expectNoTerminalWrap(screen);
    const shown = descriptionsOnScreen(screen.rows);
    expect(shown).toEqual({ old: 'Servers', new: hostile });
    const newRow = screen.rows[rowsStarting(screen.rows, /^ +→ /)[0] as number] as string;
    expect(newRow).not.toContain('"Servers"');
    expect(newRow).toMatch(/\\u\{[0-9A-F]{4}\}/);
    expect(screen.rows.join('\n')).not.toMatch(INVISIBLE);
  });

  it('keeps one combining mark on a letter as itself (ordinary accented text stays readable)', () => {
    // Appliance data is shown as read (not normalized): a decomposed é is one mark on its letter.
    const pre = { ...PRE_STATE, descr: 'Cafe\u0301 servers — 東京' };
    const screen = review(authorizationRequest(server.key, { pre }));
    expectNoTerminalWrap(screen);
    expect(descriptionsOnScreen(screen.rows).old).toBe(pre.descr);
    expect(screen.rows.join('\n')).toContain('"Cafe\u0301 servers — 東京"');
  });

  it('a quote and a run of spaces cannot make the terminal draw a fake "→" line', () => {
    // Without escaping, the spaces push the rest to where an 80-column terminal wraps it, and the quote
    // closes the real value early: the screen would show the harmless text as the new description.
    const attack = `x" ${' '.repeat(60)}→   "Web servers (unchanged)`;
    // By default the (long, escaped) value is cut with its marker; one → row either way.
    const cut = review(authorizationRequest(server.key, { desc: attack }));
    expectNoTerminalWrap(cut);
    expect(rowsStarting(cut.rows, /^ *→/)).toHaveLength(1);
    const screen = review(authorizationRequest(server.key, { desc: attack }), '--full');
    expectNoTerminalWrap(screen);
    expect(rowsStarting(screen.rows, /^ *→/)).toHaveLength(1);
    expect(descriptionsOnScreen(screen.rows)).toEqual({ old: PRE_STATE.descr, new: attack });
  });

  it('a detail like "a), 0.0.0.0/0 (any" is one member with its detail, not two members', () => {
    const pre = { ...PRE_STATE, address: ['10.0.0.10'], detail: ['a), 0.0.0.0/0 (any'] };
    const screen = review(authorizationRequest(server.key, { pre }));
    expectNoTerminalWrap(screen);
    expect(membersOnScreen(screen.rows)).toEqual({ address: ['10.0.0.10'], detail: ['a), 0.0.0.0/0 (any'] });
    expect(screen.rows.filter((r) => r.includes('0.0.0.0/0'))).toHaveLength(1);
  });

  it('hostile members and details read back exactly, one per row (--members shows them whole)', () => {
    const pre = {
      ...PRE_STATE,
      address: ['10.0.0.10', '10.0.0.11', 'host.example'],
      detail: ['www1" detail "evil', `long ${'detail '.repeat(12)}end`, 'x\u034F\u2800  y'],
    };
    const screen = review(authorizationRequest(server.key, { pre }), '--members');
    expectNoTerminalWrap(screen);
    expect(membersOnScreen(screen.rows)).toEqual({ address: pre.address, detail: pre.detail });
  });

  it('a long description is wrapped by the review itself, never by the terminal, and reads back whole under --full', () => {
    const desc = `${'Public web servers behind the load balancer, '.repeat(8)}東京 ${'データセンター'.repeat(6)} end`;
    const screen = review(authorizationRequest(server.key, { desc }), '--full');
    expectNoTerminalWrap(screen);
    expect(descriptionsOnScreen(screen.rows).new).toBe(desc);
  });

  it('by default long values are cut with a visible marker, so alias, old → new and the approve line stay on one screen', () => {
    const old = `${'Old servers of the rack, '.repeat(20)}end`;
    const desc = `${'Public web servers behind the load balancer, '.repeat(20)}end`;
    const pre = { ...PRE_STATE, descr: old, address: ['10.0.0.10'], detail: [`${'x'.repeat(200)}`] };
    const req = authorizationRequest(server.key, { pre, desc });
    const screen = review(req);
    expectNoTerminalWrap(screen);
    const text = screen.rows.join('\n');
    expect(screen.rows.length).toBeLessThanOrEqual(22);
    expect(text).toMatch(/^ {2}alias {9}"web_servers" {3}type "host"$/m);
    expect(text).toMatch(/^ {2}approve with {2}needs your plan-authorization key \(--key or --keys\)$/m);
    const marker = '…  [cut: --full shows all]';
    // old (2 rows), new (3 rows) and the one member (1 row), each cut and marked.
    expect(screen.rows.filter((r) => r.endsWith(marker))).toHaveLength(3);
    const at = (re: RegExp) => rowsStarting(screen.rows, re)[0] as number;
    expect(at(/^ +→ /) - at(/^ {2}description /)).toBe(2);
    expect(text).not.toContain(desc);
    const full = review(req, '--full');
    expectNoTerminalWrap(full);
    expect(full.rows.join('\n')).not.toContain('[cut:');
    expect(descriptionsOnScreen(full.rows)).toEqual({ old, new: desc });
  });

  it('fits one 80×24 screen: appliance, alias, members, old → new, expiry and the prefix to type; the digests under --full', () => {
    const req = authorizationRequest(server.key);
    const digest = artifactDigestOf(req);
    const screen = review(req);
    expectNoTerminalWrap(screen);
    const text = screen.rows.join('\n');
    expect(text).toContain('"https://fw.example.test"');
    expect(text).toContain('id "NG1234abcd"');
    expect(text).toMatch(/^ {2}alias {9}"web_servers" {3}type "host"$/m);
    expect(descriptionsOnScreen(screen.rows)).toEqual({ old: 'Web servers', new: 'Public web servers' });
    expect(text).toMatch(/^ {2}expires {7}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in \d+ min\)$/m);
    expect(text).toMatch(/^ {2}approve with {2}needs your plan-authorization key \(--key or --keys\)$/m);
    expect(text).toMatch(new RegExp(`^ {2}request {7}${digest.slice(0, 16)}…$`, 'm'));
    expect(text).not.toContain(digest);
    expect(text).toMatch(/^ {4}#1 {10}"10\.0\.0\.10" {2}detail "www1"$/m);
    // The seven recomputed digests are for --full; the request digest's prefix stays.
    expect(text).not.toMatch(/^ {2}digests /m);
    for (const d of [req.payload.plan_digest, req.payload.execution_intent_digest, req.payload.appliance_binding_digest]) {
      expect(text).not.toContain(d.slice(0, 16));
    }
    // With the prompt and an answer line below it, on one 24-row screen.
    expect(screen.rows.length).toBeLessThanOrEqual(20);

    const full = review(req, '--full');
    expectNoTerminalWrap(full);
    const fullText = full.rows.join('\n');
    for (const d of [digest, req.payload.plan_digest, req.payload.execution_intent_digest, req.payload.appliance_binding_digest]) {
      expect(fullText).toContain(d);
    }
    const j = json(signer(['review', writeArtifact(dir, req), '--server-key', server.pubFile, '--json']));
    expect(j.review.request_digest).toBe(digest);
    expect(j.review.digests.plan).toBe(req.payload.plan_digest);
  });

  it('puts a long operation id on its own line under --full; by default it is cut to one row', () => {
    const req = authorizationRequest(server.key, { operationId: `op-${'a'.repeat(64)}` });
    const short = review(req);
    expectNoTerminalWrap(short);
    expect(short.rows).toContainEqual(expect.stringMatching(/^ {2}operation {5}op-a+…$/));
    const screen = review(req, '--full');
    expectNoTerminalWrap(screen);
    const at = rowsStarting(screen.rows, '  operation')[0] as number;
    expect(screen.rows[at]).toBe('  operation');
    expect(screen.rows[at + 1]).toBe(`    op-${'a'.repeat(64)}`);
  });

  it('a reconciliation request (observed state, origin, state version) fits too', () => {
    const screen = review(reconciliationRequest(server.key));
    expectNoTerminalWrap(screen);
    expect(screen.rows.join('\n')).toMatch(/^ {2}observed now {2}"Public web servers" {3}locator 3$/m);
  });

  it('a large alias shows its member count and digest; --members lists every member', () => {
    const n = 500;
    const pre = {
      ...PRE_STATE,
      address: Array.from({ length: n }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.1`),
      detail: Array.from({ length: n }, (_, i) => `Entry added Mon, 01 Dec 2026 12:00:0${i % 10} +0000`),
    };
    const req = authorizationRequest(server.key, { pre });
    const file = writeArtifact(dir, req);
    const j = json(signer(['review', file, '--server-key', server.pubFile, '--json']));
    const summary = onScreen(['review', file, '--server-key', server.pubFile]);
    expectNoTerminalWrap(summary);
    const text = summary.rows.join('\n');
    expect(text).toMatch(/^ {2}members {7}500 {3}\(too many to list here: --members lists them\)$/m);
    expect(text).toContain(`member digest ${j.review.members_digest.slice(0, 16)}…`);
    expect(membersOnScreen(summary.rows).address).toEqual([]);
    expect(summary.rows.length).toBeLessThan(40);
    // The full list is a long output: read it through a pipe (the layout is the same).
    const listed = signer(['review', file, '--server-key', server.pubFile, '--members']);
    expect(listed.status).toBe(0);
    const rows = listed.stdout.split('\n');
    expect(membersOnScreen(rows)).toEqual({ address: pre.address, detail: pre.detail });
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(SCREEN_COLUMNS);
  });
});

describe.skipIf(!hasTmux)('signing on a real 80-column terminal', { timeout: 90_000 }, () => {
  it('shows the same review, asks for the prefix in one line, and signs what was typed', () => {
    const plan = keygen(dir, 'plan-authorization');
    const req = authorizationRequest(server.key, { desc: `Public "web" servers${' '.repeat(40)}→ "x"` });
    const out = tempDir();
    const prefix = codeFor(plan.keyFile, req);
    // The keys are typed as soon as the pane exists; the terminal holds them until the prompt reads them.
    const screen = onScreen(
      // --full: the new description (quotes and a run of spaces, escaped) is read back whole.
      ['sign', writeArtifact(dir, req), '--key', plan.keyFile, '--server-key', server.pubFile, '--out', out, '--full'],
      120,
      `${prefix}\n`,
    );
    expectNoTerminalWrap(screen);
    expect(descriptionsOnScreen(screen.rows).new).toBe((req.payload.review as { new_description: string }).new_description);
    expect(screen.rows.some((r) => r.includes(`Type the code ${prefix}: `))).toBe(true);
    expect(screen.rows.some((r) => r.startsWith('signed pfsense-mcp/plan-authorization v2'))).toBe(true);
    expect(filesIn(out)).toHaveLength(1);
    cleanup(out);
  });
});
