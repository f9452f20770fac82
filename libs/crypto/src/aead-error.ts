export type AeadErrorCode = 'MALFORMED' | 'UNSUPPORTED_VERSION' | 'AUTHENTICATION_FAILED';

/** Refusal to open an envelope. Never carries key, plaintext or ciphertext bytes. */
export class AeadError extends Error {
  override readonly name = 'AeadError';
  readonly code: AeadErrorCode;

  constructor(code: AeadErrorCode, detail: string) {
    super(`aead: ${detail} (${code})`);
    this.code = code;
  }
}
