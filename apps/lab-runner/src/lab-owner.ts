import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  artifactDigestOf,
  createConfirmationEvidence,
  createPlanAuthorizationFromRequest,
  createReconciliationEvidence,
  createReservationRelease,
  createRollbackAuthorization,
  encodeArtifact,
  parseArtifact,
  verifyPendingRequest,
} from '@pfsense-mcp/authorization';
import type { Artifact, PendingRequest } from '@pfsense-mcp/authorization';
import { inboxArtifactName } from '@pfsense-mcp/coordinator';
import { LabError } from './lab-error.js';
import { serverAuthorities } from './lab-keys.js';
import type { LabKeys } from './lab-keys.js';

/** What the owner signed: the kinds and digests only (the report's "signed artifacts by digest"). */
export interface SignedRecord {
  readonly requestKind: string;
  readonly requestDigest: string;
  readonly signedKind: string;
  readonly signedDigest: string;
  readonly outcome: 'APPLIED' | 'NOT_APPLIED' | null;
  /**
   * A reconciliation request's config-history corroboration as the owner saw it in the pending request
   * (class, count, newest time, pfrest's note, descriptions digest); null when the request carries none.
   * Absent for the other requests.
   */
  readonly config_history?: PendingCorroboration | null;
}

export interface PendingCorroboration {
  readonly class: 'NONE' | 'ONE' | 'SEVERAL' | 'UNKNOWN';
  readonly reason: string | null;
  readonly new_count: number | null;
  readonly newest_time: number | null;
  readonly change_note: 'Modified Firewall Alias via API' | null;
  readonly descriptions_digest: string | null;
}

function corroborationOf(request: PendingRequest): { config_history?: PendingCorroboration | null } {
  if (request.kind !== 'pfsense-mcp/reconciliation-request') return {};
  const c = request.version === 1 ? null : request.payload.config_history;
  if (c === null) return { config_history: null };
  return {
    config_history: Object.freeze({
      class: c.class,
      reason: c.reason,
      new_count: c.new_count,
      newest_time: c.new_times?.[0] ?? null,
      change_note: c.change_note,
      descriptions_digest: c.descriptions_digest,
    }),
  };
}

const SAFE_NAME = /^[a-z0-9][a-z0-9._-]*\.json$/;

/**
 * TEST-ONLY: the owner on the simulator. It verifies the server's pending request against the pinned server
 * key (as the signer CLI does) and signs exactly what it asks with the run's throw-away keys, writing the
 * signed artifact into the side's inbox with exclusive creation (0600). Only pending requests the server
 * wrote can be signed; the reconciliation outcome is the scenario's declared decision, checked by the caller
 * against the executor's observation.
 */
export class LabOwner {
  readonly #keys: LabKeys;
  constructor(keys: LabKeys) {
    this.#keys = keys;
    Object.freeze(this);
  }

  sign(
    side: { readonly inbox: string; readonly outbox: string },
    pendingFile: string,
    outcome: 'APPLIED' | 'NOT_APPLIED' | null = null,
  ): SignedRecord {
    if (typeof pendingFile !== 'string' || !SAFE_NAME.test(pendingFile))
      throw new TypeError('LabOwner.sign: "pendingFile" must be an outbox file name');
    const raw = parseArtifact(readFileSync(join(side.outbox, pendingFile)));
    const now = Date.now();
    const request = verifyPendingRequest(raw, { serverAuthorities: serverAuthorities(this.#keys), nowMs: now });
    let signed: Artifact;
    switch (request.kind) {
      case 'pfsense-mcp/authorization-request':
        signed = createPlanAuthorizationFromRequest(request, this.#keys.authorization, { issuedAt: now });
        break;
      case 'pfsense-mcp/confirmation-request':
        signed = createConfirmationEvidence(request, this.#keys.confirmation, { issuedAt: now });
        break;
      case 'pfsense-mcp/reconciliation-request':
        if (outcome === null) throw new LabError('OWNER_DECISION_MISSING', 'a reconciliation request needs the declared outcome');
        signed = createReconciliationEvidence(request, this.#keys.reconciliation, { issuedAt: now, outcome });
        break;
      case 'pfsense-mcp/rollback-request':
        // Undoing a block is a firewall change: the operator authorizes it in the confirmation role (docs/DESIGN.md §5).
        signed = createRollbackAuthorization(request, this.#keys.confirmation, { issuedAt: now });
        break;
      case 'pfsense-mcp/reservation-release-request':
        signed = createReservationRelease(request, this.#keys.reconciliation, { issuedAt: now });
        break;
      default:
        throw new LabError('UNKNOWN_REQUEST', 'the outbox file is not a request the owner signs');
    }
    const digest = artifactDigestOf(signed);
    // The name `pfsense-mcp admin inbox add` would give it: a canonical name says what the file concerns, and one
    // whose content says otherwise refuses the calls it names (the coordinator's inbox rule).
    const path = join(side.inbox, inboxArtifactName(signed) ?? `${signed.kind.replace('pfsense-mcp/', '')}.${digest.slice(0, 16)}.json`);
    writeFileSync(path, encodeArtifact(signed), { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    return Object.freeze({
      requestKind: request.kind,
      requestDigest: artifactDigestOf(request),
      signedKind: signed.kind,
      signedDigest: digest,
      outcome: request.kind === 'pfsense-mcp/reconciliation-request' ? outcome : null,
      ...corroborationOf(request),
    });
  }
}
