// Public API of transports: explicit named exports only. Nothing is exported until it is built.
export {};
