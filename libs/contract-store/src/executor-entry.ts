// The executor-only entry of contract-store: '@pfsense-mcp/contract-store/executor'.
// Lint lets only libs/executor import it (docs/DESIGN.md §2).
export { ExecutorContractStore } from './transitions/executor-contract-store.js';
export type { RollbackAuthorizationUse } from './transitions/rollback-transitions.js';
export type { ExecutorStoreOperations } from './transitions/executor-contract-store.js';
export type { VerifiedSeal } from './integrity/verified-seal.js';
export type { ReconciledContract } from './transitions/reconcile-interrupted.js';
