// Public API of adapters: explicit named exports only. Nothing is exported until it is built.
export {};
