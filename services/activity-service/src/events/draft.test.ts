import type { BusMessage } from "@quarry/bus";
import { describe, expect, it } from "vitest";
import { actionName } from "./actions.ts";
import { commitTitle, eventDraftOf } from "./draft.ts";

const msg = (subject: string, data: object): BusMessage<unknown> => ({ subject, data, id: "bus-1", deliveryCount: 1, publishedAt: new Date() });
const ZERO = "0000000000000000000000000000000000000000";
const A = "a".repeat(40);
const B = "b".repeat(40);

const push = (over: object) => ({
  event_id: "e-push",
  object_kind: "push",
  event_name: "push",
  before: A,
  after: B,
  ref: "refs/heads/main",
  user_id: 5,
  project_id: 9,
  total_commits_count: 2,
  commits: [{ message: "first\n\nbody" }, { message: "Add simple search to projects in public area\n\nmore" }],
  ...over,
});

describe("eventDraftOf", () => {
  it("makes a push to a branch a pushed event with GitLab's push payload", () => {
    const d = eventDraftOf(msg("quarry.repo.push", push({})));
    expect(d).toMatchObject({ sourceEventId: "e-push", projectId: 9, authorId: 5, action: 5, targetId: null, targetType: null, targetTitle: null });
    expect(d!.push).toEqual({
      commitCount: 2,
      action: "pushed",
      refType: "branch",
      commitFrom: A,
      commitTo: B,
      ref: "main",
      commitTitle: "Add simple search to projects in public area",
    });
  });

  it("tells new and deleted refs and tags apart", () => {
    expect(eventDraftOf(msg("quarry.repo.push", push({ before: ZERO })))!.push).toMatchObject({ action: "created", commitFrom: null, commitTo: B });
    expect(eventDraftOf(msg("quarry.repo.push", push({ after: ZERO, commits: [], total_commits_count: 0 })))!.push).toMatchObject({
      action: "removed",
      commitFrom: A,
      commitTo: null,
      commitTitle: null,
      commitCount: 0,
    });
    const tag = eventDraftOf(msg("quarry.repo.tag_push", push({ object_kind: "tag_push", event_name: "tag_push", ref: "refs/tags/v1.0", before: ZERO })));
    expect(tag!.push).toMatchObject({ refType: "tag", ref: "v1.0", action: "created" });
  });

  it("truncates the commit title as Rails' truncate(70)", () => {
    expect(commitTitle([{ message: `${"x".repeat(80)}\nrest` }])).toBe(`${"x".repeat(67)}...`);
    expect(commitTitle([{ message: "  short  " }])).toBe("short");
    expect(commitTitle([])).toBeNull();
  });

  it("records issues opened, closed and reopened (not updated), confidential ones marked", () => {
    const issue = (action: string, type = "issue") =>
      eventDraftOf(
        msg("quarry.collab.issue", {
          event_id: `i-${action}`,
          object_kind: "issue",
          event_type: type,
          user_id: 3,
          project_id: 9,
          object_attributes: { id: 160, iid: 7, title: "Public project search field", action, author_id: 4 },
          assignee_ids: [5, 4],
        }),
      );
    expect(issue("open")).toMatchObject({
      action: 1,
      targetId: 160,
      targetIid: 7,
      targetType: "Issue",
      targetTitle: "Public project search field",
      confidential: false,
    });
    expect(issue("close")!.action).toBe(3);
    expect(issue("reopen")!.action).toBe(4);
    expect(issue("update")).toBeNull();
    expect(issue("open", "confidential_issue")).toMatchObject({ confidential: true, confidentialReaderIds: [4, 5] });
    expect(issue("open")!.confidentialReaderIds).toEqual([]);
  });

  it("records merge requests opened, closed, reopened, merged and approved", () => {
    const mr = (action: string) =>
      eventDraftOf(
        msg("quarry.collab.merge_request", {
          event_id: `m-${action}`,
          object_kind: "merge_request",
          user_id: 3,
          project_id: 9,
          object_attributes: { id: 50, iid: 2, title: "Fix it", action },
        }),
      );
    expect(mr("open")).toMatchObject({ action: 1, targetId: 50, targetIid: 2, targetType: "MergeRequest", targetTitle: "Fix it" });
    expect([mr("close"), mr("reopen"), mr("merge"), mr("approved"), mr("approval")].map((d) => d!.action)).toEqual([3, 4, 7, 12, 12]);
    expect(mr("update")).toBeNull();
    expect(mr("unapproved")).toBeNull();
  });

  it("records a new comment as commented on the note, with the note and its noteable's title", () => {
    const note = (over: object, attrs: object = {}) =>
      eventDraftOf(
        msg("quarry.collab.note", {
          event_id: "n-1",
          object_kind: "note",
          event_type: "note",
          user_id: 3,
          project_id: 9,
          object_attributes: {
            id: 1312,
            note: "What an awesome day!",
            author_id: 3,
            noteable_id: 377,
            noteable_type: "Issue",
            type: null,
            created_at: "2026-01-02 03:04:05 UTC",
            updated_at: "2026-01-02 03:04:05 UTC",
            action: "create",
            ...attrs,
          },
          issue: { iid: 4, title: "The issue", confidential: false },
          ...over,
        }),
      );
    const d = note({});
    expect(d).toMatchObject({ action: 6, targetId: 1312, targetIid: 1312, targetType: "Note", targetTitle: "The issue", confidential: false });
    expect(d!.data).toEqual({
      note: {
        id: 1312,
        type: null,
        body: "What an awesome day!",
        author_id: 3,
        created_at: "2026-01-02T03:04:05.000Z",
        updated_at: "2026-01-02T03:04:05.000Z",
        system: false,
        noteable_id: 377,
        noteable_type: "Issue",
        noteable_iid: 4,
        project_id: 9,
        internal: false,
      },
    });
    expect(note({ issue: undefined, merge_request: { iid: 2, title: "The MR" } }, { type: "DiffNote", noteable_type: "MergeRequest" })).toMatchObject({
      targetType: "DiffNote",
      targetTitle: "The MR",
    });
    expect(note({}, { action: "update" })).toBeNull();
    const internal = note({ event_type: "confidential_note" });
    expect(internal!.confidential).toBe(true);
    expect((internal!.data!.note as { internal: boolean }).internal).toBe(true);
    const secretIssue = { iid: 4, title: "Secret", confidential: true, author_id: 8, assignee_ids: [9] };
    const onConfidential = note({ event_type: "confidential_note", issue: secretIssue });
    expect((onConfidential!.data!.note as { internal: boolean }).internal).toBe(false);
    // Without the payload telling the note is not internal, only Reporters and up (and its author) see it.
    expect(onConfidential!.confidentialReaderIds).toEqual([]);
    expect(note({ event_type: "confidential_note", issue: secretIssue }, { internal: false })!.confidentialReaderIds).toEqual([8, 9]);
    expect(note({ event_type: "confidential_note", issue: secretIssue }, { internal: true })!.confidentialReaderIds).toEqual([]);
  });

  it("records project wiki pages created, updated and destroyed on their WikiPage::Meta; group wikis make none", () => {
    const wiki = (action: string, projectId = 9) =>
      eventDraftOf(
        msg("quarry.repo.wiki_page", {
          event_id: `w-${action}`,
          object_kind: "wiki_page",
          user_id: 3,
          project_id: projectId,
          object_attributes: { title: "Home Page", slug: "Home-Page", format: "markdown", action, content: "", message: "", version_id: B },
        }),
      );
    expect(wiki("create")).toMatchObject({
      action: 1,
      targetType: "WikiPage::Meta",
      targetTitle: "Home Page",
      wiki: { slug: "Home-Page", title: "Home Page" },
      data: { wiki_page: { format: "markdown", slug: "Home-Page", title: "Home Page" } },
    });
    expect(wiki("update")!.action).toBe(2);
    expect(wiki("delete")!.action).toBe(10);
    expect(wiki("create", 0)).toBeNull();
  });

  it("records projects created and destroyed by their actor, and project members joining and leaving as the member", () => {
    const p = { project_id: 9, actor: { user_id: 1, ip_address: "" } };
    expect(eventDraftOf(msg("quarry.identity.project_create", { ...p, event_id: "p1", event_name: "project_create" }))).toMatchObject({
      projectId: 9,
      authorId: 1,
      action: 1,
      targetType: null,
    });
    expect(eventDraftOf(msg("quarry.identity.project_destroy", { ...p, event_id: "p2", event_name: "project_destroy" }))!.action).toBe(10);
    expect(eventDraftOf(msg("quarry.identity.project_create", { project_id: 9, event_id: "p3", event_name: "project_create" }))).toBeNull();
    const member = (event_name: string, entity_type = "Project") =>
      eventDraftOf(
        msg("quarry.audit.event", {
          event_id: `a-${event_name}`,
          event_name,
          actor: { user_id: 1, ip_address: "" },
          entity_type,
          entity_id: 9,
          target_type: "User",
          target_id: 44,
        }),
      );
    expect(member("member_created")).toMatchObject({ projectId: 9, authorId: 44, action: 8 });
    expect(member("member_destroyed")!.action).toBe(9);
    expect(member("member_updated")).toBeNull();
    expect(member("member_created", "Group")).toBeNull();
    expect(eventDraftOf(msg("quarry.identity.user_create", { event_id: "u", event_name: "user_create", user_id: 3 }))).toBeNull();
  });
});

describe("actionName", () => {
  it("names actions as Event#action_name", () => {
    expect(actionName({ action: 5, targetType: null, pushAction: "pushed" })).toBe("pushed to");
    expect(actionName({ action: 5, targetType: null, pushAction: "created" })).toBe("pushed new");
    expect(actionName({ action: 5, targetType: null, pushAction: "removed" })).toBe("deleted");
    expect(actionName({ action: 1, targetType: "Issue" })).toBe("opened");
    expect(actionName({ action: 1, targetType: null })).toBe("created");
    expect(actionName({ action: 1, targetType: "WikiPage::Meta" })).toBe("created");
    expect(actionName({ action: 2, targetType: "WikiPage::Meta" })).toBe("updated");
    expect(actionName({ action: 3, targetType: "Issue" })).toBe("closed");
    expect(actionName({ action: 4, targetType: "Issue" })).toBe("opened");
    expect(actionName({ action: 6, targetType: "Note" })).toBe("commented on");
    expect(actionName({ action: 7, targetType: "MergeRequest" })).toBe("accepted");
    expect(actionName({ action: 8, targetType: null })).toBe("joined");
    expect(actionName({ action: 9, targetType: null })).toBe("left");
    expect(actionName({ action: 10, targetType: null })).toBe("destroyed");
    expect(actionName({ action: 12, targetType: "MergeRequest" })).toBe("approved");
  });
});
