// Public API of authorization: explicit named exports only. Nothing is exported until it is built.
export {};
