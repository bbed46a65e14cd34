import { existsSync, readdirSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, serveGitHttp } from "../../test/git-http-support.ts";
import { gitIn, setUp, type TestContext } from "../../test/support.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_snippet_create");
});
afterAll(() => t?.close());

describe("CreateSnippetRepository", () => {
  it("creates a bare repository at @snippets/<h[0..2]>/<h[2..4]>/<sha256(id)>.git with HEAD → main", async () => {
    const h = createHash("sha256").update("42").digest("hex");
    const r = await createSnippetRepository(t.deps)({ snippetId: 42 });
    expect(r).toEqual({ diskPath: `@snippets/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`, headCommitId: "" });
    const dir = path.join(t.deps.storageRoot, r.diskPath);
    expect(gitIn(dir, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(gitIn(dir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
  });

  it("is idempotent, also under concurrent calls, and answers with the head", async () => {
    const rs = await Promise.all(Array.from({ length: 5 }, () => createSnippetRepository(t.deps)({ snippetId: 43 })));
    expect(new Set(rs.map((r) => r.diskPath)).size).toBe(1);
    const dir = path.join(t.deps.storageRoot, rs[0]!.diskPath);
    const { commitId } = await commitSnippetFiles(t.deps)({
      snippetId: 43,
      user: { name: "Ada", email: "ada@example.com" },
      expectedHead: "",
      actions: [{ action: "create", filePath: "a.txt", previousPath: "", content: Buffer.from("a") }],
    });
    expect(await createSnippetRepository(t.deps)({ snippetId: 43 })).toEqual({ diskPath: rs[0]!.diskPath, headCommitId: commitId });
    // No temporary directories left beside it.
    expect(readdirSync(path.dirname(dir))).toEqual([path.basename(dir)]);
  });

  it("refuses an invalid snippet id", async () => {
    await expect(createSnippetRepository(t.deps)({ snippetId: -1 })).rejects.toMatchObject({ body: { error: "snippet_id does not have a valid value" } });
    expect(existsSync(path.join(t.deps.storageRoot, "@snippets", "undefined"))).toBe(false);
  });
});

describe("a snippet repository over GitHttpService", () => {
  it("is cloned and fetched by the git CLI with its disk path (protocol v0 and v2)", async () => {
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
    const work = mkdtempSync(path.join(os.tmpdir(), "quarry-snippet-clone-"));
    try {
      const { diskPath } = await createSnippetRepository(t.deps)({ snippetId: 44 });
      const user = { name: "Ada", email: "ada@example.com" };
      const content = (s: string) => Buffer.from(s);
      const create = { action: "create", filePath: "a.txt", previousPath: "", content: content("one\n") };
      await commitSnippetFiles(t.deps)({ snippetId: 44, user, expectedHead: "", actions: [create] });
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/${diskPath}`;
      const run = promisify(execFile);
      const env = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", HOME: work };
      for (const version of ["0", "2"]) {
        const dest = path.join(work, `v${version}`);
        await run("git", ["-c", `protocol.version=${version}`, "clone", "--quiet", url, dest], { env });
        expect(readFileSync(path.join(dest, "a.txt"), "utf8")).toBe("one\n");
        expect(gitIn(path.join(dest, ".git"), "log", "--format=%s", "origin/main")).toBe("Initial commit");
      }
      const next = await commitSnippetFiles(t.deps)({
        snippetId: 44,
        user,
        expectedHead: "",
        actions: [{ action: "update", filePath: "a.txt", previousPath: "", content: content("two\n") }],
      });
      await run("git", ["-C", path.join(work, "v2"), "pull", "--quiet", "--ff-only"], { env });
      expect(readFileSync(path.join(work, "v2", "a.txt"), "utf8")).toBe("two\n");
      expect(gitIn(path.join(work, "v2", ".git"), "rev-parse", "HEAD")).toBe(next.commitId);
      gitIn(path.join(work, "v2", ".git"), "fsck", "--strict");
    } finally {
      await new Promise((resolve) => front.close(resolve));
      await served.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
