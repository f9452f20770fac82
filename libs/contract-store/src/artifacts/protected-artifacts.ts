import { hash } from 'node:crypto';
import { canonicalBytes } from '@pfsense-mcp/canonical';
import type { CanonicalValue } from '@pfsense-mcp/canonical';
import { aeadOpen, aeadSeal } from '@pfsense-mcp/crypto';
import { deepFreeze } from '@pfsense-mcp/foundation';
import { loadIn } from '../model/contract-rows.js';
import { ProtectedArtifactError, RecordIntegrityError } from '../store/contract-store-error.js';
import { CONTRACT_SCHEMA_VERSION, PROTECTED_ARTIFACT_PURPOSES } from '../model/recovery-contract.js';
import type { ProtectedArtifactPurpose } from '../model/recovery-contract.js';
import { assertOpen } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';

/**
 * Canonical-encoding limits of a protected artifact (target identity, intent, rollback snapshot). A snapshot
 * is one target's full state — an alias of up to 100,000 members — so the canonical defaults (10,000-element
 * arrays, 1 MiB) are too small; the bound that decides what a change may be requested for is the
 * authorization library's, well below this.
 */
const PROTECTED_ARTIFACT_LIMITS = Object.freeze({ maxArrayLength: 100_000, maxBytes: 64 * 1024 * 1024 });

function aadOf(contractId: string, purpose: ProtectedArtifactPurpose): Uint8Array {
  return canonicalBytes({ contract_id: contractId, purpose, schema_version: CONTRACT_SCHEMA_VERSION });
}

/** SHA-256 of an envelope as hex, one-shot (open checks every envelope of every unpurged contract). */
export function sha256Hex(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'hex');
}

/** The three artifacts of a new contract, each canonical-encoded and sealed (AEAD, AAD = contract id + purpose + schema version). */
export function sealProtectedArtifacts(
  s: StoreState,
  contractId: string,
  values: Readonly<Record<ProtectedArtifactPurpose, unknown>>,
): ReadonlyMap<ProtectedArtifactPurpose, Buffer> {
  const envelopes = new Map<ProtectedArtifactPurpose, Buffer>();
  for (const purpose of PROTECTED_ARTIFACT_PURPOSES) {
    let plaintext: Uint8Array;
    try {
      plaintext = canonicalBytes(values[purpose], PROTECTED_ARTIFACT_LIMITS);
    } catch {
      // The canonical error's path could name keys of the artifact: report the purpose only.
      throw new ProtectedArtifactError('ENCODE_FAILED', contractId, purpose);
    }
    try {
      envelopes.set(purpose, Buffer.from(aeadSeal(s.keys.encryption, plaintext, aadOf(contractId, purpose))));
    } finally {
      plaintext.fill(0);
    }
  }
  return envelopes;
}

/** Decrypts one protected artifact (AEAD, AAD = contract id + purpose + schema version). Keep the result in the call frame. */
export function decryptProtectedArtifact(s: StoreState, contractId: string, purpose: ProtectedArtifactPurpose): CanonicalValue {
  assertOpen(s);
  if (!(PROTECTED_ARTIFACT_PURPOSES as readonly string[]).includes(purpose)) {
    throw new TypeError('decryptProtectedArtifact: "purpose" must be target-identity, intent or snapshot');
  }
  return s.db.transaction(() => {
    const c = loadIn(s, contractId);
    if (c.artifacts_purged_at !== null) throw new ProtectedArtifactError('PURGED', contractId, purpose);
    const row = s.stmt.getArtifact.get(contractId, purpose) as { envelope: Buffer } | undefined;
    if (row === undefined) throw new ProtectedArtifactError('MISSING', contractId, purpose);
    const ref = c.protected_artifacts[purpose];
    if (row.envelope.length !== ref.envelope_bytes || sha256Hex(row.envelope) !== ref.envelope_sha256) {
      throw new RecordIntegrityError(
        'ARTIFACT_DIGEST',
        contractId,
        `protected artifact ${purpose} does not match the authenticated record`,
      );
    }
    let plaintext: Uint8Array;
    try {
      plaintext = aeadOpen(s.keys.encryption, row.envelope, aadOf(contractId, purpose));
    } catch {
      throw new ProtectedArtifactError('DECRYPT_FAILED', contractId, purpose);
    }
    try {
      return deepFreeze(JSON.parse(Buffer.from(plaintext).toString('utf8')) as CanonicalValue);
    } catch {
      throw new ProtectedArtifactError('DECRYPT_FAILED', contractId, purpose);
    } finally {
      plaintext.fill(0);
    }
  })();
}

/**
 * The operator's view of which target a contract is about (`pfsense-mcp admin status --show-targets`): the
 * decrypted target-identity artifact only — never the intent or the snapshot, which hold descriptions.
 * SENSITIVE (it names the target); ProtectedArtifactError PURGED once retention zeroed the artifacts.
 */
export function revealTargetIdentity(s: StoreState, contractId: string): CanonicalValue {
  return decryptProtectedArtifact(s, contractId, 'target-identity');
}
