// The appliance-facing admin commands (`rollback`, `reconcile`, `release`): they build the server's own write
// runtime (runtime/write-runtime/open-write-runtime.ts) from the same PFSENSE_* environment, with the write_protected grants
// and --dir as the write directory, and act through it — never a second composition of the write path.
import { join } from 'node:path';
import { ContractNotFoundError } from '@pfsense-mcp/contract-store';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { CoordinatorRefusalError } from '@pfsense-mcp/coordinator';
import { ConfigError } from '../runtime/config/config-error.js';
import { KNOWN_TOOL_NAMES } from '../runtime/config/known-tool-names.js';
import { loadConfig } from '../runtime/config/load-config.js';
import type { ServerConfig } from '../runtime/config/load-config.js';
import { INVENTORY_VARIABLE } from '../runtime/config/load-inventory.js';
import { openWriteRuntime } from '../runtime/write-runtime/open-write-runtime.js';
import type { WriteRuntime } from '../runtime/write-runtime/open-write-runtime.js';
import { readApiKey } from '../runtime/config/read-api-key.js';
import { WriteGateError } from '../runtime/write-runtime/write-gate-error.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { contractIdOperand } from './open-admin-stores.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';

type RecoveryKind = 'reconciliation' | 'release';

async function withRuntime<T>(args: AdminArgs, ctx: AdminContext, f: (runtime: WriteRuntime) => Promise<T>): Promise<T> {
  // With an inventory the appliance is named, never guessed from --dir (select-appliance.ts gives its configuration).
  if (ctx.config === undefined && (ctx.env[INVENTORY_VARIABLE] ?? '') !== '') {
    throw AdminError.usage(`--appliance NAME: required with ${INVENTORY_VARIABLE} (the write runtime acts on one appliance)`);
  }
  const layout = openWriteDirectory(args, ctx);
  let runtime: WriteRuntime;
  try {
    const config: ServerConfig =
      ctx.config === undefined
        ? loadConfig({ ...ctx.env, PFSENSE_PROFILE: 'write_protected', PFSENSE_WRITE_DIR: layout.dir }, KNOWN_TOOL_NAMES)
        : Object.freeze({ ...ctx.config, profile: 'write_protected' });
    runtime = await openWriteRuntime({ config, readApiKey: readApiKey(config.apiKeyFile) });
  } catch (error) {
    // Which variable is missing or wrong, or which part of the write runtime could not be built: names and rules only.
    if (error instanceof ConfigError) throw new AdminError(`CONFIG_${error.code}`, error.message);
    if (error instanceof WriteGateError) throw new AdminError(`RUNTIME_${error.code}`, error.rule);
    throw error;
  }
  try {
    return await f(runtime);
  } finally {
    await runtime.drain();
    runtime.close();
  }
}

function load(runtime: WriteRuntime, contractId: string): RecoveryContract {
  try {
    return runtime.recovery.loadContract(contractId);
  } catch (error) {
    if (error instanceof ContractNotFoundError) throw new AdminError('UNKNOWN_CONTRACT', 'CONTRACT_ID: no contract has this id');
    throw error;
  }
}

function refused(what: string): AdminError {
  return new AdminError(
    'REFUSED',
    `CONTRACT_ID: the ${what} was refused (the audit has the gate; \`admin artifacts list\` shows blocking files)`,
  );
}

/**
 * A rollback that is itself a firewall change (undoing a block) waits for the operator's signed rollback
 * authorization (docs/DESIGN.md §5): the server-signed request goes into the outbox (and the exchange folder), the
 * signer command is printed, and the command exits 4; run again once the answer is installed, it rolls back.
 */
async function askForRollbackAuthorization(runtime: WriteRuntime, c: RecoveryContract): Promise<AdminResult> {
  let emitted;
  try {
    emitted = await runtime.recovery.emitRecoveryRequest(c.contract_id, 'rollback');
  } catch (error) {
    if (error instanceof CoordinatorRefusalError) throw refused('rollback request');
    throw error;
  }
  const path = join(runtime.layout.outboxDir, emitted.pendingRequest.file);
  const exchange = runtime.exchange?.requestPathOf(emitted.pendingRequest) ?? null;
  const dir = runtime.layout.dir;
  return adminResult(
    [
      `${emitted.alreadyPending ? 'already pending' : 'wrote'} ${path}`,
      ...(exchange === null ? [] : [`  and ${exchange} (the exchange folder)`]),
      `  ${c.contract_id} changed the firewall; undoing it does too, so the operator signs the rollback (confirmation key)`,
      exchange === null
        ? 'next: on the operator machine pfsense-mcp-signer sign FILE --key confirmation-….key --server-key server-request.pub --out DIR'
        : 'next: on the operator machine pfsense-mcp-signer approve REQUESTS_FOLDER --keys KEYS_DIR --server-key server-request.pub',
      `      then here: ${exchange === null ? `pfsense-mcp admin inbox add --dir ${dir} SIGNED_FILE; ` : ''}pfsense-mcp admin rollback --dir ${dir} ${c.contract_id}`,
    ],
    {
      contract_id: c.contract_id,
      state: c.state,
      pending_request: path,
      exchange_request: exchange,
      already_pending: emitted.alreadyPending,
      error: {
        code: 'ROLLBACK_AUTHORIZATION_REQUIRED',
        message: "CONTRACT_ID: the rollback waits for the operator's signed rollback authorization",
      },
    },
    4,
  );
}

/**
 * `admin rollback CONTRACT_ID`: the executor's rollback of a VERIFIED contract; exit 0 only when ROLLED_BACK, 4 while
 * a signed rollback waits for its authorization (the request is written then).
 */
export async function rollbackCommand(args: AdminArgs, ctx: AdminContext, operand: string): Promise<AdminResult> {
  const contractId = contractIdOperand(operand);
  return withRuntime(args, ctx, async (runtime) => {
    const before = load(runtime, contractId);
    if (before.state !== 'VERIFIED') throw new AdminError('WRONG_STATE', `CONTRACT_ID: is ${before.state}; rollback needs VERIFIED`);
    if (runtime.recovery.rollbackAwaitsAuthorization(contractId)) return askForRollbackAuthorization(runtime, before);
    let after: RecoveryContract;
    try {
      after = await runtime.recovery.rollback(contractId);
    } catch (error) {
      if (error instanceof CoordinatorRefusalError) throw refused('rollback');
      throw error;
    }
    const reason = after.last_outcome_class ?? 'NONE';
    const json = { contract_id: contractId, state: after.state, reason_class: reason };
    if (after.state === 'ROLLED_BACK') {
      // Plain words for the operator; the state and outcome class stay in --json.
      const what =
        before.capability === 'ALIAS_ENTRIES_WRITE' ? "the alias's entries are back as before, in pf too" : 'the old description is back';
      return adminResult([`rolled back ${contractId}: ${what} on the appliance (read back and checked)`], json);
    }
    const next =
      after.state === 'RECONCILIATION'
        ? '`admin reconcile emit`'
        : after.state === 'ROLLBACK_FAILED'
          ? '`admin release emit`'
          : '`admin status`';
    return adminResult(
      [`rollback of ${contractId} ended ${after.state} (${reason}); next: ${next}`],
      { ...json, error: { code: `ROLLBACK_${after.state}`, message: `CONTRACT_ID: the rollback ended ${after.state} (${reason})` } },
      1,
    );
  });
}

/** `admin reconcile|release emit CONTRACT_ID`: a fresh observation and a server-signed request in the outbox. */
export async function emitCommand(args: AdminArgs, ctx: AdminContext, operand: string, kind: RecoveryKind): Promise<AdminResult> {
  const contractId = contractIdOperand(operand);
  return withRuntime(args, ctx, async (runtime) => {
    const c = load(runtime, contractId);
    const wanted = kind === 'release' ? 'ROLLBACK_FAILED' : 'RECONCILIATION';
    if (c.state !== wanted)
      throw new AdminError('WRONG_STATE', `CONTRACT_ID: is ${c.state}; ${kind === 'release' ? 'release' : 'reconcile'} needs ${wanted}`);
    let emitted;
    try {
      emitted = await runtime.recovery.emitRecoveryRequest(contractId, kind);
    } catch (error) {
      if (error instanceof CoordinatorRefusalError) throw refused(`${kind} request`);
      throw error;
    }
    const path = join(runtime.layout.outboxDir, emitted.pendingRequest.file);
    const sign =
      kind === 'release'
        ? 'pfsense-mcp-signer sign FILE --key reconciliation-….key --server-key server-request.pub --out DIR'
        : 'pfsense-mcp-signer sign FILE --key reconciliation-….key --server-key server-request.pub --outcome APPLIED|NOT_APPLIED --out DIR';
    return adminResult(
      [
        `${emitted.alreadyPending ? 'already pending' : 'wrote'} ${path}`,
        `  state ${c.state} v${c.state_version}${kind === 'reconciliation' && c.reconciliation !== null ? `, origin ${c.reconciliation.origin}` : ''}`,
        `next: on the operator machine ${sign}`,
        `      then here: pfsense-mcp admin inbox add --dir DIR SIGNED_FILE; pfsense-mcp admin ${kind === 'release' ? 'release' : 'reconcile'} resume --dir DIR ${contractId}`,
      ],
      { contract_id: contractId, state: c.state, pending_request: path, already_pending: emitted.alreadyPending },
    );
  });
}

/** `admin reconcile|release resume CONTRACT_ID`: the operator-signed evidence in the inbox resolves it; zero sends. */
export async function resumeCommand(args: AdminArgs, ctx: AdminContext, operand: string, kind: RecoveryKind): Promise<AdminResult> {
  const contractId = contractIdOperand(operand);
  return withRuntime(args, ctx, async (runtime) => {
    const c = load(runtime, contractId);
    const wanted = kind === 'release' ? 'ROLLBACK_FAILED' : 'RECONCILIATION';
    if (c.state !== wanted)
      throw new AdminError('WRONG_STATE', `CONTRACT_ID: is ${c.state}; ${kind === 'release' ? 'release' : 'reconcile'} needs ${wanted}`);
    let after: RecoveryContract;
    try {
      after = runtime.recovery.resumeRecovery(contractId, kind);
    } catch (error) {
      if (error instanceof CoordinatorRefusalError) {
        throw new AdminError(
          'REFUSED',
          `CONTRACT_ID: no single valid signed ${kind} for this contract's state in the inbox (\`admin artifacts list\`)`,
        );
      }
      throw error;
    }
    return adminResult(
      [
        `resolved ${contractId}: ${c.state} → ${after.state}${kind === 'release' ? ' (reservation released)' : ''}; nothing was sent to the appliance`,
      ],
      {
        contract_id: contractId,
        from_state: c.state,
        state: after.state,
        ...(kind === 'release' ? { reservation_released: after.reservation_release !== null } : {}),
      },
    );
  });
}
