import { existsSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { generateMasterKey, readMasterKeyFile, writeMasterKeyFile } from '@pfsense-mcp/crypto';
import { assertFunction, assertObject, readClock } from '@pfsense-mcp/foundation';
import { KeyRotationError, StoreFileError } from '../store/contract-store-error.js';
import { FileAntiRollbackAnchor } from '../anchor/file-anti-rollback-anchor.js';
import { rekeyConsumptionStoreFile } from './rekey-consumption-store-file.js';
import { rekeyContractStoreFile } from './rekey-contract-store-file.js';
import type { EpochKeys } from './rekey-contract-store-file.js';
import { ROTATION_CRASH_HOOKS } from './rotation-crash-hooks.js';
import type { RotationStep, WithRotationCrashHooks } from './rotation-crash-hooks.js';
import { masterKeyCheck, readRotationJournal, removeRotationJournal, writeRotationJournal } from './rotation-journal.js';
import type { RotationJournal } from './rotation-journal.js';
import { fsyncDirectory } from '@pfsense-mcp/foundation';
import { SqliteConsumptionStore } from '../consumption/sqlite-consumption-store.js';
import { SqliteRecoveryContractStore } from '../store/sqlite-recovery-contract-store.js';
import { loadStoreKeys } from '../store/store-keys.js';

/** Every file a master-key rotation touches (the caller's layout owns the paths). */
export interface MasterKeyRotationPaths {
  readonly masterKeyFile: string;
  /** The journal (beside the master key, e.g. DIR/keys/rotation.journal). */
  readonly journalFile: string;
  readonly storeDirectory: string;
  readonly contractsFileName?: string;
  readonly consumptionFileName?: string;
  readonly contractsAnchorFile: string;
  readonly consumptionAnchorFile: string;
}

export interface MasterKeyRotationOptions extends MasterKeyRotationPaths, WithRotationCrashHooks {
  readonly clock: () => number;
}

/** What `rotateMasterKey` did: counts and epochs only, never a key. */
export interface MasterKeyRotationResult {
  readonly oldEpoch: number;
  readonly newEpoch: number;
  readonly contractRowsRemaced: number;
  readonly consumptionRowsRemaced: number;
  readonly artifactsReencrypted: number;
  readonly anchorsRewritten: number;
}

/** What the settle step found: no journal, an interrupted rotation rolled back (old key) or completed (new key). */
export type RotationRecovery =
  { readonly action: 'none' } | { readonly action: 'rolled-back' | 'completed'; readonly oldEpoch: number; readonly newEpoch: number };

const STAGED = '.next';

interface Files {
  readonly keyNext: string;
  readonly contracts: string;
  readonly consumption: string;
  readonly contractsAnchor: string;
  readonly consumptionAnchor: string;
  readonly contractsName: string;
  readonly consumptionName: string;
}

function filesOf(paths: MasterKeyRotationPaths): Files {
  for (const name of ['masterKeyFile', 'journalFile', 'storeDirectory', 'contractsAnchorFile', 'consumptionAnchorFile'] as const) {
    const value = paths[name];
    if (typeof value !== 'string' || value.length === 0 || value.includes('\0'))
      throw new TypeError(`master-key rotation: "${name}" must be a non-empty path`);
  }
  const contractsName = paths.contractsFileName ?? 'contracts.sqlite';
  const consumptionName = paths.consumptionFileName ?? 'consumption.sqlite';
  return {
    keyNext: paths.masterKeyFile + STAGED,
    contracts: join(paths.storeDirectory, contractsName),
    consumption: join(paths.storeDirectory, consumptionName),
    contractsAnchor: paths.contractsAnchorFile,
    consumptionAnchor: paths.consumptionAnchorFile,
    contractsName,
    consumptionName,
  };
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Removes a staged database with everything SQLite may have left beside it. */
function removeStagedDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) unlinkIfPresent(path + suffix);
}

/** Removes a staged anchor and the temp files an interrupted anchor write leaves (`.<name>.<pid>.<rand>.tmp`). */
function removeStagedAnchor(path: string): void {
  unlinkIfPresent(path);
  const prefix = `.${basename(path)}.`;
  for (const name of readdirSync(dirname(path)))
    if (name.startsWith(prefix) && name.endsWith('.tmp')) unlinkIfPresent(join(dirname(path), name));
}

/** The staged copy replaces the live database: the old WAL/SHM go first (they belong to the old file). */
function swapDatabase(path: string): void {
  if (!existsSync(path + STAGED)) return;
  unlinkIfPresent(`${path}-wal`);
  unlinkIfPresent(`${path}-shm`);
  renameSync(path + STAGED, path);
  fsyncDirectory(dirname(path));
}

function swapAnchor(path: string): void {
  if (!existsSync(path + STAGED)) return;
  renameSync(path + STAGED, path);
  fsyncDirectory(dirname(path));
}

/** Past the commit point: moves whatever is still staged into place, then drops the journal. Idempotent. */
function finish(paths: MasterKeyRotationPaths, files: Files, step: (s: RotationStep) => void): void {
  swapDatabase(files.contracts);
  swapAnchor(files.contractsAnchor);
  step('contracts-swapped');
  swapDatabase(files.consumption);
  swapAnchor(files.consumptionAnchor);
  step('consumption-swapped');
  removeRotationJournal(paths.journalFile);
}

/** Before the commit point: the old key and the live files were never touched; drop everything staged. */
function rollBack(paths: MasterKeyRotationPaths, files: Files): void {
  unlinkIfPresent(files.keyNext);
  removeStagedDatabase(files.contracts + STAGED);
  removeStagedDatabase(files.consumption + STAGED);
  removeStagedAnchor(files.contractsAnchor + STAGED);
  removeStagedAnchor(files.consumptionAnchor + STAGED);
  fsyncDirectory(dirname(files.keyNext));
  removeRotationJournal(paths.journalFile);
}

/**
 * Settles an interrupted rotation from its journal (README "Rotating the master key"); run before anything
 * opens the stores (the server at start, every admin command). `master.key` decides: still the old key →
 * the commit point was not reached → everything staged is removed (the live files are untouched, old
 * epoch); the new key → the rotation is completed by moving the staged files into place. A key that is
 * neither (or the new key with a journal that never reached `staged`) is refused: nothing is guessed.
 */
export function recoverMasterKeyRotation(paths: MasterKeyRotationPaths): RotationRecovery {
  const files = filesOf(paths);
  const journal = readRotationJournal(paths.journalFile);
  if (journal === null) return { action: 'none' };
  const key = readMasterKeyFile(paths.masterKeyFile);
  let check: string;
  try {
    check = masterKeyCheck(key);
  } finally {
    key.fill(0);
  }
  const epochs = { oldEpoch: journal.old_epoch, newEpoch: journal.new_epoch };
  if (check === journal.old_key_check) {
    rollBack(paths, files);
    return { action: 'rolled-back', ...epochs };
  }
  if (check === journal.new_key_check && journal.phase === 'staged') {
    finish(paths, files, () => undefined);
    return { action: 'completed', ...epochs };
  }
  throw new KeyRotationError(
    'JOURNAL_KEY_MISMATCH',
    'the master key file is neither the old nor the staged new key of the interrupted rotation; restore the key file, never delete the journal',
  );
}

function stagedFilesPresent(files: Files): boolean {
  return [
    files.keyNext,
    files.contracts + STAGED,
    files.consumption + STAGED,
    files.contractsAnchor + STAGED,
    files.consumptionAnchor + STAGED,
  ].some((p) => existsSync(p));
}

/**
 * `rotate master-key` (README "Rotating the master key"). The caller holds the maintenance lock (no server,
 * no other writer) and settled any earlier journal. Both stores are verified in full under the old key; an
 * EXECUTING or ROLLING_BACK contract refuses the rotation (WORK_IN_FLIGHT: let the server's restart
 * reconciliation settle it first). Then, each step journaled first: the new key beside the old
 * (exclusive create, 0600), re-keyed copies of both databases and new anchors (all staged, all verified
 * by opening them under the new key), the commit point — the rename of the new key file over the old —
 * and the moves of the staged files into place.
 */
export async function rotateMasterKey(options: MasterKeyRotationOptions): Promise<MasterKeyRotationResult> {
  assertObject(options, 'rotateMasterKey: "options"');
  assertFunction(options.clock, 'rotateMasterKey: "clock"', 'a function returning UTC milliseconds');
  const files = filesOf(options);
  const hooks = options[ROTATION_CRASH_HOOKS];
  if (hooks !== undefined && (hooks === null || typeof hooks.at !== 'function'))
    throw new TypeError('rotateMasterKey: crash hooks must have at()');
  const step = (s: RotationStep): void => hooks?.at(s);
  if (readRotationJournal(options.journalFile) !== null) {
    throw new KeyRotationError(
      'ROTATION_IN_PROGRESS',
      'an interrupted rotation is pending; settle it first (any admin command or the server start does)',
    );
  }
  if (stagedFilesPresent(files))
    throw new KeyRotationError(
      'STALE_STAGED_FILE',
      'a staged rotation file (*.next) exists without a journal; remove it after checking nothing else made it',
    );

  const oldKey = readMasterKeyFile(options.masterKeyFile);
  const newKey = generateMasterKey();
  const oldKeys = loadStoreKeys({ masterKey: oldKey }, 'rotateMasterKey');
  const newKeys = loadStoreKeys({ masterKey: newKey }, 'rotateMasterKey');
  const clock = options.clock;
  let committed = false;
  try {
    // Full verification under the old key (and both anchors at the stores' epoch) before anything is written.
    const contracts = await SqliteRecoveryContractStore.open({
      directory: options.storeDirectory,
      fileName: files.contractsName,
      masterKey: oldKey,
      clock,
      anchor: { file: files.contractsAnchor },
      verifyOnOpen: true,
    });
    let consumption: SqliteConsumptionStore | null = null;
    try {
      const inFlight = contracts.list({ states: ['EXECUTING', 'ROLLING_BACK'], limit: 1 });
      if (inFlight.length > 0) {
        throw new KeyRotationError(
          'WORK_IN_FLIGHT',
          'a contract is EXECUTING or ROLLING_BACK; start the server once so restart reconciliation settles it, then rotate',
        );
      }
      consumption = await SqliteConsumptionStore.open({
        directory: options.storeDirectory,
        fileName: files.consumptionName,
        masterKey: oldKey,
        clock,
        anchor: { file: files.consumptionAnchor },
      });
      const oldEpoch = contracts.keyEpoch;
      if (consumption.keyEpoch() !== oldEpoch)
        throw new KeyRotationError(
          'EPOCHS_DIFFER',
          `the contract store is at master-key epoch ${oldEpoch}, the consumption store at ${consumption.keyEpoch()}`,
        );
      const newEpoch = oldEpoch + 1;
      const from: EpochKeys = { keys: oldKeys, epoch: oldEpoch };
      const to: EpochKeys = { keys: newKeys, epoch: newEpoch };
      const journal: RotationJournal = {
        v: 1,
        phase: 'begun',
        old_epoch: oldEpoch,
        new_epoch: newEpoch,
        old_key_check: masterKeyCheck(oldKey),
        new_key_check: masterKeyCheck(newKey),
        started_at: readClock(clock, 'rotateMasterKey'),
      };
      writeRotationJournal(options.journalFile, journal);
      step('journal-begun');
      writeMasterKeyFile(files.keyNext, newKey);
      step('new-key-written');

      await contracts.backupTo(files.contracts + STAGED);
      contracts.close();
      step('contracts-copied');
      const c = rekeyContractStoreFile(files.contracts + STAGED, from, to);
      const contractsMark = new FileAntiRollbackAnchor({ path: files.contractsAnchor, macKey: oldKeys.anchor }).read();
      new FileAntiRollbackAnchor({ path: files.contractsAnchor + STAGED, macKey: newKeys.anchor }).write({
        storeId: c.storeId,
        sequence: c.headSequence,
        headMac: c.headMac,
        acceptedRestoreAt: contractsMark?.acceptedRestoreAt ?? null,
        keyEpoch: newEpoch,
      });
      step('contracts-staged');

      await consumption.backupTo(files.consumption + STAGED);
      consumption.close();
      step('consumption-copied');
      const k = rekeyConsumptionStoreFile(files.consumption + STAGED, from, to);
      const consumptionMark = new FileAntiRollbackAnchor({ path: files.consumptionAnchor, macKey: oldKeys.anchor }).read();
      new FileAntiRollbackAnchor({ path: files.consumptionAnchor + STAGED, macKey: newKeys.anchor }).write({
        storeId: k.storeId,
        sequence: k.headSequence,
        headMac: k.headMac,
        acceptedRestoreAt: consumptionMark?.acceptedRestoreAt ?? null,
        keyEpoch: newEpoch,
      });
      step('consumption-staged');

      // The staged files must open and verify under the new key exactly as the server will open them.
      (
        await SqliteRecoveryContractStore.open({
          directory: options.storeDirectory,
          fileName: files.contractsName + STAGED,
          masterKey: newKey,
          clock,
          anchor: { file: files.contractsAnchor + STAGED },
          verifyOnOpen: true,
        })
      ).close();
      (
        await SqliteConsumptionStore.open({
          directory: options.storeDirectory,
          fileName: files.consumptionName + STAGED,
          masterKey: newKey,
          clock,
          anchor: { file: files.consumptionAnchor + STAGED },
        })
      ).close();
      for (const db of [files.contracts + STAGED, files.consumption + STAGED]) {
        // Closing the last connection checkpoints and removes the WAL; a WAL left behind would not move with the file.
        if (existsSync(`${db}-wal`)) throw new StoreFileError('EXISTS', `${db}-wal`, 'staged database kept a WAL after close');
      }
      fsyncDirectory(options.storeDirectory);
      writeRotationJournal(options.journalFile, { ...journal, phase: 'staged' });
      step('journal-staged');

      // THE COMMIT POINT: from this rename on, master.key is the new key and the rotation can only complete.
      renameSync(files.keyNext, options.masterKeyFile);
      fsyncDirectory(dirname(options.masterKeyFile));
      committed = true;
      step('committed');
      finish(options, files, step);
      return Object.freeze({
        oldEpoch,
        newEpoch,
        contractRowsRemaced: c.rowsRemaced,
        consumptionRowsRemaced: k.rowsRemaced,
        artifactsReencrypted: c.artifactsReencrypted,
        anchorsRewritten: 2,
      });
    } finally {
      contracts.close();
      consumption?.close();
    }
  } catch (error) {
    // A failure (not a crash) before the commit point undoes the staging at once; after it, the journal stays
    // for the next open to finish (the new key is already in place).
    if (!committed && readRotationJournalQuietly(options.journalFile) !== null) rollBack(options, files);
    throw error;
  } finally {
    oldKey.fill(0);
    newKey.fill(0);
    for (const k of [oldKeys, newKeys]) for (const v of Object.values(k)) (v as Uint8Array).fill(0);
  }
}

function readRotationJournalQuietly(path: string): RotationJournal | null {
  try {
    return readRotationJournal(path);
  } catch {
    return null;
  }
}
