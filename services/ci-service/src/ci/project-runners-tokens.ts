// Project runner registration tokens (GitLab's projects.runners_token): the legacy
// `POST /runners` with one registers a project runner of that project. Created on first request,
// kept sealed (Maintainers see it again in project responses) and digested for the lookup.
import { randomBytes } from "node:crypto";
import type { GetProjectRunnersTokensRequest__Output } from "@quarry/proto/types/ci/v1/GetProjectRunnersTokensRequest";
import type { GetProjectRunnersTokensResponse } from "@quarry/proto/types/ci/v1/GetProjectRunnersTokensResponse";
import type { ProjectRequest__Output } from "@quarry/proto/types/ci/v1/ProjectRequest";
import type { ProjectRunnersToken } from "@quarry/proto/types/ci/v1/ProjectRunnersToken";
import type { CiDeps } from "../deps.ts";
import { tokenDigest } from "../token-digest.ts";
import { validId } from "./job-token-scope.ts";

/** GitLab's RunnersTokenPrefixable::RUNNERS_TOKEN_PREFIX. */
export const RUNNERS_TOKEN_PREFIX = "GR1348941";

/** Most projects one GetProjectRunnersTokens call answers (a page of a project list at most). */
const MAX_PROJECTS = 100;

/** A new token: the prefix and 20 URL-safe random characters (Devise.friendly_token, as GitLab). */
export const newRunnersToken = (): string => RUNNERS_TOKEN_PREFIX + randomBytes(15).toString("base64url");

function sealedRow(deps: Pick<CiDeps, "secrets">, projectId: number) {
  const token = newRunnersToken();
  return { projectId, tokenSealed: new Uint8Array(deps.secrets.seal(token)), tokenDigest: tokenDigest(token) };
}

const toMessage = (deps: Pick<CiDeps, "secrets">, row: { projectId: number; tokenSealed: Uint8Array }): ProjectRunnersToken => ({
  projectId: row.projectId,
  token: deps.secrets.open(row.tokenSealed),
  tokenExpiresAt: "",
});

/** The projects' tokens, creating those missing (concurrent first requests agree on one). */
export const getProjectRunnersTokens =
  (deps: CiDeps) =>
  async (req: GetProjectRunnersTokensRequest__Output): Promise<GetProjectRunnersTokensResponse> => {
    const ids = [...new Set(req.projectIds.map((id) => validId(id, "project_id")))].slice(0, MAX_PROJECTS);
    if (!ids.length) return { tokens: [] };
    const find = () => deps.prisma.projectRunnersToken.findMany({ where: { projectId: { in: ids } } });
    let rows = await find();
    const missing = ids.filter((id) => !rows.some((r) => r.projectId === id));
    if (missing.length) {
      await deps.prisma.projectRunnersToken.createMany({ data: missing.map((id) => sealedRow(deps, id)), skipDuplicates: true });
      rows = await find();
    }
    const byId = new Map(rows.map((r) => [r.projectId, r]));
    return { tokens: ids.flatMap((id) => (byId.has(id) ? [toMessage(deps, byId.get(id)!)] : [])) };
  };

/** Replaces a project's token (GitLab's reset_registration_token); the old one stops working at once. */
export const resetProjectRunnersToken =
  (deps: CiDeps) =>
  async (req: ProjectRequest__Output): Promise<ProjectRunnersToken> => {
    const projectId = validId(req.projectId, "project_id");
    const row = sealedRow(deps, projectId);
    const saved = await deps.prisma.projectRunnersToken.upsert({
      where: { projectId },
      create: row,
      update: { tokenSealed: row.tokenSealed, tokenDigest: row.tokenDigest },
    });
    return toMessage(deps, saved);
  };

/** The project a registration token belongs to, or null. */
export async function projectOfRunnersToken(deps: Pick<CiDeps, "prisma">, token: string): Promise<number | null> {
  if (!token.startsWith(RUNNERS_TOKEN_PREFIX)) return null;
  const row = await deps.prisma.projectRunnersToken.findUnique({ where: { tokenDigest: tokenDigest(token) } });
  return row?.projectId ?? null;
}
