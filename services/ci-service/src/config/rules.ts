/**
 * `rules:` lists (jobs, `workflow:` and `include:`): the first rule whose clauses all hold
 * decides; a rule without clauses always holds; no match means "not added".
 */
import { parseDuration } from "./duration.ts";
import { type Errors, parseNeeds, parseVariables, unknownKeys } from "./entries.ts";
import { ExpressionSyntaxError, expressionIsTrue, parseExpression, type Expression, type Variables } from "./expression.ts";
import type { CompiledNeed, PipelineContext, When } from "./types.ts";
import { isHash, isStringArray, matchesAnyGlob } from "./util.ts";

export interface Rule {
  if?: Expression;
  changes?: string[];
  exists?: string[];
  when?: When;
  allowFailure?: boolean;
  startInSeconds?: number;
  variables?: Record<string, string>;
  needs?: CompiledNeed[];
  interruptible?: boolean;
}

export type RuleKind = "job" | "workflow" | "include";

const KEYS: Record<RuleKind, string[]> = {
  job: ["if", "changes", "exists", "when", "start_in", "allow_failure", "variables", "needs", "interruptible"],
  workflow: ["if", "changes", "exists", "when", "variables", "auto_cancel"],
  include: ["if", "changes", "exists", "when"],
};
const WHEN: Record<RuleKind, When[]> = {
  job: ["on_success", "on_failure", "always", "never", "manual", "delayed"],
  workflow: ["always", "never"],
  include: ["always", "never"],
};

const ONE_WEEK = 7 * 24 * 3600;

/** Validates a `rules:` value; errors read "<location>:rules:rule ...". */
export function parseRules(value: unknown, location: string, kind: RuleKind, errors: Errors): Rule[] | undefined {
  if (!Array.isArray(value) || !value.every(isHash)) {
    errors.push(`${location} rules should be an array of hashes`);
    return undefined;
  }
  const before = errors.length;
  const at = `${location}:rules:rule`;
  const rules: Rule[] = [];
  for (const raw of value) {
    unknownKeys(raw, KEYS[kind], at, errors);
    const rule: Rule = {};
    if (raw.if !== undefined) {
      try {
        if (typeof raw.if !== "string") throw new ExpressionSyntaxError("not a string");
        rule.if = parseExpression(raw.if);
      } catch (err) {
        if (!(err instanceof ExpressionSyntaxError)) throw err;
        errors.push(`${at} if invalid expression syntax`);
      }
    }
    for (const clause of ["changes", "exists"] as const) {
      if (raw[clause] === undefined) continue;
      const paths = isHash(raw[clause]) ? raw[clause].paths : raw[clause];
      if (isStringArray(paths)) rule[clause] = paths;
      else errors.push(`${at}:${clause} config should be an array of strings`);
    }
    if (raw.when !== undefined) {
      if (WHEN[kind].includes(raw.when as When)) rule.when = raw.when as When;
      else errors.push(`${at} when unknown value: ${String(raw.when)}`);
    }
    if (raw.allow_failure !== undefined) {
      if (typeof raw.allow_failure === "boolean") rule.allowFailure = raw.allow_failure;
      else errors.push(`${at} allow_failure should be a boolean value`);
    }
    if (raw.start_in !== undefined) {
      const seconds = parseDuration(raw.start_in);
      if (raw.when !== "delayed") errors.push(`${at} config contains disallowed keys: start_in`);
      else if (seconds === null || seconds === 0) errors.push(`${at} start in should be a duration`);
      else if (seconds > ONE_WEEK) errors.push(`${at} start in should not exceed the limit`);
      else rule.startInSeconds = seconds;
    } else if (raw.when === "delayed") errors.push(`${at} start in can't be blank`);
    if (raw.variables !== undefined) rule.variables = parseVariables(raw.variables, `${at}:variables`, errors);
    if (raw.needs !== undefined) rule.needs = parseNeeds(raw.needs, `${at}:needs`, errors);
    if (raw.interruptible !== undefined) {
      if (typeof raw.interruptible === "boolean") rule.interruptible = raw.interruptible;
      else errors.push(`${at} interruptible should be a boolean value`);
    }
    rules.push(rule);
  }
  return errors.length > before ? undefined : rules;
}

/** The rule that decides, or null when none matches. */
export function matchRule(rules: readonly Rule[], vars: Variables, ctx: PipelineContext): Rule | null {
  return rules.find((rule) => ruleHolds(rule, vars, ctx)) ?? null;
}

function ruleHolds(rule: Rule, vars: Variables, ctx: PipelineContext): boolean {
  if (rule.if && !expressionIsTrue(rule.if, vars)) return false;
  // Without a list of changed or existing files GitLab cannot tell, and lets the rule match.
  if (rule.changes && ctx.changedPaths && !matchesAnyGlob(rule.changes, ctx.changedPaths)) return false;
  if (rule.exists && ctx.repositoryPaths && !matchesAnyGlob(rule.exists, ctx.repositoryPaths)) return false;
  return true;
}
