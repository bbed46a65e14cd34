import type { Request } from "express";
import { describe, expect, it } from "vitest";
import type { GatewayDeps } from "../deps.ts";
import { assertJobTokenScope } from "./job-token.ts";

describe("a job token on another project", () => {
  it("is checked against the target's allowlist with the source project's group chain, read in one identity call", async () => {
    const identityCalls: unknown[] = [];
    const checks: unknown[] = [];
    const deps = {
      identity: {
        GetGroupAncestors: async (req: unknown) => {
          identityCalls.push(req);
          return { groupIds: ["12", "11", "10"] };
        },
      },
      ci: {
        CheckJobTokenAccess: async (req: unknown) => {
          checks.push(req);
          return { allowed: true };
        },
      },
    } as unknown as GatewayDeps;
    const req = { requestId: "r1", principal: { userId: 5, jobToken: { jobId: 3, projectId: 7 } } } as unknown as Request;
    await assertJobTokenScope(deps, req, 9);
    expect(identityCalls).toEqual([{ actor: { userId: 5, isAdmin: false }, projectId: 7 }]);
    expect(checks).toEqual([{ targetProjectId: 9, sourceProjectId: 7, sourceGroupIds: [12, 11, 10] }]);

    deps.ci.CheckJobTokenAccess = (async () => ({ allowed: false })) as unknown as GatewayDeps["ci"]["CheckJobTokenAccess"];
    await expect(assertJobTokenScope(deps, req, 9)).rejects.toMatchObject({ status: 404 });
  });
});
