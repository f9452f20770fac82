import { projectConfig } from '../../tools/vitest/project-config.mjs';

export default projectConfig(import.meta.dirname);
