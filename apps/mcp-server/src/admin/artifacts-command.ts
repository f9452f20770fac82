import { lstatSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminContext } from './admin-context.js';
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
 * `admin artifacts clean [--dry-run] [--blocking]`: removes only files that can no longer move anything forward —
 * expired or answered, and not the confirmation request of a non-terminal contract; `--blocking` also the blocking
 * inbox files. Removing a file never restores a consumed authorization and grants no retry.
 */
export async function artifactsCleanCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const layout = openWriteDirectory(args, ctx);
  const dryRun = args.flags.has('--dry-run');
  const withBlocking = args.flags.has('--blocking');
  return withWriteDirectory(layout, ctx, (w) => {
    const all = classifyArtifacts(w.inbox, w.outbox, w.facts());
    const chosen = all.filter(
      (a) =>
        a.removable &&
        (a.condition === 'answered' ||
          a.condition === 'expired' ||
          (a.condition === 'blocking' && (withBlocking || a.blocking === 'expired') && a.box === 'inbox')),
    );
    const failed: { readonly artifact: ClassifiedArtifact; readonly code: string }[] = [];
    const removed: ClassifiedArtifact[] = [];
    for (const a of chosen) {
      const code = dryRun ? null : removeEntry(join(a.box === 'inbox' ? layout.inboxDir : layout.outboxDir, a.file));
      if (code === null) removed.push(a);
      else failed.push({ artifact: a, code });
    }
    const verb = dryRun ? 'would remove' : 'removed';
    return adminResult(
      [
        ...(chosen.length === 0 ? ['nothing to remove'] : []),
        ...removed.map((a) => `${verb} ${a.box}/${a.file} (${a.condition === 'blocking' ? a.blocking : a.condition})`),
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
