import type { CommitFileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { assertNotBlank, p, params, wildcardParam } from "../../http/params.ts";
import { decodeContent } from "./commit-writes.ts";
import { ctx } from "./context.ts";
import { authorizeProject, pushContext } from "./project-access.ts";

/**
 * GitLab's `file_path: true` validator: no directory traversal (a `..` segment) and no absolute
 * path, else 400 `file_path should be a valid file path`.
 */
function validFilePath(path: string): string {
  if (path.startsWith("/") || path.split("/").includes("..")) throw new ApiError(400, { error: "file_path should be a valid file path" });
  return path;
}

const common = {
  branch: p.string(),
  commit_message: p.string(),
  start_branch: p.string().optional(),
  author_email: p.string().optional(),
  author_name: p.string().optional(),
  last_commit_id: p.string().optional(),
};
const withContent = {
  ...common,
  content: p.string(),
  encoding: p.enum(["text", "base64"]).optional(),
  execute_filemode: p.bool().optional(),
};

type Common = { [K in keyof typeof common]: ReturnType<(typeof common)[K]["parse"]> };

/** Repository files: create (201), update (200), delete (200), each one commit on `branch`. */
export function fileWritesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const path = "/projects/:id/repository/files/*file_path";

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

  r.post(path, scope("write"), async (req, res) => {
    const filePath = validFilePath(wildcardParam(req, "file_path"));
    const q = params(req, withContent);
    assertNotBlank(q, ["branch", "commit_message"]);
    const content = decodeContent(q.content, q.encoding);
    await commit(req, res, q, [{ action: "create", filePath, content, executeFilemode: q.execute_filemode }], "");
    res.status(201).json({ file_path: filePath, branch: q.branch });
  });

  r.put(path, scope("write"), async (req, res) => {
    const filePath = validFilePath(wildcardParam(req, "file_path"));
    const q = params(req, withContent);
    assertNotBlank(q, ["branch", "commit_message"]);
    const actions: CommitFileAction[] = [{ action: "update", filePath, content: decodeContent(q.content, q.encoding), lastCommitId: q.last_commit_id ?? "" }];
    // GitLab (Repository#update_file) adds a chmod action when execute_filemode is given.
    if (q.execute_filemode !== undefined) actions.push({ action: "chmod", filePath, executeFilemode: q.execute_filemode });
    await commit(req, res, q, actions, "update");
    res.status(200).json({ file_path: filePath, branch: q.branch });
  });

  r.delete(path, scope("write"), async (req, res) => {
    const filePath = validFilePath(wildcardParam(req, "file_path"));
    const q = params(req, common);
    assertNotBlank(q, ["branch", "commit_message"]);
    await commit(req, res, q, [{ action: "delete", filePath, lastCommitId: q.last_commit_id ?? "" }], "delete");
    res.status(200).end();
  });

  return r;
}
