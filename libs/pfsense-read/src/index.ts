// Public API of pfsense-read: the GET-only pfrest client, the READ catalogue and its runner.
export { RestApiClient, DEFAULT_PAGE_SIZE, DEFAULT_MAX_PAGES } from './rest-api-client.js';
export type { RestApiClientOptions } from './rest-api-client.js';
export { PfrestResponseError, UNKNOWN_RESPONSE_ID } from './pfrest-response-error.js';
export { PFREST_RESPONSE_IDS } from './pfrest-response-ids.js';
export type { PfrestResponseErrorCode } from './pfrest-response-error.js';
export { PfrestEnvelopeSchema } from './pfrest-envelope.js';
export type { PfrestEnvelope } from './pfrest-envelope.js';
export { ReadToolInputError } from './read-tool-input-error.js';
export type { ReadToolInputIssue } from './read-tool-input-error.js';
export { ReadScanLimitError } from './read-scan-limit-error.js';
export { MAX_SCAN_ROWS, SCAN_PAGE_SIZE } from './read-list-page.js';
export { FILTER_OPS, MAX_FILTERS, MAX_IN_VALUES, MAX_FILTER_TEXT } from './read-filter.js';
export type { FilterOp } from './read-filter.js';
export { SORT_ORDERS } from './read-query.js';
export type { QueryField, QueryFieldTable } from './query-field.js';
export type { ReadToolDefinition, ProjectOptions, ProjectedRead } from './read-tool-definition.js';
export type { ReadModelSpec, FieldKind, ScalarKind } from './read-model-spec.js';
export {
  READ_CATALOGUE,
  READ_TOOL_GROUPS,
  PFREST_VERSION,
  findReadTool,
  MIN_LIMIT,
  MAX_LIMIT,
  DEFAULT_LIMIT,
  MAX_OFFSET,
} from './read-catalogue.js';
export { READ_MODELS } from './read-models.js';
export { IDENTIFYING_METADATA } from './identifying-metadata.js';
export { runReadTool, truncateReadResult } from './run-read-tool.js';
export { PFREST_TESTED_RANGE, parsePfrestVersion, isTestedPfrestVersion, formatPfrestVersion } from './pfrest-version.js';
export type { PfrestVersion } from './pfrest-version.js';
export type { ReadToolResult, PluralReadToolResult, SingularReadToolResult } from './run-read-tool.js';
export type { PfsenseReadError } from './pfsense-read-error.js';
