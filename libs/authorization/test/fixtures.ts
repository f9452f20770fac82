import { bytesToHex, canonicalize, digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { ed25519Sign, generateEd25519KeyPair, keyIdOf, PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import type { AuthorityRole, PinnedAuthority } from '@pfsense-mcp/crypto';
import {
  applianceBindingDigest,
  createApplianceBinding,
  createPendingAuthorizationRequest,
  createPendingConfirmationRequest,
  createPendingReconciliationRequest,
  createPendingReleaseRequest,
  createPendingRollbackRequest,
  createPreparedExecutionIntentV1,
  parseArtifact,
  signingDigestBytes,
} from '../src/index.js';
import type { AliasState, ConfigHistoryCorroboration, PendingReconciliationRequestV1, PfTableState, SigningKey } from '../src/index.js';

export const NOW = 1_767_000_000_000;
export const HOUR = 3_600_000;

export interface TestKey extends SigningKey {
  readonly publicKey: Uint8Array;
  readonly keyId: string;
}

export function newKey(): TestKey {
  const { privateKey, publicKey } = generateEd25519KeyPair();
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

export function pin(key: TestKey, role: AuthorityRole, active = true): PinnedAuthority {
  return { keyId: key.keyId, publicKey: key.publicKey, role, active };
}

/** One key per role, all pinned and active. */
export function keyring() {
  const server = newKey();
  const plan = newKey();
  const confirmation = newKey();
  const reconciliation = newKey();
  const authorities = PinnedAuthoritySet.of([
    pin(server, 'server-request'),
    pin(plan, 'plan-authorization'),
    pin(confirmation, 'confirmation'),
    pin(reconciliation, 'reconciliation'),
  ]);
  return { server, plan, confirmation, reconciliation, authorities };
}

export const PRE_STATE: AliasState = Object.freeze({
  name: 'web_servers',
  type: 'host',
  descr: 'Web servers',
  address: Object.freeze(['10.0.0.10', '10.0.0.11']),
  detail: Object.freeze(['www1', 'www2']),
});

export const appliance = createApplianceBinding({
  baseUrl: 'https://FW.example.test:443/',
  tlsMode: 'https-system-ca',
  applianceId: 'abc123def456',
});

export function intentFields(overrides: Record<string, unknown> = {}) {
  return {
    capability: 'ALIAS_WRITE',
    endpoint_symbol: 'FIREWALL_ALIAS_PATCH',
    method: 'PATCH',
    adapter_semantics_version: 'firewall-alias-description/v1',
    natural_target: { alias_name: 'web_servers' },
    precondition_fingerprint: digest(DigestPurpose.TARGET_FINGERPRINT, PRE_STATE),
    normalized_intent: {
      operation: 'set_firewall_alias_description_v1',
      raw_target_hint: { alias_name: 'web_servers' },
      new_description: 'Public web servers',
    },
    rollback_snapshot_digest: digest(DigestPurpose.SNAPSHOT, PRE_STATE),
    rollback_plan_version: 'firewall-alias-description-rollback/v1',
    appliance_binding_digest: applianceBindingDigest(appliance),
    ...overrides,
  };
}

export const intent = createPreparedExecutionIntentV1(intentFields());
export const review = Object.freeze({ pre_state: PRE_STATE, new_description: 'Public web servers' });

export function authorizationRequest(
  server: SigningKey,
  over: { issuedAt?: number; expiresAt?: number; review?: { pre_state: AliasState; new_description: string } } = {},
) {
  return createPendingAuthorizationRequest(
    {
      operationId: 'op-1',
      stepId: 'alias-description',
      riskClass: 'low',
      executionIntent: intent,
      appliance,
      review: over.review ?? review,
      issuedAt: over.issuedAt ?? NOW,
      expiresAt: over.expiresAt ?? NOW + HOUR,
    },
    server,
  );
}

export function confirmationRequest(server: SigningKey, contractId = 'contract-1') {
  return createPendingConfirmationRequest(
    {
      contractId,
      operationId: 'op-1',
      intentDigest: digest(DigestPurpose.INTENT, intent.payload.normalized_intent),
      targetFingerprint: intent.payload.precondition_fingerprint,
      executionIntent: intent,
      appliance,
      review,
      issuedAt: NOW,
      expiresAt: NOW + HOUR,
    },
    server,
  );
}

/** "exactly one new revision since the send", pfrest's alias-update note. */
export const ONE_NEW_REVISION: ConfigHistoryCorroboration = Object.freeze({
  class: 'ONE',
  reason: null,
  new_count: 1,
  new_times: Object.freeze([1_767_000_000]),
  change_note: 'Modified Firewall Alias via API',
  descriptions_digest: 'd'.repeat(64),
});

export function reconciliationRequest(
  server: SigningKey,
  origin: 'EXECUTING' | 'ROLLING_BACK' = 'EXECUTING',
  configHistory: ConfigHistoryCorroboration | null = ONE_NEW_REVISION,
  observedPfTable: PfTableState | null = null,
) {
  const observed = { ...PRE_STATE, descr: 'Public web servers' };
  return createPendingReconciliationRequest(
    {
      contractId: 'contract-1',
      operationId: 'op-1',
      stateVersion: 4,
      origin,
      observedFingerprint: digest(DigestPurpose.TARGET_FINGERPRINT, observed),
      observedLocator: 3,
      observedState: observed,
      review,
      configHistory,
      observedPfTable,
      appliance,
      targetFingerprint: intent.payload.precondition_fingerprint,
      intentDigest: digest(DigestPurpose.INTENT, intent.payload.normalized_intent),
      issuedAt: NOW,
      expiresAt: NOW + HOUR,
    },
    server,
  );
}

/** A version-1 reconciliation request, as a build before the config-history corroboration wrote them. */
export function reconciliationRequestV1(
  server: SigningKey,
  origin: 'EXECUTING' | 'ROLLING_BACK' = 'EXECUTING',
): PendingReconciliationRequestV1 {
  const { config_history: _dropped, observed_pf_table: _table, ...payload } = mutable(reconciliationRequest(server, origin).payload);
  const kind = 'pfsense-mcp/reconciliation-request' as const;
  const signature = bytesToHex(ed25519Sign(server.privateKey, signingDigestBytes(kind, 1, payload)));
  return parseArtifact(canonicalize({ kind, version: 1, payload, proof: { signature } })) as PendingReconciliationRequestV1;
}

export function releaseRequest(server: SigningKey) {
  return createPendingReleaseRequest(
    {
      contractId: 'contract-1',
      operationId: 'op-1',
      stateVersion: 7,
      review,
      appliance,
      targetFingerprint: intent.payload.precondition_fingerprint,
      intentDigest: digest(DigestPurpose.INTENT, intent.payload.normalized_intent),
      issuedAt: NOW,
      expiresAt: NOW + HOUR,
    },
    server,
  );
}

/** The fingerprint the executor sealed at VERIFIED in these fixtures (any 64 hex digits). */
export const VERIFIED_FINGERPRINT = 'ab'.repeat(32);

export function rollbackRequest(server: SigningKey) {
  return createPendingRollbackRequest(
    {
      contractId: 'contract-1',
      operationId: 'op-1',
      stateVersion: 5,
      verifiedTargetFingerprint: VERIFIED_FINGERPRINT,
      review,
      appliance,
      targetFingerprint: intent.payload.precondition_fingerprint,
      intentDigest: digest(DigestPurpose.INTENT, intent.payload.normalized_intent),
      issuedAt: NOW,
      expiresAt: NOW + HOUR,
    },
    server,
  );
}

/** Tests tamper with JSON documents freely; one loose type keeps that readable. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only tampering of JSON documents
export type Json = any;

/** A mutable deep copy of a frozen artifact, for tampering. */
export function mutable<T>(v: T): Json {
  return JSON.parse(JSON.stringify(v));
}
