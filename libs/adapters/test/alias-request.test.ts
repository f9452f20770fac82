import { describe, expect, it } from 'vitest';
import { AdapterInputError, AliasDescriptionAdapter as A, isAliasDescriptionRequest } from '../src/index.js';
import type { AliasDescriptionRequest } from '../src/index.js';
import { WEB, intentFor } from './support.js';

const resolved = Object.freeze({ identity: Object.freeze({ alias_name: 'WEB_PORTS' }), locator: 1 });

function envelope(data: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ code: 200, status: 'ok', response_id: 'SUCCESS', message: '', data, ...extra });
}

describe('descriptor', () => {
  it('names the capability, the endpoint symbol, PATCH and the versions; frozen', () => {
    expect({
      endpointSymbol: A.endpointSymbol,
      httpMethod: A.httpMethod,
      capability: A.capability,
      semanticsVersion: A.semanticsVersion,
      rollbackPlanVersion: A.rollbackPlanVersion,
    }).toEqual({
      endpointSymbol: 'FIREWALL_ALIAS_PATCH',
      httpMethod: 'PATCH',
      capability: 'ALIAS_WRITE',
      semanticsVersion: 'firewall-alias-description/v1',
      rollbackPlanVersion: 'firewall-alias-description-rollback/v1',
    });
    expect(Object.isFrozen(A)).toBe(true);
  });
});

describe('buildRequest', () => {
  it('returns exactly {id, name, descr, apply: false}, frozen, plain, and recognised as the adapter model', () => {
    const request = A.buildRequest(intentFor('WEB_PORTS', 'new'), resolved);
    expect(request).toStrictEqual({ id: 1, name: 'WEB_PORTS', descr: 'new', apply: false });
    expect(Object.keys(request).sort()).toEqual(['apply', 'descr', 'id', 'name']);
    expect(Object.isFrozen(request)).toBe(true);
    expect(Object.getPrototypeOf(request)).toBe(Object.prototype);
    expect(A.isRequestModel(request)).toBe(true);
    expect(isAliasDescriptionRequest(request)).toBe(true);
  });

  it('a look-alike object is not the model (run-time check for the executor)', () => {
    expect(A.isRequestModel(Object.freeze({ id: 1, name: 'WEB_PORTS', descr: 'new', apply: false }))).toBe(false);
    expect(A.isRequestModel({ ...A.buildRequest(intentFor('WEB_PORTS', 'new'), resolved) })).toBe(false);
    expect(A.isRequestModel(null)).toBe(false);
  });

  it('uses the resolved locator, never anything from the intent', () => {
    expect(A.buildRequest(intentFor('WEB_PORTS', 'n'), { ...resolved, locator: 7 }).id).toBe(7);
  });

  it('refuses a target of another alias, a bad locator, a bad intent', () => {
    const e = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as AdapterInputError).code;
      }
      return 'none';
    };
    expect(e(() => A.buildRequest(intentFor('LAN_SERVERS', 'n'), resolved))).toBe('TARGET_MISMATCH');
    expect(e(() => A.buildRequest(intentFor('WEB_PORTS', 'n'), { ...resolved, locator: -1 }))).toBe('BAD_LOCATOR');
    expect(e(() => A.buildRequest(intentFor('WEB_PORTS', 'n'), { ...resolved, locator: 1.5 }))).toBe('BAD_LOCATOR');
    expect(e(() => A.buildRequest(intentFor('WEB_PORTS', 'n'), { ...resolved, extra: 1 } as never))).toBe('UNKNOWN_FIELD');
    expect(e(() => A.buildRequest(intentFor('WEB_PORTS', 'a\u0000'), resolved))).toBe('CONTROL_CHARACTER');
    expect(e(() => A.buildRequest({ ...intentFor('WEB_PORTS', 'n'), apply: true }, resolved))).toBe('UNKNOWN_FIELD');
    expect(() => A.buildRequest(intentFor('WEB_PORTS', 'n'), null as never)).toThrow(AdapterInputError);
  });
});

describe('parseResponse', () => {
  const request: AliasDescriptionRequest = A.buildRequest(intentFor('WEB_PORTS', 'new'), resolved);
  const patched = { ...WEB, descr: 'new' };

  it('accepts HTTP 200 with a success envelope whose data is the patched alias', () => {
    const parsed = A.parseResponse({ status: 200, body: envelope(patched, { _links: {} }) }, request);
    expect(parsed).toEqual({ accepted: true, target: patched });
  });

  it('accepts data with fields the pinned model does not list (real appliances send them)', () => {
    const wider = { ...patched, url: '', updatefreq: '', aliasurl: [], extra_field: { nested: true } };
    const parsed = A.parseResponse({ status: 200, body: envelope(wider) }, request);
    expect(parsed).toEqual({ accepted: true, target: patched });
    // Projection never fills a gap: a missing known field is still refused.
    const { detail: _detail, ...missing } = wider;
    expect(A.parseResponse({ status: 200, body: envelope(missing) }, request)).toEqual({ accepted: false, reason: 'DATA_NOT_ALIAS' });
  });

  it.each([
    ['another 2xx', { status: 201, body: envelope(patched) }, 'NOT_HTTP_200'],
    ['a 4xx', { status: 400, body: envelope(patched) }, 'NOT_HTTP_200'],
    ['a malformed body', { status: 200, body: '{"code":200' }, 'NOT_ENVELOPE'],
    ['an HTML body', { status: 200, body: '<html></html>' }, 'NOT_ENVELOPE'],
    [
      'a non-success envelope',
      { status: 200, body: JSON.stringify({ code: 400, status: 'bad request', response_id: 'X', data: patched }) },
      'NOT_SUCCESS_ENVELOPE',
    ],
    [
      'an envelope without response_id',
      { status: 200, body: JSON.stringify({ code: 200, status: 'ok', data: patched }) },
      'NOT_SUCCESS_ENVELOPE',
    ],
    [
      'an envelope whose response_id is not SUCCESS',
      { status: 200, body: JSON.stringify({ code: 200, status: 'ok', response_id: 'X', data: patched }) },
      'NOT_SUCCESS_ENVELOPE',
    ],
    ['data that is not an alias', { status: 200, body: envelope([patched]) }, 'DATA_NOT_ALIAS'],
    ['data of another alias', { status: 200, body: envelope({ ...patched, id: 0 }) }, 'DATA_OTHER_ALIAS'],
    ['data of another name at the same id', { status: 200, body: envelope({ ...patched, name: 'OTHER' }) }, 'DATA_OTHER_ALIAS'],
    ['data with another description', { status: 200, body: envelope({ ...patched, descr: 'old' }) }, 'DATA_DESCRIPTION_DIFFERS'],
  ])('rejects %s', (_n, response, reason) => {
    expect(A.parseResponse(response, request)).toEqual({ accepted: false, reason });
  });

  it('rejects a request that is not the adapter model', () => {
    expect(A.parseResponse({ status: 200, body: envelope(patched) }, { id: 1, name: 'WEB_PORTS', descr: 'new', apply: false })).toEqual({
      accepted: false,
      reason: 'NOT_ADAPTER_REQUEST',
    });
  });
});
