// Who may use the /__sim/ control endpoint: loopback peers presenting the admin X-API-Key. A remote peer
// gets the nginx 404 (the endpoint does not exist for it, even with --allow-remote); a loopback peer
// without the key gets a 401.
import { sameSecret } from './auth.js';

export type ControlAccess = 'allowed' | 'not-found' | 'unauthorized';

/** true for 127.0.0.0/8 (also IPv4-mapped) and ::1 — the socket's remote address, not a Host header. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (typeof address !== 'string') return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

export function controlAccess(peer: string | undefined, presentedKey: string | string[] | undefined, adminKey: string): ControlAccess {
  if (!isLoopbackPeer(peer)) return 'not-found';
  if (typeof presentedKey !== 'string' || !sameSecret(presentedKey, adminKey)) return 'unauthorized';
  return 'allowed';
}
