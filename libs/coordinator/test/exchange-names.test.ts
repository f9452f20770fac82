// The exchange folder's names derived from the outbox (exchange-names.ts): stable, by kind, and the inbox name each
// pending request waits for — the rules the server's pickup and a waiting call select files by.
import { describe, expect, it } from 'vitest';
import { exchangeAnswerName, requestNameOfAnswer } from '@pfsense-mcp/authorization';
import {
  PendingRequestKind,
  authorizationRequestName,
  awaitedInboxName,
  exchangeNameOfOutboxFile,
  exchangeRequestName,
  parseInboxArtifactName,
} from '../src/index.js';

const AUTH = authorizationRequestName({
  aliasKey: 'a'.repeat(16),
  operationId: `op-${'b'.repeat(64)}`,
  planPrefix: 'c'.repeat(16),
  expiresAt: 5000,
});

describe('exchange names', () => {
  it('an authorization and a confirmation request get a stable short name; reconciliation and release none', () => {
    const auth = exchangeRequestName({ kind: PendingRequestKind.AUTHORIZATION, file: AUTH });
    expect(auth).toMatch(/^auth-[0-9a-f]{8}\.json$/);
    expect(exchangeRequestName({ kind: PendingRequestKind.AUTHORIZATION, file: AUTH })).toBe(auth);
    const conf = exchangeRequestName({ kind: PendingRequestKind.CONFIRMATION, file: 'confirmation-request.ctr-1.json' });
    expect(conf).toMatch(/^conf-[0-9a-f]{8}\.json$/);
    expect(exchangeRequestName({ kind: PendingRequestKind.RECONCILIATION, file: 'reconciliation-request.ctr-1.v3.json' })).toBeNull();
    expect(exchangeRequestName({ kind: PendingRequestKind.RELEASE, file: 'release-request.ctr-1.v3.json' })).toBeNull();
    expect(requestNameOfAnswer(exchangeAnswerName(auth as string))).toBe(auth);
    expect(requestNameOfAnswer('auth-1234.signed.json')).toBeNull();
  });

  it('an outbox file names its exchange request only while it may be answered', () => {
    expect(exchangeNameOfOutboxFile(AUTH, 4999)).toBe(exchangeRequestName({ kind: PendingRequestKind.AUTHORIZATION, file: AUTH }));
    expect(exchangeNameOfOutboxFile(AUTH, 5000)).toBeNull();
    expect(exchangeNameOfOutboxFile('confirmation-request.ctr-1.json', 10_000)).toMatch(/^conf-/);
    expect(exchangeNameOfOutboxFile('reconciliation-request.ctr-1.v3.json', 0)).toBeNull();
    expect(exchangeNameOfOutboxFile('notes.json', 0)).toBeNull();
  });

  it('the inbox name a waiting call looks for is the canonical name of the answer', () => {
    expect(awaitedInboxName({ kind: PendingRequestKind.AUTHORIZATION, file: AUTH })).toBe(`plan-authorization.${'c'.repeat(16)}.json`);
    expect(awaitedInboxName({ kind: PendingRequestKind.CONFIRMATION, file: 'confirmation-request.ctr-1.json' })).toBe(
      'confirmation.ctr-1.json',
    );
    expect(awaitedInboxName({ kind: PendingRequestKind.RELEASE, file: 'release-request.ctr-1.v3.json' })).toBeNull();
    expect(awaitedInboxName({ kind: PendingRequestKind.ROLLBACK, file: 'rollback-request.ctr-1.v5.json' })).toBe(
      'rollback-authorization.ctr-1.5.json',
    );
  });

  it('a rollback request is answered with approve like a confirmation: a stable roll- name, and its inbox name parses back', () => {
    const roll = exchangeRequestName({ kind: PendingRequestKind.ROLLBACK, file: 'rollback-request.ctr-1.v5.json' });
    expect(roll).toMatch(/^roll-[0-9a-f]{8}\.json$/);
    expect(exchangeNameOfOutboxFile('rollback-request.ctr-1.v5.json', 10_000)).toBe(roll);
    expect(requestNameOfAnswer(exchangeAnswerName(roll as string))).toBe(roll);
    expect(parseInboxArtifactName('rollback-authorization.ctr-1.5.json')).toEqual({
      kind: 'pfsense-mcp/rollback-authorization',
      planPrefix: null,
      contractId: 'ctr-1',
      stateVersion: 5,
    });
    // Bound to a state version: a name without one concerns nothing.
    expect(parseInboxArtifactName('rollback-authorization.ctr-1.json')).toBeNull();
  });
});
