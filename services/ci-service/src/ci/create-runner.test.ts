import { tokenDigest } from "../token-digest.ts";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { CreateRunnerRequest__Output } from "@quarry/proto/types/ci/v1/CreateRunnerRequest";
import { setUp, type TestContext } from "../../test/support.ts";
import { createRunner } from "./create-runner.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_create_runner")));
afterAll(() => t?.close());

const request = (o: Partial<CreateRunnerRequest__Output> = {}): CreateRunnerRequest__Output => ({
  runnerType: "project_type",
  projectId: 4,
  groupId: 0,
  description: "builder",
  maintenanceNote: "",
  paused: false,
  locked: false,
  runUntagged: true,
  tagList: ["linux", " linux ", "docker"],
  accessLevel: "",
  maximumTimeout: 0,
  createdByUserId: 1,
  ...o,
});

it("creates a runner and returns a glrt- token whose digest alone is stored", async () => {
  const { runner, token } = await createRunner(t.deps)(request());
  expect(token).toMatch(/^glrt-[A-Za-z0-9_-]{20,}$/);
  expect(runner).toMatchObject({
    runnerType: "project_type",
    projectId: 4,
    description: "builder",
    tagList: ["linux", "docker"],
    accessLevel: "not_protected",
    runUntagged: true,
  });
  const row = await t.deps.prisma.runner.findUniqueOrThrow({ where: { id: Number(runner!.id) } });
  expect(row.tokenDigest).toBe(tokenDigest(token));
  expect(JSON.stringify(row)).not.toContain(token);
});

it("refuses unknown types and levels, and a project runner without a project", async () => {
  const create = createRunner(t.deps);
  await expect(create(request({ runnerType: "cloud" }))).rejects.toMatchObject({ body: { error: "runner_type does not have a valid value" } });
  await expect(create(request({ accessLevel: "all" }))).rejects.toMatchObject({ body: { error: "access_level does not have a valid value" } });
  await expect(create(request({ projectId: 0 }))).rejects.toMatchObject({ body: { error: "project_id is invalid" } });
  const instance = await create(request({ runnerType: "instance_type", projectId: 0 }));
  expect(instance.runner).toMatchObject({ runnerType: "instance_type", projectId: 0 });
});
