// GitLab's repository checksum (Gitaly's CalculateChecksum, Gitlab::Git::Checksum): the XOR of
// SHA-1("<oid> <ref name>") over HEAD and the refs GitLab keeps, as `git show-ref --head` lists them.
// Two repositories with the same refs pointing at the same objects have the same checksum; a storage
// move compares source and copy with it.
import { createHash } from "node:crypto";
import { git } from "./git.ts";

/** The refs the checksum covers (Gitaly's refWhitelist): HEAD and GitLab's ref namespaces. */
const COVERED = ["refs/heads/", "refs/tags/", "refs/keep-around/", "refs/merge-requests/", "refs/environments/", "refs/remotes/", "refs/pipelines/"];

/** The 40-hex checksum; all zeros for a repository without refs. */
export async function repositoryChecksum(gitDir: string): Promise<string> {
  // show-ref exits 1 when there is nothing to show (an empty repository).
  const { stdout } = await git(["show-ref", "--head"], { gitDir, okExitCodes: [1] });
  const sum = Buffer.alloc(20);
  for (const line of stdout.split("\n")) {
    const space = line.indexOf(" ");
    if (space < 0) continue;
    const ref = line.slice(space + 1);
    if (ref !== "HEAD" && !COVERED.some((prefix) => ref.startsWith(prefix))) continue;
    const digest = createHash("sha1").update(line).digest();
    for (let i = 0; i < 20; i++) sum[i] = sum[i]! ^ digest[i]!;
  }
  return sum.toString("hex");
}
