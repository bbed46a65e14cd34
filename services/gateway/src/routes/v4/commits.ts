import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { assertNotBlank, LIMITS, p, pageShape, declareParams, params, parseParams, refParam, requestParams, z } from "../../http/params.ts";
import { commitDetailEntity, commitEntity, commitSignatureEntity, commitWithStatsEntity } from "../../entities/commit.ts";
import { diffEntity } from "../../entities/diff.ts";
import { webUrl } from "../../entities/urls.ts";
import { lastPipeline } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { authorizeProject, pushContext } from "./project-access.ts";
import type { CommitFileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import { formHashArray } from "../../http/form.ts";

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

const ACTIONS = ["create", "delete", "move", "update", "chmod"];
const ENCODINGS = ["text", "base64"];

/** A parameter value as Grape coerces it to String (JSON numbers and booleans included). */
const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === "object" ? undefined : String(v));

function boolValue(v: unknown): boolean | undefined {
  const r = p.bool().safeParse(v);
  return r.success ? r.data : undefined;
}

/** Decodes content as sent: `text` (UTF-8) or `base64`. */
export function decodeContent(content: string, encoding: string | undefined): Buffer {
  return Buffer.from(content, encoding === "base64" ? "base64" : "utf8");
}

/**
 * Validates GitLab's actions[] elements (Grape's nested rules: action and file_path required,
 * content for update, previous_path for move, execute_filemode for chmod, encoding text/base64)
 * and turns them into CommitFileAction messages. Errors name the element
 * (`actions[0][file_path] is missing`) and are joined like Grape joins them.
 */
export function toFileActions(raw: readonly Record<string, unknown>[]): CommitFileAction[] {
  const errors: string[] = [];
  const actions = raw.map((a, i): CommitFileAction => {
    const name = (k: string) => `actions[${i}][${k}]`;
    const action = str(a.action);
    const filePath = str(a.file_path);
    const encoding = str(a.encoding);
    const content = str(a.content);
    if (action === undefined) errors.push(`${name("action")} is missing`);
    else if (!ACTIONS.includes(action)) errors.push(`${name("action")} does not have a valid value`);
    if (filePath === undefined) errors.push(`${name("file_path")} is missing`);
    else if (filePath.length > LIMITS.filePath) errors.push(`${name("file_path")} should be a valid file path`);
    if ((str(a.previous_path)?.length ?? 0) > LIMITS.filePath) errors.push(`${name("previous_path")} should be a valid file path`);
    if ((str(a.last_commit_id)?.length ?? 0) > LIMITS.ref) errors.push(`${name("last_commit_id")} should be a valid reference path`);
    if (action === "update" && content === undefined) errors.push(`${name("content")} is missing`);
    if (action === "move" && str(a.previous_path) === undefined) errors.push(`${name("previous_path")} is missing`);
    if (encoding !== undefined && !ENCODINGS.includes(encoding)) errors.push(`${name("encoding")} does not have a valid value`);
    const execute = a.execute_filemode === undefined || a.execute_filemode === null ? undefined : boolValue(a.execute_filemode);
    if (action === "chmod" && a.execute_filemode === undefined) errors.push(`${name("execute_filemode")} is missing`);
    else if (a.execute_filemode !== undefined && execute === undefined) errors.push(`${name("execute_filemode")} does not have a valid value`);
    return {
      action: action ?? "",
      filePath: filePath ?? "",
      previousPath: str(a.previous_path) ?? "",
      content: content === undefined ? undefined : decodeContent(content, encoding),
      executeFilemode: execute,
      lastCommitId: str(a.last_commit_id) ?? "",
    };
  });
  if (errors.length) throw new ApiError(400, { error: errors.join(", ") });
  return actions;
}

/**
 * start_project must be the project itself: Quarry has no forks, and GitLab only accepts a
 * project of the target's fork network (403 otherwise; 404 when the caller cannot see it).
 */
async function assertStartProject(deps: GatewayDeps, req: Request, startProject: string | undefined, projectId: number): Promise<void> {
  if (startProject === undefined) return;
  const { project } = await deps.identity.Authorize({ actor: actor(req), action: "read_repository", project: startProject }, { requestId: req.requestId });
  if (project && project.id !== projectId) {
    throw new ApiError(403, { message: `403 Forbidden - Project is not included in the fork network for ${project.nameWithNamespace}` });
  }
}

/** Repository commits: list, read, diff, containing refs, signature; create, cherry-pick, revert. */
export function commitsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo } = deps;
  const base = "/projects/:id/repository/commits";

  // Declared up front (declareParams): authorization comes before the parameters.
  const listShape = {
    ...pageShape,
    ref_name: p.ref("ref_name").optional(),
    all: p.bool().optional(),
    author: p.searchTerm("author").optional(),
    first_parent: p.bool().optional(),
    order: p.enum(["default", "topo"]).optional(),
    path: p.filePath("path").optional(),
    since: p.string().optional(),
    until: p.string().optional(),
    trailers: p.bool().optional(),
    with_stats: p.bool().optional(),
  };
  r.get(base, scope("read_repository"), declareParams(listShape), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, listShape);
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
  const diffShape = { ...pageShape, unidiff: p.bool().optional() };
  r.get(`${base}/*sha/diff`, scope("read_repository"), declareParams(diffShape), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, diffShape);
    const page = pageRequest(q);
    const result = await repo.CommitDiff(
      { diskPath: project.diskPath, revision: refParam(req, "sha", "Commit"), page: page.page, perPage: page.perPage },
      c.call,
    );
    c.paginate({ total: Number(result.total), ...page });
    res.json(result.diffs.map((d) => diffEntity(d, { unidiff: q.unidiff ?? false })));
  });

  const refsShape = { ...pageShape, type: p.enum(["branch", "tag", "all"]).optional() };
  r.get(`${base}/*sha/refs`, scope("read_repository"), declareParams(refsShape), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, refsShape);
    const page = pageRequest(q);
    const result = await repo.ListCommitRefs(
      { diskPath: project.diskPath, revision: refParam(req, "sha", "Commit"), type: q.type ?? "all", page: page.page, perPage: page.perPage },
      c.call,
    );
    // Like GitLab, only the refs up to this page are looked up: no totals.
    c.paginateWithoutCount({ ...page, hasMore: result.hasMore });
    res.json(result.refs.map((ref) => ({ type: ref.type, name: ref.name })));
  });

  r.get(`${base}/*sha/signature`, scope("read_repository"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const signature = await repo.GetCommitSignature({ diskPath: project.diskPath, revision: refParam(req, "sha", "Commit") }, c.call);
    // identity-service owns the keys: it verifies PGP and SSH signatures (X.509 stays unverified).
    const verification =
      signature.signatureType === "PGP" || signature.signatureType === "SSH"
        ? await deps.identity.VerifySignature(
            {
              signatureType: signature.signatureType,
              signature: signature.signature,
              signedData: signature.signedData,
              committerEmail: signature.committerEmail,
            },
            c.call,
          )
        : null;
    res.json(commitSignatureEntity(signature, verification, c.urls));
  });

  const commitShape = { stats: p.bool().optional() };
  r.get(`${base}/*sha`, scope("read_repository"), declareParams(commitShape), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const q = params(req, commitShape);
    const result = await repo.FindCommit({ diskPath: project.diskPath, revision: refParam(req, "sha", "Commit"), stats: q.stats ?? true }, c.call);
    const pipeline = await lastPipeline(deps, project, result.commit!.id, c);
    res.json(commitDetailEntity(result.commit!, result.stats, webUrl(c.urls, project.pathWithNamespace), Number(project.id), pipeline));
  });

  // Writes: one commit from actions[], cherry-pick, revert.
  // Parsed with parseParams (actions may come as a Rack form), so declared for the OpenAPI document.
  const createShape = {
    branch: p.ref("branch"),
    commit_message: p.string(),
    actions: p.array(z.record(z.string(), z.unknown())),
    start_branch: p.ref("start_branch").optional(),
    start_sha: p.ref("start_sha").optional(),
    start_project: z.union([z.string(), z.number()]).transform(String).optional(),
    author_email: p.name("author_email").optional(),
    author_name: p.name("author_name").optional(),
    force: p.bool().optional(),
    stats: p.bool().optional(),
  };
  r.post(base, scope("write"), declareParams(createShape), async (req, res) => {
    const c = ctx(deps, req, res);
    // actions[] arrive as JSON, as indexed form fields (qs) or as `actions[][key]` sequences.
    const form = formHashArray(req, "actions");
    const q = parseParams(createShape, { ...requestParams(req), ...(form ? { actions: form } : {}) });
    assertNotBlank(q, ["branch", "commit_message"]);
    if (!q.actions.length) throw new ApiError(400, { error: "actions is empty" });
    if (q.start_branch !== undefined && q.start_sha !== undefined) throw new ApiError(400, { error: "start_branch, start_sha are mutually exclusive" });
    const actions = toFileActions(q.actions);
    const auth = await authorizeProject(deps, req, "push_code");
    await assertStartProject(deps, req, q.start_project, auth.project.id);
    const written = await repo.CommitFiles(
      {
        diskPath: auth.project.diskPath,
        context: pushContext(auth, req, c.urls),
        branch: q.branch,
        commitMessage: q.commit_message,
        actions,
        startBranch: q.start_branch ?? "",
        startSha: q.start_sha ?? "",
        force: q.force ?? false,
        authorName: q.author_name ?? "",
        authorEmail: q.author_email ?? "",
        fileOperation: "",
      },
      c.call,
    );
    const web = webUrl(c.urls, auth.project.pathWithNamespace);
    const stats = { additions: written.additions, deletions: written.deletions, total: written.additions + written.deletions };
    const pipeline = await lastPipeline(deps, auth.project, written.commit!.id, c);
    res.status(201).json(commitDetailEntity(written.commit!, q.stats === false ? null : stats, web, auth.project.id, pipeline));
  });

  for (const [path, rpc] of [
    ["cherry_pick", "CherryPickCommit"],
    ["revert", "RevertCommit"],
  ] as const) {
    r.post(`${base}/:sha/${path}`, scope("write"), async (req, res) => {
      const c = ctx(deps, req, res);
      const q = params(req, { sha: p.ref("sha"), branch: p.ref("branch"), dry_run: p.bool().optional(), message: p.string().optional() });
      assertNotBlank(q, ["branch"]);
      const auth = await authorizeProject(deps, req, "push_code");
      const picked = await repo[rpc](
        {
          diskPath: auth.project.diskPath,
          context: pushContext(auth, req, c.urls),
          sha: q.sha,
          branch: q.branch,
          dryRun: q.dry_run ?? false,
          message: rpc === "CherryPickCommit" ? (q.message ?? "") : "",
        },
        c.call,
      );
      if (q.dry_run) {
        res.status(200).json({ dry_run: "success" });
        return;
      }
      res.status(201).json(commitEntity(picked.commit!, webUrl(c.urls, auth.project.pathWithNamespace)));
    });
  }

  return r;
}
