// Public API of pfsense-read: explicit named exports only. Nothing is exported until it is built.
export {};
