// Public API of lab-runner: explicit named exports only. Nothing is exported until it is built.
export {};
