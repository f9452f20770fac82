import { OperationStatus } from '@pfsense-mcp/coordinator';

/** The six operation statuses a write tool reports, in one order for every output schema (docs/DESIGN.md §6). */
export const OPERATION_STATUSES = [
  OperationStatus.REQUESTED,
  OperationStatus.AWAITING_CONFIRMATION,
  OperationStatus.VERIFIED,
  OperationStatus.RECONCILIATION_REQUIRED,
  OperationStatus.ROLLED_BACK,
  OperationStatus.REFUSED,
] as const;
