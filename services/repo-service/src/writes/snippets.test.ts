import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { humanSize, snippetCommitActions, snippetDiskPath } from "./snippets.ts";

describe("snippet rules", () => {
  it("hashes the snippet id into @snippets/ as GitLab's hashed storage", () => {
    const h = createHash("sha256").update("1").digest("hex");
    expect(h).toBe("6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b");
    expect(snippetDiskPath(1)).toBe(`@snippets/6b/86/${h}.git`);
    for (const bad of [0, -3, 1.5, Number.NaN]) expect(() => snippetDiskPath(bad)).toThrow("snippet_id does not have a valid value");
  });

  it("prints sizes as Rails' number_to_human_size", () => {
    expect([0, 1, 12, 1023, 1024, 1536, 52_428_800, 52_428_801, 60_000_000, 1024 ** 3].map(humanSize)).toEqual([
      "0 Bytes",
      "1 Byte",
      "12 Bytes",
      "1023 Bytes",
      "1 KB",
      "1.5 KB",
      "50 MB",
      "50 MB",
      "57.2 MB",
      "1 GB",
    ]);
  });

  it("turns files[] entries into commit actions as SnippetRepository#transform_file_entries", () => {
    const entry = (action: string, filePath = "", previousPath = "", content?: string) => ({
      action,
      filePath,
      previousPath,
      content: content === undefined ? undefined : Buffer.from(content),
    });
    const actions = snippetCommitActions(
      [
        entry("create", "", "", "a"),
        entry("update", "", "old.txt", "b"),
        entry("update", "kept.txt"),
        entry("move", "", "m.txt"),
        entry("create", "", "", "c"),
      ],
      ["snippetfile2.txt", "x.txt"],
    );
    expect(actions.map((a) => [a.action, a.filePath, a.previousPath, a.content?.toString()])).toEqual([
      ["create", "snippetfile3.txt", "", "a"],
      ["update", "old.txt", "old.txt", "b"],
      ["move", "m.txt", "m.txt", undefined],
      ["create", "snippetfile4.txt", "", "c"],
    ]);
    expect(() => snippetCommitActions([entry("create", "a", "", "12345")], [], 4)).toThrow();
  });
});
