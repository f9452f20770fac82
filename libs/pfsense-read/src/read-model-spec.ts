/** JSON type of one upstream value. `scalar` is for pfrest fields whose JSON type depends on configuration
 * (ports and port ranges, interface representation, foreign-model references, special networks). */
export type ScalarKind = 'string' | 'number' | 'boolean' | 'scalar';

export type FieldKind =
  ScalarKind | 'string[]' | 'number[]' | 'boolean[]' | 'scalar[]' | { readonly model: string; readonly many: boolean };

/** The allow-list of one pfrest model: only these fields ever leave the projection. */
export interface ReadModelSpec {
  readonly many: boolean;
  /** Upstream fields left out of `fields` on purpose (secrets, write-only values, free-form blobs); named in
   * the tool descriptions so a model knows they exist and are never returned. */
  readonly withheld?: readonly string[];
  readonly fields: Readonly<Record<string, FieldKind>>;
}
