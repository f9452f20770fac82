import type { ArtifactCounts } from '@pfsense-mcp/coordinator';

/** A write directory's signed-file counts (counted by name) and whether leftovers piled up: the driver's own counts. */
export type WriteArtifactCounts = Pick<ArtifactCounts, 'inboxFiles' | 'outboxFiles' | 'pileUp'>;

/**
 * The output fields one write runtime's files and clock become — pfsense_mcp_info's for a single appliance and each
 * pfsense_list_appliances row's in a fleet: counts only, `false` and null without a runtime, the clock hold as ISO
 * 8601 UTC.
 */
export function writeRuntimeFieldsOf(artifacts: WriteArtifactCounts | null, clockBlockedUntil: number | null) {
  return {
    write_artifact_files: artifacts === null ? null : { inbox: artifacts.inboxFiles, outbox: artifacts.outboxFiles },
    write_artifacts_warning: artifacts?.pileUp ?? false,
    write_clock_blocked_until: clockBlockedUntil === null ? null : new Date(clockBlockedUntil).toISOString(),
  };
}
