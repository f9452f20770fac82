import { describe, expect, it } from 'vitest';
import { assertFunction, assertObject, assertRecord } from '../src/index.js';

const NOT_OBJECTS = [null, undefined, 0, '', 'x', true, 1n, Symbol('s')];

describe('argument assertions', () => {
  it('assertObject accepts any non-null object, arrays included', () => {
    for (const v of [{}, [], new Map(), Object.create(null)]) expect(() => assertObject(v, 'f: "input"')).not.toThrow();
    for (const v of NOT_OBJECTS) expect(() => assertObject(v, 'f: "input"')).toThrow(new TypeError('f: "input" must be an object'));
  });

  it('assertRecord also refuses arrays', () => {
    expect(() => assertRecord({}, 'g: "options"')).not.toThrow();
    for (const v of [...NOT_OBJECTS, [], [1]])
      expect(() => assertRecord(v, 'g: "options"')).toThrow(new TypeError('g: "options" must be an object'));
  });

  it('assertFunction accepts functions and says what it wanted', () => {
    expect(() => assertFunction(() => 1, 'h: "clock"')).not.toThrow();
    expect(() => assertFunction(class {}, 'h: "clock"')).not.toThrow();
    expect(() => assertFunction(1, 'h: "clock"')).toThrow(new TypeError('h: "clock" must be a function'));
    expect(() => assertFunction({}, 'h: "clock"', 'a function returning UTC milliseconds')).toThrow(
      new TypeError('h: "clock" must be a function returning UTC milliseconds'),
    );
  });

  it('never puts the value into the message', () => {
    const secret = 'sentinel-value-123';
    const asserts: readonly ((value: unknown, label: string) => void)[] = [assertObject, assertRecord, assertFunction];
    for (const assert of asserts) {
      try {
        assert(secret, 'k: "v"');
        expect.unreachable();
      } catch (e) {
        expect((e as Error).message).not.toContain(secret);
      }
    }
  });
});
