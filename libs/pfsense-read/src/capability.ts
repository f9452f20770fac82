// Capability names as strings until @pfsense-mcp/policy publishes its `Capability` type; the catalogue's names
// are the ones of ../shared/pfrest/tool-endpoints.json (checked by test/catalogue-drift.test.ts).
export type Capability = string;
