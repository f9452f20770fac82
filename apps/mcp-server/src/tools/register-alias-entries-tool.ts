import type { CallToolResult, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { writeToolAnnotations } from './tool-annotations.js';
import { ALIAS_ENTRIES_TOOL_NAME } from './write-tool-name.js';
import { WriteToolOutputSchema, writeToolErrorResult, writeToolOutputOf } from './register-write-tool.js';
import type { WriteToolWording } from './register-write-tool.js';
import { MAX_WAIT_SECONDS, WAIT_SECONDS_SCHEMA, requestChangeForCall } from './wait-for-answer.js';
import type { WaitingCallContext } from './wait-for-answer.js';
import { routeWriteCall, writeInputSchema, type WriteTargets } from './write-targets.js';

export { ALIAS_ENTRIES_TOOL_NAME };
export const ALIAS_ENTRIES_TOOL_CAPABILITY = 'ALIAS_ENTRIES_WRITE';

// The adapter's input rules (docs/DESIGN.md §5), stated so a client sees them; the adapter is the authority.
const MAX_CHANGES = 64;
const address = z
  .string()
  .min(1)
  .max(64)
  .describe('A literal IPv4/IPv6 address or CIDR in canonical form (203.0.113.7, 2001:db8::1, 198.51.100.0/24); no FQDN, range or alias.');

/**
 * `{alias_name, add?, remove?, wait_seconds?}`: wait_seconds is every write tool's (wait-for-answer.ts) and never
 * part of the operation.
 */
export const AliasEntriesToolInputSchema = z
  .object({
    alias_name: z
      .string()
      .min(1)
      .max(31)
      .regex(/^[A-Za-z0-9_]+$/)
      .describe('Exact, case-sensitive name of a host or network alias that an enabled filter rule uses.'),
    add: z
      .array(
        z
          .object({
            address,
            detail: z
              .string()
              .min(1)
              .max(200)
              .optional()
              .describe('Why (printable, no |, at most 200 characters); a fixed text when omitted.'),
          })
          .strict(),
      )
      .max(MAX_CHANGES)
      .optional()
      .describe('Entries to add (block); with remove, 1–64 entries in all.'),
    remove: z.array(address).max(MAX_CHANGES).optional().describe('Entries to remove (unblock), exactly as the alias holds them.'),
    wait_seconds: WAIT_SECONDS_SCHEMA,
  })
  .strict();
export type AliasEntriesToolInput = z.infer<typeof AliasEntriesToolInputSchema>;

const DESCRIPTION =
  'Ask to add or remove entries of one host or network firewall alias that an enabled filter rule uses (block / unblock an ' +
  'address), applied to the packet filter. ASYNCHRONOUS and human-gated: nothing changes until a human operator reviews and ' +
  'signs the request on ANOTHER machine with pfsense-mcp-signer (an authorization, then a confirmation) and hands each signed ' +
  'file back (the exchange folder or `pfsense-mcp admin inbox add`). While the operator signs, call again with the SAME ' +
  `arguments and wait_seconds (up to ${MAX_WAIT_SECONDS}): the call waits for the signature and goes on. ` +
  'Refused while anything else is pending on pfSense (applying would activate it too). Each call returns status requested, awaiting_confirmation, verified (the pf table holds exactly the new entries), ' +
  'reconciliation_required (not success: uncertain until the operator resolves it), rolled_back or refused, the file to sign ' +
  'next and next_step. Call again with the SAME arguments to resume; after the change is applied the same arguments are a new ' +
  'change (and an input error: the entry is already present).';

const ENTRIES_WORDING: WriteToolWording = Object.freeze({
  check: 'alias, appliance, the entries added and removed, and the rules that use the alias (a pass rule?)',
  verified:
    'The change was sent once, applied, and verified: the alias re-read, nothing pending on pfSense, and its pf table holds exactly the new entries. Nothing to sign.',
  rolledBack:
    'Closed: the change was applied, verified, and then rolled back with the operator’s signature; the alias and its pf table are as before.',
});

const ARGUMENTS = /^(alias_name|add\[\d+\](\.address|\.detail)?|add|remove(\[\d+\])?)$/;

/** Registers pfsense_change_firewall_alias_entries over the named appliance's write facade (same statuses and view). */
export function registerAliasEntriesTool(server: McpServer, targets: WriteTargets): RegisteredTool {
  const title = 'Block or unblock addresses in a firewall alias (signed, asynchronous, applied)';
  return server.registerTool(
    ALIAS_ENTRIES_TOOL_NAME,
    {
      title,
      description: DESCRIPTION,
      inputSchema: writeInputSchema(AliasEntriesToolInputSchema, targets),
      outputSchema: WriteToolOutputSchema,
      annotations: writeToolAnnotations(title),
    },
    async (given: AliasEntriesToolInput, ctx: WaitingCallContext): Promise<CallToolResult> => {
      try {
        const { target, input } = routeWriteCall(targets, given);
        const { facade, paths, awaitAnswer } = target;
        const change = {
          alias_name: input.alias_name,
          ...(input.add === undefined ? {} : { add: input.add.map((a) => (a.detail === undefined ? { address: a.address } : a)) }),
          ...(input.remove === undefined ? {} : { remove: input.remove }),
        };
        // wait_seconds is not part of the operation: only the alias and the entries name it.
        const result = await requestChangeForCall(
          facade,
          ALIAS_ENTRIES_TOOL_CAPABILITY,
          change,
          input.wait_seconds,
          awaitAnswer ?? null,
          ctx,
        );
        const structured = writeToolOutputOf(result, paths, ENTRIES_WORDING);
        return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
      } catch (error) {
        return writeToolErrorResult(error, (argument) => ARGUMENTS.test(argument));
      }
    },
  );
}
