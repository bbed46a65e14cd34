import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("UpdateProject", () => {
  it("updates fields for maintainers; visibility and path need Owner", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Edit Me", initializeWithReadme: true });
    const maint = await f.user();
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: maint.userId, accessLevel: 40 });
    const up = await f.c.UpdateProject({ actor: maint, idOrPath: String(p.id), description: "new", topics: ["x"], topicsSet: true });
    expect(up).toMatchObject({ description: "new", topics: ["x"] });
    expect((await failure(f.c.UpdateProject({ actor: maint, idOrPath: String(p.id), visibility: "public" }))).status).toBe(403);
    expect((await f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), visibility: "public", path: "edited" })).pathWithNamespace).toMatch(/\/edited$/);
  });

  it("refuses a default branch that does not exist in a non-empty repository", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Branchy", initializeWithReadme: true });
    expect((await failure(f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), defaultBranch: "nope" }))).status).toBe(400);
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(p.id) })).defaultBranch).toBe("main");
  });
});
