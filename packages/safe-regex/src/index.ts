/**
 * Regular expressions from users, run with RE2 (the re2js port): matching takes time linear in the
 * text, so a pattern such as `^(a+)+$` cannot freeze the event loop the way a backtracking RegExp
 * does. This mirrors GitLab's Gitlab::UntrustedRegexp: RE2 syntax, RE2's error texts, and the
 * `/pattern/flags` notation of its RubySyntax.
 */
import { RE2JS, RE2JSException, RE2JSSyntaxException } from "re2js";

/** A pattern RE2 refuses; `reason` is RE2's own text, e.g. "invalid escape sequence: \1". */
export class UntrustedRegexpError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "UntrustedRegexpError";
  }
}

/**
 * RE2 (C++) refuses programs over its memory budget with this text; GitLab users see it. The budget
 * here is smaller than C++'s default (~170k instructions): it bounds both the compile and the
 * per-character cost of matching, and real branch filters and CI patterns are far below it.
 */
export const MAX_PROGRAM_SIZE = 20_000;
const TOO_LARGE = "pattern too large - compile failed";

/**
 * re2js reports Go's error texts; GitLab runs C++ RE2, whose wording differs for these.
 * (RE2's RegexpStatus::Text is "<code text>: <argument>".)
 */
const CPP_ERROR_TEXT: Record<string, string> = {
  "missing closing ]": "missing ]",
  "missing closing )": "missing )",
  "trailing backslash at end of expression": "trailing \\",
  "missing argument to repetition operator": "no argument for repetition operator",
  "invalid repeat count": "invalid repetition size",
  "invalid nested repetition operator": "bad repetition operator",
  "invalid or unsupported Perl syntax": "invalid perl operator",
  "invalid named capture": "invalid named capture group",
};

const FLAGS = /^[imsU]*$/;

/**
 * Compiling costs tens of microseconds, matching a fraction of one, and the same few patterns
 * (protected-branch wildcards, a hook's filter) are asked about for every branch: keep the
 * recently used ones. Compiled patterns are stateless, so sharing them is safe. Few, because each
 * may grow a DFA cache of up to 8 MB.
 */
const CACHE_SIZE = 64;
const compiled = new Map<string, UserRegex>();

/** A compiled user pattern. Matching is unanchored, like GitLab's UntrustedRegexp#===. */
export class UserRegex {
  private constructor(
    /** The pattern with its flags as an inline group, e.g. "(?i)^main$" — what GitLab compares. */
    readonly source: string,
    private readonly re2: RE2JS,
  ) {}

  /** Internal: use compileUserRegex. */
  static fromCompiled(source: string, re2: RE2JS): UserRegex {
    return new UserRegex(source, re2);
  }

  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean {
    return this.re2.test(text);
  }

  /**
   * GitLab's UntrustedRegexp#scan: every non-overlapping match, each as its capture groups (an
   * unmatched group is null), or as `[whole match]` when the pattern has no groups.
   */
  scan(text: string): (string | null)[][] {
    const groups = this.re2.groupCount();
    const out: (string | null)[][] = [];
    for (const m of this.re2.matchAll(text)) {
      out.push(groups === 0 ? [m[0] as string] : m.slice(1).map((g) => (g === undefined ? null : (g as string))));
    }
    return out;
  }
}

/**
 * Compiles a user-supplied pattern with RE2. `flags` (any of i, m, s, U) are prepended as an
 * inline group, as GitLab's RubySyntax does for `/pattern/flags`. Throws UntrustedRegexpError with
 * RE2's reason for what RE2 refuses (backreferences, lookaround, possessive quantifiers...).
 */
export function compileUserRegex(pattern: string, flags = ""): UserRegex {
  if (!FLAGS.test(flags)) throw new UntrustedRegexpError(`invalid flags: ${flags}`);
  const source = flags ? `(?${flags})${pattern}` : pattern;
  const cached = compiled.get(source);
  if (cached) {
    // Most recently used last, so the oldest is dropped first.
    compiled.delete(source);
    compiled.set(source, cached);
    return cached;
  }
  if (estimatedProgramSize(source) > MAX_PROGRAM_SIZE) throw new UntrustedRegexpError(TOO_LARGE);
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(source);
  } catch (err) {
    throw new UntrustedRegexpError(reasonOf(err));
  }
  if (re2.programSize() > MAX_PROGRAM_SIZE) throw new UntrustedRegexpError(TOO_LARGE);
  const regex = UserRegex.fromCompiled(source, re2);
  compiled.set(source, regex);
  if (compiled.size > CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  return regex;
}

/** Whether RE2 accepts the pattern. */
export function isValidUserRegex(pattern: string, flags = ""): boolean {
  try {
    compileUserRegex(pattern, flags);
    return true;
  } catch (err) {
    if (err instanceof UntrustedRegexpError) return false;
    throw err;
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof RE2JSSyntaxException) {
    const text = CPP_ERROR_TEXT[err.error] ?? err.error;
    return err.input == null || err.input === "" ? text : `${text}: ${err.input}`;
  }
  if (err instanceof RE2JSException) return err.message;
  throw err;
}

/**
 * GitLab's UntrustedRegexp::RubySyntax notation: "/pattern/flags" with flags among i, s, m and U.
 * Null when the text is not in that notation (it may still be an invalid pattern).
 */
export function parseRegexLiteral(text: string): { pattern: string; flags: string } | null {
  // Ruby's %r{^/(?<regexp>.*)/(?<flags>[ismU]*)$}: "." stops at a newline and ^/$ are line anchors,
  // so only the first line can hold the literal.
  const m = /^\/(.*)\/([ismU]*)$/m.exec(text);
  return m ? { pattern: m[1]!, flags: m[2]! } : null;
}

/** RubySyntax.fabricate!: "/pattern/flags" compiled; a text not in that notation is refused too. */
export function compileRegexLiteral(text: string): UserRegex {
  const literal = parseRegexLiteral(text);
  if (!literal) throw new UntrustedRegexpError("Invalid regular expression!");
  return compileUserRegex(literal.pattern, literal.flags);
}

/** RE2's QuoteMeta: `text` as a pattern matching exactly itself. */
export function quoteMeta(text: string): string {
  return RE2JS.quote(text);
}

/**
 * A GitLab wildcard (RefMatcher: protected branches, webhook branch filters): `*` matches any run
 * of characters, everything else itself, the whole name. Compiled with RE2, so a pattern with
 * many stars stays linear too.
 */
export function compileWildcard(pattern: string): UserRegex {
  return compileUserRegex(`^${pattern.split("*").map(quoteMeta).join(".*?")}$`);
}

/**
 * An upper estimate of RE2's program size (instructions), read from the pattern text without
 * compiling: re2js compiles eagerly, so `a{1000}` repeated a few thousand times would cost seconds
 * before the size check after compiling could refuse it. Counts one instruction per atom, two per
 * group and alternation, and multiplies an atom by the upper count of a `{n,m}` after it. Nested
 * counts multiply (RE2 itself limits their product to 1000).
 */
export function estimatedProgramSize(pattern: string): number {
  const frames: number[] = [0];
  let lastAtom = 0;
  let i = 0;
  const add = (n: number) => {
    frames[frames.length - 1]! += n;
    lastAtom = n;
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        const stop = end < 0 ? pattern.length : end;
        add(stop - (i + 2));
        i = end < 0 ? pattern.length : end + 2;
        continue;
      }
      // \x{...}, \p{...}, \P{...} are single atoms.
      if ((next === "x" || next === "p" || next === "P") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i + 3);
        i = end < 0 ? pattern.length : end + 1;
      } else i += 2;
      add(1);
      continue;
    }
    if (c === "[") {
      let j = i + 1;
      if (pattern[j] === "^") j++;
      if (pattern[j] === "]") j++;
      while (j < pattern.length && pattern[j] !== "]") {
        if (pattern[j] === "\\") j++;
        else if (pattern[j] === "[" && pattern[j + 1] === ":") {
          const end = pattern.indexOf(":]", j + 2);
          if (end >= 0) j = end + 1;
        }
        j++;
      }
      i = j + 1;
      add(1);
      continue;
    }
    if (c === "(") {
      frames.push(0);
      i++;
      continue;
    }
    if (c === ")") {
      const inner = frames.length > 1 ? frames.pop()! : 0;
      i++;
      add(inner + 2);
      continue;
    }
    if (c === "|") {
      frames[frames.length - 1]! += 1;
      lastAtom = 0;
      i++;
      continue;
    }
    if (c === "{") {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (m) {
        const low = Number(m[1]);
        const high = m[2] ? (m[3] ? Number(m[3]) : low + 1) : low;
        // The atom is already counted once; a count of 0 still leaves an instruction or two.
        frames[frames.length - 1]! += lastAtom * Math.max(high - 1, 0) + 1;
        lastAtom = lastAtom * Math.max(high, 1) + 1;
        i += m[0].length;
        continue;
      }
    }
    if (c === "*" || c === "+" || c === "?") {
      frames[frames.length - 1]! += 1;
      i++;
      continue;
    }
    add(1);
    i++;
  }
  return frames.reduce((a, b) => a + b, 0);
}
