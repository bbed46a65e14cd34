/**
 * `include:`: local files are read through the context and deep-merged under the including
 * file (which wins), recursively. Remote, template, project and component includes need
 * network or GitLab's bundled templates and fail with GitLab's messages.
 */
import type { Errors } from "./entries.ts";
import type { Variables } from "./expression.ts";
import { loadYaml } from "./load-yaml.ts";
import { matchRule, parseRules } from "./rules.ts";
import type { PipelineContext } from "./types.ts";
import { deepMerge, compileGlob, inspectList, isHash, type Hash } from "./util.ts";

/** GitLab's limit on included files per pipeline. */
const MAX_INCLUDES = 150;

const ACCESSORS = ["local", "remote", "template", "project", "component"] as const;

interface State {
  ctx: PipelineContext;
  vars: Variables;
  errors: Errors;
  seen: Set<string>;
  count: number;
}

/** The configuration with every include merged in and the `include` keys removed. */
export function expandIncludes(config: Hash, ctx: PipelineContext, vars: Variables, errors: Errors): Hash {
  return expand(config, { ctx, vars, errors, seen: new Set(), count: 0 });
}

function expand(config: Hash, state: State): Hash {
  const { include, ...rest } = config;
  if (include === undefined || include === null) return rest;
  let merged: Hash = {};
  for (const location of includeLocations(include, state)) {
    const content = fetchLocal(location, state);
    if (content) merged = deepMerge(merged, expand(content, state));
  }
  return deepMerge(merged, rest);
}

/** The local paths this `include:` value selects (after its rules), reporting the others. */
function includeLocations(include: unknown, state: State): string[] {
  const { errors } = state;
  const items = Array.isArray(include) ? include : [include];
  const paths: string[] = [];
  for (const item of items) {
    if (typeof item === "string") {
      if (/^https?:\/\//.test(item)) remoteError(item, errors);
      else paths.push(...resolveLocal(item, state));
      continue;
    }
    if (!isHash(item)) {
      errors.push(`Include \`${JSON.stringify(item)}\` needs to match exactly one accessor!`);
      continue;
    }
    const accessors = ACCESSORS.filter((a) => item[a] !== undefined);
    if (accessors.length !== 1) {
      errors.push(`Include \`${JSON.stringify(item)}\` needs to match exactly one accessor!`);
      continue;
    }
    if (item.rules !== undefined) {
      const rules = parseRules(item.rules, "include", "include", errors);
      const rule = rules && matchRule(rules, state.vars, state.ctx);
      if (!rule || rule.when === "never") continue;
    }
    const accessor = accessors[0]!;
    const target = item[accessor];
    if (accessor === "local" && typeof target === "string") paths.push(...resolveLocal(target, state));
    else if (accessor === "remote" && typeof target === "string") remoteError(target, errors);
    else if (accessor === "project") {
      errors.push(`Project \`${String(target)}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`);
    } else {
      errors.push(`Included file \`${typeof target === "string" ? target : inspectList([target])}\` is empty or does not exist!`);
    }
  }
  return paths;
}

function remoteError(url: string, errors: Errors): void {
  errors.push(`Remote file \`${url}\` could not be fetched because of a socket error!`);
}

/** A local path, or every repository file a wildcard path matches. */
function resolveLocal(path: string, state: State): string[] {
  const clean = path.replace(/^\/+/, "");
  if (!/[*?[{]/.test(clean)) return [clean];
  const re = compileGlob(clean);
  return (state.ctx.repositoryPaths ?? []).filter((p) => re.test(p)).sort();
}

function fetchLocal(path: string, state: State): Hash | null {
  const { errors } = state;
  // The same file twice adds nothing; skipping it also stops include cycles.
  if (state.seen.has(path)) return null;
  state.seen.add(path);
  if (++state.count > MAX_INCLUDES) {
    if (state.count === MAX_INCLUDES + 1) errors.push(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
    return null;
  }
  if (!/\.ya?ml$/.test(path)) {
    errors.push(`Included file \`${path}\` does not have YAML extension!`);
    return null;
  }
  const text = state.ctx.readFile?.(path) ?? null;
  if (text === null) {
    errors.push(`Local file \`${path}\` does not exist!`);
    return null;
  }
  const loaded = loadYaml(text);
  if (!loaded.ok) {
    errors.push(`Included file \`${path}\` does not have valid YAML syntax!`);
    return null;
  }
  if (loaded.value === null || loaded.value === undefined) return {};
  if (!isHash(loaded.value)) {
    errors.push(`Included file \`${path}\` does not have valid YAML syntax!`);
    return null;
  }
  return loaded.value;
}
