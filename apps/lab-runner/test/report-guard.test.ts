// The sentinel guard really withholds, and the HTML report escapes whatever text it shows.
import { describe, expect, it } from 'vitest';
import { DESCRIPTION_A, REPLACEMENTS, escapeHtml } from '../src/index.js';
import type { LabReport } from '../src/lab-report.js';
import { renderHtml } from '../src/render-html.js';
import { renderMarkdown } from '../src/render-markdown.js';
import { SentinelGuard } from '../src/sentinel-guard.js';

describe('SentinelGuard', () => {
  it('withholds text holding a description or a registered secret, counts it, passes clean text', () => {
    const guard = new SentinelGuard();
    expect(guard.check('forward executed → VERIFIED')).toBe('forward executed → VERIFIED');
    expect(guard.check(`x ${DESCRIPTION_A} y`)).toBeNull();
    expect(guard.check(`{"d":"${REPLACEMENTS['g-restart-rolling-back'].c}"}`)).toBeNull();
    const key = 'f'.repeat(64);
    expect(guard.check(`api ${key}`)).toBe(`api ${key}`);
    guard.add(key);
    expect(guard.check(`api ${key}`)).toBeNull();
    expect(guard.found).toBe(3);
  });
});

describe('report rendering', () => {
  const hostile = '<script>alert(1)</script>"&\'';
  const report: LabReport = {
    report_version: 1,
    program: 'pfsense-mcp-lab',
    product: { name: 'pfsense-mcp', version: '0.1.0' },
    pfrest_version: '2.10.0',
    target: 'simulator',
    appliance: null,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    interrupted: false,
    appliance_bindings: { ordinary: null },
    summary: { passed: 0, failed: 1 },
    sentinel_scan: { sentinels: 1, found: 0 },
    scenarios: [
      {
        id: 'ordinary',
        ok: false,
        proves: hostile,
        fault: { kind: 'none', phase: null, upstream_delivery: null, proxy_kind: null },
        states: ['PREPARED'],
        expected_states: ['PREPARED', 'EXECUTING'],
        sends: { forward: 0, rollback: 0, orchestration: 0 },
        expected_sends: { forward: 1, rollback: 1, orchestration: 0 },
        appliance_writes: 0,
        expected_appliance_writes: 2,
        final_target_matches: true,
        siblings_unchanged: true,
        reconciled_on_restart: null,
        expected_reconciled_on_restart: null,
        orchestration_states: [],
        appliance_binding_digest: null,
        signed: [],
        timeline: [
          {
            at_ms: 1,
            actor: 'runner',
            action: hostile,
            state: null,
            reads: 0,
            sends: { forward: 0, rollback: 0, orchestration: 0 },
            artifact: null,
          },
        ],
        failures: [hostile],
        interrupted: false,
        left: null,
        duration_ms: 1,
      },
    ],
  };

  it('escapes every text in the HTML and marks the mismatches', () => {
    const html = renderHtml(report);
    expect(html).not.toContain('<script>');
    expect(html).toContain(escapeHtml(hostile));
    expect(html).toContain('1 FAILED');
    expect(html).toContain('class="mismatch"');
  });

  it('keeps a table cell in one Markdown cell', () => {
    const md = renderMarkdown({ ...report, scenarios: [{ ...report.scenarios[0]!, proves: 'a | b\nc' }] });
    expect(md).toContain('a \\| b c');
  });
});
