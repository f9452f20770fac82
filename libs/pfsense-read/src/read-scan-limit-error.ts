import { CodedError } from '@pfsense-mcp/foundation';

/**
 * A list call whose filters the server applies itself (see upstreamFilter) would have to read more than
 * MAX_SCAN_ROWS rows upstream. Nothing partial is returned. Carries the tool name only.
 */
export class ReadScanLimitError extends CodedError<'SCAN_LIMIT_EXCEEDED'> {
  override readonly name = 'ReadScanLimitError';
  readonly tool: string;

  constructor(tool: string, maxRows: number) {
    super('SCAN_LIMIT_EXCEEDED', `${tool}: the filter must be applied in the server and more than ${maxRows} rows would have to be read`);
    this.tool = tool;
  }
}
