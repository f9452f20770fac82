// Public API of crypto: explicit named exports only. Nothing is exported until it is built.
export {};
