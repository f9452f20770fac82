// Public API of canonical: explicit named exports only. Nothing is exported until it is built.
export {};
