/** The failing paths of a zod error, for a TypeError that names fields and never echoes a value. */
export function zodPaths(error: { issues: readonly { path: readonly PropertyKey[] }[] }): string {
  return error.issues.map((i) => i.path.map(String).join('.') || '(root)').join(', ');
}
