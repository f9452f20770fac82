// The stdio framing pieces in process: line splitting with the frame limit, reading an id from a refused frame's
// start, strict line decoding.
import { describe, expect, it } from 'vitest';
import { decodeLine } from '../src/runtime/stdio/decode-line.js';
import { readLeadingId } from '../src/runtime/stdio/read-leading-id.js';
import { LineSplitter, OVERSIZED_HEAD_BYTES } from '../src/runtime/stdio/split-lines.js';

const lines = (items: ReturnType<LineSplitter['push']>) =>
  items.map((i) => (i.kind === 'line' ? i.bytes.toString('utf8') : `!${i.head.length}`));

describe('LineSplitter', () => {
  it('cuts lines across chunk boundaries and keeps empty lines', () => {
    const splitter = new LineSplitter(100);
    expect(lines(splitter.push(Buffer.from('ab')))).toEqual([]);
    expect(lines(splitter.push(Buffer.from('c\nde\n\nf')))).toEqual(['abc', 'de', '']);
    expect(splitter.pendingBytes).toBe(1);
    expect(lines(splitter.push(Buffer.from('\n')))).toEqual(['f']);
  });

  it('a line of exactly the limit passes; one byte more is refused once, its rest discarded up to the newline', () => {
    const splitter = new LineSplitter(8);
    expect(lines(splitter.push(Buffer.from('12345678\n')))).toEqual(['12345678']);
    expect(lines(splitter.push(Buffer.from('12345')))).toEqual([]);
    expect(lines(splitter.push(Buffer.from('6789')))).toEqual(['!9']);
    // Still inside the refused line: nothing is held, nothing is reported.
    expect(lines(splitter.push(Buffer.from('x'.repeat(1000))))).toEqual([]);
    expect(splitter.pendingBytes).toBe(0);
    expect(lines(splitter.push(Buffer.from('yy\nok\n')))).toEqual(['ok']);
  });

  it('keeps at most OVERSIZED_HEAD_BYTES of a refused line, and a refused line ending in the same chunk needs no discard', () => {
    const splitter = new LineSplitter(OVERSIZED_HEAD_BYTES * 2);
    const items = splitter.push(Buffer.from(`${'z'.repeat(OVERSIZED_HEAD_BYTES * 3)}\nnext\n`));
    expect(lines(items)).toEqual([`!${OVERSIZED_HEAD_BYTES}`, 'next']);
  });

  it('validates its arguments', () => {
    expect(() => new LineSplitter(0)).toThrow(/maxLineBytes/);
    expect(() => new LineSplitter(8).push('x' as unknown as Buffer)).toThrow(/chunk/);
  });
});

describe('readLeadingId', () => {
  it('reads a top-level string or integer id that comes before the cut', () => {
    expect(readLeadingId('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaa')).toBe(42);
    expect(readLeadingId(' { "id" : "a\\"b" , "method":"x"')).toBe('a"b');
    expect(readLeadingId('{"jsonrpc":"2.0","method":"m","params":{"k":[1,{"q":"}"}]},"id":7,"x":"')).toBe(7);
  });

  it('gives up rather than guess', () => {
    // An id inside params is not the request's id; the cut falls inside params.
    expect(readLeadingId('{"jsonrpc":"2.0","method":"m","params":{"id":5,"pad":"xxxx')).toBeNull();
    // A number cut by the end of the prefix might be longer.
    expect(readLeadingId('{"jsonrpc":"2.0","id":12')).toBeNull();
    expect(readLeadingId('{"id":1.5,"method":"m"}')).toBeNull();
    expect(readLeadingId('{"id":null,"method":"m"}')).toBeNull();
    expect(readLeadingId('["x"')).toBeNull();
    expect(readLeadingId('garbage')).toBeNull();
    expect(readLeadingId('{"id":"unterminated')).toBeNull();
  });
});

describe('decodeLine', () => {
  it('decodes a JSON-RPC message and skips blank lines (a trailing CR is part of the frame end)', () => {
    expect(decodeLine(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\r'))).toEqual({
      kind: 'message',
      message: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(decodeLine(Buffer.from('  \r'))).toEqual({ kind: 'blank' });
  });

  it('refuses invalid UTF-8 and invalid JSON as PARSE_ERROR with id null', () => {
    expect(decodeLine(Buffer.from([0x7b, 0xff, 0x7d]))).toEqual({ kind: 'refused', refusal: 'PARSE_ERROR', id: null });
    // An overlong encoding of "/" is not UTF-8 either.
    expect(decodeLine(Buffer.from([0x22, 0xc0, 0xaf, 0x22]))).toEqual({ kind: 'refused', refusal: 'PARSE_ERROR', id: null });
    expect(decodeLine(Buffer.from('{"id":1,'))).toEqual({ kind: 'refused', refusal: 'PARSE_ERROR', id: null });
  });

  it('refuses JSON that is no message as INVALID_REQUEST, keeping a usable id', () => {
    expect(decodeLine(Buffer.from('[]'))).toEqual({ kind: 'refused', refusal: 'INVALID_REQUEST', id: null });
    expect(decodeLine(Buffer.from('7'))).toEqual({ kind: 'refused', refusal: 'INVALID_REQUEST', id: null });
    expect(decodeLine(Buffer.from('{"jsonrpc":"2.0","id":"a","method":1}'))).toEqual({
      kind: 'refused',
      refusal: 'INVALID_REQUEST',
      id: 'a',
    });
    expect(decodeLine(Buffer.from('{"jsonrpc":"1.0","id":3,"method":"ping"}'))).toEqual({
      kind: 'refused',
      refusal: 'INVALID_REQUEST',
      id: 3,
    });
    expect(decodeLine(Buffer.from('{"id":{"x":1},"method":"ping"}'))).toEqual({ kind: 'refused', refusal: 'INVALID_REQUEST', id: null });
  });
});
