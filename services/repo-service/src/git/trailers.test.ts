import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTrailers, trailerMaps, type Trailer } from "./trailers.ts";

// Git without user or system configuration (no trailer.* settings), outside any repository.
const isolated = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: "/nonexistent" };
const runGit = (args: string[], input?: string, cwd = os.tmpdir()) =>
  execFileSync("git", args, { input, cwd, env: isolated, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });

/** Reads git's "Token: value" lines back into trailers. */
function fromGitOutput(out: string): Trailer[] {
  return out
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(":");
      return { key: line.slice(0, colon), value: line.slice(colon + 2) };
    });
}

const interpretTrailers = (message: string, ...flags: string[]) => fromGitOutput(runGit(["interpret-trailers", "--parse", ...flags], message));

const MESSAGES: Record<string, string> = {
  "Signed-off-by twice": "Fix the parser\n\nIt was broken.\n\nSigned-off-by: Ada <ada@example.com>\nSigned-off-by: Bob <bob@example.com>\n",
  "Co-authored-by and others": "Add feature\n\nCo-authored-by: Ada <ada@example.com>\nReviewed-by: Bob\nCo-authored-by: Carol <carol@example.com>\n",
  "non-trailer last paragraph":
    "Title\n\nFixes: nothing\n\nThis paragraph is prose, not trailers.\nSigned-off-by: Ada <ada@example.com>\nMore prose here.\nAnd more.\nAnd more still.\n",
  "continuation lines": "Title\n\nBody.\n\nKey: first part\n  second part\n\tthird part\nOther: value\n",
  "title only, looking like a trailer": "Signed-off-by: Ada <ada@example.com>\n",
  "title paragraph of two lines": "Key: value\nOther: value\n",
  "25% rule with Signed-off-by": "Title\n\nprose line one\nSigned-off-by: Ada <ada@example.com>\nprose line two\nprose line three\n",
  "Signed-off-by outweighed": "Title\n\na\nb\nc\nd\nSigned-off-by: Ada <ada@example.com>\n",
  "cherry-picked line": "Title\n\nSigned-off-by: Ada <ada@example.com>\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n",
  "comments and trailing blank lines": "Title\n\nKey: value\n# a comment\nOther: value\n\n\n# trailing comment\n\n",
  "spaces before the colon, empty value": "Title\n\nKey : spaced\nEmpty:\nTabbed\t: value\n",
  "URL-like line": "Title\n\nhttps://example.com/some/path\n",
  "not a token": "Title\n\nTwo words: value\nKey: value\n",
  "continuation after a non-trailer": "Title\n\nKey: value\nnot a trailer\n  indented\n",
  "leading indented line": "Title\n\n  indented: x\nKey: value\n",
  "no final newline": "Title\n\nKey: value\nOther: last",
  CRLF: "Title\r\n\r\nKey: value\r\nOther: v\r\n",
  "old Conflicts block": "Merge branch 'x'\n\nKey: value\n\nConflicts:\n\tfile.c\n\tother.c\n",
  scissors: "Title\n\nKey: value\n# ------------------------ >8 ------------------------\nIgnored: yes\n",
  "divider inside the message": "Title\n\nKey: before\n---\nbelow the rule\n\nAfter: rule\n",
  "prototype keys": "Title\n\nconstructor: a\nhasOwnProperty: b\nconstructor: c\n",
  "underscore is not a token character": "Title\n\nKey: value\n__proto__: b\n",
  "unicode values": "Título\n\nCo-authored-by: Zoë Ünlü <zoe@example.com>\nÜmlaut-key: x\n",
  "only blank lines after title": "Title\n\n\n\n",
  "empty message": "",
};

let repo: string;
beforeAll(() => {
  repo = mkdtempSync(path.join(os.tmpdir(), "quarry-trailers-"));
  runGit(["init", "--quiet", "--bare", repo]);
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("parseTrailers agrees with git", () => {
  it.each(Object.entries(MESSAGES))("%s", (_, message) => {
    // Commit messages have no patch: git log's %(trailers) and Gitaly ignore "---" dividers.
    expect(parseTrailers(message)).toEqual(interpretTrailers(message, "--no-divider"));
    expect(parseTrailers(message, { divider: true })).toEqual(interpretTrailers(message));

    const tree = runGit(["--git-dir", repo, "mktree"], "").trim();
    const commit = runGit(["--git-dir", repo, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit-tree", tree], message).trim();
    const fromLog = fromGitOutput(runGit(["--git-dir", repo, "log", "-1", "--format=%(trailers:only,unfold)", commit]));
    expect(parseTrailers(message)).toEqual(fromLog);
  });

  it("reads the cases the way GitLab shows them", () => {
    expect(parseTrailers(MESSAGES["Signed-off-by twice"]!)).toEqual([
      { key: "Signed-off-by", value: "Ada <ada@example.com>" },
      { key: "Signed-off-by", value: "Bob <bob@example.com>" },
    ]);
    expect(parseTrailers(MESSAGES["continuation lines"]!)).toEqual([
      { key: "Key", value: "first part second part third part" },
      { key: "Other", value: "value" },
    ]);
    expect(parseTrailers(MESSAGES["non-trailer last paragraph"]!)).toEqual([]);
    expect(parseTrailers(MESSAGES["25% rule with Signed-off-by"]!)).toEqual([{ key: "Signed-off-by", value: "Ada <ada@example.com>" }]);
    expect(parseTrailers(MESSAGES["divider inside the message"]!)).toEqual([{ key: "After", value: "rule" }]);
  });
});

describe("trailerMaps", () => {
  it("keeps the last value per key and every value in order", () => {
    expect(trailerMaps(parseTrailers(MESSAGES["Co-authored-by and others"]!))).toEqual({
      trailers: { "Co-authored-by": "Carol <carol@example.com>", "Reviewed-by": "Bob" },
      extendedTrailers: {
        "Co-authored-by": { values: ["Ada <ada@example.com>", "Carol <carol@example.com>"] },
        "Reviewed-by": { values: ["Bob"] },
      },
    });
  });

  it("stores keys that collide with Object.prototype as plain own properties", () => {
    const { trailers, extendedTrailers } = trailerMaps(parseTrailers(MESSAGES["prototype keys"]!));
    expect(Object.getPrototypeOf(trailers)).toBe(Object.prototype);
    expect(Object.keys(trailers)).toEqual(["constructor", "hasOwnProperty"]);
    expect(trailers.constructor).toBe("c");
    expect(extendedTrailers.constructor).toEqual({ values: ["a", "c"] });
  });
});
