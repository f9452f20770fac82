import type { AeadError } from './aead-error.js';
import type { AuthorityError } from './authority-error.js';
import type { KeyFileError } from './key-file-error.js';

/**
 * Every error this lib throws to its callers, as one union discriminated by `name` (each member extends
 * foundation's CodedError and narrows `code` to its own closed set; docs/DESIGN.md §2).
 */
export type CryptoError = AeadError | AuthorityError | KeyFileError;
