// The in-process control surface (tests, the lab runner) and its HTTP twin under /__sim/ (loopback only).
import type { ApplyMode, DataStore } from './data-store.js';
import { z } from 'zod';
import { FAULT_KINDS, faultSpecSchema, type FaultBook, type FaultSpec } from './fault-injection.js';
import type { RequestCounters } from './request-counters.js';

export interface SimulatorControl {
  /** Installs a fault for route + method (replacing one already there). */
  setFault(fault: FaultSpec): void;
  /** Clears faults: all, or those matching route and/or method. */
  clearFaults(route?: string, method?: string): void;
  faults(): readonly FaultSpec[];
  /** Request counts keyed "METHOD /path". */
  counters(): Readonly<Record<string, number>>;
  count(route: string, method: string): number;
  resetCounters(): void;
  /** Subsystems GET /api/v2/firewall/apply reports as pending. */
  pendingSubsystems(): readonly string[];
  /** Restores the start data (seed and --data) and clears pending subsystems. */
  resetData(): void;
  /** Marks a subsystem pending, as a change someone else staged would (e.g. `filter`). */
  markPending(subsystem: string): void;
  /** How the next filter reloads behave (`sync` by default; `lost`, `stale-table`, a delay). */
  setApplyMode(mode: ApplyMode): void;
  /** Edits one stored record without an API request (e.g. a rule flipped to pass, an entry added). */
  editRecord(path: string, index: number, fields: Readonly<Record<string, unknown>>): void;
}

export function createControl(faults: FaultBook, counters: RequestCounters, store: DataStore): SimulatorControl {
  return Object.freeze({
    setFault: (fault: FaultSpec) => faults.set(fault),
    clearFaults: (route?: string, method?: string) => faults.clear(route, method),
    faults: () => faults.list(),
    counters: () => counters.snapshot(),
    count: (route: string, method: string) => counters.get(route, method),
    resetCounters: () => counters.reset(),
    pendingSubsystems: () => store.pendingSubsystems(),
    resetData: () => store.reset(),
    markPending: (subsystem: string) => store.markPending(subsystem),
    setApplyMode: (mode: ApplyMode) => store.setApplyMode(mode),
    editRecord: (path: string, index: number, fields: Readonly<Record<string, unknown>>) =>
      store.editRecord(path, index, fields as Record<string, never>),
  });
}

export interface ControlResponse {
  readonly status: number;
  readonly body: unknown;
}

/**
 * /__sim/ control endpoint:
 *   GET    /__sim/faults            → {faults}
 *   POST   /__sim/faults            body FaultSpec → {faults}
 *   DELETE /__sim/faults[?route=&method=] → {faults}
 *   GET    /__sim/counters          → {counters}
 *   DELETE /__sim/counters          → {counters: {}}
 *   GET    /__sim/kinds             → {kinds: {name: {applied, description}}}
 *   GET    /__sim/pending           → {pending_subsystems}
 *   POST   /__sim/reset             → restores start data
 *   POST   /__sim/pending           body {subsystem} → {pending_subsystems}
 *   POST   /__sim/apply-mode        body {mode, delayMs?} → {apply_mode}
 *   POST   /__sim/records           body {path, index, fields} → {edited: true}
 */
export function handleControl(
  control: SimulatorControl,
  method: string,
  path: string,
  search: URLSearchParams,
  body: Buffer,
): ControlResponse {
  const route = path.replace(/\/+$/, '');
  if (route === '/__sim/faults') {
    if (method === 'GET') return { status: 200, body: { faults: control.faults() } };
    if (method === 'POST') {
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        return { status: 400, body: { error: 'body must be a JSON fault spec' } };
      }
      const parsed = faultSpecSchema.safeParse(json);
      if (!parsed.success)
        return {
          status: 400,
          body: { error: 'invalid fault spec', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) },
        };
      control.setFault(parsed.data);
      return { status: 200, body: { faults: control.faults() } };
    }
    if (method === 'DELETE') {
      control.clearFaults(search.get('route') ?? undefined, search.get('method') ?? undefined);
      return { status: 200, body: { faults: control.faults() } };
    }
  }
  if (route === '/__sim/counters') {
    if (method === 'GET') return { status: 200, body: { counters: control.counters() } };
    if (method === 'DELETE') {
      control.resetCounters();
      return { status: 200, body: { counters: control.counters() } };
    }
  }
  if (route === '/__sim/kinds' && method === 'GET') return { status: 200, body: { kinds: FAULT_KINDS } };
  if (route === '/__sim/pending' && method === 'GET') return { status: 200, body: { pending_subsystems: control.pendingSubsystems() } };
  if (method === 'POST' && ['/__sim/pending', '/__sim/apply-mode', '/__sim/records'].includes(route)) {
    return handleStateEdit(control, route, body);
  }
  if (route === '/__sim/reset' && method === 'POST') {
    control.resetData();
    return { status: 200, body: { reset: true } };
  }
  return { status: 404, body: { error: 'unknown control route' } };
}

const stateEdits = {
  '/__sim/pending': z.strictObject({ subsystem: z.enum(['aliases', 'natconf', 'filter', 'shaper']) }),
  '/__sim/apply-mode': z.strictObject({
    mode: z.enum(['sync', 'lost', 'stale-table']),
    delayMs: z.number().int().min(0).max(600_000).optional(),
  }),
  '/__sim/records': z.strictObject({
    path: z.string().startsWith('/api/v2/').max(300),
    index: z.number().int().min(0),
    fields: z.record(z.string(), z.unknown()),
  }),
} as const;

/** The state-editing control routes (faults that are a state, not a reply: foreign pending, apply, an edit). */
function handleStateEdit(control: SimulatorControl, route: string, body: Buffer): ControlResponse {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { status: 400, body: { error: 'body must be JSON' } };
  }
  if (route === '/__sim/pending') {
    const p = stateEdits['/__sim/pending'].safeParse(json);
    if (!p.success) return { status: 400, body: { error: 'body must be {subsystem}' } };
    control.markPending(p.data.subsystem);
    return { status: 200, body: { pending_subsystems: control.pendingSubsystems() } };
  }
  if (route === '/__sim/apply-mode') {
    const p = stateEdits['/__sim/apply-mode'].safeParse(json);
    if (!p.success) return { status: 400, body: { error: 'body must be {mode, delayMs?}' } };
    control.setApplyMode(p.data);
    return { status: 200, body: { apply_mode: p.data } };
  }
  const p = stateEdits['/__sim/records'].safeParse(json);
  if (!p.success) return { status: 400, body: { error: 'body must be {path, index, fields}' } };
  try {
    control.editRecord(p.data.path, p.data.index, p.data.fields);
  } catch {
    return { status: 404, body: { error: 'no such record' } };
  }
  return { status: 200, body: { edited: true } };
}
