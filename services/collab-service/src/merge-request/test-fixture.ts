// Test-only helpers for the merge request handler tests: a project with a repository (README on
// main), commits written through repo-service (which publishes their pushes on the shared bus),
// members at each level, and merge requests created through the RPC.
import { AccessLevel } from "@quarry/gitlab";
import type { CreateMergeRequestRequest } from "@quarry/proto/types/collab/v1/CreateMergeRequestRequest";
import type { CollabTestContext, TestActor } from "../../test/support.ts";

export async function mergeRequestFixture(t: CollabTestContext, options: { visibility?: string } = {}) {
  const p = await t.identity.CreateProject({
    actor: t.admin,
    name: `mr${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    path: `mr${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    namespaceId: 0,
    visibility: options.visibility ?? "private",
    initializeWithReadme: true,
  });
  const project = { id: Number(p.id), path: p.pathWithNamespace, diskPath: p.diskPath };
  const [guest, reporter, developer, maintainer, owner, outsider] = await Promise.all([t.user(), t.user(), t.user(), t.user(), t.user(), t.user()]);
  await t.member("project", project.id, guest, AccessLevel.GUEST);
  await t.member("project", project.id, reporter, AccessLevel.REPORTER);
  await t.member("project", project.id, developer, AccessLevel.DEVELOPER);
  await t.member("project", project.id, maintainer, AccessLevel.MAINTAINER);
  await t.member("project", project.id, owner, AccessLevel.OWNER);

  /** repo-service's push context: the administrator writing to the project. */
  const context = {
    projectId: project.id,
    pathWithNamespace: project.path,
    defaultBranch: "main",
    userId: t.admin.userId,
    userUsername: "root",
    userName: "Administrator",
    accessLevel: 60,
  };

  /** One commit on `branch` (created from `startBranch` when given) as the administrator; its sha. */
  const commit = async (branch: string, files: Record<string, string>, o: { startBranch?: string; message?: string } = {}) => {
    const written = await t.svc.deps.repo.CommitFiles({
      diskPath: project.diskPath,
      context: {
        projectId: project.id,
        pathWithNamespace: project.path,
        defaultBranch: "main",
        userId: t.admin.userId,
        userUsername: "root",
        userName: "Administrator",
        accessLevel: 60,
      },
      branch,
      commitMessage: o.message ?? `Change ${Object.keys(files).join(", ")}`,
      actions: Object.entries(files).map(([filePath, content]) => ({ action: "create", filePath, content: Buffer.from(content) })),
      startBranch: o.startBranch ?? "",
    });
    return written.commit!.id;
  };

  const create = (actor: TestActor, fields: Partial<CreateMergeRequestRequest> = {}) =>
    t.client.CreateMergeRequest({ actor, project: String(project.id), sourceBranch: "feature", targetBranch: "main", title: "A change", ...fields });
  const ref = (iid: number | string) => ({ project: String(project.id), mergeRequestIid: Number(iid) });

  return { project, context, guest, reporter, developer, maintainer, owner, outsider, commit, create, ref };
}
