// Public API of policy: explicit named exports only. Nothing is exported until it is built.
export {};
