// Public API of write-client: explicit named exports only. Nothing is exported until it is built.
export {};
