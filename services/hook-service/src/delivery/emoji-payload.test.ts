import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { buildEmojiPayload } from "./emoji-payload.ts";
import { SYSTEM_ACTOR } from "./fan-out.ts";

const event = {
  event_id: "e1",
  event_name: "emoji",
  object_kind: "emoji",
  event_type: "award",
  user_id: 5,
  project_id: 9,
  object_attributes: { id: 1, name: "thumbsup", awarded_on_url: "/g/p/-/issues/1#note_3" },
  note: { id: 3, url: "/g/p/-/issues/1#note_3" },
  issue: { id: 2, url: "/g/p/-/issues/1" },
};

const project = {
  id: 9,
  name: "P",
  description: "",
  visibility: "internal",
  defaultBranch: "main",
  pathWithNamespace: "g/p",
  namespace: { name: "G" },
  ciConfigPath: "",
  avatar: "logo.png",
};
const user = { id: 5, name: "Fan", username: "fan", publicEmail: "", avatar: "" };

function deps(found: { user: boolean; project: boolean }) {
  const gone = () => Promise.reject(Object.assign(new Error("gone"), { code: status.NOT_FOUND }));
  return {
    settings: { instanceUrl: "https://git.example.com/" },
    identity: {
      GetProject: async () => (found.project ? project : gone()),
      GetUser: async () => (found.user ? user : gone()),
    },
  } as unknown as HookDeps;
}

describe("emoji webhook payload", () => {
  it("adds the user's and project's hook attributes and makes the web URLs absolute", async () => {
    const payload = await buildEmojiPayload(deps({ user: true, project: true }), SYSTEM_ACTOR, event);
    expect(payload).toEqual({
      object_kind: "emoji",
      event_type: "award",
      user: { id: 5, name: "Fan", username: "fan", avatar_url: null, email: "[REDACTED]" },
      project_id: 9,
      project: expect.objectContaining({
        id: 9,
        description: null,
        web_url: "https://git.example.com/g/p",
        avatar_url: "https://git.example.com/uploads/-/system/project/avatar/9/logo.png",
        git_ssh_url: "git@git.example.com:g/p.git",
        namespace: "G",
        visibility_level: 10,
        default_branch: "main",
        ci_config_path: null,
      }),
      object_attributes: { id: 1, name: "thumbsup", awarded_on_url: "https://git.example.com/g/p/-/issues/1#note_3" },
      note: { id: 3, url: "https://git.example.com/g/p/-/issues/1#note_3" },
      issue: { id: 2, url: "https://git.example.com/g/p/-/issues/1" },
    });
    expect(Object.keys(payload!)).toEqual(["object_kind", "event_type", "user", "project_id", "project", "object_attributes", "note", "issue"]);
  });

  it("has no payload once the project is gone; a deleted user is null", async () => {
    expect(await buildEmojiPayload(deps({ user: true, project: false }), SYSTEM_ACTOR, event)).toBeNull();
    expect((await buildEmojiPayload(deps({ user: false, project: true }), SYSTEM_ACTOR, event))?.user).toBeNull();
  });
});
