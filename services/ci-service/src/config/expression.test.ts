import { describe, expect, it } from "vitest";
import { evaluateExpression, ExpressionSyntaxError, parseExpression } from "./expression.ts";

const vars = {
  CI_COMMIT_BRANCH: "main",
  CI_DEFAULT_BRANCH: "main",
  CI_COMMIT_REF_NAME: "main",
  CI_PIPELINE_SOURCE: "push",
  EMPTY: "",
  BLANK: "   ",
  FEATURE: "feature/login",
  PATTERN: "/^feature\\//",
  WORDS: "alpha beta gamma",
};

describe("evaluateExpression", () => {
  it.each([
    ["$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH", true],
    ['$CI_COMMIT_BRANCH == "main"', true],
    ["$CI_COMMIT_BRANCH == 'main'", true],
    ['$CI_COMMIT_BRANCH != "main"', false],
    ['"main" == $CI_COMMIT_BRANCH', true],
    ["$CI_COMMIT_TAG", false],
    ["$CI_COMMIT_BRANCH", true],
    ["$EMPTY", false],
    ["$BLANK", false],
    ["$CI_COMMIT_TAG == null", true],
    ["$CI_COMMIT_TAG != null", false],
    ["$EMPTY == null", false],
    ['$EMPTY == ""', true],
    ['$CI_COMMIT_TAG == ""', false],
    ['$CI_PIPELINE_SOURCE == "web"', false],
    ["$FEATURE =~ /^feature\\//", true],
    ["$FEATURE =~ /^FEATURE/", false],
    ["$FEATURE =~ /^FEATURE/i", true],
    ["$FEATURE !~ /^release/", true],
    ["$FEATURE !~ /^feature/", false],
    ["$CI_COMMIT_TAG =~ /.*/", true],
    ["$CI_COMMIT_TAG =~ /./", false],
    ["$CI_COMMIT_TAG !~ /./", true],
    ["$FEATURE =~ $PATTERN", true],
    ["$FEATURE =~ $UNDEFINED", false],
    ['"beta" =~ $WORDS', true],
    ['"delta" =~ $WORDS', false],
    ['$CI_COMMIT_BRANCH == "main" && $CI_PIPELINE_SOURCE == "push"', true],
    ['$CI_COMMIT_BRANCH == "main" && $CI_PIPELINE_SOURCE == "web"', false],
    ['$CI_COMMIT_TAG || $CI_PIPELINE_SOURCE == "push"', true],
    // && binds tighter than ||
    ['$CI_PIPELINE_SOURCE == "push" || $CI_COMMIT_TAG && $NOPE', true],
    ['($CI_PIPELINE_SOURCE == "push" || $CI_COMMIT_TAG) && $NOPE', false],
    ['$CI_COMMIT_TAG && ($CI_COMMIT_BRANCH == "main")', false],
    // Ruby: "" is truthy inside &&, so the right operand decides
    ['$EMPTY && "x"', true],
    ['"literal"', true],
    ["null", false],
  ])("%s → %s", (expr, expected) => {
    expect(evaluateExpression(expr, vars)).toBe(expected);
  });

  it("matches with RE2: its syntax, its flags, and linear time", () => {
    const v = { BRANCH: "feature/Login", RUNAWAY: `${"a".repeat(5000)}b`, AS: "a".repeat(5000), PATTERN: "/^(a+)+$/" };
    expect(evaluateExpression("$BRANCH =~ /(?i)^FEATURE/", v)).toBe(true); // inline flags
    expect(evaluateExpression("$BRANCH =~ /^feature\\/(?P<name>\\w+)$/", v)).toBe(true);
    expect(evaluateExpression("$BRANCH =~ /^feature.login$/iU", v)).toBe(true); // i and U (ungreedy) flags
    expect(evaluateExpression("$BRANCH =~ /^[[:alpha:]]+\\//", v)).toBe(true);
    // 2^5000 ways for a backtracking engine to fail; RE2 answers at once.
    expect(evaluateExpression("$RUNAWAY =~ /^(a+)+$/", v)).toBe(false);
    expect(evaluateExpression("$AS =~ /^(a+)+$/", v)).toBe(true);
    expect(evaluateExpression("$RUNAWAY =~ $PATTERN", v)).toBe(false);
    // A variable holding a pattern RE2 refuses is searched as a plain string, as GitLab does.
    expect(evaluateExpression('"(a)" =~ $REF', { REF: "/(a)\\1/" })).toBe(true);
  });

  it("compares patterns by source, flags included", () => {
    expect(evaluateExpression("/a/i == /a/i", {})).toBe(true);
    expect(evaluateExpression("/a/i == /a/", {})).toBe(false);
  });

  it("treats a syntax error as false", () => {
    expect(evaluateExpression("$A ==", vars)).toBe(false);
  });
});

describe("parseExpression syntax errors", () => {
  it.each([
    ["$A =="],
    ["== $A"],
    ["$A $B"],
    ["($A == 'x'"],
    ["$A == 'x')"],
    ["$A = 'x'"],
    ['$A == "unterminated'],
    ["$A =~ /unterminated"],
    ["$A =~ /(/"],
    [""],
    ["$A & $B"],
  ])("%j is invalid", (expr) => {
    expect(() => parseExpression(expr)).toThrow(ExpressionSyntaxError);
  });

  it.each([
    // JavaScript's RegExp takes these; RE2, which GitLab evaluates CI patterns with, refuses them.
    ["$A =~ /^(a)\\1$/"],
    ["$A =~ /^(?=a)/"],
    ["$A =~ /^a\\Z/"],
  ])("%j is invalid: RE2 has no backreferences, lookaround or possessive quantifiers", (expr) => {
    expect(() => parseExpression(expr)).toThrow(ExpressionSyntaxError);
  });

  it("limits the number of tokens", () => {
    expect(() => parseExpression(Array(60).fill("$A").join(" && "))).toThrow(ExpressionSyntaxError);
  });
});
