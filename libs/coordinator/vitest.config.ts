import { projectConfig } from '../../tools/vitest/project-config.mjs';

// The signer bundle the chain and reconciliation tests spawn is built once, before every test file.
export default projectConfig(import.meta.dirname, { globalSetup: ['test/support/global-setup.ts'] });
