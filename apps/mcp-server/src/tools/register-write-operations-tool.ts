import { join } from 'node:path';
import type { CallToolResult, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { HumanStep, nextHumanStep } from '@pfsense-mcp/coordinator';
import type { WriteOperationView } from '@pfsense-mcp/coordinator';
import { localToolAnnotations } from './tool-annotations.js';
import { ToolCallError, ToolErrorCode, toolErrorText } from './tool-error-code.js';
import type { WriteToolPaths } from './register-write-tool.js';
import { WRITE_OPERATIONS_TOOL_NAME } from './write-tool-name.js';
import { OPERATION_STATUSES } from './operation-statuses.js';
import { routeWriteCall, writeInputSchema, type WriteTargets } from './write-targets.js';

export { WRITE_OPERATIONS_TOOL_NAME };

// The READ tools' paging (limit 1-1000, default 100; offset ≥ 0), so a client pages every list the same way.
const MIN_LIMIT = 1;
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;
const MAX_OFFSET = 1_000_000_000;

export const WriteOperationsInputSchema = z
  .object({
    operation_id: z
      .string()
      .regex(/^op-[0-9a-f]{64}$/)
      .optional()
      .describe('Only this operation (the operation_id pfsense_set_firewall_alias_description returned).'),
    limit: z
      .number()
      .int()
      .min(MIN_LIMIT)
      .max(MAX_LIMIT)
      .default(DEFAULT_LIMIT)
      .describe(`Most operations to return (${MIN_LIMIT}-${MAX_LIMIT}).`),
    offset: z.number().int().min(0).max(MAX_OFFSET).default(0).describe('Operations to skip before the first returned one.'),
  })
  .strict();

const STATUSES = OPERATION_STATUSES;

const OperationSchema = z
  .object({
    operation_id: z.string(),
    status: z.enum(STATUSES),
    contract_state: z
      .string()
      .nullable()
      .describe(
        'The Recovery Contract state of the latest attempt (e.g. PREPARED, VERIFIED, RECONCILIATION); null before the first signature.',
      ),
    contract_id: z.string().nullable(),
    attempts: z.number().int().min(0),
    created_at: z.string().describe("ISO 8601 UTC: when the operation's first contract (or its first request) was created."),
    updated_at: z.string().describe('ISO 8601 UTC: when its latest contract (or a newer request) last changed.'),
    pending_request: z.string().nullable().describe('Absolute path of the file the operator must review and sign next, or null.'),
    next_step: z.string(),
  })
  .strict();

export const WriteOperationsOutputSchema = z
  .object({
    data: z.array(OperationSchema),
    count: z.number().int().min(0),
    total: z.number().int().min(0),
    limit: z.number().int().min(MIN_LIMIT).max(MAX_LIMIT),
    offset: z.number().int().min(0),
    next_offset: z.number().int().min(0).nullable(),
    exchange_invalid_files: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'With an exchange folder: files in its answers/ that were not taken (junk, invalid or for no pending request); the operator sees why with `pfsense-mcp admin status`.',
      ),
    exchange_pickup_stopped: z
      .boolean()
      .optional()
      .describe('With an exchange folder: true when a private key file found in it stopped the pickup (the operator must remove it).'),
  })
  .strict();
export type WriteOperationsOutput = z.infer<typeof WriteOperationsOutputSchema>;

const DESCRIPTION =
  'List the alias-description write operations this server knows, newest first: operation_id, status (requested, ' +
  'awaiting_confirmation, verified, reconciliation_required, rolled_back, refused), contract state, created/updated times, the ' +
  'file the operator must sign next and what the human operator must do next. A request still waiting for its first signature ' +
  'is listed as requested (from the outbox; no contract yet). Read-only: it moves, signs and sends nothing, and never shows a ' +
  'description, alias name, key or file content. Filter with operation_id; paged with limit/offset (next_offset is set when more may follow).';

/** What the human does next for one listed operation (fixed words plus the pending file's path). */
export function operationNextStep(op: WriteOperationView, pendingPath: string | null, paths: WriteToolPaths): string {
  const exchange = paths.exchangeRequestsDirectory ?? null;
  const viaExchange = (extra: string): string =>
    exchange === null || extra !== ''
      ? ''
      : `The request is also in the exchange folder ${exchange}: the operator answers it with pfsense-mcp-signer approve there, ` +
        'and pfsense_set_firewall_alias_description called again with the same arguments and wait_seconds picks the answer up. Otherwise: ';
  const sign = (role: string, extra: string) =>
    viaExchange(extra) +
    `Copy ${pendingPath ?? 'the pending request'} and ${paths.serverPublicKeyFile} to the operator's machine, review and sign it there with ` +
    `pfsense-mcp-signer (your ${role} key${extra}), then run on this host: pfsense-mcp admin inbox add --dir ${paths.writeDirectory} SIGNED_FILE, ` +
    'and call pfsense_set_firewall_alias_description again with the same arguments.';
  switch (nextHumanStep(op.status, op.pendingRequest)) {
    case HumanStep.ASK_AGAIN:
      return 'Authorized; waiting for the confirmation. Call pfsense_set_firewall_alias_description again with the same arguments.';
    case HumanStep.SIGN_CONFIRMATION:
      return `Authorized; a human must confirm it. ${sign('confirmation', '')}`;
    case HumanStep.NOTHING:
      return 'Done: the change was sent once and verified. Nothing to sign.';
    case HumanStep.SIGN_RELEASE:
      return `NOT done: the rollback failed and the alias stays reserved until a human releases it. ${sign('reconciliation', '')}`;
    case HumanStep.SIGN_RECONCILIATION:
      return `NOT done: the outcome is uncertain. A human must look at the alias and record what they saw. ${sign('reconciliation', ', --outcome APPLIED|NOT_APPLIED')}`;
    case HumanStep.SIGN_ROLLBACK:
      return 'Verified; the operator asked to roll it back: a human signs the rollback request (confirmation key) and runs pfsense-mcp admin rollback again. Nothing for the assistant to do.';
    case HumanStep.SETTLING:
      return 'NOT done: in flight or being settled. Call pfsense_set_firewall_alias_description again with the same arguments.';
    case HumanStep.SIGN_AUTHORIZATION:
      return pendingPath === null
        ? 'Waiting for a human to authorize it. Call pfsense_set_firewall_alias_description again with the same arguments.'
        : `Waiting for a human to authorize it. ${sign('plan-authorization', '')}`;
    case HumanStep.ROLLED_BACK:
      return 'Closed: applied, verified, then rolled back by the operator; the old description is back. Asking again with the same arguments starts a new attempt.';
    case HumanStep.CLOSED:
      return 'Closed without effect. Asking again with the same arguments starts a new attempt.';
  }
}

export function writeOperationsOutputOf(
  page: { readonly operations: readonly WriteOperationView[]; readonly total: number },
  limit: number,
  offset: number,
  paths: WriteToolPaths,
): WriteOperationsOutput {
  const data = page.operations.map((op) => {
    const pendingPath = op.pendingRequest === null ? null : join(paths.outboxDirectory, op.pendingRequest.file);
    return {
      operation_id: op.operationId,
      status: op.status,
      contract_state: op.contractState,
      contract_id: op.contractId,
      attempts: op.attempts,
      created_at: new Date(op.createdAt).toISOString(),
      updated_at: new Date(op.updatedAt).toISOString(),
      pending_request: pendingPath,
      next_step: operationNextStep(op, pendingPath, paths),
    };
  });
  const next = offset + data.length;
  return { data, count: data.length, total: page.total, limit, offset, next_offset: next < page.total ? next : null };
}

/**
 * Registers pfsense_get_write_operations over the coordinator's write facade, next to the write tool and
 * under the same three gates (read-only annotations: it reads the local store and moves nothing).
 */
export function registerWriteOperationsTool(server: McpServer, targets: WriteTargets): RegisteredTool {
  const title = 'Write operations (read-only)';
  return server.registerTool(
    WRITE_OPERATIONS_TOOL_NAME,
    {
      title,
      description: DESCRIPTION,
      inputSchema: writeInputSchema(WriteOperationsInputSchema, targets),
      outputSchema: WriteOperationsOutputSchema,
      annotations: localToolAnnotations(title),
    },
    (given: { operation_id?: string; limit: number; offset: number }): CallToolResult => {
      try {
        const { target, input } = routeWriteCall(targets, given);
        const { facade, paths } = target;
        const page = facade.listWriteOperations({
          ...(input.operation_id === undefined ? {} : { operationId: input.operation_id }),
          limit: input.limit,
          offset: input.offset,
        });
        const counts = facade.artifactCounts();
        const structured = {
          ...writeOperationsOutputOf(page, input.limit, input.offset, paths),
          ...(counts.exchangeInvalidFiles === undefined ? {} : { exchange_invalid_files: counts.exchangeInvalidFiles }),
          ...(counts.exchangeStopped === undefined ? {} : { exchange_pickup_stopped: counts.exchangeStopped }),
        };
        return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
      } catch (error) {
        const safe = error instanceof ToolCallError ? error : new ToolCallError(ToolErrorCode.INTERNAL_ERROR);
        return { content: [{ type: 'text', text: toolErrorText(safe) }], isError: true };
      }
    },
  );
}
