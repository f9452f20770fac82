import { ED25519_PRIVATE_KEY_FILE_LABEL, ED25519_PRIVATE_KEY_FILE_LABEL_V2 } from './ed25519-private-key-file.js';
import { LAB_GATE_PRIVATE_KEY_FILE_LABEL } from './private-key-file.js';

/** The leading bytes of every private signing key file of this product (Ed25519 v1/v2, lab-gate). */
const PRIVATE_KEY_LABELS: readonly Buffer[] = Object.freeze(
  [ED25519_PRIVATE_KEY_FILE_LABEL, ED25519_PRIVATE_KEY_FILE_LABEL_V2, LAB_GATE_PRIVATE_KEY_FILE_LABEL].map((l) =>
    Buffer.from(`${l} `, 'ascii'),
  ),
);

/**
 * Whether a file opens with a private key file's label line, reading it one byte at a time through `byteAt`
 * (null past the end) and stopping at the first byte that no label can continue with. A caller that must never
 * load a private key — the server host in `admin trust` (docs/DESIGN.md §10) — asks this: it reads at most the
 * label and never a byte of the key after it.
 */
export function opensWithPrivateKeyLabel(byteAt: (offset: number) => number | null): boolean {
  let candidates = PRIVATE_KEY_LABELS;
  for (let i = 0; candidates.length > 0; i++) {
    const done = candidates.find((c) => c.length === i);
    if (done !== undefined) return true;
    const b = byteAt(i);
    if (b === null) return false;
    candidates = candidates.filter((c) => c[i] === b);
  }
  return false;
}
