import type { Request, Response } from "express";
import { Router } from "express";
import type { MergeRequest__Output as MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, refParam } from "../../http/params.ts";
import { commitEntity } from "../../entities/commit.ts";
import { diffEntity } from "../../entities/diff.ts";
import { issueEntity, issueUserIds } from "../../entities/issue.ts";
import { mergeRequestBasic, mergeRequestFull, mergeRequestUserIds, mergeRequestVersionEntity } from "../../entities/merge-request.ts";
import { userBasic } from "../../entities/user.ts";
import { webUrl } from "../../entities/urls.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { fullOptionsFor } from "./merge-requests.ts";
import { authorizeProject } from "./project-access.ts";

/**
 * What a merge request is made of (lib/api/merge_requests.rb and merge_request_diffs.rb): its diff
 * versions, changes, diffs, commits, participants and the issues it mentions or closes. Which
 * versions exist is collab-service's record; the commits and diffs are read from repo-service
 * between the version's base and head.
 */

const iidShape = { merge_request_iid: p.id() };

/** A page of an in-memory list, with GitLab's pagination headers (Kaminari.paginate_array). */
function paginateArray<T>(deps: GatewayDeps, req: Request, res: Response, items: readonly T[], q: { page?: number; per_page?: number }): T[] {
  const page = pageRequest(q);
  ctx(deps, req, res).paginate({ total: items.length, ...page });
  return items.slice((page.page - 1) * page.perPage, page.page * page.perPage);
}

/** The commits (newest first) and file diffs between a version's base and head. */
async function readVersion(deps: GatewayDeps, req: Request, refs: { baseSha: string; headSha: string } | undefined) {
  const { project } = await authorizeProject(deps, req, "read_repository");
  const projectWebUrl = webUrl({ base: deps.config.externalUrl }, project.pathWithNamespace);
  if (!refs?.baseSha || !refs.headSha) return { project, projectWebUrl, commits: [], diffs: [], overflow: false };
  const cmp = await deps.repo.CompareRefs(
    { diskPath: project.diskPath, from: refs.baseSha, to: refs.headSha, straight: true, fromDiskPath: "" },
    { requestId: req.requestId },
  );
  return { project, projectWebUrl, commits: [...cmp.commits].reverse(), diffs: cmp.diffs, overflow: cmp.overflow || cmp.timedOut };
}

export function mergeRequestChangesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;
  const base = "/projects/:id/merge_requests/:merge_request_iid";
  const getMr = (req: Request, res: Response, iid: number): Promise<MergeRequest> => {
    const c = ctx(deps, req, res);
    return collab.GetMergeRequest({ actor: c.actor, project: String(req.params.id), mergeRequestIid: iid, includeDivergedCommitsCount: false }, c.call);
  };

  r.get(`${base}/versions`, scope("read"), async (req, res) => {
    const q = params(req, { ...iidShape, ...pageShape });
    const c = ctx(deps, req, res);
    const page = pageRequest(q);
    const list = await collab.ListMergeRequestVersions({ actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid, page }, c.call);
    c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
    res.json(list.versions.map(mergeRequestVersionEntity));
  });

  r.get(`${base}/versions/:version_id`, scope("read"), async (req, res) => {
    const q = params(req, { ...iidShape, version_id: p.id(), unidiff: p.bool().optional() });
    const c = ctx(deps, req, res);
    const version = await collab.GetMergeRequestVersion(
      { actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid, versionId: q.version_id },
      c.call,
    );
    const read = await readVersion(deps, req, { baseSha: version.baseCommitSha, headSha: version.headCommitSha });
    res.json({
      ...mergeRequestVersionEntity(version),
      commits: read.commits.map((cm) => commitEntity(cm, read.projectWebUrl)),
      diffs: read.diffs.map((d) => diffEntity(d, { unidiff: q.unidiff })),
    });
  });

  r.get(`${base}/changes`, scope("read"), async (req, res) => {
    const q = params(req, { ...iidShape, access_raw_diffs: p.bool().optional(), unidiff: p.bool().optional() });
    const mr = await getMr(req, res, q.merge_request_iid);
    const read = await readVersion(deps, req, mr.diffRefs ?? undefined);
    const { users, options } = await fullOptionsFor(deps, req, res, mr);
    res.json({
      ...mergeRequestFull(mr, users, options),
      changes: read.diffs.map((d) => diffEntity(d, { unidiff: q.unidiff })),
      overflow: q.access_raw_diffs ? false : read.overflow,
    });
  });

  r.get(`${base}/diffs`, scope("read"), async (req, res) => {
    const q = params(req, { ...iidShape, unidiff: p.bool().optional(), ...pageShape });
    const mr = await getMr(req, res, q.merge_request_iid);
    const read = await readVersion(deps, req, mr.diffRefs ?? undefined);
    res.json(paginateArray(deps, req, res, read.diffs, q).map((d) => diffEntity(d, { unidiff: q.unidiff })));
  });

  r.get(`${base}/commits`, scope("read"), async (req, res) => {
    const q = params(req, { ...iidShape, ...pageShape });
    const mr = await getMr(req, res, q.merge_request_iid);
    const read = await readVersion(deps, req, mr.diffRefs ?? undefined);
    res.json(paginateArray(deps, req, res, read.commits, q).map((cm) => commitEntity(cm, read.projectWebUrl)));
  });

  r.get(`${base}/participants`, scope("read"), async (req, res) => {
    const q = params(req, { ...iidShape, ...pageShape });
    const c = ctx(deps, req, res);
    const { userIds } = await collab.ListMergeRequestParticipants(
      { actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid },
      c.call,
    );
    const users = await usersById(deps, req, userIds.map(Number));
    const present = userIds.map((id) => users.get(Number(id))).filter((u) => u !== undefined);
    res.json(paginateArray(deps, req, res, present, q).map((u) => userBasic(u, c.urls)));
  });

  for (const [path, closing] of [
    ["related_issues", false],
    ["closes_issues", true],
  ] as const) {
    r.get(`${base}/${path}`, scope("read"), async (req, res) => {
      const q = params(req, { ...iidShape, ...pageShape });
      const c = ctx(deps, req, res);
      const { issues } = await collab.ListMergeRequestIssues(
        { actor: c.actor, project: String(req.params.id), mergeRequestIid: q.merge_request_iid, closing },
        c.call,
      );
      const page = paginateArray(deps, req, res, issues, q);
      const users = await usersById(deps, req, issueUserIds(page));
      res.json(
        page.map((i) => {
          const entity: Record<string, unknown> = issueEntity(i, users, c.urls, { context: { kind: "project" } });
          // closes_issues answers Entities::IssueBasic: no links, moves or service desk address.
          if (closing) for (const key of ["_links", "moved_to_id", "service_desk_reply_to"]) delete entity[key];
          return entity;
        }),
      );
    });
  }

  return r;
}

/**
 * GET /projects/:id/repository/commits/:sha/merge_requests: the merge requests a commit belongs to
 * (mounted before the commits router, whose `*sha` would take the path).
 */
export function commitMergeRequestsRouter(deps: GatewayDeps): Router {
  const r = Router();
  r.get("/projects/:id/repository/commits/*sha/merge_requests", scope("read"), async (req, res) => {
    const q = params(req, { state: p.enum(["opened", "closed", "merged", "locked"]).optional(), ...pageShape });
    const sha = refParam(req, "sha", "Commit");
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const commit = await deps.repo.FindCommit({ diskPath: project.diskPath, revision: sha, stats: false }, c.call).catch(() => null);
    const page = pageRequest(q);
    const list = await deps.collab.ListCommitMergeRequests(
      { actor: c.actor, project: String(req.params.id), sha: commit?.commit?.id ?? "", state: q.state ?? "", page },
      c.call,
    );
    if (!commit?.commit) {
      res.status(404).json({ message: "404 Commit Not Found" });
      return;
    }
    const users = await usersById(deps, req, mergeRequestUserIds(list.mergeRequests));
    c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
    res.json(list.mergeRequests.map((mr) => mergeRequestBasic(mr, users, { urls: c.urls, context: { kind: "project" } })));
  });
  return r;
}
