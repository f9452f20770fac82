import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../src/index.js';
import { api, raw, type Envelope } from './helpers.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    credentials: [
      { auth: 'key', secret: 'reader-key-0123456789abcdef', privileges: ['api-v2-firewall-aliases-get'] },
      { auth: 'basic', secret: 'auditor:correct horse', privileges: ['api-v2-status-system-get', 'api-v2-auth-jwt-post'] },
    ],
  });
});
afterAll(async () => sim.close());

describe('envelope and routing', () => {
  it('answers success with the exact pfrest envelope', async () => {
    const { status, env, res } = await api(sim.url, sim.apiKey).get('/api/v2/status/system');
    expect(status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Object.keys(env)).toEqual(['code', 'status', 'response_id', 'message', 'data']);
    expect(env).toMatchObject({ code: 200, status: 'ok', response_id: 'SUCCESS', message: '' });
    expect(Array.isArray(env.data)).toBe(false);
  });

  it('answers unknown paths with nginx HTML, not the envelope', async () => {
    const res = await raw(`${sim.url}/api/v2/firewall/no_such_thing`, { headers: { 'x-api-key': sim.apiKey } });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.text).toContain('<center>nginx</center>');
    expect(res.json).toBeUndefined();
  });

  it('refuses a method the endpoint does not serve with ENDPOINT_METHOD_NOT_ALLOWED', async () => {
    const { status, env } = await api(sim.url, sim.apiKey).call('PUT', '/api/v2/firewall/alias', {});
    expect(status).toBe(405);
    expect(env).toEqual({
      code: 405,
      status: 'method not allowed',
      response_id: 'ENDPOINT_METHOD_NOT_ALLOWED',
      message: expect.any(String),
      data: [],
    });
  });

  it('refuses a body that is not JSON with JSON_CONTENT_HANDLER_COULD_NOT_DECODE_JSON', async () => {
    const res = await raw(`${sim.url}/api/v2/firewall/alias`, {
      method: 'PATCH',
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
      body: '{"id":0,',
    });
    expect(res.status).toBe(400);
    expect((res.json as Envelope).response_id).toBe('JSON_CONTENT_HANDLER_COULD_NOT_DECODE_JSON');
    expect((res.json as Envelope).data).toEqual([]);
  });
});

describe('authentication', () => {
  it('rejects a missing or wrong key with 401 AUTH_AUTHENTICATION_FAILED', async () => {
    const variants: Record<string, string>[] = [{}, { 'x-api-key': 'wrong-key-0123456789' }, { authorization: 'Bearer nope.nope.nope' }];
    for (const headers of variants) {
      const res = await raw(`${sim.url}/api/v2/status/system`, { headers });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({
        code: 401,
        status: 'unauthorized',
        response_id: 'AUTH_AUTHENTICATION_FAILED',
        message: expect.any(String),
        data: [],
      });
    }
  });

  it('accepts Basic and issues JWTs (Basic only) that authenticate as Bearer', async () => {
    const basic = `Basic ${Buffer.from(`admin:${sim.apiKey}`).toString('base64')}`;
    const viaBasic = await raw(`${sim.url}/api/v2/status/system`, { headers: { authorization: basic } });
    expect(viaBasic.status).toBe(200);
    const jwtByKey = await raw(`${sim.url}/api/v2/auth/jwt`, { method: 'POST', headers: { 'x-api-key': sim.apiKey } });
    expect(jwtByKey.status).toBe(401);
    const jwt = await raw(`${sim.url}/api/v2/auth/jwt`, { method: 'POST', headers: { authorization: basic } });
    expect(jwt.status).toBe(200);
    const token = ((jwt.json as Envelope).data as { token: string }).token;
    expect(token.split('.')).toHaveLength(3);
    const viaBearer = await raw(`${sim.url}/api/v2/status/system`, { headers: { authorization: `Bearer ${token}` } });
    expect(viaBearer.status).toBe(200);
    // Tamper a character whose six bits all belong to the signature (not the last one, whose low bits are padding)
    // with another value: the decoded signature always changes.
    const at = token.length - 10;
    const tamperedToken = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const tampered = await raw(`${sim.url}/api/v2/status/system`, { headers: { authorization: `Bearer ${tamperedToken}` } });
    expect(tampered.status).toBe(401);
  });

  it('enforces least privilege from the credentials list (403 AUTH_AUTHORIZATION_FAILED)', async () => {
    const reader = api(sim.url, 'reader-key-0123456789abcdef');
    expect((await reader.get('/api/v2/firewall/aliases')).status).toBe(200);
    const denied = await reader.get('/api/v2/status/system');
    expect(denied.status).toBe(403);
    expect(denied.env).toEqual({
      code: 403,
      status: 'forbidden',
      response_id: 'AUTH_AUTHORIZATION_FAILED',
      message: expect.any(String),
      data: [],
    });
    const write = await reader.patch('/api/v2/firewall/alias', { id: 0, descr: 'nope' });
    expect(write.status).toBe(403);
    const auditor = `Basic ${Buffer.from('auditor:correct horse').toString('base64')}`;
    expect((await raw(`${sim.url}/api/v2/status/system`, { headers: { authorization: auditor } })).status).toBe(200);
    expect((await raw(`${sim.url}/api/v2/firewall/aliases`, { headers: { authorization: auditor } })).status).toBe(403);
    // A JWT carries its Basic user's privileges.
    const jwt = await raw(`${sim.url}/api/v2/auth/jwt`, { method: 'POST', headers: { authorization: auditor } });
    const token = ((jwt.json as Envelope).data as { token: string }).token;
    expect((await raw(`${sim.url}/api/v2/firewall/aliases`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);
    expect((await raw(`${sim.url}/api/v2/status/system`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('switches auth methods off', async () => {
    const keyOnly = await startSimulator({ auth: ['key'] });
    try {
      const basic = `Basic ${Buffer.from(`admin:${keyOnly.apiKey}`).toString('base64')}`;
      expect((await raw(`${keyOnly.url}/api/v2/status/system`, { headers: { authorization: basic } })).status).toBe(401);
      expect((await raw(`${keyOnly.url}/api/v2/status/system`, { headers: { 'x-api-key': keyOnly.apiKey } })).status).toBe(200);
    } finally {
      await keyOnly.close();
    }
    const basicOnly = await startSimulator({ auth: ['basic', 'jwt'] });
    try {
      expect((await raw(`${basicOnly.url}/api/v2/status/system`, { headers: { 'x-api-key': basicOnly.apiKey } })).status).toBe(401);
    } finally {
      await basicOnly.close();
    }
  });

  it('refuses a valid Bearer token once jwt is switched off (while auth/jwt still issues it to Basic)', async () => {
    const noJwt = await startSimulator({ auth: ['key', 'basic'] });
    try {
      const basic = `Basic ${Buffer.from(`admin:${noJwt.apiKey}`).toString('base64')}`;
      const issued = await raw(`${noJwt.url}/api/v2/auth/jwt`, { method: 'POST', headers: { authorization: basic } });
      expect(issued.status).toBe(200);
      const token = ((issued.json as Envelope).data as { token: string }).token;
      const bearer = await raw(`${noJwt.url}/api/v2/status/system`, { headers: { authorization: `Bearer ${token}` } });
      expect(bearer.status).toBe(401);
      expect((bearer.json as Envelope).response_id).toBe('AUTH_AUTHENTICATION_FAILED');
      expect((await raw(`${noJwt.url}/api/v2/status/system`, { headers: { authorization: basic } })).status).toBe(200);
    } finally {
      await noJwt.close();
    }
  });

  it('accepts a {auth:"jwt", secret} credential as a literal bearer token with its own privileges', async () => {
    const literal = 'literal-bearer-token-0123456789';
    const credentials = [{ auth: 'jwt' as const, secret: literal, privileges: ['api-v2-status-system-get'] }];
    const withJwt = await startSimulator({ credentials });
    try {
      const get = (path: string, token: string) => raw(`${withJwt.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect((await get('/api/v2/status/system', literal)).status).toBe(200);
      const denied = await get('/api/v2/firewall/aliases', literal);
      expect([denied.status, (denied.json as Envelope).response_id]).toEqual([403, 'AUTH_AUTHORIZATION_FAILED']);
      expect((await get('/api/v2/status/system', `${literal}x`)).status).toBe(401);
      // Only as a Bearer token: the same string is no API key.
      expect((await raw(`${withJwt.url}/api/v2/status/system`, { headers: { 'x-api-key': literal } })).status).toBe(401);
    } finally {
      await withJwt.close();
    }
    const jwtOff = await startSimulator({ credentials, auth: ['key'] });
    try {
      expect((await raw(`${jwtOff.url}/api/v2/status/system`, { headers: { authorization: `Bearer ${literal}` } })).status).toBe(401);
    } finally {
      await jwtOff.close();
    }
  });
});
