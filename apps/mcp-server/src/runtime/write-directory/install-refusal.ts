import { CodedError } from '@pfsense-mcp/foundation';

/**
 * Why an operator-signed artifact was not installed in the inbox: a stable code and one line naming the input
 * (`what`: FILE for `admin inbox add`, the answer's name for the exchange folder) and the rule — never a value.
 */
export class InstallRefusal extends CodedError {
  override readonly name = 'InstallRefusal';
}
