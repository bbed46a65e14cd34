import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { checkJobTokenAccess } from "./check-job-token-access.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_check_job_token");
});
afterAll(() => t.close());

const allowed = async (target: number, source: number, groups: number[] = []) =>
  (await checkJobTokenAccess(t.deps)({ targetProjectId: target, sourceProjectId: source, sourceGroupIds: groups })).allowed;

describe("CheckJobTokenAccess", () => {
  it("admits the project itself, allowlisted projects and groups, and everyone when the limit is off", async () => {
    expect(await allowed(1, 1)).toBe(true);
    expect(await allowed(1, 2)).toBe(false);
    await t.deps.prisma.jobTokenProjectLink.create({ data: { sourceProjectId: 1, targetProjectId: 2 } });
    expect(await allowed(1, 2)).toBe(true);
    // The allowlist is inbound: project 2 did not allow project 1 in.
    expect(await allowed(2, 1)).toBe(false);
    await t.deps.prisma.jobTokenGroupLink.create({ data: { sourceProjectId: 1, targetGroupId: 40 } });
    expect(await allowed(1, 3, [41])).toBe(false);
    expect(await allowed(1, 3, [40, 41])).toBe(true);
    await t.deps.prisma.ciSetting.create({ data: { projectId: 5, jobTokenScopeEnabled: false } });
    expect(await allowed(5, 9)).toBe(true);
  });
});
