import { isAliasName } from '@pfsense-mcp/foundation';
import { z } from 'zod';
import { signatureFieldsShape } from './signed-document-schema.js';

/** A pfSense alias name (foundation's one alias-name rule). */
export const labCandidateAliasSchema = z.string().refine(isAliasName, { message: 'must be a pfSense alias name' });
/** Lab scenario ids: lowercase safe tokens; a set, sorted, no repeats. */
export const labScenarioSetSchema = z
  .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: 'must be a scenario id' }))
  .min(1)
  .max(32)
  .refine((ids) => ids.every((id, i) => i === 0 || (ids[i - 1] as string) < id), { message: 'must be sorted, without repeats' });

/**
 * What a lab gate request and its receipt both bind (docs/DESIGN.md §7): the candidate alias, the scenarios
 * and the deadline, which is the document's own expires_at (checked by `withDeadlineIsExpiry`).
 */
export const labGateScopeShape = {
  candidate_alias: labCandidateAliasSchema,
  scenarios: labScenarioSetSchema,
  deadline: signatureFieldsShape.expires_at,
} as const;

/** Both documents' one cross-field rule: the deadline is the document's expires_at (fresh params: zod annotates them). */
export function withDeadlineIsExpiry<T extends z.ZodType<{ readonly deadline: number; readonly expires_at: number }>>(schema: T): T {
  return schema.refine((p) => p.deadline === p.expires_at, { message: 'deadline must equal expires_at', path: ['deadline'] });
}
