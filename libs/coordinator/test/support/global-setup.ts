// Runs once before any test file: makes sure the real signer bundle (dist/apps/signer-cli/main.js) exists and
// is not older than any source it is built from, so the chain and reconciliation tests never run a stale
// signer — and the parallel test files never race its build. The build (only when missing or stale) is the
// workspace's build script, atomic for a concurrently running signer-cli suite (test-support's built-program).
import { ensureProgramBuilt } from '@pfsense-mcp/test-support';

export default async function setup(): Promise<void> {
  await ensureProgramBuilt('signer-cli');
}
