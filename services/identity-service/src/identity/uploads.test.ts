// CreateUpload, ListUploads, GetUploadFile and DeleteUpload on real PostgreSQL and a real object store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";
import { sanitizeUploadFilename } from "./uploads-common.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

const project = async (visibility: "private" | "public") => {
  const owner = await f.user();
  const p = await f.c.CreateProject({ actor: owner, name: `up${Date.now()}${Math.random().toString(36).slice(2, 6)}`, visibility });
  const guest = await f.user();
  const maintainer = await f.user();
  await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: guest.userId, accessLevel: 10 });
  await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: maintainer.userId, accessLevel: 40 });
  return { p, owner, guest, maintainer, outsider: await f.user() };
};

describe("sanitizeUploadFilename", () => {
  it("keeps the last path segment, replaces unsafe characters and never names a directory", () => {
    expect(sanitizeUploadFilename("../../etc/passwd")).toBe("passwd");
    expect(sanitizeUploadFilename("C:\\dir\\my file (1).txt")).toBe("my_file__1_.txt");
    expect(sanitizeUploadFilename("..")).toBe("_..");
    expect(sanitizeUploadFilename("résumé.pdf")).toBe("résumé.pdf");
  });
});

describe("uploads", () => {
  it("stores a guest's file under a 32-character secret and serves it by secret to members only", async () => {
    const { p, guest, outsider } = await project("private");
    const u = await f.c.CreateUpload({ actor: guest, project: String(p.id), filename: "../notes v1.txt", data: Buffer.from("hello") });
    expect(u).toMatchObject({ filename: "notes_v1.txt", size: 5, contentType: "text/plain", uploadedById: guest.userId });
    expect(u.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(u.projectPathWithNamespace).toBe(p.pathWithNamespace);
    const got = await f.c.GetUploadFile({ actor: guest, project: p.pathWithNamespace, secret: u.secret, filename: "notes_v1.txt" });
    expect(Buffer.from(got.data).toString()).toBe("hello");
    for (const actor of [outsider, f.anonymous]) {
      expect(await failure(f.c.GetUploadFile({ actor, project: String(p.id), secret: u.secret, filename: "notes_v1.txt" }))).toEqual({
        status: 404,
        body: { message: "404 Project Not Found" },
      });
    }
    expect(await failure(f.c.GetUploadFile({ actor: guest, project: String(p.id), secret: u.secret, filename: "other.txt" }))).toEqual({
      status: 404,
      body: { message: "404 Not Found" },
    });
    expect((await failure(f.c.CreateUpload({ actor: f.anonymous, project: String(p.id), filename: "a.txt", data: Buffer.from("x") }))).status).toBe(401);
    expect((await failure(f.c.CreateUpload({ actor: outsider, project: String(p.id), filename: "a.txt", data: Buffer.from("x") }))).status).toBe(404);
  });

  it("lists newest first, reads by id and deletes for Maintainers only; the file goes with the row", async () => {
    const { p, guest, maintainer } = await project("public");
    const a = await f.c.CreateUpload({ actor: maintainer, project: String(p.id), filename: "a.png", data: Buffer.from("A") });
    const b = await f.c.CreateUpload({ actor: guest, project: String(p.id), filename: "b.pdf", data: Buffer.from("BB") });
    expect(b.contentType).toBe("application/pdf");
    const list = await f.c.ListUploads({ actor: maintainer, project: String(p.id), page: { perPage: 1 } });
    expect(list.uploads.map((u) => u.id)).toEqual([b.id]);
    expect(Number(list.pageInfo?.total)).toBe(2);
    expect((await failure(f.c.ListUploads({ actor: guest, project: String(p.id) }))).status).toBe(403);
    expect((await failure(f.c.ListUploads({ actor: f.anonymous, project: String(p.id) }))).status).toBe(403);
    expect(Buffer.from((await f.c.GetUploadFile({ actor: maintainer, project: String(p.id), id: a.id })).data).toString()).toBe("A");
    expect((await failure(f.c.GetUploadFile({ actor: guest, project: String(p.id), id: a.id }))).status).toBe(403);
    // Public project: anyone reads by secret.
    expect(Buffer.from((await f.c.GetUploadFile({ actor: f.anonymous, project: String(p.id), secret: b.secret, filename: "b.pdf" })).data).toString()).toBe(
      "BB",
    );

    expect((await failure(f.c.DeleteUpload({ actor: guest, project: String(p.id), id: a.id }))).status).toBe(403);
    const key = (await f.deps.prisma.upload.findUniqueOrThrow({ where: { id: Number(a.id) } })).objectKey;
    await f.c.DeleteUpload({ actor: maintainer, project: String(p.id), id: a.id });
    expect(await f.deps.avatars.stat(key)).toBeNull();
    await f.c.DeleteUpload({ actor: maintainer, project: String(p.id), secret: b.secret, filename: "b.pdf" });
    expect((await f.c.ListUploads({ actor: maintainer, project: String(p.id) })).uploads).toEqual([]);
    expect(await failure(f.c.DeleteUpload({ actor: maintainer, project: String(p.id), id: a.id }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect(await failure(f.c.DeleteUpload({ actor: maintainer, project: String(p.id), secret: b.secret, filename: "b.pdf" }))).toEqual({
      status: 400,
      body: {
        message: "400 Bad request - The resource that you are attempting to access does not exist or you don't have permission to perform this action.",
      },
    });
  });

  it("serves embeddable files of a project without enforce_auth_checks_on_uploads to anyone, by secret only", async () => {
    const { p, owner, outsider } = await project("private");
    expect(p.enforceAuthChecksOnUploads).toBe(true);
    const img = await f.c.CreateUpload({ actor: owner, project: String(p.id), filename: "a.png", data: Buffer.from("P") });
    const ask = (actor: typeof outsider | typeof f.anonymous, embeddable: boolean) =>
      f.c.GetUploadFile({ actor, project: String(p.id), secret: img.secret, filename: "a.png", embeddable });
    expect((await failure(ask(f.anonymous, true))).status).toBe(404);
    const off = await f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), enforceAuthChecksOnUploads: false });
    expect(off.enforceAuthChecksOnUploads).toBe(false);
    expect(Buffer.from((await ask(f.anonymous, true)).data).toString()).toBe("P");
    expect(Buffer.from((await ask(outsider, true)).data).toString()).toBe("P");
    // Not for files the web path would not embed, nor by id.
    expect((await failure(ask(f.anonymous, false))).status).toBe(404);
    expect((await failure(f.c.GetUploadFile({ actor: outsider, project: String(p.id), id: img.id, embeddable: true }))).status).toBe(404);
  });

  it("removes a deleted project's files", async () => {
    const { p, owner } = await project("private");
    const u = await f.c.CreateUpload({ actor: owner, project: String(p.id), filename: "gone.txt", data: Buffer.from("x") });
    const key = (await f.deps.prisma.upload.findUniqueOrThrow({ where: { id: Number(u.id) } })).objectKey;
    await f.c.DeleteProject({ actor: owner, idOrPath: String(p.id) });
    expect(await f.deps.prisma.upload.count({ where: { id: Number(u.id) } })).toBe(0);
    expect(await f.deps.avatars.stat(key)).toBeNull();
  });

  it("does not reach another project's upload by id", async () => {
    const one = await project("private");
    const two = await project("private");
    const u = await f.c.CreateUpload({ actor: one.owner, project: String(one.p.id), filename: "x.txt", data: Buffer.from("x") });
    expect((await failure(f.c.GetUploadFile({ actor: two.owner, project: String(two.p.id), id: u.id }))).status).toBe(404);
  });
});
