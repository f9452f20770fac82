/**
 * The version of this workspace's programs (package.json "version"): the server, the signer and the simulator
 * each report it with `--version`, and the server in its MCP identity. Held once here; a foundation test keeps it
 * equal to package.json, and the packed-install test checks what the installed programs print.
 */
export const PRODUCT_VERSION = '0.1.0';
