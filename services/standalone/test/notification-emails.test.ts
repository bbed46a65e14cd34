// Notification e-mails end to end: a real SMTP server (smtp-server) in the test process, the whole
// stack sending through it (QUARRY_SMTP_URL), users with notification settings, issue actions
// through the API, and who received which mail.
import { Subjects, type IssueEvent, type PipelineEvent } from "@quarry/bus";
import { startTestSmtp, type TestSmtp } from "@quarry/hook-service/testing";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { addMember, commitFiles, createMergeRequest, createProject } from "./mr-api.ts";

let s: TestStack;
let smtp: TestSmtp;
const { post, put } = jsonRequests(() => s);
type U = Awaited<ReturnType<typeof createUserWithToken>>;
let author: U;
let assignee: U;
let watcher: U;
let silenced: U;
let outsider: U;
let project: { id: number; name: string; path_with_namespace: string };
const captured: IssueEvent[] = [];

const inbox = () => smtp.mails.map((m) => m.to.join(",")).sort();
const emailOf = (u: U) => `${u.username}@example.com`;

beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestStack(undefined, { smtpUrl: smtp.url });
  author = await createUserWithToken(s);
  assignee = await createUserWithToken(s);
  watcher = await createUserWithToken(s);
  silenced = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  project = await jsonBody(await post("/projects", { name: "mailbox", visibility: "private" }), 201);
  for (const u of [author, assignee, watcher, silenced])
    await jsonBody(await post(`/projects/${project.id}/members`, { user_id: u.id, access_level: 30 }), 201);
  // Project level decides over global: the watcher watches this project only; `silenced` watches
  // everything but disabled this project; the outsider watches everything and is no member.
  await jsonBody(await put(`/projects/${project.id}/notification_settings`, { level: "watch" }, watcher.token), 200);
  await jsonBody(await put("/notification_settings", { level: "watch" }, silenced.token), 200);
  await jsonBody(await put(`/projects/${project.id}/notification_settings`, { level: "disabled" }, silenced.token), 200);
  await jsonBody(await put("/notification_settings", { level: "watch" }, outsider.token), 200);
  await s.bus.subscribe<IssueEvent>(Subjects.issue, async (m) => void captured.push(m.data), { durable: "test-notify-capture", ephemeral: true });
}, 120_000);
afterAll(async () => {
  await s?.destroy();
  await smtp?.close();
});
beforeEach(() => {
  smtp.mails.length = 0;
});

describe("notification e-mails", () => {
  let iid: number;

  it("a new issue mails its assignee (assigned) and the project's watchers, not the author, a disabled or a non-member watcher", async () => {
    const issue = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Printer on fire", assignee_ids: [assignee.id] }, author.token), 201);
    iid = issue.iid;
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(watcher)].sort()));
    const mail = smtp.mails.find((m) => m.to[0] === emailOf(assignee));
    expect(mail?.headers).toMatchObject({
      subject: `mailbox | Printer on fire (#${iid})`,
      "x-gitlab-project": "mailbox",
      "x-gitlab-project-path": project.path_with_namespace,
      "x-gitlab-issue-iid": String(iid),
      "x-gitlab-notificationreason": "assigned",
    });
    expect(mail?.headers.from).toMatch(/^gitlab@/);
    expect(mail?.body).toContain(`${s.url}/${project.path_with_namespace}/-/issues/${iid}`);
  });

  it("closing and reopening mail the participants and watchers, not the actor; a redelivered event mails nobody twice", async () => {
    await jsonBody(await put(`/projects/${project.id}/issues/${iid}`, { state_event: "close" }, assignee.token), 200);
    await waitFor(() => expect(inbox()).toEqual([emailOf(author), emailOf(watcher)].sort()));
    expect(smtp.mails.map((m) => m.headers.subject)).toEqual([`Re: mailbox | Printer on fire (#${iid})`, `Re: mailbox | Printer on fire (#${iid})`]);
    // The bus hands the close event once more; the reopen's mails come after it was handled.
    const close = captured.find((e) => e.object_attributes.iid === iid && e.object_attributes.action === "close");
    expect(close).toBeDefined();
    await s.bus.publish(Subjects.issue, close);
    await jsonBody(await put(`/projects/${project.id}/issues/${iid}`, { state_event: "reopen" }, assignee.token), 200);
    await waitFor(() => expect(smtp.mails).toHaveLength(4));
    expect(smtp.mails.filter((m) => m.body.includes("Issue was closed by"))).toHaveLength(2);
    expect(smtp.mails.filter((m) => m.body.includes("Issue was reopened by"))).toHaveLength(2);
  });

  it("a new merge request mails its assignee (assigned), reviewer (review_requested) and the project's watchers, not the author", async () => {
    const name = `mail-mr-${Date.now().toString(36)}`;
    const repo = await createProject(s, { name });
    for (const u of [author, assignee, watcher, silenced]) await addMember(s, repo.id, u.id, 30);
    await jsonBody(await put(`/projects/${repo.id}/notification_settings`, { level: "watch" }, watcher.token), 200);
    await commitFiles(s, repo.id, "feature", { "f.txt": "one\n" }, { startBranch: "main", token: author.token });
    // `silenced` watches globally and has no setting on this project: the global level decides.
    const mr = await createMergeRequest(
      s,
      repo.id,
      { source_branch: "feature", title: "Add f", assignee_ids: [assignee.id], reviewer_ids: [silenced.id] },
      author.token,
    );
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(watcher), emailOf(silenced)].sort()));
    const reasons = Object.fromEntries(smtp.mails.map((m) => [m.to[0], m.headers["x-gitlab-notificationreason"]]));
    expect(reasons).toEqual({ [emailOf(assignee)]: "assigned", [emailOf(watcher)]: undefined, [emailOf(silenced)]: "review_requested" });
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: `${name} | Add f (!${mr.iid})`, "x-gitlab-mergerequest-iid": String(mr.iid) });
  });
  it("a comment tells the participants and the users it @mentions (mention level, reason mentioned); a later close tells the commenter", async () => {
    const mentionee = await createUserWithToken(s);
    const commenter = await createUserWithToken(s);
    for (const u of [mentionee, commenter]) await jsonBody(await post(`/projects/${project.id}/members`, { user_id: u.id, access_level: 30 }), 201);
    await jsonBody(await put("/notification_settings", { level: "mention" }, mentionee.token), 200);
    await jsonBody(await post(`/projects/${project.id}/issues/${iid}/notes`, { body: `@${mentionee.username} can you look?` }, commenter.token), 201);
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(author), emailOf(mentionee), emailOf(watcher)].sort()));
    const reasons = Object.fromEntries(smtp.mails.map((m) => [m.to[0], m.headers["x-gitlab-notificationreason"]]));
    expect(reasons[emailOf(mentionee)]).toBe("mentioned");
    expect(smtp.mails[0]?.headers.subject).toBe(`Re: mailbox | Printer on fire (#${iid})`);

    smtp.mails.length = 0;
    await jsonBody(await put(`/projects/${project.id}/issues/${iid}`, { state_event: "close" }, author.token), 200);
    // The commenter now participates; the user mentioned at the mention level is not told of the close.
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(commenter), emailOf(watcher)].sort()));
  });

  it("a project path change mails the members whose level takes moved_project, the renamer included (not a disabled one)", async () => {
    const name = `moving-${Date.now().toString(36)}`;
    const moving = await jsonBody(await post("/projects", { name, visibility: "private" }, author.token), 201);
    for (const u of [assignee, watcher, silenced])
      await jsonBody(await post(`/projects/${moving.id}/members`, { user_id: u.id, access_level: 30 }, author.token), 201);
    await jsonBody(await put(`/projects/${moving.id}/notification_settings`, { level: "disabled" }, silenced.token), 200);
    await jsonBody(await put(`/projects/${moving.id}`, { path: `${name}-moved` }, author.token), 200);
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(author), emailOf(watcher)].sort()));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: `${name} | Project was moved`, "x-gitlab-project-id": String(moving.id) });
    expect(smtp.mails[0]?.body).toContain(`Project ${moving.path_with_namespace} was moved to another location`);
    expect(smtp.mails[0]?.body).toContain(`${s.url}/${moving.path_with_namespace}-moved`);
  });
  it("issue_due: collab's scheduler announces an open issue due tomorrow once; its participants are mailed, the author included", async () => {
    const issue = await jsonBody(
      await post(`/projects/${project.id}/issues`, { title: "Renew cert", due_date: "2031-05-02", assignee_ids: [assignee.id] }, author.token),
      201,
    );
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(watcher)].sort()));
    smtp.mails.length = 0;
    expect(await s.issueDueTick(new Date("2031-05-01T00:50:00Z"))).toBe(1);
    expect(await s.issueDueTick(new Date("2031-05-01T12:00:00Z"))).toBe(0);
    // The author and the assignee (participating); the watcher is not told (issue_due is no watcher event).
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(author)].sort()));
    expect(smtp.mails[0]?.headers.subject).toBe(`Re: mailbox | Renew cert (#${issue.iid})`);
    expect(smtp.mails[0]?.body).toContain(`Issue #${issue.iid} is due on: May 2, 2031`);
  });
  it("setting auto-merge mails merge_when_pipeline_succeeds to the participants and watchers, not the user who set it, once", async () => {
    const name = `mail-mwps-${Date.now().toString(36)}`;
    const repo = await createProject(s, { name });
    for (const u of [author, assignee, watcher]) await addMember(s, repo.id, u.id, 40);
    await jsonBody(await put(`/projects/${repo.id}/notification_settings`, { level: "watch" }, watcher.token), 200);
    const commit = await commitFiles(s, repo.id, "feature", { "g.txt": "two\n" }, { startBranch: "main", token: author.token });
    const mr = await createMergeRequest(s, repo.id, { source_branch: "feature", title: "Add g", assignee_ids: [assignee.id] }, author.token);
    const pipeline: PipelineEvent = {
      event_id: `mwps-${repo.id}`,
      object_kind: "pipeline",
      user_id: author.id,
      project_id: repo.id,
      object_attributes: {
        id: 900_000 + repo.id,
        iid: 1,
        ref: "feature",
        sha: commit.id,
        source: "push",
        status: "running",
        created_at: "2026-11-26 05:00:00 UTC",
        updated_at: "2026-11-26 05:00:01 UTC",
      },
      merge_request: null,
      commit: null,
      builds: [],
    };
    await s.bus.publish(Subjects.pipeline, pipeline, { msgId: pipeline.event_id });
    const mrPath = `/projects/${repo.id}/merge_requests/${mr.iid}`;
    // Recorded once a sibling merge request of the same head into a conflicting branch can wait for it
    // (it cannot merge at once): root sets auto-merge there, which the watcher hears of too.
    await commitFiles(s, repo.id, "clash", { "g.txt": "other\n" }, { startBranch: "main" });
    const sibling = await createMergeRequest(s, repo.id, { source_branch: "feature", target_branch: "clash" });
    const siblingPath = `/projects/${repo.id}/merge_requests/${sibling.iid}`;
    await waitFor(async () => (await put(`${siblingPath}/merge`, { merge_when_pipeline_succeeds: true })).status === 200, { message: "pipeline recorded" });
    // The main merge request's new mails, the sibling's new and auto-merge mails to the watcher.
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(watcher), emailOf(watcher), emailOf(watcher)].sort()));
    smtp.mails.length = 0;
    // The assignee sets auto-merge, twice (the second only changes its params).
    for (let i = 0; i < 2; i++)
      expect(await jsonBody(await put(`${mrPath}/merge`, { merge_when_pipeline_succeeds: true }, assignee.token), 200)).toMatchObject({
        merge_when_pipeline_succeeds: true,
      });
    await waitFor(() => expect(inbox()).toEqual([emailOf(author), emailOf(watcher)].sort()));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: `Re: ${name} | Add g (!${mr.iid})`, "x-gitlab-mergerequest-iid": String(mr.iid) });
    expect(smtp.mails[0]?.body).toContain("was scheduled to merge after pipeline succeeds by");
    // A later issue's mails come after anything else auto-merge would have sent.
    await jsonBody(await post(`/projects/${repo.id}/issues`, { title: "Marker", assignee_ids: [assignee.id] }, author.token), 201);
    await waitFor(() => expect(inbox()).toEqual([emailOf(assignee), emailOf(author), emailOf(watcher), emailOf(watcher)].sort()));
  });
});
