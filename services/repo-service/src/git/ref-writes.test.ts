import { describe, expect, it } from "vitest";
import { mayWriteRefs, refsChanged, refsGeneration } from "./ref-writes.ts";

describe("mayWriteRefs", () => {
  it("takes git's reading subcommands as reads, after any global options", () => {
    for (const args of [
      ["for-each-ref", "refs/heads/"],
      ["rev-parse", "--verify", "HEAD"],
      ["log", "-1"],
      ["cat-file", "--batch-command"],
      ["diff-tree", "--stdin"],
      ["blame", "--porcelain", "abc", "--", "f"],
      ["merge-base", "a", "b"],
      ["commit-tree", "-m", "x", "tree"],
      ["mktag"],
      ["-c", "core.hooksPath=/x", "upload-pack", "--stateless-rpc", "/repo"],
      ["--literal-pathspecs", "log", "--", "p"],
      ["receive-pack", "--stateless-rpc", "--advertise-refs", "/repo"],
      ["symbolic-ref", "-q", "HEAD"],
    ]) {
      expect(mayWriteRefs(args), args.join(" ")).toBe(false);
    }
  });

  it("takes ref writers, symbolic-ref with a target or -d, receive-pack and unknown subcommands as writes", () => {
    for (const args of [
      ["update-ref", "refs/heads/main", "abc"],
      ["update-ref", "--stdin"],
      ["symbolic-ref", "HEAD", "refs/heads/main"],
      ["symbolic-ref", "-d", "HEAD"],
      ["-c", "core.hooksPath=/x", "receive-pack", "--stateless-rpc", "/repo"],
      ["pack-refs", "--all"],
      ["fetch", "origin"],
      ["tag", "v1"],
      ["branch", "-D", "x"],
      ["some-future-command"],
    ]) {
      expect(mayWriteRefs(args), args.join(" ")).toBe(true);
    }
  });
});

describe("refs generations", () => {
  it("moves a repository's generation on with every change, by its resolved path, and no other's", () => {
    const a = refsGeneration("/tmp/a.git");
    const b = refsGeneration("/tmp/b.git");
    refsChanged("/tmp/x/../a.git");
    const a2 = refsGeneration("/tmp/a.git");
    expect(a2).not.toBe(a);
    expect(refsGeneration("/tmp/b.git")).toBe(b);
    refsChanged("/tmp/a.git");
    expect(refsGeneration("/tmp/a.git")).not.toBe(a2);
  });
});
