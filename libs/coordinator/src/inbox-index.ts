import { ArtifactKind, parseArtifact } from '@pfsense-mcp/authorization';
import type { Artifact } from '@pfsense-mcp/authorization';
import type { ArtifactDirectory } from './artifact-directory.js';
import { ArtifactFileError } from './artifact-file-error.js';

/** What selects an inbox artifact for an operation: its kind and the ids it names (no value, no proof). */
export interface ArtifactSelector {
  readonly kind: string;
  readonly planDigest: string | null;
  readonly contractId: string | null;
  readonly stateVersion: number | null;
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
  });
}

/**
 * The inbox's names are the operator's (any safe name), so relevance cannot be read from a name: each
 * file is parsed once and its selector cached under a key of name + device, inode, size, mtime, ctime,
 * mode and owner (`ArtifactDirectory.statKey`, which also re-checks the file's safety on every scan). A
 * changed key is re-read and re-parsed. A call then opens only the files its operation selects, and reads
 * those in full again (the gate verifies them). An unsafe or malformed candidate still fails the scan
 * closed; the cache never remembers a failure.
 */
export class InboxIndex {
  readonly #directory: ArtifactDirectory;
  readonly #entries = new Map<string, { readonly key: string; readonly selector: ArtifactSelector }>();

  constructor(directory: ArtifactDirectory) {
    this.#directory = directory;
  }

  /** Names and selectors of every candidate, current as of this call. Throws ArtifactFileError / a parse error. */
  scan(): readonly { readonly fileName: string; readonly selector: ArtifactSelector }[] {
    const names = this.#directory.list();
    const seen = new Set(names);
    for (const name of [...this.#entries.keys()]) if (!seen.has(name)) this.#entries.delete(name);
    return Object.freeze(
      names.map((fileName) => {
        const key = this.#directory.statKey(fileName);
        const cached = this.#entries.get(fileName);
        if (cached !== undefined && cached.key === key) return Object.freeze({ fileName, selector: cached.selector });
        this.#entries.delete(fileName);
        const selector = selectorOf(parseArtifact(this.#directory.read(fileName)));
        // Stored under the key seen before the read: a change during the read makes the next scan read again.
        this.#entries.set(fileName, { key, selector });
        return Object.freeze({ fileName, selector });
      }),
    );
  }

  /**
   * Every candidate is checked on every call (owner, mode, no symlink, size: `statKey`) and parsed once per
   * change; only the files `relevant` selects are opened again, in full, and returned — discovery grants
   * nothing: each is fully verified by the gate it is handed to. Throws (fail closed: an unsafe or malformed
   * candidate is never treated as absent, and is left in place) on any such file, and on a selected file
   * that changed between the scan and its read.
   */
  matches(relevant: (a: ArtifactSelector) => boolean): readonly InboxEntry[] {
    const out: InboxEntry[] = [];
    for (const { fileName, selector } of this.scan()) {
      if (!relevant(selector)) continue;
      const artifact = parseArtifact(this.#directory.read(fileName));
      if (!relevant(selectorOf(artifact))) throw new ArtifactFileError('CHANGED', fileName, 'changed between its scan and its read');
      out.push(Object.freeze({ fileName, artifact }));
    }
    return Object.freeze(out);
  }
}
