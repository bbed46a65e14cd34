import type { Request } from "express";
import { describe, expect, it } from "vitest";
import type { GatewayDeps } from "../../deps.ts";
import { usersById } from "./ci-context.ts";

describe("the users of a page of jobs or pipelines", () => {
  it("are read in one GetUsers call, each id once; a gone user is left out", async () => {
    const calls: { ids: number[] }[] = [];
    const deps = {
      identity: {
        GetUsers: async (req: { ids: number[] }) => {
          calls.push(req);
          return { users: req.ids.filter((id) => id !== 9).map((id) => ({ id, username: `u${id}` })) };
        },
      },
    } as unknown as GatewayDeps;
    const req = { requestId: "r1", principal: { userId: 3, isAdmin: false } } as unknown as Request;
    const users = await usersById(deps, req, [3, 5, 3, 9, 0, 5]);
    expect(calls).toEqual([{ actor: { userId: 3, isAdmin: false, ipAddress: "" }, ids: [3, 5, 9] }]);
    expect([...users.keys()]).toEqual([3, 5]);
    expect(users.get(5)?.username).toBe("u5");
    expect((await usersById(deps, req, [0])).size).toBe(0);
    expect(calls).toHaveLength(1);
  });
});
