/**
 * A list call whose filters the server applies itself (see upstreamFilter) would have to read more than
 * MAX_SCAN_ROWS rows upstream. Nothing partial is returned. Carries the tool name only.
 */
export class ReadScanLimitError extends Error {
  override readonly name = 'ReadScanLimitError';
  readonly code = 'SCAN_LIMIT_EXCEEDED';
  readonly tool: string;

  constructor(tool: string, maxRows: number) {
    super(`${tool}: the filter must be applied in the server and more than ${maxRows} rows would have to be read`);
    this.tool = tool;
  }
}
