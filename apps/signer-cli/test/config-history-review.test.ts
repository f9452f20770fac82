// The reconciliation review shows what pfSense's config history showed after the send, next to the observed
// description, in plain words, within 80 columns and in --json; both request versions are reviewed and signed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArtifact, verifyReconciliationEvidence } from '@pfsense-mcp/authorization';
import type { ConfigHistoryCorroboration, SignedArtifact } from '@pfsense-mcp/authorization';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ONE_NEW_REVISION,
  cleanup,
  codeFor,
  ensureBuilt,
  filesIn,
  json,
  keygen,
  reconciliationRequest,
  reconciliationRequestV1,
  signer,
  tempDir,
  writeArtifact,
} from './harness.js';

let keys: string;
let inbox: string;
let server: ReturnType<typeof keygen>;
let recon: ReturnType<typeof keygen>;

beforeAll(() => {
  ensureBuilt();
  keys = tempDir();
  inbox = tempDir();
  server = keygen(keys, 'server-request');
  recon = keygen(keys, 'reconciliation');
});
afterAll(() => {
  cleanup(keys);
  cleanup(inbox);
});

function review(c: ConfigHistoryCorroboration | null): { text: string; json: { config_history: unknown } } {
  const file = writeArtifact(inbox, reconciliationRequest(server.key, {}, c));
  const r = signer(['review', file, '--server-key', server.pubFile]);
  expect(r.status, r.stderr).toBe(0);
  for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  return { text: r.stdout, json: json(signer(['review', file, '--server-key', server.pubFile, '--json'])).review };
}

/** The review's lines from "observed now" on, the config-history lines joined (the review wraps them). */
function historyText(text: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('  config history:'));
  expect(at, text).toBeGreaterThan(0);
  expect(lines[at - 1]).toMatch(/^ {2}observed now {2}"Public web servers"/);
  const rest = [lines[at] as string];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith('    ')) break;
    rest.push(l.trim());
  }
  return rest.join(' ').trim();
}

describe('config history in the reconciliation review', () => {
  it('ONE: "1 new revision since the send, at T, \'…\'" next to the observed description, and in --json', () => {
    const r = review(ONE_NEW_REVISION);
    expect(historyText(r.text)).toBe(
      "config history: 1 new revision since the send, at 2026-11-30 00:53:20 UTC, 'Modified Firewall Alias via API'",
    );
    expect(r.text).toContain('  config history: 1 new revision since the send, at 2026-11-30 00:53:20 UTC,\n');
    expect(r.json.config_history).toEqual({
      request_version: 3,
      class: 'ONE',
      reason: null,
      new_count: 1,
      new_times: ['2026-11-30T00:53:20.000Z'],
      change_note: 'Modified Firewall Alias via API',
      descriptions_digest: 'd'.repeat(64),
      summary: "config history: 1 new revision since the send, at 2026-11-30 00:53:20 UTC, 'Modified Firewall Alias via API'",
    });
  });

  // One test per class (two signer runs each), so a loaded machine never sums them into one test's time budget.
  const base = { reason: null, change_note: null, descriptions_digest: 'e'.repeat(64) } as const;
  const cases: readonly [ConfigHistoryCorroboration | null, string][] = [
    [{ ...base, class: 'NONE', new_count: 0, new_times: [], descriptions_digest: null }, 'config history: no new revision since the send'],
    [
      { ...base, class: 'SEVERAL', new_count: 3, new_times: [1_796_000_120, 1_796_000_060, 1_796_000_000] },
      'config history: 3 new revisions since the send, from 2026-11-30 00:53:20 UTC to 2026-11-30 00:55:20 UTC (other changes too)',
    ],
    [
      { ...base, class: 'UNKNOWN', reason: 'CAPTURED_ENTRY_GONE', new_count: null, new_times: null, descriptions_digest: null },
      'config history: unknown: the revision captured before the send is gone (rotated out or rewritten)',
    ],
    [
      { ...base, class: 'UNKNOWN', reason: 'READ_FAILED', new_count: null, new_times: null, descriptions_digest: null },
      'config history: unknown: it could not be read after the send',
    ],
    [
      { ...base, class: 'UNKNOWN', reason: 'NOT_AN_ALIAS_UPDATE', new_count: 1, new_times: [1_796_000_000] },
      "config history: unknown: 1 new revision since the send, the newest at 2026-11-30 00:53:20 UTC, but the new revision is not pfrest's alias update",
    ],
    [null, 'config history: nothing was recorded with the send (it was interrupted)'],
  ];
  it.each(
    cases.map(([c, words]) => ({ c, words, label: c === null ? 'none recorded' : `${c.class}${c.reason === null ? '' : ` ${c.reason}`}` })),
  )('the other classes in plain words: $label', ({ c, words }) => {
    const r = review(c);
    expect(historyText(r.text)).toBe(words);
    expect(r.json.config_history).toMatchObject({ request_version: 3, class: c?.class ?? null, summary: words });
  });

  it('a version-1 request is reviewed and signed too; its review says it carries no config history', () => {
    const v1 = reconciliationRequestV1(server.key);
    const file = writeArtifact(inbox, v1);
    const r = signer(['review', file, '--server-key', server.pubFile]);
    expect(r.status, r.stderr).toBe(0);
    expect(historyText(r.stdout)).toBe('config history: not in this request (version 1 requests carry none)');
    expect(json(signer(['review', file, '--server-key', server.pubFile, '--json'])).review.config_history).toMatchObject({
      request_version: 1,
      class: null,
    });

    for (const request of [v1, reconciliationRequest(server.key)]) {
      const out = tempDir();
      const f = writeArtifact(inbox, request);
      const prefix = codeFor(recon.keyFile, request);
      const s = signer([
        'sign',
        f,
        '--key',
        recon.keyFile,
        '--server-key',
        server.pubFile,
        '--out',
        out,
        '--approve',
        prefix,
        '--outcome',
        'APPLIED',
      ]);
      expect(s.status, s.stderr).toBe(0);
      expect(s.stdout).toContain('config history:');
      const files = filesIn(out);
      const evidence = parseArtifact(readFileSync(join(out, files[0] as string))) as SignedArtifact;
      const facts = verifyReconciliationEvidence(evidence, {
        authorities: PinnedAuthoritySet.of([
          { keyId: recon.key.keyId, publicKey: recon.key.publicKey, role: 'reconciliation', active: true },
        ]),
        nowMs: Date.now(),
        expected: { contractId: 'contract-1', operationId: 'op-1', stateVersion: 4, origin: 'EXECUTING' },
      });
      expect(facts.outcome).toBe('FORWARD_APPLIED');
      cleanup(out);
    }
  });

  it("a corroboration carrying anything but pfrest's fixed note is refused, never shown", () => {
    const req = JSON.parse(JSON.stringify(reconciliationRequest(server.key)));
    req.payload.config_history.change_note = 'admin@192.0.2.10:  Modified Firewall Alias via API';
    const r = signer(['review', writeArtifact(inbox, JSON.stringify(req)), '--server-key', server.pubFile]);
    expect(r.status).toBe(4);
    expect(r.stdout).not.toContain('admin@');
  });
});
