// The setup the admin suites share: a write directory made by the BUILT `admin init`, plan-authorization and
// confirmation keys (made with the library) pinned by `admin trust`, and the test's own write-path composition over
// it (admin-driver.ts); plus the signed steps, each file installed by `admin inbox add`.
import { mkdirSync } from 'node:fs';
import { expect } from 'vitest';
import { openDriver, operatorKey, signedFile, type Driver, type OperatorKey } from './admin-driver.js';
import type { ProgramRun } from './run-program.js';

/** How a suite runs `admin ARGS` (synchronously or not; it may record the output). */
export type AdminRunner = (args: readonly string[]) => ProgramRun | Promise<ProgramRun>;

export interface DriverHost {
  /** The write directory. */
  readonly dir: string;
  /** The operator's 0700 key folder (the public key files `admin trust` read). */
  readonly keys: string;
  readonly plan: OperatorKey;
  readonly confirm: OperatorKey;
  readonly driver: Driver;
}

async function ok(admin: AdminRunner, args: readonly string[]): Promise<ProgramRun> {
  const r = await admin(args);
  expect(r.status, `admin ${args.join(' ')}: ${r.stderr} ${r.stdout}`).toBe(0);
  return r;
}

/**
 * `admin init` on `dir`; two operator keys made in `keys` (created 0700) and trusted; then `beforeOpen` (more keys
 * to trust: the driver reads the pinned authorities once, when it opens); the driver opened on `sim`.
 */
export async function setUpDriverHost(
  admin: AdminRunner,
  sim: { url: string; apiKey: string },
  dir: string,
  keys: string,
  beforeOpen: () => Promise<void> | void = () => undefined,
): Promise<DriverHost> {
  if (typeof admin !== 'function') throw new TypeError('admin must be a function');
  if (typeof beforeOpen !== 'function') throw new TypeError('beforeOpen must be a function');
  mkdirSync(keys, { mode: 0o700 });
  await ok(admin, ['init', '--dir', dir]);
  const plan = operatorKey(keys, 'plan-authorization');
  const confirm = operatorKey(keys, 'confirmation');
  await ok(admin, ['trust', '--dir', dir, '--role', 'plan-authorization', '--public-key', plan.pubFile]);
  await ok(admin, ['trust', '--dir', dir, '--role', 'confirmation', '--public-key', confirm.pubFile]);
  await beforeOpen();
  return { dir, keys, plan, confirm, driver: await openDriver(dir, sim) };
}

/** The operator signs the pending request `pendingFile` with `key`; `admin inbox add` installs it. */
export async function installSigned(
  admin: AdminRunner,
  host: Pick<DriverHost, 'dir' | 'driver'>,
  pendingFile: string | null,
  key: OperatorKey,
): Promise<void> {
  await ok(admin, ['inbox', 'add', '--dir', host.dir, signedFile(host.driver, pendingFile ?? '', key)]);
}

/** requested → signed authorization → PREPARED → signed confirmation → the executor's answer (the third request). */
export async function confirmAndRun(
  admin: AdminRunner,
  host: Pick<DriverHost, 'dir' | 'driver' | 'plan' | 'confirm'>,
  alias: string,
  description: string,
): ReturnType<Driver['request']> {
  const r1 = await host.driver.request(alias, description);
  await installSigned(admin, host, r1.pendingRequest?.file ?? null, host.plan);
  const r2 = await host.driver.request(alias, description);
  await installSigned(admin, host, r2.pendingRequest?.file ?? null, host.confirm);
  return host.driver.request(alias, description);
}
