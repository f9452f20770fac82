// Shapes of the generated pfrest model catalogue (src/model-catalog.ts).

export type FieldKind = 'string' | 'boolean' | 'integer' | 'float' | 'nested';

export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  readonly many: boolean;
  /** pfrest Field class when it is not a plain String/Boolean/IntegerField (e.g. InterfaceField). */
  readonly fieldClass?: string;
  readonly default?: unknown;
  readonly allowNull?: boolean;
  readonly choices?: readonly unknown[];
  /** write_only or sensitive upstream: stored, never returned. */
  readonly hidden?: boolean;
  /** model embedded by a NestedModelField */
  readonly nested?: string;
  /** model referenced by a ForeignModelField */
  readonly foreign?: string;
}

export interface ModelSpec {
  readonly many: boolean;
  readonly parent: string | null;
  readonly fields: readonly FieldSpec[];
}

export interface PathSpec {
  readonly model: string;
  readonly many: boolean;
  readonly parent: string | null;
  readonly methods: readonly string[];
}
