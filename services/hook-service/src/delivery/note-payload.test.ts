import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { EVENT_HEADERS, EVENT_KINDS, eventKindName } from "./events.ts";
import { SYSTEM_ACTOR } from "./fan-out.ts";
import { buildNotePayload } from "./note-payload.ts";

const event = {
  event_id: "e1",
  event_name: "note",
  object_kind: "note",
  event_type: "note",
  user_id: 5,
  project_id: 9,
  object_attributes: { id: 3, note: "hi", url: "/g/p/-/issues/1#note_3", action: "create" },
  issue: { id: 2, url: "/g/p/-/issues/1" },
};

const project = {
  id: 9,
  name: "P",
  description: "about",
  visibility: "public",
  defaultBranch: "",
  pathWithNamespace: "g/p",
  namespace: { name: "G" },
  ciConfigPath: "",
  avatar: "",
};
const user = { id: 5, name: "Ann", username: "ann", publicEmail: "ann@example.com", avatar: "" };

function deps(found: { user: boolean; project: boolean }) {
  const gone = () => Promise.reject(Object.assign(new Error("gone"), { code: status.NOT_FOUND }));
  return {
    settings: { instanceUrl: "https://git.example.com" },
    identity: {
      GetProject: async () => (found.project ? project : gone()),
      GetUser: async () => (found.user ? user : gone()),
    },
  } as unknown as HookDeps;
}

describe("note webhook payload", () => {
  it("is GitLab's Gitlab::DataBuilder::Note: user, project, repository, absolute URLs, the noteable last", async () => {
    const payload = await buildNotePayload(deps({ user: true, project: true }), SYSTEM_ACTOR, event);
    expect(payload).toEqual({
      object_kind: "note",
      event_type: "note",
      user: { id: 5, name: "Ann", username: "ann", avatar_url: null, email: "ann@example.com" },
      project_id: 9,
      project: expect.objectContaining({ id: 9, name: "P", web_url: "https://git.example.com/g/p", homepage: "https://git.example.com/g/p" }),
      object_attributes: { id: 3, note: "hi", url: "https://git.example.com/g/p/-/issues/1#note_3", action: "create" },
      repository: { name: "P", url: "git@git.example.com:g/p.git", description: "about", homepage: "https://git.example.com/g/p" },
      issue: { id: 2, url: "https://git.example.com/g/p/-/issues/1" },
    });
    expect(Object.keys(payload!)).toEqual(["object_kind", "event_type", "user", "project_id", "project", "object_attributes", "repository", "issue"]);
    const { issue: _i, ...onSnippet } = event;
    const snippet = await buildNotePayload(deps({ user: true, project: true }), SYSTEM_ACTOR, { ...onSnippet, snippet: { id: 4, url: "/g/p/-/snippets/4" } });
    expect(snippet).toMatchObject({ snippet: { id: 4, url: "https://git.example.com/g/p/-/snippets/4" } });
    expect(snippet).not.toHaveProperty("issue");
  });

  it("has no payload once the project is gone; a deleted author is null", async () => {
    expect(await buildNotePayload(deps({ user: true, project: false }), SYSTEM_ACTOR, event)).toBeNull();
    expect((await buildNotePayload(deps({ user: false, project: true }), SYSTEM_ACTOR, event))?.user).toBeNull();
  });
});

describe("note and issue event kinds", () => {
  it("send confidential notes and issues to the confidential switches, with GitLab's hooks scope and header", () => {
    expect(eventKindName("note", { event_type: "note" })).toBe("note");
    expect(eventKindName("note", { event_type: "confidential_note" })).toBe("confidential_note");
    expect(eventKindName("issue", { event_type: "confidential_issue" })).toBe("confidential_issue");
    expect(eventKindName("emoji", { event_type: "confidential_note" })).toBe("emoji");
    expect(EVENT_KINDS.note).toEqual({ switch: "noteEvents", trigger: "note_hooks", header: "Note Hook" });
    expect(EVENT_KINDS.confidential_note).toEqual({ switch: "confidentialNoteEvents", trigger: "confidential_note_hooks", header: "Confidential Note Hook" });
    expect(EVENT_KINDS.issue).toEqual({ switch: "issuesEvents", trigger: "issue_hooks", header: "Issue Hook" });
    expect(EVENT_KINDS.confidential_issue).toEqual({
      switch: "confidentialIssuesEvents",
      trigger: "confidential_issue_hooks",
      header: "Confidential Issue Hook",
    });
    expect(EVENT_HEADERS.confidential_note_hooks).toBe("Confidential Note Hook");
  });
});
