/** What every admin command gets from the program: the environment and the wall clock (UTC ms). */
export interface AdminContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
  /** `--appliance NAME` (select-appliance.ts): the inventory appliance the command acts on; absent with `--dir`. */
  readonly appliance?: string;
}
