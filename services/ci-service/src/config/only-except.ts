/**
 * `only` / `except` (GitLab's Build::Policy): refs keywords (branches, tags, pushes, web, api,
 * triggers, schedules, pipelines, merge_requests...), literal refs, /regex/ refs and
 * `ref@project/path`, plus `variables` expressions and `changes` globs.
 */
import { type Errors, unknownKeys } from "./entries.ts";
import { compileRegexLiteral, isValidUserRegex, parseRegexLiteral, UntrustedRegexpError } from "@quarry/safe-regex";
import { ExpressionSyntaxError, expressionIsTrue, parseExpression, type Expression, type Variables } from "./expression.ts";
import type { PipelineContext } from "./types.ts";
import { isHash, isStringArray, matchesAnyGlob } from "./util.ts";

export interface Policy {
  refs?: string[];
  variables?: Expression[];
  changes?: string[];
}

/** Jobs without `only`, `except` or `rules` run for branches and tags. */
export const DEFAULT_ONLY: Policy = { refs: ["branches", "tags"] };

/**
 * GitLab's ArrayOfStringsOrRegexpsValidator: an entry in the /pattern/flags notation must be a
 * pattern RE2 accepts (it is matched with RE2).
 */
const validRefs = (refs: readonly string[]): boolean =>
  refs.every((ref) => {
    const literal = parseRegexLiteral(ref);
    return !literal || isValidUserRegex(literal.pattern, literal.flags);
  });

export function parsePolicy(value: unknown, location: string, errors: Errors): Policy | undefined {
  if (isStringArray(value) || typeof value === "string") {
    const refs = typeof value === "string" ? [value] : value;
    if (validRefs(refs)) return { refs };
    errors.push(`${location} config should be an array of strings or regular expressions using re2 syntax`);
    return undefined;
  }
  if (!isHash(value)) {
    errors.push(`${location} config should be an array of strings or regular expressions using re2 syntax`);
    return undefined;
  }
  const before = errors.length;
  unknownKeys(value, ["refs", "variables", "changes", "kubernetes"], location, errors);
  const policy: Policy = {};
  if (value.refs !== undefined) {
    if (isStringArray(value.refs) && validRefs(value.refs)) policy.refs = value.refs;
    else errors.push(`${location}:refs config should be an array of strings or regular expressions`);
  }
  if (value.variables !== undefined) {
    if (!isStringArray(value.variables)) errors.push(`${location}:variables config should be an array of strings`);
    else {
      policy.variables = [];
      for (const source of value.variables) {
        try {
          policy.variables.push(parseExpression(source));
        } catch (err) {
          if (!(err instanceof ExpressionSyntaxError)) throw err;
          errors.push(`${location}:variables config should be valid expressions`);
        }
      }
    }
  }
  if (value.changes !== undefined) {
    const paths = isHash(value.changes) ? value.changes.paths : value.changes;
    if (isStringArray(paths)) policy.changes = paths;
    else errors.push(`${location}:changes config should be an array of strings`);
  }
  return errors.length > before ? undefined : policy;
}

/** Every part of the policy that is present holds (how `only` is read). */
export function policySatisfied(policy: Policy, vars: Variables, ctx: PipelineContext): boolean {
  return parts(policy, vars, ctx).every(Boolean);
}

/** Some part of the policy holds (how `except` is read). */
export function policyAnySatisfied(policy: Policy, vars: Variables, ctx: PipelineContext): boolean {
  return parts(policy, vars, ctx).some(Boolean);
}

function parts(policy: Policy, vars: Variables, ctx: PipelineContext): boolean[] {
  const out: boolean[] = [];
  if (policy.refs) out.push(policy.refs.some((pattern) => refMatches(pattern, ctx)));
  if (policy.variables) out.push(policy.variables.some((e) => expressionIsTrue(e, vars)));
  if (policy.changes) out.push(!ctx.changedPaths || matchesAnyGlob(policy.changes, ctx.changedPaths));
  return out;
}

/** GitLab's source name in refs keywords: merge_request_event → merge_requests. */
function sourceNames(source: string): string[] {
  const name = source.replace(/_event$/, "");
  return [name, /(sh|ch|s|x)$/.test(name) ? `${name}es` : `${name}s`];
}

function refMatches(entry: string, ctx: PipelineContext): boolean {
  const at = entry.indexOf("@");
  const pattern = at >= 0 ? entry.slice(0, at) : entry;
  if (at >= 0 && entry.slice(at + 1) !== ctx.projectPath) return false;
  // A merge request pipeline is neither a branch nor a tag pipeline.
  const mergeRequest = ctx.source === "merge_request_event";
  if (ctx.tag && pattern === "tags") return true;
  if (!ctx.tag && !mergeRequest && pattern === "branches") return true;
  if (sourceNames(ctx.source).includes(pattern)) return true;
  if (mergeRequest) return false;
  // GitLab's Build::Policy::Refs: a /pattern/flags entry is matched with RE2; one RE2 refuses (not
  // let through by validation) is compared as a plain name.
  if (parseRegexLiteral(pattern)) {
    try {
      return compileRegexLiteral(pattern).test(ctx.ref);
    } catch (err) {
      if (!(err instanceof UntrustedRegexpError)) throw err;
    }
  }
  return pattern === ctx.ref;
}
