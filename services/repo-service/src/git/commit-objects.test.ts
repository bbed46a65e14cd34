import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit } from "../../test/support.ts";
import { CatFilePool } from "./cat-file.ts";
import { findCommitObject, isoDate, isPlausibleRevision, toApiCommit, walkCommits } from "./commit-objects.ts";
import { readCommit } from "./commits.ts";

let sandbox: string;
let dir: string;
let pool: CatFilePool;
const all: string[] = [];

/** A deterministic PRNG (mulberry32), so the random history is the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZONES = ["+00:00", "+05:30", "-08:00", "+01:00"];

beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-commit-objects-"));
  dir = path.join(sandbox, "r.git");
  execFileSync("git", ["init", "--quiet", "--bare", dir]);
  pool = new CatFilePool();
  // A random history: 1–3 parents among earlier commits, few distinct timestamps (many ties),
  // and times that go backwards (a parent newer than its child), in several zones.
  const rand = random(42);
  for (let i = 0; i < 70; i++) {
    const parents =
      i === 0 ? [] : [...new Set(Array.from({ length: 1 + Math.floor(rand() * (rand() < 0.7 ? 1 : 3)) }, () => all[Math.floor(rand() * all.length)]!))];
    const hour = 10 + Math.floor(rand() * 4);
    const zone = ZONES[Math.floor(rand() * ZONES.length)]!;
    const date = `2026-11-21T${hour}:00:00${zone}`;
    const message = i % 7 === 0 ? `Commit ${i}\n\nBody.\n\nSigned-off-by: A <a@example.com>\n` : `Commit ${i}\n`;
    all.push(
      makeCommit(dir, {
        message,
        parents,
        author: { name: `Author ${i % 3}`, email: `a${i % 3}@example.com`, date },
        committer: { name: "Committer", email: "c@example.com", date },
      }),
    );
  }
});
afterAll(() => {
  pool.close();
  rmSync(sandbox, { recursive: true, force: true });
});

describe("walkCommits", () => {
  it("emits exactly what `git log` does, from every start, with merges, equal and backwards timestamps", async () => {
    for (const start of all.filter((_, i) => i % 5 === 4 || i === all.length - 1)) {
      const expected = gitIn(dir, "log", "--format=%H", start).split("\n");
      const first = (await findCommitObject(pool, dir, start))!;
      const walked = await walkCommits(pool, dir, first, 10_000);
      expect(walked.map((c) => c.oid)).toEqual(expected);
    }
  });

  it("stops after `count` commits, agreeing with git log --max-count", async () => {
    const head = all[all.length - 1]!;
    const walked = await walkCommits(pool, dir, (await findCommitObject(pool, dir, head))!, 7);
    expect(walked.map((c) => c.oid)).toEqual(gitIn(dir, "log", "--format=%H", "--max-count=7", head).split("\n"));
  });
});

describe("parseCommitObject / toApiCommit", () => {
  it("gives the same Commit as reading it with git log (dates in their zones, trailers, merges)", async () => {
    for (const sha of all.slice(0, 30)) {
      const parsed = (await findCommitObject(pool, dir, sha))!;
      expect(toApiCommit(parsed)).toEqual(await readCommit(dir, sha));
    }
  });

  it("leaves trailers out when asked to", async () => {
    const parsed = (await findCommitObject(pool, dir, all[7]!))!;
    expect(toApiCommit(parsed).trailers).toEqual({ "Signed-off-by": "A <a@example.com>" });
    expect(toApiCommit(parsed, { trailers: false })).toMatchObject({ trailers: {}, extendedTrailers: {} });
  });

  it("decodes a commit written in another encoding, as git log re-encodes it", async () => {
    const tree = gitIn(dir, "rev-parse", `${all[0]}^{tree}`);
    const body = Buffer.concat([
      Buffer.from(
        `tree ${tree}\nauthor J\xfcrgen <j@example.com> 1700000000 +0100\ncommitter J\xfcrgen <j@example.com> 1700000000 +0100\nencoding ISO-8859-1\n\n`,
        "latin1",
      ),
      Buffer.from("Gr\xfc\xdfe\n", "latin1"),
    ]);
    const sha = execFileSync("git", ["--git-dir", dir, "hash-object", "-t", "commit", "-w", "--stdin"], { input: body, encoding: "utf8" }).trim();
    const commit = toApiCommit((await findCommitObject(pool, dir, sha))!);
    expect(commit).toMatchObject({ authorName: "Jürgen", message: "Grüße\n", authoredDate: "2023-11-14T23:13:20+01:00" });
    expect(commit).toEqual(await readCommit(dir, sha));
  });

  it("keeps the signature header", async () => {
    const tree = gitIn(dir, "rev-parse", `${all[0]}^{tree}`);
    const raw = `tree ${tree}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\ngpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n -----END SSH SIGNATURE-----\n\nSigned\n`;
    const sha = execFileSync("git", ["--git-dir", dir, "hash-object", "-t", "commit", "-w", "--stdin"], { input: raw, encoding: "utf8" }).trim();
    const parsed = (await findCommitObject(pool, dir, sha))!;
    expect(parsed.signature).toBe("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----");
    expect(parsed.message).toBe("Signed\n");
    expect(toApiCommit(parsed)).toEqual(await readCommit(dir, sha));
  });
});

describe("findCommitObject", () => {
  it("resolves shas, abbreviated shas, branches, annotated tags and revisions; null otherwise", async () => {
    const head = all[all.length - 1]!;
    gitIn(dir, "update-ref", "refs/heads/feature/x", head);
    gitIn(dir, "tag", "-a", "-m", "annotated", "v1", all[3]!);
    expect((await findCommitObject(pool, dir, "feature/x"))?.oid).toBe(head);
    expect((await findCommitObject(pool, dir, head.slice(0, 12)))?.oid).toBe(head);
    expect((await findCommitObject(pool, dir, "v1"))?.oid).toBe(all[3]);
    expect((await findCommitObject(pool, dir, "feature/x~0"))?.oid).toBe(head);
    for (const rev of ["nope", "-x", "a..b", "feature/x:file.txt", "has space", "", `${head}^{tree}`]) {
      expect(await findCommitObject(pool, dir, rev)).toBeNull();
    }
  });
});

it("isPlausibleRevision refuses options, ranges, paths and blanks", () => {
  expect(isPlausibleRevision("main")).toBe(true);
  expect(isPlausibleRevision("feature/x")).toBe(true);
  for (const rev of ["", "-n", "a..b", "a...b", "main:README.md", "a b", "a\nb"]) expect(isPlausibleRevision(rev)).toBe(false);
});

it("isoDate prints the time in the ident's own zone", () => {
  expect(isoDate(0, "+0000")).toBe("1970-01-01T00:00:00+00:00");
  expect(isoDate(1700000000, "+0530")).toBe("2023-11-15T03:43:20+05:30");
  expect(isoDate(1700000000, "-0800")).toBe("2023-11-14T14:13:20-08:00");
});
