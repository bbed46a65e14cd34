import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
});
afterAll(() => s?.destroy());

type UserView = { id: number; username: string; identities: unknown[] };

describe("user identities (provider + extern_uid)", () => {
  it("are stored by POST /users and PUT /users/:id and shown in identities", async () => {
    const created = await s.api("/users", {
      method: "POST",
      json: { username: "ida", email: "ida@example.com", name: "Ida", password: "secret-password-1", provider: "ldapmain", extern_uid: "uid=ida,ou=people" },
    });
    expect(created.status).toBe(201);
    const ida = (await created.json()) as UserView;
    expect(ida.identities).toEqual([{ provider: "ldapmain", extern_uid: "uid=ida,ou=people", saml_provider_id: null }]);

    const updated = await s.api(`/users/${ida.id}`, { method: "PUT", json: { provider: "github", extern_uid: "4711" } });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as UserView).identities).toEqual([
      { provider: "ldapmain", extern_uid: "uid=ida,ou=people", saml_provider_id: null },
      { provider: "github", extern_uid: "4711", saml_provider_id: null },
    ]);

    // Through a client library too: the same provider's extern_uid is replaced, not duplicated.
    const api = s.gitlab();
    const edited = (await api.Users.edit(ida.id, { provider: "github", extern_uid: "4712" } as never)) as unknown as UserView;
    expect(edited.identities).toContainEqual({ provider: "github", extern_uid: "4712", saml_provider_id: null });
    const shown = (await (await s.api(`/users/${ida.id}`)).json()) as UserView;
    expect(shown.identities).toHaveLength(2);
  });

  it("lets administrators find a user by extern_uid and provider", async () => {
    const bob = await createUserWithToken(s);
    expect((await s.api(`/users/${bob.id}`, { method: "PUT", json: { provider: "saml", extern_uid: "bob@idp" } })).status).toBe(200);

    const found = await s.api("/users?extern_uid=bob%40idp&provider=saml");
    expect(found.status).toBe(200);
    expect(((await found.json()) as UserView[]).map((u) => u.username)).toEqual([bob.username]);
    const none = (await (await s.api("/users?extern_uid=bob%40idp&provider=github")).json()) as UserView[];
    expect(none).toEqual([]);

    const asUser = await s.api("/users?extern_uid=bob%40idp&provider=saml", { token: bob.token });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toEqual({ message: "403 Forbidden" });
    const anonymous = await s.api("/users?extern_uid=bob%40idp&provider=saml", { token: null });
    expect(anonymous.status).toBe(401);
  });

  it("needs provider and extern_uid together, and keeps extern_uid unique per provider", async () => {
    const carl = await createUserWithToken(s);
    const half = await s.api(`/users/${carl.id}`, { method: "PUT", json: { provider: "github", name: "Carl Changed" } });
    expect(half.status).toBe(400);
    expect(await half.json()).toEqual({ error: "extern_uid, provider provide all or none of parameters" });
    const halfQuery = await s.api("/users?extern_uid=x");
    expect(halfQuery.status).toBe(400);

    expect((await s.api(`/users/${carl.id}`, { method: "PUT", json: { provider: "github", extern_uid: "carl" } })).status).toBe(200);
    const dan = await createUserWithToken(s);
    const taken = await s.api(`/users/${dan.id}`, { method: "PUT", json: { provider: "github", extern_uid: "CARL", name: "Dan Changed" } });
    expect(taken.status).toBe(400);
    expect(await taken.json()).toEqual({ message: { "identities.extern_uid": ["has already been taken"] } });
    const danNow = (await (await s.api(`/users/${dan.id}`)).json()) as UserView & { name: string };
    expect(danNow.identities).toEqual([]);
    expect(danNow.name).not.toBe("Dan Changed");
  });
});
