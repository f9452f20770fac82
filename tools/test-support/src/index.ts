// Test support shared by the suites of several projects (tests only; product sources never import it).
export { buildChildScript, runChild, startChild } from './child-process.js';
export type { BuiltChild, ChildLine, ChildResult, RunningChild } from './child-process.js';
export { MockScriptExhaustedError, RecordingMockTransport } from './recording-mock-transport.js';
export type { MockHandler, MockReply, RecordedCall, RecordingMockTransportScript } from './recording-mock-transport.js';
export { runGenerator } from './run-generator.js';
export { LOOSE_RATE_LIMITS } from './loose-rate-limits.js';
export { RecordingTransport } from './recording-transport.js';
export type { ForwardedCall } from './recording-transport.js';
export { simulatorTransport } from './simulator-transport.js';
export type { SimulatorTransportOptions } from './simulator-transport.js';
export { useSimulatorWorld } from './use-simulator-world.js';
export type { ResettableSimulator, SimulatorWorld, SimulatorWorldSetup } from './use-simulator-world.js';
export { buildProgram, ensureProgramBuilt, programBuildOf, programStale } from './built-program.js';
export type { ProgramBuild } from './built-program.js';
