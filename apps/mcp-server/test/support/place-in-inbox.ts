// An answer copied into a write directory's inbox by hand, under its canonical name, past `admin inbox add`'s checks:
// what the server must still refuse at use when the answer is another server's (docs/DESIGN.md §10).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArtifact } from '@pfsense-mcp/authorization';
import { inboxArtifactName } from '@pfsense-mcp/coordinator';

/** Writes `file` into DIR/inbox under the name the coordinator looks for (0600, never over a file); its path. */
export function placeInInbox(dir: string, file: string): string {
  const bytes = readFileSync(file);
  const name = inboxArtifactName(parseArtifact(bytes));
  if (name === null) throw new Error(`${file}: not an answer the inbox files`);
  const path = join(dir, 'inbox', name);
  writeFileSync(path, bytes, { mode: 0o600, flag: 'wx' });
  return path;
}
