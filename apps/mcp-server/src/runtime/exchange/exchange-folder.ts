// The exchange folder (docs/DESIGN.md §6): a transport between the server and the operator's signer, never an
// inbox. The server copies each pending authorization and confirmation request into requests/ and, at each call,
// installs the verified answers it finds in answers/ into its own inbox — through installOperatorArtifact, the
// code `admin inbox add` runs. Nothing in the folder is ever deleted or rewritten by the server; every file in it
// is examined as untrusted input, at most a fixed number per call.
import { closeSync, constants, fsyncSync, lstatSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactFormatError, MAX_ARTIFACT_BYTES, parseArtifact, requestNameOfAnswer } from '@pfsense-mcp/authorization';
import { ArtifactDirectory, exchangeNameOfOutboxFile, exchangeRequestName, parseAuthorizationRequestName } from '@pfsense-mcp/coordinator';
import type { PendingRequest } from '@pfsense-mcp/coordinator';
import type { PinnedAuthoritySet } from '@pfsense-mcp/crypto';
import { RegularFileError, readRegularFileChunks } from '@pfsense-mcp/foundation';
import { installOperatorArtifact, verifyOperatorArtifact } from '../write-directory/install-operator-artifact.js';
import { InstallRefusal } from '../write-directory/install-refusal.js';
import { opensAsPrivateKey } from '../write-directory/opens-as-private-key.js';
import { ExchangeError } from './exchange-error.js';
import { assertExchangeFolder } from './exchange-layout.js';
import type { ExchangeLayout } from './exchange-layout.js';

/** Answer files opened and verified per call at most; the rest wait for the next call (a flood never blocks a write). */
export const MAX_ANSWERS_PER_CALL = 16;
/** Files whose opening line is checked for a private key label per call at most (each file once per process). */
export const MAX_KEY_CHECKS_PER_CALL = 128;
/** How deep and how many folders the private-key scan walks. */
const MAX_SCAN_DEPTH = 4;
const MAX_SCAN_FOLDERS = 64;

/** Why an answer file was not installed: a code and a rule (for `admin status`; the AI sees only the count). */
export interface ExchangeProblem {
  readonly file: string;
  readonly code: string;
  readonly reason: string;
}

/** What the pickup knows: invalid files in answers/ (with reasons), and whether a private key stopped it. */
export interface ExchangeReport {
  readonly invalidFiles: number;
  readonly problems: readonly ExchangeProblem[];
  readonly stopped: ExchangeError | null;
}

export interface ExchangeFolderOptions {
  readonly layout: ExchangeLayout;
  readonly inboxDir: string;
  readonly outboxDir: string;
  readonly authorities: PinnedAuthoritySet;
  /** The write directory's server-request key ids (serverRequestKeyIdsOf): an answer to another server's is not taken. */
  readonly requestKeyIds: readonly string[];
  readonly clock: () => number;
  /** false (`admin status`): verify only, install nothing. */
  readonly install: boolean;
  /** Answer files opened per pickup at most (default MAX_ANSWERS_PER_CALL; `admin status` looks at every one). */
  readonly answersPerPickup?: number;
}

/** One entry of a folder listing: its name and whether it is a directory or a regular file (never followed). */
interface Entry {
  readonly name: string;
  readonly directory: boolean;
  readonly file: boolean;
}

interface Listing {
  /** The folder's identity and change times (ns): a listing is reused while none of them moved. */
  readonly stamp: string;
  readonly entries: readonly Entry[];
}

interface Examined {
  readonly identity: string;
  readonly problem: ExchangeProblem | null;
}

const privateKeyError = (): ExchangeError =>
  new ExchangeError(
    'PRIVATE_KEY',
    'a private key file lies in PFSENSE_WRITE_EXCHANGE_DIR: operator keys stay on the signing machine, never in the shared folder; move it out (pickup is stopped until the server restarts without it)',
  );

function problem(file: string, code: string, reason: string): ExchangeProblem {
  return Object.freeze({ file, code, reason });
}

/** The file's bytes: a regular file opened without following a link, at most the artifact size limit. */
function readAnswer(path: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  readRegularFileChunks(path, MAX_ARTIFACT_BYTES, (c) => chunks.push(c), MAX_ARTIFACT_BYTES + 1, { noFollow: true });
  return new Uint8Array(Buffer.concat(chunks));
}

export class ExchangeFolder {
  readonly layout: ExchangeLayout;
  readonly #options: ExchangeFolderOptions;
  readonly #outbox: ArtifactDirectory;
  /** Files of the folder whose opening line was checked (or which the server wrote): never checked again. */
  readonly #keyChecked = new Set<string>();
  readonly #examined = new Map<string, Examined>();
  readonly #exchangeNames = new Map<string, string | null>();
  readonly #listings = new Map<string, Listing>();
  readonly #junk = new Map<string, ExchangeProblem>();
  #sorted: {
    readonly entries: readonly Entry[];
    readonly pendingKey: string;
    readonly junk: readonly ExchangeProblem[];
    readonly candidates: readonly string[];
  } | null = null;
  /** Listings whose every file was checked for a private key: walked again only for their subfolders. */
  readonly #fullyChecked = new WeakSet<readonly Entry[]>();
  #problems: readonly ExchangeProblem[] = [];
  #stopped: ExchangeError | null = null;

  private constructor(options: ExchangeFolderOptions) {
    this.layout = options.layout;
    this.#options = options;
    this.#outbox = ArtifactDirectory.open(options.outboxDir);
  }

  /**
   * Checks the folder (requests/ and answers/ real directories) and scans all of it for a private key file; throws
   * ExchangeError (start-up stops with it). Owner and mode are not required: a sync tool sets its own.
   */
  static open(options: ExchangeFolderOptions): ExchangeFolder {
    assertExchangeFolder(options.layout);
    const folder = new ExchangeFolder(options);
    if (folder.#scanForKeys(Number.POSITIVE_INFINITY)) throw privateKeyError();
    return folder;
  }

  /** Invalid answer files (by reason) and whether the pickup was stopped. */
  report(): ExchangeReport {
    return Object.freeze({ invalidFiles: this.#problems.length, problems: this.#problems, stopped: this.#stopped });
  }

  /** Where the exchange copy of a pending request is (or will be), or null for a request `approve` does not answer. */
  requestPathOf(pending: PendingRequest): string | null {
    const name = exchangeRequestName(pending);
    return name === null ? null : join(this.layout.requestsDir, name);
  }

  /**
   * Copies a pending authorization or confirmation request from the outbox into requests/ under its exchange name,
   * by exclusive creation (0600): an existing file of that name is left as it is. Never throws: a copy that cannot
   * be written leaves the request in the outbox, where the manual flow finds it.
   */
  mirror(pending: PendingRequest | null): void {
    if (pending === null || this.#stopped !== null) return;
    const path = this.requestPathOf(pending);
    if (path === null || this.#keyChecked.has(path)) return;
    let fd: number | null = null;
    try {
      const bytes = this.#outbox.read(pending.file);
      fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      writeSync(fd, bytes);
      fsyncSync(fd);
      this.#keyChecked.add(path);
    } catch (error) {
      // EEXIST: written by an earlier call or process; it is checked like any other file of the folder.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /**
   * One pickup: the private-key scan (bounded), then each file of answers/ — a name that answers none of the
   * server's pending requests is counted without being opened; a new or changed answer (at most
   * MAX_ANSWERS_PER_CALL) is read and installed as `admin inbox add` would. Never throws.
   */
  pickup(): ExchangeReport {
    if (this.#stopped !== null) return this.report();
    try {
      if (this.#scanForKeys(MAX_KEY_CHECKS_PER_CALL)) {
        this.#stopped = privateKeyError();
        return this.report();
      }
      const now = this.#options.clock();
      const pending = this.#pendingNames(now);
      const { junk, candidates } = this.#sortAnswers(this.#list(this.layout.answersDir), pending);
      const problems: ExchangeProblem[] = [...junk];
      let opened = 0;
      for (const name of candidates) {
        const path = join(this.layout.answersDir, name);
        let identity: string;
        try {
          const st = lstatSync(path);
          identity = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
        } catch {
          continue; // gone since the listing
        }
        const seen = this.#examined.get(name);
        if (seen !== undefined && seen.identity === identity) {
          if (seen.problem !== null) problems.push(seen.problem);
          continue;
        }
        if (opened >= (this.#options.answersPerPickup ?? MAX_ANSWERS_PER_CALL)) continue;
        opened += 1;
        const found = this.#examine(path, name, now);
        if (found.final) this.#examined.set(name, { identity, problem: found.problem });
        if (found.problem !== null) problems.push(found.problem);
      }
      this.#problems = Object.freeze(problems);
    } catch {
      // answers/ cannot be listed now: nothing is picked up this call; the inbox works as before.
    }
    return this.report();
  }

  /**
   * The files of answers/ split by name: those that answer nothing pending (counted, never opened) and the
   * candidates. Decided again only when the listing or the pending requests changed.
   */
  #sortAnswers(
    entries: readonly Entry[],
    pending: ReadonlySet<string>,
  ): { junk: readonly ExchangeProblem[]; candidates: readonly string[] } {
    const key = [...pending].sort().join(',');
    const last = this.#sorted;
    if (last !== null && last.entries === entries && last.pendingKey === key) return last;
    const junk: ExchangeProblem[] = [];
    const candidates: string[] = [];
    for (const { name } of entries) {
      const request = requestNameOfAnswer(name);
      if (request !== null && pending.has(request)) candidates.push(name);
      else junk.push(this.#junkProblem(name, request === null));
    }
    this.#sorted = { entries, pendingKey: key, junk, candidates };
    return this.#sorted;
  }

  /** A file of answers/ that answers nothing pending: counted by name, never opened (one frozen reason per name). */
  #junkProblem(name: string, badName: boolean): ExchangeProblem {
    const key = `${badName ? 'n' : 'p'}:${name}`;
    let found = this.#junk.get(key);
    if (found === undefined) {
      found = badName
        ? problem(name, 'NOT_AN_ANSWER', 'is not named after a request (requests/NAME.json is answered by answers/NAME.signed.json)')
        : problem(name, 'NO_PENDING_REQUEST', 'answers no request this server is waiting for (expired, or never asked)');
      this.#junk.set(key, found);
    }
    return found;
  }

  /**
   * The entries of a folder (sorted by name), listed again only when the folder changed (its inode or change times,
   * in ns): a flood of files costs one listing, not one per call. Throws when the folder cannot be listed.
   */
  #list(folder: string): readonly Entry[] {
    const st = lstatSync(folder, { bigint: true });
    const stamp = `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
    const cached = this.#listings.get(folder);
    if (cached !== undefined && cached.stamp === stamp) return cached.entries;
    const entries = readdirSync(folder, { withFileTypes: true })
      .map((d) => Object.freeze({ name: d.name, directory: d.isDirectory(), file: d.isFile() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.#listings.set(folder, Object.freeze({ stamp, entries: Object.freeze(entries) }));
    return entries;
  }

  /** One answer: read (no-follow, bounded), parsed, verified and installed — or the reason it was not. */
  #examine(path: string, name: string, now: number): { final: boolean; problem: ExchangeProblem | null } {
    let artifact;
    try {
      artifact = parseArtifact(readAnswer(path));
    } catch (error) {
      if (error instanceof RegularFileError) {
        return {
          final: true,
          problem: problem(name, error.problem, error.problem === 'TOO_LARGE' ? 'is too large' : 'is not a regular file'),
        };
      }
      if (error instanceof ArtifactFormatError)
        return { final: true, problem: problem(name, `ARTIFACT_${error.code}`, 'is not a well-formed artifact') };
      const code = (error as NodeJS.ErrnoException).code;
      return {
        final: false,
        problem: problem(name, code === 'ELOOP' ? 'SYMLINK' : 'UNREADABLE', code === 'ELOOP' ? 'is a symbolic link' : 'cannot be read'),
      };
    }
    const { authorities, requestKeyIds } = this.#options;
    try {
      if (this.#options.install) installOperatorArtifact(this.#options.inboxDir, artifact, authorities, now, name, requestKeyIds);
      else verifyOperatorArtifact(artifact, authorities, now, name, requestKeyIds);
      return { final: true, problem: null };
    } catch (error) {
      if (!(error instanceof InstallRefusal)) throw error;
      if (error.code === 'ALREADY_INSTALLED') return { final: true, problem: null };
      // The inbox itself failing is not the file's fault: examined again at the next call.
      return { final: !error.code.startsWith('INBOX_'), problem: problem(name, error.code, error.message) };
    }
  }

  /** The exchange names of the outbox's requests that may still be answered now (names hashed once per file). */
  #pendingNames(now: number): ReadonlySet<string> {
    const names = new Set<string>();
    for (const file of this.#outbox.list()) {
      let exchange = this.#exchangeNames.get(file);
      if (exchange === undefined) {
        // Time-free here (every expiry is after 0); an authorization request's expiry is checked below.
        exchange = exchangeNameOfOutboxFile(file, 0);
        this.#exchangeNames.set(file, exchange);
      }
      if (exchange === null) continue;
      const auth = parseAuthorizationRequestName(file);
      if (auth === null || auth.expiresAt > now) names.add(exchange);
    }
    return names;
  }

  /**
   * Walks the folder (bounded depth and folder count; symbolic links are never followed) for a private key file:
   * a name ending in .key, or a file opening with a private key label (the label alone is read, each file once).
   * At most `budget` files are opened per walk. True when one is found.
   */
  #scanForKeys(budget: number): boolean {
    let left = budget;
    const folders: { path: string; depth: number }[] = [{ path: this.layout.dir, depth: 0 }];
    let walked = 0;
    while (folders.length > 0 && walked < MAX_SCAN_FOLDERS) {
      const { path: folder, depth } = folders.shift() as { path: string; depth: number };
      walked += 1;
      let entries;
      try {
        entries = this.#list(folder);
      } catch {
        continue;
      }
      const checkedBefore = this.#fullyChecked.has(entries);
      let unchecked = false;
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (entry.directory) {
          if (depth + 1 < MAX_SCAN_DEPTH) folders.push({ path, depth: depth + 1 });
          continue;
        }
        if (checkedBefore || !entry.file || this.#keyChecked.has(path)) continue;
        if (entry.name.endsWith('.key')) return true;
        if (left <= 0) {
          unchecked = true;
          continue;
        }
        left -= 1;
        if (opensAsPrivateKey(path)) return true;
        this.#keyChecked.add(path);
      }
      if (!unchecked) this.#fullyChecked.add(entries);
    }
    return false;
  }
}
