// Public API of bench: explicit named exports only. Nothing is exported until it is built.
export {};
