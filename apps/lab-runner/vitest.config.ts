import { projectConfig } from '../../tools/vitest/project-config.mjs';

// The built runner (forked as the G scenarios' worker, spawned by the CLI tests) and the built simulator
// (every scenario's child) are rebuilt once before the test files when stale.
export default projectConfig(import.meta.dirname, {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 120_000,
  hookTimeout: 180_000,
});
