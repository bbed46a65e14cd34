// Emoji reactions on issues and issue notes end to end through the REST API: plain fetch with exact
// statuses, headers and bodies, and @gitbeaker/rest (python-gitlab: python-gitlab.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIssue, createIssueNote } from "./collab-api.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let project: { id: number; path_with_namespace: string };
let priv: { id: number };
let root: { id: number; username: string };
let user: { id: number; username: string; token: string };
let guest: { id: number; token: string };
let outsider: { id: number; token: string };

const { post, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  root = await jsonBody(await s.api("/user"), 200);
  project = await jsonBody(await post("/projects", { name: "reactions", visibility: "public" }), 201);
  priv = await jsonBody(await post("/projects", { name: "quiet-reactions", visibility: "private" }), 201);
  user = await createUserWithToken(s);
  guest = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  await jsonBody(await post(`/projects/${priv.id}/members`, { user_id: guest.id, access_level: 10 }), 201);
}, 60_000);
afterAll(() => s?.destroy());

describe("award emoji on issues", () => {
  it("awards, lists with offset pagination, reads and deletes with GitLab's entity", async () => {
    const issue = await createIssue(s, project.id);
    const base = `/projects/${project.id}/issues/${issue.iid}/award_emoji`;
    const created = await jsonBody(await post(base, { name: "+1" }, user.token), 201);
    expect(created).toEqual({
      id: expect.any(Number),
      name: "thumbsup",
      user: {
        id: user.id,
        username: user.username,
        name: expect.any(String),
        state: "active",
        locked: false,
        avatar_url: null,
        web_url: `${s.url}/${user.username}`,
      },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      awardable_id: issue.id,
      awardable_type: "Issue",
      url: null,
    });
    await jsonBody(await post(base, { name: "tada" }, user.token), 201);
    await jsonBody(await post(base, { name: "thumbsdown" }), 201);

    const page = await s.api(`${base}?per_page=2&page=2`, { token: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("x-total")).toBe("3");
    expect(page.headers.get("x-total-pages")).toBe("2");
    expect(page.headers.get("x-page")).toBe("2");
    expect(page.headers.get("x-prev-page")).toBe("1");
    expect(((await page.json()) as { name: string; user: { username: string } }[]).map((a) => [a.name, a.user.username])).toEqual([
      ["thumbsdown", root.username],
    ]);

    expect(await jsonBody(await s.api(`${base}/${created.id}`, { token: null }), 200)).toEqual(created);
    expect(await jsonBody(await del(`${base}/${created.id}`, user.token), 204)).toBeNull();
    expect(await jsonBody(await s.api(`${base}/${created.id}`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await del(`${base}/${created.id}`, user.token), 404)).toEqual({ message: "404 Not found" });
  });

  it("answers GitLab's errors for names, duplicates, anonymous writes and others' awards", async () => {
    const issue = await createIssue(s, project.id);
    const base = `/projects/${project.id}/issues/${issue.iid}/award_emoji`;
    expect(await jsonBody(await post(base, {}, user.token), 400)).toEqual({ error: "name is missing" });
    expect(await jsonBody(await post(base, { name: "not_an_emoji" }, user.token), 404)).toEqual({
      message: "404 Award Emoji Name is not a valid emoji name Not Found",
    });
    const award = await jsonBody(await post(base, { name: "rocket" }, user.token), 201);
    expect(await jsonBody(await post(base, { name: ":rocket:" }, user.token), 404)).toEqual({
      message: "404 Award Emoji Name has already been taken Not Found",
    });
    expect(await jsonBody(await post(base, { name: "rocket" }, null), 401)).toEqual({ message: "401 Unauthorized" });
    // Only the awarder or an administrator removes an award: GitLab's unauthorized!, a 401.
    expect(await jsonBody(await del(`${base}/${award.id}`, outsider.token), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await del(`${base}/${award.id}`), 204)).toBeNull();
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/999999/award_emoji`), 404)).toEqual({ message: "404 Issue Not Found" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/x/award_emoji`), 400)).toEqual({ error: "issue_iid does not have a valid value" });
  });

  it("hides confidential issues and private projects; a locked discussion takes awards from members only", async () => {
    const confidential = await createIssue(s, project.id, { confidential: true });
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/${confidential.iid}/award_emoji`, { token: outsider.token }), 404)).toEqual({
      message: "404 Issue Not Found",
    });
    const hidden = await createIssue(s, priv.id);
    expect(await jsonBody(await s.api(`/projects/${priv.id}/issues/${hidden.iid}/award_emoji`, { token: outsider.token }), 404)).toEqual({
      message: "404 Project Not Found",
    });
    const locked = await createIssue(s, priv.id, { discussionLocked: true });
    await jsonBody(await post(`/projects/${priv.id}/issues/${locked.iid}/award_emoji`, { name: "eyes" }, guest.token), 201);
    const lockedPublic = await createIssue(s, project.id, { discussionLocked: true });
    expect(await jsonBody(await post(`/projects/${project.id}/issues/${lockedPublic.iid}/award_emoji`, { name: "eyes" }, outsider.token), 404)).toEqual({
      message: "404 Award Emoji Not Found",
    });
  });

  it("works with @gitbeaker/rest's IssueAwardEmojis", async () => {
    const issue = await createIssue(s, project.id);
    const api = s.gitlab(user.token);
    const award = await api.IssueAwardEmojis.award(project.id, issue.iid, "heart");
    expect(award).toMatchObject({ name: "heart", awardable_type: "Issue", awardable_id: issue.id, user: { username: user.username } });
    expect((await api.IssueAwardEmojis.all(project.id, issue.iid)).map((a) => a.name)).toEqual(["heart"]);
    expect((await api.IssueAwardEmojis.show(project.id, issue.iid, award.id)).id).toBe(award.id);
    await api.IssueAwardEmojis.remove(project.id, issue.iid, award.id);
    expect(await api.IssueAwardEmojis.all(project.id, issue.iid)).toEqual([]);
  });
});

describe("award emoji on issue notes", () => {
  it("awards a note apart from its issue; internal notes are hidden from guests", async () => {
    const issue = await createIssue(s, priv.id);
    const note = await createIssueNote(s, priv.id, issue.iid);
    const base = `/projects/${priv.id}/issues/${issue.iid}/notes/${note.id}/award_emoji`;
    const award = await jsonBody(await post(base, { name: "thumbsdown" }, guest.token), 201);
    expect(award).toMatchObject({ name: "thumbsdown", awardable_id: note.id, awardable_type: "Note", user: { id: guest.id } });
    expect(await jsonBody(await s.api(`/projects/${priv.id}/issues/${issue.iid}/award_emoji`), 200)).toEqual([]);
    expect(await jsonBody(await s.api(`/projects/${priv.id}/issues/${issue.iid}/award_emoji/${award.id}`), 404)).toEqual({ message: "404 Not found" });
    expect((await jsonBody(await s.api(base, { token: guest.token }), 200)).map((a: { id: number }) => a.id)).toEqual([award.id]);

    const internal = await createIssueNote(s, priv.id, issue.iid, { internal: true });
    const internalBase = `/projects/${priv.id}/issues/${issue.iid}/notes/${internal.id}/award_emoji`;
    expect(await jsonBody(await s.api(internalBase, { token: guest.token }), 404)).toEqual({ message: "404 Note Not Found" });
    expect(await jsonBody(await post(internalBase, { name: "eyes" }, guest.token), 404)).toEqual({ message: "404 Note Not Found" });
    expect(await jsonBody(await s.api(internalBase), 200)).toEqual([]);
    expect(await jsonBody(await s.api(`/projects/${priv.id}/issues/${issue.iid}/notes/999999/award_emoji`), 404)).toEqual({ message: "404 Note Not Found" });
  });

  it("works with @gitbeaker/rest's IssueNoteAwardEmojis", async () => {
    const issue = await createIssue(s, project.id);
    const note = await createIssueNote(s, project.id, issue.iid);
    const api = s.gitlab(user.token);
    const award = await api.IssueNoteAwardEmojis.award(project.id, issue.iid, note.id, "tada");
    expect(award).toMatchObject({ name: "tada", awardable_type: "Note", awardable_id: note.id });
    expect((await api.IssueNoteAwardEmojis.show(project.id, issue.iid, note.id, award.id)).name).toBe("tada");
    expect((await api.IssueNoteAwardEmojis.all(project.id, issue.iid, note.id)).map((a) => a.id)).toEqual([award.id]);
    await api.IssueNoteAwardEmojis.remove(project.id, issue.iid, note.id, award.id);
    expect(await api.IssueNoteAwardEmojis.all(project.id, issue.iid, note.id)).toEqual([]);
  });
});

describe("award emoji on project snippets", () => {
  it("awards a project snippet and its notes; a private snippet's awards are 404 Snippet Not Found to outsiders", async () => {
    const snippet = await jsonBody(
      await post(`/projects/${project.id}/snippets`, { title: "react", visibility: "private", files: [{ file_path: "a.txt", content: "a" }] }),
      201,
    );
    const base = `/projects/${project.id}/snippets/${snippet.id}/award_emoji`;
    const award = await jsonBody(await post(base, { name: "tada" }), 201);
    expect(award).toMatchObject({ name: "tada", awardable_type: "Snippet", awardable_id: snippet.id, user: { id: root.id } });
    expect((await jsonBody(await s.api(base), 200)).map((a: { name: string }) => a.name)).toEqual(["tada"]);
    const note = await jsonBody(await post(`/projects/${project.id}/snippets/${snippet.id}/notes`, { body: "neat" }), 201);
    const onNote = await jsonBody(await post(`/projects/${project.id}/snippets/${snippet.id}/notes/${note.id}/award_emoji`, { name: "rocket" }), 201);
    expect(onNote).toMatchObject({ name: "rocket", awardable_type: "Note", awardable_id: note.id });
    expect(await jsonBody(await s.api(base, { token: outsider.token }), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect(await jsonBody(await post(base, { name: "tada" }, outsider.token), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect(await jsonBody(await del(`${base}/${award.id}`), 204)).toBeNull();
    expect(await jsonBody(await s.api(base), 200)).toEqual([]);
  });
});
