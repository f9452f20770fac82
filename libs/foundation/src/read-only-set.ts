/**
 * A Set that refuses every mutation after construction. `ReadonlySet` alone only hides `add` from the
 * type checker; a cast would still change the shared constant at runtime. This closes that door.
 */
export class ReadOnlySet<T> extends Set<T> {
  constructor(values: Iterable<T>) {
    super();
    for (const v of values) Set.prototype.add.call(this, v);
    Object.freeze(this);
  }

  override add(_value: T): never {
    throw new TypeError('ReadOnlySet: the set is read-only');
  }

  override delete(_value: T): never {
    throw new TypeError('ReadOnlySet: the set is read-only');
  }

  override clear(): never {
    throw new TypeError('ReadOnlySet: the set is read-only');
  }
}
