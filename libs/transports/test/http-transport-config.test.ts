import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpTransport, isLoopbackHost, TransportConfigError } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'transports-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configError(fn: () => unknown): TransportConfigError {
  try {
    const t = fn() as { close?: () => void };
    t.close?.();
  } catch (error) {
    expect(error).toBeInstanceOf(TransportConfigError);
    expect((error as TransportConfigError).requestWritten).toBe(false);
    return error as TransportConfigError;
  }
  throw new Error('expected a TransportConfigError');
}

describe('createHttpTransport options', () => {
  it('refuses plain http to a non-loopback host, with or without the flag', () => {
    for (const baseUrl of ['http://192.0.2.10', 'http://fw.example.invalid', 'http://128.0.0.1', 'http://[::2]']) {
      expect(configError(() => createHttpTransport({ baseUrl, allowHttpLoopback: true })).code).toBe('INSECURE_URL');
      expect(configError(() => createHttpTransport({ baseUrl })).code).toBe('INSECURE_URL');
    }
  });

  it('refuses plain http to loopback without the flag, accepts it with the flag', () => {
    for (const baseUrl of ['http://127.0.0.1:8080', 'http://127.9.8.7', 'http://localhost:1', 'http://[::1]:2']) {
      expect(configError(() => createHttpTransport({ baseUrl })).code).toBe('INSECURE_URL');
      createHttpTransport({ baseUrl, allowHttpLoopback: true }).close();
    }
  });

  it('refuses other schemes, credentials in the URL (without echoing them), queries and fragments', () => {
    expect(configError(() => createHttpTransport({ baseUrl: 'ftp://127.0.0.1' })).code).toBe('INSECURE_URL');
    const withCreds = configError(() => createHttpTransport({ baseUrl: 'https://admin:S3NTINEL-pw@fw.example.invalid' }));
    expect(withCreds.message).not.toContain('S3NTINEL');
    const garbage = configError(() => createHttpTransport({ baseUrl: 'not a url S3NTINEL' }));
    expect(garbage.message).not.toContain('S3NTINEL');
    configError(() => createHttpTransport({ baseUrl: 'https://fw.example.invalid/?a=1' }));
    configError(() => createHttpTransport({ baseUrl: 'https://fw.example.invalid/#x' }));
    configError(() => createHttpTransport({ baseUrl: '' }));
  });

  it('validates numeric limits', () => {
    const baseUrl = 'https://fw.example.invalid';
    for (const bad of [0, -1, 1.5, Number.NaN, 10 ** 9]) {
      configError(() => createHttpTransport({ baseUrl, connectTimeoutMs: bad }));
      configError(() => createHttpTransport({ baseUrl, responseTimeoutMs: bad }));
      configError(() => createHttpTransport({ baseUrl, maxResponseBytes: bad }));
      configError(() => createHttpTransport({ baseUrl, maxInFlight: bad }));
    }
  });

  it('validates the auth header without echoing its value', () => {
    const baseUrl = 'https://fw.example.invalid';
    configError(() => createHttpTransport({ baseUrl, authHeader: { name: 'bad name', value: 'x' } }));
    configError(() => createHttpTransport({ baseUrl, authHeader: { name: 'Content-Type', value: 'x' } }));
    configError(() => createHttpTransport({ baseUrl, authHeader: { name: 'Host', value: 'x' } }));
    const crlf = configError(() => createHttpTransport({ baseUrl, authHeader: { name: 'X-API-Key', value: 'S3NTINEL\r\nX-Evil: 1' } }));
    expect(crlf.message).not.toContain('S3NTINEL');
    configError(() => createHttpTransport({ baseUrl, authHeader: { name: 'X-API-Key', value: '' } }));
  });

  it('reads the CA file once and refuses a missing, non-PEM or misplaced one', () => {
    const baseUrl = 'https://fw.example.invalid';
    expect(configError(() => createHttpTransport({ baseUrl, caFile: join(dir, 'missing.pem') })).code).toBe('CA_FILE_UNREADABLE');
    expect(configError(() => createHttpTransport({ baseUrl, caFile: dir })).code).toBe('CA_FILE_UNREADABLE');
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    expect(configError(() => createHttpTransport({ baseUrl, caFile: notPem })).code).toBe('CA_FILE_INVALID');
    configError(() => createHttpTransport({ baseUrl: 'http://127.0.0.1', allowHttpLoopback: true, caFile: notPem }));
  });

  it('isLoopbackHost knows 127.0.0.0/8, ::1 and localhost only', () => {
    expect(['127.0.0.1', '127.255.0.9', 'localhost', 'LOCALHOST', '[::1]', '::1'].every(isLoopbackHost)).toBe(true);
    expect(['128.0.0.1', '10.0.0.1', '127.0.0.1.example', 'localhost.example', '[::2]', '0.0.0.0'].some(isLoopbackHost)).toBe(false);
  });
});
