import { isPurgeable } from '@pfsense-mcp/contract-store';
import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import { RETENTION_DAYS_VARIABLE, retentionMsOf } from './purge-command.js';
import { RUNBOOK_ANCHORS, seeRunbook } from './runbook-anchors.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The retention window as `admin status` shows it: configured days, where they come from, what `purge` would take. */
export interface RetentionStatus {
  readonly days: number;
  readonly source: 'env' | 'default';
  /** Terminal contracts past the window whose protected artifacts are still there (what `admin purge` removes). */
  readonly purgeable: number;
}

export function retentionStatus(
  contracts: Iterable<RecoveryContract>,
  env: Readonly<Record<string, string | undefined>>,
  now: number,
): RetentionStatus {
  const retentionMs = retentionMsOf(env);
  const value = env[RETENTION_DAYS_VARIABLE];
  let purgeable = 0;
  for (const c of contracts) if (isPurgeable(c, now, retentionMs)) purgeable += 1;
  return Object.freeze({ days: retentionMs / DAY_MS, source: value === undefined || value === '' ? 'default' : 'env', purgeable });
}

/** The status line: the window, its source, and the count with the command that purges them. */
export function retentionLine(r: RetentionStatus): string {
  const source = r.source === 'env' ? RETENTION_DAYS_VARIABLE : `default; set ${RETENTION_DAYS_VARIABLE} to change`;
  const tail = r.purgeable > 0 ? `: \`admin purge\` (server stopped) — ${seeRunbook(RUNBOOK_ANCHORS.retention)}` : '';
  return `retention: ${r.days} days (${source}); ${r.purgeable} terminal contract(s) past it with protected artifacts${tail}`;
}
