import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorTransport } from '../src/index.js';

const seen: (string | undefined)[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers['x-api-key'] as string | undefined);
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
});
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('simulatorTransport', () => {
  it('reaches the simulator over loopback with its key, or the key given', async () => {
    for (const t of [simulatorTransport({ url, apiKey: 'sim-key' }), simulatorTransport({ url, apiKey: 'sim-key' }, { apiKey: 'other' })]) {
      try {
        expect(await t.request('GET', '/x')).toMatchObject({ status: 200, body: '{"ok":true}' });
      } finally {
        t.close();
      }
    }
    expect(seen).toEqual(['sim-key', 'other']);
  });

  it('holds the response cap it is given', async () => {
    const t = simulatorTransport({ url, apiKey: 'k' }, { maxResponseBytes: 4 });
    try {
      await expect(t.request('GET', '/x')).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    } finally {
      t.close();
    }
  });

  it('refuses a simulator without url and key', () => {
    expect(() => simulatorTransport({} as never)).toThrow(TypeError);
  });
});
