import { parseDocument, YAMLSeq, type CollectionTag, type ScalarTag, type Tags } from "yaml";

/** A `!reference [job, key, ...]` tag, resolved after `extends` like GitLab does. */
export class Reference {
  readonly path: unknown[];
  constructor(path: unknown[]) {
    this.path = path;
  }
}

class ReferenceSeq extends YAMLSeq {
  static tag = "!reference";
  // toJS() calls toJSON on every node; the marker object stands in for the sequence.
  override toJSON(key?: unknown, ctx?: Parameters<YAMLSeq["toJSON"]>[1]): unknown[] {
    return new Reference(super.toJSON(key, ctx)) as unknown as unknown[];
  }
}

const referenceTag = {
  tag: "!reference",
  collection: "seq",
  nodeClass: ReferenceSeq,
} as unknown as CollectionTag;

/**
 * Psych reads yes/no/on/off as booleans but not y/n (so `Y: 1` is a variable named Y), and
 * GitLab does not load timestamps as dates: adjust the YAML 1.1 tags to match.
 */
const PSYCH_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PSYCH_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;

function psychTags(tags: Tags): Tags {
  const out: Tags = [];
  for (const t of tags) {
    if (typeof t === "string" || t.tag === "tag:yaml.org,2002:timestamp") continue;
    if (t.tag === "tag:yaml.org,2002:bool" && "test" in t) {
      out.push({ ...(t as ScalarTag), test: t.identify?.(true) ? PSYCH_TRUE : PSYCH_FALSE });
    } else out.push(t);
  }
  out.push(referenceTag);
  return out;
}

export type LoadResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Parses YAML the way GitLab's Psych loader reads it: YAML 1.1 scalars (yes/no are booleans),
 * anchors, aliases and `<<` merge keys, a repeated key keeps its last value. Syntax errors come
 * back in Psych's shape, "(<unknown>): <problem> at line L column C".
 */
export function loadYaml(text: string): LoadResult {
  const doc = parseDocument(text, {
    version: "1.1",
    merge: true,
    uniqueKeys: false,
    customTags: psychTags,
    prettyErrors: true,
  });
  const error = doc.errors[0];
  if (error) {
    const problem = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    const pos = error.linePos?.[0];
    const where = pos ? ` at line ${pos.line} column ${pos.col}` : "";
    return { ok: false, error: `(<unknown>): ${lowerFirst(problem)}${where}` };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }) };
  } catch (err) {
    // Alias expansion bombs end here rather than exhausting memory.
    return { ok: false, error: `(<unknown>): ${lowerFirst((err as Error).message)}` };
  }
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
