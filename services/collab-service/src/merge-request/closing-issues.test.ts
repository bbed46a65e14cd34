import { describe, expect, it } from "vitest";
import { closingIssueIids } from "./closing-issues.ts";

describe("closingIssueIids", () => {
  it("reads GitLab's default closing pattern for the project's issues", () => {
    const path = "group/project";
    expect(closingIssueIids("Closes #1", path)).toEqual([1]);
    expect(closingIssueIids("fixes #2, #3 and #4", path)).toEqual([2, 3, 4]);
    expect(closingIssueIids("Resolves: issue #5\nImplements group/project#6", path)).toEqual([5, 6]);
    expect(closingIssueIids("Fixed https://gitlab.example.com/group/project/-/issues/7", path)).toEqual([7]);
    expect(closingIssueIids("closing #8. See #9, related to #10", path)).toEqual([8]);
    // Mentions without a closing word, other projects' issues and words inside words do not close.
    expect(closingIssueIids("See #1; other/project#2; prefixes #3", path)).toEqual([]);
    expect(closingIssueIids("Closes other/project#4", path)).toEqual([]);
  });
});
