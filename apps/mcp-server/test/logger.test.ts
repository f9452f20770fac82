import { describe, expect, it } from 'vitest';
import { createLogger, type LogFields } from '../src/index.js';

const capture = (level: Parameters<typeof createLogger>[0] = 'debug') => {
  const lines: string[] = [];
  const logger = createLogger(
    level,
    (l) => lines.push(l),
    () => new Date(0),
  );
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
};

describe('createLogger', () => {
  it('writes one JSON line per tool call with tool, duration and outcome', () => {
    const { logger, lines, parsed } = capture();
    logger.toolCall({ tool: 'pfsense_get_firewall_aliases', durationMs: 12.3456, outcome: 'ok' });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('\n')).toBe(true);
    expect(parsed()[0]).toEqual({
      ts: '1970-01-01T00:00:00.000Z',
      level: 'info',
      event: 'tool_call',
      tool: 'pfsense_get_firewall_aliases',
      duration_ms: 12.35,
      outcome: 'ok',
    });
  });

  it('cannot carry free text: unknown fields are dropped and every value is checked against a token pattern', () => {
    const { logger, parsed } = capture();
    const hostile = {
      tool: 'x", "apikey": "SECRET',
      code: 'secret value',
      profile: 'Bearer SECRET',
      version: 'v1 SECRET',
      signal: 'KILL SECRET',
      apiKey: 'SECRET',
      body: 'SECRET',
    } as unknown as LogFields;
    logger.log('warn', 'tool_call', hostile);
    logger.log('info', 'nonsense' as never, {});
    const out = JSON.stringify(parsed());
    expect(out).not.toContain('SECRET');
    expect(parsed()[0]).toEqual({
      ts: '1970-01-01T00:00:00.000Z',
      level: 'warn',
      event: 'tool_call',
      tool: 'unknown_tool',
      code: 'UNKNOWN',
      profile: 'unknown',
    });
    expect(parsed()[1]?.['event']).toBe('unknown_event');
  });

  it('names drifted fields on the tool-call line: field paths only, bounded, never free text', () => {
    const { logger, parsed } = capture();
    logger.toolCall({ tool: 'pfsense_get_interface_vlans', durationMs: 1, outcome: 'ok', drift: ['pcp', 'aliases.domain'] });
    expect(parsed()[0]).toMatchObject({ tool: 'pfsense_get_interface_vlans', drift: ['pcp', 'aliases.domain'] });
    logger.toolCall({ tool: 'a', durationMs: 1, outcome: 'ok', drift: ['ok_name', 'SECRET value', 'x"y', 1 as unknown as string] });
    expect(parsed()[1]?.['drift']).toEqual(['ok_name', 'unknown_field', 'unknown_field', 'unknown_field']);
    const many = Array.from({ length: 100 }, (_, i) => `f${i}`);
    logger.toolCall({ tool: 'a', durationMs: 1, outcome: 'ok', drift: many });
    expect(parsed()[2]).toMatchObject({ drift: many.slice(0, 64), drift_count: 100 });
    logger.toolCall({ tool: 'a', durationMs: 1, outcome: 'ok', drift: [] });
    expect(parsed()[3]).not.toHaveProperty('drift');
    expect(JSON.stringify(parsed())).not.toContain('SECRET');
  });

  it('honours the level threshold, and silent writes nothing', () => {
    const warn = capture('warn');
    warn.logger.toolCall({ tool: 'a', durationMs: 1, outcome: 'ok' });
    warn.logger.toolCall({ tool: 'a', durationMs: 1, outcome: 'upstream_error', code: 'UPSTREAM_TIMEOUT' });
    expect(warn.parsed().map((l) => l['level'])).toEqual(['warn']);
    const silent = capture('silent');
    silent.logger.log('error', 'startup_failed', { code: 'X' });
    expect(silent.lines).toHaveLength(0);
  });

  it('validates its arguments', () => {
    expect(() => createLogger('loud' as never)).toThrow(TypeError);
    expect(() => createLogger('info', 'stderr' as never)).toThrow(TypeError);
  });
});
