// Git over smart HTTP at the root (not under /api/v4), as GitLab serves it:
//   GET  /<namespace…>/<project>[.git]/info/refs?service=git-upload-pack|git-receive-pack
//   POST /<namespace…>/<project>[.git]/git-upload-pack | git-receive-pack
// HTTP Basic with a personal access token as the password (any username), or a deploy token with
// its username (clones only); anonymous clones of public projects. Bodies stream through repo-service's GitHttpService, never buffered whole.
import { createGunzip } from "node:zlib";
import type { Readable } from "node:stream";
import type * as grpc from "@grpc/grpc-js";
import { AccessLevel, isPositiveInt32 } from "@quarry/gitlab";
import { httpErrorFromGrpc, Metadata, status } from "@quarry/grpc";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../deps.ts";
import { actor, basicCredentials, principalForToken } from "../http/auth.ts";
import { ApiError } from "../http/errors.ts";
import { assertJobTokenScope, principalForJobToken } from "../http/job-token.ts";
import { pushContext } from "./v4/project-access.ts";
import { groupWikiBase } from "./v4/wikis.ts";

type Service = "git-upload-pack" | "git-receive-pack";

const Messages = {
  accessDenied:
    "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. If a token was provided, it was either incorrect, expired, or improperly scoped.",
  projectNotFound: "The project you were looking for could not be found or you don't have permission to view it.",
  download: "You are not allowed to download code from this project.",
  push: "You are not allowed to push code to this project.",
  authDownload: "You are not allowed to download code.",
  authUpload: "You are not allowed to upload code.",
  command: "The command you're trying to execute is not allowed.",
  snippetNotFound: "The snippet you were looking for could not be found.",
  snippetPush: "Pushing to snippet repositories is not supported.",
  // Gitlab::GitAccessWiki's words.
  wikiDownload: "You are not allowed to download files from this wiki.",
  wikiPush: "You are not allowed to write to this project's wiki.",
} as const;

/** Token scopes that allow a fetch / a push (GitLab's abilities_for_scopes). */
const SCOPES: Record<Service, readonly string[]> = {
  "git-upload-pack": ["api", "read_api", "read_repository", "write_repository"],
  "git-receive-pack": ["api", "write_repository"],
};

/** Largest body chunk one request message carries. */
const CHUNK_SIZE = 64 * 1024;

/** A refusal in git's terms: a plain-text body git prints as "remote: …". */
class GitHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly challenge = false,
  ) {
    super(message);
  }
}

function sendError(res: Response, err: GitHttpError): void {
  if (err.challenge) res.setHeader("WWW-Authenticate", 'Basic realm="GitLab"');
  res.status(err.status).type("text/plain").send(err.message);
}

/** `/snippets/<id>[.git]` or `/<project path>/snippets/<id>.git` (GitLab's snippet repository paths). */
const SNIPPET_REPO = String.raw`(?:\/(.+?\/[^/]+?)\/snippets\/(\d+)\.git|\/snippets\/(\d+)(?:\.git)?)`;

export function gitHttpRouter(deps: GatewayDeps): Router {
  const r = Router();

  // Snippet repositories first: the project routes below would read them as project paths.
  r.get(new RegExp(`^${SNIPPET_REPO}\\/info\\/refs$`), async (req, res) => {
    const service = req.query.service;
    if (service !== "git-upload-pack" && service !== "git-receive-pack") return sendError(res, new GitHttpError(403, Messages.command));
    await serveSnippet(req, res, service, async (diskPath, gitProtocol) => {
      const call = deps.gitHttp.InfoRefs({ diskPath, service, gitProtocol }, callMetadata(req));
      const prefix = /(^|:)version=2(:|$)/.test(gitProtocol) ? Buffer.alloc(0) : Buffer.from(`${pktLine(`# service=${service}\n`)}0000`);
      await relay(call, res, `application/x-${service}-advertisement`, prefix);
    });
  });

  r.post(new RegExp(`^${SNIPPET_REPO}\\/(git-upload-pack|git-receive-pack)$`), async (req, res) => {
    const service = req.params[3] as Service;
    await serveSnippet(req, res, service, async (diskPath, gitProtocol) => {
      const call: grpc.ClientDuplexStream<object, { data: Buffer }> = deps.gitHttp.UploadPack(callMetadata(req));
      await Promise.all([sendBody(call, { diskPath, gitProtocol }, requestBody(req)), relay(call, res, `application/x-${service}-result`, Buffer.alloc(0))]);
    });
  });

  // Wiki repositories (`<project path>.wiki.git`, `<group full path>.wiki.git`), before the
  // project routes that would read `<project>.wiki` as a project path.
  r.get(/^\/(.+?)\.wiki\.git\/info\/refs$/, async (req, res) => {
    const service = req.query.service;
    if (service !== "git-upload-pack" && service !== "git-receive-pack") return sendError(res, new GitHttpError(403, Messages.command));
    await guard(req, res, async () => {
      const { diskPath } = await authorizeWiki(deps, req, service, String(req.params[0]));
      const gitProtocol = req.get("git-protocol") ?? "";
      const call = deps.gitHttp.InfoRefs({ diskPath, service, gitProtocol }, callMetadata(req));
      const prefix = /(^|:)version=2(:|$)/.test(gitProtocol) ? Buffer.alloc(0) : Buffer.from(`${pktLine(`# service=${service}\n`)}0000`);
      await relay(call, res, `application/x-${service}-advertisement`, prefix);
    });
  });

  r.post(/^\/(.+?)\.wiki\.git\/(git-upload-pack|git-receive-pack)$/, async (req, res) => {
    const service = req.params[1] as Service;
    await guard(req, res, async () => {
      const { diskPath, push } = await authorizeWiki(deps, req, service, String(req.params[0]));
      const gitProtocol = req.get("git-protocol") ?? "";
      const call: grpc.ClientDuplexStream<object, { data: Buffer }> =
        service === "git-upload-pack" ? deps.gitHttp.UploadPack(callMetadata(req)) : deps.gitHttp.ReceivePack(callMetadata(req));
      const first = service === "git-upload-pack" ? { diskPath, gitProtocol } : { diskPath, gitProtocol, ...push };
      await Promise.all([sendBody(call, first, requestBody(req)), relay(call, res, `application/x-${service}-result`, Buffer.alloc(0))]);
    });
  });

  r.get(/^\/(.+?\/[^/]+?)(?:\.git)?\/info\/refs$/, async (req, res) => {
    const service = req.query.service;
    if (service !== "git-upload-pack" && service !== "git-receive-pack") return sendError(res, new GitHttpError(403, Messages.command));
    await serve(req, res, service, async (diskPath, gitProtocol) => {
      const call = deps.gitHttp.InfoRefs({ diskPath, service, gitProtocol }, callMetadata(req));
      // git http-backend's framing: protocol v2 advertisements start without the service line.
      const prefix = /(^|:)version=2(:|$)/.test(gitProtocol) ? Buffer.alloc(0) : Buffer.from(`${pktLine(`# service=${service}\n`)}0000`);
      await relay(call, res, `application/x-${service}-advertisement`, prefix);
    });
  });

  r.post(/^\/(.+?\/[^/]+?)(?:\.git)?\/(git-upload-pack|git-receive-pack)$/, async (req, res) => {
    const service = req.params[1] as Service;
    await serve(req, res, service, async (diskPath, gitProtocol, auth) => {
      const call: grpc.ClientDuplexStream<object, { data: Buffer }> =
        service === "git-upload-pack" ? deps.gitHttp.UploadPack(callMetadata(req)) : deps.gitHttp.ReceivePack(callMetadata(req));
      const first =
        service === "git-upload-pack"
          ? { diskPath, gitProtocol }
          : {
              diskPath,
              gitProtocol,
              context: pushContext(auth, req, { base: deps.config.externalUrl, sshHost: deps.config.sshHost, sshPort: deps.config.sshPort }),
            };
      await Promise.all([sendBody(call, first, requestBody(req)), relay(call, res, `application/x-${service}-result`, Buffer.alloc(0))]);
    });
  });

  /**
   * Authenticates and authorizes a git request, then runs `stream` with the repository path;
   * refusals are answered the way git clients expect.
   */
  async function serve(
    req: Request,
    res: Response,
    service: Service,
    stream: (diskPath: string, gitProtocol: string, auth: { project: NonNullable<Authorized["project"]>; accessLevel: number }) => Promise<void>,
  ): Promise<void> {
    try {
      const auth = await authorize(deps, req, service, String(req.params[0]));
      await stream(auth.project.diskPath, req.get("git-protocol") ?? "", auth);
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof GitHttpError) return sendError(res, err);
      const mapped = httpErrorFromGrpc(err);
      if (mapped.status >= 500) deps.log.warn({ err, path: req.path }, "git http request failed");
      const message = typeof mapped.body.message === "string" ? mapped.body.message : "Internal Server Error";
      sendError(res, new GitHttpError(mapped.status, message));
    }
  }

  /** As serve, for a snippet repository. */
  async function serveSnippet(req: Request, res: Response, service: Service, stream: (diskPath: string, gitProtocol: string) => Promise<void>): Promise<void> {
    await guard(req, res, async () => {
      const projectPath = req.params[0] ? String(req.params[0]) : "";
      const snippetId = String(req.params[1] ?? req.params[2]);
      const diskPath = await authorizeSnippet(deps, req, service, projectPath, snippetId);
      await stream(diskPath, req.get("git-protocol") ?? "");
    });
  }

  /** Runs a git request, answering refusals the way git clients expect. */
  async function guard(req: Request, res: Response, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof GitHttpError) return sendError(res, err);
      const mapped = httpErrorFromGrpc(err);
      if (mapped.status >= 500) deps.log.warn({ err, path: req.path }, "git http request failed");
      const message = typeof mapped.body.message === "string" ? mapped.body.message : "Internal Server Error";
      sendError(res, new GitHttpError(mapped.status, message));
    }
  }

  return r;
}

type Authorized = Awaited<ReturnType<GatewayDeps["identity"]["Authorize"]>>;

/**
 * Credentials and token scopes: 401 with a Basic challenge when wrong (or missing for a push),
 * 403 when the token's scopes do not allow the service. Sets `req.principal`.
 */
async function authenticateGit(deps: GatewayDeps, req: Request, service: Service): Promise<void> {
  const creds = basicCredentials(req);
  if (creds) {
    // Jobs clone as `gitlab-ci-token` with their CI_JOB_TOKEN (GitLab's CI_REPOSITORY_URL).
    const principal = !creds.password
      ? undefined
      : creds.username === "gitlab-ci-token"
        ? await principalForJobToken(deps, creds.password, req.requestId)
        : await principalForToken(deps, creds.password, req.requestId, req.ip ?? "");
    if (!principal) throw new GitHttpError(401, Messages.accessDenied, true);
    req.principal = principal;
    if (!SCOPES[service].some((s) => principal.scopes.includes(s))) {
      throw new GitHttpError(403, service === "git-upload-pack" ? Messages.authDownload : Messages.authUpload);
    }
  } else if (service === "git-receive-pack") {
    throw new GitHttpError(401, Messages.accessDenied, true);
  }
}

/**
 * GitLab's order: credentials (401 with a Basic challenge when missing or wrong, or when an
 * anonymous caller may not fetch), token scopes (403), project visibility (404), role (403).
 */
async function authorize(deps: GatewayDeps, req: Request, service: Service, projectPath: string) {
  const deployToken = await authorizeDeployToken(deps, req, service, projectPath);
  if (deployToken) return deployToken;
  await authenticateGit(deps, req, service);
  const action = service === "git-upload-pack" ? "download_code" : "push_code";
  try {
    const res = await deps.identity.Authorize({ actor: actor(req), action, project: projectPath }, { requestId: req.requestId });
    await assertJobTokenScope(deps, req, Number(res.project!.id));
    return { project: res.project!, accessLevel: res.accessLevel };
  } catch (err) {
    // A job token outside its allowlist sees the project as missing.
    if (err instanceof ApiError && err.status === 404) throw new GitHttpError(404, Messages.projectNotFound);
    const code = (err as { code?: number }).code;
    // Anonymous callers learn nothing about private projects: they are asked to sign in.
    if ((code === status.NOT_FOUND || code === status.PERMISSION_DENIED) && !req.principal) throw new GitHttpError(401, Messages.accessDenied, true);
    if (code === status.NOT_FOUND) throw new GitHttpError(404, Messages.projectNotFound);
    if (code === status.PERMISSION_DENIED) throw new GitHttpError(403, service === "git-upload-pack" ? Messages.download : Messages.push);
    throw err;
  }
}

/**
 * A deploy token (`gldt-…` as the password, its username as the user; Gitlab::Auth's
 * deploy_token_check): 401 unless active and reaching the project, then its scopes decide —
 * read_repository fetches, nothing pushes (GitLab's auth_download / auth_upload 403s). Undefined
 * when the credentials are not a deploy token's.
 */
async function authorizeDeployToken(deps: GatewayDeps, req: Request, service: Service, projectPath: string) {
  const creds = basicCredentials(req);
  if (!creds?.password.startsWith("gldt-") || creds.username === "gitlab-ci-token") return undefined;
  let res: Awaited<ReturnType<GatewayDeps["identity"]["AuthenticateDeployToken"]>>;
  try {
    res = await deps.identity.AuthenticateDeployToken({ token: creds.password, username: creds.username, project: projectPath }, { requestId: req.requestId });
  } catch (err) {
    if ((err as { code?: number }).code === status.UNAUTHENTICATED) throw new GitHttpError(401, Messages.accessDenied, true);
    throw err;
  }
  if (service === "git-receive-pack") throw new GitHttpError(403, Messages.authUpload);
  if (!res.deployToken?.scopes.includes("read_repository")) throw new GitHttpError(403, Messages.authDownload);
  return { project: res.project!, accessLevel: 0 };
}

/** What a wiki push tells repo-service: the pusher and the wiki's project (context) or group (group_id), for its wiki_page events. */
interface WikiPush {
  context: object;
  groupId?: number;
}

/**
 * A wiki repository (Gitlab::GitAccessWiki) at `<path>.wiki.git`: the wiki of the project of
 * that path, else of the group of that path (GitLab's group wikis). Credentials as for
 * projects. A project's wiki: fetching needs read_wiki (whoever sees the project), pushing
 * create_wiki (Developer). A group's: fetching whoever sees the group (as the group wiki API),
 * pushing Developers of the group and administrators; job tokens reach no group wiki. The
 * repository is made on first access, as GitLab does, so an unwritten wiki can be cloned and
 * pushed to.
 */
async function authorizeWiki(deps: GatewayDeps, req: Request, service: Service, path: string): Promise<{ diskPath: string; push: WikiPush }> {
  await authenticateGit(deps, req, service);
  const refuse = (err: unknown): never => {
    if (err instanceof ApiError && err.status === 404) throw new GitHttpError(404, Messages.projectNotFound);
    const code = (err as { code?: number }).code;
    if ((code === status.NOT_FOUND || code === status.PERMISSION_DENIED) && !req.principal) throw new GitHttpError(401, Messages.accessDenied, true);
    if (code === status.NOT_FOUND) throw new GitHttpError(404, Messages.projectNotFound);
    if (code === status.PERMISSION_DENIED) throw new GitHttpError(403, service === "git-upload-pack" ? Messages.wikiDownload : Messages.wikiPush);
    throw err;
  };
  const ensure = async (diskPath: string) => (await deps.repo.EnsureWikiRepository({ diskPath }, { requestId: req.requestId })).diskPath;
  const action = service === "git-upload-pack" ? "read_project" : "push_code";
  let projectError: unknown;
  if (path.includes("/")) {
    try {
      const res = await deps.identity.Authorize({ actor: actor(req), action, project: path }, { requestId: req.requestId });
      await assertJobTokenScope(deps, req, Number(res.project!.id));
      const context =
        service === "git-receive-pack" ? pushContext({ project: res.project!, accessLevel: res.accessLevel }, req, { base: deps.config.externalUrl }) : {};
      return { diskPath: await ensure(res.project!.diskPath), push: { context } };
    } catch (err) {
      if ((err as { code?: number }).code !== status.NOT_FOUND) refuse(err);
      projectError = err;
    }
  }
  // No project of that path (or none the caller sees): the group's wiki.
  if (req.principal?.jobToken) throw new GitHttpError(404, Messages.projectNotFound);
  let group: { id: number; accessLevel: number };
  try {
    const res = await deps.identity.Authorize({ actor: actor(req), action: "read_group", group: path }, { requestId: req.requestId });
    group = { id: Number(res.group!.id), accessLevel: res.accessLevel };
  } catch (err) {
    return refuse((err as { code?: number }).code === status.NOT_FOUND && projectError ? projectError : err);
  }
  if (service === "git-receive-pack" && group.accessLevel < AccessLevel.DEVELOPER && !req.principal?.isAdmin) throw new GitHttpError(403, Messages.wikiPush);
  const user = req.principal;
  const context = user ? { userId: user.userId, userName: user.name, userUsername: user.username, userEmail: user.email } : {};
  return { diskPath: await ensure(groupWikiBase(group.id)), push: { context, groupId: group.id } };
}

/**
 * A snippet repository (Gitlab::GitAccessSnippet): credentials as for projects, then the snippet
 * must be readable (collab-service's rules; anonymous callers are asked to sign in, others get
 * GitLab's snippet_not_found). Pushing is refused for now.
 */
async function authorizeSnippet(deps: GatewayDeps, req: Request, service: Service, projectPath: string, snippetId: string): Promise<string> {
  await authenticateGit(deps, req, service);
  if (service === "git-receive-pack") throw new GitHttpError(403, Messages.snippetPush);
  const id = Number(snippetId);
  if (!isPositiveInt32(id)) throw req.principal ? new GitHttpError(404, Messages.snippetNotFound) : new GitHttpError(401, Messages.accessDenied, true);
  try {
    const s = await deps.collab.GetSnippet({ actor: actor(req), snippetId: id, project: projectPath, forChange: false }, { requestId: req.requestId });
    return s.diskPath;
  } catch (err) {
    const code = (err as { code?: number }).code;
    if ((code === status.NOT_FOUND || code === status.PERMISSION_DENIED) && !req.principal) throw new GitHttpError(401, Messages.accessDenied, true);
    if (code === status.NOT_FOUND || code === status.PERMISSION_DENIED) throw new GitHttpError(404, Messages.snippetNotFound);
    throw err;
  }
}

function callMetadata(req: Request): Metadata {
  const m = new Metadata();
  m.set("x-request-id", req.requestId);
  return m;
}

/** A pkt-line: 4 hex digits of length (header included), then the payload. */
function pktLine(payload: string): string {
  return (Buffer.byteLength(payload) + 4).toString(16).padStart(4, "0") + payload;
}

/** The request body, decompressed when git sent it gzipped (large fetch negotiations). */
function requestBody(req: Request): Readable {
  const encoding = (req.get("content-encoding") ?? "").trim().toLowerCase();
  return encoding === "gzip" || encoding === "x-gzip" ? req.pipe(createGunzip()) : req;
}

/** Streams `body` into the call in chunks of at most CHUNK_SIZE, after the `first` message, honouring backpressure. */
async function sendBody(call: grpc.ClientDuplexStream<object, unknown>, first: object, body: Readable): Promise<void> {
  const write = async (message: object) => {
    if (!call.write(message)) await new Promise<void>((resolve) => call.once("drain", resolve));
  };
  try {
    await write(first);
    // The request must outlive its body: the response is still to be written.
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length; at += CHUNK_SIZE) await write({ data: chunk.subarray(at, at + CHUNK_SIZE) });
    }
    call.end();
  } catch (err) {
    // A broken or corrupt body (bad gzip, client gone): abandon the call.
    call.cancel();
    throw err;
  }
}

/**
 * Streams the call's chunks into the response. Headers go out with the first chunk (or at the
 * end of an empty answer), so a failure before any output still becomes a proper HTTP error;
 * a failure later rejects with headers sent, and the caller cuts the connection.
 */
function relay(
  call: grpc.ClientReadableStream<{ data: Buffer }> | grpc.ClientDuplexStream<object, { data: Buffer }>,
  res: Response,
  contentType: string,
  prefix: Buffer,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const start = () => {
      if (res.headersSent) return;
      res.status(200);
      res.setHeader("Content-Type", contentType);
      res.setHeader("Cache-Control", "no-cache");
      if (prefix.length) res.write(prefix);
    };
    const abort = () => call.cancel();
    res.on("close", abort);
    call.on("data", (msg: { data: Buffer }) => {
      start();
      if (!res.write(msg.data)) {
        call.pause();
        res.once("drain", () => call.resume());
      }
    });
    call.on("error", (err) => {
      res.off("close", abort);
      reject(err);
    });
    // Done once the data has ended AND the call's status is OK: grpc-js may end the data before it
    // reports a failure (a refusal before any output), which must become an HTTP error, not an empty 200.
    let ended = false;
    let ok = false;
    const finish = () => {
      if (!ended || !ok) return;
      res.off("close", abort);
      start();
      res.end();
      resolve();
    };
    call.on("status", (st: { code: number }) => {
      ok = st.code === 0;
      finish();
    });
    call.on("end", () => {
      ended = true;
      finish();
    });
  });
}
