// Scenario code only asks (docs/DESIGN.md §2, §7): outside the runtime factory no lab-runner source
// sends, decrypts, resolves a locator, builds a request or transitions a contract itself. The lint rule keeps
// write-client and transports out of these files; this scan keeps out the calls that would bypass the
// coordinator and the executor through what the factory hands over.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
const FACTORY = 'runtime-factory.ts';

/** Store methods scenario code may call: reads and close — never a transition, confirmation or resolution. */
const STORE_READS = new Set(['load', 'list', 'listAuditEvents', 'holdsReservation', 'verifyAuditChain', 'close']);

const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/\.resolveReconciliation\(/, 'resolves a reconciliation itself'],
  [/\.releaseRollbackFailedReservation\(/, 'releases a reservation itself'],
  [/\.markPrepared\(|\.confirm\(|\.create\(/, 'creates, prepares or confirms a contract itself'],
  [/\.execute\(|executor\.rollback\(/, 'calls an executor directly'],
  [/\.buildRequest\(|\.transportLocator\(|\.readTarget\(/, 'builds a request, resolves a locator or reads through the adapter itself'],
  [/aeadOpen|contract-store\/executor/, 'decrypts a protected artifact'],
  [/WriteApiClient|FaultProxyTransport|createHttpTransport/, 'touches the write path or a transport'],
];

const sources = readdirSync(SRC).filter((f) => f.endsWith('.ts') && f !== FACTORY);

describe('lab-runner sources outside the runtime factory', () => {
  it('exist (the scan is not empty)', () => {
    expect(sources.length).toBeGreaterThan(10);
  });

  for (const file of sources) {
    it(`${file} only asks the coordinator, the core and the store's reads`, () => {
      // Code only: comments may name what the code must not do.
      const text = readFileSync(join(SRC, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const [pattern, what] of FORBIDDEN) expect(pattern.test(text), `${file} ${what}`).toBe(false);
      for (const m of text.matchAll(/\bstore\.([A-Za-z]+)\(/g))
        expect(STORE_READS.has(m[1] as string), `${file} calls store.${m[1]}`).toBe(true);
    });
  }

  it('the scan would catch a direct resolution or send', () => {
    const bad = 'rt.store.resolveReconciliation(id, doc); new WriteApiClient(t);';
    expect(FORBIDDEN.some(([p]) => p.test(bad))).toBe(true);
  });
});
