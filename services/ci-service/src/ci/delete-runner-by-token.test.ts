import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { createRunner } from "./create-runner.ts";
import { deleteRunnerByToken } from "./delete-runner-by-token.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_delete_runner")));
afterAll(() => t?.close());

it("removes the runner of a token; the token then no longer works", async () => {
  const { token } = await createRunner(t.deps)({
    runnerType: "instance_type",
    projectId: 0,
    groupId: 0,
    description: "",
    maintenanceNote: "",
    paused: false,
    locked: false,
    runUntagged: true,
    tagList: [],
    accessLevel: "",
    maximumTimeout: 0,
    createdByUserId: 0,
  });
  expect(await deleteRunnerByToken(t.deps)({ token, systemId: "" })).toEqual({});
  expect(await t.deps.prisma.runner.count()).toBe(0);
  await expect(deleteRunnerByToken(t.deps)({ token, systemId: "" })).rejects.toMatchObject({ body: { message: "403 Forbidden" } });
});
