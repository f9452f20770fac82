/** One tool of the READ catalogue as data (generated, reviewed); see read-catalogue.ts for the built form. */
export interface ReadCatalogueEntry {
  readonly name: string;
  readonly title: string;
  /** Section of vendor/pfrest/tool-reference.md the tool belongs to. */
  readonly group: string;
  readonly description: string;
  /** Capability name as in vendor/pfrest/tool-endpoints.json (checked against @pfsense-mcp/policy at load). */
  readonly capability: string;
  readonly path: string;
  /** Key of READ_MODELS. */
  readonly model: string;
  readonly plural: boolean;
  /** Parent model when the endpoint lists child models (their items carry `parent_id`). */
  readonly childOf: string | null;
  /** Whether the tool takes `include_identifying_metadata`. */
  readonly identifyingFlag: boolean;
}
