// Group runner registration tokens: created on first request, sealed at rest, rotated on reset,
// and accepted by the legacy registration for a group runner of their group.
import { httpErrorFromGrpc } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { tokenDigest } from "../token-digest.ts";
import { getGroupRunnersTokens, groupOfRunnersToken, resetGroupRunnersToken } from "./group-runners-tokens.ts";
import { getProjectRunnersTokens } from "./project-runners-tokens.ts";
import { registerRunner } from "./register-runner.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_group_runners_tokens");
});
afterAll(() => t.close());

const tokens = async (...groupIds: number[]) =>
  ((await getGroupRunnersTokens(t.deps)({ groupIds })).tokens ?? []).map((x) => ({ groupId: Number(x.groupId), token: x.token ?? "" }));
const register = (registrationToken: string) =>
  registerRunner(t.deps)({
    registrationToken,
    description: "group runner",
    paused: false,
    locked: false,
    runUntagged: true,
    tagList: [],
    accessLevel: "",
    maximumTimeout: 0,
    maintenanceNote: "",
  });

describe("group runners tokens", () => {
  it("are created once per group, GitLab-shaped, sealed, and distinct from a project's token of the same id", async () => {
    const first = await tokens(11, 12, 11);
    expect(first.map((x) => x.groupId)).toEqual([11, 12]);
    for (const x of first) expect(x.token).toMatch(/^GR1348941[A-Za-z0-9_-]{20}$/);
    expect((await tokens(12, 11)).map((x) => x.token)).toEqual([first[1]!.token, first[0]!.token]);
    const row = await t.deps.prisma.groupRunnersToken.findUniqueOrThrow({ where: { groupId: 11 } });
    expect(Buffer.from(row.tokenSealed).includes(Buffer.from(first[0]!.token))).toBe(false);
    expect(row.tokenDigest).toBe(tokenDigest(first[0]!.token));
    expect(await groupOfRunnersToken(t.deps, first[0]!.token)).toBe(11);
    const project = (await getProjectRunnersTokens(t.deps)({ projectIds: [11] })).tokens?.[0]?.token;
    expect(project).not.toBe(first[0]!.token);
  });

  it("register a group runner of their group; a reset token is refused afterwards", async () => {
    const { token } = (await tokens(41))[0]!;
    const created = await register(token);
    expect(created.runner).toMatchObject({ runnerType: "group_type", groupId: 41, projectId: 0, description: "group runner" });
    const reset = await resetGroupRunnersToken(t.deps)({ groupId: 41 });
    expect(reset.token).toMatch(/^GR1348941/);
    expect(reset.token).not.toBe(token);
    expect(await register(token).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect((await register(reset.token!)).runner).toMatchObject({ runnerType: "group_type", groupId: 41 });
    expect(await resetGroupRunnersToken(t.deps)({ groupId: 0 }).catch((e: unknown) => httpErrorFromGrpc(e))).toMatchObject({ status: 400 });
  });
});
