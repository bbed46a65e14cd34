import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("RevokePersonalAccessToken", () => {
  it("revokes own tokens once, publishes token_revoke, and hides others' tokens", async () => {
    const a = await f.user();
    const b = await f.user();
    const t = await f.c.CreatePersonalAccessToken({ actor: f.admin, userId: a.userId, name: "a", scopes: ["api"] });
    expect((await failure(f.c.RevokePersonalAccessToken({ actor: b, id: t.id }))).status).toBe(404);
    await f.c.RevokePersonalAccessToken({ actor: a, id: t.id });
    expect((await f.c.GetPersonalAccessToken({ actor: a, id: t.id })).revoked).toBe(true);
    expect((await failure(f.c.RevokePersonalAccessToken({ actor: a, id: t.id }))).status).toBe(400);
    const events = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.token_revoke" } });
    expect(events.map((e) => (e.payload as { token_id: number }).token_id)).toContain(Number(t.id));
  });
});
