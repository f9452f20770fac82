// Public API of contract-store: explicit named exports only. Nothing is exported until it is built.
export {};
