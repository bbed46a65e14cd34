import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let developer: Awaited<ReturnType<typeof createUserWithToken>>;
let maintainer: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  projectId = (await s.gitlab().Projects.create({ name: "built" })).id;
  developer = await createUserWithToken(s);
  maintainer = await createUserWithToken(s);
  for (const [user, level] of [
    [developer, 30],
    [maintainer, 40],
  ] as const) {
    await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: user.id, access_level: level } });
  }
});
afterAll(() => s?.destroy());

const create = (json: Record<string, unknown>, token?: string) => s.api("/user/runners", { method: "POST", json, token });
const verify = (token: string) => s.api("/runners/verify", { method: "POST", json: { token, system_id: "s_0123456789ab" }, token: "" });

describe("runners", () => {
  it("creates an instance runner (admin) whose glrt- token verifies, then unregisters it", async () => {
    const res = await create({ runner_type: "instance_type", description: "shared", tag_list: "linux,docker" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: number; token: string; token_expires_at: null };
    expect(body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    const verified = await verify(body.token);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ id: body.id, token: body.token, token_expires_at: null });
    await s.gitlab().Runners.remove({ token: body.token });
    const gone = await verify(body.token);
    expect(gone.status).toBe(403);
    expect(await gone.json()).toEqual({ message: "403 Forbidden" });
    expect((await s.api("/runners", { method: "DELETE", json: { token: body.token }, token: "" })).status).toBe(403);
  });

  it("lets Maintainers create project runners and Owners group runners", async () => {
    const project = await create({ runner_type: "project_type", project_id: projectId }, maintainer.token);
    expect(project.status).toBe(201);
    const group = (await s.gitlab().Groups.create("runner-group", "runner-group")) as unknown as { id: number };
    expect((await create({ runner_type: "group_type", group_id: group.id })).status).toBe(201);
  });

  it("refuses what GitLab refuses, writing nothing", async () => {
    expect((await create({ runner_type: "instance_type" }, developer.token)).status).toBe(403);
    expect((await create({ runner_type: "project_type", project_id: projectId }, developer.token)).status).toBe(403);
    const noProject = await create({ runner_type: "project_type" });
    expect(noProject.status).toBe(400);
    expect(await noProject.json()).toEqual({ error: "project_id is missing" });
    const badType = await create({ runner_type: "cloud" });
    expect(await badType.json()).toEqual({ error: "runner_type does not have a valid value" });
    expect((await s.api("/user/runners", { method: "POST", json: { runner_type: "instance_type" }, token: "" })).status).toBe(401);
    const outsider = await createUserWithToken(s);
    expect((await create({ runner_type: "project_type", project_id: projectId }, outsider.token)).status).toBe(404);
    const missingToken = await s.api("/runners/verify", { method: "POST", json: {}, token: "" });
    expect(await missingToken.json()).toEqual({ error: "token is missing" });
  });
});
