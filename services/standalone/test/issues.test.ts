// Issues end to end through the REST API: plain fetch with exact statuses, headers and bodies, and
// @gitbeaker/rest (python-gitlab: python-gitlab.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let priv: { id: number };
let dev: { id: number; token: string };
let guest: { id: number; token: string };
let outsider: { id: number; token: string };

const { post, put } = jsonRequests(() => s);
const iids = async (path: string, token?: string | null) => (await jsonBody(await s.api(path, { token }), 200)).map((i: { iid: number }) => i.iid);

beforeAll(async () => {
  s = await startTestStack();
  group = await jsonBody(await post("/groups", { name: "Tracker", path: "tracker", visibility: "public" }), 201);
  project = await jsonBody(await post("/projects", { name: "app", namespace_id: group.id, visibility: "public" }), 201);
  priv = await jsonBody(await post("/projects", { name: "hidden", namespace_id: group.id, visibility: "private" }), 201);
  dev = await createUserWithToken(s);
  guest = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  await jsonBody(await post(`/projects/${project.id}/members`, { user_id: dev.id, access_level: 30 }), 201);
  await jsonBody(await post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }), 201);
}, 60_000);
afterAll(() => s?.destroy());

describe("issues (fetch)", () => {
  it("creates with GitLab's entity, numbers per project, and reads it back", async () => {
    const m = await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "v1" }), 201);
    const created = await jsonBody(
      await post(`/projects/${project.id}/issues`, {
        title: "First",
        description: "- [x] done\n- [ ] todo",
        labels: "bug,ui",
        milestone_id: m.id,
        assignee_ids: [dev.id],
        due_date: "2030-01-02",
      }),
      201,
    );
    const root = { id: 1, username: "root", name: expect.any(String), state: "active", locked: false, avatar_url: null, web_url: `${s.url}/root` };
    const self = `${s.url}/api/v4/projects/${project.id}/issues/1`;
    expect(created).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: project.id,
      title: "First",
      description: "- [x] done\n- [ ] todo",
      state: "opened",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      closed_at: null,
      closed_by: null,
      labels: ["bug", "ui"],
      milestone: expect.objectContaining({ id: m.id, title: "v1", project_id: project.id }),
      assignees: [expect.objectContaining({ id: dev.id })],
      author: root,
      type: "ISSUE",
      assignee: expect.objectContaining({ id: dev.id }),
      user_notes_count: 0,
      merge_requests_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: "2030-01-02",
      confidential: false,
      discussion_locked: null,
      issue_type: "issue",
      web_url: `${s.url}/${project.path_with_namespace}/-/issues/1`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 2, completed_count: 1 },
      blocking_issues_count: 0,
      has_tasks: true,
      task_status: "1 of 2 checklist items completed",
      _links: {
        self,
        notes: `${self}/notes`,
        award_emoji: `${self}/award_emoji`,
        project: `${s.url}/api/v4/projects/${project.id}`,
        closed_as_duplicate_of: null,
      },
      references: { short: "#1", relative: "#1", full: `${project.path_with_namespace}#1` },
      severity: "UNKNOWN",
      subscribed: false,
      moved_to_id: null,
      imported: false,
      imported_from: "none",
      service_desk_reply_to: null,
    });
    const shown = await jsonBody(await s.api(`/projects/${project.id}/issues/1`), 200);
    expect(shown).toEqual({ ...created, milestone: shown.milestone });
    expect((await jsonBody(await post(`/projects/${encodeURIComponent(project.path_with_namespace)}/issues`, { title: "Second" }, guest.token), 201)).iid).toBe(
      2,
    );
  });

  it("answers GitLab's errors", async () => {
    expect(await jsonBody(await post(`/projects/${project.id}/issues`, {}), 400)).toEqual({ error: "title is missing" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/999`), 404)).toEqual({ message: "404 Issue Not Found" });
    expect(await jsonBody(await s.api(`/projects/${priv.id}/issues`, { token: outsider.token }), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await post(`/projects/${project.id}/issues`, { title: "anon" }, null), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await put(`/projects/${project.id}/issues/1`, {}), 400)).toEqual({
      error:
        "assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type are missing, at least one parameter must be provided",
    });
    expect(await jsonBody(await put(`/projects/${project.id}/issues/1`, { title: "no" }, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/2`, { method: "DELETE", token: dev.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api("/issues", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
  });

  it("updates, closes and reopens; writes label, state and milestone events", async () => {
    const issue = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Events", labels: ["a"] }), 201);
    const url = `/projects/${project.id}/issues/${issue.iid}`;
    const closed = await jsonBody(await put(url, { state_event: "close", add_labels: "b", remove_labels: "a" }), 200);
    expect(closed).toMatchObject({ state: "closed", labels: ["b"], closed_by: { username: "root" } });
    expect(closed.closed_at).toMatch(/^\d{4}-/);
    const reopened = await jsonBody(await put(url, { state_event: "reopen" }, dev.token), 200);
    expect(reopened).toMatchObject({ state: "opened", closed_at: null, closed_by: null });
    const labelEvents = await jsonBody(await s.api(`${url}/resource_label_events`), 200);
    expect(labelEvents.map((e: { action: string; label: { name: string } }) => `${e.action}:${e.label.name}`)).toEqual(["add:a", "add:b", "remove:a"]);
    expect(labelEvents[0]).toEqual({
      id: expect.any(Number),
      user: expect.objectContaining({ username: "root" }),
      created_at: expect.any(String),
      resource_type: "Issue",
      resource_id: issue.id,
      label: expect.objectContaining({ name: "a", color: "#6699cc" }),
      action: "add",
    });
    const states = await jsonBody(await s.api(`${url}/resource_state_events`), 200);
    expect(states.map((e: { state: string }) => e.state)).toEqual(["closed", "reopened"]);
    expect(await jsonBody(await s.api(`${url}/resource_state_events/${states[1].id}`), 200)).toMatchObject({ state: "reopened", resource_type: "Issue" });
    expect(await jsonBody(await s.api(`${url}/resource_state_events/999999`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(`${url}/resource_milestone_events`), 200)).toEqual([]);
  });

  it("hides confidential issues and filters lists; paginates with X-Total and keyset Link headers", async () => {
    const secret = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Secret", confidential: true }, guest.token), 201);
    await jsonBody(await post(`/projects/${priv.id}/issues`, { title: "Private one" }), 201);
    const all = await iids(`/projects/${project.id}/issues`);
    expect(all).toContain(secret.iid);
    expect(await iids(`/projects/${project.id}/issues`, null)).not.toContain(secret.iid);
    expect(await iids(`/projects/${project.id}/issues`, outsider.token)).not.toContain(secret.iid);
    expect(await iids(`/projects/${project.id}/issues`, guest.token)).toContain(secret.iid);
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/${secret.iid}`, { token: outsider.token }), 404)).toEqual({
      message: "404 Issue Not Found",
    });
    const groupTitles = (await jsonBody(await s.api(`/groups/${group.id}/issues?scope=all`, { token: outsider.token }), 200)).map(
      (i: { title: string }) => i.title,
    );
    expect(groupTitles).not.toContain("Secret");
    expect(groupTitles).not.toContain("Private one");
    const groupAsRoot = await jsonBody(await s.api(`/groups/${group.id}/issues?search=Private`), 200);
    expect(groupAsRoot.map((i: { references: unknown }) => i.references)).toEqual([{ short: "#1", relative: "hidden#1", full: "tracker/hidden#1" }]);
    expect(await iids(`/projects/${project.id}/issues?labels=bug&state=opened`)).toEqual([1]);
    expect(await iids(`/projects/${project.id}/issues?not[labels]=bug&search=First`)).toEqual([]);
    expect(await iids(`/projects/${project.id}/issues?milestone=v1`)).toEqual([1]);
    expect(await iids(`/projects/${project.id}/issues?assignee_username[]=${(await jsonBody(await s.api(`/users/${dev.id}`), 200)).username}`)).toEqual([1]);
    expect(await iids(`/projects/${project.id}/issues?confidential=true`)).toEqual([secret.iid]);
    expect(await iids(`/projects/${project.id}/issues?iids[]=1&iids[]=2&sort=asc`)).toEqual([1, 2]);
    expect(await iids("/issues", guest.token)).toEqual([secret.iid, 2]);
    const anonymousEverywhere = (await jsonBody(await s.api("/issues?scope=all", { token: null }), 200)).map((i: { title: string }) => i.title);
    expect(anonymousEverywhere).toContain("First");
    expect(anonymousEverywhere).not.toContain("Secret");
    expect(anonymousEverywhere).not.toContain("Private one");
    expect(await iids("/issues?scope=assigned_to_me", dev.token)).toEqual([1]);

    const page = await s.api(`/projects/${project.id}/issues?per_page=2&page=1`);
    expect(page.headers.get("x-total")).toBe(String(all.length));
    expect(page.headers.get("x-per-page")).toBe("2");
    expect(page.headers.get("x-next-page")).toBe("2");
    const first = await s.api(`/projects/${project.id}/issues?pagination=keyset&per_page=2`);
    const firstPage = await jsonBody(first, 200);
    expect(firstPage.map((i: { iid: number }) => i.iid)).toEqual(all.slice(0, 2));
    const link = first.headers.get("link") ?? "";
    expect(link).toMatch(/rel="next"/);
    const next = new URL(/<([^>]+)>/.exec(link)![1]!);
    expect(next.searchParams.get("cursor")).toBeTruthy();
    const second = await jsonBody(await s.api(`${next.pathname.replace("/api/v4", "")}${next.search}`), 200);
    expect(second.map((i: { iid: number }) => i.iid)).toEqual(all.slice(2, 4));
    // Other orders fall back to offset pages, as GitLab drops `pagination` for them.
    const byTitle = await s.api(`/projects/${project.id}/issues?pagination=keyset&order_by=title&per_page=1`);
    expect(byTitle.status).toBe(200);
    expect(byTitle.headers.get("x-total")).toBe(String(all.length));
    await byTitle.text();
  });

  it("shows label details on request, clears the milestone with null, lets assignees read confidential issues", async () => {
    const ms = await jsonBody(await post(`/projects/${project.id}/milestones`, { title: "to-clear" }), 201);
    const issue = await jsonBody(
      await post(`/projects/${project.id}/issues`, {
        title: "Detailed",
        labels: ["detail"],
        milestone_id: ms.id,
        confidential: true,
        assignee_id: outsider.id,
      }),
      201,
    );
    // An outsider of a public project can read it, so they stay assigned and see the confidential issue.
    expect(issue.assignees.map((a: { id: number }) => a.id)).toEqual([outsider.id]);
    expect((await jsonBody(await s.api(`/projects/${project.id}/issues/${issue.iid}`, { token: outsider.token }), 200)).title).toBe("Detailed");
    const detailed = await jsonBody(await s.api(`/projects/${project.id}/issues?with_labels_details=true&iids[]=${issue.iid}`), 200);
    expect(detailed[0].labels).toEqual([
      { id: expect.any(Number), name: "detail", color: "#6699cc", description: null, description_html: "", text_color: "#FFFFFF" },
    ]);
    const cleared = await jsonBody(await put(`/projects/${project.id}/issues/${issue.iid}`, { milestone_id: null, assignee_ids: [] }), 200);
    expect(cleared).toMatchObject({ milestone: null, assignees: [], assignee: null });
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/${issue.iid}`, { token: outsider.token }), 404)).toEqual({
      message: "404 Issue Not Found",
    });
    const events = await jsonBody(await s.api(`/projects/${project.id}/issues/${issue.iid}/resource_milestone_events`), 200);
    expect(events.map((e: { action: string; milestone: { title: string }; state: string }) => [e.action, e.milestone.title, e.state])).toEqual([
      ["add", "to-clear", "opened"],
      ["remove", "to-clear", "opened"],
    ]);
  });

  it("counts a label's issues for the caller with with_counts", async () => {
    await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Counted secret", labels: "counted", confidential: true }), 201);
    const closedOne = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Counted", labels: "counted" }), 201);
    await jsonBody(await put(`/projects/${project.id}/issues/${closedOne.iid}`, { state_event: "close" }), 200);
    const counted = async (token?: string | null) =>
      (await jsonBody(await s.api(`/projects/${project.id}/labels?with_counts=true&search=counted`, { token }), 200)).map(
        (l: { open_issues_count: number; closed_issues_count: number }) => [l.open_issues_count, l.closed_issues_count],
      );
    expect(await counted()).toEqual([[1, 1]]);
    expect(await counted(outsider.token)).toEqual([[0, 1]]);
  });

  it("lists a milestone's issues and deletes issues as an Owner", async () => {
    const ms = await jsonBody(await s.api(`/projects/${project.id}/milestones?title=v1`), 200);
    expect(await iids(`/projects/${project.id}/milestones/${ms[0].id}/issues`)).toEqual([1]);
    expect(await jsonBody(await s.api(`/projects/${project.id}/milestones/999999/issues`), 404)).toEqual({ message: "404 Not found" });
    const gm = await jsonBody(await post(`/groups/${group.id}/milestones`, { title: "group-wide" }), 201);
    const onGroupMilestone = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "On group milestone", milestone_id: gm.id }), 201);
    expect(await iids(`/groups/${group.id}/milestones/${gm.id}/issues`)).toEqual([onGroupMilestone.iid]);
    const doomed = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Doomed" }), 201);
    expect((await s.api(`/projects/${project.id}/issues/${doomed.iid}`, { method: "DELETE" })).status).toBe(204);
    expect(await jsonBody(await s.api(`/projects/${project.id}/issues/${doomed.iid}`), 404)).toEqual({ message: "404 Issue Not Found" });
    expect((await jsonBody(await s.api(`/projects/${project.id}`), 200)).issues_enabled).toBe(true);
  });
});

describe("system notes (fetch)", () => {
  it("records title, description and confidentiality changes as system notes, not label or state changes, and user_notes_count leaves them out", async () => {
    const target = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Target" }), 201);
    const issue = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Old title" }), 201);
    await jsonBody(
      await put(`/projects/${project.id}/issues/${issue.iid}`, { title: "New title", description: `blocks #${target.iid}`, labels: "x", state_event: "close" }),
      200,
    );
    const notes = await jsonBody(await s.api(`/projects/${project.id}/issues/${issue.iid}/notes?sort=asc`), 200);
    expect(notes.map((n: { body: string; system: boolean }) => [n.body, n.system])).toEqual([
      ["changed title from **{-Old-} title** to **{+New+} title**", true],
      ["changed the description", true],
    ]);
    const mentioned = await jsonBody(await s.api(`/projects/${project.id}/issues/${target.iid}/notes`), 200);
    expect(mentioned.map((n: { body: string }) => n.body)).toEqual([`mentioned in #${issue.iid}`]);
    expect((await jsonBody(await s.api(`/projects/${project.id}/issues/${issue.iid}`), 200)).user_notes_count).toBe(0);
  });
});

describe("@gitbeaker/rest", () => {
  it("creates, lists, shows, edits and removes issues; reads label and state events", async () => {
    const api = s.gitlab();
    const created = await api.Issues.create(project.id, "From gitbeaker", { labels: "gb", description: "hi" });
    expect(created).toMatchObject({ title: "From gitbeaker", labels: ["gb"], state: "opened" });
    const listed = await api.Issues.all({ projectId: project.id, labels: "gb" });
    expect(listed.map((i) => i.iid)).toEqual([created.iid]);
    const shown = await api.Issues.show(created.iid as number, { projectId: project.id });
    expect(shown.title).toBe("From gitbeaker");
    const edited = await api.Issues.edit(project.id, created.iid as number, { stateEvent: "close", title: "Renamed" });
    expect(edited).toMatchObject({ state: "closed", title: "Renamed" });
    const events = await api.IssueLabelEvents.all(project.id, created.iid as number);
    expect(events.map((e) => e.action)).toEqual(["add"]);
    const one = await api.IssueLabelEvents.show(project.id, created.iid as number, events[0]!.id as number);
    expect(one.id).toBe(events[0]!.id);
    const gbMilestone = await api.ProjectMilestones.create(project.id, "gitbeaker-ms");
    await api.Issues.edit(project.id, created.iid as number, { milestoneId: gbMilestone.id as number });
    const msEvents = await api.IssueMilestoneEvents.all(project.id, created.iid as number);
    expect(msEvents.map((e) => [e.action, (e.milestone as { title: string }).title])).toEqual([["add", "gitbeaker-ms"]]);
    const states = await api.IssueStateEvents.all(project.id, created.iid as number);
    expect(states.map((e) => e.state)).toEqual(["closed"]);
    const inGroup = await api.Issues.all({ groupId: group.id, search: "Renamed" });
    expect(inGroup.map((i) => i.id)).toEqual([created.id]);
    await api.Issues.remove(project.id, created.iid as number);
    await expect(api.Issues.show(created.iid as number, { projectId: project.id })).rejects.toThrow();
  });
});
