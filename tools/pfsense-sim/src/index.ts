// Public API of pfsense-sim: a loopback pfrest v2 simulator for tests, the demo and the lab runner.
export { startSimulator, isLoopbackHost } from './start-simulator.js';
export type { SimulatorOptions, RunningSimulator } from './start-simulator.js';
export type { SimulatorControl } from './simulator-control.js';
export { FAULT_KINDS, FAULT_KIND_NAMES, HTTP_METHODS, parseFaultArg } from './fault-injection.js';
export type { FaultKind, FaultSpec, HttpMethod } from './fault-injection.js';
export { AUTH_MODES } from './auth.js';
export type { AuthMode, Credential } from './auth.js';
export { privilegeFor, PAGE_ALL } from './privileges.js';
