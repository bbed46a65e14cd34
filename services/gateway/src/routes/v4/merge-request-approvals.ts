import type { MergeRequestApprovals__Output as MergeRequestApprovals } from "@quarry/proto/types/collab/v1/MergeRequestApprovals";
import { type Request, type Response, Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { p, params } from "../../http/params.ts";
import { approvalSettingsEntity, approvalStateEntity, mergeRequestApprovalsEntity } from "../../entities/merge-request-approvals.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/**
 * Merge request approvals (GitLab's lib/api/merge_request_approvals.rb, presented with EE's
 * ApprovalState as GitLab with approvals_before_merge does) and a project's approval configuration
 * (ee/lib/api/project_approvals.rb: Maintainers read and change it; the settings live with the
 * project in identity-service). Approval rules, approver lists and password re-authentication do
 * not exist here.
 */

/** GitLab's at_least_one_of for POST /projects/:id/approvals. */
const SETTINGS_FIELDS = [
  "approvals_before_merge",
  "reset_approvals_on_push",
  "selective_code_owner_removals",
  "disable_overriding_approvers_per_merge_request",
  "merge_requests_author_approval",
  "merge_requests_disable_committers_approval",
  "require_password_to_approve",
  "require_reauthentication_to_approve",
] as const;

export function mergeRequestApprovalsRouter(deps: GatewayDeps): Router {
  const r = Router();

  r.get("/projects/:id/approvals", scope("read"), async (req, res) => {
    const { project } = await authorizeProject(deps, req, "admin_project");
    res.json(approvalSettingsEntity(project));
  });

  r.post("/projects/:id/approvals", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, {
      id: p.string(),
      approvals_before_merge: p.int().optional(),
      reset_approvals_on_push: p.bool().optional(),
      // Accepted as GitLab does; features that do not exist here, so nothing is stored.
      selective_code_owner_removals: p.bool().optional(),
      disable_overriding_approvers_per_merge_request: p.bool().optional(),
      merge_requests_author_approval: p.bool().optional(),
      merge_requests_disable_committers_approval: p.bool().optional(),
      require_password_to_approve: p.bool().optional(),
      require_reauthentication_to_approve: p.bool().optional(),
    });
    if (SETTINGS_FIELDS.every((f) => q[f] === undefined)) {
      throw new ApiError(400, { error: `${SETTINGS_FIELDS.join(", ")} are missing, at least one parameter must be provided` });
    }
    await authorizeProject(deps, req, "admin_project");
    const c = ctx(deps, req, res);
    const project = await deps.identity.UpdateProject(
      {
        actor: c.actor,
        idOrPath: q.id,
        topics: [],
        topicsSet: false,
        mergeSettings: {
          approvalsBeforeMerge: q.approvals_before_merge,
          resetApprovalsOnPush: q.reset_approvals_on_push,
          mergeRequestsAuthorApproval: q.merge_requests_author_approval,
          mergeRequestsDisableCommittersApproval: q.merge_requests_disable_committers_approval,
        },
      },
      c.call,
    );
    res.status(201).json(approvalSettingsEntity(project));
  });

  /** The approval state as the caller sees it, with the approving users. */
  const present = async (req: Request, res: Response, approvals: MergeRequestApprovals, status = 200) => {
    const users = await usersById(
      deps,
      req,
      approvals.approvedBy.map((a) => Number(a.userId)),
    );
    res.status(status).json(mergeRequestApprovalsEntity(approvals, users, ctx(deps, req, res).urls));
  };
  const mrShape = { merge_request_iid: p.id() };

  r.get("/projects/:id/merge_requests/:merge_request_iid/approvals", scope("read"), async (req, res) => {
    const q = params(req, mrShape);
    const c = ctx(deps, req, res);
    await present(
      req,
      res,
      await deps.collab.GetMergeRequestApprovals({ actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid }, c.call),
    );
  });

  r.get("/projects/:id/merge_requests/:merge_request_iid/approval_state", scope("read"), async (req, res) => {
    const q = params(req, mrShape);
    const c = ctx(deps, req, res);
    await deps.collab.GetMergeRequestApprovals({ actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid }, c.call);
    res.json(approvalStateEntity());
  });

  r.post("/projects/:id/merge_requests/:merge_request_iid/approve", scope("write"), async (req, res) => {
    requireUser(req);
    // publish_review is accepted as GitLab does; there are no draft notes to publish here.
    const q = params(req, { ...mrShape, sha: p.string().optional(), publish_review: p.bool().optional() });
    const c = ctx(deps, req, res);
    const approvals = await deps.collab.ApproveMergeRequest(
      { actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid, sha: q.sha ?? "" },
      c.call,
    );
    await present(req, res, approvals, 201);
  });

  r.post("/projects/:id/merge_requests/:merge_request_iid/unapprove", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, mrShape);
    const c = ctx(deps, req, res);
    await present(
      req,
      res,
      await deps.collab.UnapproveMergeRequest({ actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid }, c.call),
      201,
    );
  });

  return r;
}
