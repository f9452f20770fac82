// Answers bound to the asking server (docs/DESIGN.md §10), through BUILT programs: two write directories
// on the same appliance with the same operator keys pinned; an authorization the real signer made for A's request
// is refused by `pfsense-mcp admin inbox add` for B (it answers A's request key; the signature is genuine), and when
// copied into B's inbox by hand, B refuses it at use; A accepts it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltWriteWorld } from './support/built-write-world.js';
import type { HostRole, HostSetup } from './support/host-setup.js';
import { placeInInbox } from './support/place-in-inbox.js';
import { runAdmin } from './support/run-admin.js';
import { runSigner } from './support/signer-program.js';

const PROCESS_TEST_TIMEOUT_MS = 240_000;

const world = useBuiltWriteWorld([{ name: 'BOUND', type: 'host', descr: 'bound', address: ['10.0.0.9'], detail: ['b'] }]);

function ok(r: ReturnType<typeof runSigner>, what: string): ReturnType<typeof runSigner> {
  expect(r.status, `${what}: ${r.stdout}${r.stderr}`).toBe(0);
  return r;
}

/** The operator signs `requestFile` (review with the key for the code, then sign); the signed file, not yet installed. */
function signed(host: HostSetup, requestFile: string, role: HostRole): string {
  const review = ok(runSigner(['review', requestFile, '--server-key', host.serverPub, '--key', host.keys[role], '--json']), 'review');
  const code = String((review.json['review'] as Record<string, unknown>)['approve_prefix']);
  const args = ['sign', requestFile, '--key', host.keys[role], '--server-key', host.serverPub, '--out', host.signedDir, '--approve', code];
  return String(ok(runSigner([...args, '--json']), 'sign').json['file']);
}

describe('an answer is bound to the server that asked', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("write directory B refuses the authorization signed for A's request; A accepts it", async () => {
    const a = world.host();
    const b = world.host([]);
    // B pins A's operator keys (the .pub files the operator copied to the host).
    for (const role of ['plan-authorization', 'confirmation', 'reconciliation'] as const) {
      ok(runAdmin(['trust', '--dir', b.dir, '--role', role, '--public-key', join(a.root, 'transfer', `${role}.pub`), '--json']), 'trust');
    }
    const [sa, sb] = [await world.serve(a), await world.serve(b)];
    const args = { alias_name: 'BOUND', description: 'bound to A' };
    const ra = await world.call(sa, args);
    const rb = await world.call(sb, args);
    expect(ra.status).toBe('requested');
    expect(rb.status).toBe('requested');
    // Same appliance, alias and description: the same operation id on both servers.
    expect(rb.operation_id).toBe(ra.operation_id);

    const file = signed(a, ra.pending_request ?? '', 'plan-authorization');
    const refused = runAdmin(['inbox', 'add', '--dir', b.dir, file, '--json']);
    expect(refused.status, refused.stderr).toBe(1);
    expect(refused.json['error']).toMatchObject({ code: 'ARTIFACT_OTHER_SERVER' });
    placeInInbox(b.dir, file);
    ok(runAdmin(['inbox', 'add', '--dir', a.dir, file, '--json']), 'admin inbox add (A)');

    const onB = await world.call(sb, args);
    expect(onB.status).toBe('refused');
    expect(onB.contract_id).toBeNull();
    const onA = await world.call(sa, args);
    expect(onA).toMatchObject({ status: 'awaiting_confirmation', operation_id: ra.operation_id });
  });
});
