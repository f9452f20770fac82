/** `pfsense-mcp admin --help`. Kept in step with the commands in run-admin.ts and apps/mcp-server/README.md. */
export const ADMIN_HELP_TEXT = `pfsense-mcp admin — set up and operate the write directory on the server host (docs/DESIGN.md §6)

Usage: pfsense-mcp admin COMMAND --dir DIR [options] [--json]
Options and arguments may come in any order. --json prints one JSON object as the last line of stdout
({"ok": true, ...} or {"ok": false, "error": {"code", "message"}}). A refusal is one line on stderr naming
the path or argument and the rule (never a value) and exits non-zero (1 refused, 2 bad arguments).

Host setup:
  init --dir DIR                       create DIR (0700; refused unless new or empty): store/, keys/, anchors/,
                                       authorities.json, inbox/, outbox/; prints the server's request public key
                                       (keys/server-request.pub, the signer's --server-key) and the client
                                       environment. PFSENSE_WRITE_ANCHOR_DIR puts the anchors on another medium.
  trust --dir DIR --role ROLE --public-key KEY
                                       pin an operator key; ROLE = plan-authorization | confirmation |
                                       reconciliation; KEY = 64 hex or the signer's .pub file
  trust --dir DIR --list               show the pinned keys (role, key id)
  untrust --dir DIR --key-id ID        remove one pinned key
  inbox add --dir DIR FILE             verify a signed artifact from the operator (kind, signature against the
                                       pinned keys, currentness) and install it in the inbox (0600, exclusive)

Keys and restores:
  reanchor --accept-restore --dir DIR  accept databases restored from a backup (server stopped): verifies both
                                       stores, refused while a contract is EXECUTING, ROLLING_BACK or
                                       RECONCILIATION; re-points both anchors with the acceptance time; every
                                       authorization issued before it is refused from then on
  purge --dir DIR                      retention purge (server stopped): protected artifacts of terminal contracts
                                       ended more than PFSENSE_WRITE_RETENTION_DAYS (default 30) ago, then compact

Every command refuses a DIR that is not owner-only or not laid out by init.
`;
