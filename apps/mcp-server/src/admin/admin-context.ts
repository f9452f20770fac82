/** What every admin command gets from the program: the environment and the wall clock (UTC ms). */
export interface AdminContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
}
