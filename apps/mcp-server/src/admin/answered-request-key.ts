import type { Artifact } from '@pfsense-mcp/authorization';

/**
 * What one artifact asks or answers: its kind and the request it is about (a contract, or a plan for an
 * authorization, and the state version for reconciliation and release). Two inbox files with one key answer the
 * same request — the coordinator then refuses to choose between them (docs/OPERATIONS.md "a `refused` that keeps
 * coming back"), so `inbox add` refuses the second and `artifacts list` calls both `duplicate`.
 */
export function answeredRequestKey(a: Artifact): string {
  const payload = a.payload as unknown as Readonly<Record<string, unknown>>;
  const text = (name: string): string | null => (typeof payload[name] === 'string' ? (payload[name] as string) : null);
  const version = typeof payload['state_version'] === 'number' ? String(payload['state_version']) : '';
  return `${a.kind}|${text('contract_id') ?? text('plan_digest') ?? ''}|${version}`;
}
