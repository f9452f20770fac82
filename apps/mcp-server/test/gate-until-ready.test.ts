import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { attachReadTools, buildReadClient, createBaseServer, gateUntilReady } from '../src/index.js';

describe('answering initialize before the catalogue is attached', () => {
  it('initialize succeeds at once; tools/list waits for the attach and sees the whole list; no list_changed leaks', async () => {
    const base = createBaseServer('auditor', null);
    expect([...base.names]).toEqual(['pfsense_mcp_info']);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const gate = gateUntilReady(serverSide);
    await base.server.connect(gate);
    const client = new Client({ name: 't', version: '0' });
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1;
    });
    await client.connect(clientSide);
    await gate.initializeAnswered;
    expect(client.getServerCapabilities()?.tools).toBeDefined();

    let listed: number | undefined;
    const listing = client.listTools().then((r) => (listed = r.tools.length));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listed).toBeUndefined();

    const handle = buildReadClient(
      { url: 'https://127.0.0.1', apiKeyFile: '/unused', caFile: null, profile: 'auditor', allowedTools: null, toolsets: null, logLevel: 'silent', allowHttpLoopback: false },
      'unused-key-0123456789',
    );
    attachReadTools(base, handle.client);
    gate.open();
    await listing;
    expect(listed).toBe(95);
    expect(base.names.size).toBe(95);
    expect(listChanged).toBe(0);
    await client.close();
    handle.close();
  });

  it('a base server whose allow-list excludes pfsense_mcp_info never lists it', async () => {
    const base = createBaseServer('auditor', new Set(['pfsense_get_firewall_aliases']));
    expect(base.names.size).toBe(0);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const gate = gateUntilReady(serverSide);
    await base.server.connect(gate);
    gate.open();
    const client = new Client({ name: 't', version: '0' });
    await client.connect(clientSide);
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
  });
});
