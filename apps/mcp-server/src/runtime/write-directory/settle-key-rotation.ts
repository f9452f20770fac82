// Every opener of the write directory settles an interrupted `admin rotate master-key` first (contract-store
// README "Rotating the master key"; docs/OPERATIONS.md "Rotating the master key"): the journal decides whether
// the staged files are dropped (the commit point was not reached) or moved into place (it was).
import { readRotationJournal, recoverMasterKeyRotation } from '@pfsense-mcp/contract-store';
import type { MasterKeyRotationPaths, RotationRecovery } from '@pfsense-mcp/contract-store';
import { WriteDirectoryError } from './write-directory-error.js';
import type { WriteDirectoryLayout } from './write-directory-layout.js';
import { beginMaintenance, maintenanceInProgress } from './write-directory-lock.js';

/** The files a master-key rotation of this write directory touches. */
export function rotationPathsOf(layout: WriteDirectoryLayout): MasterKeyRotationPaths {
  return Object.freeze({
    masterKeyFile: layout.masterKeyFile,
    journalFile: layout.rotationJournalFile,
    storeDirectory: layout.storeDir,
    contractsAnchorFile: layout.contractsAnchorFile,
    consumptionAnchorFile: layout.consumptionAnchorFile,
  });
}

/**
 * No journal: nothing to do (no lock taken). A journal while a live process holds the maintenance lock: that
 * rotation is still running, refused. Otherwise the rotation was interrupted: it is settled under the
 * maintenance lock (refused while another server lives on DIR).
 */
export function settleInterruptedRotation(layout: WriteDirectoryLayout): RotationRecovery {
  if (readRotationJournal(layout.rotationJournalFile) === null) return { action: 'none' };
  if (maintenanceInProgress(layout)) {
    throw new WriteDirectoryError(
      'IN_USE',
      layout.maintenanceLockFile,
      '`pfsense-mcp admin rotate master-key` is running on this write directory; wait for it to end',
    );
  }
  const held = beginMaintenance(layout, 'rotate master-key');
  try {
    return recoverMasterKeyRotation(rotationPathsOf(layout));
  } finally {
    held.release();
  }
}
