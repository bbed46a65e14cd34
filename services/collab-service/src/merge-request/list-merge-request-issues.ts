import type { Issue } from "@quarry/proto/types/collab/v1/Issue";
import type { ListMergeRequestIssuesRequest__Output } from "@quarry/proto/types/collab/v1/ListMergeRequestIssuesRequest";
import type { ListMergeRequestIssuesResponse } from "@quarry/proto/types/collab/v1/ListMergeRequestIssuesResponse";
import type { CollabDeps } from "../deps.ts";
import { visibleIssuesWhere } from "../issue/access.ts";
import { issueInclude, toIssueMessages } from "../issue/entity.ts";
import { findVisibleMergeRequest } from "./access.ts";
import { closingIssueIids, mentionedIssueIids } from "./closing-issues.ts";

/**
 * GET …/closes_issues (MergeRequest#closes_issues) and …/related_issues (closing issues, then
 * those the title and description mention without closing): only for a merge request into the
 * default branch, as GitLab closes issues only there. The closing pattern is read in the title,
 * the description and the messages of the latest version's commits; only issues the caller may
 * read are listed.
 */
export const listMergeRequestIssues =
  (deps: CollabDeps) =>
  async (req: ListMergeRequestIssuesRequest__Output): Promise<ListMergeRequestIssuesResponse> => {
    const { mr, parent, project } = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    if (mr.targetBranch !== project.defaultBranch) return { issues: [] };
    const diff = mr.diffs[0];
    let messages: string[] = [];
    if (diff?.commitShas.length) {
      const cmp = await deps.repo.CompareRefs({
        diskPath: project.diskPath,
        from: diff.baseCommitSha,
        to: diff.headCommitSha,
        straight: true,
        fromDiskPath: "",
      });
      messages = cmp.commits.map((c) => c.message);
    }
    const closing = closingIssueIids([mr.title, mr.description ?? "", ...messages].join("\n"), parent.fullPath);
    const wanted = req.closing ? closing : [...closing, ...mentionedIssueIids(`${mr.title}\n${mr.description ?? ""}`).filter((iid) => !closing.includes(iid))];
    if (!wanted.length) return { issues: [] };
    const rows = await deps.prisma.issue.findMany({
      where: { AND: [{ projectId: parent.id, iid: { in: wanted } }, visibleIssuesWhere(parent)] },
      include: issueInclude,
    });
    rows.sort((a, b) => wanted.indexOf(a.iid) - wanted.indexOf(b.iid));
    const issues: Issue[] = await toIssueMessages(deps, deps.prisma, rows, new Map([[parent.id, parent.fullPath]]));
    return { issues };
  };
