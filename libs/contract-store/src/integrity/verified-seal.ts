/** What markExecutionVerified / markRollbackVerified seal with the transition (docs/DESIGN.md §3). */
export interface VerifiedSeal {
  /** Fingerprint digest of the authoritative read after the write (64 lowercase hex). */
  readonly verifiedTargetFingerprint: string;
  /** The pfrest id seen on that read; must equal the contract's lifecycle locator. */
  readonly verifiedLifecycleLocator: number;
}
