// Public API of signer-cli: explicit named exports only. Nothing is exported until it is built.
export {};
