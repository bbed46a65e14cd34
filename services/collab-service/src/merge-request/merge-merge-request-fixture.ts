// Test fixtures for merging: a project with a repository, commits written through repo-service,
// and merge request rows (the merge request API itself is mr-core's).
import type { CollabTestContext, TestActor } from "../../test/support.ts";
import type { MergeRequest, Prisma } from "../generated/prisma/client.ts";

export const PUSHER = { userName: "Administrator", userUsername: "root", userEmail: "admin@example.com", webUrl: "", httpUrl: "", sshUrl: "" };

export interface RepoProject {
  id: number;
  path: string;
  diskPath: string;
}

/** A public project whose main branch has a README (identity creates the repository). */
export async function repoProject(t: CollabTestContext, visibility = "public"): Promise<RepoProject> {
  const name = `mrm${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const p = await t.identity.CreateProject({ actor: t.admin, name, path: name, visibility, initializeWithReadme: true });
  return { id: Number(p.id), path: p.pathWithNamespace, diskPath: p.diskPath };
}

/** Commits `files` to `branch` (created from `startBranch` when given) as the administrator; returns the new head. */
export async function commit(t: CollabTestContext, p: RepoProject, branch: string, files: Record<string, string>, startBranch = ""): Promise<string> {
  const written = await t.svc.deps.repo.CommitFiles({
    diskPath: p.diskPath,
    context: { projectId: p.id, userId: t.admin.userId, userName: "Administrator", userEmail: "admin@example.com", accessLevel: 60, defaultBranch: "main" },
    branch,
    startBranch,
    commitMessage: `Change ${Object.keys(files).join(", ")}`,
    actions: Object.entries(files).map(([filePath, content]) => ({ action: "create", filePath, content: Buffer.from(content) })),
  });
  return written.commit!.id;
}

let nextIid = 1000;

/** A merge request row from `source` into main, its head being the source's head. */
export async function mergeRequestRow(
  t: CollabTestContext,
  p: RepoProject,
  source: string,
  over: Partial<Prisma.MergeRequestUncheckedCreateInput> = {},
): Promise<MergeRequest> {
  const branch = await t.svc.deps.repo.FindBranch({ diskPath: p.diskPath, name: source, defaultBranch: "main", projectId: p.id, accessLevel: 60 });
  return t.svc.deps.prisma.mergeRequest.create({
    data: {
      projectId: p.id,
      sourceProjectId: p.id,
      iid: nextIid++,
      title: `Merge ${source}`,
      sourceBranch: source,
      targetBranch: "main",
      authorId: t.admin.userId,
      headSha: branch.commit!.id,
      ...over,
    },
  });
}

/** The MergeMergeRequest request for `mr` as `actor`. */
export const mergeRef = (p: RepoProject, mr: { iid: number }, actor: TestActor) => ({ actor, project: String(p.id), mergeRequestIid: mr.iid });

/** main's head and that commit's parents. */
export async function mainHead(t: CollabTestContext, p: RepoProject, branch = "main") {
  const b = await t.svc.deps.repo.FindBranch({ diskPath: p.diskPath, name: branch, defaultBranch: "main", projectId: p.id, accessLevel: 60 });
  return b.commit!;
}
