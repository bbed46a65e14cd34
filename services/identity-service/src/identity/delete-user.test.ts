import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskPathFor } from "./convert.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("DeleteUser", () => {
  it("removes the user, their tokens, namespace, projects and repositories", async () => {
    const u = await f.user("ivy");
    await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: u.userId, name: "t", scopes: ["api"] });
    const p = await f.c.CreateProject({ actor: u, name: "mine", initializeWithReadme: true });
    const repoDir = path.join(f.storageRoot, diskPathFor(Number(p.id)));
    expect(fs.existsSync(repoDir)).toBe(true);
    await f.c.DeleteUser({ actor: f.admin, id: u.userId });
    expect(await f.deps.prisma.user.count({ where: { id: u.userId } })).toBe(0);
    expect(await f.deps.prisma.personalAccessToken.count({ where: { userId: u.userId } })).toBe(0);
    expect(await f.deps.prisma.project.count({ where: { id: Number(p.id) } })).toBe(0);
    expect(fs.existsSync(repoDir)).toBe(false);
  });

  it("is for administrators; unknown users are 404", async () => {
    const u = await f.user("jack");
    expect((await failure(f.c.DeleteUser({ actor: u, id: u.userId }))).status).toBe(403);
    expect((await failure(f.c.DeleteUser({ actor: f.admin, id: 424242 }))).status).toBe(404);
  });
});
