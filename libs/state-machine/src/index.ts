// Public API of state-machine: explicit named exports only. Nothing is exported until it is built.
export {};
