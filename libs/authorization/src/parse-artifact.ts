import { CanonicalError, canonicalize } from '@pfsense-mcp/canonical';
import { ArtifactFormatError } from './artifact-format-error.js';
import { ARTIFACT_RULES, isArtifactKind, isReadableVersion } from './artifact-kind.js';
import type { ArtifactKind } from './artifact-kind.js';
import { ARTIFACT_CANONICAL_LIMITS, MAX_ALIAS_MEMBERS, MAX_ARTIFACT_BYTES } from './artifact-limits.js';
import { artifactSchemaOf } from './artifact.js';
import type { Artifact, ArtifactOfKind } from './artifact.js';
import { deepFreeze } from '@pfsense-mcp/foundation';
import { parseWith } from './parse-with.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function textOf(input: string | Uint8Array): string {
  if (typeof input === 'string') {
    if (Buffer.byteLength(input, 'utf8') > MAX_ARTIFACT_BYTES) {
      throw new ArtifactFormatError('TOO_LARGE', '', `must be at most ${MAX_ARTIFACT_BYTES} bytes`);
    }
    return input;
  }
  if (!(input instanceof Uint8Array)) throw new TypeError('parseArtifact: "input" must be a string or Uint8Array');
  if (input.length > MAX_ARTIFACT_BYTES) throw new ArtifactFormatError('TOO_LARGE', '', `must be at most ${MAX_ARTIFACT_BYTES} bytes`);
  try {
    // ignoreBOM: true keeps a BOM as U+FEFF, which the canonical-form check then refuses.
    return UTF8.decode(input);
  } catch {
    throw new ArtifactFormatError('NOT_UTF8', '', 'must be valid UTF-8');
  }
}

/** Validates an already-parsed document of any kind against the strict schema of its kind and version. */
export function validateArtifactDocument(value: unknown): Artifact {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ArtifactFormatError('NOT_ENVELOPE', '', 'must be an object {kind, version, payload, ...}');
  }
  const { kind, version } = value as { kind?: unknown; version?: unknown };
  if (typeof kind !== 'string' || typeof version !== 'number') {
    throw new ArtifactFormatError('NOT_ENVELOPE', '', 'must name its kind (string) and version (integer)');
  }
  if (!isArtifactKind(kind)) throw new ArtifactFormatError('UNKNOWN_KIND', 'kind', 'is not an artifact kind this build reads');
  // A version this build does not read is refused outright; an older readable one has its own schema and is
  // never read as the current one.
  if (!isReadableVersion(kind, version)) {
    const readable = [ARTIFACT_RULES[kind].version, ...ARTIFACT_RULES[kind].olderVersions].sort((a, b) => a - b).join(' or ');
    throw new ArtifactFormatError('UNSUPPORTED_VERSION', 'version', `must be ${readable} for this kind`);
  }
  return deepFreeze(parseWith(artifactSchemaOf(kind, version), value, '')) as Artifact;
}

/**
 * Parses one artifact file: at most MAX_ARTIFACT_BYTES, strict UTF-8, JSON whose text is exactly its own
 * canonical form (RFC 8785: no whitespace, sorted keys, no duplicates, no BOM, no trailing newline), a known
 * kind at a version this build reads, and a payload that matches the strict schema (unknown fields refused).
 * Returns the frozen document. Parsing verifies nothing cryptographic: see verifyArtifactSignature.
 */
export function parseArtifact(input: string | Uint8Array): Artifact {
  const text = textOf(input);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ArtifactFormatError('NOT_JSON', '', 'must be JSON');
  }
  let canonical: string;
  try {
    canonical = canonicalize(value, ARTIFACT_CANONICAL_LIMITS);
  } catch (e) {
    if (e instanceof CanonicalError && (e.code === 'MAX_ARRAY_LENGTH' || e.code === 'MAX_BYTES')) {
      throw new ArtifactFormatError('TOO_LARGE', '', `must have arrays of at most ${MAX_ALIAS_MEMBERS} elements`);
    }
    throw new ArtifactFormatError('NOT_CANONICAL', '', 'must be canonical JSON (RFC 8785)');
  }
  if (canonical !== text) throw new ArtifactFormatError('NOT_CANONICAL', '', 'must be exactly its canonical JSON form (RFC 8785)');
  return validateArtifactDocument(value);
}

/** parseArtifact, then require one kind (WRONG_KIND otherwise). */
export function parseArtifactOfKind<K extends ArtifactKind>(input: string | Uint8Array, kind: K): ArtifactOfKind<K> {
  const a = parseArtifact(input);
  if (a.kind !== kind) throw new ArtifactFormatError('WRONG_KIND', 'kind', 'is not the expected artifact kind');
  return a as ArtifactOfKind<K>;
}

/** The one file encoding of an artifact: its canonical JSON text (re-validated first). No trailing newline. */
export function encodeArtifact(artifact: Artifact): string {
  const checked = validateArtifactDocument(artifact);
  let text: string;
  try {
    text = canonicalize(checked, ARTIFACT_CANONICAL_LIMITS);
  } catch {
    // A validated document only fails to encode by exceeding the limits.
    throw new ArtifactFormatError('TOO_LARGE', '', `must be at most ${MAX_ARTIFACT_BYTES} bytes`);
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_ARTIFACT_BYTES) {
    throw new ArtifactFormatError('TOO_LARGE', '', `must be at most ${MAX_ARTIFACT_BYTES} bytes`);
  }
  return text;
}
