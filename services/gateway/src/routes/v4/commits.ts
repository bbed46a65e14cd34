import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, wildcardParam } from "../../http/params.ts";
import { commitDetailEntity, commitEntity, commitSignatureEntity, commitWithStatsEntity } from "../../entities/commit.ts";
import { diffEntity } from "../../entities/diff.ts";
import { webUrl } from "../../entities/urls.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/**
 * Grape's DateTime coercion for the ISO 8601 inputs GitLab documents: a date, or a date and a
 * time with an optional zone (UTC when absent). Anything else is `400 {"error": "<name> is invalid"}`.
 * Returns a normalised UTC timestamp ("" when absent).
 */
function isoTime(value: string | undefined, name: string): string {
  if (!value) return "";
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(value.trim());
  const zone = (z: string | undefined) => {
    if (!z || z.toUpperCase() === "Z") return "Z";
    const digits = z.slice(1).replace(":", "");
    return `${z[0]}${digits.slice(0, 2)}:${digits.slice(2) || "00"}`;
  };
  const ms = m ? Date.parse(`${m[1]}T${m[2] ?? "00:00"}${zone(m[3])}`) : Number.NaN;
  if (Number.isNaN(ms)) throw new ApiError(400, { error: `${name} is invalid` });
  return new Date(ms).toISOString();
}

/** Repository commits: list, read, diff, containing refs, signature. */
export function commitsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo } = deps;
  const base = "/projects/:id/repository/commits";

  r.get(base, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, {
      ...pageShape,
      ref_name: p.string().optional(),
      all: p.bool().optional(),
      author: p.string().optional(),
      first_parent: p.bool().optional(),
      order: p.enum(["default", "topo"]).optional(),
      path: p.string().optional(),
      since: p.string().optional(),
      until: p.string().optional(),
      trailers: p.bool().optional(),
      with_stats: p.bool().optional(),
    });
    const since = isoTime(q.since, "since");
    const until = isoTime(q.until, "until");
    const page = pageRequest(q);
    const result = await repo.ListCommits(
      {
        diskPath: project.diskPath,
        refName: q.ref_name ?? "",
        defaultBranch: project.defaultBranch,
        all: q.all ?? false,
        author: q.author ?? "",
        firstParent: q.first_parent ?? false,
        topoOrder: q.order === "topo",
        path: q.path ?? "",
        since,
        until,
        trailers: q.trailers ?? false,
        withStats: q.with_stats ?? false,
        page: page.page,
        perPage: page.perPage,
      },
      c.call,
    );
    c.paginateWithoutCount({ ...page, hasMore: result.hasMore });
    const web = webUrl(c.urls, project.pathWithNamespace);
    res.json(result.commits.map(({ commit, stats }) => (q.with_stats ? commitWithStatsEntity(commit!, stats, web) : commitEntity(commit!, web))));
  });

  // The suffixed routes come first: `*sha` alone would swallow "<sha>/diff".
  r.get(`${base}/*sha/diff`, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, { ...pageShape, unidiff: p.bool().optional() });
    const page = pageRequest(q);
    const result = await repo.CommitDiff({ diskPath: project.diskPath, revision: wildcardParam(req, "sha"), page: page.page, perPage: page.perPage }, c.call);
    c.paginate({ total: Number(result.total), ...page });
    res.json(result.diffs.map((d) => diffEntity(d, { unidiff: q.unidiff ?? false })));
  });

  r.get(`${base}/*sha/refs`, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, { ...pageShape, type: p.enum(["branch", "tag", "all"]).optional() });
    const page = pageRequest(q);
    const result = await repo.ListCommitRefs(
      { diskPath: project.diskPath, revision: wildcardParam(req, "sha"), type: q.type ?? "all", page: page.page, perPage: page.perPage },
      c.call,
    );
    // Like GitLab, only the refs up to this page are looked up: no totals.
    c.paginateWithoutCount({ ...page, hasMore: result.hasMore });
    res.json(result.refs.map((ref) => ({ type: ref.type, name: ref.name })));
  });

  r.get(`${base}/*sha/signature`, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const signature = await repo.GetCommitSignature({ diskPath: project.diskPath, revision: wildcardParam(req, "sha") }, c.call);
    res.json(commitSignatureEntity(signature));
  });

  r.get(`${base}/*sha`, scope("read"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, { stats: p.bool().optional() });
    const result = await repo.FindCommit({ diskPath: project.diskPath, revision: wildcardParam(req, "sha"), stats: q.stats ?? true }, c.call);
    res.json(commitDetailEntity(result.commit!, result.stats, webUrl(c.urls, project.pathWithNamespace), Number(project.id)));
  });

  return r;
}
