// The workspace root, from this file's location: <root>/tools/repo-checks/test → <root>.
import { resolve } from 'node:path';

export const WORKSPACE_ROOT = resolve(import.meta.dirname, '..', '..', '..');
