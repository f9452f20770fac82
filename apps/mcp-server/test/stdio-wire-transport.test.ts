// The stdio wire transport in process, over in-memory streams: every line answered or handed on, and reading that
// stops while the output is not taken.
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createStdioWireTransport } from '../src/runtime/stdio/stdio-wire-transport.js';

/** An output whose writes complete only when released: what a client that stops reading looks like. */
function heldOutput() {
  const chunks: string[] = [];
  const pending: (() => void)[] = [];
  let holding = true;
  const output = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      if (holding) pending.push(() => done());
      else done();
    },
  });
  return {
    output,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    release: () => {
      holding = false;
      for (const done of pending.splice(0)) done();
    },
  };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
};

describe('createStdioWireTransport', () => {
  it('hands valid messages on in order and answers the rest itself, with their refusal names reported', async () => {
    const input = new PassThrough();
    const { output, lines, release } = heldOutput();
    release();
    const refused: unknown[] = [];
    const wire = createStdioWireTransport(input, output, { maxFrameBytes: 64, onRefused: (name, id) => refused.push([name, id]) });
    const seen: JSONRPCMessage[] = [];
    wire.onmessage = (m) => seen.push(m);
    await wire.start();
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n\n');
    input.write(`{"jsonrpc":"2.0","id":9,"method":"x","params":{"p":"${'y'.repeat(100)}"}}\n`);
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await until(() => seen.length === 2);
    expect(seen.map((m) => ('id' in m ? m.id : (m as { method: string }).method))).toEqual([1, 'notifications/initialized']);
    expect(refused).toEqual([
      ['PARSE_ERROR', null],
      ['FRAME_TOO_LARGE', 9],
    ]);
    expect(lines().map((l) => [l['id'], (l['error'] as { code: number }).code])).toEqual([
      [null, -32700],
      [9, -32600],
    ]);
    await wire.close();
  });

  it('stops handing on and reading while the output holds more than highWaterBytes, and resumes when it drains', async () => {
    const input = new PassThrough();
    const { output, lines, release } = heldOutput();
    const wire = createStdioWireTransport(input, output, { highWaterBytes: 4096 });
    let handed = 0;
    // Every request is answered with ~1 KiB at once, like a tools/list.
    wire.onmessage = (m) => {
      handed += 1;
      void wire.send({ jsonrpc: '2.0', id: (m as { id: number }).id, result: { pad: 'p'.repeat(1000) } } as JSONRPCMessage);
    };
    await wire.start();
    let flood = '';
    for (let id = 1; id <= 500; id += 1) flood += `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}\n`;
    input.write(flood);
    await until(() => handed > 0);
    for (let i = 0; i < 50; i += 1) await new Promise((resolve) => setImmediate(resolve));
    // At most one turn past the high-water mark: 4 KiB plus 16 answers of 1 KiB.
    expect(handed).toBeGreaterThanOrEqual(4);
    expect(handed).toBeLessThanOrEqual(4 + 16 + 1);
    expect(input.isPaused()).toBe(true);
    const stalled = handed;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handed).toBe(stalled);
    release();
    await until(() => handed === 500);
    await until(() => lines().length === 500);
    expect(lines().map((l) => l['id'])).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(input.isPaused()).toBe(false);
    await wire.close();
  });

  it('closes on an output error (EPIPE) and refuses to send after close; stdin EOF alone does not close it', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const wire = createStdioWireTransport(input, output);
    let closed = 0;
    const errors: string[] = [];
    wire.onclose = () => (closed += 1);
    wire.onerror = (e) => errors.push(e.message);
    await wire.start();
    await expect(wire.start()).rejects.toThrow(/already started/);
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(0);
    output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(closed).toBe(1);
    expect(errors).toEqual(['write EPIPE']);
    await expect(wire.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage)).rejects.toThrow(/closed/);
    await wire.close();
    expect(closed).toBe(1);
    expect(() => createStdioWireTransport(input, output, { highWaterBytes: 0 })).toThrow(/highWaterBytes/);
  });
});
