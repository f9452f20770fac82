import type Database from 'better-sqlite3';

/** One `contracts` row as SQLite returns it (the record bytes and their MAC; the rest are index columns). */
export interface ContractRow {
  contract_id: string;
  operation_id: string;
  authorization_id: string;
  target_identity_digest: string;
  state: string;
  state_version: number;
  expires_at: number;
  terminal_at: number | null;
  record: Buffer;
  mac: Buffer;
}

/** One `target_reservations` row. */
export interface ReservationRow {
  target_identity_digest: string;
  contract_id: string;
  acquired_at: number;
  mac: Buffer;
}

/** The contract store's prepared statements, compiled once per open database. */
export type StoreStatements = ReturnType<typeof prepareStoreStatements>;

export function prepareStoreStatements(db: Database.Database) {
  return Object.freeze({
    head: db.prepare('SELECT sequence, mac FROM audit_events ORDER BY sequence DESC LIMIT 1'),
    macAt: db.prepare('SELECT mac FROM audit_events WHERE sequence = ?'),
    auditFrom: db.prepare('SELECT sequence, contract_id, body, mac FROM audit_events WHERE sequence > ? ORDER BY sequence'),
    // One value per page instead of four per row (walk-audit-chain.ts): the row count, how many rows are
    // not (text, blob, 32-byte blob), "sequence,contract bytes,body bytes" per row, and every row's
    // mac ‖ contract_id ‖ body concatenated in the same order. octet_length (SQLite 3.43; better-sqlite3 is
    // pinned) counts the id's bytes without the copy a CAST to BLOB makes — a sixth of the walk's time.
    auditPage: db
      .prepare(
        `SELECT count(*),
           sum(typeof(contract_id) <> 'text' OR typeof(body) <> 'blob' OR typeof(mac) <> 'blob' OR length(mac) <> 32),
           group_concat(sequence || ',' || octet_length(contract_id) || ',' || octet_length(body), ','),
           CAST(group_concat(mac || contract_id || body, '') AS BLOB)
         FROM audit_events WHERE sequence > ? AND sequence <= ?`,
      )
      .raw(true),
    insertAudit: db.prepare('INSERT INTO audit_events (sequence, contract_id, body, mac) VALUES (?, ?, ?, ?)'),
    auditList: db.prepare(
      `SELECT a.sequence, a.contract_id, a.body, a.mac, p.mac AS previous_mac FROM audit_events a
         LEFT JOIN audit_events p ON p.sequence = a.sequence - 1
         WHERE (? IS NULL OR a.contract_id = ?) AND a.sequence > ? ORDER BY a.sequence LIMIT ?`,
    ),
    getContract: db.prepare('SELECT * FROM contracts WHERE contract_id = ?'),
    allContracts: db.prepare('SELECT * FROM contracts ORDER BY contract_id'),
    allArtifacts: db.prepare('SELECT contract_id, purpose, envelope FROM protected_artifacts ORDER BY contract_id, purpose'),
    insertContract: db.prepare(
      `INSERT INTO contracts (contract_id, operation_id, authorization_id, target_identity_digest, state, state_version,
         expires_at, terminal_at, record, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateContract: db.prepare(
      `UPDATE contracts SET state = ?, state_version = ?, expires_at = ?, terminal_at = ?, record = ?, mac = ?
         WHERE contract_id = ? AND state_version = ?`,
    ),
    // The same CAS update naming only what changed (contract-rows.ts writeContract): SQLite rewrites the
    // entries of every index over a column in the SET list, changed or not.
    updateContractState: db.prepare(
      'UPDATE contracts SET state = ?, state_version = ?, record = ?, mac = ? WHERE contract_id = ? AND state_version = ?',
    ),
    updateContractRecord: db.prepare(
      'UPDATE contracts SET state_version = ?, record = ?, mac = ? WHERE contract_id = ? AND state_version = ?',
    ),
    byAuthorization: db.prepare('SELECT contract_id FROM contracts WHERE authorization_id = ?'),
    openByOperation: db.prepare(
      `SELECT contract_id FROM contracts WHERE operation_id = ? AND state NOT IN ('FAILED','ROLLED_BACK','ROLLBACK_FAILED','EXPIRED')`,
    ),
    expirable: db.prepare(`SELECT * FROM contracts WHERE state IN ('PREPARING','PREPARED') AND expires_at <= ? ORDER BY contract_id`),
    inFlight: db.prepare(`SELECT * FROM contracts WHERE state IN ('EXECUTING','ROLLING_BACK') ORDER BY contract_id`),
    purgeable: db.prepare('SELECT * FROM contracts WHERE terminal_at IS NOT NULL AND terminal_at <= ? ORDER BY contract_id'),
    holdersOfTarget: db.prepare(
      `SELECT contract_id FROM contracts WHERE target_identity_digest = ?
         AND state IN ('EXECUTING','ROLLING_BACK','RECONCILIATION','ROLLBACK_FAILED') AND contract_id <> ?`,
    ),
    insertArtifact: db.prepare('INSERT INTO protected_artifacts (contract_id, purpose, envelope) VALUES (?, ?, ?)'),
    getArtifact: db.prepare('SELECT envelope FROM protected_artifacts WHERE contract_id = ? AND purpose = ?'),
    zeroArtifacts: db.prepare('UPDATE protected_artifacts SET envelope = zeroblob(length(envelope)) WHERE contract_id = ?'),
    deleteArtifacts: db.prepare('DELETE FROM protected_artifacts WHERE contract_id = ?'),
    getReservation: db.prepare(
      'SELECT target_identity_digest, contract_id, acquired_at, mac FROM target_reservations WHERE target_identity_digest = ?',
    ),
    allReservations: db.prepare('SELECT target_identity_digest, contract_id, acquired_at, mac FROM target_reservations'),
    insertReservation: db.prepare(
      'INSERT INTO target_reservations (target_identity_digest, contract_id, acquired_at, mac) VALUES (?, ?, ?, ?)',
    ),
    deleteReservation: db.prepare('DELETE FROM target_reservations WHERE target_identity_digest = ? AND contract_id = ?'),
  });
}
