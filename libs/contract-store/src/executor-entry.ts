// The executor-only entry of contract-store: '@pfsense-mcp/contract-store/executor'.
// Lint lets only libs/executor import it (ARCHITECTURE §2).
export { ExecutorContractStore } from './executor-contract-store.js';
export type { VerifiedSeal } from './executor-contract-store.js';
export type { ReconciledContract } from './store-core.js';
