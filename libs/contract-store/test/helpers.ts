import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { canonicalBytes, digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { PinnedAuthoritySet, ed25519Sign, generateEd25519KeyPair, generateMasterKey, keyIdOf } from '@pfsense-mcp/crypto';
import type { AuthorityRole } from '@pfsense-mcp/crypto';
import { LOOSE_RATE_LIMITS } from '@pfsense-mcp/test-support';
import { SqliteRecoveryContractStore } from '../src/index.js';
import type {
  ConfirmationVerifier,
  ContractStoreOptions,
  NewContractInput,
  RecoveryContract,
  ReconciliationVerifier,
  ReservationReleaseVerifier,
  VerifiedResolution,
} from '../src/index.js';
import { ExecutorContractStore } from '../src/executor-entry.js';

export const T0 = 1_800_000_000_000;
export const HOUR = 3_600_000;

export function hex(n: number): string {
  return n.toString(16).padStart(64, '0');
}

/** Sentinels placed in protected artifacts; they must never show up anywhere but the decrypted value. */
export const SENTINEL_INTENT = 'SENTINEL-INTENT-7f3c9a0e-do-not-leak';
export const SENTINEL_SNAPSHOT = 'SENTINEL-SNAPSHOT-51d2e8b4-do-not-leak';
export const SENTINEL_IDENTITY = 'SENTINEL-IDENTITY-c0ffee42-do-not-leak';

let counter = 0;

export function contractInput(overrides: Partial<NewContractInput> & { target?: number } = {}): NewContractInput {
  counter += 1;
  const { target, ...rest } = overrides;
  return {
    operation_id: `op-${process.pid}-${counter}`,
    capability: 'ALIAS_WRITE',
    endpoint_symbol: 'FIREWALL_ALIAS_PATCH',
    http_method: 'PATCH',
    target_identity_digest: hex(target ?? 1),
    target_fingerprint: hex(0xf1),
    intent_digest: hex(0x1d),
    snapshot_digest: hex(0x5a),
    rollback_plan_version: 'alias-descr-v1',
    lifecycle_locator: 7,
    provenance: {
      authorization_id: `auth-${process.pid}-${counter}`,
      plan_digest: hex(0x91),
      step_id: 'step-1',
      execution_intent_digest: hex(0xe1),
      authorization_expires_at: T0 + 2 * HOUR,
    },
    expires_at: T0 + HOUR,
    target_identity: { alias_name: SENTINEL_IDENTITY },
    intent: { alias_name: 'lan_hosts', description: SENTINEL_INTENT },
    snapshot: { name: 'lan_hosts', descr: SENTINEL_SNAPSHOT, type: 'host', address: ['10.0.0.1'], detail: [''] },
    ...rest,
  };
}

/** Pinned authorities and signed reconciliation / release evidence, as libs/authorization will produce. */
export class TestAuthorities {
  readonly reconciliation = generateEd25519KeyPair();
  readonly confirmation = generateEd25519KeyPair();
  readonly set = PinnedAuthoritySet.of([
    { keyId: keyIdOf(this.reconciliation.publicKey), publicKey: this.reconciliation.publicKey, role: 'reconciliation', active: true },
    { keyId: keyIdOf(this.confirmation.publicKey), publicKey: this.confirmation.publicKey, role: 'confirmation', active: true },
  ]);

  sign(role: AuthorityRole, payload: Record<string, unknown>): { payload: Record<string, unknown>; keyId: string; signature: string } {
    const pair = role === 'reconciliation' ? this.reconciliation : this.confirmation;
    const signature = ed25519Sign(pair.privateKey, canonicalBytes(payload));
    return { payload, keyId: keyIdOf(pair.publicKey), signature: Buffer.from(signature).toString('hex') };
  }

  resolution(
    c: RecoveryContract,
    outcome: VerifiedResolution['outcome'],
    extra: Record<string, unknown> = {},
    role: AuthorityRole = 'reconciliation',
  ) {
    return this.sign(role, {
      resolution_id: `res-${c.contract_id}-${c.state_version}`,
      contract_id: c.contract_id,
      operation_id: c.operation_id,
      state_version: c.state_version,
      origin: c.reconciliation?.origin ?? 'EXECUTING',
      outcome,
      observed_lifecycle_locator: c.lifecycle_locator,
      observed_fingerprint: outcome === 'FORWARD_APPLIED' || outcome === 'ROLLBACK_APPLIED' ? hex(0xabc) : null,
      ...extra,
    });
  }

  private verifySigned(signed: unknown): { payload: Record<string, unknown>; keyId: string; role: string } {
    const s = signed as { payload: Record<string, unknown>; keyId: string; signature: string };
    this.set.verify({
      role: 'reconciliation',
      keyId: s.keyId,
      algorithm: 'Ed25519',
      message: canonicalBytes(s.payload),
      signature: new Uint8Array(Buffer.from(s.signature, 'hex')),
    });
    return { payload: s.payload, keyId: s.keyId, role: this.set.get(s.keyId)?.role ?? 'unknown' };
  }

  /** A verifier that checks the signature against the pinned set (role 'reconciliation') and reports the facts. */
  reconciliationVerifier(roleOverride?: string): ReconciliationVerifier {
    return {
      verify: (_contract, signed) => {
        const { payload: p, keyId, role } = this.verifySigned(signed);
        return {
          resolutionId: p.resolution_id as string,
          resolutionDigest: digest(DigestPurpose.RECONCILIATION, p),
          authorityKeyId: keyId,
          authorityRole: roleOverride ?? role,
          contractId: p.contract_id as string,
          operationId: p.operation_id as string,
          stateVersion: p.state_version as number,
          origin: p.origin as VerifiedResolution['origin'],
          outcome: p.outcome as VerifiedResolution['outcome'],
          observedLifecycleLocator: p.observed_lifecycle_locator as number,
          observedFingerprint: p.observed_fingerprint as string | null,
        };
      },
    };
  }

  release(c: RecoveryContract, extra: Record<string, unknown> = {}, role: AuthorityRole = 'reconciliation') {
    return this.sign(role, {
      release_id: `rel-${c.contract_id}`,
      contract_id: c.contract_id,
      operation_id: c.operation_id,
      state_version: c.state_version,
      ...extra,
    });
  }

  releaseVerifier(): ReservationReleaseVerifier {
    return {
      verify: (_contract, signed) => {
        const { payload: p, keyId, role } = this.verifySigned(signed);
        return {
          releaseId: p.release_id as string,
          releaseDigest: digest(DigestPurpose.RECONCILIATION, p),
          authorityKeyId: keyId,
          authorityRole: role,
          contractId: p.contract_id as string,
          operationId: p.operation_id as string,
          stateVersion: p.state_version as number,
        };
      },
    };
  }
}

/** Accepts evidence `{ accept: true, contractId, expiresAt? }`; anything else throws (like a bad signature). */
export const testConfirmationVerifier: ConfirmationVerifier = {
  verify(contract, evidence, nowMs) {
    const e = evidence as { accept?: boolean; contractId?: string; expiresAt?: number } | null;
    if (e === null || typeof e !== 'object' || e.accept !== true) throw new Error('confirmation refused');
    return {
      confirmationId: `conf-${contract.contract_id}`,
      confirmationDigest: hex(0xc0f),
      authorityKeyId: hex(0xa11),
      contractId: e.contractId ?? contract.contract_id,
      expiresAt: e.expiresAt ?? nowMs + HOUR / 2,
    };
  },
};

export interface Harness {
  readonly dir: string;
  readonly anchorDir: string;
  readonly anchorFile: string;
  readonly masterKey: Uint8Array;
  readonly clock: { now: number };
  readonly authorities: TestAuthorities;
  /** The contract store's database file. */
  readonly dbPath: string;
  options(extra?: Partial<ContractStoreOptions>): ContractStoreOptions;
  open(extra?: Partial<ContractStoreOptions>): Promise<SqliteRecoveryContractStore>;
  /** Raw access to the closed database, as an attacker with file access would have. */
  raw<T>(fn: (db: Database.Database) => T): T;
  cleanup(): void;
}

export function makeHarness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'cs-store-'));
  const anchorDir = mkdtempSync(join(tmpdir(), 'cs-anchor-'));
  const anchorFile = join(anchorDir, 'anchor.json');
  const masterKey = generateMasterKey();
  const clock = { now: T0 };
  const authorities = new TestAuthorities();
  const opened: SqliteRecoveryContractStore[] = [];
  const options = (extra: Partial<ContractStoreOptions> = {}): ContractStoreOptions => ({
    directory: dir,
    masterKey,
    clock: () => clock.now,
    anchor: { file: anchorFile },
    confirmationVerifier: testConfirmationVerifier,
    reconciliationVerifier: authorities.reconciliationVerifier(),
    reservationReleaseVerifier: authorities.releaseVerifier(),
    rateLimits: LOOSE_RATE_LIMITS,
    ...extra,
  });
  return {
    dir,
    anchorDir,
    anchorFile,
    masterKey,
    clock,
    authorities,
    dbPath: join(dir, 'contracts.sqlite'),
    options,
    raw(fn) {
      const db = new Database(join(dir, 'contracts.sqlite'));
      try {
        return fn(db);
      } finally {
        db.close();
      }
    },
    async open(extra = {}) {
      const s = await SqliteRecoveryContractStore.open(options(extra));
      opened.push(s);
      return s;
    },
    cleanup() {
      for (const s of opened) s.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(anchorDir, { recursive: true, force: true });
    },
  };
}

/** create → PREPARED → confirmed. */
export function preparedConfirmed(store: SqliteRecoveryContractStore, input = contractInput()): RecoveryContract {
  const c = store.create(input);
  const p = store.markPrepared(c.contract_id, c.state_version);
  return store.confirm(p.contract_id, { accept: true });
}

export function executing(store: SqliteRecoveryContractStore, input = contractInput()): RecoveryContract {
  const c = preparedConfirmed(store, input);
  return ExecutorContractStore.of(store).beginExecution(c.contract_id, c.state_version);
}

export function verified(store: SqliteRecoveryContractStore, input = contractInput()): RecoveryContract {
  const c = executing(store, input);
  return ExecutorContractStore.of(store).markExecutionVerified(c.contract_id, c.state_version, {
    verifiedTargetFingerprint: hex(0xf2),
    verifiedLifecycleLocator: c.lifecycle_locator,
  });
}

export function rollingBack(store: SqliteRecoveryContractStore, input = contractInput()): RecoveryContract {
  const c = verified(store, input);
  return ExecutorContractStore.of(store).beginRollback(c.contract_id, c.state_version);
}

/** Expect a thrown error with the given name (and code, if given). */
export function errorOf(fn: () => unknown): { name: string; code?: string; message: string } {
  try {
    fn();
  } catch (error) {
    const e = error as { name: string; code?: string; message: string };
    return { name: e.name, code: e.code, message: e.message };
  }
  throw new Error('expected an error');
}
