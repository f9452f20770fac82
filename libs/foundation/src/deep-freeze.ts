/**
 * Freezes a tree of plain data (objects and arrays) in place and returns it. A node is frozen before its
 * children are visited and an already frozen node is not descended into, so a cycle ends and a shared frozen
 * subtree is walked once. The callers hand it freshly built or freshly parsed data, which holds no frozen node
 * with unfrozen children; data that does keep those children as they are.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
