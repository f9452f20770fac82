import { bytesToHex, hexToBytes } from '@pfsense-mcp/canonical';
import { PinnedAuthoritySet, generateEd25519KeyPair, keyIdOf } from '@pfsense-mcp/crypto';
import type { AuthorityRole } from '@pfsense-mcp/crypto';
import { z } from 'zod';

/**
 * TEST-ONLY throw-away keys, generated per run and never written to the report or to disk outside the run's
 * private directory: the owner's three roles and the server's request key. On the simulator the runner plays
 * the owner itself; against a real appliance the owner signs on another machine with the signer CLI.
 */
export interface LabKeyPair {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly keyId: string;
}

export interface LabKeys {
  readonly authorization: LabKeyPair;
  readonly confirmation: LabKeyPair;
  readonly reconciliation: LabKeyPair;
  readonly server: LabKeyPair;
}

const ROLES = Object.freeze(['authorization', 'confirmation', 'reconciliation', 'server'] as const);

function pair(privateKey: Uint8Array, publicKey: Uint8Array): LabKeyPair {
  return Object.freeze({ privateKey, publicKey, keyId: keyIdOf(publicKey) });
}

export function generateLabKeys(): LabKeys {
  const make = () => {
    const k = generateEd25519KeyPair();
    return pair(k.privateKey, k.publicKey);
  };
  return Object.freeze({ authorization: make(), confirmation: make(), reconciliation: make(), server: make() });
}

/** The operator authorities the coordinator and the store verifiers pin. */
export function operatorAuthorities(keys: LabKeys): PinnedAuthoritySet {
  const pin = (k: LabKeyPair, role: AuthorityRole) => ({ keyId: k.keyId, publicKey: k.publicKey, role, active: true });
  return PinnedAuthoritySet.of([
    pin(keys.authorization, 'plan-authorization'),
    pin(keys.confirmation, 'confirmation'),
    pin(keys.reconciliation, 'reconciliation'),
    pin(keys.server, 'server-request'),
  ]);
}

export function serverAuthorities(keys: LabKeys): PinnedAuthoritySet {
  return PinnedAuthoritySet.of([{ keyId: keys.server.keyId, publicKey: keys.server.publicKey, role: 'server-request', active: true }]);
}

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const wirePair = z.strictObject({ privateKey: hex64, publicKey: hex64 });
export const labKeysWireSchema = z.strictObject({
  authorization: wirePair,
  confirmation: wirePair,
  reconciliation: wirePair,
  server: wirePair,
});
export type LabKeysWire = z.infer<typeof labKeysWireSchema>;

/** For the IPC channel to a worker process only (never a file, an argument or an environment variable). */
export function labKeysToWire(keys: LabKeys): LabKeysWire {
  const w = (k: LabKeyPair) => ({ privateKey: bytesToHex(k.privateKey), publicKey: bytesToHex(k.publicKey) });
  return { authorization: w(keys.authorization), confirmation: w(keys.confirmation), reconciliation: w(keys.reconciliation), server: w(keys.server) };
}

export function labKeysFromWire(value: unknown): LabKeys {
  const w = labKeysWireSchema.parse(value);
  const out: Record<string, LabKeyPair> = {};
  for (const role of ROLES) out[role] = pair(hexToBytes(w[role].privateKey), hexToBytes(w[role].publicKey));
  return Object.freeze(out) as unknown as LabKeys;
}

/** Every secret of the keys as hex (the report scan checks none appears in any output). */
export function labKeySecrets(keys: LabKeys): readonly string[] {
  return ROLES.map((r) => bytesToHex(keys[r].privateKey));
}
