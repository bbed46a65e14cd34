import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { setUp, type TestContext } from "../../test/support.ts";
import { registerRunner } from "./register-runner.ts";
import { verifyRunner } from "./verify-runner.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_register_runner");
});
afterAll(() => t.close());

const register = (registrationToken: string) =>
  registerRunner(t.deps)({
    registrationToken,
    description: "legacy",
    paused: false,
    locked: false,
    runUntagged: true,
    tagList: ["a"],
    accessLevel: "",
    maximumTimeout: 0,
    maintenanceNote: "",
  });

describe("RegisterRunner", () => {
  it("is closed without a configured registration token", async () => {
    expect(await register("anything").catch((e: unknown) => httpErrorFromGrpc(e))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
  });

  it("registers an instance runner with the instance token only", async () => {
    t.deps.settings.runnerRegistrationToken = "GR1348941secret";
    expect(await register("GR1348941wrong!").catch((e: unknown) => httpErrorFromGrpc(e))).toMatchObject({ status: 403 });
    const created = await register("GR1348941secret");
    expect(created.token).toMatch(/^glrt-/);
    expect(created.runner).toMatchObject({ runnerType: "instance_type", description: "legacy", tagList: ["a"] });
    expect((await verifyRunner(t.deps)({ token: created.token!, systemId: "" })).id).toBe(created.runner!.id);
  });
});
