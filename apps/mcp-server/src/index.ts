// Public API of mcp-server (for its tests, the manifest generator and tools/bench): explicit named exports only.
// The program entry is main.ts.
export { ConfigError } from './runtime/config/config-error.js';
export { loadConfig, LOG_LEVELS, type LogLevel, type ServerConfig, type WriteEnvironment } from './runtime/config/load-config.js';
export { parseAllowedTools } from './runtime/config/parse-allowed-tools.js';
export { parseToolsets } from './runtime/config/parse-toolsets.js';
export { TOOLSETS, TOOLSET_NAMES, toolsetOf, type Toolset } from './runtime/config/toolsets.js';
export { parseCliArgs, UsageError, type CliMode } from './runtime/startup/parse-cli-args.js';
export {
  createLogger,
  stderrSink,
  LOG_EVENTS,
  OUTCOME_CLASSES,
  type Logger,
  type LogSink,
  type LogFields,
  type LogEvent,
  type OutcomeClass,
} from './runtime/startup/create-logger.js';
export { observeToolCalls, type ObservedTransport } from './runtime/server/observe-tool-calls.js';
export { createMcpServer, type CreateMcpServerOptions, type CreatedMcpServer } from './runtime/server/create-mcp-server.js';
export { selectTools, knownToolNames, type ToolSelection } from './runtime/config/select-tools.js';
export { classifyToolError } from './runtime/server/classify-tool-error.js';
export { buildReadClient, type ReadClientHandle, type TransportLimits } from './runtime/server/build-read-client.js';
export { readApiKey } from './runtime/config/read-api-key.js';
export { startDemoSimulator, type DemoSimulator } from './runtime/startup/run-demo.js';
export { SERVER_NAME, SERVER_VERSION, serverTitle } from './runtime/startup/server-identity.js';
export { ToolErrorCode, ToolCallError, TOOL_ERROR_MESSAGES, toolErrorText } from './tools/tool-error-code.js';
export { boundResultSize, MAX_RESULT_BYTES } from './tools/bound-result-size.js';
export { rememberSerializedJson, serializedJsonOf } from './tools/serialized-json.js';
export { registerReadTools } from './tools/register-read-tools.js';
export { precomputedJsonSchema } from './tools/precomputed-json-schema.js';
export { READ_TOOL_JSON_SCHEMA_TARGET, READ_TOOL_JSON_SCHEMAS, type ReadToolJsonSchemas } from './tools/read-tool-json-schemas.js';
export { INFO_TOOL_NAME } from './tools/register-info-tool.js';
export { LIST_APPLIANCES_TOOL_NAME } from './tools/list-appliances-tool-name.js';
export { ALL_APPLIANCES, resolveAppliances, type ApplianceTargets } from './tools/appliance-argument.js';
export { FLEET_CONCURRENCY, runFleetRead } from './tools/fleet-read.js';
export { mapBounded } from './tools/map-bounded.js';
export { DEFAULT_APPLIANCE_NAME, MAX_APPLIANCES, type ApplianceConfig } from './runtime/config/appliance-config.js';
export { appliancesOf, usesInventory } from './runtime/config/appliances-of.js';
export { CALL_BUDGET_MS, EXECUTION_RESERVE_MS, requestChangeWaiting } from './tools/wait-for-answer.js';
export { buildToolManifest, type ToolManifest, type ToolManifestEntry } from './runtime/server/build-tool-manifest.js';
export { KNOWN_TOOL_NAMES } from './runtime/config/known-tool-names.js';
export { createServerFactory, type ServerFactory, type ToolRegistrar } from './runtime/server/create-server-factory.js';
export { attachReadTools } from './runtime/server/attach-read-tools.js';
export { gateUntilReady, type GatedTransport } from './runtime/opening/gate-until-ready.js';
export { answerOpeningEarly, type EarlyTransport } from './runtime/opening/answer-opening-early.js';
export { earlyOpening, type EarlyOpening, type Era } from './runtime/opening/early-opening.js';
export { parseJsonRpcMessage } from './runtime/stdio/json-rpc-message-schema.js';
export {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY,
} from './runtime/server/mcp-meta-keys.js';
export { registerWriteOperationsTool } from './tools/register-write-operations-tool.js';
export { oneWriteTarget, type WriteTarget, type WriteTargets } from './tools/write-targets.js';
export { serveStdio, type SdkSession, type ServeOptions } from './runtime/stdio/serve-stdio.js';
export { precheckCaFile } from './runtime/config/precheck-ca-file.js';
export { WriteDirectoryError, type WriteDirectoryErrorCode } from './runtime/write-directory/write-directory-error.js';
export {
  WRITE_ANCHOR_DIR_VARIABLE,
  assertOwnerOnlyDirectory,
  assertOwnerOnlyFile,
  assertWriteDirectory,
  writeDirectoryLayout,
  type WriteDirectoryLayout,
} from './runtime/write-directory/write-directory-layout.js';
export {
  OPERATOR_ROLES,
  PINNED_AUTHORITIES_FILE_VERSION,
  PinnedAuthoritiesFileError,
  loadPinnedAuthorities,
  pinnedAuthoritySetOf,
  savePinnedAuthorities,
  type OperatorRole,
  type PinnedAuthoritiesFileErrorCode,
  type PinnedOperatorKey,
} from './runtime/write-directory/pinned-authorities-file.js';
export { WriteGate, WriteGateError } from './runtime/write-runtime/write-gate-error.js';
export { evaluateStaticWriteGates, isAliasPatchAllowListed, type StaticWriteGates } from './runtime/write-runtime/evaluate-write-gates.js';
export {
  WRITE_DRAIN_TIMEOUT_MS,
  WRITE_RESPONSE_TIMEOUT_MS,
  WriteRuntimeClosedError,
  checkWriteRuntime,
  openWriteRuntime,
  type OpenWriteRuntimeOptions,
  type WriteRuntime,
} from './runtime/write-runtime/open-write-runtime.js';
export { attachWriteTool, type WriteAttachment } from './runtime/server/attach-write-tool.js';
export { WRITE_OPERATIONS_TOOL_NAME, WRITE_TOOL_NAME } from './tools/write-tool-name.js';
export {
  registerWriteTool,
  nextStepOf,
  writeToolOutputOf,
  WriteToolInputSchema,
  WriteToolOutputSchema,
  type WriteToolOutput,
  type WriteToolPaths,
} from './tools/register-write-tool.js';
