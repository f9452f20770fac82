// Look-alikes in the review through the BUILT signer: a homoglyph change ("Servers" → "Sеrvers", Cyrillic е) is
// marked with its script and, under --full, its code point, and said in words to look the same; right-to-left
// letters are isolated so they cannot reorder the quotes and the arrow around them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, cleanup, ensureBuilt, keygen, PRE_STATE, signer, tempDir, writeArtifact } from './harness.js';

let keys: string;
let inbox: string;
let server: ReturnType<typeof keygen>;

beforeAll(() => {
  ensureBuilt();
  keys = tempDir();
  inbox = tempDir();
  server = keygen(keys, 'server-request');
});
afterAll(() => {
  cleanup(keys);
  cleanup(inbox);
});

function review(oldDescription: string, newDescription: string, full = false): string {
  const req = authorizationRequest(server.key, { pre: { ...PRE_STATE, descr: oldDescription }, desc: newDescription });
  const r = signer(['review', writeArtifact(inbox, req), '--server-key', server.pubFile, ...(full ? ['--full'] : [])]);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The review's prose is word-wrapped at 80 columns: compared with its line breaks and indents as single spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('review look-alikes', () => {
  it('a Cyrillic е in "Servers" is marked, mixing scripts, and said to look the same as the current value', () => {
    const out = flat(review('Servers', 'S\u0435rvers'));
    expect(out).toContain('! non-ASCII in the new description: 1 character (Cyrillic), mixing scripts Cyrillic + Latin; --full lists them');
    expect(out).toContain('the current and the new description may look the same');
    const full = review('Servers', 'S\u0435rvers', true);
    expect(full).toContain('U+0435 at 2');
    expect(full).not.toContain('--full lists them');
    for (const line of full.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('fullwidth letters and accents fold to the same look; ordinary ASCII text carries no marker', () => {
    expect(flat(review('Servers', '\uff33ervers'))).toContain('may look the same');
    expect(review('Servers', 'S\u00e9rvers')).toContain('non-ASCII in the new description');
    const plain = review('Servers', 'Servers in rack 2');
    expect(plain).not.toContain('non-ASCII');
    expect(plain).not.toContain('may look the same');
  });

  it('right-to-left letters are isolated one by one and said to be', () => {
    const out = review('Servers', 'abc \u05e9\u05dc\u05d5\u05dd def');
    expect(out).toContain('"abc \u2066\u05e9\u2069\u2066\u05dc\u2069\u2066\u05d5\u2069\u2066\u05dd\u2069 def"');
    expect(flat(out)).toContain('! right-to-left letters in the new description: each shown isolated, in stored order');
    expect(out).toContain('(Hebrew)');
  });
});
