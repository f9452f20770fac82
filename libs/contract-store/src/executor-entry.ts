// The executor-only entry of contract-store: '@pfsense-mcp/contract-store/executor'.
// Lint lets only libs/executor import it (docs/DESIGN.md §2).
export { ExecutorContractStore } from './executor-contract-store.js';
export type { ExecutorStoreOperations } from './executor-contract-store.js';
export type { VerifiedSeal } from './verified-seal.js';
export type { ReconciledContract } from './reconcile-interrupted.js';
