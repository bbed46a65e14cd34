import type { CallContext } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorOf } from "./access.ts";
import { logSystemActors } from "./system-actor.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

const hookService = { userId: 0, isAdmin: false, system: "hook-service" };

describe("a system actor (a service calling on its own behalf)", () => {
  it("reads what an administrator reads, for no user", async () => {
    expect(actorOf(hookService)).toEqual({ userId: 0, isAdmin: true, system: "hook-service" });
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Sys", path: "sys-private" });
    const p = await f.c.CreateProject({ actor: u, name: "Sp", namespaceId: g.id });
    expect((await f.c.GetProject({ actor: hookService, idOrPath: String(p.id) })).id).toBe(p.id);
    expect((await f.c.GetGroup({ actor: hookService, idOrPath: String(g.id) })).id).toBe(g.id);
    expect((await f.c.GetGroupAncestors({ actor: hookService, projectId: p.id })).groupIds.map(Number)).toEqual([Number(g.id)]);
    // The same call without the system name is anonymous: the private project is hidden.
    expect((await failure(f.c.GetProject({ actor: { userId: 0, isAdmin: true }, idOrPath: String(p.id) }))).status).toBe(404);
  });

  it("is logged by name with each call", async () => {
    const lines: unknown[] = [];
    const ctx = { requestId: "r1", log: { info: (o: unknown, msg: string) => lines.push([o, msg]) } } as unknown as CallContext;
    const handlers = logSystemActors({ GetProject: async (req: unknown, _ctx: CallContext) => req });
    await handlers.GetProject({ actor: hookService }, ctx);
    await handlers.GetProject({ actor: { userId: 5, isAdmin: false } }, ctx);
    expect(lines).toEqual([[{ system: "hook-service" }, "call by a system actor"]]);
  });
});
