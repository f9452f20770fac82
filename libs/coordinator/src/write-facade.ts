import type { ChangeResult } from './change-result.js';
import type { WriteOperationsPage, WriteOperationsQuery } from './write-operations-view.js';

/** Artifact files in the inbox and outbox, counted by name, and whether they piled up (WRITE_REQUEST_LIMITS). */
export interface ArtifactCounts {
  readonly inboxFiles: number;
  readonly outboxFiles: number;
  readonly pileUp: boolean;
  /**
   * With an exchange folder (set by the composition root's exchange facade, never by the driver): the files of
   * its answers/ that were not installed, counted only (`admin status` names them), and whether a private key
   * found in it stopped the pickup.
   */
  readonly exchangeInvalidFiles?: number;
  readonly exchangeStopped?: boolean;
}

/**
 * The one interface the write path is held through (docs/DESIGN.md §2), and all the MCP server's tools/
 * folder may hold: the change request of a registered capability (wire-named input), the read-only operations
 * view and the leftover counts — no store, executor, key or directory. OperationDriver implements it; the
 * composition root hands the tools a frozen object with exactly these three methods.
 */
export interface WriteFacade {
  requestChange(capability: string, input: unknown): Promise<ChangeResult>;
  listWriteOperations(query: WriteOperationsQuery): WriteOperationsPage;
  artifactCounts(): ArtifactCounts;
}
