import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { ExecutorContractStore } from '@pfsense-mcp/contract-store/executor';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { ConfigHistoryReadError, classifyConfigHistory, readConfigHistory, unreadableHistoryEvidence } from './config-history.js';
import type { ConfigHistoryEvidence, ConfigRevision } from './config-history.js';
import { ExecutorRefusalError } from './executor-refusal-error.js';
import type { ExecutorOperation } from './executor-refusal-error.js';

/** Where a failed capture is audited: the executor's store entry's refusal row. */
export type RefusalRowWriter = Pick<ExecutorContractStore, 'recordRefusal'>;

/**
 * The config-history capture, before any transition. A failed or malformed read is a refusal: audited as
 * CONFIG_HISTORY_<class> (value-free), nothing consumed, the same contract can be run again later.
 */
export async function captureConfigHistory(
  readClient: RestApiClient,
  audit: RefusalRowWriter,
  op: ExecutorOperation,
  contract: RecoveryContract,
): Promise<readonly ConfigRevision[]> {
  try {
    return await readConfigHistory(readClient);
  } catch (error) {
    const failureClass = error instanceof ConfigHistoryReadError ? error.failureClass : 'READ_FAILED';
    try {
      audit.recordRefusal({
        gate: `CONFIG_HISTORY_${failureClass}`,
        refusalClass: 'ANOMALY',
        operationId: contract.operation_id,
        contractId: contract.contract_id,
      });
    } catch {
      // The refusal stands even if its audit row cannot be written (the store refuses the same way next time).
    }
    throw new ExecutorRefusalError('CONFIG_HISTORY_UNAVAILABLE', op, contract.contract_id, { reason: failureClass });
  }
}

/** The read after the send, classified against the capture. A failed read is UNKNOWN evidence, never an error. */
export async function corroborateConfigHistory(
  readClient: RestApiClient,
  captured: readonly ConfigRevision[],
): Promise<ConfigHistoryEvidence> {
  try {
    return classifyConfigHistory(captured, await readConfigHistory(readClient));
  } catch {
    return unreadableHistoryEvidence(captured);
  }
}
