import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { createRunner } from "./create-runner.ts";
import { verifyRunner } from "./verify-runner.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_verify_runner")));
afterAll(() => t?.close());

it("answers a known token with its runner and records the contact; anything else is 403", async () => {
  const { runner, token } = await createRunner(t.deps)({
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
  expect(runner!.contactedAt).toBe("");
  const verified = await verifyRunner(t.deps)({ token, systemId: "s_0123456789ab" });
  expect(verified).toMatchObject({ id: runner!.id });
  expect(verified.contactedAt).not.toBe("");
  expect((await t.deps.prisma.runner.findUniqueOrThrow({ where: { id: Number(runner!.id) } })).systemId).toBe("s_0123456789ab");
  for (const bad of ["", "glrt-nope", token + "x"]) {
    await expect(verifyRunner(t.deps)({ token: bad, systemId: "" })).rejects.toMatchObject({
      code: status.PERMISSION_DENIED,
      body: { message: "403 Forbidden" },
    });
  }
});
