// The simulator the in-process write suites run against: three aliases, the appliance's identity, and two API keys
// holding exactly the generated least-privilege table's write-path rows (docs/pfrest-privileges.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { privilegeFor, startSimulator, type RunningSimulator } from '@pfsense-mcp/pfsense-sim';

export const ALIASES_PATH = '/api/v2/firewall/aliases';
export const ALIAS_PATH = '/api/v2/firewall/alias';
export const STATUS_PATH = '/api/v2/status/system';
export const HASYNC_PATH = '/api/v2/system/hasync';
export const NETGATE_ID = 'a1b2c3d4e5f60718';

export const ALIASES = Object.freeze([
  { name: 'LAN_SERVERS', type: 'host', descr: 'Servers', address: ['10.0.0.1', '10.0.0.2'], detail: ['nas', 'printer'] },
  { name: 'WEB_PORTS', type: 'port', descr: 'HTTP and HTTPS', address: ['80', '443'], detail: ['http', 'https'] },
  { name: 'DMZ_HOSTS', type: 'host', descr: 'DMZ', address: ['10.3.0.10'], detail: ['web'] },
]);

interface WritePathRow {
  readonly method: string;
  readonly path: string;
  readonly key: 'read' | 'write';
  readonly privileges: readonly string[];
}
/** The generated least-privilege table's write-path rows (docs/pfrest-privileges.json). */
export const WRITE_PATH_ROWS = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'pfrest-privileges.json'), 'utf8')) as {
    write_path: readonly WritePathRow[];
  }
).write_path;
/** The alias entries write's extra rows (docs/pfrest-privileges.json `entries_path`). */
export const ENTRIES_PATH_ROWS = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'pfrest-privileges.json'), 'utf8')) as {
    entries_path: readonly WritePathRow[];
  }
).entries_path;
/**
 * The READ key holds exactly the table's `read` rows of the write path (plus the one GET of --check-config and the
 * alias list tool's privilege for READ-serving checks); the write key exactly its `write` row. So every lifecycle
 * test that reaches `verified` proves the table's write rows are enough.
 */
export const WRITE_PATH_READ_PRIVILEGES = Object.freeze([
  ...WRITE_PATH_ROWS.filter((r) => r.key === 'read').flatMap((r) => r.privileges),
  privilegeFor('/api/v2/system/restapi/version', 'GET'),
]);
/** The READ key of the alias entries suites: the write path's read rows and the entries rows, nothing else. */
export const ENTRIES_READ_PRIVILEGES = Object.freeze([
  ...WRITE_PATH_READ_PRIVILEGES,
  ...ENTRIES_PATH_ROWS.filter((r) => r.key === 'read').flatMap((r) => r.privileges),
]);
export const ENTRIES_READ_KEY = 'entries-read-key-for-the-write-tool-tests-0123';
export const WRITE_PRIVILEGE = WRITE_PATH_ROWS.filter((r) => r.key === 'write').flatMap((r) => r.privileges);
export const READ_KEY = 'read-key-for-the-write-tool-tests-0123456789';
export const WRITE_KEY = 'write-key-for-the-write-tool-tests-0123456789';

export async function startWriteSimulator(): Promise<RunningSimulator> {
  return startSimulator({
    data: { [ALIASES_PATH]: ALIASES, [STATUS_PATH]: { platform: 'Netgate 4200', netgate_id: NETGATE_ID } },
    credentials: [
      { auth: 'key', secret: READ_KEY, privileges: [...WRITE_PATH_READ_PRIVILEGES] },
      { auth: 'key', secret: ENTRIES_READ_KEY, privileges: [...ENTRIES_READ_PRIVILEGES] },
      { auth: 'key', secret: WRITE_KEY, privileges: [...WRITE_PRIVILEGE] },
    ],
  });
}
