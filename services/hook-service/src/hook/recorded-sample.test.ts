import { randomUUID } from "node:crypto";
import { Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { startFixture, type Fixture } from "../test-fixture.ts";
import { buildRecordedSample } from "./recorded-sample.ts";

const project = {
  id: 9,
  name: "P",
  nameWithNamespace: "G / P",
  description: "",
  visibility: "private",
  defaultBranch: "main",
  pathWithNamespace: "g/p",
  namespace: { name: "G" },
  ciConfigPath: "",
  avatar: "",
};
const ed = { id: 5, name: "Ed", username: "ed", publicEmail: "", avatar: "" };

describe("recorded samples", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_recorded_sample");
    const gone = () => Promise.reject(Object.assign(new Error("5 NOT_FOUND"), { code: 5 }));
    const deps = f.svc.deps as { identity: HookDeps["identity"] };
    deps.identity = {
      ...deps.identity,
      GetProject: async (req: { idOrPath: string }) => (req.idOrPath === "9" ? project : gone()),
      GetUser: async (req: { id: number }) => (Number(req.id) === 5 ? ed : gone()),
      GetUsers: async () => ({ users: [ed] }),
    } as unknown as HookDeps["identity"];
  });
  afterAll(() => f?.stop());

  it("replays the project's newest recorded event of the trigger, built as a delivery, else GitLab's 422", async () => {
    const hook = await f.svc.deps.prisma.webHook.create({ data: { projectId: 9, url: "http://example.test/h", uuid: randomUUID() } });
    const requester = { userId: 5, isAdmin: false };
    const none = await buildRecordedSample(f.svc.deps, hook, "pipeline_events", requester).catch((e: unknown) => e);
    expect(none).toMatchObject({ message: expect.stringContaining("Ensure the project has CI pipelines.") });

    for (const id of [1, 2]) {
      await f.bus.publish(Subjects.pipeline, {
        event_id: randomUUID(),
        object_kind: "pipeline",
        user_id: 5,
        project_id: 9,
        object_attributes: { id, url: `/g/p/-/pipelines/${id}` },
        merge_request: null,
        commit: null,
        builds: [],
      });
    }
    await f.bus.publish(Subjects.pipeline, {
      event_id: randomUUID(),
      object_kind: "pipeline",
      user_id: 5,
      project_id: 10,
      object_attributes: { id: 3 },
      builds: [],
    });
    await waitFor(async () => (await f.svc.deps.prisma.recordedEvent.count({ where: { eventName: "pipeline" } })) === 3, {
      message: "three recorded pipelines",
    });
    const sample = await buildRecordedSample(f.svc.deps, hook, "pipeline_events", requester);
    expect(sample).toMatchObject({
      object_kind: "pipeline",
      object_attributes: { id: 2, url: "https://quarry.test/g/p/-/pipelines/2" },
      user: { username: "ed" },
      project: { id: 9 },
    });
  });
});
