import { describe, expect, it } from "vitest";
import { isValidColor, labelTextColor, normalizeColor } from "./colors.ts";

describe("label colours", () => {
  it("reads hex and CSS names as Gitlab::Color.of does", () => {
    expect(normalizeColor(" Red ")).toBe("#FF0000");
    expect(normalizeColor("#abc")).toBe("#abc");
    expect(isValidColor("#abc")).toBe(true);
    expect(isValidColor("#AABBCC")).toBe(true);
    expect(isValidColor("#abcd")).toBe(false);
    expect(isValidColor("reddish")).toBe(false);
  });

  it("computes text_color as Gitlab::Color#contrast", () => {
    expect(labelTextColor("#FFFFFF")).toBe("#1F1E24");
    expect(labelTextColor("#FFFF00")).toBe("#1F1E24");
    expect(labelTextColor("#000000")).toBe("#FFFFFF");
    expect(labelTextColor("#FF0000")).toBe("#FFFFFF");
    expect(labelTextColor("#428BCA")).toBe("#FFFFFF");
    expect(labelTextColor("#fff")).toBe("#1F1E24");
  });
});
