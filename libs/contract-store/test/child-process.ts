// The store's crash and race children: test/fixtures/store-child.ts, bundled and run by the shared support.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChildScript, runChild as runShared, startChild as startShared } from '@pfsense-mcp/test-support';
import type { ChildResult, RunningChild } from '@pfsense-mcp/test-support';

export type { ChildResult, RunningChild };

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'store-child.ts');
const ENV = 'CS_CHILD_CONFIG';

/** Bundles the child once per test file; `remove` deletes the build afterwards. */
export async function buildChild(): Promise<{ readonly script: string; remove(): void }> {
  return buildChildScript(ENTRY, 'contract-store-child');
}

export const startChild = (script: string, config: Record<string, unknown>): RunningChild => startShared(script, ENV, config);
export const runChild = (script: string, config: Record<string, unknown>): Promise<ChildResult> => runShared(script, ENV, config);
