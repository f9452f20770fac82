import { PRODUCT_VERSION } from '@pfsense-mcp/foundation';

/** This program's version (the workspace package's, package.json). */
export const SIGNER_VERSION = PRODUCT_VERSION;
export const VERSION_TEXT = `pfsense-mcp-signer ${SIGNER_VERSION}`;

/** `--help` text. Kept in one place so the README can quote it. */
export const HELP_TEXT = `pfsense-mcp-signer — review and sign pfsense-mcp requests with an operator key.
Runs on the operator's machine, never on the server host. It reads files and
writes files; it has no network code at all.

Usage:
  pfsense-mcp-signer keygen --role ROLE --out DIR [--json]
  pfsense-mcp-signer review FILE --server-key KEY
                          [--key PRIVATE_KEY_FILE | --keys DIR]
                          [--full] [--members] [--json]
  pfsense-mcp-signer sign FILE (--key PRIVATE_KEY_FILE | --keys DIR)
                          --server-key KEY --out DIR [--approve CODE]
                          [--outcome APPLIED|NOT_APPLIED]
                          [--full] [--members] [--json]
  pfsense-mcp-signer approve PATH --keys DIR --server-key KEY [--out DIR]
                          [--approve CODE] [--full] [--members] [--json]
  pfsense-mcp-signer verify FILE [--server-key KEY] [--pin ROLE=KEY ...]
                          [--request REQUEST_FILE] [--json]
  pfsense-mcp-signer --version | --help

Commands:
  keygen   Create an Ed25519 key for ROLE (plan-authorization, confirmation,
           reconciliation, server-request, lab-gate) in DIR (an existing
           owner-only directory). Writes ROLE-<id>.key (private, 0600, never
           overwritten) and ROLE-<id>.pub, and prints the public key and key id
           to pin. --role operator writes the three operator keys at once and
           one operator.pub bundle (their public keys and roles) for
           \`pfsense-mcp admin trust --bundle\`. DIR must not lie in an exchange
           folder.
  review   Verify a pending request's server signature against the pinned server
           key, refuse it if it has expired, recompute every digest from the
           facts it carries, and show them. With your key of the role the
           request needs (--key, or --keys DIR holding ROLE-<id>.key), also the
           approval code; a key of another role is refused.
  sign     Review, then — only after explicit approval — sign: a
           PlanAuthorizationV2 for an authorization request,
           ConfirmationEvidence for a confirmation request, reconciliation
           evidence for a reconciliation request (--outcome required), a
           reservation release, or a lab gate receipt for a lab gate request
           (only with a lab-gate key, which signs nothing else). Approval is
           typing the approval code shown after "approve with" at the prompt on
           a terminal, or --approve CODE in scripts: 12 hex computed from your
           private key and the request digest, so only your key gives it; "yes"
           and the request digest's prefix approve nothing. The result is
           written to DIR by exclusive creation (mode 0600).
  approve  PATH is a request file or the requests/ folder of an exchange
           folder. For each authorization or confirmation request not yet
           answered, oldest first: the same verification and review as sign,
           the approval code to type (at the prompt, or a line on a piped
           stdin), then the signed answer, with the key of the role it needs
           from --keys DIR (never inside the exchange folder). A request in
           requests/ is answered as answers/NAME.signed.json beside it;
           elsewhere --out DIR is required. --approve CODE answers exactly the
           one request whose code it is. Reconciliation and release requests
           keep sign with --outcome.
  verify   Verify any artifact file: signature against the pinned keys given,
           currentness, and for a pending request its digests. With --request,
           also that a signed artifact answers that request.

Keys (KEY): 64 hex characters of an Ed25519 public key, or a file holding them
(mode 0600 or 0400). Input files must be regular files owned by you with mode
0600 or 0400 — copy them with care.

Options:
  --full       review/sign: every value whole, every recomputed digest in full
               (64 hex, each on its own line); otherwise long values are cut
               with a marker and only the request digest's prefix is shown
  --members    review/sign: list every member of the alias, whole, however many
               (more than 3 are otherwise summarised as a count and a digest)
  --json       one JSON object on stdout (ASCII only), no colour, no prompt;
               always every digest in full
  --no-color   no ANSI colour (also when NO_COLOR is set or stdout is not a
               terminal)
  --version    the version
  -h, --help   this text

Output: this text, --version, reviews and results print on stdout; refusals and
the approval prompt go to stderr.

Exit codes:
  0 done  1 internal error  2 usage  3 unsafe or unusable file
  4 artifact refused  5 not approved

Examples:
  pfsense-mcp-signer keygen --role plan-authorization --out ~/.pfsense-mcp-keys
  pfsense-mcp-signer review authorization-request-op1.json \\
      --server-key server.pub --keys ~/.pfsense-mcp-keys
  pfsense-mcp-signer sign authorization-request-op1.json \\
      --key ~/.pfsense-mcp-keys/plan-authorization-1a2b.key \\
      --server-key server.pub --out ./signed
  pfsense-mcp-signer sign confirmation-request-c1.json --key confirm.key \\
      --server-key server.pub --out ./signed --approve 3f9c0a1b2c4d --json
      (the code review --key confirm.key showed)
  pfsense-mcp-signer sign reconciliation-request-c1.json --key recon.key \\
      --server-key server.pub --out ./signed --outcome NOT_APPLIED
  pfsense-mcp-signer keygen --role operator --out ~/.pfsense-mcp-keys
  pfsense-mcp-signer approve /shared/pfsense-exchange/requests \\
      --keys ~/.pfsense-mcp-keys --server-key server-request.pub
  pfsense-mcp-signer verify ./signed/authorization-….json \\
      --pin plan-authorization=pa.pub
`;
