// Public API of eslint-rules: explicit named exports only. Nothing is exported until it is built.
export {};
