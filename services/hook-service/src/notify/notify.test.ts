// Notification e-mails of issue events: real bus (in-process), PostgreSQL and SMTP server
// (smtp-server); identity-service is stubbed with members and resolved settings.
import { randomUUID } from "node:crypto";
import {
  type EmailConfirmationEvent,
  type IssueEvent,
  type MergeRequestEvent,
  type NoteEvent,
  type NotificationEvent,
  type PipelineEvent,
  type ProjectRenameEvent,
  Subjects,
} from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { startFixture, type Fixture } from "../test-fixture.ts";
import { createNotifier, handleNotifyMessage } from "./notify.ts";
import { startTestSmtp, type TestSmtp } from "./test-smtp.ts";

const PROJECT = { id: 9, name: "Proj", pathWithNamespace: "g/proj", visibility: "private", namespace: { name: "G" } };
const user = (id: number, name: string) => ({ id, name, username: name.toLowerCase() });
const USERS = [
  user(1, "Author"),
  user(2, "Assignee"),
  user(3, "Watcher"),
  user(4, "Bystander"),
  user(5, "Custom"),
  user(6, "Off"),
  user(7, "Outsider"),
  user(8, "Mentionee"),
  user(9, "Commenter"),
];
/** Members (not 7) and their effective settings as identity resolves them. */
const MEMBERS = [1, 2, 3, 4, 5, 6, 8, 9];
const LEVELS: Record<number, { level: string; events?: Record<string, boolean> }> = {
  1: { level: "watch" },
  2: { level: "participating" },
  3: { level: "watch" },
  4: { level: "participating" },
  5: { level: "custom", events: { newIssue: true, approver: true } },
  6: { level: "disabled" },
  7: { level: "watch" },
  8: { level: "mention" },
  9: { level: "participating" },
};
const email = (id: number) => `u${id}@mail.test`;

function issueEvent(action: IssueEvent["object_attributes"]["action"], o: Partial<IssueEvent> = {}): IssueEvent {
  return {
    event_id: randomUUID(),
    event_name: "issue",
    object_kind: "issue",
    event_type: "issue",
    user_id: 1,
    project_id: 9,
    object_attributes: {
      id: 40,
      iid: 4,
      title: "Crash on start",
      description: "It crashes.",
      author_id: 1,
      confidential: false,
      url: "/g/proj/-/issues/4",
      action,
    },
    labels: [],
    changes: {},
    assignee_ids: [2],
    ...o,
  };
}

const received = (smtp: TestSmtp) => smtp.mails.map((m) => m.to.join(",")).sort();

describe("notification e-mails", () => {
  let f: Fixture;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    f = await startFixture("hook_notify", { smtpUrl: smtp.url });
    const gone = () => Promise.reject(Object.assign(new Error("5 NOT_FOUND"), { code: 5 }));
    const deps = f.svc.deps as { identity: HookDeps["identity"] };
    deps.identity = {
      ...deps.identity,
      GetGroupAncestors: async () => ({ groupIds: [] }),
      GetProject: async (req: { idOrPath: string }) => (req.idOrPath === "9" ? PROJECT : gone()),
      GetUsers: async (req: { ids: number[] }) => ({ users: USERS.filter((u) => req.ids.map(Number).includes(u.id)) }),
      ListMembers: async () => ({ members: MEMBERS.map((id) => ({ user: USERS[id - 1], accessLevel: 30 })) }),
      ResolveNotificationSettings: async (req: { userIds: number[]; projectId: number }) => ({
        settings: req.userIds
          .map(Number)
          .map((id) => ({ userId: id, level: LEVELS[id]?.level, events: LEVELS[id]?.events ?? {}, notificationEmail: email(id) })),
      }),
    } as unknown as HookDeps["identity"];
  });
  afterAll(async () => {
    await f?.stop();
    await smtp?.close();
  });
  beforeEach(() => {
    f.svc.deps.collab = undefined;
    smtp.mails.length = 0;
    smtp.failing = false;
    smtp.refused = 0;
  });

  it("a new issue mails assignees (reason assigned), watchers and custom members, not the author, GitLab's subject and headers", async () => {
    await f.bus.publish(Subjects.issue, issueEvent("open"));
    await waitFor(() => expect(smtp.mails).toHaveLength(3));
    expect(received(smtp)).toEqual([email(2), email(3), email(5)]);
    const toAssignee = smtp.mails.find((m) => m.to[0] === email(2));
    expect(toAssignee?.headers).toMatchObject({
      subject: "Proj | Crash on start (#4)",
      from: "gitlab@quarry.test",
      "x-gitlab-project": "Proj",
      "x-gitlab-project-id": "9",
      "x-gitlab-project-path": "g/proj",
      "x-gitlab-issue-iid": "4",
      "x-gitlab-notificationreason": "assigned",
    });
    expect(toAssignee?.body).toContain("Author created an issue:\n\nhttps://quarry.test/g/proj/-/issues/4");
    expect(smtp.mails.find((m) => m.to[0] === email(3))?.headers["x-gitlab-notificationreason"]).toBeUndefined();
  });

  it("a redelivered event mails nobody twice", async () => {
    const event = issueEvent("close", { user_id: 3 });
    await f.bus.publish(Subjects.issue, event);
    await waitFor(() => expect(smtp.mails).toHaveLength(2));
    // The bus hands the same event again (a redelivery), and the handler runs once more directly.
    await f.bus.publish(Subjects.issue, event);
    const notifier = createNotifier(smtp.url, "gitlab@quarry.test");
    expect(await handleNotifyMessage(f.svc.deps, notifier, { subject: Subjects.issue, id: "again", data: event } as never)).toBe(0);
    // A later event's mails arrive after the redelivery was handled.
    await f.bus.publish(Subjects.issue, issueEvent("reopen", { user_id: 3 }));
    await waitFor(() => expect(smtp.mails).toHaveLength(4));
    expect(smtp.mails.map((m) => m.headers.subject)).toEqual([
      "Re: Proj | Crash on start (#4)",
      "Re: Proj | Crash on start (#4)",
      "Re: Proj | Crash on start (#4)",
      "Re: Proj | Crash on start (#4)",
    ]);
    // Closed by the watcher: the author (watch) and the assignee (participant) are told, twice in all.
    expect(received(smtp)).toEqual([email(1), email(1), email(2), email(2)]);
    expect(smtp.mails[0]?.body).toContain("Issue was closed by Watcher");
    expect(smtp.mails[2]?.body).toContain("Issue was reopened by Watcher");
  });

  it("re-assignment tells the old and new assignees; a refused mail is retried until the server accepts it", async () => {
    smtp.failing = true;
    await f.bus.publish(Subjects.issue, issueEvent("update", { user_id: 1, assignee_ids: [4], changes: { assignees: { previous: [2], current: [4] } } }));
    await waitFor(() => expect(smtp.refused).toBeGreaterThan(0));
    expect(await f.svc.deps.prisma.notificationDelivery.count({ where: { state: "pending" } })).toBeGreaterThan(0);
    smtp.failing = false;
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(3), email(4)]));
    const toNew = smtp.mails.find((m) => m.to[0] === email(4));
    expect(toNew?.headers["x-gitlab-notificationreason"]).toBe("assigned");
    expect(toNew?.body).toContain("Assignee changed from Assignee to Bystander");
    // The last mail is marked sent just after the server accepted it.
    await waitFor(async () => expect(await f.svc.deps.prisma.notificationDelivery.count({ where: { state: "pending" } })).toBe(0));
  });

  it("title edits and other updates mail nobody", async () => {
    await f.bus.publish(Subjects.issue, issueEvent("update", { changes: { title: { previous: "a", current: "b" } } }));
    await f.bus.publish(Subjects.issue, issueEvent("reopen", { user_id: 1, event_id: "marker" }));
    await waitFor(() => expect(smtp.mails).toHaveLength(2));
    expect(received(smtp)).toEqual([email(2), email(3)]);
  });

  it("a comment on an issue mails participants and watchers with the note and its URL; internal notes and edits reach no watcher", async () => {
    const note = (o: { action?: "create" | "update"; internal?: boolean; user?: number }): NoteEvent => ({
      event_id: randomUUID(),
      event_name: "note",
      object_kind: "note",
      event_type: o.internal ? "confidential_note" : "note",
      user_id: o.user ?? 4,
      project_id: 9,
      object_attributes: { id: 70, note: "Same here.", noteable_type: "Issue", system: false, url: "/g/proj/-/issues/4#note_70", action: o.action ?? "create" },
      issue: { id: 40, iid: 4, title: "Crash on start", author_id: 1, assignee_ids: [2], confidential: false, url: "/g/proj/-/issues/4" },
    });
    await f.bus.publish(Subjects.note, note({ action: "update" }));
    await f.bus.publish(Subjects.note, note({}));
    await waitFor(() => expect(received(smtp)).toEqual([email(1), email(2), email(3)]));
    expect(smtp.mails[0]?.headers.subject).toBe("Re: Proj | Crash on start (#4)");
    expect(smtp.mails[0]?.body).toContain("Bystander commented:\n\nSame here.\n\nhttps://quarry.test/g/proj/-/issues/4#note_70");
    smtp.mails.length = 0;
    // Internal: the participants (all Developers here) only, not the watcher 3.
    await f.bus.publish(Subjects.note, note({ internal: true }));
    await waitFor(() => expect(received(smtp)).toEqual([email(1), email(2)]));
    // Events are handled in order: once a later close is mailed, the internal note's mails are all out.
    await f.bus.publish(Subjects.issue, issueEvent("close", { user_id: 1 }));
    await waitFor(() => expect(received(smtp)).toEqual([email(1), email(2), email(2), email(3)]));
  });

  it("merge requests: new (assignees and reviewers with their reasons), pushes (no watchers), reviewer changes and merges", async () => {
    const mrEvent = (
      action: MergeRequestEvent["object_attributes"]["action"],
      o: Partial<MergeRequestEvent> & { oldrev?: string } = {},
    ): MergeRequestEvent => ({
      event_id: randomUUID(),
      event_name: "merge_request",
      object_kind: "merge_request",
      event_type: "merge_request",
      user_id: 1,
      project_id: 9,
      object_attributes: {
        id: 80,
        iid: 8,
        title: "Add cache",
        description: "Faster.",
        author_id: 1,
        source_branch: "cache",
        target_branch: "main",
        url: "/g/proj/-/merge_requests/8",
        action,
        ...(o.oldrev ? { oldrev: o.oldrev } : {}),
      },
      labels: [],
      changes: {},
      assignee_ids: [2],
      reviewer_ids: [4],
      ci: { head_sha: "", diff_base_sha: "", title: "", description: "", labels: [], assignee_usernames: [], milestone_title: null, draft: false },
      ...o,
    });
    await f.bus.publish(Subjects.mergeRequest, mrEvent("open"));
    // 5 is an eligible approver (a Developer) with the custom approver switch on (EE's approver event).
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(3), email(4), email(5)]));
    const reasons = Object.fromEntries(smtp.mails.map((m) => [m.to[0], m.headers["x-gitlab-notificationreason"]]));
    expect(reasons).toEqual({ [email(2)]: "assigned", [email(3)]: undefined, [email(4)]: "review_requested", [email(5)]: undefined });
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: "Proj | Add cache (!8)", "x-gitlab-mergerequest-iid": "8", "x-gitlab-mergerequest-id": "80" });
    expect(smtp.mails[0]?.body).toContain(
      "Author created a merge request:\n\nhttps://quarry.test/g/proj/-/merge_requests/8\n\n* Source Branch: cache\n* Target Branch: main",
    );

    smtp.mails.length = 0;
    await f.bus.publish(Subjects.mergeRequest, mrEvent("update", { oldrev: "a".repeat(40) }));
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(4)]));
    expect(smtp.mails[0]?.body).toContain("Author pushed new commits to merge request !8");

    smtp.mails.length = 0;
    await f.bus.publish(Subjects.mergeRequest, mrEvent("update", { reviewer_ids: [5], changes: { reviewers: { previous: [4], current: [5] } } }));
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(3), email(4), email(5)]));
    expect(smtp.mails.find((m) => m.to[0] === email(5))?.headers["x-gitlab-notificationreason"]).toBe("review_requested");
    expect(smtp.mails[0]?.body).toContain("Reviewer changed from Bystander to Custom");

    smtp.mails.length = 0;
    await f.bus.publish(Subjects.mergeRequest, mrEvent("merge"));
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(3), email(4)]));
    expect(smtp.mails[0]?.headers.subject).toBe("Re: Proj | Add cache (!8)");
    expect(smtp.mails[0]?.body).toContain("Merge request https://quarry.test/g/proj/-/merge_requests/8 was merged");
  });

  it("finished pipelines mail their user alone: failed, fixed after a failure, success never at the participating level", async () => {
    let next = 100;
    const pipeline = (status: string, user = 2, id = next++): PipelineEvent => ({
      event_id: randomUUID(),
      object_kind: "pipeline",
      user_id: user,
      project_id: 9,
      object_attributes: { id, iid: id, ref: "main", sha: "abcdef0123456789", source: "push", status, url: `/g/proj/-/pipelines/${id}` },
      merge_request: null,
      commit: null,
      builds: [],
    });
    await f.bus.publish(Subjects.pipeline, pipeline("running"));
    await f.bus.publish(Subjects.pipeline, pipeline("failed"));
    await waitFor(() => expect(received(smtp)).toEqual([email(2)]));
    expect(smtp.mails[0]?.headers).toMatchObject({
      subject: "Proj | Failed pipeline for main | abcdef01",
      "x-gitlab-pipeline-id": "101",
      "x-gitlab-pipeline-ref": "main",
      "x-gitlab-pipeline-status": "failed",
    });
    expect(smtp.mails[0]?.body).toContain("Your pipeline has failed.");
    const fixed = pipeline("success");
    await f.bus.publish(Subjects.pipeline, fixed);
    await waitFor(() => expect(smtp.mails).toHaveLength(2));
    expect(smtp.mails[1]?.headers.subject).toBe("Proj | Fixed pipeline for main | abcdef01");
    // A redelivery of the fixed pipeline, a plain success (excluded for participating), then a
    // custom member's failure (failed_pipeline is on by default): one more mail, to 5.
    await f.bus.publish(Subjects.pipeline, fixed);
    await f.bus.publish(Subjects.pipeline, pipeline("success"));
    await f.bus.publish(Subjects.pipeline, pipeline("failed", 5));
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(2), email(5)]));
  });
  it("comments on merge requests (reviewers are participants) and on project snippets are mailed with their references and headers", async () => {
    const note = (target: Partial<NoteEvent>, user: number): NoteEvent => ({
      event_id: randomUUID(),
      event_name: "note",
      object_kind: "note",
      event_type: "note",
      user_id: user,
      project_id: 9,
      object_attributes: { id: 71, note: "Nice.", system: false, url: "/g/proj/-/x#note_71", action: "create" },
      ...target,
    });
    const mr = { id: 80, iid: 8, title: "Add cache", author_id: 1, assignee_ids: [2], reviewer_ids: [4], url: "/g/proj/-/merge_requests/8" };
    await f.bus.publish(Subjects.note, note({ merge_request: mr }, 5));
    await waitFor(() => expect(received(smtp)).toEqual([email(1), email(2), email(3), email(4)]));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: "Re: Proj | Add cache (!8)", "x-gitlab-mergerequest-id": "80", "x-gitlab-mergerequest-iid": "8" });
    expect(smtp.mails[0]?.body).toContain("Custom commented:\n\nNice.\n\nhttps://quarry.test/g/proj/-/x#note_71");

    smtp.mails.length = 0;
    const snippet = { id: 12, title: "Snip", author_id: 4, visibility_level: 0, type: "ProjectSnippet", url: "/g/proj/-/snippets/12" };
    await f.bus.publish(Subjects.note, note({ snippet }, 1));
    // The author (participating) and the watcher; the acting user (a watcher) is not told.
    await waitFor(() => expect(received(smtp)).toEqual([email(3), email(4)]));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: "Re: Proj | Snip ($12)", "x-gitlab-projectsnippet-id": "12" });
    expect(smtp.mails[0]?.headers["x-gitlab-projectsnippet-iid"]).toBeUndefined();
  });

  it("commenters and @mentioned users are participants (collab-service's ListNoteableParticipants); mentioned users are told with reason mentioned, mention level included", async () => {
    const asked: { noteableType: string; noteableId: number; noteId: number }[] = [];
    f.svc.deps.collab = {
      ListNoteableParticipants: async (req: { noteableType: string; noteableId: number; noteId: number }) => {
        asked.push({ noteableType: req.noteableType, noteableId: Number(req.noteableId), noteId: Number(req.noteId) });
        // Author, assignee, commenters 9 and 6, users mentioned somewhere: 8 and the outsider 7.
        return { userIds: [1, 2, 9, 6, 8, 7], mentionedUserIds: Number(req.noteId) ? [8, 7] : [] };
      },
    } as unknown as HookDeps["collab"];
    const note: NoteEvent = {
      event_id: randomUUID(),
      event_name: "note",
      object_kind: "note",
      event_type: "note",
      user_id: 4,
      project_id: 9,
      object_attributes: { id: 75, note: "@mentionee @outsider see this", system: false, url: "/g/proj/-/issues/4#note_75", action: "create" },
      issue: { id: 40, iid: 4, title: "Crash on start", author_id: 1, assignee_ids: [2], confidential: false, url: "/g/proj/-/issues/4" },
    };
    await f.bus.publish(Subjects.note, note);
    // 1 and 3 watch, 2 and 9 participate, 8 (mention level) is mentioned; 6 is disabled, 7 no member of the private project.
    await waitFor(() => expect(received(smtp)).toEqual([email(1), email(2), email(3), email(8), email(9)]));
    expect(asked).toEqual([{ noteableType: "Issue", noteableId: 40, noteId: 75 }]);
    const reasons = Object.fromEntries(smtp.mails.map((m) => [m.to[0], m.headers["x-gitlab-notificationreason"]]));
    expect(reasons[email(8)]).toBe("mentioned");
    expect(reasons[email(9)]).toBeUndefined();

    // Closing: the commenter participates; the user mentioned earlier (mention level) is not told again.
    smtp.mails.length = 0;
    await f.bus.publish(Subjects.issue, issueEvent("close", { user_id: 1 }));
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(3), email(9)]));
  });
  it("merge_when_pipeline_succeeds tells the merge request's participants and watchers; issue_due tells participants, the author included, no watchers", async () => {
    const mr = { id: 80, iid: 8, title: "Add cache", author_id: 1, assignee_ids: [2], reviewer_ids: [4], url: "/g/proj/-/merge_requests/8" };
    const mwps: NotificationEvent = {
      event_id: randomUUID(),
      event_name: "notification",
      object_kind: "notification",
      action: "merge_when_pipeline_succeeds",
      user_id: 1,
      project_id: 9,
      merge_request: mr,
    };
    await f.bus.publish(Subjects.notification, mwps);
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(3), email(4)]));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: "Re: Proj | Add cache (!8)", "x-gitlab-mergerequest-iid": "8" });
    expect(smtp.mails[0]?.body).toContain(
      "Merge request https://quarry.test/g/proj/-/merge_requests/8 was scheduled to merge after pipeline succeeds by Author",
    );

    smtp.mails.length = 0;
    const due: NotificationEvent = {
      event_id: randomUUID(),
      event_name: "notification",
      object_kind: "notification",
      action: "issue_due",
      user_id: 0,
      project_id: 9,
      issue: {
        id: 40,
        iid: 4,
        title: "Crash on start",
        author_id: 4,
        assignee_ids: [2],
        confidential: false,
        due_date: "2026-11-27",
        url: "/g/proj/-/issues/4",
      },
    };
    await f.bus.publish(Subjects.notification, due);
    // The author 4 and the assignee 2; not the watchers 1 and 3 (issue_due is no watcher event, GitLab's excluded_watcher_action?).
    await waitFor(() => expect(received(smtp)).toEqual([email(2), email(4)]));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: "Re: Proj | Crash on start (#4)", "x-gitlab-issue-iid": "4" });
    expect(smtp.mails[0]?.body).toContain("Issue #4 is due on: Nov 27, 2026");
  });
  it("a moved project mails its members (the renamer too) whose level takes moved_project: watch, participating, custom (on by default)", async () => {
    const moved: ProjectRenameEvent = {
      event_id: randomUUID(),
      event_name: "project_rename",
      created_at: "2026-11-26T08:00:00.000Z",
      updated_at: "2026-11-26T08:00:00.000Z",
      project_id: 9,
      name: "Proj",
      path: "proj2",
      path_with_namespace: "g/proj2",
      project_visibility: "private",
      owner_name: "G",
      owner_email: "",
      owners: [],
      old_path_with_namespace: "g/proj",
    };
    await f.bus.publish(Subjects.projectRename, moved);
    // Not 6 (disabled) nor 8 (mention); 7 is no member.
    await waitFor(() => expect(received(smtp)).toEqual([email(1), email(2), email(3), email(4), email(5), email(9)]));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: "Proj | Project was moved", "x-gitlab-project-path": "g/proj2", "x-gitlab-project-id": "9" });
    expect(smtp.mails[0]?.body).toContain("Project g/proj was moved to another location\n\nThe project is now located under\nhttps://quarry.test/g/proj2");
    // Redelivered: nobody twice.
    const notifier = createNotifier(smtp.url, "gitlab@quarry.test");
    expect(await handleNotifyMessage(f.svc.deps, notifier, { subject: Subjects.projectRename, id: "again", data: moved } as never)).toBe(0);
  });
  it("an e-mail confirmation mails the link to the address being confirmed, once", async () => {
    const confirmation: EmailConfirmationEvent = {
      event_id: randomUUID(),
      event_name: "email_confirmation",
      created_at: "2026-11-26T08:00:00.000Z",
      updated_at: "2026-11-26T08:00:00.000Z",
      user_id: 3,
      name: "Watcher",
      username: "watcher",
      email: "second@mail.test",
      confirmation_token: "tok+en/1",
    };
    await f.bus.publish(Subjects.emailConfirmation, confirmation);
    await waitFor(() => expect(received(smtp)).toEqual(["second@mail.test"]));
    expect(smtp.mails[0]?.headers).toMatchObject({ subject: "Confirmation instructions" });
    expect(smtp.mails[0]?.body).toContain(
      "You can confirm your email (second@mail.test) through the link below:\n\nhttps://quarry.test/users/confirmation?confirmation_token=tok%2Ben%2F1",
    );
    const notifier = createNotifier(smtp.url, "gitlab@quarry.test");
    expect(await handleNotifyMessage(f.svc.deps, notifier, { subject: Subjects.emailConfirmation, id: "again", data: confirmation } as never)).toBe(0);
  });
});
