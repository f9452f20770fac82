// The executor's crash and race children: test/fixtures/executor-child.ts, bundled and run by the shared
// support. The job comes in EXECUTOR_CHILD_CONFIG; the child prints JSON lines on stdout.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChildScript, startChild as startShared } from '@pfsense-mcp/test-support';
import type { BuiltChild, ChildResult, RunningChild } from '@pfsense-mcp/test-support';

export type { ChildResult, RunningChild };

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'executor-child.ts');

export const buildChild = (): Promise<BuiltChild> => buildChildScript(ENTRY, 'executor-child');
export const startChild = (script: string, config: Record<string, unknown>): RunningChild =>
  startShared(script, 'EXECUTOR_CHILD_CONFIG', config);
