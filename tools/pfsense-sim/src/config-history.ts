// pfSense's configuration history as pfrest v2 serves it (ConfigHistoryRevision: time, description,
// version, filesize; id = the index in the list, newest first). Every config write pfrest makes goes
// through Model::write_config(), which calls pfSense's write_config(' ' . $change_note) with the client's
// username and address in the session; pfSense prefixes "<user>@<address>: " and keeps the newest
// `DEFAULT_REVISION_COUNT` backups. POST /firewall/apply writes no config (FirewallApply::_create is empty).
import type { JsonObject } from './model-shaper.js';

export const REVISIONS_PATH = '/api/v2/diagnostics/config_history/revisions';
/** pfSense's default "Backup Count" (System > Advanced > Config History). */
export const DEFAULT_REVISION_COUNT = 30;
/** The configuration version pfSense writes into each revision (the demo appliance's). */
export const CONFIG_VERSION = '24.0';

/** pfrest's own change notes for FirewallAlias writes (Model::_create/_update/_delete, verbose name "Firewall Alias"). */
export const ALIAS_CHANGE_NOTES: Readonly<Record<string, string>> = Object.freeze({
  POST: 'Added Firewall Alias via API',
  PATCH: 'Modified Firewall Alias via API',
  DELETE: 'Deleted Firewall Alias via API',
});

/** Who made a write, as pfSense records it: the authenticated username and the client address. */
export interface RevisionAuthor {
  readonly username: string;
  readonly address: string;
}

/** One revision as stored (the id is the array index when served). */
export function revisionFor(author: RevisionAuthor, changeNote: string, now: Date, filesize: number): JsonObject {
  return {
    time: Math.floor(now.getTime() / 1000),
    // pfrest passes ' ' . $change_note and pfSense writes "{$username}: {$desc}", hence the two spaces.
    description: `${author.username}@${author.address}:  ${changeNote}`,
    version: CONFIG_VERSION,
    filesize,
  };
}

/** Newest first, rotated at the backup count. */
export function appendRevision(revisions: readonly JsonObject[], revision: JsonObject, limit = DEFAULT_REVISION_COUNT): JsonObject[] {
  return [revision, ...revisions].slice(0, limit);
}
