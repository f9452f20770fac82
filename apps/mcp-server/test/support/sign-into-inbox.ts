// The operator's side for the in-process write suites: a pending request verified against the server key and
// signed with the authorization library (the e2e suites use the real signer: host-setup.ts).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  createReconciliationEvidence,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
} from '@pfsense-mcp/authorization';
import type { Artifact, PendingAuthorizationRequest, PendingConfirmationRequest } from '@pfsense-mcp/authorization';
import { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import type { TestWriteDirectory } from './test-write-directory.js';

function serverSet(w: TestWriteDirectory): PinnedAuthoritySet {
  return PinnedAuthoritySet.of([{ keyId: w.server.keyId, publicKey: w.server.publicKey, role: 'server-request', active: true }]);
}

function verified(w: TestWriteDirectory, path: string): Artifact {
  return verifyPendingRequest(parseArtifact(readFileSync(path)), { serverAuthorities: serverSet(w), nowMs: Date.now() });
}

/** Signs the pending request at `path` as the operator would and installs the result in the inbox (0600). */
export function signIntoInbox(w: TestWriteDirectory, path: string, outcome?: 'APPLIED' | 'NOT_APPLIED'): string {
  const request = verified(w, path);
  let signed: Artifact;
  if (request.kind === 'pfsense-mcp/authorization-request') {
    signed = createPlanAuthorizationFromRequest(request as PendingAuthorizationRequest, w.operator['plan-authorization'], {
      issuedAt: Date.now(),
    });
  } else if (request.kind === 'pfsense-mcp/confirmation-request') {
    signed = createConfirmationEvidence(request as PendingConfirmationRequest, w.operator.confirmation, { issuedAt: Date.now() });
  } else if (request.kind === 'pfsense-mcp/reconciliation-request') {
    signed = createReconciliationEvidence(request, w.operator.reconciliation, { issuedAt: Date.now(), outcome: outcome ?? 'APPLIED' });
  } else {
    throw new Error(`cannot sign ${request.kind}`);
  }
  const target = join(w.layout.inboxDir, `signed-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(target, encodeArtifact(signed), { mode: 0o600, flag: 'wx' });
  chmodSync(target, 0o600);
  return target;
}
