// Test support shared by the suites of several projects (tests only; product sources never import it).
export { buildChildScript, runChild, startChild } from './child-process.js';
export type { BuiltChild, ChildLine, ChildResult, RunningChild } from './child-process.js';
export { MockScriptExhaustedError, RecordingMockTransport } from './recording-mock-transport.js';
export type { MockHandler, MockReply, RecordedCall, RecordingMockTransportScript } from './recording-mock-transport.js';
export { runGenerator } from './run-generator.js';
