import type { StoreState } from './store-state.js';

/** A store operation: a plain function over an open store's state (the modules next to this file). */
export type StoreOperation = (s: StoreState, ...args: never[]) => unknown;

/** The methods a face gets from its operation table: each operation without its state argument. */
export type BoundOperations<T extends Readonly<Record<string, StoreOperation>>> = {
  readonly [K in keyof T]: T[K] extends (s: StoreState, ...args: infer A) => infer R ? (...args: A) => R : never;
};

const states = new WeakMap<object, StoreState>();

/** Internal: the state behind a face (the executor entry reaches a store it was handed). Never exported from the package. */
export function stateOf(face: object): StoreState {
  const s = states.get(face);
  if (s === undefined) throw new TypeError('executor store: "store" must be a SqliteRecoveryContractStore');
  return s;
}

/**
 * A base class whose prototype has one method per operation, each calling it with the state of the instance
 * (kept in a module-private map, so holding a face gives no way to its state or to another face's operations).
 * Each store method is written once, as its operation; the public and executor faces only list them.
 */
export function storeFace<T extends Readonly<Record<string, StoreOperation>>>(operations: T): new (s: StoreState) => BoundOperations<T> {
  class Face {
    constructor(s: StoreState) {
      states.set(this, s);
    }
  }
  for (const [name, operation] of Object.entries(operations)) {
    const method = function (this: object, ...args: never[]): unknown {
      return operation(stateOf(this), ...args);
    };
    Object.defineProperty(method, 'name', { value: name });
    Object.defineProperty(Face.prototype, name, { value: method, writable: false, enumerable: false, configurable: false });
  }
  return Face as unknown as new (s: StoreState) => BoundOperations<T>;
}
