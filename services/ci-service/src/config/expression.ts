/**
 * GitLab's CI/CD variable expressions (`rules:if`, `only:variables`, `workflow:rules:if`):
 * `$VAR`, "string" / 'string', /regex/flags, null, ==, !=, =~, !~, &&, || and parentheses.
 * Comparisons bind tighter than &&, which binds tighter than || (GitLab's lexeme precedences
 * 10/11/12). Values follow Ruby: an undefined variable is nil, && and || return an operand, and
 * the statement is true when its value is `present?` (not nil, false, or a blank string).
 */

import { compileUserRegex, UntrustedRegexpError, type UserRegex } from "@quarry/safe-regex";

export class ExpressionSyntaxError extends Error {}

type Token =
  | { t: "(" | ")" | "==" | "!=" | "=~" | "!~" | "&&" | "||" | "null" }
  | { t: "var"; name: string }
  | { t: "str"; value: string }
  | { t: "re"; source: string; flags: string };

export type Expression =
  | { kind: "var"; name: string }
  | { kind: "str"; value: string }
  | { kind: "null" }
  | { kind: "re"; regexp: UserRegex }
  | { kind: "==" | "!=" | "=~" | "!~" | "&&" | "||"; left: Expression; right: Expression };

/** GitLab stops lexing after this many tokens. */
const MAX_TOKENS = 100;

const OPERATORS = ["==", "=~", "!=", "!~", "&&", "||"] as const;

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (tokens.length >= MAX_TOKENS) throw new ExpressionSyntaxError("too many tokens");
    if (c === "(" || c === ")") {
      tokens.push({ t: c });
      i++;
      continue;
    }
    const variable = /^\$(\w+)/.exec(src.slice(i));
    if (variable) {
      tokens.push({ t: "var", name: variable[1]! });
      i += variable[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new ExpressionSyntaxError("unterminated string");
      tokens.push({ t: "str", value: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (c === "/") {
      const re = readPattern(src, i);
      tokens.push(re.token);
      i = re.end;
      continue;
    }
    if (src.startsWith("null", i)) {
      tokens.push({ t: "null" });
      i += 4;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionSyntaxError(`unknown lexeme at ${i}`);
    tokens.push({ t: op });
    i += 2;
  }
  return tokens;
}

/** A /pattern/flags literal: `\/` escapes a slash; flags are RE2's i, s, m and U. */
function readPattern(src: string, start: number): { token: Token; end: number } {
  let j = start + 1;
  let body = "";
  while (j < src.length && src[j] !== "/") {
    if (src[j] === "\\" && src[j + 1] === "/") {
      body += "/";
      j += 2;
    } else {
      body += src[j];
      j++;
    }
  }
  if (j >= src.length || body === "") throw new ExpressionSyntaxError("unterminated pattern");
  const flags = /^[ismU]*/.exec(src.slice(j + 1))![0];
  return { token: { t: "re", source: body, flags }, end: j + 1 + flags.length };
}

/**
 * A /pattern/flags literal compiled as GitLab does (RubySyntax: the flags become an inline group)
 * with RE2, which matches in linear time; a pattern RE2 refuses is a syntax error, as in GitLab.
 */
export function compilePattern(source: string, flags: string): UserRegex {
  try {
    return compileUserRegex(source, flags);
  } catch (err) {
    if (err instanceof UntrustedRegexpError) throw new ExpressionSyntaxError("Invalid regular expression!");
    throw err;
  }
}

/** Parses an expression; throws ExpressionSyntaxError ("invalid expression syntax" in GitLab). */
export function parseExpression(src: string): Expression {
  const tokens = tokenize(src);
  if (tokens.length === 0) throw new ExpressionSyntaxError("empty expression");
  let pos = 0;
  const peek = () => tokens[pos]?.t;

  const primary = (): Expression => {
    const tok = tokens[pos++];
    if (!tok) throw new ExpressionSyntaxError("unexpected end");
    switch (tok.t) {
      case "(": {
        const inner = or();
        if (tokens[pos++]?.t !== ")") throw new ExpressionSyntaxError("missing )");
        return inner;
      }
      case "var":
        return { kind: "var", name: tok.name };
      case "str":
        return { kind: "str", value: tok.value };
      case "null":
        return { kind: "null" };
      case "re":
        return { kind: "re", regexp: compilePattern(tok.source, tok.flags) };
      default:
        throw new ExpressionSyntaxError(`unexpected ${tok.t}`);
    }
  };
  const comparison = (): Expression => {
    let left = primary();
    for (let op = peek(); op === "==" || op === "!=" || op === "=~" || op === "!~"; op = peek()) {
      pos++;
      left = { kind: op, left, right: primary() };
    }
    return left;
  };
  const and = (): Expression => {
    let left = comparison();
    while (peek() === "&&") {
      pos++;
      left = { kind: "&&", left, right: comparison() };
    }
    return left;
  };
  const or = (): Expression => {
    let left = and();
    while (peek() === "||") {
      pos++;
      left = { kind: "||", left, right: and() };
    }
    return left;
  };

  const tree = or();
  if (pos !== tokens.length) throw new ExpressionSyntaxError(`unexpected ${peek()}`);
  return tree;
}

type Value = string | UserRegex | boolean | null;
export type Variables = Readonly<Record<string, string | undefined>>;

/** Ruby truthiness: only nil and false are false. */
const truthy = (v: Value) => v !== null && v !== false;

function evaluate(e: Expression, vars: Variables): Value {
  switch (e.kind) {
    case "var":
      return Object.hasOwn(vars, e.name) ? (vars[e.name] ?? null) : null;
    case "str":
      return e.value;
    case "null":
      return null;
    case "re":
      return e.regexp;
    case "==":
      return equal(evaluate(e.left, vars), evaluate(e.right, vars));
    case "!=":
      return !equal(evaluate(e.left, vars), evaluate(e.right, vars));
    case "=~":
      return matches(evaluate(e.left, vars), evaluate(e.right, vars)) ?? false;
    case "!~": {
      const m = matches(evaluate(e.left, vars), evaluate(e.right, vars));
      return m === null ? true : !m;
    }
    case "&&": {
      const left = evaluate(e.left, vars);
      return truthy(left) ? evaluate(e.right, vars) : left;
    }
    case "||": {
      const left = evaluate(e.left, vars);
      return truthy(left) ? left : evaluate(e.right, vars);
    }
  }
}

const isPattern = (v: Value): v is UserRegex => typeof v === "object" && v !== null;

/** Patterns are equal when their sources are, flags included (GitLab's UntrustedRegexp#==). */
function equal(a: Value, b: Value): boolean {
  if (isPattern(a) || isPattern(b)) return isPattern(a) && isPattern(b) && a.source === b.source;
  return a === b;
}

/**
 * `text =~ pattern`; null when the right side is nil. A variable on the right holding
 * "/re/flags" is used as a pattern; any other string is searched for the text (Ruby's
 * String#scan, which GitLab ends up calling).
 */
function matches(left: Value, right: Value): boolean | null {
  if (right === null || right === false) return null;
  const text = typeof left === "string" ? left : left === null || left === false ? "" : String(left);
  let pattern: UserRegex | string = isPattern(right) ? right : String(right);
  if (typeof pattern === "string") {
    const literal = /^\/((?:[^\\/]|\\.)+)\/([ismU]*)$/s.exec(pattern);
    if (literal) {
      try {
        pattern = compilePattern(literal[1]!.replace(/\\\//g, "/"), literal[2]!);
      } catch {
        // not a valid pattern: GitLab falls back to the plain string
      }
    }
  }
  return typeof pattern === "string" ? pattern.includes(text) : pattern.test(text);
}

/** Whether the expression holds for these variables (Ruby's `present?` of its value). */
export function expressionIsTrue(e: Expression, vars: Variables): boolean {
  const v = evaluate(e, vars);
  if (v === null || v === false) return false;
  if (typeof v === "string") return v.trim() !== "";
  return true;
}

/** Parse and evaluate in one step; a syntax error makes the statement false, as in GitLab. */
export function evaluateExpression(src: string, vars: Variables): boolean {
  try {
    return expressionIsTrue(parseExpression(src), vars);
  } catch (err) {
    if (err instanceof ExpressionSyntaxError) return false;
    throw err;
  }
}
