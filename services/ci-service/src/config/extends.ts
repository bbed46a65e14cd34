/**
 * `extends` (GitLab's Config::Extendable) and `!reference` tags, both over the whole top-level
 * hash after includes. Bases merge in order with Ruby's deep_merge (hashes merge, arrays are
 * replaced), the entry's own keys last; at most 10 levels.
 */
import type { Errors } from "./entries.ts";
import { Reference } from "./load-yaml.ts";
import { deepMerge, inspectList, isHash, isStringArray, setKey, type Hash } from "./util.ts";

const MAX_NESTING_LEVELS = 10;

class ExtendsError extends Error {}

export function resolveExtends(config: Hash, errors: Errors): Hash {
  const out: Hash = { ...config };
  const done = new Set<string>();

  const resolve = (key: string, ancestors: string[]): Hash => {
    const value = out[key];
    if (!isHash(value) || value.extends === undefined || done.has(key)) return value as Hash;
    // A malformed `extends` is the job validation's to report.
    if (typeof value.extends !== "string" && !isStringArray(value.extends)) return value;
    if (ancestors.includes(key)) throw new ExtendsError(`${key}: circular dependency detected in \`extends\``);
    if (ancestors.length > MAX_NESTING_LEVELS) throw new ExtendsError(`${key}: nesting too deep in \`extends\``);
    const bases = typeof value.extends === "string" ? [value.extends] : value.extends;
    const unknown = bases.filter((b) => !Object.hasOwn(out, b));
    if (unknown.length > 0) throw new ExtendsError(`${key}: unknown keys in \`extends\` (${unknown.join(", ")})`);
    const invalid = bases.filter((b) => !isHash(out[b]));
    if (invalid.length > 0) throw new ExtendsError(`${key}: invalid base hashes in \`extends\` (${invalid.join(", ")})`);
    let merged: Hash = {};
    for (const base of bases) merged = deepMerge(merged, resolve(base, [...ancestors, key]));
    const result = deepMerge(merged, value);
    setKey(out, key, result);
    done.add(key);
    return result;
  };

  for (const key of Object.keys(out)) {
    try {
      resolve(key, []);
    } catch (err) {
      if (!(err instanceof ExtendsError)) throw err;
      // One broken chain is reported once, by the first entry that reaches it.
      if (!errors.includes(err.message)) errors.push(err.message);
      done.add(key);
    }
  }
  return out;
}

class ReferenceResolutionError extends Error {}

/** References may nest 10 deep; this bounds the values they expand to, like an alias bomb. */
const MAX_REFERENCE_NODES = 100_000;

/** Replaces every `!reference [key, subkey...]` by the value it points at. */
export function resolveReferences(config: Hash, errors: Errors): Hash {
  let nodes = 0;
  const walk = (value: unknown, depth: number): unknown => {
    if (++nodes > MAX_REFERENCE_NODES) throw new ReferenceResolutionError("!reference tags expand to too large a configuration");
    if (value instanceof Reference) return lookup(value, depth);
    if (Array.isArray(value)) return value.map((v) => walk(v, depth));
    if (isHash(value)) {
      const out: Hash = {};
      for (const [k, v] of Object.entries(value)) setKey(out, k, walk(v, depth));
      return out;
    }
    return value;
  };
  const lookup = (ref: Reference, depth: number): unknown => {
    const shown = `!reference ${inspectList(ref.path)}`;
    if (depth >= MAX_NESTING_LEVELS) throw new ReferenceResolutionError(`${shown} is part of a circular chain`);
    let target: unknown = config;
    for (const part of ref.path) {
      if (!isHash(target) || !Object.hasOwn(target, String(part))) {
        throw new ReferenceResolutionError(`${shown} could not be found`);
      }
      target = target[String(part)];
    }
    return walk(target, depth + 1);
  };

  try {
    return walk(config, 0) as Hash;
  } catch (err) {
    if (!(err instanceof ReferenceResolutionError)) throw err;
    errors.push(err.message);
    return config;
  }
}
