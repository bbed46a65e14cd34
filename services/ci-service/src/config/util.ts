import { compileUserRegex, quoteMeta, UntrustedRegexpError } from "@quarry/safe-regex";

export type Hash = Record<string, unknown>;

export const isHash = (v: unknown): v is Hash => typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Assigns without triggering setters, so a key named `__proto__` stays a plain key. */
export function setKey(target: Hash, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Ruby's Hash#deep_merge: nested hashes merge, anything else (arrays too) is replaced. */
export function deepMerge(base: Hash, override: Hash): Hash {
  const out: Hash = {};
  for (const [k, v] of Object.entries(base)) setKey(out, k, v);
  for (const [k, v] of Object.entries(override)) {
    const current = Object.hasOwn(out, k) ? out[k] : undefined;
    setKey(out, k, isHash(current) && isHash(v) ? deepMerge(current, v) : v);
  }
  return out;
}

export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * A glob as GitLab matches `rules:changes`, `rules:exists` and wildcard includes (Ruby's
 * File.fnmatch with PATHNAME | DOTMATCH | EXTGLOB): `*` and `?` stay within one directory,
 * `**` crosses directories, `{a,b}` alternates. Globs come from the user's configuration, so they
 * are matched with RE2: several `*` in a row against a long path stay linear.
 */
export function compileGlob(glob: string): { test(path: string): boolean } {
  let re = "";
  let i = 0;
  let braces = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      re += slash ? "(?:.*/)?" : ".*";
      i += slash ? 3 : 2;
      continue;
    }
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "{") {
      re += "(?:";
      braces++;
    } else if (c === "}" && braces > 0) {
      re += ")";
      braces--;
    } else if (c === "," && braces > 0) re += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += quoteMeta(c);
    i++;
  }
  try {
    return compileUserRegex(`^${re}${")".repeat(braces)}$`);
  } catch (err) {
    // e.g. a reversed range "[z-a]": a pattern Ruby would not match anything with either
    if (err instanceof UntrustedRegexpError) return { test: () => false };
    throw err;
  }
}

export const matchesAnyGlob = (globs: readonly string[], paths: readonly string[]): boolean => {
  const matchers = globs.map((g) => compileGlob(g.replace(/^\//, "")));
  return paths.some((p) => matchers.some((m) => m.test(p)));
};

/** Ruby's Array#inspect for strings: ["a", "b"]. */
export const inspectList = (items: readonly unknown[]): string => `[${items.map((i) => JSON.stringify(i)).join(", ")}]`;
