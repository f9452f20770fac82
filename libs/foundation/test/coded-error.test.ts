import { describe, expect, it } from 'vitest';
import { ALIAS_NAME_MAX_LENGTH, CodedError, isAliasName } from '../src/index.js';

class SampleError extends CodedError<'ONE' | 'TWO'> {
  override readonly name = 'SampleError';
}

describe('CodedError, the one error shape', () => {
  it('carries its code and message, keeps the concrete name and a cause', () => {
    const cause = new Error('inner');
    const e = new SampleError('TWO', 'argument "x": must be short', { cause });
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(CodedError);
    expect({ code: e.code, message: e.message, name: e.name, cause: e.cause }).toEqual({
      code: 'TWO',
      message: 'argument "x": must be short',
      name: 'SampleError',
      cause,
    });
    expect(new CodedError('X', 'm').name).toBe('CodedError');
  });

  it('the shape is told from any other thrown value by instanceof', () => {
    expect(new SampleError('ONE', 'm') instanceof CodedError).toBe(true);
    for (const v of [new Error('m'), Object.assign(new Error('m'), { code: 'ONE' }), { code: 'ONE' }, 'ONE', null])
      expect(v instanceof CodedError).toBe(false);
  });
});

describe('the alias-name rule', () => {
  it('accepts 1 to 31 letters, digits and underscores, exactly', () => {
    for (const v of ['a', 'BLOCK_LIST', '_9', 'x'.repeat(ALIAS_NAME_MAX_LENGTH)]) expect(isAliasName(v), v).toBe(true);
    for (const v of ['', 'x'.repeat(ALIAS_NAME_MAX_LENGTH + 1), 'a-b', 'a b', 'é', 'a\n', 'ａ', 1, null, undefined])
      expect(isAliasName(v), String(v)).toBe(false);
  });
});
