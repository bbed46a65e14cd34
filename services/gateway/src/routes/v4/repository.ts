import { notFoundMessage } from "@quarry/gitlab";
import { callServerStream, status } from "@quarry/grpc";
import type { GetArchiveResponse__Output as ArchiveChunk } from "@quarry/proto/types/repo/v1/GetArchiveResponse";
import { Router, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { sendDownload } from "../../http/download.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest, setNextPageLink, setPaginationHeaders } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { blobEntity } from "../../entities/blob.ts";
import { attachmentDisposition } from "../../entities/file.ts";
import { commitEntity } from "../../entities/commit.ts";
import { compareEntity } from "../../entities/compare.ts";
import { contributorEntity } from "../../entities/contributor.ts";
import { treeEntryEntity } from "../../entities/tree.ts";
import { webUrl } from "../../entities/urls.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** How long an archive download may stream before the gateway gives up on it. */
const ARCHIVE_DEADLINE_MS = 10 * 60_000;

/** GitLab's archive_formats_regex: tar.gz (default) and aliases, tar, zip, tar.bz2 and aliases. */
const ARCHIVE_FORMATS = ["tar.gz", "tgz", "gz", "tar", "zip", "tar.bz2", "tbz", "tbz2", "tb2", "bz2"];

/** GitLab's no_cache_headers, sent with raw blobs. */
function noCache(res: Response): void {
  res.setHeader("Cache-Control", "max-age=0, private, must-revalidate, no-store, no-cache");
  res.setHeader("Pragma", "no-cache");
  res.setHeader("Expires", "Fri, 01 Jan 1990 00:00:00 GMT");
}

/** Git's binary heuristic: a NUL byte in the first 8000 bytes. */
function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}

/** Repository contents: tree, blobs, archive, compare, contributors, merge base. */
export function repositoryRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo } = deps;
  const base = "/projects/:id/repository";

  r.get(`${base}/tree`, scope("read_repository"), async (req, res) => {
    const q = params(req, {
      ...pageShape,
      ref: p.string().optional(),
      path: p.string().optional(),
      recursive: p.bool().optional(),
      pagination: p.enum(["legacy", "keyset", "none"]).optional(),
      page_token: p.string().optional(),
    });
    if (q.pagination === "none" && !q.recursive) throw new ApiError(400, { error: 'pagination cannot be "none" unless "recursive" is true' });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const page = pageRequest(q);
    const keyset = q.pagination === "keyset";
    const result = await repo.ListTree(
      {
        diskPath: project.diskPath,
        ref: q.ref || project.defaultBranch,
        path: q.path ?? "",
        recursive: q.recursive ?? false,
        page: page.page,
        perPage: page.perPage,
        keyset,
        pageToken: keyset ? (q.page_token ?? "") : "",
        unpaginated: q.pagination === "none",
      },
      c.call,
    );
    if (keyset) {
      res.setHeader("X-Per-Page", String(page.perPage));
      if (result.nextPageToken) setNextPageLink(req, res, deps.config.externalUrl, { page_token: result.nextPageToken, per_page: String(page.perPage) });
    } else if (q.pagination !== "none") {
      c.paginate({ total: Number(result.total), ...page });
    }
    res.json(result.entries.map(treeEntryEntity));
  });

  const findBlob = async (req: Parameters<Parameters<typeof r.get>[1]>[0], res: Response) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    return repo.FindBlob({ diskPath: project.diskPath, oid: String(req.params.sha) }, c.call);
  };

  r.get(`${base}/blobs/:sha/raw`, scope("read_repository"), async (req, res) => {
    const blob = await findBlob(req, res);
    noCache(res);
    // Workhorse's content detection: text is shown inline, anything else downloaded.
    const binary = looksBinary(blob.data);
    res.setHeader("Content-Type", binary ? "application/octet-stream" : "text/plain; charset=utf-8");
    res.setHeader("Content-Disposition", binary ? "attachment" : "inline");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.status(200).end(blob.data);
  });

  r.get(`${base}/blobs/:sha`, scope("read_repository"), async (req, res) => {
    res.json(blobEntity(await findBlob(req, res)));
  });

  // Other suffixes match no route (404); include_lfs_blobs is accepted, there are no LFS objects.
  r.get(`${base}/archive{.:format}`, scope("read_repository"), async (req, res, next) => {
    const q = params(req, {
      format: p.string().optional(),
      sha: p.string().optional(),
      path: p.string().optional(),
      exclude_paths: p.array(p.string()).optional(),
      include_lfs_blobs: p.bool().optional(),
    });
    const format = q.format ?? "";
    if (format && !ARCHIVE_FORMATS.includes(format)) return next();
    const { project } = await authorizeProject(deps, req, "download_code");
    const stream = callServerStream<ArchiveChunk>(
      repo,
      "GetArchive",
      {
        diskPath: project.diskPath,
        ref: q.sha || project.defaultBranch,
        projectPath: project.path,
        path: q.path ?? "",
        excludePaths: q.exclude_paths ?? [],
        format,
      },
      { requestId: req.requestId, deadlineMs: ARCHIVE_DEADLINE_MS },
    );
    await sendDownload(
      res,
      stream,
      (first) => {
        const fileName = first.fileName;
        res.status(200);
        // Workhorse's archive headers: zip is application/zip, every tar flavour an octet stream.
        res.setHeader("Content-Type", fileName.endsWith(".zip") ? "application/zip" : "application/octet-stream");
        res.setHeader("Content-Disposition", attachmentDisposition(fileName));
        res.setHeader("Content-Transfer-Encoding", "binary");
        return true;
      },
      deps.log,
      notFoundMessage("File"),
    );
  });

  r.get(`${base}/compare`, scope("read_repository"), async (req, res) => {
    const q = params(req, {
      from: p.string(),
      to: p.string(),
      from_project_id: p.id("Project").optional(),
      straight: p.bool().optional(),
      unidiff: p.bool().optional(),
    });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    let fromDiskPath = "";
    if (q.from_project_id !== undefined && q.from_project_id !== project.id) {
      const target = await deps.identity
        .Authorize({ actor: c.actor, action: "read_repository", project: String(q.from_project_id) }, c.call)
        .catch((err: { code?: number }) => {
          if (err.code === status.NOT_FOUND) {
            throw new ApiError(400, { message: `Target project id:${q.from_project_id} is not a fork of project id:${String(req.params.id)}` });
          }
          if (err.code === status.PERMISSION_DENIED)
            throw new ApiError(403, { message: "403 Forbidden - You don't have access to this fork's parent project" });
          throw err;
        });
      fromDiskPath = target.project!.diskPath;
    }
    const result = await repo.CompareRefs({ diskPath: project.diskPath, from: q.from, to: q.to, straight: q.straight ?? false, fromDiskPath }, c.call);
    res.json(compareEntity(result, webUrl(c.urls, project.pathWithNamespace), q.unidiff ?? false));
  });

  r.get(`${base}/contributors`, scope("read_repository"), async (req, res) => {
    const q = params(req, {
      ...pageShape,
      ref: p.string().optional(),
      order_by: p.enum(["email", "name", "commits"]).optional(),
      sort: p.enum(["asc", "desc"]).optional(),
    });
    const { project } = await authorizeProject(deps, req, "read_repository");
    const page = pageRequest(q);
    const orderBy = q.order_by ?? "commits";
    const sort = q.sort ?? "asc";
    const result = await repo.ListContributors(
      { diskPath: project.diskPath, ref: q.ref || project.defaultBranch, orderBy, sort, page: page.page, perPage: page.perPage },
      { requestId: req.requestId },
    );
    setPaginationHeaders(req, res, { total: Number(result.total), ...page }, deps.config.externalUrl, { order_by: orderBy, sort });
    res.json(result.contributors.map(contributorEntity));
  });

  r.get(`${base}/merge_base`, scope("read"), async (req, res) => {
    const q = params(req, { refs: p.array(p.string()) });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const commit = await repo.FindMergeBase({ diskPath: project.diskPath, refs: q.refs }, c.call);
    res.json(commitEntity(commit, webUrl(c.urls, project.pathWithNamespace)));
  });

  return r;
}
