// Contribution events end to end (GitLab's Events API): a push, an issue opened and closed, a
// comment, a merge request opened and merged, a member joining, through the API; activity-service
// records them from the domain events and GET /events, /users/:id/events, /projects/:id/events
// answer them with GitLab's fields, filters and visibility; GET /user/activities for
// signed-in users (private profiles for administrators). Also through @gitbeaker/rest (Events.all, Users.allEvents, Users.allActivities).
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
type U = Awaited<ReturnType<typeof createUserWithToken>>;
let dev: U;
let guest: U;
let outsider: U;
let project: { id: number; path_with_namespace: string };
let issue: { id: number; iid: number; title: string };
let secret: { id: number; iid: number };
let note: { id: number; created_at: string; updated_at: string };
let mr: { id: number; iid: number; title: string };
let pushSha: string;

// biome-ignore lint/suspicious/noExplicitAny: tests read GitLab's JSON freely.
type Json = any;
const get = (path: string, token?: string | null) => s.api(path, { token });
const send = (method: string, path: string, json: unknown, token: string) => s.api(path, { method, json, token });
const list = async (path: string, token?: string | null): Promise<Json[]> => jsonBody(await get(path, token), 200);

/** Waits until the project has `count` events: activity-service records asynchronously, and ids follow recording. */
const recorded = (count: number) =>
  waitFor(async () => (await list(`/projects/${project.id}/events?per_page=100`)).length === count, { message: `${count} events recorded` });

beforeAll(async () => {
  s = await startTestStack();
  [dev, guest, outsider] = [await createUserWithToken(s), await createUserWithToken(s), await createUserWithToken(s)];
  project = await jsonBody(await send("POST", "/projects", { name: "Events site", path: "events-site", visibility: "private" }, dev.token), 201);
  await recorded(1);
  const commit = await jsonBody(
    await send(
      "POST",
      `/projects/${project.id}/repository/commits`,
      {
        branch: "main",
        commit_message: "Add simple search to projects in public area\n\nDetails",
        actions: [{ action: "create", file_path: "a.txt", content: "a\n" }],
      },
      dev.token,
    ),
    201,
  );
  pushSha = commit.id;
  await recorded(2);
  issue = await jsonBody(await send("POST", `/projects/${project.id}/issues`, { title: "Public project search field" }, dev.token), 201);
  await recorded(3);
  note = await jsonBody(await send("POST", `/projects/${project.id}/issues/${issue.iid}/notes`, { body: "What an awesome day!" }, dev.token), 201);
  await recorded(4);
  await jsonBody(await send("PUT", `/projects/${project.id}/issues/${issue.iid}`, { state_event: "close" }, dev.token), 200);
  await recorded(5);
  secret = await jsonBody(await send("POST", `/projects/${project.id}/issues`, { title: "Hidden", confidential: true }, dev.token), 201);
  await recorded(6);
  await jsonBody(
    await send(
      "POST",
      `/projects/${project.id}/repository/commits`,
      { branch: "feature", start_branch: "main", commit_message: "Feature", actions: [{ action: "create", file_path: "f.txt", content: "f\n" }] },
      dev.token,
    ),
    201,
  );
  await recorded(7);
  mr = await jsonBody(
    await send("POST", `/projects/${project.id}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "Add the feature" }, dev.token),
    201,
  );
  await recorded(8);
  await waitFor(async () => (await send("PUT", `/projects/${project.id}/merge_requests/${mr.iid}/merge`, {}, dev.token)).status === 200, { message: "merged" });
  // The merge: the merged merge request and the push of the merge commit, in either order.
  await recorded(10);
  await jsonBody(await send("POST", `/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }, dev.token), 201);
  await recorded(11);
}, 120_000);
afterAll(() => s?.destroy());

describe("GET /events", () => {
  it("answers the caller's own events newest first with GitLab's fields", async () => {
    const events = await list("/events?per_page=100", dev.token);
    expect(events.slice(0, 2).map((e) => [e.action_name, e.target_type, e.target_title])).toEqual(
      expect.arrayContaining([
        ["pushed to", null, null],
        ["accepted", "MergeRequest", "Add the feature"],
      ]),
    );
    expect(events.slice(2).map((e) => [e.action_name, e.target_type, e.target_title])).toEqual([
      ["opened", "MergeRequest", "Add the feature"],
      ["pushed new", null, null],
      ["opened", "Issue", "Hidden"],
      ["closed", "Issue", "Public project search field"],
      ["commented on", "Note", "Public project search field"],
      ["opened", "Issue", "Public project search field"],
      ["pushed new", null, null],
      ["created", null, null],
    ]);
    const author = {
      id: dev.id,
      username: dev.username,
      name: expect.any(String),
      state: "active",
      locked: false,
      avatar_url: null,
      web_url: expect.any(String),
    };
    const push = events[8];
    expect(push).toEqual({
      id: expect.any(Number),
      project_id: project.id,
      action_name: "pushed new",
      target_id: null,
      target_iid: null,
      target_type: null,
      author_id: dev.id,
      target_title: null,
      created_at: expect.any(String),
      author,
      imported: false,
      imported_from: "none",
      push_data: {
        commit_count: 1,
        action: "created",
        ref_type: "branch",
        commit_from: null,
        commit_to: pushSha,
        ref: "main",
        commit_title: "Add simple search to projects in public area",
        ref_count: null,
      },
      author_username: dev.username,
    });
    expect(events[7]).toEqual({
      id: expect.any(Number),
      project_id: project.id,
      action_name: "opened",
      target_id: issue.id,
      target_iid: issue.iid,
      target_type: "Issue",
      author_id: dev.id,
      target_title: "Public project search field",
      created_at: expect.any(String),
      author,
      imported: false,
      imported_from: "none",
      author_username: dev.username,
    });
    expect(events[6]).toMatchObject({ action_name: "commented on", target_id: note.id, target_iid: note.id, target_type: "Note" });
    expect(events[6].note).toEqual({
      id: note.id,
      type: null,
      body: "What an awesome day!",
      attachment: null,
      author: { ...author, created_at: expect.any(String), email: null },
      // As the note event carries them: to the second.
      created_at: `${note.created_at.slice(0, 19)}.000Z`,
      updated_at: `${note.updated_at.slice(0, 19)}.000Z`,
      system: false,
      noteable_id: issue.id,
      noteable_type: "Issue",
      project_id: project.id,
      resolvable: false,
      confidential: false,
      internal: false,
      imported: false,
      imported_from: "none",
      noteable_iid: issue.iid,
      commands_changes: {},
    });
    expect(events.find((e) => e.action_name === "accepted")).toMatchObject({ target_id: mr.id, target_iid: mr.iid });
    expect(Date.parse(events[0].created_at)).toBeGreaterThanOrEqual(Date.parse(events[9].created_at));
  });

  it("filters by action and target_type, sorts ascending and pages with X-* headers", async () => {
    expect((await list("/events?action=pushed", dev.token)).map((e) => e.action_name).sort()).toEqual(["pushed new", "pushed new", "pushed to"]);
    expect((await list("/events?target_type=issue", dev.token)).map((e) => e.action_name)).toEqual(["opened", "closed", "opened"]);
    expect((await list("/events?target_type=note", dev.token)).map((e) => e.action_name)).toEqual(["commented on"]);
    expect((await list("/events?sort=asc&per_page=1", dev.token)).map((e) => e.action_name)).toEqual(["created"]);
    const page = await get("/events?per_page=3&page=2", dev.token);
    expect(page.headers.get("x-total")).toBe("10");
    expect(page.headers.get("x-page")).toBe("2");
    expect(page.headers.get("x-per-page")).toBe("3");
    expect(page.headers.get("x-total-pages")).toBe("4");
    expect(((await page.json()) as Json[]).map((e: Json) => e.action_name)).toEqual(["pushed new", "opened", "closed"]);
  });

  it("takes before and after as days, each excluding its day", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await list(`/events?after=${today}`, dev.token)).toEqual([]);
    expect(await list(`/events?before=${today}`, dev.token)).toEqual([]);
    expect(await list(`/events?after=${yesterday}&before=${tomorrow}&per_page=100`, dev.token)).toHaveLength(10);
    expect(await jsonBody(await get("/events?before=someday", dev.token), 400)).toEqual({ error: "before is invalid" });
    expect(await jsonBody(await get("/events?action=opened", dev.token), 400)).toEqual({ error: "action does not have a valid value" });
    expect(await jsonBody(await get("/events?target_type=Issue", dev.token), 400)).toEqual({ error: "target_type does not have a valid value" });
  });

  it("with scope=all answers every event in the caller's projects; anonymous callers get 401", async () => {
    const all = await list("/events?scope=all&action=joined", guest.token);
    expect(all.map((e) => [e.action_name, e.author_id, e.project_id, e.target_type])).toEqual([["joined", guest.id, project.id, null]]);
    expect((await list("/events?scope=all&per_page=100", guest.token)).map((e) => e.target_title)).not.toContain("Hidden");
    expect(await list("/events?scope=all", outsider.token)).toEqual([]);
    expect((await get("/events", null)).status).toBe(401);
  });
});

describe("GET /users/:id/events", () => {
  it("answers a user's events in projects the caller can read, by id or username", async () => {
    const byRoot = await list(`/users/${dev.id}/events?per_page=100`);
    expect(byRoot).toHaveLength(10);
    expect(await list(`/users/${dev.username}/events?per_page=100`)).toEqual(byRoot);
    // An outsider reads no private project's events; a guest member not the confidential issue's.
    expect(await list(`/users/${dev.id}/events`, outsider.token)).toEqual([]);
    expect(await list(`/users/${dev.id}/events`, null)).toEqual([]);
    const asGuest = await list(`/users/${dev.id}/events?per_page=100`, guest.token);
    expect(asGuest).toHaveLength(9);
    expect(asGuest.map((e) => e.target_title)).not.toContain("Hidden");
    expect(await jsonBody(await get("/users/nobody-here/events"), 404)).toEqual({ message: "404 User Not Found" });
    expect(await jsonBody(await get("/users/987654/events"), 404)).toEqual({ message: "404 User Not Found" });
  });

  it("answers [] for a private profile to others than the user and administrators", async () => {
    expect((await send("PUT", `/users/${guest.id}`, { private_profile: true }, s.rootToken)).status).toBe(200);
    expect(await list(`/users/${guest.id}/events`, dev.token)).toEqual([]);
    expect((await list(`/users/${guest.id}/events`, guest.token)).map((e) => e.action_name)).toEqual(["joined"]);
    expect((await list(`/users/${guest.id}/events`)).map((e) => e.action_name)).toEqual(["joined"]);
  });
});

describe("GET /projects/:id/events", () => {
  it("answers the project's events to whoever can read it, confidential ones to Reporters and up", async () => {
    const asDev = await list(`/projects/${project.id}/events?per_page=100`, dev.token);
    expect(asDev).toHaveLength(11);
    expect(asDev[0]).toMatchObject({ action_name: "joined", author_id: guest.id, author_username: guest.username, target_type: null });
    const asGuest = await list(`/projects/${encodeURIComponent(project.path_with_namespace)}/events?per_page=100`, guest.token);
    expect(asGuest.map((e) => e.id)).toEqual(asDev.filter((e) => e.target_title !== "Hidden").map((e) => e.id));
    expect((await list(`/projects/${project.id}/events?target_type=merge_request&sort=asc`, guest.token)).map((e) => e.action_name)).toEqual([
      "opened",
      "accepted",
    ]);
    expect(await jsonBody(await get(`/projects/${project.id}/events`, outsider.token), 404)).toEqual({ message: "404 Project Not Found" });
    expect((await get(`/projects/${project.id}/events`, null)).status).toBe(404);
    expect(secret.iid).toBe(2);
  });
});

describe("GET /user/activities", () => {
  it("lists users active since `from` (default six months); private profiles only to administrators", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const all: Json[] = await list("/user/activities?per_page=100");
    expect(all).toContainEqual({ username: dev.username, last_activity_on: today, last_activity_at: today });
    // The guest's profile is private (above): administrators see it, other users do not.
    expect(all.map((a) => a.username)).toContain(guest.username);
    const asDev: Json[] = await list("/user/activities?per_page=100", dev.token);
    expect(asDev.map((a) => a.username)).toContain(dev.username);
    expect(asDev.map((a) => a.username)).not.toContain(guest.username);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await list(`/user/activities?from=${tomorrow}`)).toEqual([]);
    expect(await list(`/user/activities?from=${today}&per_page=100`)).toContainEqual(expect.objectContaining({ username: dev.username }));
    expect((await get("/user/activities", null)).status).toBe(401);
    expect(await jsonBody(await get("/user/activities?from=never"), 400)).toEqual({ error: "from is invalid" });
  });
});

describe("@gitbeaker/rest", () => {
  it("reads events with Events.all and Users.allEvents, activities with Users.allActivities", async () => {
    const mine = await s.gitlab(dev.token).Events.all({ action: "pushed", perPage: 100 } as never);
    expect(mine.map((e) => (e as Json).push_data.ref).slice(1)).toEqual(["feature", "main"]);
    const ofProject = await s.gitlab(guest.token).Events.all({ projectId: project.id, targetType: "issue", sort: "asc" } as never);
    expect(ofProject.map((e) => [(e as Json).action_name, (e as Json).target_iid])).toEqual([
      ["opened", issue.iid],
      ["closed", issue.iid],
    ]);
    const ofUser = await s.gitlab().Users.allEvents(dev.id, { action: "merged" } as never);
    expect(ofUser.map((e) => (e as Json).target_title)).toEqual(["Add the feature"]);
    const activities = await s.gitlab().Users.allActivities();
    expect(activities.map((a) => (a as Json).username)).toContain(dev.username);
  });
});

describe("wiki pages", () => {
  it("records a page created and updated on one WikiPage::Meta with wiki_page", async () => {
    const wikiProject = await jsonBody(await s.api("/projects", { method: "POST", json: { name: "Wiki events", visibility: "private" } }), 201);
    await jsonBody(await s.api(`/projects/${wikiProject.id}/wikis`, { method: "POST", json: { title: "Home Page", content: "Hello" } }), 201);
    await jsonBody(await s.api(`/projects/${wikiProject.id}/wikis/Home-Page`, { method: "PUT", json: { content: "Hello again" } }), 200);
    const events = await waitFor(
      async () => {
        const got = await list(`/projects/${wikiProject.id}/events?target_type=wiki`);
        return got.length === 2 ? got : undefined;
      },
      { message: "wiki events recorded" },
    );
    expect(events.map((e) => [e.action_name, e.target_type, e.target_title, e.wiki_page])).toEqual([
      ["updated", "WikiPage::Meta", "Home Page", { format: "markdown", slug: "Home-Page", title: "Home Page" }],
      ["created", "WikiPage::Meta", "Home Page", { format: "markdown", slug: "Home-Page", title: "Home Page" }],
    ]);
    expect(events[0].target_id).toBe(events[1].target_id);
    expect(events[0].target_iid).toBe(events[0].target_id);
    expect((await get(`/projects/${wikiProject.id}/events?target_type=wiki`, outsider.token)).status).toBe(404);
    // A deleted project's events are gone, for administrators too.
    expect(await list("/events?target_type=wiki")).toHaveLength(2);
    expect((await s.api(`/projects/${wikiProject.id}`, { method: "DELETE" })).status).toBe(202);
    expect(await list("/events?target_type=wiki")).toEqual([]);
  });
});

describe("confidential issues", () => {
  it("shows a confidential issue's events to its assignees and author below Reporter, not to other Guests", async () => {
    const p = await jsonBody(await send("POST", "/projects", { name: "Confidential events", visibility: "private" }, dev.token), 201);
    for (const u of [guest, outsider]) await jsonBody(await send("POST", `/projects/${p.id}/members`, { user_id: u.id, access_level: 10 }, dev.token), 201);
    await jsonBody(await send("POST", `/projects/${p.id}/issues`, { title: "For the guest", confidential: true, assignee_ids: [guest.id] }, dev.token), 201);
    const issues = async (token: string) => (await list(`/projects/${p.id}/events?target_type=issue`, token)).map((e) => e.target_title);
    await waitFor(async () => (await issues(dev.token)).length === 1, { message: "confidential issue recorded" });
    expect(await issues(guest.token)).toEqual(["For the guest"]);
    expect(await issues(outsider.token)).toEqual([]);
  });
});

describe("merge request approvals", () => {
  it("records an approval as approved on the merge request, by the approver", async () => {
    const p = await jsonBody(await send("POST", "/projects", { name: "Approvals", visibility: "private", initialize_with_readme: true }, dev.token), 201);
    await jsonBody(
      await send(
        "POST",
        `/projects/${p.id}/repository/commits`,
        { branch: "topic", start_branch: "main", commit_message: "Topic", actions: [{ action: "create", file_path: "t.txt", content: "t\n" }] },
        dev.token,
      ),
      201,
    );
    const m = await jsonBody(
      await send("POST", `/projects/${p.id}/merge_requests`, { source_branch: "topic", target_branch: "main", title: "Approve me" }, dev.token),
      201,
    );
    await jsonBody(await send("POST", `/projects/${p.id}/members`, { user_id: outsider.id, access_level: 30 }, dev.token), 201);
    expect((await s.api(`/projects/${p.id}/merge_requests/${m.iid}/approve`, { method: "POST", token: outsider.token })).status).toBe(201);
    const approved = await waitFor(
      async () => {
        const got = await list(`/projects/${p.id}/events?action=approved`, dev.token);
        return got.length ? got : undefined;
      },
      { message: "approval recorded" },
    );
    expect(approved.map((e) => [e.action_name, e.target_type, e.target_iid, e.target_title, e.author_username])).toEqual([
      ["approved", "MergeRequest", m.iid, "Approve me", outsider.username],
    ]);
  });
});
