import { lstatSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AliasDescriptionAdapter, assertAliasName } from '@pfsense-mcp/adapters';
import { parseAuthorizationRequestName } from '@pfsense-mcp/coordinator';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { withWriteDirectory } from './admin-facts.js';
import { classifyArtifacts } from './classify-artifacts.js';
import type { ClassifiedArtifact } from './classify-artifacts.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';

function describe(a: ClassifiedArtifact): string {
  const what = [
    a.kind ?? 'unreadable',
    a.operationId === null ? null : `operation ${a.operationId}`,
    a.contractId === null ? null : `contract ${a.contractId}`,
  ]
    .filter((x) => x !== null)
    .join(', ');
  const condition = a.condition === 'blocking' ? `BLOCKING (${a.blocking ?? 'unknown'})` : a.condition;
  return `  ${a.box}/${a.file}  ${condition}  ${what}`;
}

function json(a: ClassifiedArtifact) {
  return {
    box: a.box,
    file: a.file,
    kind: a.kind,
    operation_id: a.operationId,
    contract_id: a.contractId,
    expires_at: a.expiresAt,
    condition: a.condition,
    blocking: a.blocking,
  };
}

/**
 * Removes one inbox/outbox entry whatever its kind — a file, a FIFO, a socket, a symbolic link (the link, never its
 * target) or a directory with what it holds (an output once misdirected there) — and returns null, or the errno
 * code of the failure (say EACCES on another user's directory): reported by name, never an INTERNAL.
 */
function removeEntry(path: string): string | null {
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) rmSync(path, { recursive: true, force: true });
    else unlinkSync(path);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? null : typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : 'EIO';
  }
}

/** `admin artifacts list`: every outbox and inbox file with what it is and whether it blocks. */
export async function artifactsListCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const layout = openWriteDirectory(args, ctx);
  return withWriteDirectory(layout, ctx, (w) => {
    const all = classifyArtifacts(w.inbox, w.outbox, w.facts());
    const blocking = all.filter((a) => a.condition === 'blocking').length;
    return adminResult(
      [
        `${all.length} artifact files (${blocking} blocking)`,
        ...all.map(describe),
        ...(blocking > 0 ? ['remove blocking inbox files with `admin artifacts clean --blocking`'] : []),
      ],
      { artifacts: all.map(json) },
    );
  });
}

/**
 * `--requests [--alias NAME]`: which outbox names to clear besides the dead files — every pending authorization
 * request (outstanding ones included: they hold the request slots, WRITE_REQUEST_LIMITS), or only those of one
 * alias, matched by the alias key its name carries (docs/DESIGN.md §6). Null without --requests.
 */
function requestsToClear(args: AdminArgs): ((file: string) => boolean) | null {
  const alias = args.values.get('--alias');
  if (!args.flags.has('--requests')) {
    if (alias !== undefined) throw AdminError.usage('--alias: only with --requests');
    return null;
  }
  let aliasKey: string | null = null;
  if (alias !== undefined) {
    try {
      assertAliasName(alias, 'alias_name');
    } catch {
      throw AdminError.usage('--alias: an alias name, 1-31 characters of A-Z, a-z, 0-9 and _');
    }
    aliasKey = AliasDescriptionAdapter.identityDigest({ alias_name: alias }).slice(0, 16);
  }
  return (file) => {
    const parts = parseAuthorizationRequestName(file);
    return parts !== null && (aliasKey === null || parts.aliasKey === aliasKey);
  };
}

/**
 * `admin artifacts clean [--dry-run] [--blocking] [--requests [--alias NAME]]`: removes only files that can no longer
 * move anything forward — expired or answered, and not the confirmation request of a non-terminal contract;
 * `--blocking` also the blocking inbox files; `--requests` also the pending authorization requests (of one alias
 * with --alias), freeing their slots — explicit, never automatic. Removing a file never restores a consumed
 * authorization and grants no retry; a removed request is simply asked for again.
 */
export async function artifactsCleanCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const layout = openWriteDirectory(args, ctx);
  const dryRun = args.flags.has('--dry-run');
  const withBlocking = args.flags.has('--blocking');
  const requests = requestsToClear(args);
  return withWriteDirectory(layout, ctx, (w) => {
    const all = classifyArtifacts(w.inbox, w.outbox, w.facts());
    const chosen = all.filter(
      (a) =>
        (requests !== null && a.box === 'outbox' && requests(a.file)) ||
        (a.removable &&
          (a.condition === 'answered' ||
            a.condition === 'expired' ||
            (a.condition === 'blocking' && (withBlocking || a.blocking === 'expired') && a.box === 'inbox'))),
    );
    const failed: { readonly artifact: ClassifiedArtifact; readonly code: string }[] = [];
    const removed: ClassifiedArtifact[] = [];
    for (const a of chosen) {
      const code = dryRun ? null : removeEntry(join(a.box === 'inbox' ? layout.inboxDir : layout.outboxDir, a.file));
      if (code === null) removed.push(a);
      else failed.push({ artifact: a, code });
    }
    const verb = dryRun ? 'would remove' : 'removed';
    const why = (a: ClassifiedArtifact) =>
      a.condition === 'blocking' ? a.blocking : a.condition === 'still-useful' ? 'pending request, --requests' : a.condition;
    return adminResult(
      [
        ...(chosen.length === 0 ? ['nothing to remove'] : []),
        ...removed.map((a) => `${verb} ${a.box}/${a.file} (${why(a)})`),
        ...failed.map((f) => `could not remove ${f.artifact.box}/${f.artifact.file} (${f.code}): remove it by hand`),
      ],
      {
        dry_run: dryRun,
        removed: removed.map(json),
        ...(failed.length === 0 ? {} : { failed: failed.map((f) => ({ ...json(f.artifact), code: f.code })) }),
      },
      failed.length === 0 ? 0 : 1,
    );
  });
}
