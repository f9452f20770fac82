import { createApplianceBinding } from '@pfsense-mcp/authorization';
import type { ApplianceBinding } from '@pfsense-mcp/authorization';
import { isSafeToken } from '@pfsense-mcp/canonical';
import type { RestApiClient } from '@pfsense-mcp/pfsense-read';
import { CodedError } from '@pfsense-mcp/foundation';

/** Where the appliance's own id is read (pfrest v2): netgate_id first, pfhostid as the alternative. */
export const SYSTEM_STATUS_PATH = '/api/v2/status/system';
export const SYSTEM_HASYNC_PATH = '/api/v2/system/hasync';

/** The configured half of the appliance binding (fixed at construction, never caller input). */
export interface ApplianceConfig {
  /** The configured pfSense base URL (normalized into the binding). */
  readonly baseUrl: string;
  /** The TLS mode the transport enforces, a safe token such as "https-ca-file" or "http-loopback". */
  readonly tlsMode: string;
}

/** The appliance has no usable id, or it could not be read: the binding cannot be formed (refuse). */
export class ApplianceIdentityError extends CodedError<'NO_APPLIANCE_ID' | 'READ_FAILED'> {
  override readonly name = 'ApplianceIdentityError';
  constructor(code: 'NO_APPLIANCE_ID' | 'READ_FAILED') {
    super(
      code,
      `appliance binding: ${code === 'NO_APPLIANCE_ID' ? 'the appliance reports no usable id' : 'the appliance id could not be read'} (${code})`,
    );
  }
}

function idField(data: unknown, field: string): string | null {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const v = (data as Record<string, unknown>)[field];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

async function readId(client: RestApiClient, path: string, field: string): Promise<string | null> {
  let data: unknown;
  try {
    data = (await client.read(path)).data;
  } catch {
    throw new ApplianceIdentityError('READ_FAILED');
  }
  return idField(data, field);
}

/**
 * The appliance binding read fresh (docs/DESIGN.md §5): the configured base URL (normalized) and TLS
 * mode, and the appliance's own id — `netgate_id` from the system status, else `pfhostid` from the HA sync
 * settings. No id, an id that is not a safe token, or a failed read → ApplianceIdentityError; there is no
 * base-URL-only fallback. The id is identifying data: it is never logged or returned to the MCP caller.
 */
export async function readApplianceBinding(client: RestApiClient, config: ApplianceConfig): Promise<ApplianceBinding> {
  const netgateId = await readId(client, SYSTEM_STATUS_PATH, 'netgate_id');
  const id = netgateId ?? (await readId(client, SYSTEM_HASYNC_PATH, 'pfhostid'));
  if (id === null || !isSafeToken(id)) throw new ApplianceIdentityError('NO_APPLIANCE_ID');
  try {
    return createApplianceBinding({ baseUrl: config.baseUrl, tlsMode: config.tlsMode, applianceId: id });
  } catch {
    throw new ApplianceIdentityError('NO_APPLIANCE_ID');
  }
}
