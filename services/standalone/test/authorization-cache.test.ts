// The gateway's authorization cache (issue 18) end to end: with a TTL far longer than the test,
// every change that can alter an answer applies to the very next request: visibility, membership
// removal, a lowered role, a group's path and membership, a blocked user, a lost admin flag, a
// deleted or renamed project; and a change made behind the gateway's back (straight to
// identity-service) reaches it through the quarry.access.changed bus event.
import { createClient } from "@quarry/grpc";
import { identityV1, type IdentityServiceDefinition } from "@quarry/proto";
import type { PromiseClient } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  // One minute: nothing in this file may wait for entries to expire.
  s = await startTestStack(undefined, { authCacheTtlMs: 60_000 });
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

const { post, put } = jsonRequests(() => s);
const del = (path: string, token?: string) => s.api(path, { method: "DELETE", token });
const get = (path: string, token?: string | null) => s.api(path, { token });
let n = 0;
const uniq = () => `ac${Date.now().toString(36)}${n++}`;

/** Reads twice: the second answer comes from the cache (warm). */
async function warm(path: string, token: string | null, status = 200) {
  await jsonBody(await get(path, token), status);
  return jsonBody(await get(path, token), status);
}

describe("authorization cache eviction", () => {
  it("a public project made private is 404 to outsiders on the next request, and to anonymous callers", async () => {
    const owner = await createUserWithToken(s);
    const outsider = await createUserWithToken(s);
    const project = await jsonBody(await post("/projects", { name: uniq(), visibility: "public", initialize_with_readme: true }, owner.token), 201);
    expect((await warm(`/projects/${project.id}`, outsider.token)).id).toBe(project.id);
    await warm(`/projects/${project.id}/repository/branches`, outsider.token);
    await warm(`/projects/${encodeURIComponent(project.path_with_namespace)}`, null);

    await jsonBody(await put(`/projects/${project.id}`, { visibility: "private" }, owner.token), 200);
    expect(await jsonBody(await get(`/projects/${project.id}`, outsider.token), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await get(`/projects/${project.id}/repository/branches`, outsider.token), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await get(`/projects/${encodeURIComponent(project.path_with_namespace)}`, null), 404)).toEqual({ message: "404 Project Not Found" });
    // The owner still reads it (and made it private: the answer they see is the new one).
    expect((await jsonBody(await get(`/projects/${project.id}`, owner.token), 200)).visibility).toBe("private");
  });

  it("a removed member is 404 at once; a lowered role is 403 at once", async () => {
    const owner = await createUserWithToken(s);
    const member = await createUserWithToken(s);
    const dev = await createUserWithToken(s);
    const project = await jsonBody(await post("/projects", { name: uniq(), visibility: "private", initialize_with_readme: true }, owner.token), 201);
    await jsonBody(await post(`/projects/${project.id}/members`, { user_id: member.id, access_level: 20 }, owner.token), 201);
    await jsonBody(await post(`/projects/${project.id}/members`, { user_id: dev.id, access_level: 30 }, owner.token), 201);

    await warm(`/projects/${project.id}`, member.token);
    await warm(`/projects/${project.id}/repository/branches`, member.token);
    await jsonBody(await del(`/projects/${project.id}/members/${member.id}`, owner.token), 204);
    expect(await jsonBody(await get(`/projects/${project.id}`, member.token), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await get(`/projects/${project.id}/repository/branches`, member.token), 404)).toEqual({ message: "404 Project Not Found" });

    // Developer → Guest: protected branches (push_code) and the repository (Reporter+ when private) are refused at once.
    await warm(`/projects/${project.id}/protected_branches`, dev.token);
    await warm(`/projects/${project.id}/repository/branches`, dev.token);
    await jsonBody(await put(`/projects/${project.id}/members/${dev.id}`, { access_level: 10 }, owner.token), 200);
    expect(await jsonBody(await get(`/projects/${project.id}/protected_branches`, dev.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await get(`/projects/${project.id}/repository/branches`, dev.token), 403)).toEqual({ message: "403 Forbidden" });
    // The project itself stays visible to the Guest, with the new level.
    expect((await jsonBody(await get(`/projects/${project.id}`, dev.token), 200)).permissions.project_access.access_level).toBe(10);
  });

  it("group changes apply at once to the group's projects: membership removal and a new path", async () => {
    const owner = await createUserWithToken(s);
    const member = await createUserWithToken(s);
    const path = uniq();
    const group = await jsonBody(await post("/groups", { name: path, path, visibility: "private" }, owner.token), 201);
    const sub = await jsonBody(await post("/groups", { name: "sub", path: "sub", parent_id: group.id, visibility: "private" }, owner.token), 201);
    const project = await jsonBody(await post("/projects", { name: "inside", namespace_id: sub.id, visibility: "private" }, owner.token), 201);
    await jsonBody(await post(`/groups/${group.id}/members`, { user_id: member.id, access_level: 20 }, owner.token), 201);

    const byPath = `/projects/${encodeURIComponent(`${path}/sub/inside`)}`;
    expect((await warm(byPath, member.token)).id).toBe(project.id);
    await warm(`/projects/${project.id}`, owner.token);

    // The top group's new path moves the project: its old path is gone at once, the new one answers.
    await jsonBody(await put(`/groups/${group.id}`, { path: `${path}-moved` }, owner.token), 200);
    expect(await jsonBody(await get(byPath, member.token), 404)).toEqual({ message: "404 Project Not Found" });
    expect((await jsonBody(await get(`/projects/${project.id}`, owner.token), 200)).path_with_namespace).toBe(`${path}-moved/sub/inside`);

    const moved = `/projects/${encodeURIComponent(`${path}-moved/sub/inside`)}`;
    await warm(moved, member.token);
    await jsonBody(await del(`/groups/${group.id}/members/${member.id}`, owner.token), 204);
    expect(await jsonBody(await get(moved, member.token), 404)).toEqual({ message: "404 Project Not Found" });
  });

  it("a blocked user is 403 at once; an administrator who loses the flag no longer sees private projects", async () => {
    const owner = await createUserWithToken(s);
    const user = await createUserWithToken(s);
    const project = await jsonBody(await post("/projects", { name: uniq(), visibility: "public" }, owner.token), 201);
    await warm(`/projects/${project.id}`, user.token);
    expect(await jsonBody(await post(`/users/${user.id}/block`, {}), 201)).toBe(true);
    expect(await jsonBody(await get(`/projects/${project.id}`, user.token), 403)).toEqual({ message: "403 Forbidden - Your account has been blocked." });

    const admin = await createUserWithToken(s, ["api"], { admin: true });
    const secret = await jsonBody(await post("/projects", { name: uniq(), visibility: "private" }, owner.token), 201);
    await warm(`/projects/${secret.id}`, admin.token);
    await jsonBody(await put(`/users/${admin.id}`, { admin: false }), 200);
    expect(await jsonBody(await get(`/projects/${secret.id}`, admin.token), 404)).toEqual({ message: "404 Project Not Found" });
  });

  it("a deleted project is 404 at once; a renamed one is 404 at its old path and found at its new one", async () => {
    const owner = await createUserWithToken(s);
    const project = await jsonBody(await post("/projects", { name: uniq(), visibility: "public" }, owner.token), 201);
    const oldPath = `/projects/${encodeURIComponent(project.path_with_namespace)}`;
    await warm(oldPath, null);
    await jsonBody(await put(`/projects/${project.id}`, { path: `${project.path}-new` }, owner.token), 200);
    expect(await jsonBody(await get(oldPath, null), 404)).toEqual({ message: "404 Project Not Found" });
    expect((await jsonBody(await get(`${oldPath}-new`, null), 200)).id).toBe(project.id);

    await warm(`/projects/${project.id}`, null);
    await warm(`/projects/${project.id}`, owner.token);
    expect((await del(`/projects/${project.id}`, owner.token)).status).toBe(202);
    expect(await jsonBody(await get(`/projects/${project.id}`, null), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await get(`/projects/${project.id}`, owner.token), 404)).toEqual({ message: "404 Project Not Found" });
  });

  it("GET /user and GET /users/:id show a user's change on the next request", async () => {
    const user = await createUserWithToken(s);
    const other = await createUserWithToken(s);
    expect((await warm("/user", user.token)).name).toBe((await jsonBody(await get(`/users/${user.id}`, other.token), 200)).name);
    await warm(`/users/${user.id}`, other.token);
    await jsonBody(await put(`/users/${user.id}`, { name: "Renamed Person", bio: "new bio" }), 200);
    expect(await jsonBody(await get("/user", user.token), 200)).toMatchObject({ name: "Renamed Person", bio: "new bio" });
    expect(await jsonBody(await get(`/users/${user.id}`, other.token), 200)).toMatchObject({ name: "Renamed Person", bio: "new bio" });
  });

  it("a change made behind the gateway (straight to identity-service) reaches it through quarry.access.changed", async () => {
    const owner = await createUserWithToken(s);
    const outsider = await createUserWithToken(s);
    const project = await jsonBody(await post("/projects", { name: uniq(), visibility: "public" }, owner.token), 201);
    await warm(`/projects/${project.id}`, outsider.token);
    await warm("/user", outsider.token);
    const identity: PromiseClient<IdentityServiceDefinition> = createClient(identityV1.IdentityService, s.addresses.identity, { deadlineMs: 10_000 });
    try {
      await identity.UpdateProject({ actor: { userId: owner.id, isAdmin: false }, idOrPath: String(project.id), visibility: "private" });
      await identity.UpdateUser({ actor: { userId: 1, isAdmin: true }, id: outsider.id, profile: { bio: "changed behind" } });
    } finally {
      identity.close();
    }
    // Only the bus can tell the gateway (the TTL is a minute): the answer turns to 404 as soon as the event lands.
    await expect.poll(async () => (await get(`/projects/${project.id}`, outsider.token)).status, { timeout: 10_000, interval: 50 }).toBe(404);
    await expect.poll(async () => (await jsonBody(await get("/user", outsider.token), 200)).bio, { timeout: 10_000, interval: 50 }).toBe("changed behind");
  });
});
