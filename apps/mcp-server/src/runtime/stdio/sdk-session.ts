// Loaded after the opening reply (run-serve.ts): the MCP SDK, its zod schemas and the server factory live behind
// this module, so the first replies never wait for them (docs/DESIGN.md §8).
import { serverTitle } from '../startup/server-identity.js';
import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { Profile } from '@pfsense-mcp/policy';
import type { Logger } from '../startup/create-logger.js';
import { createServerFactory, type ServerFactory } from '../server/create-server-factory.js';
import { observeToolCalls } from '../server/observe-tool-calls.js';
import type { SdkSession } from './serve-stdio.js';

/** The server factory of a configuration and the session that serves it with the SDK's stdio entry. */
export function createSdkSession(
  profile: Profile,
  allowedTools: ReadonlySet<string> | null,
  toolsets: ReadonlySet<string> | null,
): { readonly factory: ServerFactory; readonly session: SdkSession } {
  const factory = createServerFactory(profile, allowedTools, toolsets);
  const session: SdkSession = {
    names: factory.names,
    connect: (transport: Transport, logger: Logger) => {
      const observed = observeToolCalls(transport, logger, factory.names, serverTitle(profile));
      // The opening exchange picks the era; the entry then pins one instance from the factory for the connection.
      const handle = sdkServeStdio(() => factory.create(), { transport: observed });
      return { observed, close: () => handle.close() };
    },
  };
  return Object.freeze({ factory, session: Object.freeze(session) });
}
