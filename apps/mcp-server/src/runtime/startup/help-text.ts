import { PFREST_VERSION } from '@pfsense-mcp/pfsense-read';
import { SERVER_NAME, SERVER_VERSION } from './server-identity.js';

export const HELP_TEXT = `${SERVER_NAME} ${SERVER_VERSION} — an MCP server (stdio) for one pfSense
appliance (pfREST ${PFREST_VERSION})

Usage:
  pfsense-mcp                 serve MCP over stdio (configured from the
                              environment)
  pfsense-mcp --demo          serve MCP against a local simulator with demo data
                              (no configuration)
  pfsense-mcp --check-config  validate the configuration, read the pfREST
                              version and settings, report, exit 0/1
  pfsense-mcp --version       print the version
  pfsense-mcp --help          print this help
  pfsense-mcp admin …         set up and operate the write directory on this
                              host (pfsense-mcp admin --help)

Environment:
  PFSENSE_INVENTORY_FILE       absolute path of an owner-only JSON list of
                               appliances {name, url, api_key_file, ...}
                               instead of the next four: READ tools then take
                               appliance (a name, or on list tools "*" or a
                               list); writes per entry with write_dir
  PFSENSE_URL                  appliance origin, e.g. https://fw.example.net
                               (required)
  PFSENSE_API_KEY_FILE         absolute path of a file holding the pfREST API
                               key; owner-only (0600/0400) (required)
  PFSENSE_CA_FILE              absolute path of a PEM CA bundle to verify the
                               appliance certificate
  PFSENSE_PROFILE              auditor (default) | engineer | write_protected
  PFSENSE_ALLOWED_TOOLS        comma-separated exact tool names; narrows the
                               profile; empty = no tools
  PFSENSE_TOOLSETS             comma-separated toolsets (firewall, nat, routing,
                               interfaces, vpn, dhcp, dns, services, users,
                               certificates, system, status, diagnostics);
                               narrows like PFSENSE_ALLOWED_TOOLS;
                               pfsense_mcp_info stays
  PFSENSE_LOG_LEVEL            debug | info (default) | warn | error | silent
                               (JSON lines on stderr)
  PFSENSE_ALLOW_HTTP_LOOPBACK  true | false (default): true allows plain http to
                               a loopback address
  PFSENSE_WRITE_DIR            absolute path of the write directory made by
                               \`pfsense-mcp admin init\`; with
                               PFSENSE_PROFILE=write_protected it enables
                               pfsense_set_firewall_alias_description
  PFSENSE_WRITE_ANCHOR_DIR     absolute path of the anti-rollback anchors, if
                               init put them on another medium
  PFSENSE_WRITE_API_KEY_FILE   a second pfREST key file used only for the one
                               PATCH (default: the READ key)
  PFSENSE_WRITE_EXCHANGE_DIR   absolute path of the exchange folder made by
                               \`pfsense-mcp admin init --exchange\`: requests
                               to sign appear in requests/, signed answers in
                               answers/ are picked up

This help, --version and --check-config print on stdout; errors and logs (JSON
lines) go to stderr. When serving, stdout carries only MCP protocol frames.
`;

export const VERSION_TEXT = `${SERVER_NAME} ${SERVER_VERSION} (pfREST ${PFREST_VERSION})`;
