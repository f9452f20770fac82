import type { Capability } from './capability.js';
import type { HttpMethod } from '@pfsense-mcp/foundation';
import { CodedError } from '@pfsense-mcp/foundation';

/** A (capability, endpoint symbol, method) that the MutationPolicy does not list. Carries only validated tokens. */
export class PolicyRefusalError extends CodedError<'NOT_ALLOW_LISTED'> {
  override readonly name = 'PolicyRefusalError';
  readonly capability: Capability;
  readonly endpointSymbol: string;
  readonly method: HttpMethod;

  constructor(capability: Capability, endpointSymbol: string, method: HttpMethod) {
    super('NOT_ALLOW_LISTED', `mutation refused by policy: ${capability} ${method} ${endpointSymbol} is not allow-listed`);
    this.capability = capability;
    this.endpointSymbol = endpointSymbol;
    this.method = method;
  }
}
