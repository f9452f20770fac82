// Public API of executor: the sealed MutationExecutor (docs/DESIGN.md §4), its outcome and refusal types,
// and the pure send-classification functions it applies (exported so the table can be tested directly).
export { MutationExecutor } from './mutation-executor.js';
export type { ExecuteArgs, MutationExecutorOptions, RollbackArgs } from './mutation-executor.js';
export type { RollbackAuthorizationUse } from '@pfsense-mcp/contract-store/executor';
export type { ExecutionOutcome, ReconciliationObservation } from './execution-outcome.js';
export type { PfTableObservation } from './filter-apply.js';
export { EffectKnowledge, EFFECT_KNOWLEDGE_VALUES } from './effect-knowledge.js';
export { ExecutorRefusalError } from './executor-refusal-error.js';
export type { ExecutorOperation, ExecutorRefusalCode } from './executor-refusal-error.js';
export { classifySendError } from './classify-send-error.js';
export { classifySendResponse } from './classify-send-response.js';
export type { ResponseAcceptor } from './classify-send-response.js';
export type { SendClassification } from './send-classification.js';
export { checkAdapter } from './check-adapter.js';
export type { AnyCapabilityAdapter, CheckedAdapter } from './check-adapter.js';
export {
  ALIAS_UPDATE_CHANGE_NOTE,
  CONFIG_HISTORY_REVISIONS_PATH,
  ConfigHistoryReadError,
  classifyConfigHistory,
  configHistoryEvidenceDigest,
  configHistoryRecordOf,
  readConfigHistory,
} from './config-history.js';
export type {
  ConfigHistoryClass,
  ConfigHistoryEvidence,
  ConfigHistoryFailureClass,
  ConfigHistoryUnknownReason,
  ConfigRevision,
} from './config-history.js';
