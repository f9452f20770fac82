// What a refused call looks like to the tests: the promise rejects with an ExecutorRefusalError.
import { expect } from 'vitest';
import { ExecutorRefusalError } from '../../src/index.js';

export async function refusal(p: Promise<unknown>): Promise<ExecutorRefusalError> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(ExecutorRefusalError);
    return error as ExecutorRefusalError;
  }
  throw new Error('expected a refusal');
}
