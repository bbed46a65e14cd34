// Group runner registration tokens (GitLab's namespaces.runners_token): the legacy
// `POST /runners` with one registers a group runner of that group. Created on first request,
// kept sealed (Owners see it again in GET /groups/:id) and digested for the lookup.
import type { GetGroupRunnersTokensRequest__Output } from "@quarry/proto/types/ci/v1/GetGroupRunnersTokensRequest";
import type { GetGroupRunnersTokensResponse } from "@quarry/proto/types/ci/v1/GetGroupRunnersTokensResponse";
import type { GroupRunnersToken } from "@quarry/proto/types/ci/v1/GroupRunnersToken";
import type { ResetGroupRunnersTokenRequest__Output } from "@quarry/proto/types/ci/v1/ResetGroupRunnersTokenRequest";
import type { CiDeps } from "../deps.ts";
import { tokenDigest } from "../token-digest.ts";
import { validId } from "./job-token-scope.ts";
import { newRunnersToken, RUNNERS_TOKEN_PREFIX } from "./project-runners-tokens.ts";

/** Most groups one GetGroupRunnersTokens call answers. */
const MAX_GROUPS = 100;

function sealedRow(deps: Pick<CiDeps, "secrets">, groupId: number) {
  const token = newRunnersToken();
  return { groupId, tokenSealed: new Uint8Array(deps.secrets.seal(token)), tokenDigest: tokenDigest(token) };
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
    if (!ids.length) return { tokens: [] };
    const find = () => deps.prisma.groupRunnersToken.findMany({ where: { groupId: { in: ids } } });
    let rows = await find();
    const missing = ids.filter((id) => !rows.some((r) => r.groupId === id));
    if (missing.length) {
      await deps.prisma.groupRunnersToken.createMany({ data: missing.map((id) => sealedRow(deps, id)), skipDuplicates: true });
      rows = await find();
    }
    const byId = new Map(rows.map((r) => [r.groupId, r]));
    return { tokens: ids.flatMap((id) => (byId.has(id) ? [toMessage(deps, byId.get(id)!)] : [])) };
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
  if (!token.startsWith(RUNNERS_TOKEN_PREFIX)) return null;
  const row = await deps.prisma.groupRunnersToken.findUnique({ where: { tokenDigest: tokenDigest(token) } });
  return row?.groupId ?? null;
}
