import { describe, expect, it } from "vitest";
import {
  compileRegexLiteral,
  compileUserRegex,
  compileWildcard,
  estimatedProgramSize,
  isValidUserRegex,
  MAX_PROGRAM_SIZE,
  parseRegexLiteral,
  quoteMeta,
  UntrustedRegexpError,
} from "./index.ts";

const reasonFor = (pattern: string, flags?: string): string => {
  try {
    compileUserRegex(pattern, flags);
  } catch (err) {
    expect(err).toBeInstanceOf(UntrustedRegexpError);
    return (err as UntrustedRegexpError).reason;
  }
  throw new Error(`${pattern} compiled`);
};

describe("compileUserRegex", () => {
  it("matches nested quantifiers in linear time: ^(a+)+$ against 5000 a's and a b is simply false", () => {
    // A backtracking RegExp would try 2^5000 ways to split the a's before answering.
    const re = compileUserRegex("^(a+)+$");
    expect(re.test("a".repeat(5000) + "b")).toBe(false);
    expect(re.test("a".repeat(5000))).toBe(true);
    expect(compileUserRegex("(x+x+)+y").test("x".repeat(20_000))).toBe(false);
    expect(compileUserRegex("^(\\w+\\s?)*$").test("an ordinary sentence that ends badly!".repeat(200))).toBe(false);
  });

  it("matches unanchored, case-sensitively, with RE2's syntax", () => {
    expect(compileUserRegex("feat").test("my-feature")).toBe(true);
    expect(compileUserRegex("^feat").test("my-feature")).toBe(false);
    expect(compileUserRegex("FEAT").test("feature")).toBe(false);
    expect(compileUserRegex("(?i)FEAT").test("feature")).toBe(true);
    expect(compileUserRegex("^release/\\d+\\.\\d+$").test("release/1.10")).toBe(true);
    expect(compileUserRegex("(?P<major>\\d+)").test("v1")).toBe(true);
    expect(compileUserRegex("[[:upper:]]").test("Main")).toBe(true);
    expect(compileUserRegex("\\Aa\\z").test("a")).toBe(true);
    // $ without (?m) is the end of the text only.
    expect(compileUserRegex("a$").test("a\n")).toBe(false);
  });

  it("accepts GitLab's flags as an inline group, which is also the source GitLab compares", () => {
    const re = compileUserRegex("^main$", "i");
    expect(re.source).toBe("(?i)^main$");
    expect(re.test("MAIN")).toBe(true);
    expect(compileUserRegex("a.b", "s").test("a\nb")).toBe(true);
    expect(compileUserRegex("a.b").test("a\nb")).toBe(false);
    expect(compileUserRegex("^b", "m").test("a\nb")).toBe(true);
    expect(compileUserRegex("a+", "U").scan("aaa")).toEqual([["a"], ["a"], ["a"]]);
    expect(() => compileUserRegex("a", "g")).toThrow(UntrustedRegexpError);
  });

  it("refuses what RE2 does not support, with RE2's (C++) reason", () => {
    expect(reasonFor("(a)\\1")).toBe("invalid escape sequence: \\1");
    expect(reasonFor("a(?=b)")).toBe("invalid perl operator: (?=");
    expect(reasonFor("a(?!b)")).toBe("invalid perl operator: (?!");
    expect(reasonFor("(?<=a)b")).toBe("invalid named capture group: (?<=a)b");
    expect(reasonFor("a++")).toBe("bad repetition operator: ++");
    expect(reasonFor("feature/(")).toBe("missing ): feature/(");
    expect(reasonFor("[a")).toBe("missing ]: [a");
    expect(reasonFor("a\\")).toBe("trailing \\");
    expect(reasonFor("*a")).toBe("no argument for repetition operator: *");
    expect(reasonFor("a{1001}")).toBe("invalid repetition size: {1001}");
    expect(reasonFor("[z-a]")).toBe("invalid character class range: z-a");
    expect(reasonFor("\\Z")).toBe("invalid escape sequence: \\Z");
    expect(isValidUserRegex("(a)\\1")).toBe(false);
    expect(isValidUserRegex("(a)(b)")).toBe(true);
  });

  it("refuses a program over the size budget before compiling it", () => {
    expect(reasonFor("a{1000}".repeat(2000))).toBe("pattern too large - compile failed");
    expect(reasonFor("((a{100}){10}[bc]{2})".repeat(20))).toBe("pattern too large - compile failed");
    expect(isValidUserRegex("[a-z]{1000}")).toBe(true);
  });

  it("scans like GitLab's UntrustedRegexp#scan: groups per match, or the whole match", () => {
    expect(compileUserRegex("\\d+%").scan("10% and 20%")).toEqual([["10%"], ["20%"]]);
    expect(compileUserRegex("(\\d+)%( total)?").scan("10% and 20% total")).toEqual([
      ["10", null],
      ["20", " total"],
    ]);
    expect(compileUserRegex("x").scan("abc")).toEqual([]);
  });
});

describe("estimatedProgramSize", () => {
  it("is an upper estimate of what RE2 compiles", () => {
    expect(estimatedProgramSize("abc")).toBe(3);
    expect(estimatedProgramSize("a{1000}")).toBeGreaterThanOrEqual(1000);
    expect(estimatedProgramSize("((a{10}){10}){10}")).toBeGreaterThanOrEqual(1000);
    expect(estimatedProgramSize("[a-z]{5}\\x{41}{3}\\Q.*\\E")).toBeGreaterThanOrEqual(8);
    expect(estimatedProgramSize("a{1000}".repeat(100))).toBeGreaterThan(MAX_PROGRAM_SIZE);
  });
});

describe("GitLab's /pattern/flags notation", () => {
  it("parses and compiles it", () => {
    expect(parseRegexLiteral("/^feat/i")).toEqual({ pattern: "^feat", flags: "i" });
    expect(parseRegexLiteral("/a/b/")).toEqual({ pattern: "a/b", flags: "" });
    expect(parseRegexLiteral("main")).toBeNull();
    expect(parseRegexLiteral("/a/x")).toBeNull();
    expect(compileRegexLiteral("/^FEAT/i").test("feature")).toBe(true);
    expect(() => compileRegexLiteral("main")).toThrow("Invalid regular expression!");
    expect(() => compileRegexLiteral("/(a)\\1/")).toThrow(UntrustedRegexpError);
  });
});

describe("quoteMeta and compileWildcard", () => {
  it("quotes every character so the pattern matches exactly the text", () => {
    let all = "";
    for (let c = 0; c < 128; c++) all += String.fromCharCode(c);
    all += "é😀\u2028";
    const re = compileUserRegex(`^${quoteMeta(all)}$`);
    expect(re.test(all)).toBe(true);
    expect(re.test(all.slice(1))).toBe(false);
  });

  it("matches GitLab's wildcards: * is any run of characters, the rest is literal, the whole name", () => {
    expect(compileWildcard("release/*").test("release/1.0/hotfix")).toBe(true);
    expect(compileWildcard("release/*").test("pre-release/1")).toBe(false);
    expect(compileWildcard("fé*").test("féature")).toBe(true);
    expect(compileWildcard("a.b").test("axb")).toBe(false);
    expect(compileWildcard("(a)+[*").test("(a)+[x")).toBe(true);
    // Many stars against a long near-miss: RE2 stays linear where .*? backtracking is polynomial.
    expect(compileWildcard("*a*a*a*a*a*a*a*a*a*a*a*a*b").test("a".repeat(3000))).toBe(false);
  });
});
