/**
 * Exit codes of pfsense-mcp-signer (stable; scripts rely on them):
 *   0 OK — done (key written, request shown, artifact signed/valid)
 *   1 INTERNAL — an unexpected error (a bug); nothing was signed
 *   2 USAGE — bad command line (unknown command/flag, missing argument, malformed key)
 *   3 FILE_REFUSED — an input or output file/directory is unsafe or unusable (missing, symlink, wrong owner,
 *     mode not 0600/0400, too large, output already exists, output directory writable by others)
 *   4 ARTIFACT_REFUSED — the artifact is malformed, wrongly signed, expired or inconsistent with its facts
 *   5 NOT_APPROVED — no approval, or an approval that does not match the digest shown; nothing was signed
 */
export const ExitCode = Object.freeze({
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  FILE_REFUSED: 3,
  ARTIFACT_REFUSED: 4,
  NOT_APPROVED: 5,
} as const);
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
