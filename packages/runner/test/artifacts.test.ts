import { execFileSync } from "node:child_process";
import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import yazl from "yazl";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveArtifactPaths } from "../src/artifact-paths.ts";
import { extractZip } from "../src/artifacts.ts";
import type { ArtifactSpec } from "../src/protocol.ts";
import { jobPayload } from "./fake-gitlab.ts";
import { plain, runOnServer, tempDir, useFakeGitLab } from "./helpers.ts";

const gitlab = useFakeGitLab();

async function writeTree(root: string, files: Record<string, string>) {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
}

async function resolve(root: string, o: { paths?: string[]; exclude?: string[]; untracked?: string[] }) {
  let log = "";
  const trace = { write: (t: string) => (log += t), line: (t: string) => (log += `${t}\n`) };
  const entries = await resolveArtifactPaths(root, { paths: o.paths ?? [], exclude: o.exclude ?? [], untracked: o.untracked ?? [], trace });
  return { rels: entries.map((e) => (e.kind === "dir" ? `${e.rel}/` : e.rel)), entries, log: plain(log) };
}

/** Writes an uploaded archive to disk for unzip/gzip to read. */
async function saved(content: Buffer, name: string): Promise<string> {
  const file = path.join(await tempDir("upload"), name);
  await writeFile(file, content);
  return file;
}

const artifact = (spec: Partial<ArtifactSpec>): ArtifactSpec => ({
  name: "artifacts",
  paths: [],
  when: "on_success",
  artifact_type: "archive",
  artifact_format: "zip",
  expire_in: null,
  ...spec,
});

describe("artifact path selection", () => {
  let root: string;
  let outside: string;
  beforeAll(async () => {
    root = await tempDir("project");
    outside = await tempDir("outside");
    await writeTree(root, {
      "out/a.txt": "a",
      "out/b.log": "b",
      "out/sub/c.txt": "c",
      "top.txt": "top",
      ".hidden/x.txt": "x",
    });
    await writeTree(outside, { "secret.txt": "secret" });
    await symlink(outside, path.join(root, "link-out"));
    await symlink("top.txt", path.join(root, "file-link"));
  });

  it("takes directories recursively", async () => {
    expect((await resolve(root, { paths: ["out/"] })).rels).toEqual(["out/", "out/a.txt", "out/b.log", "out/sub/", "out/sub/c.txt"]);
  });

  it("matches globs with ** across directories, dot files included", async () => {
    const { rels, log } = await resolve(root, { paths: ["**/*.txt"] });
    expect(rels).toEqual([".hidden/x.txt", "out/a.txt", "out/sub/c.txt", "top.txt"]);
    expect(log).toContain("**/*.txt: found 4 matching artifact files and directories");
  });

  it("drops excluded paths (not recursively: an excluded directory's files stay unless matched)", async () => {
    expect((await resolve(root, { paths: ["out"], exclude: ["**/*.log", "out/sub"] })).rels).toEqual(["out/", "out/a.txt", "out/sub/c.txt"]);
  });

  it("refuses paths that leave the project directory, also through a symlinked directory", async () => {
    const { rels, log } = await resolve(root, { paths: ["../outside.txt", "out/../../x", path.join(outside, "secret.txt"), "link-out/secret.txt"] });
    expect(rels).toEqual([]);
    expect(log.match(/artifact path is not a subpath of project directory/g)).toHaveLength(4);
  });

  it("archives symlinks as links without following them", async () => {
    const { entries } = await resolve(root, { paths: ["link-out", "file-link"] });
    expect(entries.map((e) => [e.rel, e.kind])).toEqual([
      ["file-link", "symlink"],
      ["link-out", "symlink"],
    ]);
  });

  it("warns about paths that match nothing", async () => {
    const { rels, log } = await resolve(root, { paths: ["missing/", "*.none"] });
    expect(rels).toEqual([]);
    expect(log).toContain(`WARNING: missing/: no matching files. Ensure that the artifact path is relative to the working directory (${root})`);
    expect(log).toContain("WARNING: *.none: no matching files");
  });
});

describe("artifact upload", () => {
  it("uploads a zip of the matching files as multipart field `file` with type, format and expiry", async () => {
    const { final, server, log } = await runOnServer(
      gitlab,
      jobPayload({
        script: ["mkdir -p dist/deep && echo built > dist/app.txt && echo deep > dist/deep/x.txt && echo noise > dist/skip.tmp"],
        artifacts: [artifact({ paths: ["$OUT_DIR/"], exclude: ["**/*.tmp"], expire_in: "1 week" })],
        variables: [
          { key: "GIT_STRATEGY", value: "none" },
          { key: "OUT_DIR", value: "dist" },
        ],
      }),
    );
    expect(final.state).toBe("success");
    expect(server.uploads).toHaveLength(1);
    const upload = server.uploads[0]!;
    expect(upload.query).toEqual({ artifact_type: "archive", artifact_format: "zip", expire_in: "1 week" });
    expect(upload.filename).toBe("artifacts.zip");
    expect(upload.jobToken).toBe(server.payload.token);
    const zip = await saved(upload.content, "artifacts.zip");
    const listing = execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).trim().split("\n").sort();
    expect(listing).toEqual(["dist/", "dist/app.txt", "dist/deep/", "dist/deep/x.txt"]);
    expect(execFileSync("unzip", ["-p", zip, "dist/deep/x.txt"], { encoding: "utf8" })).toBe("deep\n");
    expect(plain(log)).toContain('Uploading artifacts as "archive" to coordinator... 201 Created');
  });

  it("uploads reports as concatenated gzip members, also for a failed job when: always", async () => {
    const { final, server } = await runOnServer(
      gitlab,
      jobPayload({
        script: ["echo '<testsuite a/>' > one.xml", "echo '<testsuite b/>' > two.xml", "exit 1"],
        artifacts: [
          artifact({ name: "junit", paths: ["*.xml"], when: "always", artifact_type: "junit", artifact_format: "gzip" }),
          artifact({ paths: ["one.xml"], when: "on_success" }),
        ],
      }),
    );
    expect(final.state).toBe("failed");
    expect(server.uploads).toHaveLength(1);
    const upload = server.uploads[0]!;
    expect(upload.query).toEqual({ artifact_type: "junit", artifact_format: "gzip" });
    expect(upload.filename).toBe("junit.gz");
    const gz = await saved(upload.content, "junit.gz");
    expect(execFileSync("gzip", ["-dc", gz], { encoding: "utf8" })).toBe("<testsuite a/>\n<testsuite b/>\n");
    // Two members, one per file.
    expect(upload.content.subarray(0, 2).toString("hex")).toBe("1f8b");
    expect(upload.content.indexOf(Buffer.from([0x1f, 0x8b, 0x08]), 10)).toBeGreaterThan(0);
  });

  it("uploads a single file as-is in the raw format", async () => {
    const { server } = await runOnServer(
      gitlab,
      jobPayload({
        script: ["printf 'KEY=value\\n' > build.env"],
        artifacts: [artifact({ name: "dotenv", paths: ["build.env"], artifact_type: "dotenv", artifact_format: "raw" })],
      }),
    );
    expect(server.uploads[0]!.filename).toBe("dotenv");
    expect(server.uploads[0]!.content.toString()).toBe("KEY=value\n");
  });

  it("adds untracked files when asked", async () => {
    const { server } = await runOnServer(
      gitlab,
      jobPayload({
        script: ["git init -q .", "echo t > tracked.txt", "git add tracked.txt", "echo u > untracked.txt"],
        artifacts: [artifact({ untracked: true })],
      }),
    );
    const zip = await saved(server.uploads[0]!.content, "untracked.zip");
    expect(execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).trim()).toBe("untracked.txt");
  });

  it("warns and uploads nothing when no file matches", async () => {
    const { final, server, log } = await runOnServer(gitlab, jobPayload({ artifacts: [artifact({ paths: ["nothing/"] })] }));
    expect(final.state).toBe("success");
    expect(server.uploads).toHaveLength(0);
    expect(plain(log)).toContain("WARNING: No files to upload");
  });

  it("fails the job (script_failure) when the server refuses the upload, without retrying", async () => {
    let attempts = 0;
    gitlab.hooks.onUpload = () => {
      attempts++;
      return { status: 413 };
    };
    try {
      const { final, log } = await runOnServer(gitlab, jobPayload({ script: ["echo x > big.bin"], artifacts: [artifact({ paths: ["big.bin"] })] }));
      expect(final).toEqual({ state: "failed", failureReason: "script_failure" });
      expect(attempts).toBe(1);
      expect(plain(log)).toContain('WARNING: Uploading artifacts as "archive" to coordinator... failed: 413');
      expect(plain(log)).toContain("ERROR: Job failed: uploading artifacts failed");
    } finally {
      delete gitlab.hooks.onUpload;
    }
  });

  it("retries an upload the server failed with 5xx", async () => {
    let attempts = 0;
    gitlab.hooks.onUpload = () => (attempts++ === 0 ? { status: 503 } : undefined);
    try {
      const { final, server } = await runOnServer(gitlab, jobPayload({ script: ["echo x > out.txt"], artifacts: [artifact({ paths: ["out.txt"] })] }));
      expect(final.state).toBe("success");
      expect(attempts).toBe(2);
      expect(server.uploads).toHaveLength(1);
    } finally {
      delete gitlab.hooks.onUpload;
    }
  });
});

async function zipOf(entries: [name: string, content: string, mode?: number][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content, mode] of entries) zip.addBuffer(Buffer.from(content), name, mode ? { mode } : {});
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("dependency artifacts", () => {
  it("downloads each dependency's archive with the job's token, following the redirect, and extracts it", async () => {
    gitlab.downloads.set(501, await zipOf([["dist/from-build.txt", "from build\n"]]));
    const tokensBefore = gitlab.downloadTokens.length;
    const payload = jobPayload({
      script: ["cat dist/from-build.txt"],
      dependencies: [
        { id: 501, name: "build", token: "glcbt-other", artifacts_file: { filename: "artifacts.zip", size: 1 } },
        { id: 502, name: "lint", token: "glcbt-other" },
      ],
    });
    const { final, log } = await runOnServer(gitlab, payload);
    expect(final.state).toBe("success");
    const text = plain(log);
    expect(text).toContain("Downloading artifacts for build (501)...");
    expect(text).toContain("$ cat dist/from-build.txt\nfrom build\n");
    expect(text).not.toContain("lint (502)");
    expect(gitlab.downloadTokens.slice(tokensBefore)).toEqual([payload.token]);
  });

  it("fails the job when a dependency's artifacts cannot be downloaded", async () => {
    const payload = jobPayload({ dependencies: [{ id: 599, name: "gone", artifacts_file: { filename: "artifacts.zip", size: 1 } }] });
    const { final, log } = await runOnServer(gitlab, payload);
    expect(final).toEqual({ state: "failed", failureReason: "script_failure" });
    expect(plain(log)).toContain("WARNING: Downloading artifacts from coordinator... 404 Not Found  id=599");
  });

  it("does not write through a symlink that leads out of the extraction directory", async () => {
    const dest = await tempDir("extract");
    const outside = await tempDir("extract-outside");
    const evil = await zipOf([
      ["escape", outside, 0o120777],
      ["escape/pwned.txt", "pwned"],
    ]);
    const file = await saved(evil, "evil.zip");
    await expect(extractZip(file, dest)).rejects.toThrow(/outside of the extraction directory/);
    await expect(stat(path.join(outside, "pwned.txt"))).rejects.toThrow();
  });

  it("extracts files with their modes and replaces existing ones", async () => {
    const dest = await tempDir("extract-modes");
    await writeFile(path.join(dest, "tool.sh"), "old");
    const archive = await zipOf([["tool.sh", "#!/bin/sh\necho new\n", 0o100755]]);
    expect(await extractZip(await saved(archive, "modes.zip"), dest)).toBe(1);
    expect(await readFile(path.join(dest, "tool.sh"), "utf8")).toBe("#!/bin/sh\necho new\n");
    expect(execFileSync(path.join(dest, "tool.sh"), { encoding: "utf8" })).toBe("new\n");
  });
});
