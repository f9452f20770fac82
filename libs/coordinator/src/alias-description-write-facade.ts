import type { AliasDescriptionChangeInput, AliasDescriptionChangeResult } from './alias-description-change.js';
import { AliasDescriptionOperationDriver } from './alias-description-operation-driver.js';
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
 * builds the driver and hands the tools this facade.
 */
export interface AliasDescriptionWriteFacade {
  requestAliasDescriptionChange(input: AliasDescriptionChangeInput): Promise<AliasDescriptionChangeResult>;
  listWriteOperations(query: WriteOperationsQuery): WriteOperationsPage;
  artifactCounts(): ArtifactCounts;
}

/** Wraps a driver in a frozen facade exposing only those three methods. */
export function createAliasDescriptionWriteFacade(driver: AliasDescriptionOperationDriver): AliasDescriptionWriteFacade {
  if (!(driver instanceof AliasDescriptionOperationDriver)) {
    throw new TypeError('createAliasDescriptionWriteFacade: "driver" must be an AliasDescriptionOperationDriver');
  }
  return Object.freeze({
    requestAliasDescriptionChange: (input: AliasDescriptionChangeInput) => driver.requestAliasDescriptionChange(input),
    listWriteOperations: (query: WriteOperationsQuery) => driver.listWriteOperations(query),
    artifactCounts: () => driver.artifactCounts(),
  });
}
