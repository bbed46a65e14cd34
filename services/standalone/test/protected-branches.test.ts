import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let developer: Awaited<ReturnType<typeof createUserWithToken>>;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  const project = await s.gitlab().Projects.create({ name: "guarded", initializeWithReadme: true });
  projectId = project.id;
  developer = await createUserWithToken(s);
  reporter = await createUserWithToken(s);
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: developer.id, access_level: 30 } });
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: reporter.id, access_level: 20 } });
  for (const branch of ["release/1.0", "feature"]) {
    await s.api(`/projects/${projectId}/repository/branches`, { method: "POST", json: { branch, ref: "main" } });
  }
});
afterAll(() => s?.destroy());

const branch = async (name: string, token?: string) =>
  (await (await s.api(`/projects/${projectId}/repository/branches/${encodeURIComponent(name)}`, { token })).json()) as Record<string, unknown>;

describe("protected branches", () => {
  it("protects, lists, reads and unprotects with @gitbeaker/rest in GitLab's shape", async () => {
    const api = s.gitlab();
    // A project created with a README has its default branch protected (default_branch_protection 2).
    const main = await api.ProtectedBranches.show(projectId, "main");
    expect(main).toEqual({
      id: expect.any(Number),
      name: "main",
      push_access_levels: [
        { id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", deploy_key_id: null, user_id: null, group_id: null },
      ],
      merge_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", user_id: null, group_id: null }],
      unprotect_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", user_id: null, group_id: null }],
      allow_force_push: false,
      code_owner_approval_required: false,
      inherited: false,
    });
    await api.ProtectedBranches.protect(projectId, "release/*", { pushAccessLevel: 30, mergeAccessLevel: 30, allowForcePush: true });
    expect((await api.ProtectedBranches.all(projectId)).map((b) => b.name)).toEqual(["main", "release/*"]);
    const release = await api.ProtectedBranches.show(projectId, "release/*");
    expect(release).toMatchObject({ allow_force_push: true, push_access_levels: [{ access_level: 30, access_level_description: "Developers + Maintainers" }] });
    const paged = await s.api(`/projects/${projectId}/protected_branches?per_page=1&page=2`);
    expect(paged.headers.get("x-total")).toBe("2");
    expect(((await paged.json()) as { name: string }[]).map((b) => b.name)).toEqual(["release/*"]);
  });

  it("shows protection and can_push per caller on branches", async () => {
    expect(await branch("main")).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: false, can_push: true });
    expect(await branch("main", developer.token)).toMatchObject({ protected: true, can_push: false });
    expect(await branch("release/1.0", developer.token)).toMatchObject({
      protected: true,
      developers_can_push: true,
      developers_can_merge: true,
      can_push: true,
    });
    expect(await branch("feature", developer.token)).toMatchObject({ protected: false, can_push: true });
    expect(await branch("feature", reporter.token)).toMatchObject({ protected: false, can_push: false });
    const list = (await (await s.api(`/projects/${projectId}/repository/branches`, { token: developer.token })).json()) as Record<string, unknown>[];
    expect(list.map((b) => [b.name, b.protected, b.can_push])).toEqual([
      ["feature", false, true],
      ["main", true, false],
      ["release/1.0", true, true],
    ]);
  });

  it("refuses API writes below the rule's push level (403) and allows them at it", async () => {
    const write = (branch: string) =>
      s.api(`/projects/${projectId}/repository/files/dev.txt`, {
        method: "POST",
        token: developer.token,
        json: { branch, content: "x\n", commit_message: "Add dev.txt" },
      });
    const before = (await branch("main")).commit as { id: string };
    const refused = await write("main");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "403 Forbidden - You are not allowed to push into this branch" });
    expect(((await branch("main")).commit as { id: string }).id).toBe(before.id);
    expect((await write("release/1.0")).status).toBe(201);
    const commit = await s.api(`/projects/${projectId}/repository/commits`, {
      method: "POST",
      token: developer.token,
      json: { branch: "main", commit_message: "Sneak", actions: [{ action: "create", file_path: "sneak.txt", content: "x" }] },
    });
    expect(commit.status).toBe(403);
  });

  it("refuses deleting a protected branch through the branches API (405)", async () => {
    const res = await s.api(`/projects/${projectId}/repository/branches/${encodeURIComponent("release/1.0")}`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ message: "Protected branch cant be removed" });
    expect(await branch("release/1.0")).toMatchObject({ name: "release/1.0" });
  });

  it("answers GitLab's errors: duplicate 409, unknown 404, bad level 400, Developer 403, outsider 404", async () => {
    const again = await s.api(`/projects/${projectId}/protected_branches`, { method: "POST", json: { name: "main" } });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ message: "Protected branch 'main' already exists" });
    const missing = await s.api(`/projects/${projectId}/protected_branches/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "404 Not found" });
    const badLevel = await s.api(`/projects/${projectId}/protected_branches`, { method: "POST", json: { name: "x", push_access_level: 35 } });
    expect(badLevel.status).toBe(400);
    expect(await badLevel.json()).toEqual({ error: "push_access_level does not have a valid value" });
    const noName = await s.api(`/projects/${projectId}/protected_branches`, { method: "POST", json: {} });
    expect(await noName.json()).toEqual({ error: "name is missing" });
    const asDeveloper = await s.api(`/projects/${projectId}/protected_branches`, { method: "POST", json: { name: "dev" }, token: developer.token });
    expect(asDeveloper.status).toBe(403);
    expect((await s.api(`/projects/${projectId}/protected_branches`, { token: reporter.token })).status).toBe(403);
    const outsider = await createUserWithToken(s);
    const priv = await s.gitlab().Projects.create({ name: "secret-guarded", visibility: "private" });
    expect((await s.api(`/projects/${priv.id}/protected_branches`, { token: outsider.token })).status).toBe(404);
    // None of the refused requests wrote a rule.
    expect(((await (await s.api(`/projects/${projectId}/protected_branches`)).json()) as unknown[]).length).toBe(2);
  });

  it("updates flags and levels with PATCH and unprotects with DELETE (204)", async () => {
    const patched = await s.api(`/projects/${projectId}/protected_branches/main`, {
      method: "PATCH",
      json: { allow_force_push: true, allowed_to_push: [{ access_level: 30 }] },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      allow_force_push: true,
      push_access_levels: [{ access_level: 30 }],
      merge_access_levels: [{ access_level: 40 }],
    });
    expect(await branch("main", developer.token)).toMatchObject({ can_push: true, developers_can_push: true });
    const removed = await s.api(`/projects/${projectId}/protected_branches/${encodeURIComponent("release/*")}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    await s.gitlab().ProtectedBranches.unprotect(projectId, "main");
    expect(await branch("main", developer.token)).toMatchObject({ protected: false, can_push: true });
    expect(await s.gitlab().ProtectedBranches.all(projectId)).toEqual([]);
  });
});
