import { z } from 'zod';

// pfrest v2 envelope (pfrest's documented response envelope): {code, status, response_id, message, data, _links?}.
// `message` is parsed for shape only and never surfaced; `_links` and unknown keys are dropped.
export const PfrestEnvelopeSchema = z.object({
  code: z.number().int(),
  status: z.string(),
  response_id: z.string(),
  message: z.string().optional(),
  data: z.unknown().refine((v) => v !== undefined),
});

export type PfrestEnvelope = z.infer<typeof PfrestEnvelopeSchema>;

/** pfrest's success envelope (`conventions.success`): code 200, status "ok". */
export function isSuccessEnvelope(envelope: PfrestEnvelope): boolean {
  return envelope.code === 200 && envelope.status === 'ok';
}
