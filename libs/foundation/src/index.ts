// Public API of foundation: the bottom layer every library may import (docs/DESIGN.md §2). Frozen
// collections, the HTTP method vocabulary, the injected-clock check, argument assertions and the quiet end of a
// command whose stdout reader went away.
export { deepFreeze } from './deep-freeze.js';
export { ReadOnlySet } from './read-only-set.js';
export { HTTP_METHODS, MUTATING_HTTP_METHODS, isHttpMethod } from './http-method.js';
export type { HttpMethod } from './http-method.js';
export { readClock } from './read-clock.js';
export type { Clock } from './read-clock.js';
export { assertObject, assertRecord } from './assert-object.js';
export { assertFunction } from './assert-function.js';
export { ownerOnlyProblem, ownerOnlyRefusal } from './owner-only-problem.js';
export type { OwnerOnlyProblem, OwnerOnlyRefusal, OwnerOnlyRule } from './owner-only-problem.js';
export { fsyncDirectory } from './fsync-directory.js';
export { spawnReadyChild } from './spawn-ready-child.js';
export type { ReadyChild, ReadyChildOptions } from './spawn-ready-child.js';
export { ReadyChildError } from './ready-child-error.js';
export type { ReadyChildFailure } from './ready-child-error.js';
export { replaceFileAtomically } from './replace-file-atomically.js';
export { readBoundedFile } from './read-bounded-file.js';
export { TERMINAL_UNSAFE_CHARACTER, escapedCodePoint, terminalSafeText } from './terminal-safe-text.js';
export type { TerminalSafeOptions } from './terminal-safe-text.js';
export { RegularFileError, readRegularFile, readRegularFileChunks } from './read-regular-file.js';
export type { RegularFileProblem } from './read-regular-file.js';
export { endQuietlyOnBrokenPipe } from './end-quietly-on-broken-pipe.js';
export { nearestName } from './nearest-name.js';
export { PRODUCT_VERSION } from './product-version.js';
export { CodedError } from './coded-error.js';
export { ALIAS_NAME_CHARSET, ALIAS_NAME_MAX_LENGTH, isAliasName } from './alias-name-rule.js';
