import type { Issue } from "@quarry/proto/types/collab/v1/Issue";
import type { IssueRef__Output } from "@quarry/proto/types/collab/v1/IssueRef";
import type { CollabDeps } from "../deps.ts";
import { findVisibleIssue } from "./access.ts";
import { loadIssueMessage } from "./entity.ts";

/** GET /projects/:id/issues/:issue_iid: 404 Issue Not Found for unknown and unreadable confidential issues. */
export const getIssue =
  (deps: CollabDeps) =>
  async (req: IssueRef__Output): Promise<Issue> => {
    const { parent, issue } = await findVisibleIssue(deps, req.actor, req.project, Number(req.issueIid));
    return loadIssueMessage(deps, parent, issue.id);
  };
