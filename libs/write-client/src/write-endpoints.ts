import type { HttpMethod } from '@pfsense-mcp/policy';

/** One allow-listed mutation endpoint: a fixed method and path, and whether it was verified on an appliance. */
export interface WriteEndpoint {
  readonly method: HttpMethod;
  readonly path: string;
  /** Only verified entries can be sent (docs/DESIGN.md §7: lab evidence before the first write). */
  readonly verified: boolean;
}

/** A closed table: endpoint symbol → endpoint. */
export type WriteEndpointTable = Readonly<Record<string, Readonly<WriteEndpoint>>>;

/**
 * The product's whole write surface (docs/DESIGN.md §5): two symbols for the one pfrest endpoint
 * `PATCH /api/v2/firewall/alias` — the description (apply false) and the entry lists (apply true), each with its
 * own closed request shape (is-write-request-for.ts) and capability. Adding an entry is a reviewed change of
 * this file, never configuration. Frozen at every level, and with a null prototype so no inherited key
 * (e.g. "toString") can ever look like a symbol.
 */
export const WriteEndpoints: Readonly<{
  FIREWALL_ALIAS_PATCH: Readonly<WriteEndpoint>;
  FIREWALL_ALIAS_ENTRIES_PATCH: Readonly<WriteEndpoint>;
}> = Object.freeze(
  Object.assign(Object.create(null) as object, {
    FIREWALL_ALIAS_PATCH: Object.freeze({ method: 'PATCH', path: '/api/v2/firewall/alias', verified: true } as const),
    FIREWALL_ALIAS_ENTRIES_PATCH: Object.freeze({ method: 'PATCH', path: '/api/v2/firewall/alias', verified: true } as const),
  }),
);

/** The symbols of `WriteEndpoints`. */
export type WriteEndpointSymbol = keyof typeof WriteEndpoints;

/** True only for a symbol of the product's own `WriteEndpoints` table. */
export function isWriteEndpointSymbol(value: unknown): value is WriteEndpointSymbol {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(WriteEndpoints, value);
}
