import { loadPinnedAuthorities, pinnedAuthoritySetOf } from '../runtime/write-directory/pinned-authorities-file.js';
import { installOperatorArtifact } from '../runtime/write-directory/install-operator-artifact.js';
import { InstallRefusal } from '../runtime/write-directory/install-refusal.js';
import { serverRequestKeyIdsOf } from '../runtime/write-directory/server-request-key-ids.js';
import type { AdminContext } from './admin-context.js';
import { AdminError } from './admin-error.js';
import { adminResult } from './admin-result.js';
import type { AdminResult } from './admin-result.js';
import { openWriteDirectory } from './open-write-directory.js';
import type { AdminArgs } from './parse-admin-args.js';
import { readArtifactArgument } from './read-artifact-argument.js';

/**
 * `admin inbox add --dir DIR FILE` (or `--appliance NAME`): verifies an operator-signed artifact (kind, signature
 * against the pinned keys, currentness, and that an authorization or confirmation answers this write directory's
 * server-request key — one signed for another appliance is refused here, nothing copied) and installs a canonical
 * copy in the inbox by exclusive creation (0600, owned by the server user) — installOperatorArtifact, the same
 * code the exchange folder's pickup runs. It grants nothing: the coordinator verifies everything again at use.
 */
export function inboxAddCommand(args: AdminArgs, ctx: AdminContext, file: string): AdminResult {
  const layout = openWriteDirectory(args, ctx);
  const artifact = readArtifactArgument(file, 'FILE');
  let installed;
  try {
    const authorities = pinnedAuthoritySetOf(loadPinnedAuthorities(layout.authoritiesFile));
    installed = installOperatorArtifact(layout.inboxDir, artifact, authorities, ctx.now(), 'FILE', serverRequestKeyIdsOf(layout));
  } catch (error) {
    if (error instanceof InstallRefusal) throw new AdminError(error.code, error.message);
    throw error;
  }
  const { signed, path, digest } = installed;
  const payload = signed.payload as unknown as Readonly<Record<string, unknown>>;
  const contractId = typeof payload.contract_id === 'string' ? payload.contract_id : null;
  const operationId = typeof payload.operation_id === 'string' ? payload.operation_id : null;
  return adminResult(
    [
      `installed ${signed.kind} → ${path} (0600)`,
      `  signed by key ${signed.payload.key_id}`,
      `  valid until   ${new Date(signed.payload.expires_at).toISOString()}`,
      ...(contractId === null ? [] : [`  contract      ${contractId}`]),
      'next: call the MCP tool again with the same arguments (the server verifies the file again when it uses it)',
    ],
    {
      file: path,
      kind: signed.kind,
      artifact_digest: digest,
      key_id: signed.payload.key_id,
      expires_at: signed.payload.expires_at,
      contract_id: contractId,
      operation_id: operationId,
    },
  );
}
