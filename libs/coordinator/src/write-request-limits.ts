/**
 * The bounds on what a caller can make the server write before any human signed anything (docs/DESIGN.md
 * §6). Every number is here, once.
 *
 * - `perAlias`: outstanding authorization requests (unanswered — no contract was created from them — and
 *   unexpired) for one alias; a new request beyond it is refused. This is the limit that bites: a caller who fills
 *   one alias's slots blocks that alias only (the operator frees them: `admin artifacts clean --requests --alias`).
 * - `outbox`: the same over the whole outbox, far above `perAlias` (333 aliases' worth): only a bound on what the
 *   outbox may hold, so one caller filling a few dozen aliases does not refuse every other alias.
 * - `leftoverWarningFiles`: artifact files in the inbox and outbox together from which the server warns
 *   (start-up log, pfsense_mcp_info). Leftovers are never deleted automatically and never stop the write.
 */
export const WRITE_REQUEST_LIMITS = Object.freeze({
  perAlias: 3,
  outbox: 1_000,
  leftoverWarningFiles: 500,
} as const);
