import { execFileSync, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchSources } from "../src/git.ts";
import type { GitInfo } from "../src/protocol.ts";
import { jobPayload } from "./fake-gitlab.ts";
import { plain, runOnServer, tempDir, useFakeGitLab } from "./helpers.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, encoding: "utf8" }).trim();

/** A bare repository served over file:// and git http-backend: main has two commits, v1.0 tags the first. */
let bareDir: string;
let first: string;
let second: string;
const gitlab = useFakeGitLab();
let httpGit: Server;
let httpUrl: string;
const jobToken = "glcbt-http-token-0123456789";
const seenAuthorization: string[] = [];

/** git http-backend (CGI) behind Basic auth for gitlab-ci-token, like GitLab's HTTP git access for jobs. */
function startHttpBackend(projectRoot: string): Promise<Server> {
  const server = createServer((req, res) => {
    const authorization = req.headers.authorization ?? "";
    seenAuthorization.push(authorization);
    if (authorization !== `Basic ${Buffer.from(`gitlab-ci-token:${jobToken}`).toString("base64")}`) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url!, "http://x");
    const cgi = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method,
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
        GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
        REMOTE_USER: "gitlab-ci-token",
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(cgi.stdin);
    const out: Buffer[] = [];
    cgi.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    cgi.on("close", () => {
      const all = Buffer.concat(out);
      const split = all.indexOf("\r\n\r\n");
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of all.subarray(0, split).toString().split("\r\n")) {
        const [name, ...value] = line.split(": ");
        if (name!.toLowerCase() === "status") status = Number.parseInt(value.join(": "), 10);
        else headers[name!] = value.join(": ");
      }
      res.writeHead(status, headers).end(all.subarray(split + 4));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  const root = await tempDir("git");
  const work = path.join(root, "work");
  await mkdir(work);
  git(work, "init", "-q", "-b", "main");
  await writeFile(path.join(work, "file.txt"), "one\n");
  git(work, "add", ".");
  git(work, "commit", "-q", "-m", "first");
  first = git(work, "rev-parse", "HEAD");
  git(work, "tag", "v1.0");
  await writeFile(path.join(work, "file.txt"), "two\n");
  git(work, "commit", "-q", "-am", "second");
  second = git(work, "rev-parse", "HEAD");
  bareDir = path.join(root, "repo.git");
  git(root, "clone", "-q", "--bare", work, bareDir);
  httpGit = await startHttpBackend(root);
  httpUrl = `http://gitlab-ci-token:${jobToken}@127.0.0.1:${(httpGit.address() as AddressInfo).port}/repo.git`;
});
afterAll(() => new Promise((resolve) => httpGit.close(resolve)));

async function checkout(info: Partial<GitInfo>) {
  const dir = await tempDir("checkout");
  let log = "";
  const trace = { write: (t: string) => (log += t), line: (t: string) => (log += `${t}\n`) };
  await fetchSources(
    { repo_url: `file://${bareDir}`, ref: "main", sha: second, refspecs: [], depth: 0, ...info },
    { dir, env: { PATH: process.env.PATH! }, trace },
  );
  return { dir, log };
}

describe("fetching sources", () => {
  it("checks out the exact sha, not the branch tip", async () => {
    const { dir, log } = await checkout({ sha: first, refspecs: ["+refs/heads/main:refs/remotes/origin/main"] });
    expect(git(dir, "rev-parse", "HEAD")).toBe(first);
    expect(git(dir, "show", "HEAD:file.txt")).toBe("one");
    expect(git(dir, "rev-parse", "refs/remotes/origin/main")).toBe(second);
    expect(log).toContain(`Checking out ${first.slice(0, 8)} as detached HEAD (ref is main)...`);
  });

  it("fetches a tag through its refspec", async () => {
    const { dir } = await checkout({ ref: "v1.0", ref_type: "tag", sha: first, refspecs: ["+refs/tags/v1.0:refs/tags/v1.0"] });
    expect(git(dir, "rev-parse", "HEAD")).toBe(first);
    expect(git(dir, "tag", "--list")).toBe("v1.0");
    expect(git(dir, "branch", "-r")).toBe("");
  });

  it("fetches shallowly when a depth is given", async () => {
    const { dir, log } = await checkout({ depth: 1, refspecs: ["+refs/heads/main:refs/remotes/origin/main"] });
    expect(git(dir, "rev-parse", "HEAD")).toBe(second);
    expect(git(dir, "rev-list", "--count", "HEAD")).toBe("1");
    expect(log).toContain("Fetching changes with git depth set to 1...");
  });

  it("falls back to all branches and tags when the server sends no refspecs", async () => {
    const { dir } = await checkout({ sha: first });
    expect(git(dir, "rev-parse", "HEAD")).toBe(first);
    expect(git(dir, "tag", "--list")).toBe("v1.0");
  });

  it("clones over HTTP with the job token from repo_url without storing or printing it", async () => {
    const payload = jobPayload({
      git_info: { repo_url: httpUrl, ref: "main", sha: first, ref_type: "branch", refspecs: ["+refs/heads/main:refs/remotes/origin/main"], depth: 20 },
      variables: [],
      script: ["git rev-parse HEAD", 'grep -q "http-token" .git/config && echo "token stored" || echo "token not stored"', "git remote get-url origin"],
    });
    const { final, log } = await runOnServer(gitlab, payload);
    const text = plain(log);
    expect(final.state).toBe("success");
    expect(text).toContain(`$ git rev-parse HEAD\n${first}\n`);
    expect(text).toContain("token not stored");
    expect(text).toContain(`\nhttp://127.0.0.1:${(httpGit.address() as AddressInfo).port}/repo.git\n`);
    expect(log).not.toContain(jobToken);
    expect(seenAuthorization.some((a) => a.startsWith("Basic "))).toBe(true);
  });

  it("fails the job with script_failure, and skips after_script, when the fetch fails", async () => {
    const payload = jobPayload({
      git_info: { repo_url: `file://${bareDir}-missing`, ref: "main", sha: first, refspecs: [], depth: 0 },
      variables: [],
      afterScript: ["echo after-ran"],
    });
    const { final, log } = await runOnServer(gitlab, payload);
    expect(final).toEqual({ state: "failed", failureReason: "script_failure" });
    expect(plain(log)).toContain("ERROR: Job failed: git fetch failed: exit code 128");
    expect(plain(log)).not.toContain("after-ran");
  });

  it("skips the repository with GIT_STRATEGY=none", async () => {
    const { log } = await runOnServer(gitlab, jobPayload({ script: ["ls -A | wc -l"] }));
    expect(plain(log)).toContain("Skipping Git repository setup (GIT_STRATEGY=none)");
    expect(plain(log)).toContain("$ ls -A | wc -l\n0\n");
  });
});
