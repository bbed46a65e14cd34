// repo-service's cat-file pool gauges, read on scrape from a pool of real `git cat-file` processes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMetrics } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit } from "../test/support.ts";
import { CatFilePool } from "./git/cat-file.ts";
import { registerRepoMetrics } from "./metrics.ts";

let sandbox: string;
let dir: string;
beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-repo-metrics-"));
  dir = path.join(sandbox, "a.git");
  execFileSync("git", ["init", "--bare", "-q", "-b", "main", dir]);
  gitIn(dir, "update-ref", "refs/heads/main", makeCommit(dir, { files: { "a.txt": "hello\n" } }));
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe("repo-service metrics", () => {
  it("show the cat-file pool's processes in use, alive and its bound", async () => {
    const pool = new CatFilePool({ maxProcesses: 8 });
    const metrics = createMetrics("repo-service", { defaultMetrics: false });
    registerRepoMetrics(metrics, pool);
    try {
      expect(await metrics.text()).toContain('quarry_repo_catfile_processes{service="repo-service"} 0');
      let during = "";
      await pool.use(dir, async (p) => {
        const read = p.read("main:a.txt");
        during = await metrics.text();
        await read;
      });
      expect(during).toContain('quarry_repo_catfile_processes_in_use{service="repo-service"} 1');
      const after = await metrics.text();
      expect(after).toContain('quarry_repo_catfile_processes_in_use{service="repo-service"} 0');
      expect(after).toContain('quarry_repo_catfile_processes{service="repo-service"} 1');
      expect(after).toContain('quarry_repo_catfile_processes_max{service="repo-service"} 8');
    } finally {
      pool.close();
    }
  });
});
