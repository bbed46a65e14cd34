import { describe, expect, it } from "vitest";
import {
  assigneesChangedBody,
  confidentialityBody,
  discussionLockBody,
  dueDateBody,
  markInlineDiff,
  mentionedInBody,
  titleChangedBody,
  toSentence,
} from "./bodies.ts";

describe("system note bodies (GitLab's wording)", () => {
  it("joins words as Rails' to_sentence", () => {
    expect(toSentence(["a"])).toBe("a");
    expect(toSentence(["a", "b"])).toBe("a and b");
    expect(toSentence(["a", "b", "c"])).toBe("a, b, and c");
  });

  it("marks the changed middle of a title as GitLab's inline diff markers", () => {
    expect(titleChangedBody("Old title", "New title")).toBe("changed title from **{-Old-} title** to **{+New+} title**");
    expect(titleChangedBody("Crash", "Crash on save")).toBe("changed title from **Crash** to **Crash{+ on save+}**");
    expect(markInlineDiff("same", "same")).toEqual({ old: "same", new: "same" });
    expect(markInlineDiff("aXa", "aa")).toEqual({ old: "a{-X-}a", new: "aa" });
  });

  it("describes assignee, confidentiality, lock, due date and mention changes", () => {
    expect(assigneesChangedBody(["ann"], [])).toBe("assigned to @ann");
    expect(assigneesChangedBody(["ann", "bob", "cy"], ["dan"])).toBe("assigned to @ann, @bob, and @cy and unassigned @dan");
    expect(assigneesChangedBody([], ["dan", "eve"])).toBe("unassigned @dan and @eve");
    expect(confidentialityBody(true)).toBe("made the issue confidential");
    expect(confidentialityBody(false)).toBe("made the issue visible to everyone");
    expect(discussionLockBody(true)).toBe("locked the discussion in this issue");
    expect(discussionLockBody(false)).toBe("unlocked the discussion in this issue");
    expect(dueDateBody("2026-11-30")).toBe("changed due date to November 30, 2026");
    expect(dueDateBody("2027-01-05")).toBe("changed due date to January 5, 2027");
    expect(dueDateBody(null)).toBe("removed due date");
    expect(mentionedInBody("#3")).toBe("mentioned in #3");
  });
});
