import type { z } from 'zod';
import { ArtifactFormatError } from './artifact-format-error.js';

/**
 * Runs a zod schema and turns the first issue into an ArtifactFormatError naming only its path and
 * zod's issue code — zod messages can quote keys or values, so they are not passed on.
 */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, root: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = [root, ...(issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))]
    .filter((p) => p !== '')
    .join('.')
    .replace(/\.\[/g, '[');
  throw new ArtifactFormatError('SCHEMA', path, `does not match the schema (${issue?.code ?? 'invalid'})`);
}
