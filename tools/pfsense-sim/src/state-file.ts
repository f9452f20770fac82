// --state-file: the simulator's mutable state (the alias table and the pending subsystems), written
// atomically (temp file + rename, 0600) after every committed mutation and read back at start.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { CodedError } from '@pfsense-mcp/foundation';

export const stateFileSchema = z.object({
  version: z.literal(1),
  paths: z.record(z.string().startsWith('/api/v2/'), z.object({ verbatim: z.boolean(), value: z.unknown() })),
  pending: z.array(z.string().max(64)).max(64),
});
export type StateFileContent = z.infer<typeof stateFileSchema>;

export class StateFileError extends CodedError<'STATE_FILE'> {
  override readonly name = 'StateFileError';
  readonly path: string;

  constructor(message: string, path: string) {
    super('STATE_FILE', message);
    this.path = path;
  }
}

/** Returns the saved state, or undefined when the file does not exist yet. */
export function readStateFile(path: string): StateFileContent | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError('state file is unreadable', path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError('state file is not JSON', path);
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success) throw new StateFileError('state file does not match the simulator state schema', path);
  return parsed.data;
}

export function writeStateFile(path: string, content: StateFileContent): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(content));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
