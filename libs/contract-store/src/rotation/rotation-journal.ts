import { lstatSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { bytesToHex, canonicalize } from '@pfsense-mcp/canonical';
import { hkdfSha256 } from '@pfsense-mcp/crypto';
import { KeyRotationError } from '../store/contract-store-error.js';
import { MAX_KEY_EPOCH } from '../store/key-epoch.js';
import { fsyncDirectory, readBoundedFile, replaceFileAtomically } from '@pfsense-mcp/foundation';

const MAX_JOURNAL_BYTES = 4096;

/**
 * The journal of one `rotate master-key` (README "Rotating the master key"): which epochs, and a check value
 * of each key (HKDF of the key under its own label — one-way, not a key) so the next open can tell which key
 * `master.key` holds, i.e. whether the commit point (the rename of the new key file over the old) was
 * passed. `begun`: nothing is staged yet or only partly; `staged`: both re-keyed copies and both new anchors
 * are complete and verified, the commit may happen. Replaced atomically (foundation's replaceFileAtomically).
 */
export const rotationJournalSchema = z
  .strictObject({
    v: z.literal(1),
    phase: z.enum(['begun', 'staged']),
    old_epoch: z
      .number()
      .int()
      .min(1)
      .max(MAX_KEY_EPOCH - 1),
    new_epoch: z.number().int().min(2).max(MAX_KEY_EPOCH),
    old_key_check: z.string().regex(/^[0-9a-f]{32}$/),
    new_key_check: z.string().regex(/^[0-9a-f]{32}$/),
    started_at: z.number().int().nonnegative(),
  })
  .refine((j) => j.new_epoch === j.old_epoch + 1, { message: 'new_epoch must follow old_epoch' });

export type RotationJournal = z.infer<typeof rotationJournalSchema>;

/** A non-secret check value of a master key: tells two keys apart without revealing either. */
export function masterKeyCheck(masterKey: Uint8Array): string {
  return bytesToHex(hkdfSha256(masterKey, new Uint8Array(0), 'pfsense-mcp/master-key/check-value/v1', 16));
}

/** The journal, or null when there is none (no rotation pending). A journal that does not parse is refused. */
export function readRotationJournal(path: string): RotationJournal | null {
  let st;
  try {
    st = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!st.isFile() || st.size > MAX_JOURNAL_BYTES)
    throw new KeyRotationError('JOURNAL_CORRUPT', 'the rotation journal is not a small regular file');
  const text = readBoundedFile(path, MAX_JOURNAL_BYTES);
  if (text === null) throw new KeyRotationError('JOURNAL_CORRUPT', 'the rotation journal is not a small regular file');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeyRotationError('JOURNAL_CORRUPT', 'the rotation journal is not valid JSON');
  }
  const result = rotationJournalSchema.safeParse(parsed);
  if (!result.success) throw new KeyRotationError('JOURNAL_CORRUPT', 'the rotation journal is malformed');
  return result.data;
}

/** Durably replaces the journal (0600): the step it names is recorded before the step is taken. */
export function writeRotationJournal(path: string, journal: RotationJournal): void {
  const checked = rotationJournalSchema.parse(journal);
  replaceFileAtomically(path, `${canonicalize(checked)}\n`);
}

/** Removes the journal (the rotation is settled) and makes the removal durable. */
export function removeRotationJournal(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fsyncDirectory(dirname(path));
}
