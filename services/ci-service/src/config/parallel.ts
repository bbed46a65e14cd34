import type { Definitionish } from "./job.ts";

export interface Instance {
  name: string;
  /** Matrix variables of this instance. */
  variables: Record<string, string>;
  parallel: { index: number; total: number } | null;
}

/**
 * The jobs a definition becomes (GitLab's Config::Normalizer): `parallel: 3` gives
 * "test 1/3".."test 3/3"; a matrix gives "test: [a, x]" per combination.
 */
export function instancesOf(def: Definitionish): Instance[] {
  const parallel = def.kind === "job" ? def.parallel : null;
  if (!parallel) {
    return [{ name: def.name, variables: {}, parallel: null }];
  }
  const { total, matrix } = parallel;
  return Array.from({ length: total }, (_, i) => {
    const variables = matrix?.[i] ?? {};
    const name = matrix ? `${def.name}: [${Object.values(variables).join(", ")}]` : `${def.name} ${i + 1}/${total}`;
    return { name, variables, parallel: { index: i + 1, total } };
  });
}
