// GitLab's notes_create_limit end to end: a stack configured for 3 notes per user and minute.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack(undefined, { notesCreateLimit: 3 });
}, 60_000);
afterAll(() => s?.destroy());

describe("note creation rate limit", () => {
  it("answers 429 with GitLab's body past the limit, per user, writing nothing", async () => {
    const project = (await (await s.api("/projects", { method: "POST", json: { name: "chatty", visibility: "public" } })).json()) as { id: number };
    const issue = (await (await s.api(`/projects/${project.id}/issues`, { method: "POST", json: { title: "busy" } })).json()) as { iid: number };
    const path = `/projects/${project.id}/issues/${issue.iid}/notes`;
    const user = await createUserWithToken(s);
    const comment = (body: string, token?: string) => s.api(path, { method: "POST", json: { body }, token });
    for (const n of [1, 2, 3]) expect((await comment(`note ${n}`, user.token)).status).toBe(201);
    const refused = await comment("one too many", user.token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/json");
    expect(await refused.json()).toEqual({ message: { error: "This endpoint has been requested too many times. Try again later." } });
    // Another user has a budget of their own; the refused note was not written.
    expect((await comment("root speaks")).status).toBe(201);
    const bodies = ((await (await s.api(`${path}?sort=asc`)).json()) as { body: string }[]).map((n) => n.body);
    expect(bodies).toEqual(["note 1", "note 2", "note 3", "root speaks"]);
  });
});
