// Public API of lab-runner (nothing imports it; its tests use these): the registry and the runner.
export { SCENARIO_IDS, isScenarioId } from './scenario-definition.js';
export type { ExpectedSends, ScenarioDefinition, ScenarioFault, ScenarioId } from './scenario-definition.js';
export { SCENARIOS, scenarioOf } from './scenario-registry.js';
export { UsageError, parseCliArgs } from './cli-args.js';
export type { CliCommand } from './cli-args.js';
export { runLab, openReportDir } from './run-lab.js';
export type { LabOutput, LabRunOptions, LabRunOutcome } from './run-lab.js';
export { CANDIDATE_ALIAS, DESCRIPTION_A, LAB_RATE_LIMITS, REPLACEMENTS, SIBLING_ALIASES } from './lab-fixture.js';
export { PRODUCT_VERSION } from './product-version.js';
export { escapeHtml } from './render-html.js';
export type { ScenarioResult } from './scenario-result.js';
