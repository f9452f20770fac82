// The exchange folder's part of `admin status` (docs/DESIGN.md §6): where it is, its owner and mode (reported, not
// required), and each answer file the server did not take, with its reason — named here only, never to the AI.
import { lstatSync } from 'node:fs';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { ExchangeError } from '../runtime/exchange/exchange-error.js';
import { ExchangeFolder } from '../runtime/exchange/exchange-folder.js';
import { WRITE_EXCHANGE_DIR_VARIABLE, exchangeLayout } from '../runtime/exchange/exchange-layout.js';
import { serverRequestKeyIdsOf } from '../runtime/write-directory/server-request-key-ids.js';
import type { WriteDirectoryLayout } from '../runtime/write-directory/write-directory-layout.js';
import { adminWriteSettings } from './admin-context.js';
import type { AdminContext } from './admin-context.js';
import type { AdminArgs } from './parse-admin-args.js';

export interface ExchangeStatus {
  readonly lines: readonly string[];
  readonly json: Readonly<Record<string, unknown>> | null;
}

function ownerAndMode(path: string): { owner: number | null; mode: string | null } {
  try {
    const st = lstatSync(path);
    return { owner: st.uid, mode: (st.mode & 0o777).toString(8).padStart(4, '0') };
  } catch {
    return { owner: null, mode: null };
  }
}

/**
 * The exchange folder of --exchange PATH or PFSENSE_WRITE_EXCHANGE_DIR (with --appliance: the entry's
 * write_exchange_dir), examined without installing anything.
 */
export function exchangeStatus(
  args: AdminArgs,
  ctx: AdminContext,
  layout: WriteDirectoryLayout,
  authorities: PinnedAuthoritySet,
): ExchangeStatus {
  const settings = adminWriteSettings(ctx);
  const given =
    args.values.get('--exchange') ?? (settings === null ? ctx.env[WRITE_EXCHANGE_DIR_VARIABLE] : (settings.exchangeDir ?? undefined));
  if (given === undefined || given === '') return { lines: [], json: null };
  let folder: ExchangeFolder;
  let where;
  try {
    where = exchangeLayout(given);
    folder = ExchangeFolder.open({
      layout: where,
      inboxDir: layout.inboxDir,
      outboxDir: layout.outboxDir,
      authorities,
      requestKeyIds: serverRequestKeyIdsOf(layout),
      clock: ctx.now,
      install: false,
      answersPerPickup: Number.POSITIVE_INFINITY,
    });
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    return {
      lines: [`exchange folder ${given}: UNUSABLE (${error.code}): ${error.message}`],
      json: { dir: given, usable: false, code: error.code, reason: error.message },
    };
  }
  const { problems } = folder.pickup();
  const { owner, mode } = ownerAndMode(where.dir);
  return {
    lines: [
      `exchange folder ${where.dir} (owner uid ${owner ?? '?'}, mode ${mode ?? '?'}): ${problems.length} answer file(s) not taken`,
      ...problems.map((p) => `  answers/${p.file}  ${p.code}: ${p.reason}`),
    ],
    json: {
      dir: where.dir,
      usable: true,
      owner_uid: owner,
      mode,
      invalid_files: problems.map((p) => ({ file: p.file, code: p.code, reason: p.reason })),
    },
  };
}
