import { CodedError } from '@pfsense-mcp/foundation';

export type AeadErrorCode = 'MALFORMED' | 'UNSUPPORTED_VERSION' | 'AUTHENTICATION_FAILED';

/** Refusal to open an envelope. Never carries key, plaintext or ciphertext bytes. */
export class AeadError extends CodedError<AeadErrorCode> {
  override readonly name = 'AeadError';

  constructor(code: AeadErrorCode, detail: string) {
    super(code, `aead: ${detail} (${code})`);
  }
}
