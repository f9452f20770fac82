import type { RecoveryContract } from '@pfsense-mcp/contract-store';
import type { WriteApiClient } from '@pfsense-mcp/write-client';
import type { CheckedAdapter } from './check-adapter.js';
import { classifySendError } from './classify-send-error.js';
import { classifySendResponse } from './classify-send-response.js';
import { EffectKnowledge } from './effect-knowledge.js';
import { classified } from './send-classification.js';
import type { SendClassification } from './send-classification.js';

/** The one send, to the contract's own (endpoint, method), classified (step 8). Never retried, whatever happens. */
export async function sendOnce(
  writeClient: WriteApiClient,
  a: CheckedAdapter,
  contract: RecoveryContract,
  request: object,
): Promise<SendClassification> {
  let response: unknown;
  try {
    response = await writeClient.send(contract.endpoint_symbol, contract.http_method, request);
  } catch (error) {
    return classifySendError(error);
  }
  try {
    return classifySendResponse(response, (view) => {
      const parsed: unknown = a.fn.parseResponse(view, request);
      return parsed !== null && typeof parsed === 'object' && (parsed as { accepted?: unknown }).accepted === true;
    });
  } catch {
    return classified(EffectKnowledge.AMBIGUOUS, 'UNKNOWN_RESPONSE');
  }
}
