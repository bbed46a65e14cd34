import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { describe, expect, it } from "vitest";
import { noteEntity } from "./note.ts";

const note = {
  id: 7,
  type: "",
  body: "hi",
  authorId: 3,
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-02T00:00:00.000Z",
  system: false,
  noteableId: 11,
  noteableType: "Issue",
  projectId: 5,
  internal: true,
  noteableIid: 2,
  discussionId: "a".repeat(40),
};
const urls = { base: "http://q.example" };
const user = {
  id: 3,
  username: "ann",
  name: "Ann",
  state: "active",
  avatar: "",
  createdAt: "2029-01-01T00:00:00.000Z",
  email: "private@example.com",
  publicEmail: "",
} as unknown as User;

describe("noteEntity", () => {
  it("is GitLab's Entities::Note: null type, confidential mirrors internal, no discussion id", () => {
    const e = noteEntity(note, new Map([[3, user]]), urls);
    expect(Object.keys(e)).toEqual([
      "id",
      "type",
      "body",
      "attachment",
      "author",
      "created_at",
      "updated_at",
      "system",
      "noteable_id",
      "noteable_type",
      "project_id",
      "resolvable",
      "confidential",
      "internal",
      "imported",
      "imported_from",
      "noteable_iid",
      "commands_changes",
    ]);
    expect(e).toMatchObject({
      type: null,
      attachment: null,
      confidential: true,
      internal: true,
      resolvable: false,
      imported_from: "none",
      commands_changes: {},
    });
    expect(noteEntity({ ...note, type: "DiscussionNote", noteableIid: 0, projectId: 0 }, new Map(), urls)).toMatchObject({
      type: "DiscussionNote",
      noteable_iid: null,
      project_id: null,
      author: null,
    });
  });

  it("shows the author's public email, never the private address", () => {
    expect(noteEntity(note, new Map([[3, user]]), urls).author).toMatchObject({ id: 3, username: "ann", created_at: "2029-01-01T00:00:00.000Z", email: null });
    const shown = noteEntity(note, new Map([[3, { ...user, publicEmail: "ann@public.example" } as User]]), urls);
    expect(shown.author?.email).toBe("ann@public.example");
  });
});
