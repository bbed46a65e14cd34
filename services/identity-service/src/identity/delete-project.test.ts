import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("DeleteProject", () => {
  it("needs Owner, removes row and repository and queues project_destroy", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Doomed", initializeWithReadme: true });
    const dir = path.join(f.storageRoot, p.diskPath);
    const maint = await f.user();
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: maint.userId, accessLevel: 40 });
    expect((await failure(f.c.DeleteProject({ actor: maint, idOrPath: String(p.id) }))).status).toBe(403);
    await f.c.DeleteProject({ actor: owner, idOrPath: String(p.id) });
    expect((await failure(f.c.GetProject({ actor: owner, idOrPath: String(p.id) }))).status).toBe(404);
    expect(fs.existsSync(dir)).toBe(false);
    expect(await f.deps.prisma.member.count({ where: { sourceType: "project", sourceId: Number(p.id) } })).toBe(0);
  });
});
