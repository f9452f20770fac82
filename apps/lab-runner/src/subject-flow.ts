// The subject contract's lifecycle, driven only through the operation driver's public API, as the app's (the sealed
// path): the runner asks, the owner signs what the server's outbox asks for, the executor sends.
import { OperationStatus } from '@pfsense-mcp/coordinator';
import type { ChangeResult } from '@pfsense-mcp/coordinator';
import { RecoveryState } from '@pfsense-mcp/state-machine';
import { LabError } from './lab-error.js';
import type { SignedRecord } from './lab-owner.js';
import { OwnerPause } from './owner-pause.js';
import { entriesDecision, observePf } from './pf-observation.js';
import type { ScenarioContext } from './scenario-context.js';
import type { LabSide } from './runtime-factory.js';

function expectStatus(r: ChangeResult, status: string, step: string): void {
  if (r.status !== status) throw new LabError('UNEXPECTED_STATUS', `${step}: the driver answered ${r.status}, expected ${status}`);
}

function pendingOf(r: ChangeResult, step: string): string {
  if (r.pendingRequest === null) throw new LabError('NO_PENDING_REQUEST', `${step}: no pending request in the outbox`);
  return r.pendingRequest.file;
}

/**
 * Signs the server's pending request and records both digests. Against an appliance a request of role
 * reconciliation (`ownerOnly`) is never signed here: the scenario stops for the owner (OwnerPause).
 */
export function ownerSigns(
  ctx: ScenarioContext,
  side: LabSide,
  pending: string,
  action: string,
  outcome: 'APPLIED' | 'NOT_APPLIED' | null = null,
  ownerOnly: 'reconciliation' | 'release' | null = null,
): SignedRecord {
  ctx.beforeAction(`${action}: evidence write`);
  if (ownerOnly !== null && ctx.ownerDecides) {
    ctx.record('runner', `${action}: pending for the owner's signature`);
    throw new OwnerPause({ pendingFile: pending, request: ownerOnly, observed: outcome });
  }
  const rec = ctx.owner.sign(side, pending, outcome);
  ctx.signed.push(rec);
  ctx.record('owner', `${action}: server request verified`, {}, { kind: rec.requestKind, digest: rec.requestDigest });
  ctx.record('owner', `${action}: signed`, {}, { kind: rec.signedKind, digest: rec.signedDigest });
  return rec;
}

/**
 * request → the owner signs the authorization → PREPARED (the gatekeeper's gates) → the owner signs the
 * confirmation. Returns the contract id; the next request of the same change hands it to the executor.
 */
export async function prepareConfirmed(
  ctx: ScenarioContext,
  side: LabSide,
  capability: string,
  input: object,
  actor: 'subject' | 'orchestration',
): Promise<string> {
  ctx.beforeAction(`${actor} gate`);
  const r1 = await side.driver.requestChange(capability, input);
  expectStatus(r1, OperationStatus.REQUESTED, `${actor} request`);
  ctx.record(actor, 'authorization requested');
  ownerSigns(ctx, side, pendingOf(r1, `${actor} request`), `${actor} authorization`);
  ctx.beforeAction(`${actor} gate`);
  const r2 = await side.driver.requestChange(capability, input);
  expectStatus(r2, OperationStatus.AWAITING_CONFIRMATION, `${actor} prepare`);
  if (r2.contractId === null) throw new LabError('NO_CONTRACT', `${actor} prepare: no contract`);
  if (actor === 'subject') ctx.subjectContractId = r2.contractId;
  else ctx.orchestrationContractIds.push(r2.contractId);
  ctx.record(actor, 'contract PREPARED');
  ownerSigns(ctx, side, pendingOf(r2, `${actor} prepare`), `${actor} confirmation`);
  return r2.contractId;
}

/**
 * The prepared subject's forward: one driver request hands the confirmed contract to the subject executor.
 * Returns the driver's answer (entries-foreign-pending expects `refused` while something else is pending).
 */
export async function executeSubject(ctx: ScenarioContext): Promise<ChangeResult> {
  const rt = ctx.runtime;
  ctx.beforeAction('subject forward (executor call)');
  const revisions = await ctx.revisionsNow();
  rt.armSubjectFault('forward');
  const before = rt.subjectSends();
  const started = Date.now();
  const r = await rt.subject.driver.requestChange(ctx.subjectCapability, ctx.subjectInput);
  const pf = await observePf(ctx, Date.now() - started);
  ctx.record(
    'subject',
    'forward executed',
    { forward: rt.subjectSends() - before },
    null,
    { before: revisions, after: await ctx.revisionsNow() },
    pf,
  );
  return r;
}

/**
 * The subject's rollback through the executor (its own checks; one send at most). An entries contract's rollback
 * is a firewall change too: the server's rollback request is signed first (confirmation role).
 */
export async function rollbackSubject(ctx: ScenarioContext): Promise<void> {
  const id = requireSubject(ctx);
  const rt = ctx.runtime;
  await signRollbackIfAsked(ctx, id);
  ctx.beforeAction('subject rollback (executor call)');
  const revisions = await ctx.revisionsNow();
  rt.armSubjectFault('rollback');
  const before = rt.subjectSends();
  const started = Date.now();
  await rt.subject.driver.rollback(id);
  const pf = await observePf(ctx, Date.now() - started);
  ctx.record(
    'subject',
    'rollback executed',
    { rollback: rt.subjectSends() - before },
    null,
    { before: revisions, after: await ctx.revisionsNow() },
    pf,
  );
}

function requireSubject(ctx: ScenarioContext): string {
  if (ctx.subjectContractId === null) throw new LabError('NO_CONTRACT', 'no subject contract');
  return ctx.subjectContractId;
}

/**
 * RECONCILIATION → the executor's read-only observation → the owner's decision, taken from that observation
 * and required to equal the scenario's declared outcome → the server-signed reconciliation request → signed
 * evidence (against an appliance: the scenario stops for the owner here). Zero sends (counted).
 */
export async function requestReconciliation(ctx: ScenarioContext): Promise<void> {
  const id = requireSubject(ctx);
  const rt = ctx.runtime;
  const before = rt.subjectSends() + rt.orchestrationSends();
  ctx.beforeAction('observation');
  const observation = await rt.subject.driver.observeReconciliationTarget(id);
  ctx.record('subject', `observation (origin ${observation.origin})`);
  if (!observation.locatorMatches) throw new LabError('OBSERVATION_LOCATOR', 'the observed locator is not the contract’s');
  let decision: 'APPLIED' | 'NOT_APPLIED' | null = null;
  if (ctx.scenario.capability === 'entries') {
    decision = await entriesDecision(ctx, observation);
  } else if (observation.origin === 'EXECUTING') {
    if (observation.matchesPreForwardFingerprint) decision = 'NOT_APPLIED';
    else if (observation.observedFingerprint === ctx.fingerprintWithB()) decision = 'APPLIED';
  } else {
    if (observation.matchesPreForwardFingerprint) decision = 'APPLIED';
    else if (observation.matchesVerifiedFingerprint === true) decision = 'NOT_APPLIED';
  }
  if (decision === null) throw new LabError('OWNER_CANNOT_DECIDE', 'the observation is neither the pre-state nor the change');
  if (decision !== ctx.scenario.ownerOutcome)
    throw new LabError('OWNER_DECISION_DISAGREES', `the observation says ${decision}, the scenario declares ${ctx.scenario.ownerOutcome}`);
  ctx.beforeAction('reconciliation gate');
  let pending: string;
  if (ctx.scenario.capability === 'entries') {
    // By contract id, as `admin reconcile emit` asks: the same arguments name the operation its entries before the
    // change named, and after an applied block the alias no longer holds that state.
    pending = (await rt.subject.driver.emitRecoveryRequest(id, 'reconciliation')).pendingRequest.file;
  } else {
    const r1 = await rt.subject.driver.requestChange(ctx.subjectCapability, ctx.subjectInput);
    expectStatus(r1, OperationStatus.RECONCILIATION_REQUIRED, 'reconciliation request');
    pending = pendingOf(r1, 'reconciliation request');
  }
  if (rt.subjectSends() + rt.orchestrationSends() !== before)
    throw new LabError('SENT_WHILE_RECONCILING', 'a send happened while reconciling');
  ownerSigns(ctx, rt.subject, pending, `reconciliation ${decision}`, decision, 'reconciliation');
}

/** The signed evidence is in the subject inbox: resumeReconciliation through the driver, zero sends (counted). */
export async function resolveReconciliation(ctx: ScenarioContext): Promise<void> {
  requireSubject(ctx);
  const rt = ctx.runtime;
  const before = rt.subjectSends() + rt.orchestrationSends();
  ctx.beforeAction('reconciliation resolution');
  if (ctx.scenario.capability === 'entries') rt.subject.driver.resumeRecovery(requireSubject(ctx), 'reconciliation');
  else await rt.subject.driver.requestChange(ctx.subjectCapability, ctx.subjectInput);
  const after = rt.subjectSends() + rt.orchestrationSends();
  if (after !== before) throw new LabError('SENT_WHILE_RECONCILING', 'a send happened while reconciling');
  if (ctx.subjectState() === RecoveryState.RECONCILIATION)
    throw new LabError('NOT_RESOLVED', 'the signed evidence did not resolve the reconciliation');
  ctx.record('subject', 'reconciliation resolved');
}

/** ROLLBACK_FAILED holds the target: the server's release request, signed (against an appliance: by the owner). */
export async function requestRelease(ctx: ScenarioContext): Promise<void> {
  const id = requireSubject(ctx);
  const rt = ctx.runtime;
  const c = rt.store.load(id);
  if (c.state !== RecoveryState.ROLLBACK_FAILED) throw new LabError('UNEXPECTED_STATE', `release: the subject is ${c.state}`);
  ctx.beforeAction('release gate');
  const r1 = await rt.subject.driver.requestChange(ctx.subjectCapability, ctx.subjectInput);
  expectStatus(r1, OperationStatus.RECONCILIATION_REQUIRED, 'release request');
  ownerSigns(ctx, rt.subject, pendingOf(r1, 'release request'), 'reservation release', null, 'release');
}

/** The signed release is in the subject inbox: the driver releases the target; zero sends. */
export async function resolveRelease(ctx: ScenarioContext): Promise<void> {
  const id = requireSubject(ctx);
  const rt = ctx.runtime;
  const before = rt.subjectSends() + rt.orchestrationSends();
  ctx.beforeAction('release resolution');
  await rt.subject.driver.requestChange(ctx.subjectCapability, ctx.subjectInput);
  if (rt.subjectSends() + rt.orchestrationSends() !== before) throw new LabError('SENT_WHILE_RELEASING', 'a send happened while releasing');
  if (rt.store.holdsReservation(id)) throw new LabError('RESERVATION_HELD', 'the signed release did not release the target');
  ctx.record('subject', 'reservation released');
}

/**
 * An entries contract's rollback needs the operator's signature (docs/DESIGN.md §5): the server's rollback request,
 * asked by contract id as `admin rollback` does, verified and signed with the confirmation key into the inbox.
 * Zero sends (counted). Nothing to do when the rollback needs no signature or the inbox holds it already.
 */
export async function signRollbackIfAsked(ctx: ScenarioContext, contractId: string): Promise<void> {
  const rt = ctx.runtime;
  if (!rt.subject.driver.rollbackAwaitsAuthorization(contractId)) return;
  const before = rt.subjectSends() + rt.orchestrationSends();
  ctx.beforeAction('rollback request');
  const emitted = await rt.subject.driver.emitRecoveryRequest(contractId, 'rollback');
  if (rt.subjectSends() + rt.orchestrationSends() !== before) throw new LabError('SENT_WHILE_ASKING', 'a send happened while asking');
  ctx.record('subject', 'rollback request written (admin rollback: exit 4)');
  ownerSigns(ctx, rt.subject, emitted.pendingRequest.file, 'rollback authorization');
}
