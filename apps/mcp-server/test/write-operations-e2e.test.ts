// pfsense_get_write_operations end to end: the BUILT server spawned over stdio by the SDK Client, with a write
// directory and the simulator over loopback; the write tool makes an operation, the operations view reports it.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDriver } from './support/admin-driver.js';
import { connectBuilt, ensureBuilt, writeKeyFile } from './support/built-server.js';
import { signIntoInbox } from './support/sign-into-inbox.js';
import { initTestWriteDirectory, type TestWriteDirectory } from './support/test-write-directory.js';
import { WRITE_TOOL, callWrite } from './support/write-result.js';
import { READ_KEY, startWriteSimulator } from './support/write-simulator.js';
import type { RunningSimulator } from '@pfsense-mcp/pfsense-sim';

let sim: RunningSimulator;
let w: TestWriteDirectory;
let keyFile: string;

beforeAll(async () => {
  ensureBuilt();
  sim = await startWriteSimulator();
  w = await initTestWriteDirectory();
  keyFile = writeKeyFile(READ_KEY);
}, 180_000);
afterAll(async () => {
  await sim.close();
  w.cleanup();
  rmSync(dirname(keyFile), { recursive: true, force: true });
});

describe('pfsense_get_write_operations through the built server', () => {
  it('lists the operation the write tool made, with its status, state and the file to sign next, and nothing of its values', async () => {
    const server = await connectBuilt({
      PFSENSE_URL: sim.url,
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_PROFILE: 'write_protected',
      PFSENSE_WRITE_DIR: w.layout.dir,
    });
    try {
      const names = (await server.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining([WRITE_TOOL, 'pfsense_get_write_operations']));
      // The title names the profile: never "read-only" while the write tool is listed.
      expect(server.client.getServerVersion()?.title).toBe('pfSense (profile write_protected)');
      const description = 'E2E-SENTINEL description';
      const r1 = await callWrite(server.client, { alias_name: 'DMZ_HOSTS', description });
      expect(r1.status).toBe('requested');
      signIntoInbox(w, r1.pending_request as string);
      const r2 = await callWrite(server.client, { alias_name: 'DMZ_HOSTS', description });
      expect(r2.status).toBe('awaiting_confirmation');

      const listed = await server.client.callTool({ name: 'pfsense_get_write_operations', arguments: { operation_id: r2.operation_id } });
      expect(listed.isError).toBeFalsy();
      const out = listed.structuredContent as { data: Record<string, unknown>[]; total: number; next_offset: number | null };
      expect(out.total).toBe(1);
      expect(out.next_offset).toBeNull();
      expect(out.data[0]).toMatchObject({
        operation_id: r2.operation_id,
        status: 'awaiting_confirmation',
        contract_state: 'PREPARED',
        contract_id: r2.contract_id,
        attempts: 1,
        pending_request: r2.pending_request,
      });
      const text = JSON.stringify(listed);
      expect(text).not.toContain('E2E-SENTINEL');
      expect(text).not.toContain('DMZ_HOSTS');
      const info = (await server.client.callTool({ name: 'pfsense_mcp_info', arguments: {} })).structuredContent as Record<string, unknown>;
      expect(info).toMatchObject({ write_artifact_files: { inbox: 1, outbox: 2 }, write_artifacts_warning: false });
      // The server's stderr lines are JSON and never carry the description.
      expect(server.stderr()).not.toContain('E2E-SENTINEL');
    } finally {
      await server.close();
    }
  });

  it('says when the earlier request for the same change expired unanswered, with its time, and that a new one was written', async () => {
    const fresh = await initTestWriteDirectory();
    // The first request is written two hours "ago" (the write path in this process, its clock behind): it expired an hour ago.
    const earlier = await openDriver(fresh.layout.dir, { url: sim.url, apiKey: READ_KEY }, { clockOffsetMs: -2 * 3_600_000 });
    const first = await earlier.request('DMZ_HOSTS', 'EXPIRY-SENTINEL');
    earlier.close();
    expect(first.status).toBe('requested');
    const expiredAt = Number(/\.(\d+)\.json$/.exec(first.pendingRequest?.file ?? '')?.[1]);
    expect(expiredAt).toBeLessThan(Date.now());
    const server = await connectBuilt({
      PFSENSE_URL: sim.url,
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_PROFILE: 'write_protected',
      PFSENSE_WRITE_DIR: fresh.layout.dir,
    });
    try {
      const again = await callWrite(server.client, { alias_name: 'DMZ_HOSTS', description: 'EXPIRY-SENTINEL' });
      expect(again.status).toBe('requested');
      expect(again.operation_id).toBe(first.operationId);
      expect(again.pending_request).not.toContain(first.pendingRequest?.file as string);
      expect(again).toMatchObject({ earlier_request_expired_at: new Date(expiredAt).toISOString() });
      expect(again.next_step).toContain(`expired unanswered at ${new Date(expiredAt).toISOString()}; a new one was written`);
      // Asked once more, the new request is simply pending: nothing expired since.
      const third = await callWrite(server.client, { alias_name: 'DMZ_HOSTS', description: 'EXPIRY-SENTINEL' });
      expect(third.pending_request).toBe(again.pending_request);
      expect(third).not.toHaveProperty('earlier_request_expired_at');
    } finally {
      await server.close();
      fresh.cleanup();
    }
  });

  it('lists operations still waiting for their first signature as requested, with the file to sign and the next step', async () => {
    const fresh = await initTestWriteDirectory();
    const server = await connectBuilt({
      PFSENSE_URL: sim.url,
      PFSENSE_API_KEY_FILE: keyFile,
      PFSENSE_ALLOW_HTTP_LOOPBACK: 'true',
      PFSENSE_PROFILE: 'write_protected',
      PFSENSE_WRITE_DIR: fresh.layout.dir,
    });
    try {
      const asked = [];
      for (const alias_name of ['LAN_SERVERS', 'WEB_PORTS', 'DMZ_HOSTS']) {
        const r = await callWrite(server.client, { alias_name, description: `PENDING-SENTINEL ${alias_name.toLowerCase()}` });
        expect(r.status).toBe('requested');
        asked.push(r);
      }
      const listed = await server.client.callTool({ name: 'pfsense_get_write_operations', arguments: {} });
      expect(listed.isError).toBeFalsy();
      const out = listed.structuredContent as { data: Record<string, unknown>[]; total: number };
      expect(out.total).toBe(3);
      expect(new Set(out.data.map((o) => o['operation_id']))).toEqual(new Set(asked.map((r) => r.operation_id)));
      for (const op of out.data) {
        const r = asked.find((a) => a.operation_id === op['operation_id']);
        expect(op).toMatchObject({
          status: 'requested',
          contract_state: null,
          contract_id: null,
          attempts: 0,
          pending_request: r?.pending_request,
        });
        expect(String(op['next_step'])).toContain('plan-authorization');
      }
      const text = JSON.stringify(listed);
      expect(text).not.toContain('PENDING-SENTINEL');
      for (const alias of ['LAN_SERVERS', 'WEB_PORTS', 'DMZ_HOSTS']) expect(text).not.toContain(alias);
    } finally {
      await server.close();
      fresh.cleanup();
    }
  });
});
