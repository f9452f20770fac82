/**
 * The label lines that open a private key file of this product (Ed25519 v1/v2, lab-gate). Only the label is
 * compared — a caller that must never load a private key (the server host, `admin trust`) reads a file's first
 * bytes and asks this, and never decodes what follows.
 */
const PRIVATE_KEY_LABEL = /^pfsense-mcp-(?:lab-gate-)?ed25519-private-key-v[0-9]+ /;

/** How many leading bytes `startsWithPrivateKeyLabel` needs to decide. */
export const PRIVATE_KEY_LABEL_PROBE_BYTES = 64;

export function startsWithPrivateKeyLabel(head: Uint8Array): boolean {
  return PRIVATE_KEY_LABEL.test(
    Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, PRIVATE_KEY_LABEL_PROBE_BYTES)).toString('latin1'),
  );
}
