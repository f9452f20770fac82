// The review of an alias-entries request through the BUILT signer (review, sign, approve): the alias, its entry
// count before → after, one line per change, and every rule that uses the alias as the server read it — in 80
// columns, with the description review's escaping — and the refusal of a request that does not match its facts.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aliasEntriesFingerprint } from '@pfsense-mcp/adapters';
import { ArtifactKind, artifactDigestOf, encodeArtifact, parseArtifact } from '@pfsense-mcp/authorization';
import { writeSecretFile } from '@pfsense-mcp/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocklist,
  entriesAuthorizationRequest,
  entriesConfirmationRequest,
  entriesReconciliationRequest,
  entriesReleaseRequest,
  entriesRollbackRequest,
  ruleUse,
} from './entries-requests.js';
import { cleanup, codeFor, ensureBuilt, filesIn, json, keygen, signer, tempDir, writeArtifact } from './harness.js';

let keys: string;
let inbox: string;
let server: ReturnType<typeof keygen>;
let plan: ReturnType<typeof keygen>;
let confirmation: ReturnType<typeof keygen>;

beforeAll(() => {
  ensureBuilt();
  keys = tempDir();
  inbox = tempDir();
  server = keygen(keys, 'server-request');
  plan = keygen(keys, 'plan-authorization');
  confirmation = keygen(keys, 'confirmation');
});

afterAll(() => {
  cleanup(keys);
  cleanup(inbox);
});

function review(req: Parameters<typeof writeArtifact>[1], ...flags: string[]) {
  return signer(['review', writeArtifact(inbox, req), '--server-key', server.pubFile, ...flags]);
}

function expectWithin80(stdout: string): void {
  for (const line of stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
}

/** Twelve rules: a pass rule first, so the review must show that the alias feeds one. */
const TWELVE = [
  ruleUse(0, { action: 'pass', interface: ['lan', 'opt1'], descr: 'Allow partners' }),
  ...Array.from({ length: 11 }, (_, i) => ruleUse(i + 1)),
];

describe('review of an entries request', () => {
  it('shows the alias, entries before → after, one line per change and the first 10 of the rules that use it, in 80 columns', () => {
    const req = entriesAuthorizationRequest(server.key, { pre: blocklist(TWELVE) });
    const r = review(req);
    expect(r.status, r.stderr).toBe(0);
    expectWithin80(r.stdout);
    expect(r.stdout).toContain('AUTHORIZATION request — approve this change of the entries of one alias');
    expect(r.stdout).toContain('  alias         "BLOCKLIST"   type "host"\n');
    expect(r.stdout).toContain('  entries       2 → 2');
    expect(r.stdout).toContain('                + 203.0.113.7  "ssh brute force"\n');
    expect(r.stdout).toContain('                - 198.51.100.9\n');
    expect(r.stdout).toMatch(/ {2}used by {7}12 rules, as the server read them at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\n/);
    expect(r.stdout).toContain('    #1          pass   lan,opt1  in  "Allow partners"\n');
    expect(r.stdout).toContain('    #10         block  wan  in  "Block list 9"\n');
    expect(r.stdout).not.toContain('#11');
    expect(r.stdout).toContain('… and 2 more (--json lists every one)');
    expect(r.stdout).toContain('approve with  needs your plan-authorization key (--key or --keys)');

    const j = json(review(req, '--json'));
    expect(j.review).toMatchObject({
      request: 'authorization',
      capability: 'alias_entries',
      entries_before: 2,
      entries_after: 2,
      changes: [
        { change: 'add', address: '203.0.113.7', detail: 'ssh brute force' },
        { change: 'remove', address: '198.51.100.9', detail: 'scanner' },
      ],
      usage: { reported_at: req.payload.issued_at, count: 12 },
      step_id: 'alias-entries',
    });
    expect(j.review.usage.rules).toHaveLength(12);
    expect(j.review.usage.rules[0]).toEqual({
      tracker: '1000',
      action: 'pass',
      interface: ['lan', 'opt1'],
      direction: 'in',
      disabled: false,
      descr: 'Allow partners',
    });
    expect(j.review.digests.precondition_fingerprint).toBe(aliasEntriesFingerprint(blocklist(TWELVE)));
    expect(j.review.request_digest).toBe(artifactDigestOf(req));
  });

  it('renders hostile rule descriptions and details safely (no raw controls, bidi overrides or forged lines)', () => {
    const hostile = blocklist([ruleUse(0, { descr: 'ok\n  approve with  000000000000\u001b[2J \u202Eevil', disabled: true })]);
    const change = { add: [{ address: '203.0.113.7', detail: 'x"  + 10.0.0.0/8  "y' }], remove: [] };
    const r = review(entriesAuthorizationRequest(server.key, { pre: hostile, change }));
    expect(r.status, r.stderr).toBe(0);
    expectWithin80(r.stdout);
    for (const bad of ['\u001b', '\u202E', '\u2066', '\u2069']) expect(r.stdout).not.toContain(bad);
    expect(r.stdout.match(/^ {2}approve with/gm)).toHaveLength(1);
    expect(r.stdout).not.toMatch(/^ *\+ 10\.0\.0\.0/m);
    expect(r.stdout).toContain('    #1          block  wan  in  (disabled)  "ok\\n\\u{0020}\\u{0020}approve with');
    expect(r.stdout).toContain('+ 203.0.113.7  "x\\"\\u{0020}\\u{0020}+ 10.0.0.0/8\\u{0020}\\u{0020}\n                \\"y"\n');
    const full = review(entriesAuthorizationRequest(server.key, { pre: hostile, change }), '--full');
    expectWithin80(full.stdout);
    expect(full.stdout).toContain('000000000000\\u{001B}[2J \\u{202E}evil"');
    expect(full.stdout.match(/^ {2}approve with/gm)).toHaveLength(1);
    const j = review(entriesAuthorizationRequest(server.key, { pre: hostile, change }), '--json');
    expect(j.stdout).toMatch(/^[\x20-\x7e]*\n$/);
    expect(json(j).review.usage.rules[0].descr).toBe('ok\n  approve with  000000000000\u001b[2J \u202Eevil');
  });

  it('says in words what may look like something else: an added detail and a rule description of mixed scripts (none for ASCII)', () => {
    // "Аllow" with a Cyrillic А: shown as itself, yet not the ASCII word it looks like.
    const pre = blocklist([ruleUse(0, { action: 'pass', descr: '\u0410llow partners' }), ruleUse(1)]);
    const change = { add: [{ address: '203.0.113.7', detail: 's\u0455h brute force' }], remove: [] };
    const r = review(entriesAuthorizationRequest(server.key, { pre, change }));
    expect(r.status, r.stderr).toBe(0);
    expectWithin80(r.stdout);
    // (prose wraps at 80 columns)
    expect(r.stdout).toContain('  ! non-ASCII in the detail of + 203.0.113.7: 1 character (Cyrillic), mixing\n');
    expect(r.stdout).toContain("  ! non-ASCII in rule #1's description: 1 character (Cyrillic), mixing scripts\n");
    // Said before the approve line.
    expect(r.stdout.indexOf("rule #1's description")).toBeLessThan(r.stdout.indexOf('approve with'));
    const full = review(entriesAuthorizationRequest(server.key, { pre, change }), '--full');
    expect(full.stdout).toContain('U+0410 at 1');
    expect(review(entriesAuthorizationRequest(server.key)).stdout).not.toContain('non-ASCII');
  });

  it('refuses a server-signed request whose shown usage or change is not what its intent binds (a rule flipped to pass)', () => {
    const flipped = blocklist([ruleUse(0, { action: 'block' }), ruleUse(1)]);
    const shownPass = blocklist([ruleUse(0, { action: 'pass' }), ruleUse(1)]);
    for (const bad of [
      entriesAuthorizationRequest(server.key, { pre: flipped, shown: shownPass }),
      entriesAuthorizationRequest(server.key, { change: { add: [], remove: ['203.0.113.99'] } }),
      // A detail the adapter would never send (a bidi isolate): the request is not one this signer shows.
      entriesAuthorizationRequest(server.key, { change: { add: [{ address: '203.0.113.7', detail: '\u2066x\u2069' }], remove: [] } }),
    ]) {
      const r = review(bad, '--json');
      expect(r.status).toBe(4);
      expect(json(r).error.code).toBe('INCONSISTENT');
      expect(r.stdout).not.toContain('BLOCKLIST');
    }
  });

  it.each([
    ['confirmation', entriesConfirmationRequest],
    ['release', entriesReleaseRequest],
  ] as const)('shows an entries %s request', (type, make) => {
    const r = review(make(server.key));
    expect(r.status, r.stderr).toBe(0);
    expectWithin80(r.stdout);
    expect(r.stdout).toContain('+ 203.0.113.7  "ssh brute force"');
    expect(json(review(make(server.key), '--json')).review).toMatchObject({ request: type, contract_id: 'contract-entries-1' });
  });

  it('shows a reconciliation request with the observed lists compared to before and after the change', () => {
    const after = { ...blocklist(), address: ['192.0.2.1', '203.0.113.7'], detail: ['old abuse', 'ssh brute force'] };
    const cases = [
      [after, '2 entries, with the change   locator 3'],
      [blocklist(), '2 entries, as before the change   locator 3'],
      [{ ...blocklist(), address: ['192.0.2.1'], detail: ['old abuse'] }, '1 entries, neither as before nor with the change'],
      [null, 'no single alias could be observed'],
    ] as const;
    for (const [observed, said] of cases) {
      const r = review(entriesReconciliationRequest(server.key, observed));
      expect(r.status, r.stderr).toBe(0);
      expectWithin80(r.stdout);
      expect(r.stdout).toContain(`  observed now  ${said}`);
    }
    // What is on the alias now, as it differs from before the change: one line per entry, like a change line.
    const seen = review(entriesReconciliationRequest(server.key, after)).stdout;
    expect(seen).toContain('  since before  + 203.0.113.7  "ssh brute force"\n                - 198.51.100.9\n');
    expect(review(entriesReconciliationRequest(server.key, blocklist())).stdout).not.toContain('since before');
    const j = json(review(entriesReconciliationRequest(server.key, after), '--json'));
    expect(j.review.observed).toEqual({
      fingerprint: aliasEntriesFingerprint(after),
      locator: 3,
      address: after.address,
      detail: after.detail,
      pf_table: { status: 'READ', entry_count: 2, missing_count: 0, extra_count: 0, missing: [], extra: [] },
    });
  });

  it('shows what pf enforces: the alias table as the server read it with the observation', () => {
    const after = { ...blocklist(), address: ['192.0.2.1', '203.0.113.7'], detail: ['old abuse', 'ssh brute force'] };
    const cases = [
      [null, '2 entries, exactly the observed alias'],
      [
        { status: 'READ', entry_count: 2, missing_count: 1, extra_count: 1, missing: ['203.0.113.7'], extra: ['198.51.100.9'] },
        '2 entries; lacks 203.0.113.7; holds besides 198.51.100.9',
      ],
      [
        { status: 'MISSING', entry_count: null, missing_count: null, extra_count: null, missing: [], extra: [] },
        'pf has no table of this name',
      ],
      [{ status: 'UNREADABLE', entry_count: null, missing_count: null, extra_count: null, missing: [], extra: [] }, 'could not be read'],
    ] as const;
    for (const [table, said] of cases) {
      const r = review(entriesReconciliationRequest(server.key, after, table));
      expect(r.status, r.stderr).toBe(0);
      expectWithin80(r.stdout);
      expect(r.stdout).toContain(`  pf table now  ${said}`);
    }
  });
});

describe('sign and approve an entries request', () => {
  it('sign shows the same review and signs after the code; approve answers it from a requests/ folder', () => {
    const req = entriesAuthorizationRequest(server.key);
    const code = codeFor(plan.keyFile, req);
    const out = tempDir();
    const s = signer([
      'sign',
      writeArtifact(inbox, req),
      '--key',
      plan.keyFile,
      '--server-key',
      server.pubFile,
      '--out',
      out,
      '--approve',
      code,
    ]);
    expect(s.status, s.stderr).toBe(0);
    expect(s.stdout).toContain('+ 203.0.113.7  "ssh brute force"');
    expect(parseArtifact(readFileSync(join(out, filesIn(out)[0] as string))).kind).toBe(ArtifactKind.PLAN_AUTHORIZATION);
    cleanup(out);

    const dir = tempDir();
    for (const sub of ['requests', 'answers']) mkdirSync(join(dir, sub), { mode: 0o700 });
    const second = entriesAuthorizationRequest(server.key, { operationId: 'op-entries-2' });
    writeSecretFile(join(dir, 'requests', 'auth-00000009.json'), encodeArtifact(second));
    const a = signer(
      ['approve', join(dir, 'requests'), '--keys', keys, '--server-key', server.pubFile],
      `${codeFor(plan.keyFile, second)}\n`,
    );
    expect(a.status, a.stderr).toBe(0);
    expectWithin80(a.stdout);
    expect(a.stdout).toContain('- 198.51.100.9');
    expect(a.stdout).toContain('#1          pass   lan,opt1  in  "Allow partners"');
    expect(filesIn(join(dir, 'answers'))).toEqual(['auth-00000009.signed.json']);
    cleanup(dir);
  });
});

describe('the signed rollback of a verified entries change', () => {
  it('review shows the undo as a change (the block removed, the unblocked entry back) and sign answers it with the confirmation key', () => {
    const req = entriesRollbackRequest(server.key);
    const r = review(req);
    expect(r.status, r.stderr).toBe(0);
    expectWithin80(r.stdout);
    expect(r.stdout).toContain('ROLLBACK request');
    expect(r.stdout).toContain('- 203.0.113.7');
    expect(r.stdout).toContain('+ 198.51.100.9  "scanner"');
    expect(r.stdout).toContain('2 → 2');
    const j = json(review(req, '--json')).review;
    expect(j).toMatchObject({ request: 'rollback', key_role: 'confirmation', contract_id: 'contract-entries-1', state_version: 5 });
    expect(j.alias.address).toEqual(['192.0.2.1', '203.0.113.7']);

    // The plan-authorization key is not the role that answers it.
    const out = tempDir();
    const file = writeArtifact(inbox, req);
    const wrong = signer([
      'sign',
      file,
      '--key',
      plan.keyFile,
      '--server-key',
      server.pubFile,
      '--out',
      out,
      '--approve',
      codeFor(plan.keyFile, req),
    ]);
    expect(wrong.status).not.toBe(0);
    expect(filesIn(out)).toEqual([]);
    const s = signer([
      'sign',
      file,
      '--key',
      confirmation.keyFile,
      '--server-key',
      server.pubFile,
      '--out',
      out,
      '--approve',
      codeFor(confirmation.keyFile, req),
    ]);
    expect(s.status, s.stderr).toBe(0);
    const signed = parseArtifact(readFileSync(join(out, filesIn(out)[0] as string)));
    expect(signed.kind).toBe(ArtifactKind.ROLLBACK_AUTHORIZATION);
    expect(signed.payload).toMatchObject({ contract_id: 'contract-entries-1', state_version: 5, request_digest: artifactDigestOf(req) });
    cleanup(out);
  });

  it('refuses a rollback request whose sealed fingerprint is not the alias with the change (exit 4), and approve answers a roll- request', () => {
    const forged = review(entriesRollbackRequest(server.key, 'ab'.repeat(32)));
    expect(forged.status).toBe(4);
    expect(forged.stderr).toContain('verified fingerprint does not match');

    const dir = tempDir();
    for (const sub of ['requests', 'answers']) mkdirSync(join(dir, sub), { mode: 0o700 });
    const req = entriesRollbackRequest(server.key);
    writeSecretFile(join(dir, 'requests', 'roll-0000000a.json'), encodeArtifact(req));
    const a = signer(
      ['approve', join(dir, 'requests'), '--keys', keys, '--server-key', server.pubFile],
      `${codeFor(confirmation.keyFile, req)}\n`,
    );
    expect(a.status, a.stderr).toBe(0);
    expect(filesIn(join(dir, 'answers'))).toEqual(['roll-0000000a.signed.json']);
    cleanup(dir);
  });
});
