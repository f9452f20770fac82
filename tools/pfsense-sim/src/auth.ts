// pfrest authentication (X-API-Key, Basic, Bearer JWT — each switchable) and privilege checks.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { ApiError } from './api-error.js';
import { signJwt, verifyJwt } from './jwt.js';
import { PAGE_ALL, privilegeFor } from './privileges.js';

export const AUTH_MODES = ['key', 'basic', 'jwt'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** One accepted credential. `secret` is the API key (key), "user:password" (basic) or a literal bearer token (jwt). */
export interface Credential {
  readonly auth: AuthMode;
  readonly secret: string;
  readonly privileges: readonly string[];
}

export const credentialSchema = z
  .object({
    auth: z.enum(AUTH_MODES),
    secret: z.string().min(1).max(4096),
    privileges: z.array(z.string().min(1).max(200)).max(1000),
  })
  .strict();
export const credentialsFileSchema = z.array(credentialSchema).max(1000);

export interface Principal {
  readonly username: string;
  readonly privileges: ReadonlySet<string>;
}

const JWT_LIFETIME_SECONDS = 3600;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison (hashing first makes unequal lengths safe to compare). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function authFailed(): ApiError {
  return new ApiError(401, 'AUTH_AUTHENTICATION_FAILED', 'Authentication failed.');
}

export class Authenticator {
  readonly #modes: ReadonlySet<AuthMode>;
  readonly #credentials: readonly Credential[];
  readonly #jwtSecret = randomBytes(32);

  constructor(modes: readonly AuthMode[], credentials: readonly Credential[]) {
    this.#modes = new Set(modes);
    this.#credentials = Object.freeze([...credentials]);
  }

  get modes(): readonly AuthMode[] {
    return [...this.#modes];
  }

  /**
   * Authenticates a request. `basicOnly` mirrors POST /api/v2/auth/jwt, which pfrest serves to BasicAuth
   * alone whatever the configured methods are.
   */
  authenticate(headers: IncomingHttpHeaders, basicOnly = false): Principal {
    const modes: ReadonlySet<AuthMode> = basicOnly ? new Set<AuthMode>(['basic']) : this.#modes;
    const apiKey = headers['x-api-key'];
    if (modes.has('key') && typeof apiKey === 'string' && apiKey.length > 0) {
      const cred = this.#credentials.find((c) => c.auth === 'key' && sameSecret(c.secret, apiKey));
      if (cred) return { username: 'api-key', privileges: new Set(cred.privileges) };
    }
    const authz = headers.authorization ?? '';
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authz);
    if (modes.has('basic') && basic) {
      const pair = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
      const cred = this.#credentials.find((c) => c.auth === 'basic' && sameSecret(c.secret, pair));
      if (cred) return { username: pair.slice(0, Math.max(0, pair.indexOf(':'))), privileges: new Set(cred.privileges) };
    }
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authz);
    if (modes.has('jwt') && bearer) {
      const token = bearer[1] ?? '';
      const fixed = this.#credentials.find((c) => c.auth === 'jwt' && sameSecret(c.secret, token));
      if (fixed) return { username: 'jwt', privileges: new Set(fixed.privileges) };
      const claims = verifyJwt(token, this.#jwtSecret, Math.floor(Date.now() / 1000));
      if (claims) {
        // A token carries the privileges its Basic user has now, as pfrest re-reads the user on every call.
        const user = this.#credentials.find((c) => c.auth === 'basic' && c.secret.split(':')[0] === claims.sub);
        if (user) return { username: claims.sub, privileges: new Set(user.privileges) };
      }
    }
    throw authFailed();
  }

  issueJwt(principal: Principal): string {
    const now = Math.floor(Date.now() / 1000);
    return signJwt({ iss: 'pfsense-sim', sub: principal.username, iat: now, exp: now + JWT_LIFETIME_SECONDS }, this.#jwtSecret);
  }
}

/** Throws 403 unless the principal holds page-all or the endpoint's own privilege. */
export function authorize(principal: Principal, path: string, method: string): void {
  if (principal.privileges.has(PAGE_ALL) || principal.privileges.has(privilegeFor(path, method))) return;
  throw new ApiError(
    403,
    'AUTH_AUTHORIZATION_FAILED',
    'Authorization failed. You do not have sufficient privileges to access this resource.',
  );
}
