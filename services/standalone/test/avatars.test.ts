import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

// Avatars as multipart file parts on users, projects and groups, served from /uploads/-/system.
let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
});
afterAll(() => s?.destroy());

/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
/** A GIF header and padding: enough for any image sniffer. */
const GIF = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.alloc(32, 0)]);
/** A PNG of exactly `size` bytes (the signature and header chunk, then padding). */
const pngOfSize = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0)]);

const UNSUPPORTED = "file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp";
const TOO_BIG = "is too big (should be at most 200 KiB)";

/** A multipart body with ordinary fields and, optionally, an avatar file part. */
function form(fields: Record<string, string>, avatar?: { data: Buffer; filename: string; type?: string }, field = "avatar"): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (avatar) f.append(field, new Blob([avatar.data], { type: avatar.type ?? "application/octet-stream" }), avatar.filename);
  return f;
}

type Entity = {
  id: number;
  avatar_url: string | null;
  description?: string | null;
  namespace?: { avatar_url: string | null };
  owner?: { avatar_url: string | null };
};

const json = async <T = Entity>(res: Response) => (await res.json()) as T;

describe("avatars with fetch", () => {
  it("PUT /users/:id stores a user's avatar; its URL serves the image to anyone", async () => {
    const u = await createUserWithToken(s);
    const res = await s.api(`/users/${u.id}`, { method: "PUT", body: form({ bio: "with avatar" }, { data: PNG, filename: "me.png", type: "image/png" }) });
    expect(res.status).toBe(200);
    const body = await json<Entity & { bio: string }>(res);
    expect(body.bio).toBe("with avatar");
    expect(body.avatar_url).toBe(`${s.url}/uploads/-/system/user/avatar/${u.id}/me.png`);
    expect((await json(await s.api(`/users/${u.id}`, { token: u.token }))).avatar_url).toBe(body.avatar_url);

    const img = await fetch(body.avatar_url!);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("content-length")).toBe(String(PNG.length));
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
    expect(img.headers.get("content-disposition")).toBe(`inline; filename="me.png"; filename*=UTF-8''me.png`);
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    // Only the current file name is served.
    expect((await fetch(`${s.url}/uploads/-/system/user/avatar/${u.id}/other.png`)).status).toBe(404);
  });

  it("POST /users takes an avatar with the other fields as ordinary parts", async () => {
    const res = await s.api("/users", {
      method: "POST",
      body: form({ username: "avatared", email: "avatared@example.com", name: "Avatared", password: "secret-password-1" }, { data: GIF, filename: "face.gif" }),
    });
    expect(res.status).toBe(201);
    const user = await json(res);
    expect(user.avatar_url).toBe(`${s.url}/uploads/-/system/user/avatar/${user.id}/face.gif`);
    expect((await fetch(user.avatar_url!)).headers.get("content-type")).toBe("image/gif");
  });

  it("a private project's avatar is served to members only; outsiders and anonymous get 404", async () => {
    const owner = await createUserWithToken(s);
    const outsider = await createUserWithToken(s);
    const res = await s.api("/projects", {
      method: "POST",
      token: owner.token,
      body: form({ name: "pictured", visibility: "private" }, { data: PNG, filename: "logo.png" }),
    });
    expect(res.status).toBe(201);
    const project = await json(res);
    const url = `${s.url}/uploads/-/system/project/avatar/${project.id}/logo.png`;
    expect(project.avatar_url).toBe(url);
    expect((await json(await s.api(`/projects/${project.id}`, { token: owner.token }))).avatar_url).toBe(url);

    const asOwner = await fetch(url, { headers: { "PRIVATE-TOKEN": owner.token } });
    expect(asOwner.status).toBe(200);
    expect(asOwner.headers.get("content-type")).toBe("image/png");
    expect((await fetch(url, { headers: { Authorization: `Bearer ${s.rootToken}` } })).status).toBe(200);
    for (const headers of [{}, { "PRIVATE-TOKEN": outsider.token }] as Record<string, string>[]) {
      const denied = await fetch(url, { headers });
      expect(denied.status).toBe(404);
      expect(denied.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await denied.text()).toBe("Not Found");
    }
    // Bad credentials are 401, as everywhere.
    expect((await fetch(url, { headers: { "PRIVATE-TOKEN": "glpat-not-a-token-000000" } })).status).toBe(401);

    // Public: anyone.
    expect((await s.api(`/projects/${project.id}`, { method: "PUT", token: owner.token, json: { visibility: "public" } })).status).toBe(200);
    expect((await fetch(url)).status).toBe(200);
  });

  it("shows the owner's avatar as a personal project's namespace avatar", async () => {
    const owner = await createUserWithToken(s);
    await s.api(`/users/${owner.id}`, { method: "PUT", body: form({}, { data: PNG, filename: "o.png" }) });
    const project = await json(await s.api("/projects", { method: "POST", token: owner.token, json: { name: "mine" } }));
    expect(project.avatar_url).toBeNull();
    expect(project.namespace!.avatar_url).toBe(`${s.url}/uploads/-/system/user/avatar/${owner.id}/o.png`);
    expect(project.owner!.avatar_url).toBe(project.namespace!.avatar_url);
  });

  it('groups: POST with an avatar, PUT replaces it, avatar="" removes it', async () => {
    const created = await s.api("/groups", {
      method: "POST",
      body: form({ name: "Pictures", path: "pictures", visibility: "public" }, { data: PNG, filename: "g.png" }),
    });
    expect(created.status).toBe(201);
    const group = await json(created);
    const first = `${s.url}/uploads/-/system/group/avatar/${group.id}/g.png`;
    expect(group.avatar_url).toBe(first);
    expect((await fetch(first)).status).toBe(200);

    const replaced = await json(await s.api(`/groups/${group.id}`, { method: "PUT", body: form({ description: "new" }, { data: GIF, filename: "g2.gif" }) }));
    expect(replaced.avatar_url).toBe(`${s.url}/uploads/-/system/group/avatar/${group.id}/g2.gif`);
    expect((await fetch(first)).status).toBe(404);

    const removed = await s.api(`/groups/${group.id}`, { method: "PUT", body: new URLSearchParams({ avatar: "" }) });
    expect(removed.status).toBe(200);
    expect((await json(removed)).avatar_url).toBeNull();
    expect((await fetch(replaced.avatar_url!)).status).toBe(404);
    expect((await json(await s.api(`/groups/${group.id}`))).avatar_url).toBeNull();
  });

  it('PUT /projects/:id with JSON avatar "" removes the avatar', async () => {
    const project = await json(await s.api("/projects", { method: "POST", body: form({ name: "unpictured" }, { data: PNG, filename: "p.png" }) }));
    expect(project.avatar_url).not.toBeNull();
    const res = await s.api(`/projects/${project.id}`, { method: "PUT", json: { avatar: "" } });
    expect(res.status).toBe(200);
    expect((await json(res)).avatar_url).toBeNull();
  });

  it("refuses what GitLab refuses, with its bodies, and changes nothing", async () => {
    const project = await json(await s.api("/projects", { method: "POST", json: { name: "guarded", description: "before" } }));
    const put = (body: FormData | URLSearchParams) => s.api(`/projects/${project.id}`, { method: "PUT", body });
    const expectRefusal = async (res: Response, body: unknown) => {
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toEqual(body);
    };
    await expectRefusal(await put(form({ description: "after" }, { data: pngOfSize(200 * 1024 + 1), filename: "big.png" })), {
      message: { avatar: [TOO_BIG] },
    });
    // Far beyond the bound: still read to its end and answered, never a 413 or 5xx.
    await expectRefusal(await put(form({ description: "after" }, { data: pngOfSize(3 * 1024 * 1024), filename: "huge.png" })), {
      message: { avatar: [TOO_BIG] },
    });
    await expectRefusal(await put(form({ description: "after" }, { data: Buffer.from("hello"), filename: "notes.txt" })), {
      message: { avatar: [UNSUPPORTED] },
    });
    await expectRefusal(await put(form({ description: "after" }, { data: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), filename: "fake.png" })), {
      message: { avatar: [UNSUPPORTED] },
    });
    await expectRefusal(await put(form({ description: "after" }, { data: PNG, filename: "really-png.gif" })), {
      message: { avatar: ["Content type does not match file extension"] },
    });
    await expectRefusal(await put(form({ description: "after" }, { data: pngOfSize(300 * 1024), filename: "both.txt" })), {
      message: { avatar: [UNSUPPORTED, TOO_BIG] },
    });
    await expectRefusal(await put(new URLSearchParams({ avatar: "not-a-file" })), { error: "avatar is invalid" });
    // File parts elsewhere stay refused.
    await expectRefusal(await put(form({ description: "after" }, { data: PNG, filename: "x.png" }, "logo")), { message: "400 Bad request" });
    await expectRefusal(
      await s.api(`/projects/${project.id}/repository/branches`, {
        method: "POST",
        body: form({ branch: "b", ref: "main" }, { data: PNG, filename: "x.png" }),
      }),
      {
        message: "400 Bad request",
      },
    );

    const after = await json(await s.api(`/projects/${project.id}`));
    expect(after).toMatchObject({ description: "before", avatar_url: null });

    // 200 KiB exactly is accepted.
    const ok = await put(form({}, { data: pngOfSize(200 * 1024), filename: "limit.png" }));
    expect(ok.status).toBe(200);
    expect((await json(ok)).avatar_url).toBe(`${s.url}/uploads/-/system/project/avatar/${project.id}/limit.png`);
  });

  it("checks permission before the avatar, as GitLab does", async () => {
    const owner = await createUserWithToken(s);
    const developer = await createUserWithToken(s);
    const project = await json(await s.api("/projects", { method: "POST", token: owner.token, json: { name: "perm", visibility: "public" } }));
    const res = await s.api(`/projects/${project.id}`, {
      method: "PUT",
      token: developer.token,
      body: form({}, { data: Buffer.from("x"), filename: "x.txt" }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "403 Forbidden" });
    const group = await json(await s.api("/groups", { method: "POST", json: { name: "Closed", path: "closed", visibility: "public" } }));
    const intoGroup = await s.api("/projects", {
      method: "POST",
      token: developer.token,
      body: form({ name: "intruder", namespace_id: String(group.id) }, { data: Buffer.from("x"), filename: "x.txt" }),
    });
    expect(intoGroup.status).toBe(403);
    const subgroup = await s.api("/groups", {
      method: "POST",
      token: developer.token,
      body: form({ name: "Sub", path: "sub", parent_id: String(group.id) }, { data: Buffer.from("x"), filename: "x.txt" }),
    });
    expect(subgroup.status).toBe(403);
  });

  it("keeps a sanitized, URL-encoded file name; POST /projects/user/:user_id takes an avatar too", async () => {
    const owner = await createUserWithToken(s);
    const res = await s.api(`/projects/user/${owner.id}`, {
      method: "POST",
      body: form({ name: "for-someone" }, { data: PNG, filename: "café logo (1).png" }),
    });
    expect(res.status).toBe(201);
    const project = await json(res);
    expect(project.avatar_url).toBe(`${s.url}/uploads/-/system/project/avatar/${project.id}/caf%C3%A9_logo__1_.png`);
    const img = await fetch(project.avatar_url!, { headers: { "PRIVATE-TOKEN": owner.token } });
    expect(img.status).toBe(200);
    expect(img.headers.get("content-disposition")).toBe(`inline; filename="cafe_logo__1_.png"; filename*=UTF-8''caf%C3%A9_logo__1_.png`);
  });

  it("answers 404 for unknown avatar paths", async () => {
    for (const p of [
      "/uploads/-/system/snippet/avatar/1/x.png",
      "/uploads/-/system/user/avatar/99999999999/x.png",
      "/uploads/-/system/user/avatar/abc/x.png",
      "/uploads/-/system/group/avatar/424242/x.png",
    ]) {
      expect((await fetch(`${s.url}${p}`)).status).toBe(404);
    }
  });
});

describe("avatars with @gitbeaker/rest", () => {
  it("sets and removes avatars of users, projects and groups", async () => {
    const api = s.gitlab();
    const u = await createUserWithToken(s);
    const edited = (await api.Users.edit(u.id, { avatar: { content: new Blob([PNG]), filename: "beaker.png" } })) as unknown as Entity;
    expect(edited.avatar_url).toBe(`${s.url}/uploads/-/system/user/avatar/${u.id}/beaker.png`);

    const project = (await api.Projects.create({ name: "beaker-project", avatar: { content: new Blob([GIF]), filename: "p.gif" } })) as unknown as Entity;
    expect(project.avatar_url).toBe(`${s.url}/uploads/-/system/project/avatar/${project.id}/p.gif`);
    const img = await fetch(project.avatar_url!, { headers: { "PRIVATE-TOKEN": s.rootToken } });
    expect(img.headers.get("content-type")).toBe("image/gif");
    const changed = (await api.Projects.edit(project.id, { avatar: { content: new Blob([PNG]), filename: "p2.png" } })) as unknown as Entity;
    expect(changed.avatar_url).toBe(`${s.url}/uploads/-/system/project/avatar/${project.id}/p2.png`);
    expect(((await api.Projects.removeAvatar(project.id)) as unknown as Entity).avatar_url).toBeNull();

    const group = (await api.Groups.create("Beaker Group", "beaker-group", { avatar: { content: new Blob([PNG]), filename: "bg.png" } })) as unknown as Entity;
    expect(group.avatar_url).toBe(`${s.url}/uploads/-/system/group/avatar/${group.id}/bg.png`);
    expect(((await api.Groups.removeAvatar(group.id)) as unknown as Entity).avatar_url).toBeNull();

    await expect(api.Projects.edit(project.id, { avatar: { content: new Blob([Buffer.from("text")]), filename: "t.txt" } })).rejects.toMatchObject({
      cause: { response: { status: 400 } },
    });
  });
});
