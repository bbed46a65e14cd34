import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_context");
});
afterAll(() => t?.close());

/** A project whose `main` has three commits (the last with trailers) and one open merge request by `author`. */
async function projectWithCommits(author: TestActor) {
  const project = await t.project();
  const auth = await t.svc.deps.identity.Authorize({ actor: { ...t.admin, system: "" }, action: "read_project", project: String(project.id) });
  const diskPath = auth.project!.diskPath;
  const shas: string[] = [];
  const messages = [
    "First\n",
    "Second\n",
    "Third\n\nBody text.\n\nSigned-off-by: A <a@example.com>\nSigned-off-by: B <b@example.com>\nReviewed-by: C <c@example.com>\n",
  ];
  for (const [i, commitMessage] of messages.entries()) {
    const written = await t.svc.deps.repo.CommitFiles({
      diskPath,
      context: {
        projectId: project.id,
        userId: t.admin.userId,
        userName: "Administrator",
        userUsername: "root",
        userEmail: "admin@example.com",
        accessLevel: 60,
      },
      branch: "main",
      commitMessage,
      actions: [{ action: "create", filePath: `f${i}.txt`, content: Buffer.from(`${i}\n`) }],
    });
    shas.push(written.commit!.id);
  }
  const mr = await t.svc.deps.prisma.mergeRequest.create({
    data: {
      projectId: project.id,
      sourceProjectId: project.id,
      iid: 1,
      title: "Change",
      sourceBranch: "feature",
      targetBranch: "main",
      authorId: author.userId,
    },
  });
  return { project, shas, mr, ref: (actor: TestActor) => ({ actor, project: String(project.id), mergeRequestIid: 1 }) };
}

describe("merge request context commits", () => {
  it("attaches commits with their metadata and trailers, lists the stored copies, and detaches them", async () => {
    const author = await t.user();
    const { project, shas, ref } = await projectWithCommits(author);
    await t.member("project", project.id, author, AccessLevel.GUEST);
    const created = await t.client.CreateMergeRequestContextCommits({ mergeRequest: ref(author), commits: [shas[2]!, shas[0]!.slice(0, 10)] });
    expect(created.projectPath).toBe(project.path);
    expect(created.commits.map((c) => c.id)).toEqual([shas[2], shas[0]]);
    expect(created.commits[0]).toMatchObject({
      parentIds: [shas[1]],
      authorName: "Administrator",
      authorEmail: "admin@example.com",
      trailers: { "Signed-off-by": "B <b@example.com>", "Reviewed-by": "C <c@example.com>" },
    });
    expect(created.commits[0]!.extendedTrailers["Signed-off-by"]!.values).toEqual(["A <a@example.com>", "B <b@example.com>"]);

    const listed = await t.client.ListMergeRequestContextCommits({ mergeRequest: ref(t.anonymous) });
    expect(listed.commits.map((c) => c.id)).toEqual([shas[2], shas[0]]);
    expect(listed.commits[0]).toMatchObject({ parentIds: [], message: expect.stringContaining("Body text."), committerEmail: "admin@example.com" });
    expect(Number(listed.pageInfo!.total)).toBe(2);
    const rows = await t.svc.deps.prisma.mergeRequestContextCommit.findMany({ orderBy: { id: "asc" }, where: { sha: { in: shas } } });
    expect(rows.map((r) => [r.sha, r.relativeOrder])).toEqual([
      [shas[2], 0],
      [shas[0], 1],
    ]);
    expect(rows[0]!.trailers).toEqual({ "Signed-off-by": "B <b@example.com>", "Reviewed-by": "C <c@example.com>" });

    // A commit already attached (by any prefix) is refused, and nothing else of the call is written.
    expect(await failure(t.client.CreateMergeRequestContextCommits({ mergeRequest: ref(t.admin), commits: [shas[1]!, shas[2]!.slice(0, 8)] }))).toEqual({
      status: 400,
      body: { message: `Context commits: ["${shas[2]}"] are already created` },
    });
    expect(await failure(t.client.CreateMergeRequestContextCommits({ mergeRequest: ref(t.admin), commits: [shas[1]!, "0".repeat(40)] }))).toEqual({
      status: 400,
      body: { message: "One or more context commits' sha is not valid." },
    });
    expect((await t.client.ListMergeRequestContextCommits({ mergeRequest: ref(t.admin) })).commits).toHaveLength(2);

    // Deleting: unknown SHAs refuse the whole call; known but unattached ones are ignored.
    expect(await failure(t.client.DeleteMergeRequestContextCommits({ mergeRequest: ref(t.admin), commits: [shas[2]!, "f".repeat(40)] }))).toEqual({
      status: 400,
      body: { message: "One or more context commits' sha is not valid." },
    });
    await t.client.DeleteMergeRequestContextCommits({ mergeRequest: ref(t.admin), commits: [shas[2]!, shas[1]!] });
    expect((await t.client.ListMergeRequestContextCommits({ mergeRequest: ref(t.admin) })).commits.map((c) => c.id)).toEqual([shas[0]]);
  });

  it("needs update_merge_request to change them, 20 SHAs at most, and a merge request of the project", async () => {
    const [author, guest, developer] = [await t.user(), await t.user(), await t.user()];
    const { project, shas, ref } = await projectWithCommits(author);
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    await t.member("project", project.id, developer, AccessLevel.DEVELOPER);
    expect(await failure(t.client.CreateMergeRequestContextCommits({ mergeRequest: ref(guest), commits: [shas[0]!] }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await failure(t.client.DeleteMergeRequestContextCommits({ mergeRequest: ref(guest), commits: [shas[0]!] }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect((await t.client.CreateMergeRequestContextCommits({ mergeRequest: ref(developer), commits: [shas[0]!] })).commits).toHaveLength(1);
    expect(await failure(t.client.CreateMergeRequestContextCommits({ mergeRequest: ref(developer), commits: Array(21).fill(shas[1]!) }))).toEqual({
      status: 400,
      body: { message: "Context commits array size should not be more than 20" },
    });
    expect(await failure(t.client.ListMergeRequestContextCommits({ mergeRequest: { ...ref(developer), mergeRequestIid: 2 } }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    const hidden = await t.project({ visibility: "private" });
    expect(await failure(t.client.ListMergeRequestContextCommits({ mergeRequest: { actor: guest, project: String(hidden.id), mergeRequestIid: 1 } }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
  });
});
