/**
 * The `_meta` keys of the MCP specification 2026-07-28 that this server reads before the MCP SDK is loaded (the SDK
 * exports the same strings; test/json-rpc-message-schema.test.ts fails if they ever differ). Kept here so the first
 * replies need no SDK code (docs/DESIGN.md §8).
 */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';
