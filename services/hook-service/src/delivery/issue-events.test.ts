// Issue events: fan-out to the project's hooks and its groups' hooks with issues_events (or
// confidential_issues_events for confidential issues), GitLab's payload and header. Real bus,
// PostgreSQL and HTTP receiver; identity-service is stubbed.
import { randomUUID } from "node:crypto";
import { type IssueEvent, Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";

const project = {
  id: 9,
  name: "P",
  description: "",
  visibility: "public",
  defaultBranch: "main",
  pathWithNamespace: "g/p",
  namespace: { name: "G" },
  ciConfigPath: "",
  avatar: "",
};
const users: Record<number, { id: number; name: string; username: string; publicEmail: string; avatar: string }> = {
  5: { id: 5, name: "Ed", username: "ed", publicEmail: "", avatar: "" },
  6: { id: 6, name: "Al", username: "al", publicEmail: "", avatar: "" },
};

function issueEvent(confidential: boolean): IssueEvent {
  return {
    event_id: randomUUID(),
    event_name: "issue",
    object_kind: "issue",
    event_type: confidential ? "confidential_issue" : "issue",
    user_id: 5,
    project_id: 9,
    object_attributes: { id: 2, iid: 1, title: "t", confidential, url: "/g/p/-/issues/1", action: "update" },
    labels: [],
    changes: { title: { previous: "s", current: "t" } },
    assignee_ids: [6],
  };
}

describe("issue events", () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await startFixture("hook_issues");
    r = await startReceiver();
    const gone = () => Promise.reject(Object.assign(new Error("5 NOT_FOUND"), { code: 5 }));
    const deps = f.svc.deps as { identity: HookDeps["identity"] };
    deps.identity = {
      ...deps.identity,
      GetGroupAncestors: async (req: { projectId?: number }) => (Number(req.projectId) === 9 ? { groupIds: [3, 1] } : gone()),
      GetProject: async (req: { idOrPath: string }) => (req.idOrPath === "9" ? project : gone()),
      GetUser: async (req: { id: number }) => users[Number(req.id)] ?? gone(),
      GetUsers: async (req: { ids: number[] }) => ({ users: req.ids.flatMap((id) => users[Number(id)] ?? []) }),
    } as unknown as HookDeps["identity"];
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
  });

  const hook = async (owner: { projectId?: number; groupId?: number }, path: string, input: Record<string, unknown>) =>
    Number((await f.client.CreateHook({ owner, input: { url: `${r.url}${path}`, pushEvents: false, ...input } })).id);
  const at = (path: string) => r.requests.filter((q) => q.path === path);

  it("delivers to project and group hooks with the matching switch, as GitLab builds the payload", async () => {
    const plain = await hook({ projectId: 9 }, "/plain", { issuesEvents: true });
    const secret = await hook({ projectId: 9 }, "/secret", { confidentialIssuesEvents: true });
    const group = await hook({ groupId: 1 }, "/group", { issuesEvents: true, confidentialIssuesEvents: true });
    await hook({ projectId: 9 }, "/notes", { noteEvents: true, confidentialNoteEvents: true });

    const open = issueEvent(false);
    await f.bus.publish(Subjects.issue, open);
    await waitFor(() => at("/plain").length === 1 && at("/group").length === 1, { message: "issue at /plain and /group" });
    const q = at("/plain")[0]!;
    expect(q.headers["x-service-event"]).toBe("Issue Hook");
    const al = { id: 6, name: "Al", username: "al", avatar_url: null, email: "[REDACTED]" };
    expect(JSON.parse(q.body)).toEqual({
      object_kind: "issue",
      event_type: "issue",
      user: { id: 5, name: "Ed", username: "ed", avatar_url: null, email: "[REDACTED]" },
      project: expect.objectContaining({ id: 9, web_url: "https://quarry.test/g/p" }),
      object_attributes: { id: 2, iid: 1, title: "t", confidential: false, url: "https://quarry.test/g/p/-/issues/1", action: "update" },
      labels: [],
      changes: { title: { previous: "s", current: "t" } },
      repository: { name: "P", url: "git@quarry.test:g/p.git", description: null, homepage: "https://quarry.test/g/p" },
      assignees: [al],
    });
    expect(at("/group")[0]!.body).toBe(q.body);

    const hidden = issueEvent(true);
    await f.bus.publish(Subjects.issue, hidden);
    await waitFor(() => at("/secret").length === 1 && at("/group").length === 2, { message: "confidential issue at /secret and /group" });
    expect(at("/secret")[0]!.headers["x-service-event"]).toBe("Confidential Issue Hook");
    expect(JSON.parse(at("/secret")[0]!.body)).toMatchObject({ event_type: "confidential_issue" });
    const deliveries = await f.svc.deps.prisma.webHookDelivery.findMany({ orderBy: [{ eventId: "asc" }, { hookId: "asc" }] });
    const byEvent = (id: string) => deliveries.filter((d) => d.eventId === id).map((d) => [d.hookId, d.trigger]);
    expect(byEvent(open.event_id)).toEqual([
      [plain, "issue_hooks"],
      [group, "issue_hooks"],
    ]);
    expect(byEvent(hidden.event_id)).toEqual([
      [secret, "confidential_issue_hooks"],
      [group, "confidential_issue_hooks"],
    ]);
    expect(at("/notes")).toEqual([]);
  });
});
