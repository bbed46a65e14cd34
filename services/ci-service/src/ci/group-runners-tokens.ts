// Group runner registration tokens (GitLab's namespaces.runners_token): the legacy
// `POST /runners` with one registers a group runner of that group. Created on first request,
// kept sealed (Owners see it again in GET /groups/:id) and digested for the lookup.
import type { GetGroupRunnersTokensRequest__Output } from "@quarry/proto/types/ci/v1/GetGroupRunnersTokensRequest";
import type { GetGroupRunnersTokensResponse } from "@quarry/proto/types/ci/v1/GetGroupRunnersTokensResponse";
import type { GroupRunnersToken } from "@quarry/proto/types/ci/v1/GroupRunnersToken";
import type { ResetGroupRunnersTokenRequest__Output } from "@quarry/proto/types/ci/v1/ResetGroupRunnersTokenRequest";
import type { CiDeps } from "../deps.ts";
import { validId } from "./job-token-scope.ts";
import { MAX_TOKEN_OWNERS, runnersTokenDigest, runnersTokensOf, sealedRunnersToken } from "./runners-tokens.ts";

/** Most groups one GetGroupRunnersTokens call answers. */
const MAX_GROUPS = MAX_TOKEN_OWNERS;

function sealedRow(deps: Pick<CiDeps, "secrets">, groupId: number) {
  return { groupId, ...sealedRunnersToken(deps) };
}

const toMessage = (deps: Pick<CiDeps, "secrets">, row: { groupId: number; tokenSealed: Uint8Array }): GroupRunnersToken => ({
  groupId: row.groupId,
  token: deps.secrets.open(row.tokenSealed),
  tokenExpiresAt: "",
});

/** The groups' tokens, creating those missing (concurrent first requests agree on one). */
export const getGroupRunnersTokens =
  (deps: CiDeps) =>
  async (req: GetGroupRunnersTokensRequest__Output): Promise<GetGroupRunnersTokensResponse> => {
    const ids = [...new Set(req.groupIds.map((id) => validId(id, "group_id")))].slice(0, MAX_GROUPS);
    const rows = await runnersTokensOf(
      ids,
      (ids) => deps.prisma.groupRunnersToken.findMany({ where: { groupId: { in: ids } } }),
      (r) => r.groupId,
      (missing) => deps.prisma.groupRunnersToken.createMany({ data: missing.map((id) => sealedRow(deps, id)), skipDuplicates: true }),
    );
    return { tokens: rows.map((r) => toMessage(deps, r)) };
  };

/** Replaces a group's token (GitLab's reset_runners_token!); the old one stops working at once. */
export const resetGroupRunnersToken =
  (deps: CiDeps) =>
  async (req: ResetGroupRunnersTokenRequest__Output): Promise<GroupRunnersToken> => {
    const groupId = validId(req.groupId, "group_id");
    const row = sealedRow(deps, groupId);
    const saved = await deps.prisma.groupRunnersToken.upsert({
      where: { groupId },
      create: row,
      update: { tokenSealed: row.tokenSealed, tokenDigest: row.tokenDigest },
    });
    return toMessage(deps, saved);
  };

/** The group a registration token belongs to, or null. */
export async function groupOfRunnersToken(deps: Pick<CiDeps, "prisma">, token: string): Promise<number | null> {
  const digest = runnersTokenDigest(token);
  if (!digest) return null;
  const row = await deps.prisma.groupRunnersToken.findUnique({ where: { tokenDigest: digest } });
  return row?.groupId ?? null;
}
