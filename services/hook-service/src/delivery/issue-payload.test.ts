import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { SYSTEM_ACTOR } from "./fan-out.ts";
import { buildIssuePayload } from "./issue-payload.ts";

const label = { id: 7, title: "bug", type: "ProjectLabel" };
const event = {
  event_id: "e1",
  event_name: "issue",
  object_kind: "issue",
  event_type: "confidential_issue",
  user_id: 5,
  project_id: 9,
  object_attributes: { id: 2, iid: 1, url: "/g/p/-/issues/1", action: "update", assignee_ids: [6, 8] },
  labels: [label],
  changes: { title: { previous: "a", current: "b" }, assignees: { previous: [6, 404], current: [6, 8] } },
  assignee_ids: [6, 8],
};

const project = {
  id: 9,
  name: "P",
  description: "",
  visibility: "private",
  defaultBranch: "main",
  pathWithNamespace: "g/p",
  namespace: { name: "G" },
  ciConfigPath: "",
  avatar: "",
};
const users: Record<number, { id: number; name: string; username: string; publicEmail: string; avatar: string }> = {
  5: { id: 5, name: "Ed", username: "ed", publicEmail: "", avatar: "" },
  6: { id: 6, name: "Al", username: "al", publicEmail: "al@example.com", avatar: "a.png" },
  8: { id: 8, name: "Bo", username: "bo", publicEmail: "", avatar: "" },
};

function deps(found: { project: boolean } = { project: true }) {
  const gone = () => Promise.reject(Object.assign(new Error("gone"), { code: status.NOT_FOUND }));
  const calls: number[][] = [];
  const d = {
    settings: { instanceUrl: "https://git.example.com/" },
    identity: {
      GetProject: async () => (found.project ? project : gone()),
      GetUser: async (req: { id: number }) => users[req.id] ?? gone(),
      GetUsers: async (req: { ids: number[] }) => {
        calls.push(req.ids);
        return { users: req.ids.flatMap((id) => users[id] ?? []) };
      },
    },
  } as unknown as HookDeps;
  return { d, calls };
}

const hookUser = (id: number) => {
  const u = users[id]!;
  return {
    id,
    name: u.name,
    username: u.username,
    avatar_url: u.avatar ? `https://git.example.com/uploads/-/system/user/avatar/${id}/${u.avatar}` : null,
    email: u.publicEmail || "[REDACTED]",
  };
};

describe("issue webhook payload", () => {
  it("is GitLab's Gitlab::DataBuilder::Issuable: assignees expanded in one GetUsers call, gone users left out", async () => {
    const { d, calls } = deps();
    const payload = await buildIssuePayload(d, SYSTEM_ACTOR, event);
    expect(payload).toEqual({
      object_kind: "issue",
      event_type: "confidential_issue",
      user: hookUser(5),
      project: expect.objectContaining({ id: 9, web_url: "https://git.example.com/g/p", visibility_level: 0 }),
      object_attributes: { id: 2, iid: 1, url: "https://git.example.com/g/p/-/issues/1", action: "update", assignee_ids: [6, 8] },
      labels: [label],
      changes: { title: { previous: "a", current: "b" }, assignees: { previous: [hookUser(6)], current: [hookUser(6), hookUser(8)] } },
      repository: { name: "P", url: "git@git.example.com:g/p.git", description: null, homepage: "https://git.example.com/g/p" },
      assignees: [hookUser(6), hookUser(8)],
    });
    expect(Object.keys(payload!)).toEqual([
      "object_kind",
      "event_type",
      "user",
      "project",
      "object_attributes",
      "labels",
      "changes",
      "repository",
      "assignees",
    ]);
    expect(calls).toEqual([[6, 8, 404]]);
  });

  it("has no assignees key without assignees, asks for no users then, and none once the project is gone", async () => {
    const { d, calls } = deps();
    const bare = await buildIssuePayload(d, SYSTEM_ACTOR, { ...event, assignee_ids: [], changes: {} });
    expect(bare).not.toHaveProperty("assignees");
    expect(bare?.changes).toEqual({});
    expect(calls).toEqual([]);
    expect(await buildIssuePayload(deps({ project: false }).d, SYSTEM_ACTOR, event)).toBeNull();
  });
});
