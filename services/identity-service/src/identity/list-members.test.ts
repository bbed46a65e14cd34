import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ListMembers", () => {
  it("lists direct members, or effective ones including inherited group members", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "LM", path: "lm" });
    const p = await f.c.CreateProject({ actor: owner, name: "lmp", namespaceId: g.id });
    const dev = await f.user("dora");
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: dev.userId, accessLevel: 30 });
    const src = { kind: "project", idOrPath: "lm/lmp" };
    const direct = await f.c.ListMembers({ actor: dev, source: src });
    expect(direct.members.map((m) => m.user?.username)).toEqual(["dora"]);
    const all = await f.c.ListMembers({ actor: dev, source: src, includeInherited: true });
    expect(all.members.map((m) => [m.user?.id, m.accessLevel, Number(m.inheritedFromGroupId)])).toEqual(
      expect.arrayContaining([
        [owner.userId, 50, Number(g.id)],
        [dev.userId, 30, 0],
      ]),
    );
    expect((await f.c.ListMembers({ actor: dev, source: src, includeInherited: true, query: "dor" })).members).toHaveLength(1);
  });
});
