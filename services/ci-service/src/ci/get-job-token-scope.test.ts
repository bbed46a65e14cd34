import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { getJobTokenScope } from "./get-job-token-scope.ts";
import { setJobTokenScope } from "./set-job-token-scope.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_get")));
afterAll(() => t?.close());

it("answers GitLab's default (inbound limit on, outbound off) for a project never configured", async () => {
  expect(await getJobTokenScope(t.deps)({ projectId: 1 })).toEqual({ inboundEnabled: true, outboundEnabled: false });
});

it("reads the stored setting", async () => {
  await setJobTokenScope(t.deps)({ projectId: 2, enabled: false });
  expect(await getJobTokenScope(t.deps)({ projectId: 2 })).toEqual({ inboundEnabled: false, outboundEnabled: false });
  await expect(getJobTokenScope(t.deps)({ projectId: 0 })).rejects.toMatchObject({ body: { error: "id is invalid" } });
});
