// The operator.pub bundle (docs/DESIGN.md §10): the three operator public keys `pfsense-mcp-signer keygen --role
// operator` makes, each with its role, in one file the host pins with `pfsense-mcp admin trust --bundle`. Public
// keys only; the format is written and read here alone.

/** The roles of an operator's keys, in bundle order. */
export const OPERATOR_BUNDLE_ROLES = Object.freeze(['plan-authorization', 'confirmation', 'reconciliation'] as const);
export type OperatorBundleRole = (typeof OPERATOR_BUNDLE_ROLES)[number];

export interface OperatorBundleEntry {
  readonly role: OperatorBundleRole;
  /** 64 lowercase hex of the Ed25519 public key. */
  readonly publicKey: string;
}

const HEADER = 'pfsense-mcp operator public keys v1';
const LINE = /^(plan-authorization|confirmation|reconciliation) ([0-9a-f]{64})$/;
/** A bundle is four short lines: anything longer is not one. */
export const MAX_OPERATOR_BUNDLE_BYTES = 512;

/** The bundle's text: a header line, then `ROLE HEX` for each of the three roles, in order. */
export function formatOperatorKeyBundle(entries: readonly OperatorBundleEntry[]): string {
  const lines = OPERATOR_BUNDLE_ROLES.map((role) => {
    const e = entries.find((x) => x.role === role);
    if (e === undefined || !/^[0-9a-f]{64}$/.test(e.publicKey)) throw new TypeError(`formatOperatorKeyBundle: no valid ${role} key`);
    return `${role} ${e.publicKey}`;
  });
  return `${HEADER}\n${lines.join('\n')}\n`;
}

/** The three entries of a bundle's text, or null when it is not exactly a bundle (header, the three roles once each, in order). */
export function parseOperatorKeyBundle(text: string): readonly OperatorBundleEntry[] | null {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  if (lines.length !== 1 + OPERATOR_BUNDLE_ROLES.length || lines[0] !== HEADER) return null;
  const entries: OperatorBundleEntry[] = [];
  for (const [i, role] of OPERATOR_BUNDLE_ROLES.entries()) {
    const m = LINE.exec(lines[i + 1] as string);
    if (m === null || m[1] !== role) return null;
    entries.push(Object.freeze({ role, publicKey: m[2] as string }));
  }
  return Object.freeze(entries);
}
