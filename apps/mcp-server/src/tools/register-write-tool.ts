import { join } from 'node:path';
import type { CallToolResult, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { ALIAS_NAME_CHARSET, ALIAS_NAME_MAX_LENGTH } from '@pfsense-mcp/foundation';
import { z } from 'zod';
import { CoordinatorInputError, HumanStep, OperationStatus, nextHumanStep } from '@pfsense-mcp/coordinator';
import type { ChangeResult } from '@pfsense-mcp/coordinator';
import { writeToolAnnotations } from './tool-annotations.js';
import { ToolCallError, ToolErrorCode, toolErrorText } from './tool-error-code.js';
import { WRITE_TOOL_NAME } from './write-tool-name.js';
import { OPERATION_STATUSES } from './operation-statuses.js';
import { MAX_WAIT_SECONDS, WAIT_SECONDS_SCHEMA, requestChangeForCall } from './wait-for-answer.js';
import type { WaitingCallContext } from './wait-for-answer.js';
import { routeWriteCall, writeInputSchema, type WriteTargets } from './write-targets.js';

export { WRITE_TOOL_NAME };
export const WRITE_TOOL_CAPABILITY = 'ALIAS_WRITE';

// The coordinator's input rules (docs/DESIGN.md §5), stated in the schema so a client sees them; the
// coordinator checks them again (NFC, control characters) and is the authority.
const DESCRIPTION_MAX = 1024;

export const WriteToolInputSchema = z
  .object({
    alias_name: z
      .string()
      .min(1)
      .max(ALIAS_NAME_MAX_LENGTH)
      .regex(ALIAS_NAME_CHARSET)
      .describe(
        `Exact, case-sensitive name of an existing firewall alias (A-Z, a-z, 0-9, _; at most ${ALIAS_NAME_MAX_LENGTH} characters).`,
      ),
    description: z
      .string()
      .max(DESCRIPTION_MAX)
      .describe('The new description, NFC, at most 1024 characters, no control characters other than tab and newline; "" clears it.'),
    wait_seconds: WAIT_SECONDS_SCHEMA,
  })
  .strict();

const STATUSES = OPERATION_STATUSES;

export const WriteToolOutputSchema = z
  .object({
    status: z.enum(STATUSES),
    operation_id: z.string().nullable(),
    contract_id: z.string().nullable(),
    pending_request: z.string().nullable().describe('Absolute path of the file the operator must review and sign now, or null.'),
    earlier_request_expired_at: z
      .string()
      .optional()
      .describe(
        'requested only: ISO 8601 UTC time at which the earlier request for this change expired unanswered; a new one was written.',
      ),
    next_step: z.string(),
  })
  .strict();
export type WriteToolOutput = z.infer<typeof WriteToolOutputSchema>;

/** The paths next_step names: the write directory, its outbox, the server's request public key, the exchange folder. */
export interface WriteToolPaths {
  readonly writeDirectory: string;
  readonly outboxDirectory: string;
  readonly serverPublicKeyFile: string;
  /** PFSENSE_WRITE_EXCHANGE_DIR's requests/ folder, or null (absent) when no exchange folder is set. */
  readonly exchangeRequestsDirectory?: string | null;
}

const DESCRIPTION =
  'Ask to change the description of one firewall alias. ASYNCHRONOUS and human-gated: nothing changes until a human operator ' +
  'reviews and signs the request on ANOTHER machine with pfsense-mcp-signer (an authorization, then a confirmation); the signed ' +
  'answers come back through the exchange folder or `pfsense-mcp admin inbox add`. While the operator signs, call again with the ' +
  `SAME arguments and wait_seconds (up to ${MAX_WAIT_SECONDS}): the call waits for the signature and goes on. Each call returns status requested, ` +
  'awaiting_confirmation, verified, reconciliation_required, rolled_back (applied, then undone by the operator) or refused, the file the operator must sign next (pending_request) ' +
  'and next_step for the human. Call again with the SAME arguments to resume the same operation; the change is sent at most once ' +
  'and verified by re-reading. reconciliation_required is not success: the outcome is uncertain until the operator resolves it.';

/** What a write tool's next_step says that depends on its capability (the description tool's words by default). */
export interface WriteToolWording {
  /** What the operator checks in the review. */
  readonly check: string;
  readonly verified: string;
  readonly rolledBack: string;
}

const DESCRIPTION_WORDING: WriteToolWording = Object.freeze({
  check: 'alias, appliance and old → new description',
  verified:
    'The change was sent once and verified by re-reading the alias on the appliance. Nothing to sign. ' +
    'It stays pending on pfSense until someone applies the firewall changes (this tool never applies them).',
  rolledBack:
    'Closed: the change was applied, verified, and then rolled back by the operator; the old description is back. Calling again with the same arguments asks for the change anew (fresh signatures).',
});

function signSteps(file: string, paths: WriteToolPaths, role: string, extra: string, wording: WriteToolWording): string {
  const exchange = paths.exchangeRequestsDirectory ?? null;
  if (exchange !== null && extra === '') {
    return (
      `The request is also in the exchange folder: ${exchange}. On the operator's machine (never on this host): ` +
      `pfsense-mcp-signer approve REQUESTS_FOLDER --keys KEYDIR --server-key server-request.pub — it shows the change and the approval code to type, ` +
      `and writes the signed answer beside it (answers/). Meanwhile call this tool again with the same arguments and wait_seconds ${MAX_WAIT_SECONDS}. ` +
      `Without the shared folder: copy ${file} and ${paths.serverPublicKeyFile} to the operator's machine, sign it there and run ` +
      `pfsense-mcp admin inbox add --dir ${paths.writeDirectory} SIGNED_FILE.`
    );
  }
  return (
    `1) Copy ${file} and ${paths.serverPublicKeyFile} to the operator's machine (never sign on this host). ` +
    `2) There: pfsense-mcp-signer review FILE --server-key server-request.pub --key <your ${role} key>, check ${wording.check}, then ` +
    `pfsense-mcp-signer sign FILE --key <your ${role} key> --server-key server-request.pub --out DIR${extra} and type the approval code it shows (only that key gives it). ` +
    `3) Copy the signed file back and run on this host: pfsense-mcp admin inbox add --dir ${paths.writeDirectory} SIGNED_FILE. ` +
    '4) Call this tool again with the same arguments.'
  );
}

/** The earlier request expired unanswered: said first, with its time only (a new one was written). */
function expiredNote(result: ChangeResult): string {
  if (result.earlierRequestExpiredAt === undefined) return '';
  return `The earlier request for this change expired unanswered at ${new Date(result.earlierRequestExpiredAt).toISOString()}; a new one was written. `;
}

/** What the human does next (the coordinator's nextHumanStep, in this tool's words; never a digest or the approval prefix). */
export function nextStepOf(
  result: ChangeResult,
  pendingPath: string | null,
  paths: WriteToolPaths,
  wording: WriteToolWording = DESCRIPTION_WORDING,
): string {
  const file = pendingPath ?? 'the pending request';
  switch (nextHumanStep(result.status, result.pendingRequest)) {
    case HumanStep.SIGN_AUTHORIZATION:
      return `${expiredNote(result)}Waiting for a human to authorize this change. ${signSteps(file, paths, 'plan-authorization', '', wording)}`;
    case HumanStep.ASK_AGAIN:
      return "The change is authorized and waits for the operator's confirmation. Call this tool again with the same arguments.";
    case HumanStep.SIGN_CONFIRMATION:
      return `The change is authorized; a human must now confirm it (this is what lets it be sent, once). ${signSteps(file, paths, 'confirmation', '', wording)}`;
    case HumanStep.NOTHING:
      return wording.verified;
    case HumanStep.SIGN_RELEASE:
      return (
        'NOT done: the rollback failed and the alias stays reserved until a human releases it. ' +
        signSteps(file, paths, 'reconciliation', '', wording)
      );
    case HumanStep.SIGN_RECONCILIATION:
      return (
        'NOT done: the outcome of the change is uncertain and it is never resent. A human must look at the alias on the appliance and record what they saw. ' +
        signSteps(
          file,
          paths,
          'reconciliation',
          ' --outcome APPLIED|NOT_APPLIED (what you observed; if you do not know, do not sign)',
          wording,
        )
      );
    case HumanStep.SIGN_ROLLBACK:
      return 'Verified; the operator asked to roll it back: a human signs the rollback request (confirmation key) and runs pfsense-mcp admin rollback again. Nothing for the assistant to do.';
    case HumanStep.SETTLING:
      return 'NOT done: the change is in flight or its outcome is being settled. Call this tool again with the same arguments later; the operator can inspect the write directory with `pfsense-mcp admin`.';
    case HumanStep.ROLLED_BACK:
      return wording.rolledBack;
    case HumanStep.CLOSED:
      return result.retryAt === undefined
        ? 'Refused. The operator can inspect the write directory with `pfsense-mcp admin`.'
        : `Refused for now: a change of the same alias finished moments ago and the alias is in its cooldown until ${new Date(result.retryAt).toISOString()}. ` +
            'Nothing was used up: call this tool again with the same arguments after that time.';
  }
}

/** The tool's result object: absolute pending path, next_step; `refused` has one shape whatever refused. */
export function writeToolOutputOf(
  result: ChangeResult,
  paths: WriteToolPaths,
  wording: WriteToolWording = DESCRIPTION_WORDING,
): WriteToolOutput {
  if (result.status === OperationStatus.REFUSED) {
    return {
      status: result.status,
      operation_id: null,
      contract_id: null,
      pending_request: null,
      next_step: nextStepOf(result, null, paths, wording),
    };
  }
  const pendingPath = result.pendingRequest === null ? null : join(paths.outboxDirectory, result.pendingRequest.file);
  return {
    status: result.status,
    operation_id: result.operationId,
    contract_id: result.contractId,
    pending_request: pendingPath,
    ...(result.earlierRequestExpiredAt === undefined
      ? {}
      : { earlier_request_expired_at: new Date(result.earlierRequestExpiredAt).toISOString() }),
    next_step: nextStepOf(result, pendingPath, paths, wording),
  };
}

// The coordinator names the argument by its wire name, the tool's own: only those names are shown.
const ARGUMENTS: ReadonlySet<string> = new Set(['alias_name', 'description']);

/**
 * A write tool's failed call as its MCP result: a coordinator input error names the argument (only when `shown`
 * accepts it as one of the tool's own) and the rule, a ToolCallError keeps its code, anything else is
 * INTERNAL_ERROR — stable codes, no upstream text (docs/DESIGN.md §6). Shared by every write tool.
 */
export function writeToolErrorResult(error: unknown, shown: (argument: string) => boolean): CallToolResult {
  let safe: ToolCallError;
  if (error instanceof CoordinatorInputError) {
    const argument = shown(error.argument) ? error.argument : 'input';
    const rule =
      error.code === 'UNKNOWN_TARGET'
        ? 'names no alias on the appliance (UNKNOWN_ALIAS)'
        : `is invalid${error.reason === null ? '' : ` (${error.reason})`}`;
    safe = new ToolCallError(ToolErrorCode.INVALID_INPUT, { detail: `${argument} ${rule}` });
  } else safe = error instanceof ToolCallError ? error : new ToolCallError(ToolErrorCode.INTERNAL_ERROR);
  return { content: [{ type: 'text', text: toolErrorText(safe) }], isError: true };
}

/**
 * Registers pfsense_set_firewall_alias_description over the coordinator's write facade — the only write
 * object this folder may hold — of the appliance the call names (write-targets.ts). A call moves the operation
 * as far as the signed files allow and reports it.
 */
export function registerWriteTool(server: McpServer, targets: WriteTargets): RegisteredTool {
  const title = 'Set firewall alias description (signed, asynchronous)';
  return server.registerTool(
    WRITE_TOOL_NAME,
    {
      title,
      description: DESCRIPTION,
      inputSchema: writeInputSchema(WriteToolInputSchema, targets),
      outputSchema: WriteToolOutputSchema,
      annotations: writeToolAnnotations(title),
    },
    async (
      given: { alias_name: string; description: string; wait_seconds?: number | undefined },
      ctx: WaitingCallContext,
    ): Promise<CallToolResult> => {
      try {
        const { target, input } = routeWriteCall(targets, given);
        const { facade, paths, awaitAnswer } = target;
        // wait_seconds is not part of the operation: only the alias and the description name it.
        const change = { alias_name: input.alias_name, description: input.description };
        const result = await requestChangeForCall(facade, WRITE_TOOL_CAPABILITY, change, input.wait_seconds, awaitAnswer ?? null, ctx);
        const structured = writeToolOutputOf(result, paths);
        return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
      } catch (error) {
        return writeToolErrorResult(error, (argument) => ARGUMENTS.has(argument));
      }
    },
  );
}
