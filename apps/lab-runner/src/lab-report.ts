import type { ClosingReadBack, Preflight } from './appliance-gate.js';
import type { ScenarioResult } from './scenario-result.js';

/** report.json: everything the Markdown and HTML views show, value-free. */
export interface LabReport {
  readonly report_version: 1;
  readonly program: 'pfsense-mcp-lab';
  readonly product: { readonly name: string; readonly version: string };
  readonly pfrest_version: string;
  readonly target: 'simulator' | 'appliance';
  /**
   * Against a lab config's appliance: named only by its binding digest (never its URL or id), the preflight
   * and the closing read-back; null on the simulator.
   */
  readonly appliance: {
    readonly binding_digest: string;
    readonly gate_deadline: string;
    readonly preflight: Preflight;
    readonly closing: ClosingReadBack;
    /** The run's id, and how many times it stopped for the owner's signature (each resumed with --resume). */
    readonly run_id?: string;
    readonly owner_pauses?: number;
  } | null;
  readonly started_at: string;
  readonly finished_at: string;
  readonly interrupted: boolean;
  /** The appliance binding digest each scenario's simulator was bound by (the URL's port differs per scenario). */
  readonly appliance_bindings: Readonly<Record<string, string | null>>;
  readonly summary: { readonly passed: number; readonly failed: number };
  /** The runner's own scan of every report file and terminal line for the run's secrets and descriptions. */
  readonly sentinel_scan: { readonly sentinels: number; readonly found: number };
  readonly scenarios: readonly ScenarioResult[];
}
