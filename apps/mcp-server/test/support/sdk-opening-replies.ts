// What the real MCP SDK server of this program answers to an opening request and a tools/list, for a given tool
// selection: the program's own server factory with the program's own registrations, served by the SDK's stdio
// entry over an in-memory transport. scripts/generate-opening-replies.mjs bundles this file to write
// src/runtime/opening/opening-replies.ts; test/early-opening.test.ts compares the early answers with it, variant by variant.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { WriteFacade } from '@pfsense-mcp/coordinator';
import type { Profile } from '@pfsense-mcp/policy';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import {
  attachReadTools,
  createServerFactory,
  registerWriteOperationsTool,
  oneWriteTarget,
  registerWriteTool,
  WRITE_OPERATIONS_TOOL_NAME,
  WRITE_TOOL_NAME,
} from '../../src/index.js';

export interface SdkSelection {
  readonly profile: Profile;
  readonly allowedTools: ReadonlySet<string> | null;
  readonly toolsets: ReadonlySet<string> | null;
  /** The write tools as attachWriteTool registers them once every gate passed (their handlers are never called). */
  readonly writeTools?: readonly string[];
}

/** Sends `requests` one after the other to a fresh SDK server of `selection`; resolves with each one's reply. */
export async function sdkReplies(selection: SdkSelection, requests: readonly JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const factory = createServerFactory(selection.profile, selection.allowedTools, selection.toolsets);
  // Registration stores the client; listing never calls it.
  attachReadTools(factory, {} as RestApiClient);
  const facade = {} as WriteFacade;
  const paths = { writeDirectory: '/w', outboxDirectory: '/w/outbox', serverPublicKeyFile: '/w/server-request.pub' };
  const targets = oneWriteTarget(facade, paths);
  if (selection.writeTools?.includes(WRITE_TOOL_NAME)) factory.attach((server) => registerWriteTool(server, targets));
  if (selection.writeTools?.includes(WRITE_OPERATIONS_TOOL_NAME)) factory.attach((server) => registerWriteOperationsTool(server, targets));
  const sent: JSONRPCMessage[] = [];
  let notify = (): void => undefined;
  const transport: Transport = {
    start: async () => undefined,
    close: async () => transport.onclose?.(),
    send: async (message) => {
      // As the wire carries it: JSON, so the SDK's symbol-keyed cache-hint carrier on a 2025 result is not part of it.
      sent.push(JSON.parse(JSON.stringify(message)) as JSONRPCMessage);
      notify();
    },
  };
  const handle = serveStdio(() => factory.create(), { transport });
  const replies: JSONRPCMessage[] = [];
  try {
    for (const request of requests) {
      const id = (request as { id: unknown }).id;
      const replied = () => sent.find((m) => 'id' in m && m.id === id && !('method' in m));
      const reply = await new Promise<JSONRPCMessage>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`sdkReplies: no reply to ${JSON.stringify(id)}`)), 10_000);
        notify = () => {
          const found = replied();
          if (found !== undefined) {
            clearTimeout(timer);
            resolve(found);
          }
        };
        transport.onmessage?.(request);
        notify();
      });
      replies.push(reply);
    }
  } finally {
    await handle.close();
  }
  return replies;
}
