// The demo's block step (`npm run demo`, tools/scripts/demo.mjs): the assistant asks to block an address in an alias
// that a block rule uses; the operator reviews the `+` line and the rule and approves twice; the change is applied
// and verified in pf; the address is shown in pf's table through pfsense_get_diagnostics_tables; undoing it is a
// signed rollback (admin rollback exits 4, the operator approves, admin rollback again); the table is as before.
// With --faults the block's response is lost: reconciliation_required, then a signed, observed APPLIED.
// The helpers come from demo.mjs (its transcript, programs and simulator); this file only adds the step.

export const ENTRIES_TOOL = 'pfsense_change_firewall_alias_entries';
/** Both capabilities: the description (the earlier steps) and the entries, opt-in by name (docs/DESIGN.md §5). */
export const BOTH_CAPABILITIES = 'alias_description,alias_entries';
const ALIAS = 'BLOCKLIST';
const ADDRESS = '203.0.113.7';

/**
 * Runs the block step. `d` carries demo.mjs's helpers: step, done, say, bold, dim, connect, call, admin, adminRaw,
 * approveInExchange, review, simControl, patchCount, h (the host: dir, exchange, keys…), env (the server's
 * environment with the write directory), faults (--faults).
 */
export async function blockStep(d) {
  d.step(
    'Block an address: an entry added to an alias a block rule uses, applied and verified in pf',
    `PFSENSE_WRITE_CAPABILITIES=${BOTH_CAPABILITIES} adds ${ENTRIES_TOOL}; the operator sees the change and where the alias is used before approving`,
  );
  const env = { ...d.env, PFSENSE_WRITE_CAPABILITIES: BOTH_CAPABILITIES };
  const client = await d.connect(env);
  const table = async () =>
    (((await d.call(client, 'pfsense_get_diagnostics_tables', { limit: 100 })).data ?? []).find((t) => t.name === ALIAS)?.entries ?? [])
      .map(String)
      .slice();
  // The description change (step 3) and its rollback are staged on pfSense, not applied (pfrest's apply: false). A
  // block applies the filter, which would activate everything pending too, so the server sends nothing while
  // anything is pending (docs/DESIGN.md §5): the operator applies the staged change first, as pfSense's Apply does.
  const pending = (await d.call(client, 'pfsense_get_firewall_apply_status')).data?.pending_subsystems ?? [];
  d.say(`   pfsense_get_firewall_apply_status → pending: ${JSON.stringify(pending)} (the description change is staged, not applied)`);
  if (pending.length > 0) {
    d.showCommand('POST /api/v2/firewall/apply   (pfSense: Firewall › Aliases › Apply Changes)');
    await d.simControl('POST', '/api/v2/firewall/apply', {});
    d.say('   applied by the operator: a block is sent only while nothing else is pending, so it never activates anyone else’s change');
  }
  const tableBefore = await table();
  d.say(`   pfsense_get_diagnostics_tables → pf table ${ALIAS}: ${JSON.stringify(tableBefore)}`);
  const args = { alias_name: ALIAS, add: [{ address: ADDRESS, detail: 'ssh brute force' }] };
  const entries = async (a, status) => {
    const r = await d.call(client, ENTRIES_TOOL, a);
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.next_step ?? ''}`);
    return r;
  };
  const patchesBefore = await d.patchCount();
  const requested = await entries(args, 'requested');
  d.say(`   AI → ${ENTRIES_TOOL} ${JSON.stringify(args)} → ${d.bold(requested.status)}`);
  const first = await d.approveInExchange(d.h);
  d.say('   AI asks again with wait_seconds: 50 — the call waits for the operator');
  if (d.faults)
    await d.simControl('POST', '/__sim/faults', {
      route: '/api/v2/firewall/alias',
      method: 'PATCH',
      kind: 'drop-response-after-apply',
      times: 1,
    });
  // The description step left its own confirmation request in the folder: wait for the one this call writes.
  const confirmationsBefore = new Set(d.exchangeRequests().filter((n) => n.startsWith('conf-')));
  const waiting = entries({ ...args, wait_seconds: 50 }, d.faults ? 'reconciliation_required' : 'verified');
  await d.until(() => d.exchangeRequests().some((n) => n.startsWith('conf-') && !confirmationsBefore.has(n)));
  const second = await d.approveInExchange(d.h);
  const answered = await waiting;
  const shown = [...first.shown, ...second.shown];
  const states = [requested.status, answered.status];
  let contractId = answered.contract_id;
  if (d.faults) {
    d.say(`   the simulator applies the PATCH (with apply) and closes without answering → ${d.bold(answered.status)}`);
    const emitted = d.admin(['reconcile', 'emit', contractId, '--dir', d.h.dir], 'admin reconcile emit', env).json;
    d.review(d.h, emitted.pending_request, 'reconciliation', 'APPLIED');
    const resumed = d.admin(['reconcile', 'resume', contractId, '--dir', d.h.dir], 'admin reconcile resume', env).json;
    d.say(`   admin reconcile resume → ${d.bold(resumed.state)}: the operator saw the entry in the alias and in pf; nothing was resent`);
    states.push(resumed.state);
    contractId = resumed.contract_id ?? contractId;
  } else {
    d.say(
      `   the waiting call returns → ${d.bold(answered.status)}: one PATCH with apply, the alias re-read, nothing pending, the pf table checked`,
    );
  }
  const tableBlocked = await table();
  d.say(`   pfsense_get_diagnostics_tables → pf table ${ALIAS}: ${JSON.stringify(tableBlocked)}`);
  const forwardPatches = (await d.patchCount()) - patchesBefore;

  // Undoing a block unblocks: a firewall change of its own, so it needs the operator's signature too.
  const asked = d.adminRaw(['rollback', contractId, '--dir', d.h.dir], 'admin rollback', env, [4]);
  d.say(`   admin rollback → exit ${asked.status} (${asked.json.error?.code ?? ''}): the rollback request is in the exchange folder`);
  await d.approveInExchange(d.h);
  const rolled = d.adminRaw(['rollback', contractId, '--dir', d.h.dir], 'admin rollback', env, [0]);
  d.say(`   admin rollback → exit ${rolled.status}, ${d.bold(rolled.json.state)}: the old entries written back and applied`);
  const tableAfter = await table();
  d.say(`   pfsense_get_diagnostics_tables → pf table ${ALIAS}: ${JSON.stringify(tableAfter)}`);
  await client.close();
  d.done('block', {
    states,
    review_shows_add: shown.some((l) => l.includes(`+ ${ADDRESS}`)),
    review_shows_rule: shown.some((l) => /\bblock\s+WAN\b/u.test(l)),
    pending_before: pending,
    table_before: tableBefore,
    table_blocked: tableBlocked,
    rollback_exits: [asked.status, rolled.status],
    rollback: rolled.json.state,
    table_after: tableAfter,
    patches: (await d.patchCount()) - patchesBefore,
    forward_patches: forwardPatches,
  });
}
