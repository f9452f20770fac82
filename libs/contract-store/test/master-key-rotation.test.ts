// `rotateMasterKey` in one process (the crash matrix with real processes is the server's admin test): every
// row re-MACed and every artifact re-encrypted under a new key, epochs recorded in stores and anchors, the old
// key refused afterwards, and the refusals that leave everything as it was.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateMasterKey, readMasterKeyFile, writeMasterKeyFile } from '@pfsense-mcp/crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOOSE_RATE_LIMITS } from '@pfsense-mcp/test-support';
import { ExecutorContractStore } from '../src/executor-entry.js';
import {
  ROTATION_CRASH_HOOKS,
  SqliteConsumptionStore,
  SqliteRecoveryContractStore,
  recoverMasterKeyRotation,
  rotateMasterKey,
} from '../src/index.js';
import type { MasterKeyRotationPaths } from '../src/index.js';
import { SENTINEL_SNAPSHOT, T0, contractInput, executing, testConfirmationVerifier, verified } from './helpers.js';

let root: string;
let paths: MasterKeyRotationPaths;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cs-rotate-'));
  for (const d of ['store', 'keys', 'anchors']) mkdirSync(join(root, d), { mode: 0o700 });
  chmodSync(root, 0o700);
  paths = {
    masterKeyFile: join(root, 'keys', 'master.key'),
    journalFile: join(root, 'keys', 'rotation.journal'),
    storeDirectory: join(root, 'store'),
    contractsAnchorFile: join(root, 'anchors', 'contracts.anchor'),
    consumptionAnchorFile: join(root, 'anchors', 'consumption.anchor'),
  };
  const key = generateMasterKey();
  writeMasterKeyFile(paths.masterKeyFile, key);
  key.fill(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const clock = (): number => T0;
const openContracts = (masterKey = readMasterKeyFile(paths.masterKeyFile)) =>
  SqliteRecoveryContractStore.open({
    directory: paths.storeDirectory,
    masterKey,
    clock,
    anchor: { file: paths.contractsAnchorFile },
    confirmationVerifier: testConfirmationVerifier,
    rateLimits: LOOSE_RATE_LIMITS,
  });
const openConsumption = (masterKey = readMasterKeyFile(paths.masterKeyFile)) =>
  SqliteConsumptionStore.open({ directory: paths.storeDirectory, masterKey, clock, anchor: { file: paths.consumptionAnchorFile } });

async function populate(): Promise<string> {
  const store = await openContracts();
  const v = verified(store, contractInput({ target: 1 }));
  verified(store, contractInput({ target: 2 }));
  store.close();
  const consumption = await openConsumption();
  expect(consumption.tryConsume('auth-one', T0 - 10)).toBe(true);
  expect(consumption.tryConsume('auth-two', T0 - 5)).toBe(true);
  consumption.close();
  return v.contract_id;
}

function stagedLeftovers(): string[] {
  return [join(root, 'keys'), join(root, 'store'), join(root, 'anchors')].flatMap((d) =>
    readdirSync(d).filter((n) => n.includes('.next') || n.includes('journal')),
  );
}

describe('rotateMasterKey', () => {
  it('re-keys both stores and both anchors; the new key reads everything, the old key nothing', async () => {
    const contractId = await populate();
    const oldKey = readMasterKeyFile(paths.masterKeyFile);
    const result = await rotateMasterKey({ ...paths, clock });
    expect(result).toMatchObject({ oldEpoch: 1, newEpoch: 2, artifactsReencrypted: 6, anchorsRewritten: 2 });
    expect(result.contractRowsRemaced).toBeGreaterThan(10);
    expect(result.consumptionRowsRemaced).toBe(3);
    expect(stagedLeftovers()).toEqual([]);
    const newKey = readMasterKeyFile(paths.masterKeyFile);
    expect(Buffer.from(newKey).equals(Buffer.from(oldKey))).toBe(false);
    expect(JSON.parse(readFileSync(paths.contractsAnchorFile, 'utf8'))).toMatchObject({ v: 3, key_epoch: 2 });
    expect(JSON.parse(readFileSync(paths.consumptionAnchorFile, 'utf8'))).toMatchObject({ v: 3, key_epoch: 2 });

    await expect(openContracts(oldKey)).rejects.toMatchObject({ code: 'META_MAC' });
    await expect(openConsumption(oldKey)).rejects.toMatchObject({ code: 'META_MAC' });

    const store = await openContracts(newKey);
    expect(store.keyEpoch).toBe(2);
    expect(store.verifyAuditChain().ok).toBe(true);
    // The VERIFIED contract still rolls back: its snapshot decrypts under the new key.
    const exec = ExecutorContractStore.of(store);
    const c = store.load(contractId);
    const rolling = exec.beginRollback(c.contract_id, c.state_version);
    expect(JSON.stringify(exec.decryptProtectedArtifact(contractId, 'snapshot'))).toContain(SENTINEL_SNAPSHOT);
    exec.markRollbackVerified(rolling.contract_id, rolling.state_version, {
      verifiedTargetFingerprint: rolling.target_fingerprint,
      verifiedLifecycleLocator: rolling.lifecycle_locator,
    });
    store.close();
    const consumption = await openConsumption(newKey);
    expect(consumption.keyEpoch()).toBe(2);
    expect(consumption.isConsumed('auth-two', T0 - 5)).toBe(true);
    expect(consumption.tryConsume('auth-three', T0)).toBe(true);
    consumption.close();

    // A second rotation follows on: 2 → 3, and the store written after the first is re-keyed too.
    expect(await rotateMasterKey({ ...paths, clock })).toMatchObject({ oldEpoch: 2, newEpoch: 3 });
    const again = await openContracts();
    expect(again.keyEpoch).toBe(3);
    expect(again.load(contractId).state).toBe('ROLLED_BACK');
    again.close();
  });

  it('a store whose recorded epoch was changed is refused, naming the epoch (never used with a mixed epoch)', async () => {
    await populate();
    await rotateMasterKey({ ...paths, clock });
    const db = new Database(join(paths.storeDirectory, 'contracts.sqlite'));
    db.pragma('user_version = 1');
    db.close();
    await expect(openContracts()).rejects.toMatchObject({ code: 'META_MAC', message: expect.stringContaining('epoch 1') });
  });

  it('refuses while a contract is EXECUTING, writing nothing', async () => {
    const store = await openContracts();
    executing(store, contractInput({ target: 3 }));
    store.close();
    const before = readFileSync(paths.masterKeyFile);
    await expect(rotateMasterKey({ ...paths, clock })).rejects.toMatchObject({ name: 'KeyRotationError', code: 'WORK_IN_FLIGHT' });
    expect(readFileSync(paths.masterKeyFile).equals(before)).toBe(true);
    expect(stagedLeftovers()).toEqual([]);
  });

  it('a failure before the commit point removes everything staged; after it the next recovery completes', async () => {
    await populate();
    const before = readFileSync(paths.masterKeyFile);
    const failAt = (step: string) => ({
      [ROTATION_CRASH_HOOKS]: {
        at: (s: string) => {
          if (s === step) throw new Error('injected');
        },
      },
    });
    await expect(rotateMasterKey({ ...paths, clock, ...failAt('consumption-staged') })).rejects.toThrow('injected');
    expect(readFileSync(paths.masterKeyFile).equals(before)).toBe(true);
    expect(stagedLeftovers()).toEqual([]);
    expect(recoverMasterKeyRotation(paths)).toEqual({ action: 'none' });

    await expect(rotateMasterKey({ ...paths, clock, ...failAt('committed') })).rejects.toThrow('injected');
    expect(existsSync(paths.journalFile)).toBe(true);
    await expect(openContracts()).rejects.toMatchObject({ code: 'META_MAC' });
    expect(recoverMasterKeyRotation(paths)).toEqual({ action: 'completed', oldEpoch: 1, newEpoch: 2 });
    expect(stagedLeftovers()).toEqual([]);
    const store = await openContracts();
    expect(store.keyEpoch).toBe(2);
    store.close();
  });

  it('settling refuses a key that is neither of the journal, a malformed journal, and a staged file without a journal', async () => {
    await populate();
    const failAt = (step: string) => ({
      [ROTATION_CRASH_HOOKS]: {
        at: (s: string) => {
          if (s === step) throw new Error('injected');
        },
      },
    });
    await expect(rotateMasterKey({ ...paths, clock, ...failAt('committed') })).rejects.toThrow('injected');
    const journal = readFileSync(paths.journalFile);
    // A third key in master.key: nothing is guessed, nothing removed.
    const newKey = readFileSync(paths.masterKeyFile);
    unlinkSync(paths.masterKeyFile);
    writeMasterKeyFile(paths.masterKeyFile, generateMasterKey());
    expect(() => recoverMasterKeyRotation(paths)).toThrow(
      expect.objectContaining({ name: 'KeyRotationError', code: 'JOURNAL_KEY_MISMATCH' }),
    );
    expect(existsSync(join(paths.storeDirectory, 'consumption.sqlite.next'))).toBe(true);
    writeFileSync(paths.journalFile, '{"v":1,"phase":"later"}');
    expect(() => recoverMasterKeyRotation(paths)).toThrow(expect.objectContaining({ code: 'JOURNAL_CORRUPT' }));
    // The right key and journal back: it completes.
    writeFileSync(paths.journalFile, journal);
    unlinkSync(paths.masterKeyFile);
    writeFileSync(paths.masterKeyFile, newKey, { mode: 0o600 });
    expect(recoverMasterKeyRotation(paths)).toMatchObject({ action: 'completed' });
    // A staged file with no journal is refused before anything is written.
    writeFileSync(`${paths.masterKeyFile}.next`, 'x', { mode: 0o600 });
    await expect(rotateMasterKey({ ...paths, clock })).rejects.toMatchObject({ code: 'STALE_STAGED_FILE' });
    expect(existsSync(paths.journalFile)).toBe(false);
  });
});
