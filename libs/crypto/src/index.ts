// Public API of @pfsense-mcp/crypto: explicit named exports only. @noble/* is imported in this lib and nowhere else.
export { APPROVE_CODE_INFO, APPROVE_CODE_LENGTH, approveCodeOf } from './approve-code.js';
export { AeadError } from './aead-error.js';
export type { AeadErrorCode } from './aead-error.js';
export { AEAD_ENVELOPE_VERSION, AEAD_KEY_BYTES, AEAD_NONCE_BYTES, AEAD_TAG_BYTES, aeadOpen, aeadSeal } from './aead.js';
export { API_KEY_FILE_MAX_BYTES, readApiKeyFile } from './api-key-file.js';
export { AuthorityError } from './authority-error.js';
export type { AuthorityErrorCode } from './authority-error.js';
export { AUTHORITY_ROLES, isAuthorityRole } from './authority-role.js';
export type { AuthorityRole } from './authority-role.js';
export { constantTimeEqual } from './constant-time-equal.js';
export { MASTER_KEY_BYTES, STORE_KEY_LABELS, STORE_KEY_SALT, deriveStoreKeys } from './derive-store-keys.js';
export type { StoreKeys } from './derive-store-keys.js';
export {
  ED25519_ALGORITHM,
  ED25519_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  ed25519PublicKeyOf,
  ed25519Sign,
  ed25519Verify,
  generateEd25519KeyPair,
  isValidEd25519PublicKey,
} from './ed25519.js';
export {
  ED25519_PRIVATE_KEY_FILE_LABEL,
  ED25519_PRIVATE_KEY_FILE_LABEL_V2,
  KEY_FILE_ROLES,
  keyFileRoleOfName,
  readEd25519PrivateKeyFile,
  writeEd25519PrivateKeyFile,
} from './ed25519-private-key-file.js';
export type { Ed25519PrivateKeyFileContent, KeyFileRole } from './ed25519-private-key-file.js';
export { opensWithPrivateKeyLabel } from './private-key-label.js';
export { LAB_GATE_PRIVATE_KEY_FILE_LABEL, readLabGatePrivateKeyFile, writeLabGatePrivateKeyFile } from './private-key-file.js';
export { HKDF_SHA256_MAX_INFO_BYTES, HKDF_SHA256_MAX_LENGTH, hkdfSha256 } from './hkdf-sha256.js';
export { hmacSha256 } from './hmac-sha256.js';
export { keyIdOf } from './key-id-of.js';
export { KeyFileError } from './key-file-error.js';
export type { KeyFileErrorCode } from './key-file-error.js';
export { MASTER_KEY_FILE_LABEL, generateMasterKey, readMasterKeyFile, writeMasterKeyFile } from './master-key-file.js';
export { PinnedAuthoritySet } from './pinned-authority-set.js';
export type { AuthorityVerifyInput, PinnedAuthority } from './pinned-authority-set.js';
export { DEFAULT_SECRET_FILE_MAX_BYTES, readSecretFile, writeSecretFile } from './secret-file.js';
export {
  MAX_OPERATOR_BUNDLE_BYTES,
  OPERATOR_BUNDLE_ROLES,
  formatOperatorKeyBundle,
  parseOperatorKeyBundle,
} from './operator-key-bundle.js';
export type { OperatorBundleEntry, OperatorBundleRole } from './operator-key-bundle.js';
export type { CryptoError } from './crypto-error.js';
