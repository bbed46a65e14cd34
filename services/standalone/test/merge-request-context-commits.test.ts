// Merge request context commits end to end: commits pushed with the git CLI over smart HTTP, then
// attached, listed and detached through the API (plain fetch for statuses and bodies, gitbeaker).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";
import { addMember, GitClient, projectWithMergeRequest } from "./mr-api.ts";

let s: TestStack;
let git: GitClient;

beforeAll(async () => {
  s = await startTestStack();
  git = new GitClient(s);
}, 60_000);
afterAll(async () => {
  git?.cleanUp();
  await s?.destroy();
});

describe("merge request context commits", () => {
  it("attaches pushed commits, lists them, refuses duplicates and unknown SHAs, and detaches them", async () => {
    const { project, mr } = await projectWithMergeRequest(s, { visibility: "public" });
    const dir = await git.clone(project, "main");
    await git.pushCommits(dir, "earlier", [
      { file: "a.txt", content: "a\n", message: "Earlier work" },
      { file: "b.txt", content: "b\n", message: "More work\n\nWith a body.\n\nSigned-off-by: Dev <dev@example.com>" },
    ]);
    const [second, first] = (await git.run(dir, "log", "--format=%H", "-2")).split("\n");
    const base = `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;

    const created = await jsonBody(await s.api(base, { method: "POST", json: { commits: [second, first!.slice(0, 12)] } }), 201);
    expect(created).toEqual([
      {
        id: second,
        short_id: second!.slice(0, 8),
        created_at: expect.any(String),
        parent_ids: [first],
        title: "More work",
        message: "More work\n\nWith a body.\n\nSigned-off-by: Dev <dev@example.com>\n",
        author_name: "Dev",
        author_email: "dev@example.com",
        authored_date: expect.any(String),
        committer_name: "Dev",
        committer_email: "dev@example.com",
        committed_date: expect.any(String),
        trailers: { "Signed-off-by": "Dev <dev@example.com>" },
        extended_trailers: { "Signed-off-by": ["Dev <dev@example.com>"] },
        web_url: `${s.url}/${project.path_with_namespace}/-/commit/${second}`,
      },
      expect.objectContaining({ id: first, title: "Earlier work", trailers: {} }),
    ]);

    const res = await s.api(base, { token: null });
    const listed = await jsonBody(res, 200);
    expect(res.headers.get("x-total")).toBe("2");
    expect(listed.map((c: { id: string }) => c.id)).toEqual([second, first]);
    // The stored copies' times come back in UTC with milliseconds, as GitLab's timestamp columns do.
    const utc = (t: string) => new Date(t).toISOString();
    expect(listed[0]).toEqual({
      id: second,
      short_id: second!.slice(0, 8),
      created_at: utc(created[0].committed_date),
      parent_ids: null,
      title: "More work",
      message: created[0].message,
      author_name: "Dev",
      author_email: "dev@example.com",
      authored_date: utc(created[0].authored_date),
      committer_name: "Dev",
      committer_email: "dev@example.com",
      committed_date: utc(created[0].committed_date),
    });

    expect(await jsonBody(await s.api(base, { method: "POST", json: { commits: [second!.slice(0, 10)] } }), 400)).toEqual({
      message: `Context commits: ["${second}"] are already created`,
    });
    const unknown = "0123456789abcdef0123456789abcdef01234567";
    expect(await jsonBody(await s.api(base, { method: "POST", json: { commits: [unknown] } }), 400)).toEqual({
      message: "One or more context commits' sha is not valid.",
    });
    expect(await jsonBody(await s.api(base, { method: "POST", json: {} }), 400)).toEqual({ error: "commits is missing" });
    expect(await jsonBody(await s.api(base, { method: "POST", json: { commits: [] } }), 400)).toEqual({ error: "commits is empty" });
    expect(await jsonBody(await s.api(base, { method: "POST", json: { commits: Array(21).fill(second) } }), 400)).toEqual({
      message: "Context commits array size should not be more than 20",
    });
    expect(await jsonBody(await s.api(base, { method: "DELETE", json: { commits: [second, unknown] } }), 400)).toEqual({
      message: "One or more context commits' sha is not valid.",
    });

    expect((await s.api(base, { method: "DELETE", json: { commits: [second] } })).status).toBe(204);
    const gitbeaker = await s.gitlab().MergeRequestContextCommits.all(project.id, mr.iid);
    expect(gitbeaker.map((c) => c.id)).toEqual([first]);
  });

  it("needs a signed-in caller allowed to update the merge request to change them", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s, { visibility: "public" });
    const guest = await createUserWithToken(s);
    await addMember(s, project.id, guest.id, 10);
    const base = `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;
    expect(await jsonBody(await s.api(base, { method: "POST", json: { commits: [commit.id] }, token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await s.api(base, { method: "POST", json: { commits: [commit.id] }, token: guest.token }), 403)).toEqual({
      message: "403 Forbidden",
    });
    expect(await jsonBody(await s.api(base, { method: "DELETE", json: { commits: [commit.id] }, token: guest.token }), 403)).toEqual({
      message: "403 Forbidden",
    });
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/42/context_commits`), 404)).toEqual({ message: "404 Not found" });
  });
});
