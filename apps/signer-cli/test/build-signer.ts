// Vitest global setup of signer-cli: builds the real bundle (dist/apps/signer-cli/main.js) before any test
// file runs, but only when it is missing or older than any source it is built from — so no test (among them
// "no network or SQLite code in the bundle") ever checks a stale build. The build is the workspace's
// tools/scripts/build-program.mjs, which renames a finished temp file into place: libs/coordinator's suite,
// run by nx at the same time, may be spawning this bundle meanwhile and never sees half of one.
import { ensureProgramBuilt } from '@pfsense-mcp/test-support';

export default async function setup(): Promise<void> {
  await ensureProgramBuilt('signer-cli');
}
