// Fault knobs per route + method. Each kind states whether a write that reaches it is applied: kinds
// named "...-after-apply" (and other-2xx, malformed-json, oversized-body, latency) commit the change and
// persist it BEFORE the connection is touched, so "applied" never depends on timing.
import { z } from 'zod';

export const FAULT_KINDS = Object.freeze({
  latency: { applied: true, description: 'wait `ms` (default 1000) before handling the request normally' },
  timeout: { applied: false, description: 'accept the request and never answer (until the client gives up or the server closes)' },
  'reset-before-apply': { applied: false, description: 'reset the TCP connection (RST) without handling the request' },
  'reset-after-apply': { applied: true, description: 'handle and commit the request, then reset the connection (RST) with no response' },
  '5xx-after-apply': {
    applied: true,
    description: 'handle and commit the request, then answer `status` (default 500) with a pfrest error envelope',
  },
  'drop-response-after-apply': {
    applied: true,
    description: 'handle and commit the request, then close the connection cleanly (FIN) without a response',
  },
  'redirect-3xx': { applied: false, description: 'answer `status` (default 302) with a Location header, without handling the request' },
  'other-2xx': {
    applied: true,
    description: 'handle and commit the request, then answer `status` (default 202) instead of 200 with the normal envelope',
  },
  'malformed-json': {
    applied: true,
    description: 'handle and commit the request, then answer 200 with a truncated, unparseable JSON body',
  },
  'oversized-body': {
    applied: true,
    description: 'handle and commit the request, then answer 200 with a valid JSON envelope of about `bytes` (default 16 MiB)',
  },
} as const);

export type FaultKind = keyof typeof FAULT_KINDS;
export const FAULT_KIND_NAMES = Object.freeze(Object.keys(FAULT_KINDS) as FaultKind[]);

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface FaultSpec {
  /** exact request path, e.g. /api/v2/firewall/alias */
  readonly route: string;
  readonly method: HttpMethod;
  readonly kind: FaultKind;
  /** latency: delay in milliseconds */
  readonly ms?: number;
  /** oversized-body: approximate body size in bytes */
  readonly bytes?: number;
  /** 5xx-after-apply / redirect-3xx / other-2xx: the HTTP status to send */
  readonly status?: number;
  /** how many matching requests the fault hits before it clears itself; absent = until cleared */
  readonly times?: number;
}

export const faultSpecSchema = z
  .object({
    route: z.string().startsWith('/').max(300),
    method: z.enum(HTTP_METHODS),
    kind: z.enum(FAULT_KIND_NAMES as [FaultKind, ...FaultKind[]]),
    ms: z.number().int().min(0).max(600_000).optional(),
    bytes: z
      .number()
      .int()
      .min(1)
      .max(1024 * 1024 * 1024)
      .optional(),
    status: z.number().int().min(200).max(599).optional(),
    times: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.status === undefined) return;
    const ok =
      f.kind === '5xx-after-apply'
        ? f.status >= 500
        : f.kind === 'redirect-3xx'
          ? f.status >= 300 && f.status < 400
          : f.kind === 'other-2xx'
            ? f.status > 200 && f.status < 300
            : false;
    if (!ok) ctx.addIssue({ code: 'custom', message: `status ${f.status} does not fit fault kind ${f.kind}` });
  });

/**
 * Parses the CLI form ROUTE:METHOD:KIND[:ARG], ARG being ms (latency), bytes (oversized-body) or the
 * status code (5xx-after-apply, redirect-3xx, other-2xx).
 */
export function parseFaultArg(text: string): FaultSpec {
  if (typeof text !== 'string') throw new TypeError('parseFaultArg: "text" must be a string');
  const parts = text.split(':');
  if (parts.length < 3 || parts.length > 4) throw new TypeError('--fault must be ROUTE:METHOD:KIND[:ARG]');
  const [route, method, kind, arg] = parts as [string, string, string, string | undefined];
  const raw: Record<string, unknown> = { route, method: method.toUpperCase(), kind };
  if (arg !== undefined) {
    if (!/^\d+$/.test(arg)) throw new TypeError('--fault ARG must be a non-negative integer');
    const n = Number(arg);
    if (kind === 'latency') raw.ms = n;
    else if (kind === 'oversized-body') raw.bytes = n;
    else if (kind === '5xx-after-apply' || kind === 'redirect-3xx' || kind === 'other-2xx') raw.status = n;
    else throw new TypeError(`--fault kind ${kind} takes no ARG`);
  }
  const parsed = faultSpecSchema.safeParse(raw);
  if (!parsed.success)
    throw new TypeError(`--fault is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'fault'}: ${i.message}`).join('; ')}`);
  return Object.freeze(parsed.data);
}

/** Active faults, one per route + method; a later set replaces an earlier one. */
export class FaultBook {
  readonly #faults = new Map<string, { spec: FaultSpec; left: number | undefined }>();

  set(spec: FaultSpec): void {
    const parsed = faultSpecSchema.parse(spec);
    this.#faults.set(`${parsed.method} ${parsed.route}`, { spec: Object.freeze(parsed), left: parsed.times });
  }

  clear(route?: string, method?: string): void {
    if (route === undefined && method === undefined) {
      this.#faults.clear();
      return;
    }
    for (const key of [...this.#faults.keys()]) {
      const [m, r] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
      if ((route === undefined || r === route) && (method === undefined || m === method.toUpperCase())) this.#faults.delete(key);
    }
  }

  list(): readonly FaultSpec[] {
    return [...this.#faults.values()].map((f) => (f.left === undefined ? f.spec : { ...f.spec, times: f.left }));
  }

  /** The fault for this request, consuming one of its `times`. */
  take(route: string, method: string): FaultSpec | undefined {
    const key = `${method} ${route}`;
    const entry = this.#faults.get(key);
    if (!entry) return undefined;
    if (entry.left !== undefined) {
      entry.left -= 1;
      if (entry.left <= 0) this.#faults.delete(key);
    }
    return entry.spec;
  }
}
