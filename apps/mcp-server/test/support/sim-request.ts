// One HTTP request to the simulator from the test itself (reading what the appliance holds, or changing it behind
// the server's back).
import { request as httpRequest } from 'node:http';

/**
 * One request to the simulator on a fresh connection (no keep-alive: a pooled socket the server closed while
 * idle would reset under load). Returns the status and the parsed JSON body.
 */
export function simRequest(
  url: string,
  apiKey: string,
  method: 'GET' | 'PATCH' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${url}${path}`,
      { method, agent: false, headers: { 'X-API-Key': apiKey, ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
