import { Router, type Request, type Response } from "express";
import type { RepositoryFile__Output as RepositoryFile } from "@quarry/proto/types/repo/v1/RepositoryFile";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { JSON_CONTENT_TYPE } from "../../http/json.ts";
import { ApiError, invalid, missing } from "../../http/errors.ts";
import { assertNotBlank, filePathParam, LIMITS, p, params, requestParams, wildcardParam } from "../../http/params.ts";
import { blameRangeEntity, contentDisposition, fileEntity, fileHeaders } from "../../entities/file.ts";
import { ctx } from "./context.ts";
import { authorizeProject, pushContext } from "./project-access.ts";
import type { CommitFileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import { decodeContent } from "./commits.ts";

/** GitLab's no-cache headers for raw files (Gitlab::NoCacheHeaders). */
const NO_CACHE = { "Cache-Control": "max-age=0, private, must-revalidate, no-store, no-cache", Expires: "Fri, 01 Jan 1990 00:00:00 GMT" };

/** `ref` where GitLab requires it: present and not blank. */
function requiredRef(req: Request): string {
  const { ref } = params(req, { ref: p.ref("ref") });
  if (!ref) throw new ApiError(400, { error: "ref is empty" });
  return ref;
}

/** `range[start]` and `range[end]` (both or neither, positive integers); zeros when absent. */
function blameRange(req: Request): { rangeStart: number; rangeEnd: number } {
  const range = requestParams(req).range;
  if (range === undefined) return { rangeStart: 0, rangeEnd: 0 };
  const r = range && typeof range === "object" ? (range as Record<string, unknown>) : {};
  const absent = ["start", "end"].filter((k) => r[k] === undefined || r[k] === "").map((k) => `range[${k}]`);
  if (absent.length) throw missing(absent);
  const value = (k: string) => (/^\d+$/.test(String(r[k])) ? Number(r[k]) : 0);
  const bad = ["start", "end"].filter((k) => value(k) < 1).map((k) => `range[${k}]`);
  if (bad.length) throw invalid(bad);
  return { rangeStart: value("start"), rangeEnd: value("end") };
}

/**
 * GitLab's `file_path: true` validator: no directory traversal (a `..` segment) and no absolute
 * path, else 400 `file_path should be a valid file path`.
 */
function validFilePath(path: string): string {
  if (path.startsWith("/") || path.split("/").includes("..") || path.length > LIMITS.filePath)
    throw new ApiError(400, { error: "file_path should be a valid file path" });
  return path;
}

const common = {
  branch: p.ref("branch"),
  commit_message: p.string(),
  start_branch: p.ref("start_branch").optional(),
  author_email: p.name("author_email").optional(),
  author_name: p.name("author_name").optional(),
  last_commit_id: p.ref("last_commit_id").optional(),
};
const withContent = {
  ...common,
  content: p.string(),
  encoding: p.enum(["text", "base64"]).optional(),
  execute_filemode: p.bool().optional(),
};

type Common = { [K in keyof typeof common]: ReturnType<(typeof common)[K]["parse"]> };

/**
 * Repository files: file (JSON), raw content and blame, HEAD on each answering the metadata
 * headers; create (201), update (200) and delete (200), each one commit on `branch`.
 */
export function filesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo } = deps;
  const base = "/projects/:id/repository/files/*file_path";

  const readFile = async (
    req: Request,
    res: Response,
    ref: string,
    withContent: boolean,
    filePath = filePathParam(req, "file_path"),
  ): Promise<RepositoryFile> => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    return repo.GetFile({ diskPath: project.diskPath, filePath, ref: ref || project.defaultBranch, withContent }, c.call);
  };

  /** Raw files: `ref` defaults to the default branch; one leading "/" of the path is allowed. */
  const readRaw = (req: Request, res: Response, withContent: boolean) => {
    const q = params(req, { ref: p.ref("ref").optional(), lfs: p.bool().optional() });
    return readFile(req, res, q.ref ?? "", withContent, filePathParam(req, "file_path").replace(/^\//, ""));
  };

  // HEAD routes first: express would otherwise answer HEAD with the GET route.
  r.head(`${base}/raw`, scope("read_repository"), async (req, res) => {
    res
      .set({ ...fileHeaders(await readRaw(req, res, false)), ...NO_CACHE })
      .status(200)
      .end();
  });

  r.get(`${base}/raw`, scope("read_repository"), async (req, res) => {
    // lfs: there is no LFS object store, so a pointer file is returned as it is.
    const file = await readRaw(req, res, true);
    res.set({
      ...fileHeaders(file),
      ...NO_CACHE,
      "Content-Type": file.binary ? "application/octet-stream" : "text/plain; charset=utf-8",
      "Content-Disposition": contentDisposition(file.binary ? "attachment" : "inline", file.fileName),
    });
    res.status(200).end(file.content);
  });

  r.head(`${base}/blame`, scope("read_repository"), async (req, res) => {
    // setHeader, not res.set: express's set would append "; charset=utf-8".
    res.set(fileHeaders(await readFile(req, res, requiredRef(req), false))).setHeader("Content-Type", JSON_CONTENT_TYPE);
    res.status(200).end();
  });

  r.get(`${base}/blame`, scope("read_repository"), async (req, res) => {
    const ref = requiredRef(req);
    const range = blameRange(req);
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const blame = await repo.GetFileBlame({ diskPath: project.diskPath, filePath: filePathParam(req, "file_path"), ref, ...range }, c.call);
    res.set(fileHeaders(blame.file!)).json(blame.ranges.map(blameRangeEntity));
  });

  // Grape answers HEAD of its JSON routes with their JSON media type and no body.
  r.head(base, scope("read_repository"), async (req, res) => {
    // setHeader, not res.set: express's set would append "; charset=utf-8".
    res.set(fileHeaders(await readFile(req, res, requiredRef(req), false))).setHeader("Content-Type", JSON_CONTENT_TYPE);
    res.status(200).end();
  });

  r.get(base, scope("read_repository"), async (req, res) => {
    const file = await readFile(req, res, requiredRef(req), true);
    res.set(fileHeaders(file)).json(fileEntity(file));
  });

  // Writes: create (201), update (200), delete (200), each one commit on `branch`.
  /** Commits the actions of a request as one commit on its branch. */
  const commit = async (req: Request, res: Response, q: Common, actions: CommitFileAction[], fileOperation: string): Promise<void> => {
    const c = ctx(deps, req, res);
    const auth = await authorizeProject(deps, req, "push_code");
    await deps.repo.CommitFiles(
      {
        diskPath: auth.project.diskPath,
        context: pushContext(auth, req, c.urls),
        branch: q.branch,
        commitMessage: q.commit_message,
        actions,
        startBranch: q.start_branch ?? "",
        startSha: "",
        force: false,
        authorName: q.author_name ?? "",
        authorEmail: q.author_email ?? "",
        fileOperation,
      },
      c.call,
    );
  };

  r.post(base, scope("write"), async (req, res) => {
    const filePath = validFilePath(wildcardParam(req, "file_path"));
    const q = params(req, withContent);
    assertNotBlank(q, ["branch", "commit_message"]);
    const content = decodeContent(q.content, q.encoding);
    await commit(req, res, q, [{ action: "create", filePath, content, executeFilemode: q.execute_filemode }], "");
    res.status(201).json({ file_path: filePath, branch: q.branch });
  });

  r.put(base, scope("write"), async (req, res) => {
    const filePath = validFilePath(wildcardParam(req, "file_path"));
    const q = params(req, withContent);
    assertNotBlank(q, ["branch", "commit_message"]);
    const actions: CommitFileAction[] = [{ action: "update", filePath, content: decodeContent(q.content, q.encoding), lastCommitId: q.last_commit_id ?? "" }];
    // GitLab (Repository#update_file) adds a chmod action when execute_filemode is given.
    if (q.execute_filemode !== undefined) actions.push({ action: "chmod", filePath, executeFilemode: q.execute_filemode });
    await commit(req, res, q, actions, "update");
    res.status(200).json({ file_path: filePath, branch: q.branch });
  });

  r.delete(base, scope("write"), async (req, res) => {
    const filePath = validFilePath(wildcardParam(req, "file_path"));
    const q = params(req, common);
    assertNotBlank(q, ["branch", "commit_message"]);
    await commit(req, res, q, [{ action: "delete", filePath, lastCommitId: q.last_commit_id ?? "" }], "delete");
    res.status(200).end();
  });

  return r;
}
