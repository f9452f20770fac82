import { projectConfig } from '../../tools/vitest/project-config.mjs';

// The signer bundle the tests spawn is (re)built once, atomically and only when stale, before every test file.
export default projectConfig(import.meta.dirname, { globalSetup: ['test/build-signer.ts'] });
