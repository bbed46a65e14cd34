import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("GetProject", () => {
  it("finds by id or full path and hides private projects from non-members", async () => {
    const u = await f.user("lee");
    const p = await f.c.CreateProject({ actor: u, name: "Hidden" });
    expect((await f.c.GetProject({ actor: u, idOrPath: "LEE/hidden" })).id).toBe(p.id);
    const other = await f.user();
    expect(await failure(f.c.GetProject({ actor: other, idOrPath: String(p.id) }))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await failure(f.c.GetProject({ actor: f.anonymous, idOrPath: "lee/hidden" }))).status).toBe(404);
    expect((await f.c.GetProject({ actor: f.admin, idOrPath: String(p.id) })).projectAccessLevel).toBe(0);
  });
});
