// Public API of coordinator: explicit named exports only. Nothing is exported until it is built.
export {};
