import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
export const LAB_BUNDLE = join(ROOT, 'dist', 'apps', 'lab-runner', 'main.js');
export const SIM_BUNDLE = join(ROOT, 'dist', 'tools', 'pfsense-sim', 'main.js');
