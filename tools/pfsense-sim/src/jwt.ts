// Minimal HS256 JWTs for POST /api/v2/auth/jwt and Bearer auth (pfrest issues HS256 tokens signed with a
// server secret; default lifetime 3600 s).
import { createHmac, timingSafeEqual } from 'node:crypto';

function b64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

export interface JwtClaims {
  readonly iss: string;
  readonly sub: string;
  readonly iat: number;
  readonly exp: number;
}

export function signJwt(claims: JwtClaims, secret: Buffer): string {
  const head = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
  const body = b64url(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  return `${head}.${body}.${b64url(sig)}`;
}

/** Returns the claims of a valid, unexpired token, else null. */
export function verifyJwt(token: string, secret: Buffer, nowSeconds: number): JwtClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<JwtClaims>;
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return null;
    return claims as JwtClaims;
  } catch {
    return null;
  }
}
