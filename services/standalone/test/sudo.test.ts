import { Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let alice: Awaited<ReturnType<typeof createUserWithToken>>;
let rootPrivateProject: number;

beforeAll(async () => {
  s = await startTestStack();
  alice = await createUserWithToken(s);
  rootPrivateProject = (await s.gitlab().Projects.create({ name: "roots-own", visibility: "private" })).id;
});
afterAll(() => s?.destroy());

describe("Sudo", () => {
  it("makes an administrator's sudo-scoped token act as the user named by the Sudo header or sudo parameter", async () => {
    const byHeader = await s.api("/user", { headers: { Sudo: alice.username } });
    expect(byHeader.status).toBe(200);
    expect(await byHeader.json()).toMatchObject({ id: alice.id, username: alice.username });
    const byParam = await s.api(`/user?sudo=${alice.id}`);
    expect(await byParam.json()).toMatchObject({ id: alice.id, username: alice.username });
    const byBody = await s.api("/projects", { method: "POST", json: { name: "made-by-sudo", sudo: alice.username } });
    expect(byBody.status).toBe(201);
    expect(await byBody.json()).toMatchObject({ namespace: { path: alice.username }, owner: { id: alice.id } });

    // The request has the user's rights, not the administrator's.
    const hidden = await s.api(`/projects/${rootPrivateProject}`, { headers: { Sudo: alice.username } });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: "404 Project Not Found" });
  });

  it("works through a client library's sudo option", async () => {
    const asAlice = new Gitlab({ host: s.url, token: s.rootToken, sudo: alice.username });
    const project = await asAlice.Projects.create({ name: "gitbeaker-sudo" });
    expect(project.namespace.path).toBe(alice.username);
    const me = await asAlice.Users.showCurrentUser();
    expect(me.id).toBe(alice.id);
  });

  it("is refused to non-administrators, to tokens without the sudo scope, and for unknown users", async () => {
    const notAdmin = await s.api("/user", { token: alice.token, headers: { Sudo: "root" } });
    expect(notAdmin.status).toBe(403);
    expect(await notAdmin.json()).toEqual({ message: "403 Forbidden - Must be admin to use sudo" });

    const adminWithoutSudoScope = await createUserWithToken(s, ["api"], { admin: true });
    const noScope = await s.api("/user", { token: adminWithoutSudoScope.token, headers: { Sudo: alice.username } });
    expect(noScope.status).toBe(403);
    expect(await noScope.json()).toEqual({
      error: "insufficient_scope",
      error_description: "The request requires higher privileges than provided by the access token.",
      scope: "sudo",
    });

    const unknownName = await s.api("/user", { headers: { Sudo: "nobody-here" } });
    expect(unknownName.status).toBe(404);
    expect(await unknownName.json()).toEqual({ message: "404 User with ID or username 'nobody-here' Not Found" });
    const unknownId = await s.api("/user?sudo=987654");
    expect(unknownId.status).toBe(404);
    expect(await unknownId.json()).toEqual({ message: "404 User with ID or username '987654' Not Found" });
    const hugeId = await s.api("/user?sudo=99999999999999999999999");
    expect(hugeId.status).toBe(404);

    const anonymous = await s.api("/projects", { token: null, headers: { Sudo: alice.username } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "401 Unauthorized" });
  });

  it("is accepted from an administrator's personal access token created with the sudo scope", async () => {
    const admin = await createUserWithToken(s, ["api"], { admin: true });
    const created = await s.api(`/users/${admin.id}/personal_access_tokens`, { method: "POST", json: { name: "sudo", scopes: ["api", "sudo"] } });
    expect(created.status).toBe(201);
    expect(await created.clone().json()).toMatchObject({ scopes: ["api", "sudo"] });
    const token = ((await created.json()) as { token: string }).token;
    const res = await s.api("/user", { token, headers: { Sudo: alice.username } });
    expect(await res.json()).toMatchObject({ id: alice.id });
  });
});
