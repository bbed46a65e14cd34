import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVATAR_MAX_BYTES, checkAvatar, sanitizeFilename, sniffImageType } from "./avatars.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (size = 64) => Buffer.concat([Buffer.from(PNG_SIG), Buffer.alloc(size - 8, 1)]);
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 0)]);
const UNSUPPORTED = "file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp";
const TOO_BIG = "is too big (should be at most 200 KiB)";

describe("checkAvatar", () => {
  it("sniffs the accepted image types by their magic numbers", () => {
    expect(sniffImageType(png())).toBe("image/png");
    expect(sniffImageType(jpeg())).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("GIF87a......"))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(Buffer.from([0x49, 0x49, 0x2a, 0x00, 1, 2]))).toBe("image/tiff");
    expect(sniffImageType(Buffer.from([0, 0, 1, 0, 1, 0]))).toBe("image/vnd.microsoft.icon");
    expect(sniffImageType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeUndefined();
  });

  it("accepts 200 KiB exactly and refuses one byte more, with GitLab's words", () => {
    expect(checkAvatar({ remove: false, filename: "a.png", data: png(AVATAR_MAX_BYTES) })).toMatchObject({ filename: "a.png", contentType: "image/png" });
    expect(() => checkAvatar({ remove: false, filename: "a.png", data: png(AVATAR_MAX_BYTES + 1) })).toThrow(
      expect.objectContaining({ body: { message: { avatar: [TOO_BIG] } } }),
    );
  });

  it("refuses other extensions, content that is no accepted image, and content of another type than the extension", () => {
    expect(() => checkAvatar({ remove: false, filename: "a.svg", data: png() })).toThrow(
      expect.objectContaining({ body: { message: { avatar: [UNSUPPORTED] } } }),
    );
    expect(() => checkAvatar({ remove: false, filename: "a.png", data: Buffer.from("just text") })).toThrow(
      expect.objectContaining({ body: { message: { avatar: [UNSUPPORTED] } } }),
    );
    expect(() => checkAvatar({ remove: false, filename: "a.png", data: jpeg() })).toThrow(
      expect.objectContaining({ body: { message: { avatar: ["Content type does not match file extension"] } } }),
    );
    // Both of GitLab's validations report, type first.
    expect(() => checkAvatar({ remove: false, filename: "a.txt", data: Buffer.alloc(AVATAR_MAX_BYTES + 1) })).toThrow(
      expect.objectContaining({ body: { message: { avatar: [UNSUPPORTED, TOO_BIG] } } }),
    );
  });

  it("treats remove, absence and an empty file as GitLab does", () => {
    expect(checkAvatar({ remove: true, filename: "", data: Buffer.alloc(0) })).toEqual({ remove: true });
    expect(checkAvatar(null)).toBeUndefined();
    expect(checkAvatar({ remove: false, filename: "a.png", data: Buffer.alloc(0) })).toBeUndefined();
    expect(checkAvatar({ remove: false, filename: "A.JPG", data: jpeg() })).toMatchObject({ contentType: "image/jpeg" });
  });

  it("sanitizes file names as CarrierWave does", () => {
    expect(sanitizeFilename("C:\\photos\\my avatar (1).png")).toBe("my_avatar__1_.png");
    expect(sanitizeFilename("../../x.png")).toBe("x.png");
    expect(sanitizeFilename("..")).toBe("avatar");
  });
});

describe("avatar writes", () => {
  let f: Fixture;
  beforeAll(async () => (f = await identityFixture()));
  afterAll(() => f?.close());

  const objects = async () => {
    const keys: string[] = [];
    for await (const o of f.deps.avatars.list("")) keys.push(o.key);
    return keys;
  };

  it("writes nothing when an avatar or another field is refused", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: `w${Date.now()}` });
    const before = await objects();
    expect(
      await failure(
        f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), description: "changed", avatar: { filename: "a.png", data: png(AVATAR_MAX_BYTES + 1) } }),
      ),
    ).toEqual({
      status: 400,
      body: { message: { avatar: [TOO_BIG] } },
    });
    // A valid avatar with an invalid name: the image stored meanwhile is removed again.
    expect((await failure(f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), path: "-bad", avatar: { filename: "a.png", data: png() } }))).status).toBe(
      400,
    );
    expect((await failure(f.c.CreateProject({ actor: owner, name: p.name, avatar: { filename: "a.png", data: png() } }))).status).toBe(400);
    const row = await f.deps.prisma.project.findUniqueOrThrow({ where: { id: Number(p.id) } });
    expect(row).toMatchObject({ description: "", avatar: null, avatarKey: null });
    expect(await objects()).toEqual(before);
  });

  it("replacing an avatar removes the old image", async () => {
    const u = await f.user();
    await f.c.UpdateUser({ actor: f.admin, id: u.userId, avatar: { filename: "one.png", data: png() } });
    const first = (await f.deps.prisma.user.findUniqueOrThrow({ where: { id: u.userId } })).avatarKey!;
    const updated = await f.c.UpdateUser({ actor: f.admin, id: u.userId, avatar: { filename: "two.jpg", data: jpeg() } });
    expect(updated.avatar).toBe("two.jpg");
    expect(await f.deps.avatars.stat(first)).toBeNull();
    const created = await f.c.CreateUser({
      actor: f.admin,
      username: `av${Date.now()}`,
      email: `av${Date.now()}@example.com`,
      name: "Av",
      avatar: { filename: "new.png", data: png() },
    });
    expect(created.avatar).toBe("new.png");
  });

  it("deleting a user, project or group removes its images and those of everything deleted with it", async () => {
    const u = await f.user();
    const userAvatar = await f.c.UpdateUser({ actor: f.admin, id: u.userId, avatar: { filename: "u.png", data: png() } });
    expect(userAvatar.avatar).toBe("u.png");
    await f.c.CreateProject({ actor: u, name: `personal${Date.now()}`, avatar: { filename: "p.png", data: png() } });
    const g = await f.c.CreateGroup({ actor: f.admin, name: `Del${Date.now()}`, path: `del${Date.now()}`, avatar: { filename: "g.png", data: png() } });
    const sub = await f.c.CreateGroup({ actor: f.admin, name: "Sub", path: "sub", parentId: g.id, avatar: { filename: "s.png", data: png() } });
    await f.c.CreateProject({ actor: f.admin, name: "inner", namespaceId: sub.id, avatar: { filename: "i.png", data: png() } });
    const lone = await f.c.CreateProject({ actor: f.admin, name: `lone${Date.now()}`, avatar: { filename: "l.png", data: png() } });
    const before = (await objects()).length;
    await f.c.DeleteProject({ actor: f.admin, idOrPath: String(lone.id) });
    expect((await objects()).length).toBe(before - 1);
    await f.c.DeleteGroup({ actor: f.admin, idOrPath: String(g.id) });
    expect((await objects()).length).toBe(before - 4);
    await f.c.DeleteUser({ actor: f.admin, id: u.userId });
    expect((await objects()).length).toBe(before - 6);
  });
});
