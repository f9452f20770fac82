// Loaded after the opening reply (`initialize` or `server/discover`), with the READ tools: the write runtime opens SQLite files and the HTTP
// stack, which no client needs before its first tools/list. The runtime, the stores and the two write tools are
// imported only once the static gates pass, so a server that serves no write (auditor) never evaluates them
// (docs/DESIGN.md §8).
import { Capability, isRuntimeEnabled } from '@pfsense-mcp/policy';
import { ALIAS_ENTRIES_TOOL_NAME, WRITE_OPERATIONS_TOOL_NAME, WRITE_TOOL_NAME } from '../../tools/write-tool-name.js';
import type { ApplianceWrites, ServerFactory } from './create-server-factory.js';
import { OneRuntimePerAppliance, SAME_APPLIANCE } from './one-runtime-per-appliance.js';
import type { Logger } from '../startup/create-logger.js';
import { evaluateStaticWriteGates } from '../write-runtime/evaluate-write-gates.js';
import type { ServerConfig } from '../config/load-config.js';
import { appliancesOf, usesInventory } from '../config/appliances-of.js';
import { writeAppliancesOf } from '../config/write-config-of.js';
import type { WriteTarget, WriteTargets } from '../../tools/write-targets.js';
import type { OpenWriteRuntimeOptions, WriteRuntime } from '../write-runtime/open-write-runtime.js';
import { mergedCapabilityGates, writeCapabilityGatesOf } from '../write-runtime/write-capability-gates.js';
import type { WriteCapabilityGates } from '../write-runtime/write-capability-gates.js';
import { WriteGate, WriteGateError } from '../write-runtime/write-gate-error.js';

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
  // `config` is one appliance's (writeAppliancesOf): an inventory appliance's is writeConfigOf's, of that entry alone.
  const gates = evaluateStaticWriteGates(config.profile, config.allowedTools, config.write, allowListed, config.toolsets);
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

/**
 * The write runtimes of every appliance that takes writes (docs/DESIGN.md §8): without an inventory the one
 * appliance's; with one, each entry with write_dir, each opened on its own (one appliance's store refused at
 * open leaves the others writable).
 */
export interface OpenedWriteTools {
  /** Every inventory name, in order; null without an inventory (the tools then take no `appliance`). */
  readonly appliances: readonly string[] | null;
  /** Each write appliance's opened tools, by name, in inventory order. */
  readonly byAppliance: ReadonlyMap<string, OpenedWriteTool>;
  /** The write tools registered: those any appliance's runtime offers, in registration order. */
  readonly names: readonly string[];
}

/** The rule of a SAME_APPLIANCE refusal (fixed words: which entry holds the same id is said by the other line). */
const SAME_APPLIANCE_RULE = 'another inventory entry with write_dir is the same appliance (its id); give each appliance one entry';

const TOOL_ORDER = [WRITE_TOOL_NAME, ALIAS_ENTRIES_TOOL_NAME, WRITE_OPERATIONS_TOOL_NAME] as const;

/**
 * Opens the write runtime of each appliance that takes writes (writeAppliancesOf), one after the other, each from
 * its own configuration (writeConfigOf) and read key. With an inventory every log line names the appliance.
 */
export async function openWriteTools(
  config: ServerConfig,
  keys: ReadonlyMap<string, string>,
  logger: Logger,
  options: WriteToolOptions = {},
): Promise<OpenedWriteTools> {
  const inventory = usesInventory(config);
  const byAppliance = new Map<string, OpenedWriteTool>();
  for (const { name, config: own } of writeAppliancesOf(config)) {
    const named: Logger = inventory
      ? { ...logger, log: (level, event, fields) => logger.log(level, event, { ...fields, appliance: name }) }
      : logger;
    byAppliance.set(name, await openWriteTool(own, keys.get(name) ?? '', named, options));
  }
  const offered = new Set([...byAppliance.values()].flatMap((o) => o.names));
  return Object.freeze({
    appliances: inventory ? Object.freeze(appliancesOf(config).map((a) => a.name)) : null,
    byAppliance,
    names: Object.freeze(TOOL_ORDER.filter((n) => offered.has(n))),
  });
}

/**
 * One inventory appliance's write state for pfsense_list_appliances: enabled when its runtime opened and nothing
 * refused it since (`refused`, e.g. SAME_APPLIANCE), with its own counts and clock — several runtimes are never
 * summed into pfsense_mcp_info's single-runtime fields.
 */
function applianceWritesOf(one: OpenedWriteTool, refused: string | null): ApplianceWrites {
  const runtime = one.runtime;
  return Object.freeze({
    enabled: runtime !== null && refused === null,
    refused: refused ?? one.absent?.code ?? null,
    artifacts: runtime === null ? null : () => runtime.facade.artifactCounts(),
    clockBlockedUntil: runtime === null ? null : () => runtime.clockBlockedUntil(),
  });
}

/** The runtimes opened (for drain and close at shutdown). */
export function openedRuntimes(opened: OpenedWriteTools): readonly WriteRuntime[] {
  return [...opened.byAppliance.values()].flatMap((o) => (o.runtime === null ? [] : [o.runtime]));
}

/** The targets one write tool reaches: each appliance whose runtime offers it (its changes admitted by `guard`). */
function targetsOf(opened: OpenedWriteTools, tool: string, guard: OneRuntimePerAppliance | null): WriteTargets {
  const byAppliance = new Map<string, WriteTarget>();
  for (const [name, one] of opened.byAppliance) {
    const runtime = one.runtime;
    if (runtime === null || !one.names.includes(tool)) continue;
    byAppliance.set(
      name,
      Object.freeze({
        facade: guard === null ? runtime.facade : guard.guard(name, runtime.facade, () => runtime.readApplianceId()),
        awaitAnswer: runtime.awaitAnswer,
        paths: {
          writeDirectory: runtime.layout.dir,
          outboxDirectory: runtime.layout.outboxDir,
          serverPublicKeyFile: runtime.layout.serverRequestPublicKeyFile,
          exchangeRequestsDirectory: runtime.exchange?.layout.requestsDir ?? null,
        },
      }),
    );
  }
  return Object.freeze({ appliances: opened.appliances, byAppliance });
}

/**
 * Registers the write tools an openWriteTools result names on every instance of the factory (either protocol era).
 * Two write appliances found to be one are refused later, in the background: each gets the `write_tool_absent` line
 * openWriteTool writes for a gate that failed at open, naming it and SAME_APPLIANCE.
 */
export async function attachOpenedWriteTools(
  factory: ServerFactory,
  opened: OpenedWriteTools,
  config: ServerConfig,
  logger: Logger,
): Promise<void> {
  factory.writeCapabilities = mergedCapabilityGates([...opened.byAppliance.values()].map((o) => o.capabilities));
  let guard: OneRuntimePerAppliance | null = null;
  if (opened.appliances !== null) {
    const writes = new Map<string, ApplianceWrites>([...opened.byAppliance].map(([name, one]) => [name, applianceWritesOf(one, null)]));
    factory.applianceWrites = writes;
    const opens = [...opened.byAppliance].flatMap(([name, one]) => (one.runtime === null ? [] : [{ name, runtime: one.runtime }]));
    if (opens.length > 1) {
      const g = new OneRuntimePerAppliance((name) => {
        const one = opened.byAppliance.get(name);
        if (one !== undefined) writes.set(name, applianceWritesOf(one, SAME_APPLIANCE));
        logger.log('warn', 'write_tool_absent', {
          gate: WriteGate.RUNTIME,
          code: SAME_APPLIANCE,
          rule: SAME_APPLIANCE_RULE,
          appliance: name,
        });
      });
      // Each write appliance's id is read now, in the background: a call waits only for its own appliance's read.
      for (const { name, runtime } of opens) g.admit(name, () => runtime.readApplianceId()).catch(() => undefined);
      guard = g;
    }
  }
  if (opened.names.length === 0) return;
  const [{ registerWriteTool }, { registerWriteOperationsTool }, { registerAliasEntriesTool }] = await Promise.all([
    import('../../tools/register-write-tool.js'),
    import('../../tools/register-write-operations-tool.js'),
    import('../../tools/register-alias-entries-tool.js'),
  ]);
  // Every instance of the factory (either protocol era) gets the tools; each call reaches the runtime of the
  // appliance it names, and only that one (write-targets.ts).
  if (opened.names.includes(WRITE_TOOL_NAME)) {
    const targets = targetsOf(opened, WRITE_TOOL_NAME, guard);
    factory.names.add(WRITE_TOOL_NAME);
    factory.writeNames.add(WRITE_TOOL_NAME);
    factory.attach((server) => registerWriteTool(server, targets));
    const allowListed = [...opened.byAppliance.values()].some((o) => o.allowListed);
    factory.write.runtimeEnabled = isRuntimeEnabled(Capability.ALIAS_WRITE, {
      profile: config.profile,
      writeRuntimeReady: true,
      endpointAllowListed: allowListed,
    });
  }
  // The entries tool: the same runtimes, its own capability (opted in with PFSENSE_WRITE_CAPABILITIES or write_capabilities).
  if (opened.names.includes(ALIAS_ENTRIES_TOOL_NAME)) {
    const targets = targetsOf(opened, ALIAS_ENTRIES_TOOL_NAME, guard);
    factory.names.add(ALIAS_ENTRIES_TOOL_NAME);
    factory.writeNames.add(ALIAS_ENTRIES_TOOL_NAME);
    factory.attach((server) => registerAliasEntriesTool(server, targets));
  }
  // The operations view: same three gates (it exists only with a constructed write runtime), read-only.
  if (opened.names.includes(WRITE_OPERATIONS_TOOL_NAME)) {
    const targets = targetsOf(opened, WRITE_OPERATIONS_TOOL_NAME, guard);
    factory.names.add(WRITE_OPERATIONS_TOOL_NAME);
    factory.attach((server) => registerWriteOperationsTool(server, targets));
  }
  // pfsense_mcp_info's write counts and clock are one runtime's: with several appliances they are not summed.
  const runtimes = openedRuntimes(opened);
  const only = runtimes.length === 1 ? runtimes[0] : undefined;
  if (only !== undefined) {
    factory.writeArtifacts = () => only.facade.artifactCounts();
    factory.writeClockBlockedUntil = () => only.clockBlockedUntil();
  }
}

/** Registers the write tools one openWriteTool result names (a server without an inventory). */
export async function attachOpenedWriteTool(
  factory: ServerFactory,
  opened: OpenedWriteTool,
  config: ServerConfig,
  logger: Logger,
): Promise<WriteAttachment> {
  const name = appliancesOf(config)[0]?.name ?? '';
  await attachOpenedWriteTools(
    factory,
    Object.freeze({ appliances: null, byAppliance: new Map([[name, opened]]), names: opened.names }),
    config,
    logger,
  );
  return Object.freeze({ runtime: opened.runtime, absent: opened.absent });
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
  return attachOpenedWriteTool(factory, await openWriteTool(config, readApiKey, logger, options), config, logger);
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
