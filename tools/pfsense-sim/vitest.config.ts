import { projectConfig } from '../../tools/vitest/project-config.mjs';

// The CLI tests spawn the built program; global-setup.ts (re)builds it when missing or stale.
export default projectConfig(import.meta.dirname, { globalSetup: ['./test/global-setup.ts'] });
