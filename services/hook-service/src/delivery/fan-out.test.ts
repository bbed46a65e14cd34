import { describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { groupChain, projectGroupChain, SYSTEM_ACTOR } from "./fan-out.ts";

/** identity with GetGroupAncestors only: walking GetGroup/GetProject level by level would throw. */
function identity(chains: Record<string, number[]>) {
  const calls: unknown[] = [];
  const deps = {
    identity: {
      GetGroupAncestors: async (req: { groupId?: number; projectId?: number }) => {
        calls.push(req);
        return { groupIds: chains[req.projectId ? `p${req.projectId}` : `g${req.groupId}`] ?? [] };
      },
    },
  } as unknown as HookDeps;
  return { deps, calls };
}

describe("group hook fan-out", () => {
  it("asks identity-service for a whole group chain in one call, however deep", async () => {
    const { deps, calls } = identity({ g4: [4, 3, 2, 1], p9: [4, 3, 2, 1], p10: [] });
    expect(await groupChain(deps, SYSTEM_ACTOR, 4)).toEqual([4, 3, 2, 1]);
    expect(await projectGroupChain(deps, 9)).toEqual([4, 3, 2, 1]);
    expect(await projectGroupChain(deps, 10)).toEqual([]);
    expect(calls).toHaveLength(3);
    expect(calls[1]).toEqual({ actor: SYSTEM_ACTOR, projectId: 9 });
  });

  it("asks as the hook-service system actor, not as a user", () => {
    expect(SYSTEM_ACTOR).toEqual({ userId: 0, isAdmin: false, system: "hook-service" });
  });
});
