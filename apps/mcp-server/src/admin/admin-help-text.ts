import { installedDoc } from './installed-docs.js';

/** `pfsense-mcp admin --help`. Kept in step with the commands in run-admin.ts and apps/mcp-server/README.md. */
export const ADMIN_HELP_TEXT = `pfsense-mcp admin — set up and operate the write directory on the server host
The design of the write (§6) and the runbook for each situation:
  ${installedDoc('DESIGN.md')}
  ${installedDoc('OPERATIONS.md')}

Usage: pfsense-mcp admin COMMAND --dir DIR [options] [--json]

Options and arguments may come in any order. This help and each command's report
print on stdout; --json prints one JSON object as the last line of stdout
({"ok": true, ...} or {"ok": false, "error": {"code", "message"}}). A refusal is
one line on stderr naming the path or argument and the rule (never a value) and
exits non-zero (1 refused, 2 bad arguments, 4 a rollback that waits for a
signature).

With PFSENSE_INVENTORY_FILE, --appliance NAME works wherever --dir does: DIR is
that appliance's write_dir and its entry's write_* fields apply (init also
makes its write_exchange_dir; --exchange is then refused). The commands that
reach the appliance (rollback, reconcile, release) require it then.

Host setup:
  init --dir DIR [--exchange PATH]     create DIR (0700; refused unless new or
                                       empty): store/, keys/, anchors/,
                                       authorities.json, inbox/, outbox/; prints
                                       the server's request public key
                                       (keys/server-request.pub, the signer's
                                       --server-key) and the client environment.
                                       PFSENSE_WRITE_ANCHOR_DIR puts the anchors
                                       on another medium. --exchange PATH also
                                       makes the exchange folder (requests/,
                                       answers/) shared with the signing
                                       machine (PFSENSE_WRITE_EXCHANGE_DIR).
  trust --dir DIR --role ROLE --public-key KEY
                                       pin an operator key; ROLE =
                                       plan-authorization | confirmation |
                                       reconciliation; KEY = 64 hex or the
                                       signer's .pub file
  trust --dir DIR --bundle FILE        pin the three keys of the signer's
                                       operator.pub bundle (keygen --role
                                       operator) and list them
  trust --dir DIR --list               show the pinned keys (role, key id), the
                                       server's current request key and the
                                       retired ones (still needed by N files /
                                       no longer needed)
  untrust --dir DIR --key-id ID        remove one pinned key
  inbox add --dir DIR FILE             verify a signed artifact from the
                                       operator (kind, signature against the
                                       pinned keys, currentness) and install it
                                       in the inbox (0600, exclusive)

Operating the write (only --dir; safe beside a running server unless said
otherwise):
  status --dir DIR [--all] [--show-targets] [--exchange PATH]
                                       contracts (not terminal; --all: every
                                       one): id, operation, state, the MCP
                                       status it maps to, age, expiry, the alias
                                       as a digest prefix, what to do next (with
                                       its runbook section); pending
                                       outbox requests, inbox artifacts, the
                                       exchange folder's answer files not taken
                                       and why (PATH or
                                       PFSENSE_WRITE_EXCHANGE_DIR), anchors, the
                                       retention window
                                       (PFSENSE_WRITE_RETENTION_DAYS) and how
                                       many contracts purge would take, rate
                                       limits and the live windows (cooldowns
                                       left, window counts used/limit).
                                       --show-targets adds alias names from the
                                       store (SENSITIVE: do not paste it)
  audit verify --dir DIR               every row MAC, the audit chain and the
                                       anchor of both stores; exit 0 only when
                                       all hold, else the first failure (table,
                                       row, kind) and exit 1
  audit export --dir DIR [--since TIME] [--out FILE]
                                       the value-free audit rows as JSON lines
                                       with a keyless SHA-256 chain
  audit verify --export FILE           checks that chain: order and completeness
                                       only (authenticity needs the store and
                                       its key: audit verify --dir)
  artifacts list --dir DIR             every outbox/inbox file: kind, operation,
                                       contract, still-useful / answered /
                                       expired / BLOCKING (malformed,
                                       wrong-mode-or-owner, wrong-role, expired,
                                       duplicate)
  artifacts clean --dir DIR [--dry-run] [--blocking]
                  [--requests [--alias NAME]]
                                       removes expired or answered files (never
                                       the confirmation request of a live
                                       contract); --blocking also the blocking
                                       inbox files; --requests the pending
                                       authorization requests (of one alias),
                                       freeing their slots. Grants no retry.
  backup --dir DIR --out DIR2          online copies of both databases
                                       (0700/0600); never the anchors
  expire --dir DIR                     expires PREPARING/PREPARED contracts past
                                       their expiry
  cancel --dir DIR CONTRACT_ID         takes back a PREPARED, unexecuted
                                       contract (EXPIRED, outcome CANCELLED)
  migrate --dir DIR [--out DIR2]       upgrades stores of an older release after
                                       copying them to DIR2; refused while a
                                       server runs on DIR; a store of a newer
                                       release is refused

Talking to the appliance (the server's PFSENSE_URL, PFSENSE_API_KEY_FILE,
PFSENSE_CA_FILE…, with the
write_protected grants; a missing variable is named):
  rollback --dir DIR CONTRACT_ID       the executor's rollback of a VERIFIED
                                       contract → ROLLED_BACK (exit 0) or
                                       ROLLBACK_FAILED / RECONCILIATION (exit
                                       1), with the reason class. Undoing an
                                       alias-entries change (a block) needs
                                       the operator's signed rollback: the
                                       first run writes the rollback request
                                       (outbox, exchange folder), prints the
                                       signer command and exits 4; run it
                                       again once the answer is installed
  reconcile emit --dir DIR CONTRACT_ID
                                       a fresh observation and a server-signed
                                       reconciliation request in the outbox
                                       ("already pending" with its path is exit
                                       0)
  reconcile resume --dir DIR CONTRACT_ID
                                       the signed reconciliation evidence in the
                                       inbox resolves it (zero sends)
  release emit|resume --dir DIR CONTRACT_ID
                                       the same for releasing a ROLLBACK_FAILED
                                       contract's reservation

Keys and restores:
  reanchor --accept-restore --dir DIR  accept databases restored from a backup
                                       (server stopped): verifies both stores,
                                       refused while a contract is EXECUTING,
                                       ROLLING_BACK or RECONCILIATION; re-points
                                       both anchors with the acceptance time;
                                       every authorization issued before it is
                                       refused from then on
  rotate server-key --dir DIR          a new server-request signing key (server
                                       stopped); prints its public key for the
                                       signer's --server-key. The old key is
                                       retired: kept for verification only while
                                       a file it signed is still needed (trust
                                       --list shows how many)
  rotate master-key --dir DIR          new master key (server stopped; refused
                                       while a contract is EXECUTING or
                                       ROLLING_BACK): every row re-MACed, both
                                       chains re-linked, every protected
                                       artifact re-encrypted, both anchors
                                       rewritten, at the next key epoch; a kill
                                       at any step is rolled back or completed
                                       by the next open (keys/rotation.journal)
  purge --dir DIR                      retention purge (server stopped):
                                       protected artifacts of terminal contracts
                                       ended more than
                                       PFSENSE_WRITE_RETENTION_DAYS (default 30)
                                       ago, then compact

Every command refuses a DIR that is not owner-only or not laid out by init.
migrate, purge, reanchor and rotate refuse (WRITE_DIR_IN_USE, naming
DIR/.server-<pid>.lock) while a server runs on DIR; a presence file left by a
server that died is stale: said so, and ignored. While one of them runs, a
server refuses to start.
`;
