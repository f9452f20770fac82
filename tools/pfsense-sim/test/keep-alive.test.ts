// keepAliveTimeoutMs: when the simulator closes an idle keep-alive connection (what a client's pooled
// connection races against). Observed on a real client socket over 127.0.0.1.
import { once } from 'node:events';
import { Agent, get, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';

const running: RunningSimulator[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.close();
});

async function idleSocketAfterOneRequest(sim: RunningSimulator, agent: Agent): Promise<{ socket: Socket; response: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = get(`${sim.url}/api/v2/status/system`, { agent, headers: { 'x-api-key': sim.apiKey } }, (response) => {
      response.resume();
      response.once('end', () => resolve({ socket: request.socket as Socket, response }));
    });
    request.once('error', reject);
  });
}

describe('keepAliveTimeoutMs', () => {
  it('closes an idle keep-alive connection after the configured time', async () => {
    const sim = await startSimulator({ keepAliveTimeoutMs: 100, log: () => undefined });
    running.push(sim);
    // A raw socket: Node's own agent would drop a connection whose hint is under 1 s by itself.
    const { port } = new URL(sim.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    await once(socket, 'connect');
    const started = Date.now();
    socket.write(`GET /api/v2/status/system HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${sim.apiKey}\r\nConnection: keep-alive\r\n\r\n`);
    await once(socket, 'end');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).toContain('connection: keep-alive');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    socket.destroy();
  });

  it('0 keeps idle connections and sends no Keep-Alive hint', async () => {
    const sim = await startSimulator({ keepAliveTimeoutMs: 0, log: () => undefined });
    running.push(sim);
    const agent = new Agent({ keepAlive: true });
    try {
      const { response } = await idleSocketAfterOneRequest(sim, agent);
      expect(response.headers['keep-alive']).toBeUndefined();
      const def = await startSimulator({ log: () => undefined });
      running.push(def);
      const { response: withDefault } = await idleSocketAfterOneRequest(def, agent);
      expect(withDefault.headers['keep-alive']).toBe('timeout=5');
    } finally {
      agent.destroy();
    }
  });
});
