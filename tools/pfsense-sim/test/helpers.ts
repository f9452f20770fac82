// Test helpers: plain node:http(s) requests so a test sees exactly what went over the wire.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly json: unknown;
}

export interface RawRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly ca?: string;
  readonly timeoutMs?: number;
}

export function raw(url: string, req: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const fn = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = { ...req.headers, ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}) };
    const r = fn(u, { method: req.method ?? 'GET', headers, ca: req.ca, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    r.on('error', reject);
    if (req.timeoutMs !== undefined)
      r.setTimeout(req.timeoutMs, () => r.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

export interface Envelope {
  code: number;
  status: string;
  response_id: string;
  message: string;
  data: unknown;
}

export function api(base: string, apiKey: string) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; env: Envelope; res: RawResponse }> => {
    const h: Record<string, string> = { 'x-api-key': apiKey, ...headers };
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await raw(base + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, env: res.json as Envelope, res };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body: unknown) => call('POST', path, body),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    del: (path: string) => call('DELETE', path),
    call,
  };
}

export function control(base: string, apiKey: string) {
  return async (method: string, path: string, body?: unknown): Promise<RawResponse> =>
    raw(base + path, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}
