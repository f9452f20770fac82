/** The HTTP methods the product ever sends (pfrest v2 uses no others). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const HTTP_METHODS: ReadonlySet<HttpMethod> = Object.freeze(
  new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
) as ReadonlySet<HttpMethod>;

export function isHttpMethod(value: unknown): value is HttpMethod {
  return typeof value === 'string' && (HTTP_METHODS as ReadonlySet<string>).has(value);
}
