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

/** One public key a run pins besides the keys of its current process. */
export interface LabPin {
  readonly role: 'plan-authorization' | 'confirmation' | 'server-request';
  readonly publicKey: Uint8Array;
}

/**
 * What a run pins besides its current keys. `earlier`: the public halves of the run keys of the run's earlier
 * processes (a resumed run makes fresh keys; its stores still hold evidence the earlier ones signed).
 * `ownerReconciliation`: against an appliance, the owner's reconciliation key — then the run's own
 * reconciliation key is not pinned at all, so only the owner can decide a reconciliation or release a target.
 */
export interface LabPins {
  readonly earlier: readonly LabPin[];
  readonly ownerReconciliation: Uint8Array | null;
}

export const NO_PINS: LabPins = Object.freeze({ earlier: Object.freeze([]), ownerReconciliation: null });

function pinSet(entries: readonly { publicKey: Uint8Array; role: AuthorityRole }[]): PinnedAuthoritySet {
  const out: { keyId: string; publicKey: Uint8Array; role: AuthorityRole; active: boolean }[] = [];
  for (const e of entries) {
    const keyId = keyIdOf(e.publicKey);
    if (!out.some((p) => p.keyId === keyId)) out.push({ keyId, publicKey: e.publicKey, role: e.role, active: true });
  }
  return PinnedAuthoritySet.of(out);
}

/** The operator authorities the coordinator and the store verifiers pin. */
export function operatorAuthorities(keys: LabKeys, pins: LabPins = NO_PINS): PinnedAuthoritySet {
  return pinSet([
    { publicKey: keys.authorization.publicKey, role: 'plan-authorization' },
    { publicKey: keys.confirmation.publicKey, role: 'confirmation' },
    pins.ownerReconciliation === null
      ? { publicKey: keys.reconciliation.publicKey, role: 'reconciliation' }
      : { publicKey: pins.ownerReconciliation, role: 'reconciliation' },
    { publicKey: keys.server.publicKey, role: 'server-request' },
    ...pins.earlier,
  ]);
}

/** The server-request keys: this process's, and the earlier processes' of a resumed run. */
export function serverAuthorities(keys: LabKeys, pins: LabPins = NO_PINS): PinnedAuthoritySet {
  return pinSet([{ publicKey: keys.server.publicKey, role: 'server-request' }, ...pins.earlier.filter((p) => p.role === 'server-request')]);
}

/** The public halves of this process's keys a later process of the same run must pin (never a private key). */
export function publicPinsOf(keys: LabKeys): readonly LabPin[] {
  return Object.freeze([
    Object.freeze({ role: 'plan-authorization' as const, publicKey: keys.authorization.publicKey }),
    Object.freeze({ role: 'confirmation' as const, publicKey: keys.confirmation.publicKey }),
    Object.freeze({ role: 'server-request' as const, publicKey: keys.server.publicKey }),
  ]);
}

export const labPinsWireSchema = z.strictObject({
  earlier: z
    .array(
      z.strictObject({
        role: z.enum(['plan-authorization', 'confirmation', 'server-request']),
        publicKey: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .max(96),
  ownerReconciliation: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
export type LabPinsWire = z.infer<typeof labPinsWireSchema>;

export function labPinsToWire(pins: LabPins): LabPinsWire {
  return {
    earlier: pins.earlier.map((p) => ({ role: p.role, publicKey: bytesToHex(p.publicKey) })),
    ownerReconciliation: pins.ownerReconciliation === null ? null : bytesToHex(pins.ownerReconciliation),
  };
}

export function labPinsFromWire(value: unknown): LabPins {
  const w = labPinsWireSchema.parse(value);
  return Object.freeze({
    earlier: Object.freeze(w.earlier.map((p) => Object.freeze({ role: p.role, publicKey: hexToBytes(p.publicKey) }))),
    ownerReconciliation: w.ownerReconciliation === null ? null : hexToBytes(w.ownerReconciliation),
  });
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
  return {
    authorization: w(keys.authorization),
    confirmation: w(keys.confirmation),
    reconciliation: w(keys.reconciliation),
    server: w(keys.server),
  };
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
