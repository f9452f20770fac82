import { ArtifactKind, parseArtifact } from '@pfsense-mcp/authorization';
import type { Artifact } from '@pfsense-mcp/authorization';
import type { ArtifactDirectory } from './artifact-directory.js';
import { ArtifactFileError } from './artifact-file-error.js';
import { nameCouldConcern, parseInboxArtifactName } from './inbox-artifact-name.js';
import type { InboxArtifactName, InboxWant } from './inbox-artifact-name.js';

/** What selects an inbox artifact for an operation: its kind and the ids it names (no value, no proof). */
export interface ArtifactSelector {
  readonly kind: string;
  readonly planDigest: string | null;
  readonly contractId: string | null;
  readonly stateVersion: number | null;
  /** The artifact's own expiry (UTC ms); an expired file can answer nothing and is passed over. */
  readonly expiresAt: number | null;
}

/** One selected inbox file, read in full: its name and the parsed (not yet verified) artifact. */
export interface InboxEntry {
  readonly fileName: string;
  readonly artifact: Artifact;
}

/** The selector of a parsed artifact (what InboxIndex caches per file). */
export function selectorOf(artifact: Artifact): ArtifactSelector {
  const p = artifact.payload as unknown as Readonly<Record<string, unknown>>;
  return Object.freeze({
    kind: artifact.kind,
    planDigest: artifact.kind === ArtifactKind.PLAN_AUTHORIZATION && typeof p.plan_digest === 'string' ? p.plan_digest : null,
    contractId: typeof p.contract_id === 'string' ? p.contract_id : null,
    stateVersion: typeof p.state_version === 'number' ? p.state_version : null,
    expiresAt: typeof p.expires_at === 'number' ? p.expires_at : null,
  });
}

/**
 * The inbox through a cache: each candidate is parsed once and its selector cached under a key of name + device,
 * inode, size, mtime, ctime, mode and owner (`ArtifactDirectory.statKey`, which also re-checks the file's safety on
 * every call). A changed key is re-read and re-parsed. A call then opens only the files it looks for, and reads
 * those in full again (the gate verifies them). Canonical names (`inbox-artifact-name.ts`, what `admin inbox add`
 * writes) say what their file concerns, so a file that cannot be read refuses only those calls; the cache never
 * remembers a failure.
 */
export class InboxIndex {
  readonly #directory: ArtifactDirectory;
  readonly #entries = new Map<string, { readonly key: string; readonly selector: ArtifactSelector }>();

  constructor(directory: ArtifactDirectory) {
    this.#directory = directory;
  }

  /** The cached selector of one candidate, re-read when its key changed. Throws ArtifactFileError / a parse error. */
  #selector(fileName: string): ArtifactSelector {
    const key = this.#directory.statKey(fileName);
    const cached = this.#entries.get(fileName);
    if (cached !== undefined && cached.key === key) return cached.selector;
    this.#entries.delete(fileName);
    const selector = selectorOf(parseArtifact(this.#directory.read(fileName)));
    // Stored under the key seen before the read: a change during the read makes the next scan read again.
    this.#entries.set(fileName, { key, selector });
    return selector;
  }

  /**
   * The files a call looks for (`want`), each opened again in full and returned — discovery grants nothing: each is
   * fully verified by the gate it is handed to. Every candidate's safety is re-checked on every call (owner, mode,
   * no symlink, size: `statKey`) and parsed once per change. A file that cannot be read (unsafe, malformed) or whose
   * content disagrees with its canonical name refuses the call — throws, fail closed, left in place — only when its
   * name could concern that call (`inbox-artifact-name.ts`); a name that is not canonical concerns no call, so such
   * a file never refuses one (read, it can still answer its call). An expired artifact can answer nothing: passed
   * over, so a signed file that expired in the inbox no longer pins its operation. Also throws on a selected file
   * that changed between the scan and its read.
   */
  matches(want: InboxWant, now: number): readonly InboxEntry[] {
    const names = this.#directory.list();
    const seen = new Set(names);
    for (const name of [...this.#entries.keys()]) if (!seen.has(name)) this.#entries.delete(name);
    const concerns = (a: ArtifactSelector) => selectorConcerns(a, want);
    const out: InboxEntry[] = [];
    for (const fileName of names) {
      const named = parseInboxArtifactName(fileName);
      const nameConcerns = named !== null && nameCouldConcern(named, want);
      let selector: ArtifactSelector;
      try {
        selector = this.#selector(fileName);
      } catch (error) {
        if (nameConcerns) throw error;
        continue;
      }
      if (named !== null && !selectorAgrees(named, selector)) {
        if (nameConcerns || concerns(selector))
          throw new ArtifactFileError('CHANGED', fileName, 'holds another artifact than its name says');
        continue;
      }
      if (!concerns(selector) || (selector.expiresAt !== null && selector.expiresAt <= now)) continue;
      const artifact = parseArtifact(this.#directory.read(fileName));
      if (!concerns(selectorOf(artifact))) throw new ArtifactFileError('CHANGED', fileName, 'changed between its scan and its read');
      out.push(Object.freeze({ fileName, artifact }));
    }
    return Object.freeze(out);
  }
}

/** Whether a parsed selector is what `want` looks for. */
export function selectorConcerns(a: ArtifactSelector, want: InboxWant): boolean {
  if (a.kind !== want.kind) return false;
  if (want.planDigest !== undefined && a.planDigest !== want.planDigest) return false;
  if (want.contractId !== undefined && a.contractId !== want.contractId) return false;
  return want.stateVersion === undefined || a.stateVersion === want.stateVersion;
}

/** Whether a file's content is what its canonical name says. */
function selectorAgrees(named: InboxArtifactName, a: ArtifactSelector): boolean {
  if (named.kind !== a.kind) return false;
  if (named.planPrefix !== null) return a.planDigest !== null && a.planDigest.startsWith(named.planPrefix);
  return named.contractId === a.contractId && (named.stateVersion === null || named.stateVersion === a.stateVersion);
}
