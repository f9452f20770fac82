/** The outbox names of the requests the server writes for an existing contract (lowercase ids). */
export function confirmationRequestName(contractId: string): string {
  return `confirmation-request.${contractId.toLowerCase()}.json`;
}

export function reconciliationRequestName(contractId: string, stateVersion: number): string {
  return `reconciliation-request.${contractId.toLowerCase()}.v${stateVersion}.json`;
}

export function rollbackRequestName(contractId: string, stateVersion: number): string {
  return `rollback-request.${contractId.toLowerCase()}.v${stateVersion}.json`;
}

export function releaseRequestName(contractId: string, stateVersion: number): string {
  return `release-request.${contractId.toLowerCase()}.v${stateVersion}.json`;
}
