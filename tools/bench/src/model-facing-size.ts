/** What a model reads of one listed tool: its name, description and input schema (not title, annotations or output schema). */
export interface ModelFacingTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: unknown;
}

/** UTF-8 bytes of the JSON array of every tool's {name, description, inputSchema}, as a client would put it in context. */
export function modelFacingBytes(tools: readonly ModelFacingTool[]): number {
  const view = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  return Buffer.byteLength(JSON.stringify(view), 'utf8');
}

/** A token estimate at 4 bytes per token, the usual rule of thumb for English text and JSON (no tokenizer is bundled). */
export function estimatedTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}
