import { AdapterInputError } from '@pfsense-mcp/adapters';
import type { WriteCapability } from './capability-registry.js';
import { CoordinatorInputError } from './coordinator-input-error.js';
import { CoordinatorRefusalError } from './coordinator-refusal-error.js';
import { RefusalGate } from './refusal-audit.js';
import type { RefusalRecorder } from './refusal-recorder.js';

/** The caller asked for what is already so (an entry present, or absent): its input is wrong, nothing is refused. */
const INPUT_ERRORS: ReadonlySet<string> = new Set(['ALREADY_PRESENT', 'NOT_PRESENT']);

/** The alias or the operator's bounds do not allow the change (docs/DESIGN.md §5): refused and audited. */
const CHANGE_RULE_REFUSALS: ReadonlySet<string> = new Set([
  'UNSUPPORTED_ALIAS',
  'NOT_REFERENCED',
  'CIDR_IN_HOST_ALIAS',
  'NOT_CIDR',
  'PREFIX_TOO_BROAD',
  'PROTECTED_NETWORK',
  'TOO_LARGE',
]);

/**
 * The adapter's normalized intent from the checked input and the call's one read. An entry already present or
 * absent is the caller's input error (INVALID_ARGUMENT naming the argument, the code as reason); a change the
 * alias or the bounds forbid is refused with a value-free audit row (STALE / CHANGE_RULES, nothing written);
 * any other failure — the description's no-op among them — is the uniform refusal, as before.
 */
export function normalizedIntentOf(
  adapter: WriteCapability,
  input: object,
  target: unknown,
  refusals: RefusalRecorder,
  operationId: string,
): unknown {
  try {
    return adapter.normalizeIntent(input, target);
  } catch (e) {
    if (e instanceof AdapterInputError && INPUT_ERRORS.has(e.code)) {
      throw new CoordinatorInputError('INVALID_ARGUMENT', e.argument, e.code, 'is invalid');
    }
    if (e instanceof AdapterInputError && CHANGE_RULE_REFUSALS.has(e.code)) {
      throw refusals.refuse('STALE', RefusalGate.CHANGE_RULES, { operationId });
    }
    throw new CoordinatorRefusalError();
  }
}
