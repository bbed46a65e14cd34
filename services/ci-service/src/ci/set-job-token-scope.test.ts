import { afterAll, beforeAll, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { setJobTokenScope } from "./set-job-token-scope.ts";

let t: TestContext;
beforeAll(async () => (t = await setUp("ci_scope_set")));
afterAll(() => t?.close());

it("creates the settings row on first change and updates it afterwards", async () => {
  await setJobTokenScope(t.deps)({ projectId: 3, enabled: false });
  expect(await t.deps.prisma.ciSetting.findUnique({ where: { projectId: 3 } })).toMatchObject({ jobTokenScopeEnabled: false });
  await setJobTokenScope(t.deps)({ projectId: 3, enabled: true });
  expect(await t.deps.prisma.ciSetting.findUnique({ where: { projectId: 3 } })).toMatchObject({ jobTokenScopeEnabled: true });
  expect(await t.deps.prisma.ciSetting.count()).toBe(1);
});
