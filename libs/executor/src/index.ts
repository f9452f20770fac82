// Public API of executor: explicit named exports only. Nothing is exported until it is built.
export {};
