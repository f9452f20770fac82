import type { AliasDescriptionChangeInput, AliasDescriptionChangeResult } from './alias-description-execution-core.js';
import { AliasDescriptionExecutionCore } from './alias-description-execution-core.js';

/**
 * What the MCP server's tools/ folder may hold (docs/DESIGN.md §2): one method, no store, executor, key or
 * directory. The composition root builds the core and hands the tool this facade.
 */
export interface AliasDescriptionWriteFacade {
  requestAliasDescriptionChange(input: AliasDescriptionChangeInput): Promise<AliasDescriptionChangeResult>;
}

/** Wraps a core in a frozen facade exposing only requestAliasDescriptionChange. */
export function createAliasDescriptionWriteFacade(core: AliasDescriptionExecutionCore): AliasDescriptionWriteFacade {
  if (!(core instanceof AliasDescriptionExecutionCore)) {
    throw new TypeError('createAliasDescriptionWriteFacade: "core" must be an AliasDescriptionExecutionCore');
  }
  return Object.freeze({
    requestAliasDescriptionChange: (input: AliasDescriptionChangeInput) => core.requestAliasDescriptionChange(input),
  });
}
