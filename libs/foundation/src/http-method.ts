/** The HTTP methods the product ever sends (pfrest v2 uses no others). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const HTTP_METHODS: readonly HttpMethod[] = Object.freeze(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const);

/** Methods that change state; the only ones a mutation allow-list entry may name. */
export const MUTATING_HTTP_METHODS: readonly HttpMethod[] = Object.freeze(['POST', 'PUT', 'PATCH', 'DELETE'] as const);

/** Exact, upper-case match ("patch" is not a method here). */
export function isHttpMethod(value: unknown): value is HttpMethod {
  return typeof value === 'string' && (HTTP_METHODS as readonly string[]).includes(value);
}
