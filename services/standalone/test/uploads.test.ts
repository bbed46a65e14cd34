import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";

// Project Markdown uploads: the API (gitbeaker and fetch), the web path and its headers.
let s: TestStack;
beforeAll(async () => {
  s = await startTestStack(undefined, { maxAttachmentBytes: 1024 });
});
afterAll(() => s?.destroy());

/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

const fileForm = (data: Buffer | string, filename: string, field = "file") => {
  const f = new FormData();
  f.append(field, new Blob([data]), filename);
  return f;
};

type Created = { id: number; alt: string; url: string; full_path: string; markdown: string };

/** A project with a Guest, a Maintainer and an outsider. */
async function project(visibility: "private" | "public") {
  const [guest, maintainer, outsider] = [await createUserWithToken(s), await createUserWithToken(s), await createUserWithToken(s)];
  const p = await jsonBody(await s.api("/projects", { method: "POST", json: { name: `up-${visibility}-${Date.now()}`, visibility } }), 201);
  await jsonBody(await s.api(`/projects/${p.id}/members`, { method: "POST", json: { user_id: guest.id, access_level: 10 } }), 201);
  await jsonBody(await s.api(`/projects/${p.id}/members`, { method: "POST", json: { user_id: maintainer.id, access_level: 40 } }), 201);
  return { p: p as { id: number; path_with_namespace: string }, guest, maintainer, outsider };
}

const upload = async (projectId: number, data: Buffer | string, filename: string, token?: string) =>
  s.api(`/projects/${projectId}/uploads`, { method: "POST", body: fileForm(data, filename), token });

describe("POST /projects/:id/uploads", () => {
  it("stores a Guest's file and answers GitLab's upload result (gitbeaker)", async () => {
    const { p, guest } = await project("private");
    const created = (await s.gitlab(guest.token).ProjectMarkdownUploads.create(p.id, { content: new Blob([PNG]), filename: "dk.png" })) as Created;
    expect(created.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/dk\.png$/);
    expect(created).toEqual({
      id: expect.any(Number),
      alt: "dk",
      url: created.url,
      full_path: `/-/project/${p.id}${created.url}`,
      markdown: `![dk](${created.url})`,
    });
    const txt = await jsonBody(await upload(p.id, "notes", "read me.txt", guest.token), 201);
    expect(txt.markdown).toBe(`[read_me.txt](${txt.url})`);
    expect(txt.alt).toBe("read_me");
  });

  it("refuses a missing file (400), an oversized one (413), anonymous callers (401) and strips path parts", async () => {
    const { p, guest, outsider } = await project("private");
    const f = new FormData();
    f.append("other", "x");
    expect(await jsonBody(await s.api(`/projects/${p.id}/uploads`, { method: "POST", body: f }), 400)).toEqual({ error: "file is missing" });
    f.append("file", "not a file");
    expect(await jsonBody(await s.api(`/projects/${p.id}/uploads`, { method: "POST", body: f }), 400)).toEqual({ error: "file is invalid" });
    expect(await jsonBody(await upload(p.id, Buffer.alloc(1025, 1), "big.bin"), 413)).toEqual({ message: "413 Request Entity Too Large" });
    expect((await jsonBody(await upload(p.id, Buffer.alloc(1024, 1), "fits.bin"), 201)).url).toMatch(/\/fits\.bin$/);
    expect(await jsonBody(await upload(p.id, "x", "a.txt", null as unknown as string), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await upload(p.id, "x", "a.txt", outsider.token), 404)).toEqual({ message: "404 Project Not Found" });
    const traversal = await jsonBody(await upload(p.id, "x", "../../etc/passwd", guest.token), 201);
    expect(traversal.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/passwd$/);
    // A part named `..` is no file at all for the multipart parser (busboy drops such names).
    expect(await jsonBody(await upload(p.id, "x", "..", guest.token), 400)).toEqual({ error: "file is missing" });
  });
});

describe("listing, downloading and deleting", () => {
  it("lists newest first with the uploader, for Maintainers only", async () => {
    const { p, guest, maintainer } = await project("private");
    const first = await jsonBody(await upload(p.id, "1", "one.txt", guest.token), 201);
    const second = await jsonBody(await upload(p.id, "22", "two.txt", maintainer.token), 201);
    const list = await s.gitlab(maintainer.token).ProjectMarkdownUploads.all(p.id);
    expect(list.map((u) => u.id)).toEqual([second.id, first.id]);
    expect(list[1]).toEqual({
      id: first.id,
      size: 1,
      filename: "one.txt",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      uploaded_by: { id: guest.id, name: expect.any(String), username: guest.username },
    });
    const page = await s.api(`/projects/${p.id}/uploads?per_page=1`, { token: maintainer.token });
    expect((await jsonBody(page, 200)).map((u: { id: number }) => u.id)).toEqual([second.id]);
    expect(page.headers.get("x-total")).toBe("2");
    expect(await jsonBody(await s.api(`/projects/${p.id}/uploads`, { token: guest.token }), 403)).toEqual({ message: "403 Forbidden" });
  });

  it("downloads by id (Maintainer) and by secret (Guest; anyone on a public project) as an attachment", async () => {
    const priv = await project("private");
    const u = await jsonBody(await upload(priv.p.id, "hello", "hi.txt", priv.guest.token), 201);
    const secretPath = `/projects/${priv.p.id}/uploads${u.url.slice("/uploads".length)}`;
    const byId = await s.api(`/projects/${priv.p.id}/uploads/${u.id}`, { token: priv.maintainer.token });
    expect(byId.status).toBe(200);
    expect(byId.headers.get("content-type")).toBe("application/octet-stream");
    expect(byId.headers.get("content-disposition")).toBe(`attachment; filename="hi.txt"; filename*=UTF-8''hi.txt`);
    expect(await byId.text()).toBe("hello");
    expect((await s.api(`/projects/${priv.p.id}/uploads/${u.id}`, { token: priv.guest.token })).status).toBe(403);
    expect(await (await s.api(secretPath, { token: priv.guest.token })).text()).toBe("hello");
    expect((await s.api(secretPath, { token: priv.outsider.token })).status).toBe(404);
    expect((await s.api(secretPath, { token: null })).status).toBe(404);
    expect(await jsonBody(await s.api(`/projects/${priv.p.id}/uploads/${u.url.split("/")[2]}/other.txt`, { token: priv.guest.token }), 404)).toEqual({
      message: "404 Not Found",
    });
    expect(await jsonBody(await s.api(`/projects/${priv.p.id}/uploads/${u.url.split("/")[2]}/..%2Fhi.txt`, { token: priv.guest.token }), 400)).toEqual({
      error: "filename should be a valid file path",
    });

    const pub = await project("public");
    const v = await jsonBody(await upload(pub.p.id, "open", "o.txt", pub.guest.token), 201);
    expect(await (await s.api(`/projects/${pub.p.id}/uploads${v.url.slice("/uploads".length)}`, { token: null })).text()).toBe("open");
    // GET needs no sign-in in GitLab's API (authenticate_non_get!): anonymous readers are refused by authorize!.
    expect(await jsonBody(await s.api(`/projects/${pub.p.id}/uploads/${v.id}`, { token: null }), 403)).toEqual({ message: "403 Forbidden" });
    expect((await s.api(`/projects/${pub.p.id}/uploads/${v.id}`, { method: "DELETE", token: null })).status).toBe(401);
  });

  it("deletes by id and by secret for Maintainers; the file is gone", async () => {
    const { p, guest, maintainer } = await project("private");
    const a = await jsonBody(await upload(p.id, "a", "a.txt", guest.token), 201);
    const b = await jsonBody(await upload(p.id, "b", "b.txt", guest.token), 201);
    expect((await s.api(`/projects/${p.id}/uploads/${a.id}`, { method: "DELETE", token: guest.token })).status).toBe(403);
    await s.gitlab(maintainer.token).ProjectMarkdownUploads.remove(p.id, a.id);
    expect((await s.api(`/projects/${p.id}/uploads/${a.id}`, { token: maintainer.token })).status).toBe(404);
    const del = await s.api(`/projects/${p.id}/uploads${b.url.slice("/uploads".length)}`, { method: "DELETE", token: maintainer.token });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    expect(await jsonBody(await s.api(`/projects/${p.id}/uploads`, { token: maintainer.token }), 200)).toEqual([]);
    expect((await s.api(`/projects/${p.id}/uploads/abc`, { method: "DELETE", token: maintainer.token })).status).toBe(400);
  });
});

describe("the web path", () => {
  it("serves images inline and other files (SVG, HTML) as attachments, never sniffed, to those who can see the project", async () => {
    const { p, guest, outsider } = await project("private");
    const png = await jsonBody(await upload(p.id, PNG, "dk.png", guest.token), 201);
    const web = await fetch(`${s.url}/${p.path_with_namespace}${png.url}`, { headers: { "PRIVATE-TOKEN": guest.token } });
    expect(web.status).toBe(200);
    expect(web.headers.get("content-type")).toBe("image/png");
    expect(web.headers.get("content-disposition")).toBe(`inline; filename="dk.png"; filename*=UTF-8''dk.png`);
    expect(web.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await web.arrayBuffer()).equals(PNG)).toBe(true);
    const byId = await fetch(`${s.url}${png.full_path}`, { headers: { "PRIVATE-TOKEN": guest.token } });
    expect(byId.status).toBe(200);

    for (const name of ["x.svg", "x.html"]) {
      const u = await jsonBody(await upload(p.id, "<svg/>", name, guest.token), 201);
      expect(u.markdown).toBe(`[${name}](${u.url})`);
      const res = await fetch(`${s.url}${u.full_path}`, { headers: { "PRIVATE-TOKEN": guest.token } });
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    expect((await fetch(`${s.url}/${p.path_with_namespace}${png.url}`, { headers: { "PRIVATE-TOKEN": outsider.token } })).status).toBe(404);
    expect((await fetch(`${s.url}/${p.path_with_namespace}${png.url}`)).status).toBe(404);
  });

  it("serves a private project's images to anyone once enforce_auth_checks_on_uploads is off; other files still not", async () => {
    const { p, guest } = await project("private");
    expect((await jsonBody(await s.api(`/projects/${p.id}`), 200)).enforce_auth_checks_on_uploads).toBe(true);
    const png = await jsonBody(await upload(p.id, PNG, "dk.png", guest.token), 201);
    const txt = await jsonBody(await upload(p.id, "secret", "t.txt", guest.token), 201);
    expect((await fetch(`${s.url}${png.full_path}`)).status).toBe(404);
    const put = await jsonBody(await s.api(`/projects/${p.id}`, { method: "PUT", json: { enforce_auth_checks_on_uploads: false } }), 200);
    expect(put.enforce_auth_checks_on_uploads).toBe(false);
    const anon = await fetch(`${s.url}/${p.path_with_namespace}${png.url}`);
    expect(anon.status).toBe(200);
    expect(anon.headers.get("content-type")).toBe("image/png");
    expect((await fetch(`${s.url}${txt.full_path}`)).status).toBe(404);
    // The API keeps its rules.
    expect((await s.api(`/projects/${p.id}/uploads${png.url.slice("/uploads".length)}`, { token: null })).status).toBe(404);
  });
});
