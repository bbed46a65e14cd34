/**
 * Orders jobs so that every job comes after the jobs it needs (GitLab's YamlProcessor::Dag.order,
 * a TSort): processing a stage in this order lets a job see the status its same-stage needs got
 * in the same pass. Needs outside `jobs` are ignored; ties keep the input order.
 */
export function dagOrder<T extends { name: string; needs: readonly string[] | null }>(jobs: readonly T[]): T[] {
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: T[] = [];
  const visit = (job: T) => {
    // Config validation rejects cycles; should one get here, it must not loop.
    if (done.has(job.name) || visiting.has(job.name)) return;
    visiting.add(job.name);
    for (const need of job.needs ?? []) {
      const dep = byName.get(need);
      if (dep) visit(dep);
    }
    visiting.delete(job.name);
    done.add(job.name);
    out.push(job);
  };
  jobs.forEach(visit);
  return out;
}
