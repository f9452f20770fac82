import { assertObject } from '@pfsense-mcp/foundation';
import { digest, DigestPurpose } from '@pfsense-mcp/canonical';
import { z } from 'zod';
import { ArtifactFormatError } from './artifact-format-error.js';
import { safeTokenSchema } from './field-schemas.js';
import { parseWith } from './parse-with.js';

/**
 * The appliance an operation is bound to (docs/DESIGN.md §5): the
 * normalized configured base URL, the TLS mode the transport enforces, and the appliance's own id
 * (`netgate_id`, else `pfhostid`) read fresh. `tls_mode` is a safe token chosen by the runtime (e.g.
 * "https-system-ca", "https-ca-file", "http-loopback"); the id is identifying data — show it to the
 * operator, never log it.
 */
export interface ApplianceBinding {
  readonly base_url: string;
  readonly tls_mode: string;
  readonly appliance_id: string;
}

const APPLIANCE_BINDING_KIND = 'pfsense-mcp/appliance-binding';
const APPLIANCE_BINDING_VERSION = 1;

/**
 * One spelling per base URL: http(s) only, no credentials, query or fragment, lowercase host (WHATWG URL),
 * default port dropped, no trailing slash. Throws TypeError naming the argument.
 */
export function normalizeApplianceBaseUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) {
    throw new TypeError('normalizeApplianceBaseUrl: "baseUrl" must be a non-empty string of at most 2048 characters');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError('normalizeApplianceBaseUrl: "baseUrl" must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError('normalizeApplianceBaseUrl: "baseUrl" must use http or https');
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new TypeError('normalizeApplianceBaseUrl: "baseUrl" must not carry credentials, a query or a fragment');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export const applianceBindingSchema = z
  .strictObject({
    base_url: z.string().min(1).max(2048),
    tls_mode: safeTokenSchema,
    appliance_id: safeTokenSchema,
  })
  .refine(
    (v) => {
      try {
        return normalizeApplianceBaseUrl(v.base_url) === v.base_url;
      } catch {
        return false;
      }
    },
    { message: 'base_url must be normalized', path: ['base_url'] },
  );

/** Validates the three facts (base URL must already be normalized) and returns a frozen copy. */
export function parseApplianceBinding(value: unknown): ApplianceBinding {
  const v = parseWith(applianceBindingSchema, value, 'appliance');
  return Object.freeze({ base_url: v.base_url, tls_mode: v.tls_mode, appliance_id: v.appliance_id });
}

/** Builds a binding from a configured base URL (normalized here), the TLS mode and the appliance id. */
export function createApplianceBinding(input: { baseUrl: string; tlsMode: string; applianceId: string }): ApplianceBinding {
  assertObject(input, 'createApplianceBinding: "input"');
  let base_url: string;
  try {
    base_url = normalizeApplianceBaseUrl(input.baseUrl);
  } catch {
    throw new ArtifactFormatError('SCHEMA', 'appliance.base_url', 'must be an absolute http(s) URL without credentials, query or fragment');
  }
  return parseApplianceBinding({ base_url, tls_mode: input.tlsMode, appliance_id: input.applianceId });
}

/** digest(APPLIANCE_BINDING, {kind: "pfsense-mcp/appliance-binding", version: 1, payload: binding}). */
export function applianceBindingDigest(binding: unknown): string {
  const payload = parseApplianceBinding(binding);
  return digest(DigestPurpose.APPLIANCE_BINDING, {
    kind: APPLIANCE_BINDING_KIND,
    version: APPLIANCE_BINDING_VERSION,
    payload,
  });
}
