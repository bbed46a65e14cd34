import type { ContributionEvent__Output as ContributionEvent } from "@quarry/proto/types/activity/v1/ContributionEvent";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { describe, expect, it } from "vitest";
import { eventEntity, pushEventPayload, userActivityEntity } from "./event.ts";

const urls = { base: "http://q.example" };
const ann = { id: 3, username: "ann", name: "Ann", state: "active", avatar: "", createdAt: "2029-01-01T00:00:00.000Z", publicEmail: "" } as unknown as User;
const users = new Map([[3, ann]]);
const base: ContributionEvent = {
  id: 9,
  projectId: 5,
  authorId: 3,
  action: "created",
  actionName: "opened",
  targetId: 160,
  targetIid: 7,
  targetType: "Issue",
  targetTitle: "Bug",
  createdAt: "2030-01-01T00:00:00.000Z",
  pushData: null,
  noteJson: "",
  wikiPageJson: "",
  confidential: false,
};
const author = { id: 3, username: "ann", name: "Ann", state: "active", locked: false, avatar_url: null, web_url: "http://q.example/ann" };

describe("eventEntity", () => {
  it("shows an issue event as GitLab's Entities::Event", () => {
    expect(eventEntity(base, users, urls)).toEqual({
      id: 9,
      project_id: 5,
      action_name: "opened",
      target_id: 160,
      target_iid: 7,
      target_type: "Issue",
      author_id: 3,
      target_title: "Bug",
      created_at: "2030-01-01T00:00:00.000Z",
      author,
      imported: false,
      imported_from: "none",
      author_username: "ann",
    });
  });

  it("adds push_data with nulls for what a push lacks, and leaves a gone author out", () => {
    const push = {
      ...base,
      authorId: 4,
      action: "pushed",
      actionName: "deleted",
      targetId: 0,
      targetIid: 0,
      targetType: "",
      targetTitle: "",
      pushData: { commitCount: 0, action: "removed", refType: "tag", commitFrom: "a".repeat(40), commitTo: "", ref: "v1", commitTitle: "", refCount: 0 },
    };
    const e = eventEntity(push, users, urls);
    expect(e).toMatchObject({ target_id: null, target_iid: null, target_type: null, target_title: null, author_username: null });
    expect(e).not.toHaveProperty("author");
    expect(e.push_data).toEqual({
      commit_count: 0,
      action: "removed",
      ref_type: "tag",
      commit_from: "a".repeat(40),
      commit_to: null,
      ref: "v1",
      commit_title: null,
      ref_count: null,
    });
    expect(pushEventPayload({ ...push.pushData, refCount: 3 }).ref_count).toBe(3);
  });

  it("adds the recorded note as Entities::Note and a wiki event's wiki_page", () => {
    const note = {
      id: 1312,
      type: "DiffNote",
      body: "Nice",
      author_id: 3,
      created_at: "2030-01-01T00:00:00.000Z",
      updated_at: "2030-01-01T00:00:00.000Z",
      system: false,
      noteable_id: 50,
      noteable_type: "MergeRequest",
      noteable_iid: 2,
      project_id: 5,
      internal: false,
    };
    const e = eventEntity({ ...base, actionName: "commented on", targetType: "DiffNote", noteJson: JSON.stringify(note) }, users, urls);
    expect(e.note).toMatchObject({ id: 1312, type: "DiffNote", body: "Nice", author: { ...author, created_at: ann.createdAt, email: null }, noteable_iid: 2 });
    const wiki = eventEntity(
      { ...base, targetType: "WikiPage::Meta", wikiPageJson: JSON.stringify({ format: "markdown", slug: "home", title: "Home" }) },
      users,
      urls,
    );
    expect(wiki.wiki_page).toEqual({ format: "markdown", slug: "home", title: "Home" });
    expect(eventEntity(base, users, urls)).not.toHaveProperty("note");
    expect(eventEntity(base, users, urls)).not.toHaveProperty("wiki_page");
  });
});

describe("userActivityEntity", () => {
  it("repeats the day as last_activity_at", () => {
    expect(userActivityEntity({ username: "ann", lastActivityOn: "2030-01-02" })).toEqual({
      username: "ann",
      last_activity_on: "2030-01-02",
      last_activity_at: "2030-01-02",
    });
  });
});
