// Public API of foundation: the bottom layer every library may import (docs/DESIGN.md §2). Frozen
// collections, the HTTP method vocabulary, the injected-clock check and argument assertions.
export { deepFreeze } from './deep-freeze.js';
export { ReadOnlySet } from './read-only-set.js';
export { HTTP_METHODS, MUTATING_HTTP_METHODS, isHttpMethod } from './http-method.js';
export type { HttpMethod } from './http-method.js';
export { readClock } from './read-clock.js';
export type { Clock } from './read-clock.js';
export { assertObject, assertRecord } from './assert-object.js';
export { assertFunction } from './assert-function.js';
export { ownerOnlyProblem } from './owner-only-problem.js';
export type { OwnerOnlyProblem, OwnerOnlyRule } from './owner-only-problem.js';
export { fsyncDirectory } from './fsync-directory.js';
