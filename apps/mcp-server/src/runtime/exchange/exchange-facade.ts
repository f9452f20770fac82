import type { ArtifactCounts, WriteFacade } from '@pfsense-mcp/coordinator';
import type { ExchangeFolder } from './exchange-folder.js';

/**
 * The write facade with the exchange folder in front (docs/DESIGN.md §6): each change request first picks up the
 * verified answers of answers/ into the inbox, then asks the driver, then copies the pending authorization or
 * confirmation request it answers with into requests/. The driver never sees the folder.
 */
export function withExchange(inner: WriteFacade, exchange: ExchangeFolder): WriteFacade {
  return Object.freeze({
    requestChange: async (capability: string, input: unknown) => {
      exchange.pickup();
      const result = await inner.requestChange(capability, input);
      exchange.mirror(result.pendingRequest);
      return result;
    },
    listWriteOperations: (query: Parameters<WriteFacade['listWriteOperations']>[0]) => inner.listWriteOperations(query),
    artifactCounts: (): ArtifactCounts => {
      const report = exchange.report();
      return Object.freeze({
        ...inner.artifactCounts(),
        exchangeInvalidFiles: report.invalidFiles,
        exchangeStopped: report.stopped !== null,
      });
    },
  });
}
