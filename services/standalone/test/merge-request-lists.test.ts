// Merge request lists end to end: GET /projects/:id/merge_requests, /groups/:id/merge_requests and
// /merge_requests through plain fetch (statuses, X-Total headers, GitLab's 400 bodies) and gitbeaker.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";
import { addMember, commitFiles, createMergeRequest } from "./mr-api.ts";

let s: TestStack;
let project: { id: number; path_with_namespace: string };
let group: { id: number; full_path: string };
let dev: { id: number; username: string; token: string };
let other: { id: number; username: string; token: string };

/** The iids a list answers, in order. */
const iids = async (path: string, token?: string | null) => ((await jsonBody(await s.api(path, { token }), 200)) as { iid: number }[]).map((m) => m.iid);

beforeAll(async () => {
  s = await startTestStack();
  dev = await createUserWithToken(s);
  other = await createUserWithToken(s);
  group = await jsonBody(
    await s.api("/groups", { method: "POST", json: { name: `mrl${Date.now().toString(36)}`, path: `mrl${Date.now().toString(36)}`, visibility: "public" } }),
    201,
  );
  project = await jsonBody(
    await s.api("/projects", { method: "POST", json: { name: "lists", namespace_id: group.id, visibility: "public", initialize_with_readme: true } }),
    201,
  );
  await jsonBody(await s.api(`/projects/${project.id}/protected_branches/main`, { method: "DELETE" }), 204);
  await addMember(s, project.id, dev.id, 30);
  const milestone = await jsonBody(await s.api(`/projects/${project.id}/milestones`, { method: "POST", json: { title: "v1", due_date: "2099-01-01" } }), 201);
  for (const branch of ["fix", "docs", "chore"]) await commitFiles(s, project.id, branch, { [`${branch}.txt`]: `${branch}\n` }, { startBranch: "main" });
  // !1 by root: labelled bug, assigned to and reviewed by dev, in milestone v1.
  await createMergeRequest(s, project.id, {
    source_branch: "fix",
    title: "Fix the crash",
    description: "in the parser",
    labels: "bug",
    assignee_ids: [dev.id],
    reviewer_ids: [dev.id],
    milestone_id: milestone.id,
  });
  // !2 by dev: a draft about docs.
  await createMergeRequest(s, project.id, { source_branch: "docs", title: "Draft: docs", labels: "docs" }, dev.token);
  // !3 by root, into another target.
  await commitFiles(s, project.id, "stable", { "stable.txt": "s\n" }, { startBranch: "main" });
  await createMergeRequest(s, project.id, { source_branch: "chore", target_branch: "stable", title: "Chore" });
}, 120_000);
afterAll(async () => {
  await s?.destroy();
});

describe("GET /projects/:id/merge_requests", () => {
  it("lists merge request list items newest first, with GitLab's pagination headers", async () => {
    const res = await s.api(`/projects/${project.id}/merge_requests?per_page=2`);
    const page = await jsonBody(res, 200);
    expect(page.map((m: { iid: number }) => m.iid)).toEqual([3, 2]);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-total-pages")).toBe("2");
    expect(res.headers.get("x-next-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("2");
    expect(page[1]).toMatchObject({
      iid: 2,
      project_id: project.id,
      title: "Draft: docs",
      state: "opened",
      draft: true,
      work_in_progress: true,
      author: { username: dev.username },
      labels: ["docs"],
      source_branch: "docs",
      target_branch: "main",
      detailed_merge_status: "draft_status",
      references: { short: "!2", relative: "!2", full: `${project.path_with_namespace}!2` },
      web_url: `${s.url}/${project.path_with_namespace}/-/merge_requests/2`,
    });
    // The list item has no single-view fields.
    expect(page[1]).not.toHaveProperty("diff_refs");
    expect(page[1]).not.toHaveProperty("changes_count");
    expect(await iids(`/projects/${project.id}/merge_requests?page=2&per_page=2`)).toEqual([1]);
  });

  it("applies MergeRequestsFinder's filters", async () => {
    const base = `/projects/${project.id}/merge_requests`;
    expect(await iids(`${base}?iids[]=1&iids[]=3`)).toEqual([3, 1]);
    expect(await iids(`${base}?labels=bug`)).toEqual([1]);
    expect(await iids(`${base}?labels=none`)).toEqual([3]);
    expect(await iids(`${base}?labels=Any&not[labels]=docs`)).toEqual([1]);
    expect(await iids(`${base}?milestone=v1`)).toEqual([1]);
    expect(await iids(`${base}?milestone=None`)).toEqual([3, 2]);
    expect(await iids(`${base}?not[milestone]=v1`)).toEqual([3, 2]);
    expect(await iids(`${base}?assignee_id=None`)).toEqual([3, 2]);
    expect(await iids(`${base}?assignee_id=${dev.id}`)).toEqual([1]);
    expect(await iids(`${base}?assignee_username[]=${dev.username}`)).toEqual([1]);
    expect(await iids(`${base}?reviewer_id=Any`)).toEqual([1]);
    expect(await iids(`${base}?reviewer_username=${dev.username}`)).toEqual([1]);
    expect(await iids(`${base}?reviewer_username=nobody-at-all`)).toEqual([]);
    expect(await iids(`${base}?not[reviewer_id]=${dev.id}`)).toEqual([3, 2]);
    expect(await iids(`${base}?author_username=${dev.username}`)).toEqual([2]);
    expect(await iids(`${base}?not[author_id]=${dev.id}`)).toEqual([3, 1]);
    expect(await iids(`${base}?wip=yes`)).toEqual([2]);
    expect(await iids(`${base}?wip=no`)).toEqual([3, 1]);
    expect(await iids(`${base}?source_branch=docs`)).toEqual([2]);
    expect(await iids(`${base}?target_branch=stable`)).toEqual([3]);
    expect(await iids(`${base}?search=PARSER`)).toEqual([1]);
    expect(await iids(`${base}?search=parser&in=title`)).toEqual([]);
    expect(await iids(`${base}?state=merged`)).toEqual([]);
    expect(await iids(`${base}?state=locked`)).toEqual([]);
    expect(await iids(`${base}?state=opened&order_by=title&sort=asc`)).toEqual([3, 2, 1]);
    expect(await iids(`${base}?created_after=2999-01-01T00:00:00Z`)).toEqual([]);
    expect(await iids(`${base}?updated_before=2999-01-01T00:00:00Z`)).toEqual([3, 2, 1]);
    expect(await iids(`${base}?scope=created_by_me`, dev.token)).toEqual([2]);
    expect(await iids(`${base}?scope=reviews_for_me`, dev.token)).toEqual([1]);
    expect(await iids(`${base}?scope=assigned_to_me`, dev.token)).toEqual([1]);
    // Approvals: none yet; more than five ids are cut to five as GitLab's ByApprovalsFinder does.
    expect(await iids(`${base}?approved_by_ids=None`)).toEqual([3, 2, 1]);
    expect(await iids(`${base}?approved_by_ids=Any`)).toEqual([]);
    expect(await iids(`${base}?approved_by_ids[]=${dev.id}`)).toEqual([]);
    expect(await iids(`${base}?approver_ids=None`)).toEqual([3, 2, 1]);
    // No deployments are recorded for merge requests: deployment filters match nothing; an unreadable time is ignored.
    expect(await iids(`${base}?environment=production`)).toEqual([]);
    expect(await iids(`${base}?deployed_after=2020-01-01T00:00:00Z`)).toEqual([]);
    expect(await iids(`${base}?deployed_after=someday`)).toEqual([3, 2, 1]);
    expect(await iids(`${base}?with_merge_status_recheck=true`)).toEqual([3, 2, 1]);
    // An award by the caller.
    await jsonBody(await s.api(`/projects/${project.id}/merge_requests/3/award_emoji`, { method: "POST", json: { name: "thumbsup" }, token: dev.token }), 201);
    expect(await iids(`${base}?my_reaction_emoji=thumbsup`, dev.token)).toEqual([3]);
    expect(await iids(`${base}?my_reaction_emoji=None`, dev.token)).toEqual([2, 1]);
    expect(await iids(`${base}?not[my_reaction_emoji]=thumbsup`, dev.token)).toEqual([2, 1]);
  });

  it("answers view=simple and with_labels_details", async () => {
    const [simple] = await jsonBody(await s.api(`/projects/${project.id}/merge_requests?view=simple&iids[]=1`), 200);
    expect(simple).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: project.id,
      title: "Fix the crash",
      description: "in the parser",
      state: "opened",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      web_url: `${s.url}/${project.path_with_namespace}/-/merge_requests/1`,
    });
    const [detailed] = await jsonBody(await s.api(`/projects/${project.id}/merge_requests?with_labels_details=true&iids[]=1`), 200);
    expect(detailed.labels).toEqual([expect.objectContaining({ name: "bug", color: expect.any(String), text_color: expect.any(String) })]);
  });

  it("refuses bad parameters with GitLab's 400 bodies", async () => {
    const base = `/projects/${project.id}/merge_requests`;
    const refused = async (query: string) => jsonBody(await s.api(`${base}?${query}`), 400);
    expect(await refused(`author_id=${dev.id}&author_username=${dev.username}`)).toEqual({ error: "author_id, author_username are mutually exclusive" });
    expect(await refused(`merge_user_id=1&merge_user_username=root`)).toEqual({ error: "merge_user_id, merge_user_username are mutually exclusive" });
    expect(await refused(`reviewer_id=1&reviewer_username=root`)).toEqual({ error: "reviewer_id, reviewer_username are mutually exclusive" });
    expect(await refused("order_by=popularity")).toEqual({ error: "order_by does not have a valid value" });
    expect(await refused("state=open")).toEqual({ error: "state does not have a valid value" });
    expect(await refused("wip=maybe")).toEqual({ error: "wip does not have a valid value" });
    expect(await refused("assignee_id=someone")).toEqual({ error: "assignee_id should be an integer, 'None' or 'Any'" });
    expect(await refused("approved_by_ids=5")).toEqual({ error: "approved_by_ids should be an array, 'None' or 'Any'" });
  });
});

describe("GET /groups/:id/merge_requests and /merge_requests", () => {
  it("lists a group's merge requests (subgroups included) with references relative to the group", async () => {
    const sub = await jsonBody(await s.api("/groups", { method: "POST", json: { name: "sub", path: "sub", parent_id: group.id, visibility: "public" } }), 201);
    const inner = await jsonBody(
      await s.api("/projects", { method: "POST", json: { name: "inner", namespace_id: sub.id, visibility: "public", initialize_with_readme: true } }),
      201,
    );
    await commitFiles(s, inner.id, "topic", { "t.txt": "t\n" }, { startBranch: "main" });
    await createMergeRequest(s, inner.id, { source_branch: "topic", title: "Inner change" });
    const res = await s.api(`/groups/${group.id}/merge_requests?order_by=title&sort=asc`);
    const list = await jsonBody(res, 200);
    expect(list.map((m: { title: string }) => m.title)).toEqual(["Chore", "Draft: docs", "Fix the crash", "Inner change"]);
    expect(res.headers.get("x-total")).toBe("4");
    expect(list[0].references.relative).toBe("lists!3");
    expect(list[3].references.relative).toBe(`${inner.path_with_namespace}!1`);
    expect(await jsonBody(await s.api("/groups/999999/merge_requests"), 404)).toEqual({ message: "404 Group Not Found" });
  });

  it("defaults /merge_requests to the caller's own, wants a signed-in caller unless scope=all", async () => {
    expect(await iids("/merge_requests", dev.token)).toEqual([2]);
    expect(await iids("/merge_requests?scope=assigned_to_me", dev.token)).toEqual([1]);
    expect(await iids("/merge_requests", other.token)).toEqual([]);
    expect(await jsonBody(await s.api("/merge_requests", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    const everything = (await jsonBody(await s.api("/merge_requests?scope=all&per_page=100", { token: null }), 200)) as { title: string }[];
    expect(everything.map((m) => m.title)).toEqual(expect.arrayContaining(["Fix the crash", "Draft: docs", "Chore", "Inner change"]));
  });

  it("serves gitbeaker's MergeRequests.all", async () => {
    const api = s.gitlab();
    const opened = await api.MergeRequests.all({ projectId: project.id, state: "opened", orderBy: "created_at", sort: "asc" });
    expect(opened.map((m) => m.iid)).toEqual([1, 2, 3]);
    const drafts = await api.MergeRequests.all({ groupId: group.id, wip: "yes" });
    expect(drafts.map((m) => m.title)).toEqual(["Draft: docs"]);
    const mine = await s.gitlab(dev.token).MergeRequests.all({ scope: "created_by_me" });
    expect(mine.map((m) => m.iid)).toEqual([2]);
  });
});
