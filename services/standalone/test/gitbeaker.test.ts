import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

// Drives the API with @gitbeaker/rest, a client nobody here wrote.
let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
});
afterAll(() => s?.destroy());

describe("@gitbeaker/rest against Quarry", () => {
  it("manages users and their tokens", async () => {
    const api = s.gitlab();
    const me = await api.Users.showCurrentUser();
    expect(me).toMatchObject({ username: "root", is_admin: true, state: "active" });
    const alice = await api.Users.create({ username: "alice", email: "alice@example.com", name: "Alice", password: "alice-password-1" });
    expect(alice).toMatchObject({ username: "alice", name: "Alice", email: "alice@example.com", is_admin: false });
    const found = await api.Users.all({ username: "ALICE" });
    expect(found.map((u) => u.id)).toEqual([alice.id]);
    const edited = await api.Users.edit(alice.id, { bio: "hello" });
    expect(edited).toMatchObject({ bio: "hello" });
    const pat = await api.PersonalAccessTokens.create(alice.id, "ci", ["api", "read_api"]);
    expect(pat).toMatchObject({ name: "ci", scopes: ["api", "read_api"], revoked: false, active: true, user_id: alice.id });
    expect(typeof pat.token).toBe("string");
    const asAlice = s.gitlab(pat.token as string);
    expect((await asAlice.Users.showCurrentUser()).username).toBe("alice");
    await api.Users.remove(alice.id);
    await expect(api.Users.show(alice.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });

  it("manages groups, subgroups and their projects", async () => {
    const api = s.gitlab();
    const group = await api.Groups.create("Platform", "platform", { visibility: "internal", description: "infra" });
    expect(group).toMatchObject({ name: "Platform", path: "platform", full_path: "platform", visibility: "internal", parent_id: null });
    const sub = await api.Groups.create("Tools", "tools", { parentId: group.id });
    expect(sub).toMatchObject({ full_path: "platform/tools", parent_id: group.id, visibility: "private" });
    const subs = await api.Groups.allSubgroups(group.id);
    expect(subs.map((g) => g.id)).toEqual([sub.id]);
    const byPath = await api.Groups.show("platform/tools");
    expect(byPath.id).toBe(sub.id);
    const edited = await api.Groups.edit(group.id, { path: "plat", name: "Plat" });
    expect(edited).toMatchObject({ full_path: "plat" });
    expect((await api.Groups.show(sub.id)).full_path).toBe("plat/tools");

    const project = await api.Projects.create({ name: "CLI", namespaceId: sub.id, initializeWithReadme: true, description: "the tool" });
    expect(project).toMatchObject({ path_with_namespace: "plat/tools/cli", default_branch: "main", empty_repo: false, visibility: "private" });
    const shown = await api.Projects.show("plat/tools/cli");
    expect(shown).toMatchObject({ id: project.id, empty_repo: false, http_url_to_repo: `${s.url}/plat/tools/cli.git` });
    const groupProjects = await api.Groups.allProjects(group.id, { includeSubgroups: true });
    expect(groupProjects.map((p) => p.id)).toEqual([project.id]);
    const detail = await api.Groups.show(sub.id);
    expect((detail as { projects: { id: number }[] }).projects.map((p) => p.id)).toEqual([project.id]);

    await api.Groups.remove(group.id);
    await expect(api.Projects.show(project.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });

  it("manages projects and members", async () => {
    const api = s.gitlab();
    const bob = await api.Users.create({ username: "bob", email: "bob@example.com", name: "Bob", password: "bob-password-1" });
    const project = await api.Projects.create({ name: "Empty One", visibility: "public" });
    expect(project).toMatchObject({ path: "empty-one", empty_repo: true, owner: { username: "root" } });
    const updated = await api.Projects.edit(project.id, { description: "now described", topics: ["a", "b"] });
    expect(updated).toMatchObject({ description: "now described", topics: ["a", "b"] });
    const member = await api.ProjectMembers.add(project.id, 30, { userId: bob.id });
    expect(member).toMatchObject({ id: bob.id, access_level: 30, username: "bob" });
    const members = await api.ProjectMembers.all(project.id);
    expect(members.map((m) => m.username).sort()).toEqual(["bob", "root"]);
    const edited = await api.ProjectMembers.edit(project.id, bob.id, 40);
    expect(edited.access_level).toBe(40);
    await api.ProjectMembers.remove(project.id, bob.id);
    expect((await api.ProjectMembers.all(project.id)).map((m) => m.username)).toEqual(["root"]);
    const mine = await api.Projects.all({ owned: true, simple: true });
    expect(mine.map((p) => p.id)).toContain(project.id);
    await api.Projects.remove(project.id);
    await expect(api.Projects.show(project.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
