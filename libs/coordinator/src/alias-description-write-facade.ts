import type { AliasDescriptionChangeInput, AliasDescriptionChangeResult } from './alias-description-execution-core.js';
import { AliasDescriptionExecutionCore } from './alias-description-execution-core.js';
import type { WriteOperationsPage, WriteOperationsQuery } from './write-operations-view.js';

/** Artifact files in the inbox and outbox, counted by name, and whether they piled up (WRITE_REQUEST_LIMITS). */
export interface ArtifactCounts {
  readonly inboxFiles: number;
  readonly outboxFiles: number;
  readonly pileUp: boolean;
}

/**
 * What the MCP server's tools/ folder may hold (docs/DESIGN.md §2): the change request, the read-only
 * operations view and the leftover counts — no store, executor, key or directory. The composition root
 * builds the core and hands the tools this facade.
 */
export interface AliasDescriptionWriteFacade {
  requestAliasDescriptionChange(input: AliasDescriptionChangeInput): Promise<AliasDescriptionChangeResult>;
  listWriteOperations(query: WriteOperationsQuery): WriteOperationsPage;
  artifactCounts(): ArtifactCounts;
}

/** Wraps a core in a frozen facade exposing only those three methods. */
export function createAliasDescriptionWriteFacade(core: AliasDescriptionExecutionCore): AliasDescriptionWriteFacade {
  if (!(core instanceof AliasDescriptionExecutionCore)) {
    throw new TypeError('createAliasDescriptionWriteFacade: "core" must be an AliasDescriptionExecutionCore');
  }
  return Object.freeze({
    requestAliasDescriptionChange: (input: AliasDescriptionChangeInput) => core.requestAliasDescriptionChange(input),
    listWriteOperations: (query: WriteOperationsQuery) => core.listWriteOperations(query),
    artifactCounts: () => core.artifactCounts(),
  });
}
