// Project runner registration tokens: created on first request, sealed at rest, rotated on reset,
// and accepted by the legacy registration for a project runner of their project.
import { httpErrorFromGrpc } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { tokenDigest } from "../token-digest.ts";
import { getProjectRunnersTokens, projectOfRunnersToken, resetProjectRunnersToken } from "./project-runners-tokens.ts";
import { registerRunner } from "./register-runner.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_project_runners_tokens");
});
afterAll(() => t.close());

/** The answer with its list made required (handlers answer the input type, whose fields are optional). */
const tokens = async (...projectIds: number[]) => {
  const answer = await getProjectRunnersTokens(t.deps)({ projectIds });
  return { tokens: (answer.tokens ?? []).map((x) => ({ projectId: Number(x.projectId), token: x.token ?? "", tokenExpiresAt: x.tokenExpiresAt ?? "" })) };
};
const register = (registrationToken: string) =>
  registerRunner(t.deps)({
    registrationToken,
    description: "project runner",
    paused: false,
    locked: true,
    runUntagged: true,
    tagList: [],
    accessLevel: "",
    maximumTimeout: 0,
    maintenanceNote: "",
  });

describe("project runners tokens", () => {
  it("are created once per project, GitLab-shaped, and answered in the order asked", async () => {
    const first = await tokens(11, 12, 11);
    expect(first.tokens.map((x) => x.projectId)).toEqual([11, 12]);
    for (const x of first.tokens) {
      expect(x.token).toMatch(/^GR1348941[A-Za-z0-9_-]{20}$/);
      expect(x.tokenExpiresAt).toBe("");
    }
    expect(first.tokens[0]!.token).not.toBe(first.tokens[1]!.token);
    expect((await tokens(12, 11)).tokens.map((x) => x.token)).toEqual([first.tokens[1]!.token, first.tokens[0]!.token]);
    expect(await tokens()).toEqual({ tokens: [] });
  });

  it("agree on one token when first asked for concurrently", async () => {
    const answers = await Promise.all([tokens(21), tokens(21), tokens(21)]);
    expect(new Set(answers.map((a) => a.tokens[0]!.token)).size).toBe(1);
  });

  it("are kept sealed, with a digest for the lookup", async () => {
    const { token } = (await tokens(31)).tokens[0]!;
    const row = await t.deps.prisma.projectRunnersToken.findUniqueOrThrow({ where: { projectId: 31 } });
    expect(Buffer.from(row.tokenSealed).includes(Buffer.from(token))).toBe(false);
    expect(row.tokenDigest).toBe(tokenDigest(token));
    expect(await projectOfRunnersToken(t.deps, token)).toBe(31);
    expect(await projectOfRunnersToken(t.deps, "GR1348941unknown-token-000")).toBeNull();
  });

  it("register a project runner of their project; a reset token is refused afterwards", async () => {
    const { token } = (await tokens(41)).tokens[0]!;
    const created = await register(token);
    expect(created.token).toMatch(/^glrt-/);
    expect(created.runner).toMatchObject({ runnerType: "project_type", projectId: 41, locked: true, description: "project runner" });

    const reset = { token: "", ...(await resetProjectRunnersToken(t.deps)({ projectId: 41 })) };
    expect(reset.token).toMatch(/^GR1348941/);
    expect(reset.token).not.toBe(token);
    expect((await tokens(41)).tokens[0]!.token).toBe(reset.token);
    expect(await register(token).catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect((await register(reset.token)).runner).toMatchObject({ runnerType: "project_type", projectId: 41 });
  });

  it("reset creates a token for a project that had none", async () => {
    const reset = { token: "", ...(await resetProjectRunnersToken(t.deps)({ projectId: 51 })) };
    expect((await tokens(51)).tokens[0]!.token).toBe(reset.token);
  });

  it("refuse invalid project ids", async () => {
    expect(await tokens(0).catch((e: unknown) => httpErrorFromGrpc(e))).toMatchObject({ status: 400 });
    expect(await resetProjectRunnersToken(t.deps)({ projectId: -1 }).catch((e: unknown) => httpErrorFromGrpc(e))).toMatchObject({ status: 400 });
  });
});
