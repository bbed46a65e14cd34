import { describe, expect, it } from "vitest";
import { mergeCommitMessage, squashCommitMessage } from "./merge-messages.ts";

const facts = { sourceBranch: "feature", targetBranch: "main", title: "Add a thing", description: "Body", reference: "g/p!3", closingIids: [] as number[] };

describe("merge messages", () => {
  it("writes GitLab's default merge commit message, dropping the empty issues line", () => {
    expect(mergeCommitMessage("", facts)).toBe("Merge branch 'feature' into 'main'\n\nAdd a thing\n\nSee merge request g/p!3");
    expect(mergeCommitMessage("", { ...facts, closingIids: [1, 2] })).toBe(
      "Merge branch 'feature' into 'main'\n\nAdd a thing\n\nCloses #1 and #2\n\nSee merge request g/p!3",
    );
  });

  it("fills a project's template and keeps unknown placeholders", () => {
    expect(mergeCommitMessage("%{title} (%{source_branch})\n\n%{description}\n%{nope}", facts)).toBe("Add a thing (feature)\n\nBody\n%{nope}");
    expect(squashCommitMessage("", facts)).toBe("Add a thing");
  });
});
