import { canonicalize } from '@pfsense-mcp/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ArtifactFormatError,
  ArtifactVerificationError,
  createPlanAuthorizationFromRequest,
  createPreparedExecutionIntentV1,
  encodeArtifact,
  executionIntentDigest,
  parseArtifact,
  planDigestOf,
  verifyArtifactSignature,
} from '../src/index.js';
import type { SignedArtifact } from '../src/index.js';
import { authorizationRequest, intentFields, keyring, NOW } from './fixtures.js';

const k = keyring();
const authz = createPlanAuthorizationFromRequest(authorizationRequest(k.server), k.plan, { issuedAt: NOW });
const text = encodeArtifact(authz);

describe('properties', () => {
  it('any single-character change of a signed file is refused by parsing or by the signature', () => {
    fc.assert(
      fc.property(fc.nat({ max: text.length - 1 }), fc.integer({ min: 0x20, max: 0x7e }), (i, code) => {
        const ch = String.fromCharCode(code);
        fc.pre(text[i] !== ch);
        const changed = text.slice(0, i) + ch + text.slice(i + 1);
        try {
          verifyArtifactSignature(parseArtifact(changed) as SignedArtifact, k.authorities);
        } catch (e) {
          return e instanceof ArtifactFormatError || e instanceof ArtifactVerificationError;
        }
        return false;
      }),
      { numRuns: 200 },
    );
  });

  it('the execution-intent digest changes with every field', () => {
    const base = executionIntentDigest(createPreparedExecutionIntentV1(intentFields()));
    const changes: Record<string, unknown> = {
      capability: 'ALIAS_WRITE_X',
      endpoint_symbol: 'OTHER_PATCH',
      method: 'PUT',
      adapter_semantics_version: 'firewall-alias-description/v2',
      natural_target: { alias_name: 'web_servers2' },
      precondition_fingerprint: '1'.repeat(64),
      normalized_intent: {
        operation: 'set_firewall_alias_description_v1',
        raw_target_hint: { alias_name: 'web_servers' },
        new_description: 'x',
      },
      rollback_snapshot_digest: '2'.repeat(64),
      rollback_plan_version: 'firewall-alias-description-rollback/v2',
      appliance_binding_digest: '3'.repeat(64),
    };
    for (const [field, value] of Object.entries(changes)) {
      expect(executionIntentDigest(createPreparedExecutionIntentV1(intentFields({ [field]: value })))).not.toBe(base);
    }
  });

  it('the plan digest does not depend on step order and refuses repeats', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), { minLength: 1, maxLength: 6 }),
        fc.infiniteStream(fc.stringMatching(/^[0-9a-f]{64}$/)),
        (ids, digests) => {
          const steps = ids.map((step_id) => ({ step_id, execution_intent_digest: digests.next().value as string }));
          const a = planDigestOf({ operationId: 'op', steps });
          const b = planDigestOf({ operationId: 'op', steps: [...steps].reverse() });
          return a === b && a !== planDigestOf({ operationId: 'op2', steps });
        },
      ),
      { numRuns: 100 },
    );
    expect(() => planDigestOf({ operationId: 'op', steps: [] })).toThrow(TypeError);
    const s = { step_id: 'a', execution_intent_digest: '0'.repeat(64) };
    expect(() => planDigestOf({ operationId: 'op', steps: [s, s] })).toThrow(TypeError);
  });

  it('unknown fields anywhere in the prepared intent are refused', () => {
    expect(() => createPreparedExecutionIntentV1({ ...intentFields(), extra: 1 })).toThrow(ArtifactFormatError);
    expect(() => createPreparedExecutionIntentV1(intentFields({ natural_target: { a: 1.5 } }))).toThrow(ArtifactFormatError);
    expect(canonicalize(createPreparedExecutionIntentV1(intentFields()))).toContain('"version":1');
  });
});
