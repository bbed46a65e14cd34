import { describe, expect, it } from "vitest";
import { issueReferencesIn } from "./mentions.ts";

describe("issueReferencesIn", () => {
  it("finds same-project issue references once each, outside code", () => {
    expect(issueReferencesIn("See #3 and #12, again #3.")).toEqual([3, 12]);
    expect(issueReferencesIn("(#4)\n- #5")).toEqual([4, 5]);
    expect(issueReferencesIn("`#6` and\n```\n#7\n```\nbut #8")).toEqual([8]);
    expect(issueReferencesIn("group/project#9 a#10 &#11; #0 #abc")).toEqual([]);
    expect(issueReferencesIn(null)).toEqual([]);
  });
});
