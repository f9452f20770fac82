// Public API of mcp-server: explicit named exports only. Nothing is exported until it is built.
export {};
