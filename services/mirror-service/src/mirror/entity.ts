import { isPositiveInt32, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { ServiceError, status } from "@quarry/grpc";
import type { RemoteMirror as RemoteMirrorMessage } from "@quarry/proto/types/mirror/v1/RemoteMirror";
import { compileUserRegex, UntrustedRegexpError } from "@quarry/safe-regex";
import type { MirrorDeps } from "../deps.ts";
import type { RemoteMirror } from "../generated/prisma/client.ts";
import { openCredentials } from "./credentials.ts";
import { safeUrl } from "./urls.ts";

/** GitLab's answer for a missing record: `404 Not found`. */
export const mirrorNotFound = () => new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });

/** The wire form of a mirror row: the URL masked, no credentials. */
export function toMirrorMessage(deps: MirrorDeps, row: RemoteMirror): RemoteMirrorMessage {
  const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
  return {
    id: row.id,
    projectId: row.projectId,
    url: safeUrl(row.url, openCredentials(deps.box, row.encryptedCredentials)),
    enabled: row.enabled,
    authMethod: row.authMethod,
    onlyProtectedBranches: row.onlyProtectedBranches,
    keepDivergentRefs: row.keepDivergentRefs,
    mirrorBranchRegex: row.mirrorBranchRegex ?? undefined,
    updateStatus: row.updateStatus,
    lastError: row.lastError ?? undefined,
    lastUpdateAt: iso(row.lastUpdateAt),
    lastUpdateStartedAt: iso(row.lastUpdateStartedAt),
    lastSuccessfulUpdateAt: iso(row.lastSuccessfulUpdateAt),
    hostKeyFingerprints: row.hostKeyFingerprints ?? [],
  };
}

/** A positive 32-bit id, or NOT_FOUND / INVALID_ARGUMENT. */
export function projectIdOf(raw: unknown): number {
  const id = Number(raw);
  if (!isPositiveInt32(id)) throw new ServiceError(status.INVALID_ARGUMENT, { message: "project_id is invalid" });
  return id;
}

/** The mirror `mirror_id` of project `project_id`; another project's mirror is not found. */
export async function findMirror(deps: MirrorDeps, req: { projectId: number | string; mirrorId: number | string }): Promise<RemoteMirror> {
  const projectId = projectIdOf(req.projectId);
  const id = Number(req.mirrorId);
  if (!isPositiveInt32(id)) throw mirrorNotFound();
  const row = await deps.prisma.remoteMirror.findFirst({ where: { id, projectId } });
  if (!row) throw mirrorNotFound();
  return row;
}

export const AUTH_METHODS = ["password", "ssh_public_key"];

/** GitLab's UntrustedRegexpValidator: the mirror matches branches with RE2, so RE2 must accept it. */
export function validateRegex(regex: string): void {
  if (regex.length > 255) throw new ServiceError(status.INVALID_ARGUMENT, { message: { mirror_branch_regex: ["is too long (maximum is 255 characters)"] } });
  try {
    compileUserRegex(regex);
  } catch (err) {
    if (!(err instanceof UntrustedRegexpError)) throw err;
    throw new ServiceError(status.INVALID_ARGUMENT, { message: { mirror_branch_regex: [`not valid RE2 syntax: ${err.reason}`] } });
  }
}
