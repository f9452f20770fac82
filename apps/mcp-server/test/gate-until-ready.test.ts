import { InMemoryTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { attachReadTools, buildReadClient, createServerFactory, gateUntilReady } from '../src/index.js';
import { assertEra, ERAS, newClient } from './support/clients.js';

const readClient = () =>
  buildReadClient(
    {
      url: 'https://127.0.0.1',
      apiKeyFile: '/unused',
      caFile: null,
      profile: 'auditor',
      allowedTools: null,
      toolsets: null,
      logLevel: 'silent',
      allowHttpLoopback: false,
    },
    'unused-key-0123456789',
  );

describe.each(ERAS)('answering the opening request before the catalogue is attached (%s era)', (era) => {
  it('the opening (initialize / server/discover) succeeds at once; tools/list waits for the attach and sees the whole list; no list_changed leaks', async () => {
    const factory = createServerFactory('auditor', null);
    expect([...factory.names]).toEqual(['pfsense_mcp_info']);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const gate = gateUntilReady(serverSide);
    const served = serveStdio(() => factory.create(), { transport: gate });
    const client = newClient(era);
    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged += 1;
    });
    await client.connect(clientSide);
    assertEra(client, era);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    // A 2025 client's initialize asks for the tools at once; a discovery alone does not (a v2 client probes on a
    // process it reaps right after), so in the 2026 era the first held request does.
    let wanted = false;
    void gate.openingAnswered.then(() => (wanted = true));
    // The in-memory pair delivers through microtasks: after one macrotask turn an answered opening would be seen.
    await new Promise((resolve) => setImmediate(resolve));
    expect([wanted, gate.discoveryAnswered()]).toEqual(era === 'legacy' ? [true, false] : [false, true]);

    let listed: number | undefined;
    const listing = client.listTools().then((r) => (listed = r.tools.length));
    await gate.openingAnswered;
    // Likewise a tools/list the gate let through would be answered within one turn (the open() below shows it is).
    await new Promise((resolve) => setImmediate(resolve));
    expect(listed).toBeUndefined();

    const handle = readClient();
    attachReadTools(factory, handle.client);
    gate.open();
    await listing;
    expect(listed).toBe(95);
    expect(factory.names.size).toBe(95);
    expect(listChanged).toBe(0);
    await client.close();
    await served.close();
    handle.close();
  });

  it('a factory whose allow-list excludes pfsense_mcp_info never lists it', async () => {
    const factory = createServerFactory('auditor', new Set(['pfsense_get_firewall_aliases']));
    expect(factory.names.size).toBe(0);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const gate = gateUntilReady(serverSide);
    const served = serveStdio(() => factory.create(), { transport: gate });
    gate.open();
    const client = newClient(era);
    await client.connect(clientSide);
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
    await served.close();
  });
});

describe('a 2026-07-28 client that skips discovery (a cached verdict)', () => {
  it('opens with tools/list: the held request itself starts the attach, and the list is whole', async () => {
    // Learn the discovery result once, as a host with a registry entry would have it.
    const first = createServerFactory('auditor', null);
    const [c1, s1] = InMemoryTransport.createLinkedPair();
    const served1 = serveStdio(() => first.create(), { transport: s1 });
    const probe = newClient('modern');
    await probe.connect(c1);
    const discover = probe.getDiscoverResult();
    await probe.close();
    await served1.close();
    expect(discover).toBeDefined();

    const factory = createServerFactory('auditor', null);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const gate = gateUntilReady(serverSide);
    const served = serveStdio(() => factory.create(), { transport: gate });
    const client = newClient('modern');
    await client.connect(clientSide, { prior: { kind: 'modern', discover: discover! } });
    assertEra(client, 'modern');
    const listing = client.listTools();
    await gate.openingAnswered;
    const handle = readClient();
    attachReadTools(factory, handle.client);
    gate.open();
    expect((await listing).tools).toHaveLength(95);
    await client.close();
    await served.close();
    handle.close();
  });
});

describe('the held queue is bounded', () => {
  /** A wire stub: what the gate receives from the client and what it sends back. */
  function stubWire() {
    const sent: JSONRPCMessage[] = [];
    const wire: Transport = {
      start: async () => undefined,
      close: async () => undefined,
      send: async (m: JSONRPCMessage) => void sent.push(m),
    };
    return { wire, sent, deliver: (m: JSONRPCMessage) => wire.onmessage?.(m) };
  }

  it('past maxHeld a request is refused at once with SERVER_STARTING, a notification dropped, one overflow report; the held ones pass in order once open', async () => {
    const { wire, sent, deliver } = stubWire();
    let overflows = 0;
    let paced = 0;
    const gate = gateUntilReady(wire, {
      maxHeld: 40,
      onOverflow: () => (overflows += 1),
      pace: async () => void (paced += 1),
    });
    const seen: unknown[] = [];
    gate.onmessage = (m) => seen.push('id' in m ? m.id : (m as { method: string }).method);
    for (let id = 1; id <= 45; id += 1) deliver({ jsonrpc: '2.0', id, method: 'tools/list' });
    deliver({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    expect(sent.map((m) => ('id' in m ? m.id : null))).toEqual([41, 42, 43, 44, 45]);
    expect(sent.every((m) => 'error' in m && (m.error as { data?: { code?: string } }).data?.code === 'SERVER_STARTING')).toBe(true);
    expect(overflows).toBe(1);
    expect(seen).toEqual([]);
    gate.open();
    // Arriving while the held ones are let through: queued behind them.
    deliver({ jsonrpc: '2.0', id: 46, method: 'tools/list' });
    await new Promise<void>((resolve) => {
      const check = () => (seen.length === 41 ? resolve() : setImmediate(check));
      check();
    });
    expect(seen).toEqual([...Array.from({ length: 40 }, (_, i) => i + 1), 46]);
    // 41 messages at 16 per turn: paced between turns.
    expect(paced).toBeGreaterThanOrEqual(2);
    // Open now: nothing is held any more.
    deliver({ jsonrpc: '2.0', id: 47, method: 'tools/list' });
    expect(seen.at(-1)).toBe(47);
    expect(() => gateUntilReady(wire, { maxHeld: -1 })).toThrow(/maxHeld/);
  });
});
