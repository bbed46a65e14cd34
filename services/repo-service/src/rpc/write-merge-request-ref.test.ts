import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { status } from "@quarry/grpc";
import type { WriteMergeRequestRefRequest__Output } from "@quarry/proto/types/repo/v1/WriteMergeRequestRefRequest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collect, serveGitHttp } from "../../test/git-http-support.ts";
import { gitIn, gitOk, makeCommit, outboxPayloads, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { findBranch } from "./find-branch.ts";
import { listBranches } from "./list-branches.ts";
import { writeMergeRequestRef } from "./write-merge-request-ref.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let main: string;
let feature: string;

beforeAll(async () => {
  t = await setUp("repo_merge_request_refs");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  main = makeCommit(repo.dir, { message: "Main\n" });
  feature = makeCommit(repo.dir, { message: "Feature\n", parents: [main] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", main);
});

const write = (o: Partial<WriteMergeRequestRefRequest__Output> = {}) =>
  writeMergeRequestRef(t.deps)({ diskPath: repo.diskPath, iid: 1, kind: "", sha: feature, expectedOldSha: "", ...o });
const refOf = (ref: string) => gitIn(repo.dir, "rev-parse", "--verify", ref);

describe("WriteMergeRequestRef", () => {
  it("points refs/merge-requests/<iid>/head (or /merge) at the commit, without a push event", async () => {
    expect(await write()).toEqual({ ref: "refs/merge-requests/1/head", sha: feature });
    expect(refOf("refs/merge-requests/1/head")).toBe(feature);
    expect(await write({ kind: "merge", sha: "main" })).toEqual({ ref: "refs/merge-requests/1/merge", sha: main });
    expect(refOf("refs/merge-requests/1/merge")).toBe(main);
    // Moving it again without an expectation is allowed (the source branch was pushed again).
    await write({ sha: main });
    expect(refOf("refs/merge-requests/1/head")).toBe(main);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });

  it("is no branch: ListBranches and FindBranch do not show it", async () => {
    await write({ iid: 7 });
    const listed = await listBranches(t.deps)({
      projectId: repo.projectId,
      accessLevel: 30,
      diskPath: repo.diskPath,
      search: "",
      regex: "",
      page: 0,
      perPage: 0,
      defaultBranch: "main",
    });
    expect(listed.branches.map((b) => b.name)).toEqual(["main"]);
    expect(listed.total).toBe(1);
    await expect(
      findBranch(t.deps)({ diskPath: repo.diskPath, name: "merge-requests/7/head", defaultBranch: "main", projectId: repo.projectId, accessLevel: 30 }),
    ).rejects.toMatchObject({
      code: status.NOT_FOUND,
    });
  });

  it("compare-and-swap: ABORTED when the ref is not at the expected sha (zeros: must not exist)", async () => {
    const zeros = "0".repeat(40);
    await write({ expectedOldSha: zeros });
    await expect(write({ sha: main, expectedOldSha: zeros })).rejects.toMatchObject({ code: status.ABORTED });
    await expect(write({ sha: main, expectedOldSha: main })).rejects.toMatchObject({ code: status.ABORTED });
    expect(refOf("refs/merge-requests/1/head")).toBe(feature);
    await write({ sha: main, expectedOldSha: feature });
    expect(refOf("refs/merge-requests/1/head")).toBe(main);
  });

  it("refuses bad input", async () => {
    await expect(write({ kind: "tail" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { error: "kind does not have a valid value" } });
    await expect(write({ iid: 0 })).rejects.toMatchObject({ body: { error: "iid does not have a valid value" } });
    await expect(write({ sha: "" })).rejects.toMatchObject({ body: { error: "sha is missing" } });
    await expect(write({ sha: "d".repeat(40) })).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Commit Not Found" } });
    await expect(write({ expectedOldSha: "abc" })).rejects.toMatchObject({ body: { error: "expected_old_sha does not have a valid value" } });
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/merge-requests/1/head")).toBe(false);
  });
});

describe("merge request refs over smart HTTP", () => {
  it("are not cloned as branches but can be fetched by name through UploadPack", async () => {
    const served = await serveGitHttp(t);
    // A minimal smart-HTTP front as the gateway's: "# service=" line + InfoRefs, POST body → UploadPack.
    const front = http.createServer(async (req, res) => {
      const url = new URL(req.url!, "http://x");
      const diskPath = url.pathname.slice(1).replace(/\/(info\/refs|git-upload-pack)$/, "");
      const gitProtocol = String(req.headers["git-protocol"] ?? "");
      if (url.pathname.endsWith("/info/refs")) {
        const out = await collect(served.client.InfoRefs({ diskPath, service: "git-upload-pack", gitProtocol }));
        if (out.error) return res.writeHead(404).end();
        res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
        return res.end(Buffer.concat([gitProtocol ? Buffer.alloc(0) : Buffer.from("001e# service=git-upload-pack\n0000"), out.data]));
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const raw = Buffer.concat(chunks);
      const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      const call = served.client.UploadPack();
      const out = collect(call);
      call.write({ diskPath, gitProtocol });
      call.write({ data: body });
      call.end();
      const { data, error } = await out;
      if (error) return res.writeHead(500).end();
      res.writeHead(200, { "content-type": "application/x-git-upload-pack-result" }).end(data);
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    const work = mkdtempSync(path.join(os.tmpdir(), "quarry-mr-ref-"));
    try {
      await write();
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/${repo.diskPath}`;
      const run = promisify(execFile);
      const env = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", HOME: work };
      for (const version of ["0", "2"]) {
        const dest = path.join(work, `v${version}`);
        await run("git", ["-c", `protocol.version=${version}`, "clone", "--quiet", url, dest], { env });
        const clone = path.join(dest, ".git");
        expect(gitIn(clone, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main\nrefs/remotes/origin/HEAD\nrefs/remotes/origin/main");
        expect(gitOk(clone, "cat-file", "-e", feature)).toBe(false);
        await run("git", ["-C", dest, "-c", `protocol.version=${version}`, "fetch", "--quiet", "origin", "refs/merge-requests/1/head"], { env });
        expect(gitIn(clone, "rev-parse", "FETCH_HEAD")).toBe(feature);
      }
    } finally {
      await new Promise((resolve) => front.close(resolve));
      await served.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
