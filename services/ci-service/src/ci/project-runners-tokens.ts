// Project runner registration tokens (GitLab's projects.runners_token): the legacy
// `POST /runners` with one registers a project runner of that project. Created on first request,
// kept sealed (Maintainers see it again in project responses) and digested for the lookup.
import type { GetProjectRunnersTokensRequest__Output } from "@quarry/proto/types/ci/v1/GetProjectRunnersTokensRequest";
import type { GetProjectRunnersTokensResponse } from "@quarry/proto/types/ci/v1/GetProjectRunnersTokensResponse";
import type { ProjectRequest__Output } from "@quarry/proto/types/ci/v1/ProjectRequest";
import type { ProjectRunnersToken } from "@quarry/proto/types/ci/v1/ProjectRunnersToken";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";
import { MAX_TOKEN_OWNERS, runnersTokenDigest, runnersTokensOf, sealedRunnersToken } from "./runners-tokens.ts";

/** Most projects one GetProjectRunnersTokens call answers (a page of a project list at most). */
const MAX_PROJECTS = MAX_TOKEN_OWNERS;

function sealedRow(deps: Pick<CiDeps, "secrets">, projectId: number) {
  return { projectId, ...sealedRunnersToken(deps) };
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
    const rows = await runnersTokensOf(
      ids,
      (ids) => deps.prisma.projectRunnersToken.findMany({ where: { projectId: { in: ids } } }),
      (r) => r.projectId,
      (missing) => deps.prisma.projectRunnersToken.createMany({ data: missing.map((id) => sealedRow(deps, id)), skipDuplicates: true }),
    );
    return { tokens: rows.map((r) => toMessage(deps, r)) };
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
  const digest = runnersTokenDigest(token);
  if (!digest) return null;
  const row = await deps.prisma.projectRunnersToken.findUnique({ where: { tokenDigest: digest } });
  return row?.projectId ?? null;
}
