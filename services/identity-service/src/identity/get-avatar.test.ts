import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

/** The smallest PNG header the sniffer accepts, padded to `size` bytes. */
const png = (size = 64) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 1)]);
const gif = () => Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.alloc(32, 0)]);

describe("GetAvatar", () => {
  it("serves a user's avatar to anyone, only under its current file name", async () => {
    const u = await f.user();
    const set = await f.c.UpdateUser({ actor: f.admin, id: u.userId, avatar: { filename: "me.png", data: png() } });
    expect(set.avatar).toBe("me.png");
    const got = await f.c.GetAvatar({ actor: f.anonymous, model: "user", id: u.userId, filename: "me.png" });
    expect(got.contentType).toBe("image/png");
    expect(Buffer.from(got.data).equals(png())).toBe(true);
    expect(await failure(f.c.GetAvatar({ actor: f.anonymous, model: "user", id: u.userId, filename: "other.png" }))).toEqual({
      status: 404,
      body: { message: "404 Avatar Not Found" },
    });
  });

  it("follows a private project's visibility: members read it, outsiders get 404", async () => {
    const owner = await f.user();
    const outsider = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: `av${Date.now()}`, avatar: { filename: "logo.gif", data: gif() } });
    expect(p.avatar).toBe("logo.gif");
    expect((await f.c.GetAvatar({ actor: owner, model: "project", id: p.id, filename: "logo.gif" })).contentType).toBe("image/gif");
    for (const actor of [outsider, f.anonymous]) {
      expect((await failure(f.c.GetAvatar({ actor, model: "project", id: p.id, filename: "logo.gif" }))).status).toBe(404);
    }
    expect((await f.c.GetAvatar({ actor: f.admin, model: "project", id: p.id, filename: "logo.gif" })).filename).toBe("logo.gif");
  });

  it("serves a public group's avatar to anonymous callers; removal makes it 404 and drops the bytes", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({
      actor: f.admin,
      name: `G${Date.now()}`,
      path: `g${Date.now()}`,
      visibility: "public",
      avatar: { filename: "g.png", data: png() },
    });
    expect((await f.c.GetAvatar({ actor: f.anonymous, model: "group", id: g.id, filename: "g.png" })).contentType).toBe("image/png");
    const key = (await f.deps.prisma.namespace.findUniqueOrThrow({ where: { id: Number(g.id) } })).avatarKey!;
    const removed = await f.c.UpdateGroup({ actor: f.admin, idOrPath: String(g.id), avatar: { remove: true } });
    expect(removed.avatar).toBe("");
    expect((await failure(f.c.GetAvatar({ actor: owner, model: "group", id: g.id, filename: "g.png" }))).status).toBe(404);
    expect(await f.deps.avatars.stat(key)).toBeNull();
  });

  it("answers 404 for unknown models and records", async () => {
    expect((await failure(f.c.GetAvatar({ actor: f.admin, model: "snippet", id: 1, filename: "x.png" }))).status).toBe(404);
    expect((await failure(f.c.GetAvatar({ actor: f.admin, model: "user", id: 999999, filename: "x.png" }))).status).toBe(404);
  });
});
