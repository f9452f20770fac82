import { parseAliasIdentity } from '@pfsense-mcp/adapters';
import { ProtectedArtifactError } from '@pfsense-mcp/contract-store';
import type { RateWindowsView, RecoveryContract } from '@pfsense-mcp/contract-store';
import { WRITE_REQUEST_LIMITS, parseAuthorizationRequestName, statusOfContract } from '@pfsense-mcp/coordinator';
import { DEFAULT_RATE_LIMITS } from '@pfsense-mcp/policy';
import { RecoveryState, isTerminal } from '@pfsense-mcp/state-machine';
import type { AdminContext } from './admin-context.js';
import { adminNextStep } from './admin-next-step.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { classifyArtifacts } from './classify-artifacts.js';
import type { ClassifiedArtifact } from './classify-artifacts.js';
import { retentionLine, retentionStatus } from './retention-status.js';
import { RUNBOOK, RUNBOOK_ANCHORS, runbookAnchorOf, seeRunbook } from './runbook-anchors.js';
import { withWriteDirectory } from './admin-facts.js';
import type { OpenedWriteDirectory } from './admin-facts.js';
import { storeRefusal } from './open-admin-stores.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';
import { exchangeStatus } from './exchange-status.js';
import { loadPinnedAuthorities, pinnedAuthoritySetOf } from '../runtime/write-directory/pinned-authorities-file.js';

function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** A duration for the operator, e.g. `1h 59m`, `3m 5s`, `42s` (rounded up: writes resume no earlier). */
function howLong(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

/**
 * --show-targets: each contract's alias name, decrypted from the store's own protected target-identity artifact
 * (the store reveals only that one, never the intent or snapshot); null once retention purged the artifacts.
 */
function targetNames(w: OpenedWriteDirectory, contracts: readonly RecoveryContract[]): ReadonlyMap<string, string | null> {
  const names = new Map<string, string | null>();
  for (const c of contracts) {
    try {
      names.set(c.contract_id, parseAliasIdentity(w.store.revealTargetIdentity(c.contract_id), 'target-identity').alias_name);
    } catch (error) {
      if (!(error instanceof ProtectedArtifactError && error.code === 'PURGED')) throw storeRefusal(error);
      names.set(c.contract_id, null);
    }
  }
  return names;
}

/** The live rate windows, the targets as the 12-hex prefix of their identity digest (never a name). */
function rateWindowsOf(v: RateWindowsView) {
  return Object.freeze({
    target_cooldowns: v.targetCooldowns.map((c) => ({ target: c.targetDigest.slice(0, 12), remaining_ms: c.remainingMs })),
    target_windows: v.targetWindows.map((w) => ({ target: w.targetDigest.slice(0, 12), used: w.used, limit: w.limit })),
    capability_windows: v.capabilityWindows.map((w) => ({ capability: w.capability, used: w.used, limit: w.limit })),
    in_flight: { used: v.inFlight.used, limit: v.inFlight.limit },
    reconciliation: { used: v.reconciliation.used, lockout_at: v.reconciliation.limit },
    window_ms: v.windowMs,
    clock_regression: v.clockRegression,
    clock_blocked_until: v.clockBlockedUntilMs,
  });
}

/**
 * A clock stepped backwards: the store's rate windows refuse every prepare until the clock is past the latest time
 * they accepted (docs/DESIGN.md §3). The MCP `refused` stays uniform; the operator reads here for how long.
 */
function clockBehindLine(until: number, now: number): string {
  return `CLOCK BEHIND the latest time the write path recorded: no signed change is accepted for another ${howLong(until - now)}, until ${new Date(until).toISOString()} — ${seeRunbook(RUNBOOK_ANCHORS.clockBehind)}`;
}

function rateWindowLines(w: ReturnType<typeof rateWindowsOf>, now: number): string[] {
  const caps = w.capability_windows.map((c) => `${c.capability} ${c.used}/${c.limit}`).join(', ') || 'none';
  return [
    `rate windows now: in flight ${w.in_flight.used}/${w.in_flight.limit}, reconciliation ${w.reconciliation.used}/${w.reconciliation.lockout_at} (lockout), prepares this ${Math.round(w.window_ms / 60_000)} min: ${caps}`,
    ...(w.clock_blocked_until === null ? [] : [clockBehindLine(w.clock_blocked_until, now)]),
    ...w.target_cooldowns.map((c) => `  cooldown target ${c.target}… ${Math.ceil(c.remaining_ms / 1000)}s left`),
    ...w.target_windows.map((t) => `  prepares target ${t.target}… ${t.used}/${t.limit}`),
  ];
}

function row(c: RecoveryContract, now: number, inOutbox: (fileName: string) => boolean) {
  const beforeExecution = c.state === RecoveryState.PREPARING || c.state === RecoveryState.PREPARED;
  return Object.freeze({
    contract_id: c.contract_id,
    operation_id: c.operation_id,
    state: c.state,
    mcp_status: statusOfContract(c),
    // The alias only as the prefix of its target digest: status never shows a name, a description or a key.
    target: c.target_identity_digest.slice(0, 12),
    age_ms: now - c.created_at,
    expires_at: beforeExecution ? c.expires_at : null,
    next_step: `${adminNextStep(c, inOutbox)} — ${seeRunbook(runbookAnchorOf(c))}`,
    runbook: `${RUNBOOK}#${runbookAnchorOf(c)}`,
  });
}

/**
 * Which aliases hold the request slots, counted by name as the coordinator counts them (WRITE_REQUEST_LIMITS):
 * authorization requests whose names are unexpired and from whose plan no contract was made — junk named like a
 * request included, since it holds a slot all the same.
 */
function requestSlotsOf(
  artifacts: readonly ClassifiedArtifact[],
  contracts: Iterable<RecoveryContract>,
  now: number,
): readonly { readonly aliasKey: string; readonly outstanding: number }[] {
  const all = [...contracts];
  const counts = new Map<string, number>();
  for (const a of artifacts) {
    const parts = a.box === 'outbox' ? parseAuthorizationRequestName(a.file) : null;
    if (parts === null || parts.expiresAt <= now) continue;
    if (all.some((c) => c.operation_id === parts.operationId && c.provenance.plan_digest.startsWith(parts.planPrefix))) continue;
    counts.set(parts.aliasKey, (counts.get(parts.aliasKey) ?? 0) + 1);
  }
  return [...counts]
    .map(([aliasKey, outstanding]) => ({ aliasKey, outstanding }))
    .sort((x, y) => y.outstanding - x.outstanding || x.aliasKey.localeCompare(y.aliasKey));
}

/** The exact command that clears the blocking inbox files of DIR. */
function clearCommand(dir: string): string {
  return `pfsense-mcp admin artifacts clean --blocking --dir ${dir}`;
}

/** The slot holders, by alias key (never the alias name), with the explicit command that frees a full alias. */
function requestSlotLines(slots: readonly { readonly aliasKey: string; readonly outstanding: number }[]): string[] {
  const total = slots.reduce((n, a) => n + a.outstanding, 0);
  return [
    `request slots: ${total} outstanding authorization requests on ${slots.length} aliases (limits: ${WRITE_REQUEST_LIMITS.perAlias} per alias, ${WRITE_REQUEST_LIMITS.outbox} in the outbox)`,
    ...slots.map(
      (a) =>
        `  alias key ${a.aliasKey}  ${a.outstanding}/${WRITE_REQUEST_LIMITS.perAlias}${a.outstanding >= WRITE_REQUEST_LIMITS.perAlias ? '  FULL: new requests for this alias are refused; `admin artifacts clean --requests --alias NAME` frees them' : ''}`,
    ),
  ];
}

/** `admin status [--all] [--show-targets]`: contracts (non-terminal unless --all), pending requests, inbox artifacts, the anchors. */
export async function statusCommand(args: AdminArgs, ctx: AdminContext): Promise<AdminResult> {
  const layout = openWriteDirectory(args, ctx);
  return withWriteDirectory(layout, ctx, (w) => {
    const facts = w.facts();
    const contracts = [...facts.contracts.values()]
      .filter((c) => args.flags.has('--all') || !isTerminal(c.state))
      .sort((a, b) => a.created_at - b.created_at);
    const names = args.flags.has('--show-targets') ? targetNames(w, contracts) : null;
    const artifacts = classifyArtifacts(w.inbox, w.outbox, facts);
    const outboxFiles = new Set(artifacts.filter((a) => a.box === 'outbox').map((a) => a.file));
    const inOutbox = (file: string) => outboxFiles.has(file);
    const rows = contracts.map((c) =>
      names === null ? row(c, facts.now, inOutbox) : { ...row(c, facts.now, inOutbox), target_name: names.get(c.contract_id) ?? null },
    );
    const pending = artifacts.filter((a) => a.box === 'outbox' && a.condition === 'still-useful');
    const slots = requestSlotsOf(artifacts, facts.contracts.values(), facts.now);
    const inbox = artifacts.filter((a) => a.box === 'inbox');
    const blocking = inbox.filter((a) => a.condition === 'blocking');
    const integrity = w.store.integrityReport();
    const windows = rateWindowsOf(w.store.rateWindows());
    const anchor =
      integrity.failure?.table === 'anchor'
        ? `NOT IN STEP (${integrity.failure.kind}): run \`admin audit verify\` — ${seeRunbook(RUNBOOK_ANCHORS.anchorAtStart)}`
        : `in step at audit sequence ${integrity.head.sequence}${layout.anchorDirIsExternal ? ' (on another medium)' : ' (same medium as the store)'}`;
    const retention = retentionStatus(facts.contracts.values(), ctx.env, facts.now);
    const exchange = exchangeStatus(args, ctx, layout, pinnedAuthoritySetOf(loadPinnedAuthorities(layout.authoritiesFile)));
    const text = [
      `write directory ${layout.dir}`,
      `contracts (${args.flags.has('--all') ? 'all' : 'not terminal'}): ${rows.length}`,
      ...rows.map(
        (r) =>
          `  ${r.contract_id}  ${r.state.padEnd(15)} ${r.mcp_status.padEnd(23)} age ${age(r.age_ms).padEnd(5)} ${r.expires_at === null ? '' : `expires ${new Date(r.expires_at).toISOString()} `}target ${r.target}…${'target_name' in r ? ` ${JSON.stringify(r.target_name)}` : ''}\n      operation ${r.operation_id}\n      next: ${r.next_step}`,
      ),
      `pending requests in the outbox: ${pending.length}`,
      ...pending.map((p) => `  ${p.file}  ${p.kind ?? '?'}${p.contractId === null ? '' : `  contract ${p.contractId}`}`),
      ...requestSlotLines(slots),
      `inbox artifacts: ${inbox.length} (${blocking.length} blocking${blocking.length > 0 ? `: \`admin artifacts list\` says why — ${seeRunbook(RUNBOOK_ANCHORS.refusedKeepsComingBack)}` : ''})`,
      ...blocking.map(
        (b) => `  inbox/${b.file}  ${b.blocking ?? 'blocking'}: refuses ${b.refuses ?? 'no call'}; clear it: ${clearCommand(layout.dir)}`,
      ),
      ...exchange.lines,
      `anchors: ${anchor}`,
      `master key epoch: ${w.store.keyEpoch} (\`admin rotate master-key\` moves it on)`,
      retentionLine(retention),
      `runbook for each situation: ${RUNBOOK}`,
      `rate limits in force: ${Object.entries(DEFAULT_RATE_LIMITS)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
      ...rateWindowLines(windows, facts.now),
    ];
    return adminResult(text, {
      contracts: rows,
      pending_requests: pending.map((p) => ({
        file: p.file,
        kind: p.kind,
        contract_id: p.contractId,
        operation_id: p.operationId,
        expires_at: p.expiresAt,
      })),
      request_slots: {
        per_alias_limit: WRITE_REQUEST_LIMITS.perAlias,
        outbox_limit: WRITE_REQUEST_LIMITS.outbox,
        outstanding: slots.reduce((n, a) => n + a.outstanding, 0),
        aliases: slots.map((a) => ({
          alias_key: a.aliasKey,
          outstanding: a.outstanding,
          full: a.outstanding >= WRITE_REQUEST_LIMITS.perAlias,
        })),
      },
      inbox: {
        files: inbox.length,
        blocking: blocking.length,
        blocking_files: blocking.map((b) => ({
          file: b.file,
          reason: b.blocking,
          refuses: b.refuses,
          clear_with: clearCommand(layout.dir),
        })),
      },
      rate_limits: DEFAULT_RATE_LIMITS,
      rate_windows: windows,
      retention: { days: retention.days, source: retention.source, purgeable_contracts: retention.purgeable },
      anchor: {
        in_step: integrity.failure?.table !== 'anchor',
        head_sequence: integrity.head.sequence,
        external_medium: layout.anchorDirIsExternal,
      },
      key_epoch: w.store.keyEpoch,
      exchange: exchange.json,
    });
  });
}
