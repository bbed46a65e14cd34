import path from "node:path";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequest, gitIn, newProject, setUp, type TestContext } from "../../test/support.ts";
import { createRepository } from "./create-repository.ts";
import { setDefaultBranch } from "./set-default-branch.ts";

let t: TestContext;
let create: ReturnType<typeof createRepository>;
let setBranch: ReturnType<typeof setDefaultBranch>;
const dirOf = (diskPath: string) => path.join(t.deps.storageRoot, diskPath);
const recordedBranch = async (projectId: number) => (await t.deps.prisma.repository.findUniqueOrThrow({ where: { projectId } })).defaultBranch;

beforeAll(async () => {
  t = await setUp("repo_default_branch");
  create = createRepository(t.deps);
  setBranch = setDefaultBranch(t.deps);
});
afterAll(() => t?.close());

describe("SetDefaultBranch", () => {
  it("points HEAD of an empty repository at any valid branch, even with must_exist", async () => {
    const req = createRequest();
    await create(req);

    await setBranch({ diskPath: req.diskPath, branch: "develop", mustExist: false });
    expect(gitIn(dirOf(req.diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/develop");
    expect(await recordedBranch(req.projectId)).toBe("develop");

    await setBranch({ diskPath: req.diskPath, branch: "release/1.0", mustExist: true });
    expect(gitIn(dirOf(req.diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/release/1.0");
    expect(await recordedBranch(req.projectId)).toBe("release/1.0");
  });

  it("switches to an existing branch", async () => {
    const req = createRequest({ initializeWithReadme: true });
    const { headCommitId } = await create(req);
    gitIn(dirOf(req.diskPath), "update-ref", "refs/heads/stable", headCommitId);

    await expect(setBranch({ diskPath: req.diskPath, branch: "stable", mustExist: true })).resolves.toEqual({});
    expect(gitIn(dirOf(req.diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/stable");
    expect(await recordedBranch(req.projectId)).toBe("stable");
  });

  it("refuses a missing branch when the repository has branches and must_exist is set", async () => {
    const req = createRequest({ initializeWithReadme: true });
    await create(req);

    await expect(setBranch({ diskPath: req.diskPath, branch: "nope", mustExist: true })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      body: { message: "404 Branch Not Found" },
    });
    expect(gitIn(dirOf(req.diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(await recordedBranch(req.projectId)).toBe("main");

    // Without must_exist the (future) branch is accepted.
    await setBranch({ diskPath: req.diskPath, branch: "nope", mustExist: false });
    expect(gitIn(dirOf(req.diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/nope");
  });

  it.each([["a..b"], ["-x"], ["HEAD"], [""], ["with space"], ["refs/heads/x"], ["ends.lock"], ["a~1"], ["@{-1}"]])(
    "refuses the branch name %j",
    async (branch) => {
      const req = createRequest();
      await create(req);
      await expect(setBranch({ diskPath: req.diskPath, branch, mustExist: false })).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        body: { error: "default_branch does not have a valid value" },
      });
      expect(gitIn(dirOf(req.diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    },
  );

  it("answers 404 for a missing repository and 400 for a bad path", async () => {
    const { diskPath } = newProject();
    await expect(setBranch({ diskPath, branch: "main", mustExist: false })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      body: { message: "404 Repository Not Found" },
    });
    await expect(setBranch({ diskPath: "../x.git", branch: "main", mustExist: false })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });
});
