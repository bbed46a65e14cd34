import { status } from "@quarry/grpc";
import type { UpdateSubmoduleRequest__Output } from "@quarry/proto/types/repo/v1/UpdateSubmoduleRequest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, makeTreeCommit, outboxPayloads, pushContext, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { protectBranch } from "./protect-branch.ts";
import { updateSubmodule } from "./update-submodule.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
const OLD = "a".repeat(40);
const NEW = "b".repeat(40);

beforeAll(async () => {
  t = await setUp("repo_update_submodule");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  base = makeTreeCommit(repo.dir, { ".gitmodules": '[submodule "lib/dep"]\n', "lib/dep": { submodule: OLD }, "README.md": "hi\n" }, { message: "Base\n" });
  gitIn(repo.dir, "update-ref", "refs/heads/main", base);
});

const request = (o: Partial<UpdateSubmoduleRequest__Output> = {}): UpdateSubmoduleRequest__Output => ({
  diskPath: repo.diskPath,
  context: pushContext(repo.projectId),
  submodule: "lib/dep",
  commitSha: NEW,
  branch: "main",
  commitMessage: "",
  ...o,
});
const update = (o: Partial<UpdateSubmoduleRequest__Output> = {}) => updateSubmodule(t.deps)(request(o));
const refused = (p: Promise<unknown>, message: string) => expect(p).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message } });

describe("UpdateSubmodule", () => {
  it("points the gitlink at the new commit in a commit by the acting user, with GitLab's default message", async () => {
    const commit = await update();
    expect(commit).toMatchObject({
      parentIds: [base],
      message: `Update submodule lib/dep with oid ${NEW}`,
      authorName: "Ada Lovelace",
      committerName: "Ada Lovelace",
    });
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/main")).toBe(commit.id);
    expect(gitIn(repo.dir, "ls-tree", "main", "lib/dep")).toBe(`160000 commit ${NEW}\tlib/dep`);
    expect(gitIn(repo.dir, "show", "main:README.md")).toBe("hi");
    const [event] = await outboxPayloads(t, repo.projectId);
    expect(event!.payload).toMatchObject({ before: base, after: commit.id, commits: [{ id: commit.id, modified: ["lib/dep"] }] });
    expect((await update({ commitSha: OLD, commitMessage: "Back" })).message).toBe("Back");
  });

  it("refuses what GitLab refuses", async () => {
    await refused(update({ submodule: "README.md" }), "Invalid submodule path");
    await refused(update({ submodule: "lib/missing" }), "Invalid submodule path");
    await refused(update({ submodule: "lib" }), "Invalid submodule path");
    await refused(update({ commitSha: OLD }), `The submodule lib/dep is already at ${OLD}`);
    await refused(update({ commitSha: "abc" }), "Invalid parameters");
    await refused(update({ branch: "nope" }), "You can only create or edit files when you are on a branch");
    const empty = await repositoryWith(t);
    await refused(updateSubmodule(t.deps)({ ...request(), diskPath: empty.diskPath }), "The repository is empty");
    await protectBranch(t.deps)({ projectId: repo.projectId, name: "main", allowForcePush: false, codeOwnerApprovalRequired: false });
    await expect(update({ context: pushContext(repo.projectId, { accessLevel: 30 }) })).rejects.toMatchObject({
      code: status.PERMISSION_DENIED,
      body: { message: "403 Forbidden - You are not allowed to push into this branch" },
    });
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/main")).toBe(base);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });
});
