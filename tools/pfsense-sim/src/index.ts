// Public API of pfsense-sim: explicit named exports only. Nothing is exported until it is built.
export {};
