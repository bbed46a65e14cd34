// Notes on issues end to end through the REST API: plain fetch with exact statuses and bodies,
// and @gitbeaker/rest (python-gitlab: python-gitlab.test.ts). Issues are made through the issues API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { createIssue } from "./collab-api.ts";

let s: TestStack;
let project: { id: number; path_with_namespace: string };
let priv: { id: number };
let guest: { id: number; token: string; username: string };
let reporter: { id: number; token: string };
let outsider: { id: number; token: string };

const { post, put, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  project = await jsonBody(await post("/projects", { name: "tracker", visibility: "public" }), 201);
  priv = await jsonBody(await post("/projects", { name: "secret", visibility: "private" }), 201);
  guest = await createUserWithToken(s);
  reporter = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  await jsonBody(await post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }), 201);
  await jsonBody(await post(`/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 }), 201);
  await createIssue(s, project.id, { iid: 1 });
  await createIssue(s, project.id, { iid: 2, confidential: true });
  await createIssue(s, project.id, { iid: 3, discussionLocked: true });
  await createIssue(s, priv.id, { iid: 1 });
}, 60_000);
afterAll(() => s?.destroy());

const notes = (iid = 1) => `/projects/${project.id}/issues/${iid}/notes`;

describe("issue notes over fetch", () => {
  it("creates with 201 and GitLab's Entities::Note; the author is UserBasic with created_at and the public email (null)", async () => {
    const n = await jsonBody(await post(notes(), { body: "Hello *world*" }, guest.token), 201);
    const user = await jsonBody(await s.api(`/users/${guest.id}`), 200);
    expect(n).toEqual({
      id: expect.any(Number),
      type: null,
      body: "Hello *world*",
      attachment: null,
      author: {
        id: guest.id,
        username: guest.username,
        name: user.name,
        state: "active",
        locked: false,
        avatar_url: user.avatar_url,
        web_url: `${s.url}/${guest.username}`,
        created_at: user.created_at,
        email: null,
      },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: n.created_at,
      system: false,
      noteable_id: expect.any(Number),
      noteable_type: "Issue",
      project_id: project.id,
      resolvable: false,
      confidential: false,
      internal: false,
      imported: false,
      imported_from: "none",
      noteable_iid: 1,
      commands_changes: {},
    });
    expect(await jsonBody(await s.api(`${notes()}/${n.id}`, { token: outsider.token }), 200)).toEqual(n);
  });

  it("answers GitLab's errors: 401, body missing/blank/too long, 404 project/issue/note, 403", async () => {
    expect(await jsonBody(await s.api(notes(), { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await post(notes(), {}, null), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await post(notes(), {}), 400)).toEqual({ error: "body is missing" });
    expect(await jsonBody(await post(notes(), { body: "  " }), 400)).toEqual({ message: '400 Bad request - Note {:note=>["can\'t be blank"]}' });
    expect((await jsonBody(await post(notes(), { body: "x".repeat(1_000_000) }), 201)).body).toHaveLength(1_000_000);
    expect(await jsonBody(await post(notes(), { body: "x".repeat(1_000_001) }), 400)).toEqual({
      message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}',
    });
    // Characters, not UTF-16 units or bytes: two million emoji are two million characters.
    expect(await jsonBody(await post(notes(), { body: "😀".repeat(2_000_000) }), 400)).toEqual({
      message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}',
    });
    expect(await jsonBody(await post(notes(99), { body: "x".repeat(1_000_001) }), 404)).toEqual({ message: "404 Issue Not Found" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/abc/notes`), 400)).toEqual({ error: "noteable_id is invalid" });
    expect(await jsonBody(await s.api(`${notes()}/abc`), 400)).toEqual({ error: "note_id is invalid" });
    expect(await jsonBody(await s.api(`/projects/${priv.id}/issues/1/notes`, { token: outsider.token }), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await s.api(notes(99)), 404)).toEqual({ message: "404 Issue Not Found" });
    expect(await jsonBody(await s.api(notes(2), { token: guest.token }), 404)).toEqual({ message: "404 Issue Not Found" });
    expect(await jsonBody(await s.api(`${notes()}/999999`), 404)).toEqual({ message: "404 Note Not Found" });
    const mine = await jsonBody(await post(notes(), { body: "mine" }, outsider.token), 201);
    expect(await jsonBody(await put(`${notes()}/${mine.id}`, { body: "theirs" }, reporter.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await put(`${notes()}/${mine.id}`, { body: "" }, outsider.token), 400)).toEqual({ error: "body is empty" });
    expect(await jsonBody(await del(`${notes()}/${mine.id}`, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post(notes(3), { body: "locked" }, outsider.token), 403)).toEqual({ message: "403 Forbidden" });
    expect((await jsonBody(await post(notes(3), { body: "member" }, guest.token), 201)).noteable_iid).toBe(3);
  });

  it("lists newest first with pagination headers, sorts and orders; internal notes for Reporter+ only", async () => {
    await createIssue(s, project.id, { iid: 10 });
    const list = notes(10);
    const a = await jsonBody(await post(list, { body: "a", created_at: "2020-01-01T00:00:00Z" }), 201);
    expect(a.created_at).toBe("2020-01-01T00:00:00.000Z");
    expect(a.updated_at).toBe("2020-01-01T00:00:00.000Z");
    await jsonBody(await post(list, { body: "b", created_at: "2020-01-02T00:00:00Z" }), 201);
    // A guest's created_at is ignored.
    const c = await jsonBody(await post(list, { body: "c", created_at: "2019-01-01T00:00:00Z" }, guest.token), 201);
    expect(c.created_at > "2021").toBe(true);
    const internal = await jsonBody(await post(list, { body: "psst", confidential: true }, reporter.token), 201);
    expect(internal).toMatchObject({ internal: true, confidential: true });
    expect((await jsonBody(await post(list, { body: "guest psst", internal: true }, guest.token), 201)).internal).toBe(false);
    const res = await s.api(`${list}?per_page=2`, { token: reporter.token });
    expect(res.headers.get("x-total")).toBe("5");
    expect(res.headers.get("x-total-pages")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("2");
    expect((await jsonBody(res, 200)).map((n: { body: string }) => n.body)).toEqual(["guest psst", "psst"]);
    const bodies = async (query: string, token?: string) =>
      (await jsonBody(await s.api(`${list}${query}`, { token }), 200)).map((n: { body: string }) => n.body);
    expect(await bodies("?sort=asc", reporter.token)).toEqual(["a", "b", "c", "psst", "guest psst"]);
    expect(await bodies("?sort=asc", guest.token)).toEqual(["a", "b", "c", "guest psst"]);
    expect(await jsonBody(await s.api(`${list}/${internal.id}`, { token: guest.token }), 404)).toEqual({ message: "404 Note Not Found" });
    await jsonBody(await put(`${list}/${a.id}`, { body: "a, edited" }), 200);
    expect((await bodies("?order_by=updated_at", reporter.token))[0]).toBe("a, edited");
    expect(await bodies("?sort=asc&activity_filter=only_activity", reporter.token)).toEqual([]);
    expect(await jsonBody(await s.api(`${list}?activity_filter=x`), 400)).toEqual({ error: "activity_filter does not have a valid value" });
    expect(await jsonBody(await s.api(`${list}?sort=up`), 400)).toEqual({ error: "sort does not have a valid value" });
    expect(await jsonBody(await post(list, { body: "x", created_at: "yesterday" }), 400)).toEqual({ error: "created_at is invalid" });
  });

  it("updates (confidential may not change) and deletes with 204", async () => {
    const n = await jsonBody(await post(notes(), { body: "v1" }, outsider.token), 201);
    const edited = await jsonBody(await put(`${notes()}/${n.id}`, { body: "v2" }, outsider.token), 200);
    expect(edited).toMatchObject({ id: n.id, body: "v2" });
    expect(await jsonBody(await put(`${notes()}/${n.id}`, { confidential: true }, outsider.token), 400)).toEqual({
      message: '400 Bad request - Failed to save note {:confidential=>["can not be changed for existing notes"]}',
    });
    const res = await del(`${notes()}/${n.id}`, outsider.token);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await jsonBody(await s.api(`${notes()}/${n.id}`), 404)).toEqual({ message: "404 Note Not Found" });
  });
});

describe("issue notes with @gitbeaker/rest", () => {
  it("creates, lists, shows, edits and removes", async () => {
    const api = s.gitlab(guest.token);
    const created = await api.IssueNotes.create(project.id, 1, "from gitbeaker");
    expect(created).toMatchObject({ body: "from gitbeaker", noteable_iid: 1, author: { id: guest.id } });
    const all = await api.IssueNotes.all(project.id, 1, { sort: "asc", orderBy: "created_at" });
    expect(all.at(-1)?.id).toBe(created.id);
    expect((await api.IssueNotes.show(project.id, 1, created.id)).body).toBe("from gitbeaker");
    expect((await api.IssueNotes.edit(project.id, 1, created.id, { body: "edited" })).body).toBe("edited");
    await api.IssueNotes.remove(project.id, 1, created.id);
    await expect(api.IssueNotes.show(project.id, 1, created.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});

describe("project snippet notes over fetch", () => {
  it("comment on a project snippet as on an issue; no internal notes there, PUT requires body, outsiders of a private snippet get 404", async () => {
    const snippet = await jsonBody(
      await post(`/projects/${project.id}/snippets`, { title: "snip", visibility: "private", files: [{ file_path: "a.txt", content: "a" }] }),
      201,
    );
    const path = `/projects/${project.id}/snippets/${snippet.id}/notes`;
    const n = await jsonBody(await post(path, { body: "nice", internal: true }, guest.token), 201);
    expect(n).toMatchObject({ body: "nice", noteable_type: "Snippet", noteable_id: snippet.id, noteable_iid: null, project_id: project.id, internal: false });
    expect((await jsonBody(await s.api(path, { token: reporter.token }), 200)).map((x: { id: number }) => x.id)).toEqual([n.id]);
    expect(await jsonBody(await put(`${path}/${n.id}`, {}, guest.token), 400)).toEqual({ error: "body is missing" });
    expect((await jsonBody(await put(`${path}/${n.id}`, { body: "nicer" }, guest.token), 200)).body).toBe("nicer");
    expect(await jsonBody(await s.api(path, { token: outsider.token }), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/snippets/999999/notes`), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect(await jsonBody(await del(`${path}/${n.id}`, guest.token), 204)).toBeNull();
  });
});
