import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit } from "../../test/support.ts";
import { repositoryChecksum } from "./checksum.ts";

const sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-checksum-"));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function bare(name: string): string {
  const dir = path.join(sandbox, name);
  execFileSync("git", ["init", "--bare", "--quiet", dir]);
  return dir;
}

describe("repositoryChecksum", () => {
  it("is zeros for a repository without refs", async () => {
    expect(await repositoryChecksum(bare("empty.git"))).toBe("0".repeat(40));
  });

  it('is the XOR of SHA-1("<oid> <ref>") over HEAD and GitLab\'s refs, equal for a copy and different after a ref changes', async () => {
    const dir = bare("one.git");
    const sha = makeCommit(dir);
    gitIn(dir, "update-ref", "refs/heads/main", sha);
    gitIn(dir, "symbolic-ref", "HEAD", "refs/heads/main");
    gitIn(dir, "update-ref", "refs/tags/v1", sha);
    gitIn(dir, "update-ref", "refs/other/ignored", sha);
    const xor = (lines: string[]) => {
      const sum = Buffer.alloc(20);
      for (const l of lines) {
        const d = createHash("sha1").update(l).digest();
        for (let i = 0; i < 20; i++) sum[i] = sum[i]! ^ d[i]!;
      }
      return sum.toString("hex");
    };
    expect(await repositoryChecksum(dir)).toBe(xor([`${sha} HEAD`, `${sha} refs/heads/main`, `${sha} refs/tags/v1`]));

    const copy = path.join(sandbox, "copy.git");
    cpSync(dir, copy, { recursive: true });
    expect(await repositoryChecksum(copy)).toBe(await repositoryChecksum(dir));
    gitIn(copy, "update-ref", "refs/heads/extra", sha);
    expect(await repositoryChecksum(copy)).not.toBe(await repositoryChecksum(dir));
  });
});
