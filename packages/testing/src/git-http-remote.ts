// A git smart-HTTP server for tests that push to "somewhere else" (push mirrors): bare
// repositories in a temporary folder served by `git http-backend` (CGI) behind node's http
// server on loopback, with HTTP basic authentication (401 + WWW-Authenticate otherwise).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

export interface GitHttpRemote {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** Folder holding the bare repositories. */
  root: string;
  /** Creates an empty bare repository `<name>.git` that accepts pushes; returns its URL without credentials. */
  createRepository(name: string): string;
  /** Absolute path of `<name>.git`. */
  repositoryPath(name: string): string;
  /** `git for-each-ref` of a repository: ref name → object id (branches and tags). */
  refs(name: string): Record<string, string>;
  /** The Authorization headers seen, in order (to check what clients sent). */
  authorizations: string[];
  /** Holds every request until the returned function is called (to observe work in progress). */
  pause(): () => void;
  close(): Promise<void>;
}

const cleanEnv = () => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir() });

export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync("git", ["--git-dir", dir, ...args], { env: cleanEnv(), encoding: "utf8" });
}

/** `git for-each-ref` of the repository at `dir`: ref name → object id (branches and tags). */
export function refsIn(dir: string): Record<string, string> {
  const out = gitIn(dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/", "refs/tags/");
  return Object.fromEntries(
    out
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" ") as [string, string]),
  );
}

/** Starts the server; only requests authenticated as `username`/`password` are served. */
export async function startGitHttpRemote(o: { username: string; password: string }): Promise<GitHttpRemote> {
  const root = mkdtempSync(path.join(os.tmpdir(), "quarry-git-remote-"));
  const expected = "Basic " + Buffer.from(`${o.username}:${o.password}`).toString("base64");
  const authorizations: string[] = [];

  let gate: Promise<void> | null = null;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (gate) await gate;
    const auth = req.headers.authorization ?? "";
    if (auth) authorizations.push(auth);
    if (auth !== expected) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"', "Content-Type": "text/plain" });
      res.end("Unauthorized\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const env: Record<string, string> = {
      ...cleanEnv(),
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      REMOTE_USER: o.username,
      REMOTE_ADDR: req.socket.remoteAddress ?? "",
      GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
    };
    if (req.headers["content-length"]) env.CONTENT_LENGTH = String(req.headers["content-length"]);
    if (req.headers["content-encoding"]) env.HTTP_CONTENT_ENCODING = String(req.headers["content-encoding"]);
    const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "ignore"] });
    req.pipe(child.stdin);
    child.stdin.on("error", () => {});
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf("\r\n\r\n");
      const lf = head.indexOf("\n\n");
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString("latin1").split(/\r?\n/)) {
        const i = line.indexOf(":");
        if (i <= 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end));
    });
    child.on("close", () => {
      if (!headersDone) res.writeHead(500);
      res.end();
    });
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const repositoryPath = (name: string) => path.join(root, `${name}.git`);
  return {
    baseUrl,
    root,
    authorizations,
    repositoryPath,
    pause() {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
    createRepository(name) {
      const dir = repositoryPath(name);
      execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", dir], { env: cleanEnv() });
      gitIn(dir, "config", "http.receivepack", "true");
      return `${baseUrl}/${name}.git`;
    },
    refs: (name) => refsIn(repositoryPath(name)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
