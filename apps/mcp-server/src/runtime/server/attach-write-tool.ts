// Loaded after the opening reply (`initialize` or `server/discover`), with the READ tools: the write runtime opens SQLite files and the HTTP
// stack, which no client needs before its first tools/list. The runtime, the stores and the two write tools are
// imported only once the static gates pass, so a server that serves no write (auditor) never evaluates them
// (docs/DESIGN.md §8).
import { Capability, isRuntimeEnabled } from '@pfsense-mcp/policy';
import { ALIAS_ENTRIES_TOOL_NAME, WRITE_OPERATIONS_TOOL_NAME, WRITE_TOOL_NAME } from '../../tools/write-tool-name.js';
import type { ServerFactory } from './create-server-factory.js';
import type { Logger } from '../startup/create-logger.js';
import { evaluateStaticWriteGates } from '../write-runtime/evaluate-write-gates.js';
import type { ServerConfig } from '../config/load-config.js';
import { usesInventory } from '../config/appliances-of.js';
import type { OpenWriteRuntimeOptions, WriteRuntime } from '../write-runtime/open-write-runtime.js';
import { writeCapabilityGatesOf } from '../write-runtime/write-capability-gates.js';
import type { WriteCapabilityGates } from '../write-runtime/write-capability-gates.js';
import { WriteGateError } from '../write-runtime/write-gate-error.js';

export interface WriteAttachment {
  /** The constructed runtime (the tool is registered), or null. */
  readonly runtime: WriteRuntime | null;
  /** Why the tool is absent although the write was asked for, or null. */
  readonly absent: WriteGateError | null;
}

/** The write runtime opened (or not) before any MCP server exists: what attachOpenedWriteTool registers. */
export interface OpenedWriteTool extends WriteAttachment {
  /** The write tools that will be registered, in registration order (empty when the runtime is absent). */
  readonly names: readonly string[];
  readonly allowListed: boolean;
  /** Each write capability's static gates (pfsense_mcp_info reports them, with whether its tool is registered). */
  readonly capabilities: readonly WriteCapabilityGates[];
}

export type WriteToolOptions = Partial<Pick<OpenWriteRuntimeOptions, 'clock' | 'transportLimits'>> & {
  /** Test seam: a build whose WriteEndpoints lacks the alias PATCH (this build always has it). */
  readonly allowListed?: () => boolean;
};

/**
 * Decides the write tool's gates: independently, the profile grants ALIAS_WRITE, the alias PATCH is in
 * WriteEndpoints and the write runtime was fully constructed. Needs no MCP server, so the server can decide (and
 * list) the write tools before it loads the SDK. When the write was asked for but a gate fails, one stderr JSON line
 * names the failed gate and rule.
 */
export async function openWriteTool(
  config: ServerConfig,
  readApiKey: string,
  logger: Logger,
  options: WriteToolOptions = {},
): Promise<OpenedWriteTool> {
  const { allowListed, ...runtimeOptions } = options;
  const gates = evaluateStaticWriteGates(
    config.profile,
    config.allowedTools,
    config.write,
    allowListed,
    config.toolsets,
    !usesInventory(config),
  );
  const capabilities = writeCapabilityGatesOf(config.profile, config.write, gates);
  const absent = (failure: WriteGateError | null): OpenedWriteTool => {
    if (failure !== null && gates.requested)
      logger.log('warn', 'write_tool_absent', { gate: failure.gate, code: failure.code, rule: failure.rule });
    return Object.freeze({
      runtime: null,
      absent: failure !== null && gates.requested ? failure : null,
      names: [],
      allowListed: gates.allowListed,
      capabilities,
    });
  };
  if (gates.failure !== null) return absent(gates.failure);
  // The allow-list removed both tools on purpose: nothing to open, nothing failed.
  if (!gates.selected && !gates.entriesSelected && !gates.operationsSelected) return absent(null);
  const { openWriteRuntime } = await import('../write-runtime/open-write-runtime.js');
  let runtime: WriteRuntime;
  try {
    runtime = await openWriteRuntime({ config, readApiKey, ...runtimeOptions });
  } catch (error) {
    if (error instanceof WriteGateError) return absent(error);
    throw error;
  }
  const names = [
    ...(gates.selected ? [WRITE_TOOL_NAME] : []),
    ...(gates.entriesSelected ? [ALIAS_ENTRIES_TOOL_NAME] : []),
    ...(gates.operationsSelected ? [WRITE_OPERATIONS_TOOL_NAME] : []),
  ];
  logger.log('info', 'write_runtime_ready', { reconciled: runtime.reconciledAtStart, expired: runtime.expiredAtStart });
  warnOnLeftovers(runtime, logger);
  return Object.freeze({ runtime, absent: null, names: Object.freeze(names), allowListed: gates.allowListed, capabilities });
}

/** Registers the write tools an openWriteTool result names on every instance of the factory (either protocol era). */
export async function attachOpenedWriteTool(
  factory: ServerFactory,
  opened: OpenedWriteTool,
  config: ServerConfig,
): Promise<WriteAttachment> {
  factory.writeCapabilities = opened.capabilities;
  const runtime = opened.runtime;
  if (runtime === null) return Object.freeze({ runtime: null, absent: opened.absent });
  const paths = {
    writeDirectory: runtime.layout.dir,
    outboxDirectory: runtime.layout.outboxDir,
    serverPublicKeyFile: runtime.layout.serverRequestPublicKeyFile,
    exchangeRequestsDirectory: runtime.exchange?.layout.requestsDir ?? null,
  };
  const [{ registerWriteTool }, { registerWriteOperationsTool }, { registerAliasEntriesTool }] = await Promise.all([
    import('../../tools/register-write-tool.js'),
    import('../../tools/register-write-operations-tool.js'),
    import('../../tools/register-alias-entries-tool.js'),
  ]);
  // Every instance of the factory (either protocol era) gets the tools, all of them backed by the one runtime.
  if (opened.names.includes(WRITE_TOOL_NAME)) {
    factory.names.add(WRITE_TOOL_NAME);
    factory.writeNames.add(WRITE_TOOL_NAME);
    factory.attach((server) => registerWriteTool(server, runtime.facade, paths, runtime.awaitAnswer));
    factory.write.runtimeEnabled = isRuntimeEnabled(Capability.ALIAS_WRITE, {
      profile: config.profile,
      writeRuntimeReady: true,
      endpointAllowListed: opened.allowListed,
    });
  }
  // The entries tool: the same runtime, its own capability (opted in with PFSENSE_WRITE_CAPABILITIES).
  if (opened.names.includes(ALIAS_ENTRIES_TOOL_NAME)) {
    factory.names.add(ALIAS_ENTRIES_TOOL_NAME);
    factory.writeNames.add(ALIAS_ENTRIES_TOOL_NAME);
    factory.attach((server) => registerAliasEntriesTool(server, runtime.facade, paths, runtime.awaitAnswer));
  }
  // The operations view: same three gates (it exists only with a constructed write runtime), read-only.
  if (opened.names.includes(WRITE_OPERATIONS_TOOL_NAME)) {
    factory.names.add(WRITE_OPERATIONS_TOOL_NAME);
    factory.attach((server) => registerWriteOperationsTool(server, runtime.facade, paths));
  }
  factory.writeArtifacts = () => runtime.facade.artifactCounts();
  factory.writeClockBlockedUntil = () => runtime.clockBlockedUntil();
  return Object.freeze({ runtime, absent: null });
}

/**
 * Registers pfsense_set_firewall_alias_description when, independently, the profile grants ALIAS_WRITE, the
 * alias PATCH is in WriteEndpoints and the write runtime was fully constructed (openWriteTool, then
 * attachOpenedWriteTool). Otherwise the tool is absent, READ keeps serving, and (when the write was asked for) one
 * stderr JSON line names the failed gate and rule.
 */
export async function attachWriteTool(
  factory: ServerFactory,
  config: ServerConfig,
  readApiKey: string,
  logger: Logger,
  options: WriteToolOptions = {},
): Promise<WriteAttachment> {
  return attachOpenedWriteTool(factory, await openWriteTool(config, readApiKey, logger, options), config);
}

/** One start-up warning (counts only) when the inbox and outbox hold many files; they never stop the write. */
function warnOnLeftovers(runtime: WriteRuntime, logger: Logger): void {
  try {
    const counts = runtime.facade.artifactCounts();
    if (counts.pileUp) logger.log('warn', 'write_artifacts_piled_up', { inboxFiles: counts.inboxFiles, outboxFiles: counts.outboxFiles });
  } catch {
    // The directories were checked while building the runtime; a failure here is reported by the next call.
  }
}
