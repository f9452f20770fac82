// A loopback HTTP forwarder in front of the shared simulator, one per test: it passes every request through
// unchanged and counts what reached the simulator through it (method + path, after the whole body arrived,
// as the simulator's own counters do). Tests that run concurrently against one simulator each read their
// own count; the simulator's total is checked against the sum of all forwarders.
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface CountingForwarder {
  readonly url: string;
  count(method: string, path: string): number;
  reset(): void;
  close(): Promise<void>;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startCountingForwarder(targetUrl: string): Promise<CountingForwarder> {
  const target = new URL(targetUrl);
  if (target.hostname !== '127.0.0.1') throw new Error('startCountingForwarder: loopback targets only');
  const counts = new Map<string, number>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readAll(req);
    const method = (req.method ?? 'GET').toUpperCase();
    const path = new URL(req.url ?? '/', 'http://forwarder.invalid').pathname;
    const key = `${method} ${path}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: Number(target.port), method, path: req.url, headers: { ...req.headers, host: target.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    // Once the body is here it goes upstream whatever the client does next (a SIGKILLed child does not
    // un-send a request), exactly as if the client had reached the simulator directly.
    upstream.end(body);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('startCountingForwarder: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    count: (method, path) => counts.get(`${method.toUpperCase()} ${path}`) ?? 0,
    reset: () => counts.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
