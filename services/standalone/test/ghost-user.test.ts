// Deleting a user keeps what they contributed under GitLab's Ghost User (DELETE /users/:id), or
// deletes it with hard_delete: the deleted user's issues and comments show the Ghost User as
// their author, not a null author clients stumble on.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
let projectId: number;
beforeAll(async () => {
  s = await startTestStack();
  projectId = (await jsonBody(await s.api("/projects", { method: "POST", json: { name: "ghosts", visibility: "public" } }), 201)).id;
}, 60_000);
afterAll(() => s?.destroy());

/** A Developer who opens an issue and comments on it. */
async function contributor() {
  const u = await createUserWithToken(s);
  await jsonBody(await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: u.id, access_level: 30 } }), 201);
  const issue = await jsonBody(await s.api(`/projects/${projectId}/issues`, { method: "POST", json: { title: `by ${u.username}` }, token: u.token }), 201);
  await jsonBody(await s.api(`/projects/${projectId}/issues/${issue.iid}/notes`, { method: "POST", json: { body: "mine" }, token: u.token }), 201);
  return { u, issue };
}

describe("the Ghost User", () => {
  it("takes over a deleted user's issues and comments; it is internal and cannot be deleted", async () => {
    const { u, issue } = await contributor();
    const mine = async () =>
      ((await jsonBody(await s.api(`/projects/${projectId}/events?per_page=100`), 200)) as { author_id: number }[]).filter((e) => e.author_id === u.id);
    await waitFor(async () => (await mine()).length >= 2, { message: "the user's contribution events" });
    expect((await s.api(`/users/${u.id}`, { method: "DELETE" })).status).toBe(204);
    // Their contribution events go with them (GitLab's events.author_id cascades).
    await waitFor(async () => (await mine()).length === 0, { message: "the deleted user's events to go" });
    const author = await waitFor(async () => (await jsonBody(await s.api(`/projects/${projectId}/issues/${issue.iid}`), 200)).author ?? undefined, {
      message: "the issue's author to be the Ghost User",
    });
    expect(author).toMatchObject({ username: "ghost", name: "Ghost User", state: "active" });
    const [note] = await jsonBody(await s.api(`/projects/${projectId}/issues/${issue.iid}/notes`), 200);
    expect(note.author).toMatchObject({ id: author.id, username: "ghost" });
    const ghost = await jsonBody(await s.api(`/users/${author.id}`), 200);
    expect(ghost).toMatchObject({
      bot: false,
      bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
    });
    const humans = await jsonBody(await s.api("/users?humans=true&per_page=100"), 200);
    expect(humans.map((x: { id: number }) => x.id)).not.toContain(author.id);
    expect(await jsonBody(await s.api(`/users/${author.id}`, { method: "DELETE" }), 403)).toEqual({ message: "403 Forbidden" });
  });

  it("is not needed with hard_delete: the user's issues and comments are deleted", async () => {
    const { u, issue } = await contributor();
    const other = await contributor();
    expect((await s.api(`/users/${u.id}?hard_delete=true`, { method: "DELETE" })).status).toBe(204);
    await waitFor(async () => (await s.api(`/projects/${projectId}/issues/${issue.iid}`)).status === 404, { message: "the issue to go" });
    expect((await s.api(`/projects/${projectId}/issues/${other.issue.iid}`)).status).toBe(200);
  });

  it("works through python-gitlab's users.delete(hard_delete=…)", async () => {
    const kept = await contributor();
    const gone = await contributor();
    expect(await runPythonScript(s, "ghost_user", { kept: kept.u.id, gone: gone.u.id })).toEqual({ deleted: [kept.u.id, gone.u.id] });
    await waitFor(async () => (await jsonBody(await s.api(`/projects/${projectId}/issues/${kept.issue.iid}`), 200)).author?.username === "ghost", {
      message: "kept issue under the Ghost User",
    });
    await waitFor(async () => (await s.api(`/projects/${projectId}/issues/${gone.issue.iid}`)).status === 404, { message: "hard-deleted issue gone" });
  });
});
